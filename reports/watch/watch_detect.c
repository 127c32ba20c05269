/* See watch_detect.h. */
#include "reports/watch/watch_detect.h"

#include <math.h>
#include <stdlib.h>

#include "reports/stats/changepoint.h"
#include "reports/stats/stats.h"

struct watch_point {
	double t_s, log_value;
};

void watch_detect_params_default(struct watch_detect_params *p)
{
	*p = (struct watch_detect_params){.window = WATCH_DEFAULT_WINDOW,
	                                  .confirm = WATCH_DEFAULT_CONFIRM,
	                                  .alpha = WATCH_DEFAULT_ALPHA,
	                                  .permutations = WATCH_DEFAULT_PERMUTATIONS,
	                                  .min_step = WATCH_DEFAULT_MIN_STEP,
	                                  .seed = 0x7761746368ULL /* "watch" */};
}

int watch_detector_init(struct watch_detector *d, const struct watch_detect_params *p)
{
	*d = (struct watch_detector){.p = *p};
	if (p->confirm < 2 || p->window < 2 * p->confirm || !(p->alpha > 0 && p->alpha < 1) ||
	    p->permutations < 1 || !(p->min_step >= 0) || !isfinite(p->min_step))
		return -1;
	d->scratch = malloc(p->window * sizeof *d->scratch);
	if (!d->scratch || watch_ring_init(&d->ring, p->window, sizeof(struct watch_point)) != 0) {
		free(d->scratch);
		d->scratch = NULL;
		return -1;
	}
	return 0;
}

void watch_detector_release(struct watch_detector *d)
{
	watch_ring_release(&d->ring);
	free(d->scratch);
	d->scratch = NULL;
}

/* The window's logarithms into scratch, oldest first; their count. */
static size_t window_values(const struct watch_detector *d)
{
	for (size_t i = 0; i < d->ring.n; i++)
		d->scratch[i] = ((const struct watch_point *)watch_ring_at(&d->ring, i))->log_value;
	return d->ring.n;
}

static double point_time(const struct watch_detector *d, size_t i)
{
	return ((const struct watch_point *)watch_ring_at(&d->ring, i))->t_s;
}

/* The medians of scratch[0..at) and scratch[at..n): logarithms of the two levels. */
static void levels(const double *x, size_t n, size_t at, double *left, double *right)
{
	*left = stats_median(x, at);
	*right = stats_median(x + at, n - at);
}

/*
 * The split keeps confirm values a side, so with a step of confirm - 1 values
 * it takes an old value into the new side: the first of the new level is the
 * first value from at on nearer the new side's median than the old one's.
 */
static size_t new_level_start(const double *x, size_t n, size_t at)
{
	double left, right;
	levels(x, n, at, &left, &right);
	while (at < n && fabs(x[at] - left) < fabs(x[at] - right))
		at++;
	return at;
}

int watch_detector_push(struct watch_detector *d, double t_s, double value,
                        struct watch_change *out)
{
	if (!(value > 0) || !isfinite(value) || !isfinite(t_s))
		return 0;
	*(struct watch_point *)watch_ring_push(&d->ring) = (struct watch_point){t_s, log(value)};
	d->values++;
	size_t n = window_values(d), at = 0;
	if (n < 2 * d->p.confirm)
		return 0;
	double q = cp_best_split(d->scratch, n, d->p.confirm, &at), left, right;
	if (!isfinite(q))
		return -1;
	if (at == 0)
		return 0;
	levels(d->scratch, n, at, &left, &right);
	if (!isfinite(left) || !isfinite(right))
		return -1;
	if (fabs(right - left) < log1p(d->p.min_step))
		return 0;
	struct cp_options o;
	struct cp_change c;
	size_t found = 0;
	cp_options_init(&o);
	o.alpha = d->p.alpha;
	o.permutations = d->p.permutations;
	o.min_segment = d->p.confirm;
	o.seed = d->p.seed + 0x9e3779b97f4a7c15ULL * ++d->tests;
	if (cp_find(d->scratch, n, &o, &c, 1, &found) != 0)
		return -1;
	if (found == 0)
		return 0;
	size_t first = new_level_start(d->scratch, n, c.index);
	if (n - first < d->p.confirm)
		return 0; /* the new level has not held confirm values yet */
	levels(d->scratch, n, first, &left, &right);
	*out = (struct watch_change){.t_s = point_time(d, first),
	                             .detected_t_s = t_s,
	                             .before = exp(left),
	                             .after = exp(right),
	                             .step = exp(right - left),
	                             .p_value = c.p_value,
	                             .delay_values = n - first};
	watch_ring_drop(&d->ring, first);
	return 1;
}

double watch_detector_recent_step(const struct watch_detector *d)
{
	size_t n = window_values(d);
	if (n < d->p.confirm + 1)
		return 1;
	double left, right;
	levels(d->scratch, n, n - d->p.confirm, &left, &right);
	return isfinite(left) && isfinite(right) ? exp(right - left) : 1;
}
