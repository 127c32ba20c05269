/* See bench.h. */
#include <mpi.h>

#include "algorithms/bench.h"
#include "algorithms/clock_id.h"
#include "algorithms/codec_accuracy.h"
#include "algorithms/exec_codec.h"
#include "algorithms/fault.h"
#include "algorithms/progress.h"

#include <sched.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

int bench_bufs_alloc(struct bench_bufs *b, size_t bytes, size_t scratch_bytes, int max_samples,
                     int nranks)
{
	memset(b, 0, sizeof *b);
	b->bytes = bytes;
	b->scratch_bytes = scratch_bytes;
	b->max_samples = max_samples;
	b->input = malloc(bytes ? bytes : 1);
	b->result = malloc(bytes ? bytes : 1);
	b->scratch = malloc(scratch_bytes ? scratch_bytes : 1);
	/* every rank: any may be rank 0 of a sub-communicator (accept's culprit search) */
	size_t all = (size_t)nranks * (size_t)max_samples;
	b->arrive_us = calloc((size_t)max_samples, sizeof(double));
	b->end_us = calloc((size_t)max_samples, sizeof(double));
	b->learnt_us = calloc((size_t)max_samples, sizeof(double));
	b->all_arrive_us = calloc(all, sizeof(double));
	b->all_end_us = calloc(all, sizeof(double));
	b->all_learnt_us = calloc(all, sizeof(double));
	b->max_us = calloc((size_t)max_samples, sizeof(double));
	b->rank_mean_us = calloc((size_t)nranks, sizeof(double));
	b->rank_late_us = calloc((size_t)nranks, sizeof(double));
	b->rank_learnt_us = calloc((size_t)nranks, sizeof(double));
	b->blame_us = calloc(2 * (size_t)nranks, sizeof(double));
	b->sorted_us = calloc((size_t)max_samples, sizeof(double));
	if (!b->input || !b->result || !b->scratch || !b->arrive_us || !b->end_us ||
	    !b->learnt_us || !b->all_arrive_us || !b->all_end_us || !b->all_learnt_us ||
	    !b->max_us || !b->rank_mean_us ||
	    !b->rank_late_us || !b->rank_learnt_us || !b->blame_us || !b->sorted_us)
		return -1;
	/* touch every page now, so no timed iteration pays a first-touch fault */
	memset(b->input, 0, bytes);
	memset(b->result, 0, bytes);
	memset(b->scratch, 0, scratch_bytes);
	return 0;
}

int bench_bufs_alloc_shared(struct bench_bufs *b, MPI_Comm comm)
{
	size_t bytes = b->bytes ? b->bytes : 1;
	int rc = shm_arena_new(comm, 2 * bytes, &b->arena);
	if (rc == MPI_SUCCESS) {
		b->shared_input = shm_arena_base(b->arena);
		b->shared_result = (char *)b->shared_input + bytes;
	}
	return rc;
}

void bench_bufs_of(const struct bench_bufs *b, const struct ar_variant *v, void **input,
                   void **result)
{
	*input = v->shared_buffers ? b->shared_input : b->input;
	*result = v->shared_buffers ? b->shared_result : b->result;
}

const char *bench_variant_skipped(const struct bench_bufs *b, const struct ar_variant *v,
                                  int nranks, enum ar_op op)
{
	return bench_collective_skipped(b, v, AR_ALLREDUCE, nranks, 1, op);
}

const char *bench_collective_skipped(const struct bench_bufs *b, const struct ar_variant *v,
                                     enum ar_collective c, int nranks, int hosts, enum ar_op op)
{
	const char *why = ar_collective_unsupported(v, c, nranks, hosts, op);
	if (!why && v->shared_buffers && !b->arena)
		why = b->shared_skip ? b->shared_skip : "no shared-memory window";
	return why;
}

void bench_bufs_free(struct bench_bufs *b)
{
	shm_arena_free(&b->arena);
	free(b->input);
	free(b->result);
	free(b->scratch);
	free(b->arrive_us);
	free(b->end_us);
	free(b->learnt_us);
	free(b->all_arrive_us);
	free(b->all_end_us);
	free(b->all_learnt_us);
	free(b->max_us);
	free(b->rank_mean_us);
	free(b->rank_late_us);
	free(b->rank_learnt_us);
	free(b->blame_us);
	free(b->sorted_us);
	memset(b, 0, sizeof *b);
}

/* Attempts between two decisions on the window's lead (the size of point.slack_us). */
enum { LEAD_BATCH = 8 };

