/* Slow-hop attribution: see hops.h. */
#include "reports/diagnose/hops.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reports/diagnose/hops_work.h"
#include "reports/stats/stats.h"


void hops_params_default(struct hops_params *p)
{
	*p = (struct hops_params){.min_ratio = 2.0,
	                          .z_threshold = 3.5,
	                          .min_excess_us = 20.0,
	                          .min_share = 0.25,
	                          .floor_us = 1.0,
	                          .mad_floor_fraction = 0.05,
	                          .min_wait_fraction = 0.1,
	                          .min_hops = 3,
	                          .min_ranks = 3,
	                          .consistency_alpha = 1e-3,
	                          .retest_share = 0.1,
	                          .confirm_alpha = 0.05,
	                          .retests = 2,
	                          .traffic_tolerance = 0.1,
	                          .reduce_min_ratio = 1.25,
	                          .reduce_suspect_alpha = 0.05};
}

void hops_result_init(struct hops_result *r)
{
	memset(r, 0, sizeof *r);
}

void hops_result_release(struct hops_result *r)
{
	free(r->hops);
	free(r->named);
	free(r->ranks);
	free(r->rank_suspects);
	free(r->reducers);
	hops_result_init(r);
}

const char *hops_locality_name(enum hops_locality l)
{
	return l == HOPS_SAME_HOST ? "same_host" : l == HOPS_CROSS_HOST ? "cross_host" : "any";
}

const char *hops_rank_reason_name(enum hops_rank_reason r)
{
	return r == HOPS_RANK_HOPS ? "hops" : "reduce";
}


static int cmp_end(const void *pa, const void *pb)
{
	const struct end *x = pa, *y = pb;
	int c = cmp_i64(x->iteration, y->iteration);
	c = c ? c : cmp_i64(x->a, y->a);
	c = c ? c : cmp_i64(x->b, y->b);
	return c ? c : cmp_i64(x->step, y->step);
}

/* Same iteration, sender and receiver: ends of the same sequence of messages. */
static int cmp_pair(const struct end *x, const struct end *y)
{
	int c = cmp_i64(x->iteration, y->iteration);
	c = c ? c : cmp_i64(x->a, y->a);
	return c ? c : cmp_i64(x->b, y->b);
}

static int cmp_msg_bytes(const void *pa, const void *pb)
{
	const struct msg *x = pa, *y = pb;
	return (x->bytes > y->bytes) - (x->bytes < y->bytes);
}

static int cmp_msg_hop(const void *pa, const void *pb)
{
	const struct msg *x = pa, *y = pb;
	int c = cmp_i64(x->a, y->a);
	return c ? c : cmp_i64(x->b, y->b);
}

static bool valid(const struct hops_step *s, int nranks)
{
	return s->rank >= 0 && s->rank < nranks && s->send_peer >= -1 && s->send_peer < nranks &&
	       s->recv_peer >= -1 && s->recv_peer < nranks && isfinite(s->start_us) &&
	       isfinite(s->recv_done_us) && isfinite(s->reduced_us) && isfinite(s->end_us);
}

/* The two ends of every message, each list sorted by (iteration, sender, receiver, step). */
static void collect_ends(const struct hops_step *steps, size_t n, struct work *w)
{
	for (size_t i = 0; i < n; i++) {
		const struct hops_step *s = &steps[i];
		if (s->send_peer >= 0)
			w->sends[w->nsends++] =
			    (struct end){s->iteration, s->rank, s->send_peer, s->step, i};
		if (s->recv_peer >= 0)
			w->recvs[w->nrecvs++] =
			    (struct end){s->iteration, s->recv_peer, s->rank, s->step, i};
	}
	qsort(w->sends, w->nsends, sizeof *w->sends, cmp_end);
	qsort(w->recvs, w->nrecvs, sizeof *w->recvs, cmp_end);
}

