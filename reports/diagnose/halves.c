/* The time of each half of an all-reduce (reports/diagnose/halves.h). Pure. */
#include "reports/diagnose/halves.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "reports/io/report_io.h"
#include "reports/io/report_schema.h"
#include "reports/stats/stats.h"

enum { HALF_RS = 1, HALF_AG = 2 }; /* enum trace_half's values (algorithms/trace.h) */

struct span {
	int64_t iteration;
	double start, rs_end, end;
	bool rs, ag;
};

static int by_iteration(const void *a, const void *b)
{
	const struct hops_step *x = a, *y = b;
	return (x->iteration > y->iteration) - (x->iteration < y->iteration);
}

int halves_of(const struct hops_step *steps, size_t n, struct halves *out)
{
	*out = (struct halves){
	    .reduce_scatter_us = NAN, .allgather_us = NAN, .reduce_scatter_share = NAN};
	struct hops_step *s = malloc((n ? n : 1) * sizeof *s);
	double *rs = malloc((n ? n : 1) * sizeof *rs), *ag = malloc((n ? n : 1) * sizeof *ag);
	if (!s || !rs || !ag) {
		free(s);
		free(rs);
		free(ag);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		s[i] = steps[i];
	qsort(s, n, sizeof *s, by_iteration);
	size_t k = 0;
	for (size_t i = 0; i < n;) {
		struct span sp = {s[i].iteration, INFINITY, -INFINITY, -INFINITY, false, false};
		for (; i < n && s[i].iteration == sp.iteration; i++) {
			sp.start = fmin(sp.start, s[i].start_us);
			sp.end = fmax(sp.end, s[i].end_us);
			if (s[i].half == HALF_RS) {
				sp.rs = true;
				sp.rs_end = fmax(sp.rs_end, s[i].end_us);
			}
			sp.ag |= s[i].half == HALF_AG;
		}
		if (sp.rs && sp.ag) {
			rs[k] = sp.rs_end - sp.start;
			ag[k++] = sp.end - sp.rs_end;
		}
	}
	if (k) {
		out->known = true;
		out->iterations = (int)k;
		out->reduce_scatter_us = stats_median(rs, k);
		out->allgather_us = stats_median(ag, k);
		double total = out->reduce_scatter_us + out->allgather_us;
		out->reduce_scatter_share = total > 0 ? out->reduce_scatter_us / total : NAN;
	}
	free(s);
	free(rs);
	free(ag);
	return 0;
}

cJSON *halves_add_json(cJSON *trace, const struct halves *h)
{
	cJSON *o = cJSON_AddObjectToObject(trace, SK_TRACE_HALVES);
	bool ok = o && report_add_number(o, SK_HALVES_REDUCE_SCATTER_US, h->reduce_scatter_us) &&
	          report_add_number(o, SK_HALVES_ALLGATHER_US, h->allgather_us) &&
	          report_add_number(o, SK_HALVES_REDUCE_SCATTER_SHARE, h->reduce_scatter_share) &&
	          cJSON_AddNumberToObject(o, SK_HALVES_ITERATIONS, h->iterations);
	return ok ? o : NULL;
}
