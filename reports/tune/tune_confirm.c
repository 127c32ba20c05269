/*
 * The decision's second measurement (reports/tune/tune_decide.h,
 * tune_confirm). Pure. The choice was the best of several algorithms on
 * one draw of samples; measured again, independently, a real lead holds and
 * a lucky one fades, so a file is written only with leads that held.
 */
#include "reports/tune/tune_decide.h"

#include "reports/stats/stats.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

/* The set of again at (ranks, bytes, alg), or NULL. */
static const struct tune_set *find(const struct tune_set *again, size_t n, int ranks,
                                   uint64_t bytes, int alg)
{
	for (size_t i = 0; i < n; i++)
		if (again[i].ranks == ranks && again[i].bytes == bytes && again[i].alg == alg)
			return &again[i];
	return NULL;
}

static bool usable(const struct tune_set *s, const struct tune_decide_opts *o)
{
	return s && !s->wrong && s->nsamples >= o->min_samples && s->samples_us;
}

/* The verdict on one changed choice: 1 reverted, 0 held, -1 error. */
static int confirm_one(struct tune_choice *c, const struct tune_set *again, size_t nagain,
                       const struct tune_decide_opts *o, char *err, size_t errlen)
{
	const struct tune_set *def = find(again, nagain, c->ranks, c->bytes, 0);
	const struct tune_set *alg = find(again, nagain, c->ranks, c->bytes, c->alg);
	double u, p = NAN;
	if (usable(def, o) && usable(alg, o)) {
		if (stats_mann_whitney(alg->samples_us, alg->nsamples, def->samples_us,
		                       def->nsamples, &u, &p)) {
			snprintf(err, errlen, "the test at %d ranks, %" PRIu64 " bytes", c->ranks,
			         c->bytes);
			return -1;
		}
		c->confirm_gain = stats_median(def->samples_us, def->nsamples) /
		                  stats_median(alg->samples_us, alg->nsamples);
		c->confirm_p_value = p;
		if (p < o->alpha && c->confirm_gain > 1)
			return 0;
	}
	c->why = p < o->alpha && c->confirm_gain < 1 ? TUNE_WOULD_REGRESS : TUNE_NOT_CONFIRMED;
	c->alg = 0;
	c->changed = false;
	c->chosen_p50_us = c->default_p50_us;
	return 1;
}

int tune_confirm(struct tune_choice *c, size_t n, const struct tune_set *again, size_t nagain,
                 const struct tune_decide_opts *opts, char *err, size_t errlen)
{
	struct tune_decide_opts d;
	if (!opts) {
		tune_decide_opts_init(&d);
		opts = &d;
	}
	for (size_t i = 0; i < nagain; i++)
		if (again[i].nsamples > 0 && !again[i].samples_us) {
			snprintf(err, errlen, "set %zu of the second measurement has no samples array", i);
			return -1;
		}
	int reverted = 0;
	for (size_t i = 0; i < n; i++) {
		if (!c[i].changed)
			continue;
		int r = confirm_one(&c[i], again, nagain, opts, err, errlen);
		if (r < 0)
			return -1;
		reverted += r;
	}
	return reverted;
}