static void add_msg(const struct hops_step *steps, const struct end *snd, const struct end *rcv,
                    struct work *w)
{
	const struct hops_step *a = &steps[snd->idx], *b = &steps[rcv->idx];
	double ready = a->start_us > b->start_us ? a->start_us : b->start_us;
	double t = b->recv_done_us - ready;
	w->msgs[w->nmsgs++] = (struct msg){.a = snd->a,
	                                   .b = snd->b,
	                                   .iteration = snd->iteration,
	                                   .bytes = b->recv_bytes,
	                                   .t_us = t > 0 ? t : 0,
	                                   .wait_us = b->recv_done_us - b->start_us};
}

/* Pairs the i-th send of a to b with the i-th receive of b from a, from the last backwards. */
static void pair_ends(const struct hops_step *steps, struct work *w, size_t *unmatched)
{
	size_t i = 0, j = 0;
	while (i < w->nsends || j < w->nrecvs) {
		int c = i == w->nsends   ? 1
		        : j == w->nrecvs ? -1
		                         : cmp_pair(&w->sends[i], &w->recvs[j]);
		size_t si = i, rj = j;
		while (c <= 0 && i < w->nsends && cmp_pair(&w->sends[i], &w->sends[si]) == 0)
			i++;
		while (c >= 0 && j < w->nrecvs && cmp_pair(&w->recvs[j], &w->recvs[rj]) == 0)
			j++;
		size_t ns = i - si, nr = j - rj, k = ns < nr ? ns : nr;
		for (size_t q = 1; q <= k; q++)
			add_msg(steps, &w->sends[i - q], &w->recvs[j - q], w);
		*unmatched += ns + nr - 2 * k;
	}
}

/* Each message's transfer over the median of its size class. Returns -1 when out of memory. */
static int normalise(struct work *w, const struct hops_params *p)
{
	qsort(w->msgs, w->nmsgs, sizeof *w->msgs, cmp_msg_bytes);
	for (size_t i = 0, j; i < w->nmsgs; i = j) {
		for (j = i; j < w->nmsgs && w->msgs[j].bytes == w->msgs[i].bytes; j++)
			w->vals[j - i] = fmax(w->msgs[j].t_us, p->floor_us);
		double med = stats_median(w->vals, j - i);
		if (isnan(med))
			return -1;
		for (size_t k = i; k < j; k++)
			w->msgs[k].norm = fmax(w->msgs[k].t_us, p->floor_us) / med;
	}
	return 0;
}

static double median_of(const struct msg *m, size_t n, int field, double *vals)
{
	for (size_t i = 0; i < n; i++)
		vals[i] = field == 0   ? m[i].t_us
		          : field == 1 ? m[i].wait_us
		          : field == 2 ? m[i].norm
		                       : (double)m[i].bytes;
	return stats_median(vals, n);
}

/* One hop per (from, to), its medians. */
static int build_hops(struct work *w, const int *host_of_rank, struct hops_result *r)
{
	qsort(w->msgs, w->nmsgs, sizeof *w->msgs, cmp_msg_hop);
	r->hops = calloc(w->nmsgs ? w->nmsgs : 1, sizeof *r->hops);
	if (!r->hops)
		return -1;
	for (size_t i = 0, j; i < w->nmsgs; i = j) {
		for (j = i; j < w->nmsgs && !cmp_msg_hop(&w->msgs[j], &w->msgs[i]); j++)
			;
		struct hops_hop *h = &r->hops[r->nhops++];
		*h = (struct hops_hop){.from_rank = w->msgs[i].a,
		                       .to_rank = w->msgs[i].b,
		                       .messages = j - i,
		                       .consistency_p = NAN,
		                       .wins_p = NAN,
		                       .median_hop_us = NAN,
		                       .ratio = NAN,
		                       .score = NAN,
		                       .share = NAN,
		                       .other_traffic_gbps = NAN};
		h->locality = !host_of_rank ? HOPS_ANY
		              : host_of_rank[h->from_rank] == host_of_rank[h->to_rank]
		                  ? HOPS_SAME_HOST
		                  : HOPS_CROSS_HOST;
		h->hop_time_us = median_of(&w->msgs[i], j - i, 0, w->vals);
		h->wait_us = median_of(&w->msgs[i], j - i, 1, w->vals);
		h->value = median_of(&w->msgs[i], j - i, 2, w->vals);
		h->message_bytes = median_of(&w->msgs[i], j - i, 3, w->vals);
		if (isnan(h->hop_time_us) || isnan(h->wait_us) || isnan(h->value))
			return -1;
	}
	return 0;
}