/* What the attempts of one point share. */
struct point {
	const struct exec_plan *plan;
	struct ar_call c;
	const struct bench_cfg *cfg;
	const struct bench_bufs *mine; /* the variant's input and result */
	size_t bytes;
	bool in_place;
	int64_t delay_us, slow_us; /* this rank's faults, 0 without */
	int64_t slow_pct;          /* slow by a share of the call's own time, 0 without */
	double origin_s;           /* barrier, pipelined: a reference time every rank shares */
	double lead_us;            /* window: how far ahead rank 0 sets the start */
	double slack_us[LEAD_BATCH]; /* window: time left to each start of the batch when learnt */
	int batch;
};

static double now_ref(const struct point *p)
{
	double t = clock_local_s();
	return p->cfg->clock ? clock_to_ref(p->cfg->clock, t) : t;
}

/*
 * Untimed: restore the input of an in-place call, or poison the output of an
 * out-of-place one, so a variant that skips an element cannot pass on the
 * previous iteration's value.
 */
static void prepare(const struct point *p, bool poison)
{
	if (p->in_place)
		memcpy(p->mine->result, p->mine->input, p->bytes);
	else if (poison)
		memset(p->mine->result, 0xA5, p->bytes);
}

/* The timed call; the slow fault makes it longer on its rank. */
static int timed_call(const struct point *p)
{
	double t0 = p->slow_pct ? MPI_Wtime() : 0;
	int rc = exec_run(p->plan, &p->c);
	if (p->slow_us)
		fault_wait_us(p->slow_us);
	if (p->slow_pct) {
		/* a spin: a share of a few microseconds is below what a sleep can do */
		double t1 = MPI_Wtime(), until = t1 + (t1 - t0) * (double)p->slow_pct / 100.0;
		while (MPI_Wtime() < until)
			;
	}
	return rc;
}

/*
 * Window: every rank proposes a start lead_us ahead on the reference clock
 * and the latest proposal is the start (so a rank still busy with the
 * previous iteration does not miss it); every rank spins until its corrected clock reaches it,
 * calls, and stamps both ends relative to it, and when it learnt the start (learnt: after it
 * by so much, or before it when negative; timing.h says what that excuses).
 */
static int window_attempt(struct point *p, bool poison, double *arrive, double *end,
                          double *learnt)
{
	prepare(p, poison);
	/* the latest proposal wins: the start is lead_us after the last rank is ready */
	double mine = now_ref(p) + p->lead_us * 1e-6, start = mine;
	int rc = MPI_Allreduce(&mine, &start, 1, MPI_DOUBLE, MPI_MAX, p->c.comm);
	if (rc != MPI_SUCCESS)
		return rc;
	/*
	 * A spin; a yield only where ranks share cores (where a spinning rank
	 * would keep a peer off its core until the start): on a loaded host a
	 * yield can give the core away for milliseconds.
	 */
	double t = now_ref(p);
	p->slack_us[p->batch] = (start - t) * 1e6;
	*learnt = -p->slack_us[p->batch];
	for (; t < start; t = now_ref(p))
		if (p->cfg->yield)
			sched_yield();
	if (p->delay_us) {
		fault_wait_us(p->delay_us);
		t = now_ref(p);
	}
	/* the spin's last reading is the arrival: one clock read less before the call */
	double a = t;
	rc = timed_call(p);
	double e = now_ref(p);
	*arrive = (a - start) * 1e6;
	*end = (e - start) * 1e6;
	return rc;
}

/*
 * Every LEAD_BATCH attempts the ranks agree, attempt by attempt, on the least
 * time any rank had left when it learnt the start, and the lead follows
 * (timing_next_lead_us).
 */
static int window_adapt(struct point *p)
{
	if (++p->batch < LEAD_BATCH)
		return MPI_SUCCESS;
	double least[LEAD_BATCH];
	int rc = MPI_Allreduce(p->slack_us, least, LEAD_BATCH, MPI_DOUBLE, MPI_MIN, p->c.comm);
	if (rc == MPI_SUCCESS)
		p->lead_us = timing_next_lead_us(p->lead_us, least, LEAD_BATCH);
	p->batch = 0;
	return rc;
}

