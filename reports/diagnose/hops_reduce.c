/*
 * Ranks judged on their reduction rate (hops.h, "Ranks"): each rank's rate
 * against the others', its iteration wins, the suspects a re-measurement must
 * find again. Pure: no MPI, no I/O.
 */
#include "reports/diagnose/hops_work.h"

#include <math.h>
#include <stdlib.h>

#include "reports/stats/stats.h"

/* A slow reducer short of the tests that name it: measured again (retests), or named (none). */
static int add_rank_suspect(struct hops_result *r, const struct hops_rank *k, int nranks,
                            const struct hops_params *p)
{
	if (p->retests <= 0)
		return 0;
	if (!r->rank_suspects && !(r->rank_suspects = calloc((size_t)nranks, sizeof *k)))
		return -1;
	r->rank_suspects[r->nrank_suspects++] = *k;
	r->nsuspects++;
	return 0;
}

/*
 * Per rank: median over iterations of its reduction rate (bytes/us) and reduce
 * time (us); of the iterations it reduced in (ranked), those in which its rate
 * was the lowest of every rank's (wins).
 */
struct rank_reduce {
	double rate, time_us;
	bool reduces;
	int wins, ranked;
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

static int cmp_reduce_iteration(const void *pa, const void *pb)
{
	const struct reduce_step *x = pa, *y = pb;
	int c = cmp_i64(x->iteration, y->iteration);
	return c ? c : cmp_i64(x->rank, y->rank);
}

/*
 * it[0 .. k-1]: one entry per rank and iteration, t_us and bytes that
 * iteration's sums. Counts each rank's iterations and those in which its
 * rate was the lowest (an iteration with one rank ranks nobody).
 */
static void reduce_wins(struct reduce_step *it, size_t k, struct rank_reduce *out)
{
	qsort(it, k, sizeof *it, cmp_reduce_iteration);
	for (size_t i = 0, j; i < k; i = j) {
		size_t slowest = i;
		for (j = i; j < k && it[j].iteration == it[i].iteration; j++)
			if (it[j].bytes / it[j].t_us < it[slowest].bytes / it[slowest].t_us)
				slowest = j;
		if (j - i < 2)
			continue;
		for (size_t q = i; q < j; q++)
			out[it[q].rank].ranked++;
		out[it[slowest].rank].wins++;
	}
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
		/* a copy leaves its two times equal: only reductions take time between them; on
		 * the core where known (hops.h, "Ranks") */
		double t = s->reduce_busy_us > 0 ? s->reduce_busy_us : s->reduced_us - s->recv_done_us;
		if (s->recv_peer >= 0 && s->reduced_us > s->recv_done_us)
			rs[k++] = (struct reduce_step){s->rank, s->iteration, t, (double)s->recv_bytes};
	}
	if (rc == 0)
		qsort(rs, k, sizeof *rs, cmp_reduce_step);
	for (int q = 0; q < nranks; q++)
		out[q] = (struct rank_reduce){NAN, NAN, false, 0, 0};
	size_t sums = 0; /* rs[0 .. sums-1]: each rank's iterations, summed (the reads run ahead) */
	for (size_t i = 0, j; rc == 0 && i < k; i = j) {
		size_t iters = 0;
		for (j = i; j < k && rs[j].rank == rs[i].rank;) {
			double t = 0, bytes = 0;
			size_t first = j;
			for (; j < k && rs[j].rank == rs[i].rank &&
			       rs[j].iteration == rs[first].iteration;
			     j++) {
				t += rs[j].t_us;
				bytes += rs[j].bytes;
			}
			rs[sums++] =
			    (struct reduce_step){rs[first].rank, rs[first].iteration, t, bytes};
			vals[iters] = bytes / t;
			times[iters++] = t;
		}
		struct rank_reduce *o = &out[rs[i].rank];
		*o = (struct rank_reduce){stats_median(vals, iters), stats_median(times, iters),
		                          true, 0, 0};
		rc = isnan(o->rate) || isnan(o->time_us) ? -1 : 0;
	}
	if (rc == 0)
		reduce_wins(rs, sums, out);
	free(rs);
	free(times);
	return rc;
}

