/* Slow-hop attribution: see hops.h. */
#include "hops.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* One end of a message: a sends to b; idx is the step in the caller's array. */
struct end {
	int64_t iteration;
	int a, b, step;
	size_t idx;
};

struct msg {
	int a, b;
	uint64_t bytes;
	double t_us, wait_us, norm;
};

struct work {
	struct end *sends, *recvs;
	struct msg *msgs;
	size_t nsends, nrecvs, nmsgs;
	double *vals;
};

void hops_params_default(struct hops_params *p)
{
	*p = (struct hops_params){.min_ratio = 2.0, .z_threshold = 3.5, .min_excess_us = 20.0,
	                          .floor_us = 1.0, .mad_floor_fraction = 0.05, .min_hops = 3,
	                          .min_ranks = 3};
}

void hops_result_init(struct hops_result *r) { memset(r, 0, sizeof *r); }

void hops_result_release(struct hops_result *r)
{
	free(r->hops);
	free(r->named);
	free(r->ranks);
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

static int cmp_i64(int64_t x, int64_t y) { return (x > y) - (x < y); }

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
	       isfinite(s->recv_done_us) && isfinite(s->reduced_us);
}

/* The two ends of every message, each list sorted by (iteration, sender, receiver, step). */
static void collect_ends(const struct hops_step *steps, size_t n, struct work *w)
{
	for (size_t i = 0; i < n; i++) {
		const struct hops_step *s = &steps[i];
		if (s->send_peer >= 0)
			w->sends[w->nsends++] = (struct end){s->iteration, s->rank, s->send_peer, s->step, i};
		if (s->recv_peer >= 0)
			w->recvs[w->nrecvs++] = (struct end){s->iteration, s->recv_peer, s->rank, s->step, i};
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
	w->msgs[w->nmsgs++] = (struct msg){.a = snd->a, .b = snd->b, .bytes = b->recv_bytes,
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
		vals[i] = field == 0 ? m[i].t_us : field == 1 ? m[i].wait_us : m[i].norm;
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
		*h = (struct hops_hop){.from_rank = w->msgs[i].a, .to_rank = w->msgs[i].b,
		                       .messages = j - i, .median_hop_us = NAN, .ratio = NAN,
		                       .score = NAN};
		h->locality = !host_of_rank ? HOPS_ANY
		               : host_of_rank[h->from_rank] == host_of_rank[h->to_rank] ? HOPS_SAME_HOST
		                                                                        : HOPS_CROSS_HOST;
		h->hop_time_us = median_of(&w->msgs[i], j - i, 0, w->vals);
		h->wait_us = median_of(&w->msgs[i], j - i, 1, w->vals);
		h->value = median_of(&w->msgs[i], j - i, 2, w->vals);
		if (isnan(h->hop_time_us) || isnan(h->wait_us) || isnan(h->value))
			return -1;
	}
	return 0;
}

/* Median and floored MAD of the logs of x[0 .. k-1] (overwritten). -1 when out of memory. */
static int log_spread(double *x, size_t k, const struct hops_params *p, double *med, double *mad)
{
	for (size_t i = 0; i < k; i++)
		x[i] = log(x[i] > 1e-12 ? x[i] : 1e-12);
	*med = stats_median(x, k);
	*mad = stats_mad(x, k);
	if (isnan(*med) || isnan(*mad))
		return -1;
	*mad = fmax(*mad, log1p(p->mad_floor_fraction));
	return 0;
}

/* The hops of one locality against their median hop. */
static int judge_locality(struct hops_result *r, enum hops_locality loc,
                          const struct hops_params *p, double *vals)
{
	size_t k = 0;
	double med, mad, med_time;
	for (size_t i = 0; i < r->nhops; i++)
		if (r->hops[i].locality == loc)
			vals[k++] = r->hops[i].hop_time_us;
	if (k == 0 || (int)k < p->min_hops)
		return 0;
	med_time = stats_median(vals, k);
	k = 0;
	for (size_t i = 0; i < r->nhops; i++)
		if (r->hops[i].locality == loc)
			vals[k++] = r->hops[i].value;
	if (isnan(med_time) || log_spread(vals, k, p, &med, &mad) != 0)
		return -1;
	for (size_t i = 0; i < r->nhops; i++) {
		struct hops_hop *h = &r->hops[i];
		if (h->locality != loc)
			continue;
		double l = log(h->value > 1e-12 ? h->value : 1e-12);
		h->judged = true;
		h->median_hop_us = med_time;
		h->ratio = exp(l - med);
		h->score = STATS_MAD_TO_Z * (l - med) / mad;
		h->slow = h->ratio >= p->min_ratio && h->score >= p->z_threshold &&
		          h->hop_time_us - med_time >= p->min_excess_us;
	}
	return 0;
}

static int add_rank(struct hops_result *r, const struct hops_rank *k, int nranks)
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
		struct hops_rank k = {.rank = q, .reason = HOPS_RANK_HOPS, .reduce_gbps = NAN,
		                      .median_reduce_gbps = NAN, .ratio = 0, .score = 0};
		for (size_t i = 0; i < r->nhops; i++) {
			const struct hops_hop *h = &r->hops[i];
			if (!h->judged || (h->from_rank != q && h->to_rank != q))
				continue;
			k.hops_total++;
			if (h->slow) {
				k.hops_slow++;
				k.ratio = fmax(k.ratio, h->ratio);
				k.score = fmax(k.score, h->score);
			}
		}
		if (k.hops_total < 2 || 2 * k.hops_slow <= k.hops_total)
			continue;
		if (add_rank(r, &k, nranks) != 0)
			return -1;
		for (size_t i = 0; i < r->nhops; i++)
			if (r->hops[i].from_rank == q || r->hops[i].to_rank == q)
				covered[i] = true;
	}
	return 0;
}