/* Barrier and pipelined: a barrier, then calls back to back, timed on this rank's clock. */
static int barrier_attempt(struct point *p, bool poison, int calls, double *arrive, double *end)
{
	prepare(p, poison);
	int rc = MPI_Barrier(p->c.comm);
	if (rc != MPI_SUCCESS)
		return rc;
	if (p->delay_us)
		fault_wait_us(p->delay_us);
	double t0 = clock_local_s();
	for (int k = 0; k < calls && rc == MPI_SUCCESS; k++)
		rc = timed_call(p);
	double t1 = clock_local_s();
	*arrive = ((p->cfg->clock ? clock_to_ref(p->cfg->clock, t0) : t0) - p->origin_s) * 1e6;
	*end = *arrive + (t1 - t0) * 1e6;
	return rc;
}

static int attempt(struct point *p, bool poison, int calls, double *arrive, double *end,
                   double *learnt)
{
	*learnt = 0;
	if (p->cfg->timing != TIMING_WINDOW)
		return barrier_attempt(p, poison, calls, arrive, end);
	int rc = window_attempt(p, poison, arrive, end, learnt);
	return rc == MPI_SUCCESS ? window_adapt(p) : rc;
}

/*
 * Adaptive: the warm-up calls after the first fit the point's budget too
 * (at least one more is no longer needed once a call costs the budget: at
 * 64 MiB a library call can take 0.4 s, and five of them 2 s of nothing
 * measured). From the slowest rank's first call, agreed by every rank.
 */
static int fit_warmup(const struct ar_call *c, const struct bench_cfg *cfg, double first_us,
                      int *warmup)
{
	double slowest = 0;
	int rc = MPI_Allreduce(&first_us, &slowest, 1, MPI_DOUBLE, MPI_MAX, c->comm);
	double fit = slowest > 0 ? cfg->budget_s * 1e6 / slowest : *warmup;
	if (rc == MPI_SUCCESS && fit < *warmup)
		*warmup = fit < 1 ? 1 : (int)fit;
	return rc;
}

/* Rank 0 decides the adaptive count from the slowest rank's best warm-up, and broadcasts it. */
static int decide_iterations(const struct ar_call *c, const struct bench_cfg *cfg,
                             double best_warmup_us, int max_samples, int *iters)
{
	double slowest = 0;
	int rc = MPI_Reduce(&best_warmup_us, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, c->comm);
	if (rc != MPI_SUCCESS)
		return rc;
	if (c->rank == 0) {
		double fit = slowest > 0 ? cfg->budget_s * 1e6 / slowest : (double)cfg->max_iters;
		int n = fit > cfg->max_iters ? cfg->max_iters : (int)fit;
		if (n < cfg->min_iters)
			n = cfg->min_iters;
		*iters = n < max_samples ? n : max_samples;
	}
	return MPI_Bcast(iters, 1, MPI_INT, 0, c->comm);
}

static int verify(const struct ar_call *c, struct bench_result *out)
{
	struct {
		uint64_t wrong;
		struct ar_mismatch first;
	} mine = {0}, *all = NULL;
	size_t wrong = ar_pattern_check_collective(c->result, c->dtype, c->op, c->rank, c->nranks,
	                                           c->count, c->collective, &mine.first);
	mine.wrong = wrong == SIZE_MAX ? c->count : wrong;
	/* rank 0's table, agreed: returning alone would leave the others in the gather */
	int ok = c->rank != 0 || (all = calloc((size_t)c->nranks, sizeof *all)) != NULL;
	int rc = MPI_Bcast(&ok, 1, MPI_INT, 0, c->comm);
	if (rc == MPI_SUCCESS && !ok)
		return MPI_ERR_NO_MEM;
	if (rc == MPI_SUCCESS)
		rc = MPI_Gather(&mine, sizeof mine, MPI_BYTE, all, sizeof mine, MPI_BYTE, 0, c->comm);
	out->wrong = 0;
	out->first_bad_rank = -1;
	for (int r = 0; rc == MPI_SUCCESS && c->rank == 0 && r < c->nranks; r++) {
		out->wrong += all[r].wrong;
		if (all[r].wrong && out->first_bad_rank < 0) {
			out->first_bad_rank = r;
			out->first = all[r].first;
		}
	}
	free(all);
	if (rc == MPI_SUCCESS)
		rc = MPI_Bcast(&out->wrong, 1, MPI_UINT64_T, 0, c->comm);
	return rc;
}

/*
 * A compressed variant: one more call, untimed, checked against the float64
 * sum of every rank's input as that call saw it (with error feedback, plus
 * the residual it started from).
 */