int hops_name_ranks_by_reduce(const struct hops_step *steps, size_t n, int nranks,
                              const struct hops_params *p, struct hops_result *r, double *vals)
{
	struct rank_reduce *rr = calloc((size_t)nranks, sizeof *rr);
	double *x = calloc(5 * (size_t)nranks, sizeof *x);
	double *med_time = x + nranks, *med = med_time + nranks, *z = med + nranks,
	       *top = z + nranks;
	int *who = calloc((size_t)nranks, sizeof *who);
	size_t k = 0;
	int rc = rr && x && who ? reduce_rates(steps, n, nranks, rr, vals) : -1;
	for (int q = 0; rc == 0 && q < nranks; q++)
		if (rr[q].reduces)
			who[k++] = q;
	if (rc != 0 || k == 0 || (int)k < p->min_ranks)
		goto out;
	if (!(r->reducers = calloc(k, sizeof *r->reducers))) {
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < k; i++)
		x[i] = rr[who[i]].time_us;
	rc = hops_loo_medians(x, k, med_time);
	/* slower is a lower rate: the test runs on the logs of its inverse */
	for (size_t i = 0; i < k; i++)
		x[i] = -hops_log_of(rr[who[i]].rate);
	if (rc == 0)
		rc = hops_loo_scores(x, k, p, med, z, top);
	for (size_t i = 0; rc == 0 && i < k; i++) {
		const struct rank_reduce *q = &rr[who[i]];
		double wins_p = stats_binomial_tail(q->ranked, q->wins, 1.0 / (double)k);
		struct hops_rank v = {.rank = who[i],
		                      .reason = HOPS_RANK_REDUCE,
		                      .reduce_gbps = q->rate * 1e-3,
		                      .median_reduce_gbps = exp(-med[i]) * 1e-3,
		                      .ratio = exp(x[i] - med[i]),
		                      .score = z[i],
		                      .share = (q->time_us - med_time[i]) / r->iteration_us,
		                      .wins = q->wins,
		                      .ranked = q->ranked,
		                      .consistency_p = fmin(1.0, (double)k * wins_p),
		                      .wins_p = wins_p};
		r->reducers[r->nreducers++] = v;
		bool dominant = x[i] - top[i] >= log(p->min_ratio);
		if (v.ratio >= p->min_ratio && (v.score >= p->z_threshold || dominant) &&
		    q->time_us - med_time[i] >= p->min_excess_us && v.share >= p->min_share)
			rc = hops_add_rank(r, &v, nranks);
		else if (v.ratio >= p->reduce_min_ratio && /* no share asked: hops.h, "Ranks" */
		         q->time_us - med_time[i] >= p->min_excess_us &&
		         (v.score >= p->z_threshold || dominant ||
		          v.consistency_p <= p->reduce_suspect_alpha))
			rc = add_rank_suspect(r, &v, nranks, p);
	}
out:
	free(rr);
	free(x);
	free(who);
	return rc;
}

/* Does again name rank q for its reductions, suspect it, or find it slow by the one-rank test? */
static bool rank_found_again(int q, const struct hops_result *again, const struct hops_params *p)
{
	for (size_t i = 0; i < again->nranks; i++)
		if (again->ranks[i].rank == q && again->ranks[i].reason == HOPS_RANK_REDUCE)
			return true;
	for (size_t i = 0; i < again->nrank_suspects; i++)
		if (again->rank_suspects[i].rank == q)
			return true;
	for (size_t i = 0; i < again->nreducers; i++) {
		const struct hops_rank *k = &again->reducers[i];
		if (k->rank == q)
			return k->ratio >= p->reduce_min_ratio &&
			       k->share * again->iteration_us >= p->min_excess_us &&
			       (k->score >= p->z_threshold || k->wins_p <= p->confirm_alpha);
	}
	return false;
}

/* The rank suspects still standing, first (a suspect not found again is dropped). */
void hops_retest_ranks(struct hops_result *first, const struct hops_result *again,
                       const struct hops_params *p)
{
	size_t kept = 0;
	for (size_t i = 0; i < first->nrank_suspects; i++) {
		struct hops_rank k = first->rank_suspects[i];
		k.retests++;
		if (!rank_found_again(k.rank, again, p))
			continue;
		k.retests_confirmed++;
		first->rank_suspects[kept++] = k;
	}
	first->nrank_suspects = kept;
	first->nsuspects += kept;
}

int hops_name_confirmed_ranks(struct hops_result *r, int min_retests)
{
	int named = 0;
	size_t kept = 0;
	for (size_t i = 0; i < r->nrank_suspects; i++) {
		const struct hops_rank *k = &r->rank_suspects[i];
		if (k->retests < min_retests || k->retests_confirmed < k->retests) {
			r->rank_suspects[kept++] = *k;
			continue;
		}
		/* ranks holds at most 2 per rank (hops and reduce): room for every suspect */
		if (!r->ranks && !(r->ranks = calloc(2 * r->nrank_suspects, sizeof *r->ranks)))
			return -1;
		r->ranks[r->nranks++] = *k;
		r->nsuspects--;
		named++;
	}
	r->nrank_suspects = kept;
	if (r->nranks)
		qsort(r->ranks, r->nranks, sizeof *r->ranks, hops_cmp_rank);
	return named;
}