/* Per rank: median over iterations of its reduction rate (bytes/us) and reduce time (us). */
struct rank_reduce {
	double rate, time_us;
	bool reduces;
};

/* One reduce step: its rank, iteration, time and bytes. */
struct reduce_step {
	int rank;
	int64_t iteration;
	double t_us, bytes;
};

static int cmp_reduce_step(const void *pa, const void *pb)
{
	const struct reduce_step *x = pa, *y = pb;
	int c = cmp_i64(x->rank, y->rank);
	return c ? c : cmp_i64(x->iteration, y->iteration);
}

static int reduce_rates(const struct hops_step *steps, size_t n, int nranks,
                        struct rank_reduce *out, double *vals)
{
	struct reduce_step *rs = malloc((n ? n : 1) * sizeof *rs);
	double *times = malloc((n ? n : 1) * sizeof *times);
	size_t k = 0;
	int rc = rs && times ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		const struct hops_step *s = &steps[i];
		/* a copy leaves its two times equal: only reductions take time between them */
		if (s->recv_peer >= 0 && s->reduced_us > s->recv_done_us)
			rs[k++] = (struct reduce_step){s->rank, s->iteration,
			                               s->reduced_us - s->recv_done_us,
			                               (double)s->recv_bytes};
	}
	if (rc == 0)
		qsort(rs, k, sizeof *rs, cmp_reduce_step);
	for (int q = 0; q < nranks; q++)
		out[q] = (struct rank_reduce){NAN, NAN, false};
	for (size_t i = 0, j; rc == 0 && i < k; i = j) {
		size_t iters = 0;
		for (j = i; j < k && rs[j].rank == rs[i].rank;) {
			double t = 0, bytes = 0;
			size_t first = j;
			for (; j < k && rs[j].rank == rs[i].rank && rs[j].iteration == rs[first].iteration; j++) {
				t += rs[j].t_us;
				bytes += rs[j].bytes;
			}
			vals[iters] = bytes / t;
			times[iters++] = t;
		}
		struct rank_reduce *o = &out[rs[i].rank];
		*o = (struct rank_reduce){stats_median(vals, iters), stats_median(times, iters), true};
		rc = isnan(o->rate) || isnan(o->time_us) ? -1 : 0;
	}
	free(rs);
	free(times);
	return rc;
}