static int verify_compressed(struct point *p, struct bench_result *out)
{
	const struct exec_plan *plan = p->plan;
	const float *in = p->mine->input;
	bool feedback = p->c.codec_cfg && p->c.codec_cfg->error_feedback;
	float *x = malloc((p->c.count ? p->c.count : 1) * sizeof *x);
	int bad = !x, any = bad, rc, worst;
	/* the call is collective: no rank may skip it alone */
	if (MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, p->c.comm) != MPI_SUCCESS || any) {
		free(x);
		return bad ? MPI_ERR_NO_MEM : MPI_ERR_OTHER;
	}
	for (size_t i = 0; i < p->c.count; i++)
		x[i] = in[i] + (feedback ? plan->codec->residual[i] : 0.0f);
	prepare(p, true);
	p->c.tally = NULL; /* the figures are the timed calls' */
	rc = worst = exec_run(plan, &p->c);
	if (rc == MPI_SUCCESS && fault_is(FAULT_FLIP, p->c.rank))
		fault_flip(p->c.result, p->c.count, sizeof(float));
	if (MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, p->c.comm) == MPI_SUCCESS && !worst)
		rc = codec_check(&p->c, plan->variant->codec, x, &out->codec, &out->wrong,
		                 &out->first_bad_rank, &out->first);
	else if (rc == MPI_SUCCESS)
		rc = MPI_ERR_OTHER;
	free(x);
	return rc;
}

/*
 * Error feedback's drift (codec_check.h's codec_drift): from a zero residual,
 * FEEDBACK_CALLS_MIN to FEEDBACK_CALLS_MAX more calls on the same input,
 * untimed, their results summed in float64; past FEEDBACK_TIME_S the calls
 * stop at the next power of two (rank 0 decides, so every rank makes the same
 * calls). What one call drops joins the residual and goes out in a later
 * one, so the summed error is the last residual's however many calls: it
 * stays bounded, and the relative figure falls as the calls grow.
 */
enum { FEEDBACK_CALLS_MIN = 8, FEEDBACK_CALLS_MAX = 64 };
#define FEEDBACK_TIME_S 1.0

static int feedback_drift(struct point *p, struct bench_result *out)
{
	struct exec_codec_state *st = p->plan->codec;
	size_t n = p->c.count;
	double *acc = calloc(n ? n : 1, sizeof *acc), t0 = MPI_Wtime();
	int bad = !acc, flags[2] = {bad, 0}, rc = MPI_SUCCESS, calls = 0;
	memset(st->residual, 0, n * sizeof *st->residual);
	while (rc == MPI_SUCCESS && !flags[0] && !flags[1]) {
		if (!bad) {
			prepare(p, true);
			rc = exec_run(p->plan, &p->c);
			const float *res = p->c.result;
			for (size_t i = 0; rc == MPI_SUCCESS && i < n; i++)
				acc[i] += res[i];
		}
		calls++;
		bool pow2 = (calls & (calls - 1)) == 0;
		int mine[2] = {bad || rc != MPI_SUCCESS,
		               calls >= FEEDBACK_CALLS_MAX ||
		                   (calls >= FEEDBACK_CALLS_MIN && pow2 && p->c.rank == 0 &&
		                    MPI_Wtime() - t0 >= FEEDBACK_TIME_S)};
		if (MPI_Allreduce(mine, flags, 2, MPI_INT, MPI_MAX, p->c.comm) != MPI_SUCCESS)
			flags[0] = 1;
	}
	if (flags[0])
		rc = bad ? MPI_ERR_NO_MEM : rc != MPI_SUCCESS ? rc : MPI_ERR_OTHER;
	else
		rc = codec_drift(&p->c, p->mine->input, acc, calls, &out->codec);
	free(acc);
	return rc;
}