/* An item of a leave-one-out test: its value and its place in the caller's list. */
struct item {
	double v;
	size_t at;
};

static int cmp_item(const void *pa, const void *pb)
{
	const struct item *x = pa, *y = pb;
	return (x->v > y->v) - (x->v < y->v);
}

/* The i-th of the sorted items without item j. */
static double other(const struct item *x, size_t j, size_t i)
{
	return x[i < j ? i : i + 1].v;
}

/* The median of the k sorted items that follow the first lo others (k >= 1), without item j. */
static double median_from(const struct item *x, size_t j, size_t lo, size_t k)
{
	size_t mid = lo + k / 2;
	return k % 2 ? other(x, j, mid) : (other(x, j, mid - 1) + other(x, j, mid)) / 2;
}

/*
 * For each of the n values (n >= 3; logs, larger is slower): the median of
 * the others (med[at]) and the modified z-score against them (z[at]), whose
 * unit is the median distance above that median of the others that lie
 * above it, floored at log(1 + mad_floor_fraction). Leaving the value out
 * keeps one slow hop from widening its own yardstick; the spread from above
 * keeps the fast tail (a hop whose receiver never waited: 0) from widening
 * it. top[at]: the largest of the others. -1 when out of memory.
 */
int hops_loo_scores(const double *x, size_t n, const struct hops_params *p, double *med, double *z,
                    double *top)
{
	struct item *it = malloc(n * sizeof *it);
	double floor = log1p(p->mad_floor_fraction);
	if (!it)
		return -1;
	for (size_t i = 0; i < n; i++)
		it[i] = (struct item){x[i], i};
	qsort(it, n, sizeof *it, cmp_item);
	for (size_t j = 0; j < n; j++) {
		size_t m = n - 1, lo = 0;
		double mj = median_from(it, j, 0, m), spread = 0;
		while (lo < m && other(it, j, lo) <= mj)
			lo++;
		if (lo < m)
			spread = median_from(it, j, lo, m - lo) - mj;
		med[it[j].at] = mj;
		z[it[j].at] = STATS_MAD_TO_Z * (it[j].v - mj) / fmax(spread, floor);
		top[it[j].at] = other(it, j, m - 1);
	}
	free(it);
	return 0;
}

/* The median of the others, for each of n values (n >= 2). -1 when out of memory. */
int hops_loo_medians(const double *x, size_t n, double *med)
{
	struct item *it = malloc(n * sizeof *it);
	if (!it)
		return -1;
	for (size_t i = 0; i < n; i++)
		it[i] = (struct item){x[i], i};
	qsort(it, n, sizeof *it, cmp_item);
	for (size_t j = 0; j < n; j++)
		med[it[j].at] = median_from(it, j, 0, n - 1);
	free(it);
	return 0;
}

double hops_log_of(double v)
{
	return log(v > 1e-12 ? v : 1e-12);
}

/*
 * The hops of one locality whose receivers waited on them: a hop charged
 * less than min_wait_fraction of the locality's median hop (or floor_us) had
 * its data there whenever its receiver looked, which tells nothing of its
 * link; it is neither judged nor one of the others. (Not the raw waits:
 * downstream of a slow hop every receiver waits long.)
 */
