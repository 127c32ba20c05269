/*
 * Slow hops by iteration wins (issue 39): a hop no slower than its k peers is
 * the slowest of its class in about 1/k of the iterations; one that is so far
 * more often than chance allows is slow, whatever the spread of the medians.
 * Pure: see hops.h.
 */
#include "reports/diagnose/hops_work.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "reports/stats/stats.h"

static int cmp_msg_iteration(const void *pa, const void *pb)
{
	const struct msg *x = pa, *y = pb;
	int c = cmp_i64(x->iteration, y->iteration);
	c = c ? c : cmp_i64(x->a, y->a);
	return c ? c : cmp_i64(x->b, y->b);
}

static int cmp_hop_key(const void *pk, const void *ph)
{
	const struct msg *k = pk;
	const struct hops_hop *h = ph;
	int c = cmp_i64(k->a, h->from_rank);
	return c ? c : cmp_i64(k->b, h->to_rank);
}

/*
 * Each iteration's slowest hop of each judged class: the hop whose messages
 * of that iteration took longest (the median of their normalised
 * transfers). A hop no slower than its k peers is the slowest in about 1/k
 * of the iterations; one that is so far more often than chance is slow
 * whatever the spread of the medians, which on a busy machine hides a hop
 * 1.2-1.5x its peers (issue 39). Its p value: the binomial tail, times k for
 * the hops that could have been. wins and ranked are per hop (nhops each).
 */
static void rank_iterations(struct work *w, struct hops_result *r, int *wins, int *ranked,
                            double *vals)
{
	qsort(w->msgs, w->nmsgs, sizeof *w->msgs, cmp_msg_iteration);
	for (size_t i = 0, j; i < w->nmsgs; i = j) {
		size_t best[3] = {SIZE_MAX, SIZE_MAX, SIZE_MAX};
		double top[3] = {-1, -1, -1};
		for (j = i; j < w->nmsgs && w->msgs[j].iteration == w->msgs[i].iteration;) {
			size_t k = j, m = 0;
			for (; k < w->nmsgs && !cmp_msg_iteration(&w->msgs[k], &w->msgs[j]); k++)
				vals[m++] = w->msgs[k].norm;
			const struct hops_hop *h =
			    bsearch(&w->msgs[j], r->hops, r->nhops, sizeof *r->hops, cmp_hop_key);
			double v = stats_median(vals, m);
			if (h && h->judged && v > top[h->locality]) {
				top[h->locality] = v;
				best[h->locality] = (size_t)(h - r->hops);
			}
			j = k;
		}
		for (size_t h = 0; h < r->nhops; h++)
			if (r->hops[h].judged && best[r->hops[h].locality] != SIZE_MAX) {
				ranked[h]++;
				wins[h] += best[r->hops[h].locality] == h;
			}
	}
}

int hops_judge_iterations(struct work *w, struct hops_result *r, const struct hops_params *p)
{
	int *wins = calloc(2 * (r->nhops ? r->nhops : 1), sizeof *wins), *ranked = wins + r->nhops;
	int peers[3] = {0, 0, 0};
	if (!wins)
		return -1;
	rank_iterations(w, r, wins, ranked, w->vals);
	for (size_t h = 0; h < r->nhops; h++)
		peers[r->hops[h].locality] += r->hops[h].judged;
	for (size_t h = 0; h < r->nhops; h++) {
		struct hops_hop *x = &r->hops[h];
		if (!x->judged)
			continue;
		int k = peers[x->locality];
		x->wins_p = stats_binomial_tail(ranked[h], wins[h], 1.0 / k);
		x->consistency_p = fmin(1.0, k * x->wins_p);
		if (!x->slow && x->consistency_p <= p->consistency_alpha &&
		    x->hop_time_us - x->median_hop_us >= p->min_excess_us && x->share >= p->min_share)
			x->slow = true;
	}
	free(wins);
	return 0;
}
