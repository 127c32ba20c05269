/* The decision of collscope tune (reports/tune/tune_decide.h). Pure. */
#include "reports/tune/tune_decide.h"

#include "reports/stats/stats.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const why_text[TUNE_WHY_COUNT] = {
    [TUNE_FASTER] = "significantly faster than the default",
    [TUNE_NO_DEFAULT] = "no default measured at this point",
    [TUNE_DEFAULT_WRONG] = "the default gave wrong results",
    [TUNE_DEFAULT_FEW] = "the default has too few samples",
    [TUNE_NONE_FASTER] = "no correct forced algorithm with enough samples is faster",
    [TUNE_NOT_SIGNIFICANT] = "the fastest is not significantly faster",
    [TUNE_GAIN_SMALL] = "the fastest gains less than the minimum",
    [TUNE_NOT_CONFIRMED] = "not confirmed when measured again",
    [TUNE_WOULD_REGRESS] = "slower than the default when measured again: the file would regress",
};

/* A set and its p50, sorted by point then alg, so a point's default comes first. */
struct entry {
	const struct tune_set *s;
	double p50_us;
};

void tune_decide_opts_init(struct tune_decide_opts *o)
{
	o->alpha = TUNE_DEFAULT_ALPHA;
	o->min_gain = TUNE_DEFAULT_MIN_GAIN;
	o->min_samples = TUNE_DEFAULT_MIN_SAMPLES;
}

const char *tune_why_text(enum tune_why w)
{
	return (unsigned)w < TUNE_WHY_COUNT ? why_text[w] : "unknown";
}

static int check_opts(const struct tune_decide_opts *o, char *err, size_t errlen)
{
	if (!(o->alpha > 0 && o->alpha < 1)) {
		snprintf(err, errlen, "alpha %g is not between 0 and 1", o->alpha);
		return -1;
	}
	if (!(o->min_gain >= 1 && isfinite(o->min_gain))) {
		snprintf(err, errlen, "minimum gain %g is below 1", o->min_gain);
		return -1;
	}
	if (o->min_samples < 2) {
		snprintf(err, errlen, "minimum samples %zu is below 2 (the test needs two a side)",
		         o->min_samples);
		return -1;
	}
	return 0;
}

static int check_set(const struct tune_set *s, size_t i, char *err, size_t errlen)
{
	const char *bad = NULL;

	if (s->ranks < 1)
		bad = "ranks below 1";
	else if (s->alg < 0)
		bad = "a negative algorithm id";
	else if (!s->alg_name)
		bad = "no algorithm name";
	else if (s->nsamples > 0 && !s->samples_us)
		bad = "no samples array";
	if (bad) {
		snprintf(err, errlen, "set %zu (%d ranks, %" PRIu64 " bytes, alg %d) has %s", i,
		         s->ranks, s->bytes, s->alg, bad);
		return -1;
	}
	for (size_t k = 0; k < s->nsamples; k++) {
		if (!isfinite(s->samples_us[k]) || s->samples_us[k] < 0) {
			snprintf(err, errlen,
			         "set %zu (%d ranks, %" PRIu64 " bytes, %s) sample %zu is %g us", i,
			         s->ranks, s->bytes, s->alg_name, k, s->samples_us[k]);
			return -1;
		}
	}
	return 0;
}

static int cmp_point(const struct tune_set *a, const struct tune_set *b)
{
	if (a->ranks != b->ranks)
		return a->ranks < b->ranks ? -1 : 1;
	if (a->bytes != b->bytes)
		return a->bytes < b->bytes ? -1 : 1;
	return 0;
}

static int cmp_entry_point_alg(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	int c = cmp_point(a->s, b->s);
	if (c)
		return c;
	return (a->s->alg > b->s->alg) - (a->s->alg < b->s->alg);
}

/* Ascending p50, NAN last; equal p50s by alg, so the order never depends on qsort. */
static int cmp_entry_p50(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	bool na = isnan(a->p50_us), nb = isnan(b->p50_us);
	if (na != nb)
		return na ? 1 : -1;
	if (!na && a->p50_us != b->p50_us)
		return a->p50_us < b->p50_us ? -1 : 1;
	return (a->s->alg > b->s->alg) - (a->s->alg < b->s->alg);
}