static int waited_hops(struct hops_result *r, enum hops_locality loc, const struct hops_params *p,
                       double *vals, size_t *idx, size_t *k)
{
	size_t all = 0;
	*k = 0;
	for (size_t i = 0; i < r->nhops; i++)
		if (r->hops[i].locality == loc)
			vals[all++] = r->hops[i].hop_time_us;
	if (all == 0)
		return 0;
	double med = stats_median(vals, all);
	if (isnan(med))
		return -1;
	double least = fmax(p->floor_us, p->min_wait_fraction * med);
	for (size_t i = 0; i < r->nhops; i++) {
		struct hops_hop *h = &r->hops[i];
		if (h->locality != loc)
			continue;
		h->waited = h->hop_time_us >= least;
		if (h->waited)
			idx[(*k)++] = i;
	}
	return 0;
}

/* The hops of one locality, each against the others of its locality. */
static int judge_locality(struct hops_result *r, enum hops_locality loc,
                          const struct hops_params *p, double *vals)
{
	size_t k = 0, *idx = malloc((r->nhops ? r->nhops : 1) * sizeof *idx);
	double *med_time = malloc((r->nhops ? r->nhops : 1) * 4 * sizeof *med_time);
	double *med = med_time + r->nhops, *z = med + r->nhops, *top = z + r->nhops;
	int rc = idx && med_time ? waited_hops(r, loc, p, vals, idx, &k) : -1;
	if (rc != 0 || k == 0 || (int)k < p->min_hops)
		goto out;
	for (size_t i = 0; i < k; i++)
		vals[i] = r->hops[idx[i]].hop_time_us;
	rc = hops_loo_medians(vals, k, med_time);
	for (size_t i = 0; i < k; i++)
		vals[i] = hops_log_of(r->hops[idx[i]].value);
	if (rc == 0)
		rc = hops_loo_scores(vals, k, p, med, z, top);
	for (size_t i = 0; rc == 0 && i < k; i++) {
		struct hops_hop *h = &r->hops[idx[i]];
		/* min_ratio past the slowest other: with 2 or 3 others a spread is one ratio */
		bool dominant = vals[i] - top[i] >= log(p->min_ratio);
		double per_iteration =
		    (double)h->messages / (double)(r->iterations ? r->iterations : 1);
		h->judged = true;
		h->median_hop_us = med_time[i];
		h->ratio = exp(vals[i] - med[i]);
		h->score = z[i];
		h->share = (h->hop_time_us - med_time[i]) * per_iteration / r->iteration_us;
		/*
		 * The score is the evidence: its unit is the class's own measured
		 * spread (floored), so z_threshold already asks for a ratio of at
		 * least 1.3 on the quietest class and more on a noisier one. A fixed
		 * min_ratio on top of it threw that evidence away for every hop
		 * under 2x (a link at half its bandwidth); it stays the bar of the
		 * dominant path, where a class of 2-3 others has no spread to trust.
		 */
		h->slow = (h->score >= p->z_threshold || dominant) &&
		          h->hop_time_us - med_time[i] >= p->min_excess_us &&
		          h->share >= p->min_share;
	}
out:
	free(idx);
	free(med_time);
	return rc;
}

int hops_add_rank(struct hops_result *r, const struct hops_rank *k, int nranks)
{
	if (!r->ranks && !(r->ranks = calloc(2 * (size_t)nranks, sizeof *r->ranks)))
		return -1;
	r->ranks[r->nranks++] = *k;
	return 0;
}

/* Ranks most of whose hops are slow are named instead of those hops. */
static int name_ranks_by_hops(struct hops_result *r, int nranks, bool *covered)
{
	for (int q = 0; q < nranks; q++) {
		struct hops_rank k = {.rank = q,
		                      .reason = HOPS_RANK_HOPS,
		                      .reduce_gbps = NAN,
		                      .median_reduce_gbps = NAN,
		                      .ratio = 0,
		                      .score = 0,
		                      .share = 0};
		for (size_t i = 0; i < r->nhops; i++) {
			const struct hops_hop *h = &r->hops[i];
			if (!h->judged || (h->from_rank != q && h->to_rank != q))
				continue;
			k.hops_total++;
			if (h->slow) {
				k.hops_slow++;
				k.ratio = fmax(k.ratio, h->ratio);
				k.score = fmax(k.score, h->score);
				k.share += h->share;
			}
		}
		if (k.hops_total < 2 || 2 * k.hops_slow <= k.hops_total)
			continue;
		if (hops_add_rank(r, &k, nranks) != 0)
			return -1;
		for (size_t i = 0; i < r->nhops; i++)
			if (r->hops[i].from_rank == q || r->hops[i].to_rank == q)
				covered[i] = true;
	}
	return 0;
}