/* The stamps of every rank to rank 0, and there the samples, late starts and straggler. */
static int analyze(const struct point *p, struct bench_bufs *b, int attempts,
                   struct bench_result *out)
{
	MPI_Comm comm = p->c.comm;
	int rc = MPI_Gather(b->arrive_us, attempts, MPI_DOUBLE, b->all_arrive_us, attempts,
	                    MPI_DOUBLE, 0, comm);
	if (rc == MPI_SUCCESS)
		rc = MPI_Gather(b->end_us, attempts, MPI_DOUBLE, b->all_end_us, attempts,
		                MPI_DOUBLE, 0, comm);
	bool window = p->cfg->timing == TIMING_WINDOW;
	if (rc == MPI_SUCCESS && window)
		rc = MPI_Gather(b->learnt_us, attempts, MPI_DOUBLE, b->all_learnt_us, attempts,
		                MPI_DOUBLE, 0, comm);
	if (rc != MPI_SUCCESS || p->c.rank != 0)
		return rc;
	struct timing_input in = {.method = p->cfg->timing,
	                          .nranks = p->c.nranks,
	                          .attempts = attempts,
	                          .arrive_us = b->all_arrive_us,
	                          .end_us = b->all_end_us,
	                          .learnt_us = window ? b->all_learnt_us : NULL,
	                          .calls = out->calls,
	                          .synced = p->cfg->synced,
	                          .slack_us = TIMING_LATE_SLACK_US};
	if (timing_analyze(&in, b->max_us, b->rank_late_us, b->rank_mean_us, b->blame_us,
	                   &out->timing) != 0)
		return MPI_ERR_INTERN;
	timing_rank_learnt_late(&in, b->rank_learnt_us);
	out->iterations = (int)out->timing.nsamples;
	return MPI_SUCCESS;
}

/*
 * Rank 0: whether the samples of the first `done` attempts converged
 * (sample_stop.h), agreed by every rank. The stamps are gathered and
 * analysed as at the point's end, so the rule sees the samples the report will.
 */
static int converged(const struct point *p, struct bench_bufs *b, int done,
                     struct bench_result *out, int *stop)
{
	*stop = 0;
	int rc = analyze(p, b, done, out);
	if (rc == MPI_SUCCESS && p->c.rank == 0)
		*stop = sample_stop_converged(b->max_us, (size_t)out->iterations, p->cfg->ci_width,
		                              b->sorted_us, &out->ci_lo_us, &out->ci_hi_us);
	return rc == MPI_SUCCESS ? MPI_Bcast(stop, 1, MPI_INT, 0, p->c.comm) : rc;
}

/*
 * The timed attempts, *attempts at most: an adaptive point with a width to
 * reach checks at its floor and then each time its count doubles, and stops
 * once converged (*attempts then says how many ran). The attempt before a
 * check poisons its result, so whichever attempt is the last was verifiable.
 */
static int timed_attempts(struct point *p, struct bench_bufs *b, struct bench_result *out,
                          bool adaptive, int *attempts)
{
	const struct bench_cfg *cfg = p->cfg;
	bool check_rule = adaptive && cfg->ci_width > 0;
	int floor = sample_stop_floor(*attempts, cfg->min_iters);
	int next = check_rule ? sample_stop_next_check(0, floor, *attempts) : *attempts;
	bool stall = fault_is(FAULT_STALL, p->c.rank);
	int rc = MPI_SUCCESS;
	for (int i = 0; i < *attempts && rc == MPI_SUCCESS; i++) {
		if (stall && i == ar_fault.after)
			fault_stall();
		progress_step(PROGRESS_TIMED, i);
		bool last = i + 1 == next || i + 1 == *attempts;
		rc = attempt(p, cfg->check && last, out->calls, &b->arrive_us[i], &b->end_us[i],
		             &b->learnt_us[i]);
		if (rc != MPI_SUCCESS || !check_rule || i + 1 != next || next == *attempts)
			continue;
		int stop;
		rc = converged(p, b, i + 1, out, &stop);
		if (rc == MPI_SUCCESS && stop) {
			out->stop = SAMPLE_STOP_CONVERGED;
			*attempts = i + 1;
		}
		next = sample_stop_next_check(next, floor, *attempts);
	}
	return rc;
}

/* The point's attempts and calls per attempt, from the decided count of iterations. */
static void plan_attempts(const struct bench_cfg *cfg, int iters, int *attempts, int *calls)
{
	*calls = cfg->timing == TIMING_PIPELINED ? timing_pipe_calls(iters) : 1;
	*attempts = iters / *calls > 0 ? iters / *calls : 1;
}