/* Fills e[] with the checked sets and their p50s, sorted by point then alg. */
static int load_entries(const struct tune_set *sets, size_t n, struct entry *e, char *err,
                        size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		if (check_set(&sets[i], i, err, errlen))
			return -1;
		e[i].s = &sets[i];
		e[i].p50_us = NAN;
		if (sets[i].nsamples > 0) {
			e[i].p50_us = stats_median(sets[i].samples_us, sets[i].nsamples);
			if (isnan(e[i].p50_us)) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
		}
	}
	qsort(e, n, sizeof(*e), cmp_entry_point_alg);
	for (size_t i = 1; i < n; i++) {
		if (cmp_entry_point_alg(&e[i - 1], &e[i]) == 0) {
			snprintf(err, errlen, "two sets of %s at %d ranks, %" PRIu64 " bytes",
			         e[i].s->alg_name, e[i].s->ranks, e[i].s->bytes);
			return -1;
		}
	}
	return 0;
}

static bool is_candidate(const struct entry *e, const struct entry *def, const struct tune_decide_opts *o)
{
	return !e->s->wrong && e->s->nsamples >= o->min_samples && e->p50_us < def->p50_us;
}

/*
 * Tests the candidates among cand[0..n) (sorted by p50) against def, in
 * order, and records the first that passes, or the fastest's failure.
 */
static int test_candidates(const struct entry *def, const struct entry *cand, size_t n,
                           const struct tune_decide_opts *o, struct tune_choice *c)
{
	bool first = true;

	for (size_t i = 0; i < n; i++) {
		if (!is_candidate(&cand[i], def, o))
			continue;
		double u, p;
		if (stats_mann_whitney(cand[i].s->samples_us, cand[i].s->nsamples,
		                       def->s->samples_us, def->s->nsamples, &u, &p))
			return -1;
		double gain = def->p50_us / cand[i].p50_us;
		bool wins = p < o->alpha && gain >= o->min_gain;
		if (first || wins) {
			c->candidate_alg = cand[i].s->alg;
			c->candidate_name = cand[i].s->alg_name;
			c->candidate_p50_us = cand[i].p50_us;
			c->gain = gain;
			c->p_value = p;
			c->why = p < o->alpha ? TUNE_GAIN_SMALL : TUNE_NOT_SIGNIFICANT;
		}
		first = false;
		if (wins) {
			c->alg = cand[i].s->alg;
			c->alg_name = cand[i].s->alg_name;
			c->chosen_p50_us = cand[i].p50_us;
			c->changed = true;
			c->why = TUNE_FASTER;
			return 0;
		}
	}
	if (first)
		c->why = TUNE_NONE_FASTER;
	return 0;
}

/* One point: e[0..n) are its sets, sorted by alg, so a default is e[0]. */
static int decide_point(struct entry *e, size_t n, const struct tune_decide_opts *o, struct tune_choice *c)
{
	*c = (struct tune_choice){
	    .ranks = e[0].s->ranks,
	    .bytes = e[0].s->bytes,
	    .default_p50_us = NAN,
	    .chosen_p50_us = NAN,
	    .candidate_alg = -1,
	    .candidate_p50_us = NAN,
	    .gain = NAN,
	    .p_value = NAN,
	    .confirm_gain = NAN,
	    .confirm_p_value = NAN,
	};
	if (e[0].s->alg != 0) {
		c->why = TUNE_NO_DEFAULT;
		return 0;
	}
	const struct entry *def = &e[0];
	c->alg_name = def->s->alg_name;
	c->default_p50_us = c->chosen_p50_us = def->p50_us;
	if (def->s->wrong) {
		c->why = TUNE_DEFAULT_WRONG;
		return 0;
	}
	if (def->s->nsamples < o->min_samples) {
		c->why = TUNE_DEFAULT_FEW;
		return 0;
	}
	qsort(e + 1, n - 1, sizeof(*e), cmp_entry_p50);
	return test_candidates(def, e + 1, n - 1, o, c);
}