/* Past the score or the wins test with the excess, under min_share: see hops.h. */
static bool is_suspect(const struct hops_hop *h, const struct hops_params *p)
{
	return h->judged && !h->slow &&
	       (h->score >= p->z_threshold || h->consistency_p <= p->consistency_alpha) &&
	       h->hop_time_us - h->median_hop_us >= p->min_excess_us &&
	       h->share >= p->retest_share;
}

/* Worst first: by score, descending (a handful of entries). */
static void sort_named(struct hops_result *r)
{
	for (size_t i = 1; i < r->nnamed; i++)
		for (size_t j = i;
		     j > 0 && r->hops[r->named[j]].score > r->hops[r->named[j - 1]].score; j--) {
			size_t t = r->named[j];
			r->named[j] = r->named[j - 1];
			r->named[j - 1] = t;
		}
}

int hops_cmp_rank(const void *pa, const void *pb)
{
	const struct hops_rank *x = pa, *y = pb;
	return (x->ratio < y->ratio) - (x->ratio > y->ratio);
}

/* One step's iteration and span, for the iterations' times. */
struct span {
	int64_t iteration;
	double start_us, end_us;
};

static int cmp_span(const void *pa, const void *pb)
{
	const struct span *x = pa, *y = pb;
	return cmp_i64(x->iteration, y->iteration);
}

/* How many iterations the steps hold and the median of their spans (first start to last end). */
static int iterations_of(const struct hops_step *steps, size_t n, double *vals,
                         struct hops_result *r)
{
	struct span *sp = malloc((n ? n : 1) * sizeof *sp);
	if (!sp)
		return -1;
	for (size_t i = 0; i < n; i++)
		sp[i] = (struct span){steps[i].iteration, steps[i].start_us,
		                      fmax(steps[i].end_us, steps[i].reduced_us)};
	qsort(sp, n, sizeof *sp, cmp_span);
	r->iterations = 0;
	for (size_t i = 0, j; i < n; i = j) {
		double lo = sp[i].start_us, hi = sp[i].end_us;
		for (j = i; j < n && sp[j].iteration == sp[i].iteration; j++) {
			lo = fmin(lo, sp[j].start_us);
			hi = fmax(hi, sp[j].end_us);
		}
		vals[r->iterations++] = hi - lo;
	}
	r->iteration_us = r->iterations ? stats_median(vals, r->iterations) : NAN;
	free(sp);
	return r->iterations && isnan(r->iteration_us) ? -1 : 0;
}

static int analyse(const struct hops_step *steps, size_t n, int nranks, const int *host_of_rank,
                   const struct hops_params *p, struct hops_result *r, struct work *w)
{
	bool *covered = NULL;
	int rc = -1;
	collect_ends(steps, n, w);
	pair_ends(steps, w, &r->unmatched);
	r->messages = w->nmsgs;
	if (iterations_of(steps, n, w->vals, r) != 0 || normalise(w, p) != 0 ||
	    build_hops(w, host_of_rank, r) != 0)
		return -1;
	for (int loc = HOPS_SAME_HOST; loc <= HOPS_ANY; loc++)
		if (judge_locality(r, (enum hops_locality)loc, p, w->vals) != 0)
			return -1;
	if (hops_judge_iterations(w, r, p) != 0)
		return -1;
	if (!(covered = calloc(r->nhops ? r->nhops : 1, sizeof *covered)) ||
	    !(r->named = calloc(r->nhops ? r->nhops : 1, sizeof *r->named)) ||
	    name_ranks_by_hops(r, nranks, covered) != 0 ||
	    hops_name_ranks_by_reduce(steps, n, nranks, p, r, w->vals) != 0)
		goto out;
	for (size_t i = 0; i < r->nhops; i++)
		if (r->hops[i].slow && !covered[i])
			r->named[r->nnamed++] = i;
		else if (!covered[i] && is_suspect(&r->hops[i], p)) {
			r->hops[i].suspect = true;
			r->nsuspects++;
		}
	sort_named(r);
	if (r->nranks)
		qsort(r->ranks, r->nranks, sizeof *r->ranks, hops_cmp_rank);
	rc = 0;
out:
	free(covered);
	return rc;
}