int bench_point(const struct exec_plan *plan, const struct ar_call *tmpl, bool in_place,
                const struct bench_cfg *cfg, struct bench_bufs *b, struct bench_result *out)
{
	struct bench_bufs mine = *b;
	struct point p = {.plan = plan,
	                  .c = *tmpl,
	                  .cfg = cfg,
	                  .mine = &mine,
	                  .in_place = in_place,
	                  .lead_us = TIMING_LEAD_FIRST_US};
	double best = -1, a, e, learnt;
	int rc = MPI_SUCCESS, iters = cfg->iters, warmup = cfg->warmup, attempts = 0;
	memset(out, 0, sizeof *out);
	out->ci_lo_us = out->ci_hi_us = NAN;
	out->first_bad_rank = -1;
	bench_bufs_of(b, plan->variant, &mine.input, &mine.result);
	p.bytes = p.c.count * ar_dtype_bytes(p.c.dtype);
	p.c.input = in_place ? mine.result : mine.input;
	p.c.result = mine.result;
	p.c.scratch = b->scratch;
	p.delay_us = fault_is(FAULT_DELAY, p.c.rank) ? ar_fault.us : 0;
	p.slow_us = fault_is(FAULT_SLOW, p.c.rank) ? ar_fault.us : 0;
	p.slow_pct = fault_is(FAULT_SLOW, p.c.rank) ? ar_fault.pct : 0;
	const struct ar_codec *codec = plan->variant->codec;
	struct exec_tally tally = {0};
	if (codec) {
		codec_input_fill(mine.input, p.c.rank, p.c.count);
		p.c.tally = &tally;
	} else {
		ar_pattern_fill(mine.input, p.c.dtype, p.c.op, p.c.rank, p.c.nranks, p.c.count);
	}
	if (p.c.rank == 0)
		p.origin_s = now_ref(&p);
	rc = MPI_Bcast(&p.origin_s, 1, MPI_DOUBLE, 0, p.c.comm);
	bool adaptive = iters == 0;
	if (adaptive && warmup == 0)
		warmup = 1; /* the adaptive count needs one call to go by */
	for (int i = 0; i < warmup && rc == MPI_SUCCESS; i++) {
		progress_step(PROGRESS_WARMUP, i);
		rc = attempt(&p, false, 1, &a, &e, &learnt);
		best = best < 0 || e - a < best ? e - a : best;
		if (rc == MPI_SUCCESS && adaptive && i == 0 && warmup > 1)
			rc = fit_warmup(&p.c, cfg, e - a, &warmup);
	}
	tally = (struct exec_tally){0}; /* the timed calls' bytes alone */
	if (rc == MPI_SUCCESS && adaptive)
		rc = decide_iterations(&p.c, cfg, best, b->max_samples, &iters);
	if (iters > b->max_samples)
		iters = b->max_samples;
	plan_attempts(cfg, iters, &attempts, &out->calls);
	out->stop = !adaptive ? SAMPLE_STOP_FIXED
	            : iters >= cfg->max_iters || iters >= b->max_samples ? SAMPLE_STOP_SAMPLES
	                                                                 : SAMPLE_STOP_TIME;
	rc = rc == MPI_SUCCESS ? timed_attempts(&p, b, out, adaptive, &attempts) : rc;
	out->iterations = out->attempts = attempts;
	out->lead_us = p.lead_us;
	out->timing_method = cfg->timing;
	progress_step(PROGRESS_VERIFY, 0);
	if (rc == MPI_SUCCESS && fault_is(FAULT_FLIP, p.c.rank))
		fault_flip(p.c.result, p.c.count, ar_dtype_bytes(p.c.dtype));
	/* every rank must learn of an error before any waits in the next collective */
	int worst = rc;
	if (MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, p.c.comm) != MPI_SUCCESS || worst)
		return out->mpi_rc = rc != MPI_SUCCESS ? rc : MPI_ERR_OTHER;
	rc = analyze(&p, b, attempts, out);
	if (rc == MPI_SUCCESS && p.c.rank == 0) /* the interval of every point, adaptive or not */
		sample_stop_converged(b->max_us, (size_t)out->iterations, cfg->ci_width, b->sorted_us,
		                      &out->ci_lo_us, &out->ci_hi_us);
	if (rc == MPI_SUCCESS && codec)
		rc = codec_figures_bytes(p.c.comm, &tally, &out->codec);
	if (rc == MPI_SUCCESS && cfg->check)
		rc = codec ? verify_compressed(&p, out) : verify(&p.c, out);
	bool feedback = codec && p.c.codec_cfg && p.c.codec_cfg->error_feedback;
	if (rc == MPI_SUCCESS && cfg->check && feedback) /* its summed calls: 2x the message */
		rc = feedback_drift(&p, out);
	return out->mpi_rc = rc;
}

double bench_timer_overhead_us(void)
{
	enum { CALLS = 1000 };
	double t0 = MPI_Wtime(), t = t0;
	for (int i = 0; i < CALLS; i++)
		t = MPI_Wtime();
	return (t - t0) / CALLS * 1e6;
}