int tune_decide(const struct tune_set *sets, size_t nsets, const struct tune_decide_opts *opts,
                struct tune_choice *out, size_t *nout, char *err, size_t errlen)
{
	struct tune_decide_opts defaults;
	struct entry *e = NULL;
	size_t k = 0;
	int rc = -1;

	*nout = 0;
	if (!opts) {
		tune_decide_opts_init(&defaults);
		opts = &defaults;
	}
	if (check_opts(opts, err, errlen))
		goto out;
	if (nsets == 0) {
		rc = 0;
		goto out;
	}
	e = malloc(nsets * sizeof(*e));
	if (!e) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (load_entries(sets, nsets, e, err, errlen))
		goto out;
	for (size_t i = 0; i < nsets;) {
		size_t j = i + 1;
		while (j < nsets && cmp_point(e[i].s, e[j].s) == 0)
			j++;
		if (decide_point(e + i, j - i, opts, &out[k++])) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		i = j;
	}
	*nout = k;
	rc = 0;
out:
	free(e);
	return rc;
}

size_t tune_ranks(const struct tune_choice *c, size_t n, int *out)
{
	size_t k = 0;

	/* Insertion into a sorted distinct list: rank counts are few. */
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < k && out[j] < c[i].ranks)
			j++;
		if (j < k && out[j] == c[i].ranks)
			continue;
		for (size_t m = k; m > j; m--)
			out[m] = out[m - 1];
		out[j] = c[i].ranks;
		k++;
	}
	return k;
}

static int cmp_choice_bytes(const void *pa, const void *pb)
{
	const struct tune_choice *a = pa, *b = pb;
	return (a->bytes > b->bytes) - (a->bytes < b->bytes);
}

/* Appends a range from `from` with alg, merged into the last one when the algs match. */
static void range_push(struct tune_range *out, size_t *k, uint64_t from, int alg,
                       const char *name)
{
	if (*k > 0 && out[*k - 1].alg == alg)
		return;
	if (*k > 0)
		out[*k - 1].to_bytes = from;
	out[(*k)++] = (struct tune_range){
	    .from_bytes = from, .to_bytes = UINT64_MAX, .alg = alg, .alg_name = name};
}

int tune_ranges(const struct tune_choice *c, size_t n, int ranks, struct tune_range *out,
                size_t *nout, char *err, size_t errlen)
{
	struct tune_choice *at = NULL; /* the choices at ranks, sorted by size */
	size_t m = 0, k = 0;
	int rc = -1;

	*nout = 0;
	at = malloc((n ? n : 1) * sizeof(*at));
	if (!at) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (c[i].ranks == ranks)
			at[m++] = c[i];
	if (m == 0) {
		snprintf(err, errlen, "no choice at %d ranks", ranks);
		goto out;
	}
	qsort(at, m, sizeof(*at), cmp_choice_bytes);
	/* a decision file starts at 0 bytes: below the sizes measured, the library decides */
	if (at[0].bytes > 0)
		range_push(out, &k, 0, 0, NULL);
	for (size_t i = 0; i < m; i++) {
		if (i > 0 && at[i].bytes == at[i - 1].bytes) {
			snprintf(err, errlen, "two choices at %d ranks, %" PRIu64 " bytes", ranks,
			         at[i].bytes);
			goto out;
		}
		range_push(out, &k, at[i].bytes, at[i].alg, at[i].alg_name);
	}
	/* and above them too (the largest size measured keeps its choice) */
	if (at[m - 1].bytes < UINT64_MAX)
		range_push(out, &k, at[m - 1].bytes + 1, 0, NULL);
	*nout = k;
	rc = 0;
out:
	free(at);
	return rc;
}

int tune_choices_check(const struct tune_choice *c, size_t n, char *err, size_t errlen)
{
	if (n == 0) {
		snprintf(err, errlen, "no choice to write");
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (c[i].ranks < 1 || c[i].alg < 0) {
			snprintf(err, errlen, "choice %zu has %d ranks and alg %d", i, c[i].ranks,
			         c[i].alg);
			return -1;
		}
	return 0;
}