static int name_ranks_by_reduce(const struct hops_step *steps, size_t n, int nranks,
                                const struct hops_params *p, struct hops_result *r, double *vals)
{
	struct rank_reduce *rr = calloc((size_t)nranks, sizeof *rr);
	double *logs = calloc((size_t)nranks, sizeof *logs), med, mad, med_time;
	size_t k = 0;
	int rc = rr && logs ? reduce_rates(steps, n, nranks, rr, vals) : -1;
	for (int q = 0; rc == 0 && q < nranks; q++)
		if (rr[q].reduces)
			vals[k++] = rr[q].time_us;
	if (rc != 0 || k == 0 || (int)k < p->min_ranks)
		goto out;
	med_time = stats_median(vals, k);
	k = 0;
	for (int q = 0; q < nranks; q++)
		if (rr[q].reduces)
			logs[k++] = rr[q].rate;
	double med_rate = stats_median(logs, k);
	rc = isnan(med_time) || isnan(med_rate) ? -1 : log_spread(logs, k, p, &med, &mad);
	for (int q = 0; rc == 0 && q < nranks; q++) {
		if (!rr[q].reduces)
			continue;
		double l = log(rr[q].rate > 1e-12 ? rr[q].rate : 1e-12);
		struct hops_rank v = {.rank = q, .reason = HOPS_RANK_REDUCE,
		                      .reduce_gbps = rr[q].rate * 1e-3,
		                      .median_reduce_gbps = med_rate * 1e-3, .ratio = exp(med - l),
		                      .score = STATS_MAD_TO_Z * (med - l) / mad};
		if (v.ratio >= p->min_ratio && v.score >= p->z_threshold &&
		    rr[q].time_us - med_time >= p->min_excess_us)
			rc = add_rank(r, &v, nranks);
	}
out:
	free(rr);
	free(logs);
	return rc;
}

/* Worst first: by score, descending (a handful of entries). */
static void sort_named(struct hops_result *r)
{
	for (size_t i = 1; i < r->nnamed; i++)
		for (size_t j = i; j > 0 && r->hops[r->named[j]].score > r->hops[r->named[j - 1]].score;
		     j--) {
			size_t t = r->named[j];
			r->named[j] = r->named[j - 1];
			r->named[j - 1] = t;
		}
}

static int cmp_rank(const void *pa, const void *pb)
{
	const struct hops_rank *x = pa, *y = pb;
	return (x->ratio < y->ratio) - (x->ratio > y->ratio);
}

static int cmp_double(const void *pa, const void *pb)
{
	double x = *(const double *)pa, y = *(const double *)pb;
	return (x > y) - (x < y);
}

static size_t count_iterations(const struct hops_step *steps, size_t n, double *vals)
{
	size_t distinct = 0;
	for (size_t i = 0; i < n; i++)
		vals[i] = (double)steps[i].iteration;
	qsort(vals, n, sizeof *vals, cmp_double);
	for (size_t i = 0; i < n; i++)
		distinct += i == 0 || vals[i] != vals[i - 1];
	return distinct;
}

static int analyse(const struct hops_step *steps, size_t n, int nranks, const int *host_of_rank,
                   const struct hops_params *p, struct hops_result *r, struct work *w)
{
	bool *covered = NULL;
	int rc = -1;
	collect_ends(steps, n, w);
	pair_ends(steps, w, &r->unmatched);
	r->messages = w->nmsgs;
	if (normalise(w, p) != 0 || build_hops(w, host_of_rank, r) != 0)
		return -1;
	for (int loc = HOPS_SAME_HOST; loc <= HOPS_ANY; loc++)
		if (judge_locality(r, (enum hops_locality)loc, p, w->vals) != 0)
			return -1;
	if (!(covered = calloc(r->nhops ? r->nhops : 1, sizeof *covered)) ||
	    !(r->named = calloc(r->nhops ? r->nhops : 1, sizeof *r->named)) ||
	    name_ranks_by_hops(r, nranks, covered) != 0 ||
	    name_ranks_by_reduce(steps, n, nranks, p, r, w->vals) != 0)
		goto out;
	for (size_t i = 0; i < r->nhops; i++)
		if (r->hops[i].slow && !covered[i])
			r->named[r->nnamed++] = i;
	sort_named(r);
	if (r->nranks)
		qsort(r->ranks, r->nranks, sizeof *r->ranks, cmp_rank);
	r->iterations = count_iterations(steps, n, w->vals);
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