int hops_analyse(const struct hops_step *steps, size_t n, int nranks, const int *host_of_rank,
                 const struct hops_params *p, struct hops_result *r)
{
	struct work w = {0};
	int rc = -1;
	hops_result_init(r);
	if ((!steps && n) || nranks < 1 || !p)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!valid(&steps[i], nranks))
			return -1;
	size_t cap = n ? n : 1;
	w.sends = malloc(cap * sizeof *w.sends);
	w.recvs = malloc(cap * sizeof *w.recvs);
	w.msgs = malloc(cap * sizeof *w.msgs);
	w.vals = malloc((cap > (size_t)nranks ? cap : (size_t)nranks) * sizeof *w.vals);
	if (w.sends && w.recvs && w.msgs && w.vals)
		rc = analyse(steps, n, nranks, host_of_rank, p, r, &w);
	free(w.sends);
	free(w.recvs);
	free(w.msgs);
	free(w.vals);
	if (rc != 0)
		hops_result_release(r);
	return rc;
}

static const struct hops_hop *find_hop(const struct hops_result *r, int from, int to)
{
	for (size_t i = 0; i < r->nhops; i++)
		if (r->hops[i].from_rank == from && r->hops[i].to_rank == to)
			return &r->hops[i];
	return NULL;
}

/*
 * Whether a re-measurement finds the suspect h again: slow or a suspect
 * there, or, the one hop now under test (no search over its k peers, so no
 * factor k), the slowest of its class in more iterations than chance allows
 * at confirm_alpha, with the excess and the share of a suspect.
 */
static bool found_again(const struct hops_hop *h, const struct hops_result *again,
                        const struct hops_params *p)
{
	const struct hops_hop *a = find_hop(again, h->from_rank, h->to_rank);
	if (!a || !a->judged)
		return false;
	if (a->slow || a->suspect)
		return true;
	return a->wins_p <= p->confirm_alpha &&
	       a->hop_time_us - a->median_hop_us >= p->min_excess_us && a->share >= p->retest_share;
}

size_t hops_retest(struct hops_result *first, const struct hops_result *again,
                   const struct hops_params *p)
{
	first->nsuspects = 0;
	hops_retest_ranks(first, again, p);
	for (size_t i = 0; i < first->nhops; i++) {
		struct hops_hop *h = &first->hops[i];
		if (!h->suspect)
			continue;
		h->retests++;
		if (found_again(h, again, p)) {
			h->retests_confirmed++;
			first->nsuspects++;
		} else
			h->suspect = false;
	}
	return first->nsuspects;
}

int hops_name_confirmed(struct hops_result *r, int min_retests)
{
	int named = 0;
	for (size_t i = 0; i < r->nhops; i++) {
		struct hops_hop *h = &r->hops[i];
		if (!h->suspect || h->retests < min_retests || h->retests_confirmed < h->retests)
			continue;
		if (!r->named && !(r->named = calloc(r->nhops, sizeof *r->named)))
			return -1;
		h->slow = true;
		h->suspect = false;
		r->nsuspects--;
		r->named[r->nnamed++] = i;
		named++;
	}
	sort_named(r);
	int ranks = hops_name_confirmed_ranks(r, min_retests);
	return ranks < 0 ? -1 : named + ranks;
}
