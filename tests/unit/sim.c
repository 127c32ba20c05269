/*
 * The schedule simulator: see sim.h. Every rank sits at one step; a pass
 * over the ranks delivers every message whose sender and receiver are both
 * at the matching step, completes the steps whose halves are both done, and
 * repeats until every rank has finished or a pass changes nothing (deadlock).
 */
#include "sim.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/pattern.h"

enum { SIM_GARBAGE_BYTE = 0x5A };

struct sim_rank {
	struct sched s;
	unsigned char *input, *result; /* the same buffer when in place */
	unsigned char *input_copy;     /* out of place: the input as filled */
	unsigned char *tmp;            /* receive scratch, max_recv_count elements */
	size_t cur;                    /* current step; s.nsteps when finished */
	bool sent, received;           /* halves of the current step done (or absent) */
};

struct sim {
	const struct sim_config *cfg;
	struct sim_result *res;
	struct sim_rank *ranks;
	int nranks_allocated; /* entries of ranks[], for the cleanup */
	size_t width_bytes;
};

__attribute__((format(printf, 2, 3))) static void append(struct sim_result *res, const char *fmt,
                                                         ...)
{
	size_t used = strlen(res->message);
	va_list ap;
	if (used + 1 >= sizeof res->message)
		return;
	va_start(ap, fmt);
	vsnprintf(res->message + used, sizeof res->message - used, fmt, ap);
	va_end(ap);
}

/* Record the first failure; later ones keep the first message. */
__attribute__((format(printf, 2, 3))) static int fail(struct sim_result *res, const char *fmt, ...)
{
	va_list ap;
	if (!res->ok)
		return -1;
	res->ok = false;
	va_start(ap, fmt);
	vsnprintf(res->message, sizeof res->message, fmt, ap);
	va_end(ap);
	return -1;
}

static bool out_of_range(size_t offset, size_t n, size_t count)
{
	return n > count || offset > count - n;
}

static bool overlap(size_t a, size_t an, size_t b, size_t bn)
{
	return an > 0 && bn > 0 && a < b + bn && b < a + an;
}

/* Everything about one step that can be judged without playing it. */
static int check_step(struct sim *sim, int r, size_t i)
{
	const struct sched *s = &sim->ranks[r].s;
	const struct sched_step *st = &s->steps[i];
	int n = sim->cfg->nranks;
	bool sends_result = sim->cfg->in_place || !st->send_from_input;
	if (st->send_peer >= n || st->recv_peer >= n || st->send_peer == r || st->recv_peer == r ||
	    st->send_peer < -1 || st->recv_peer < -1)
		return fail(sim->res, "rank %d step %zu: bad peer (send %d, recv %d) of %d ranks",
		            r, i, st->send_peer, st->recv_peer, n);
	if ((st->send_peer >= 0 && out_of_range(st->send_offset, st->send_count, s->count)) ||
	    (st->recv_peer >= 0 && out_of_range(st->recv_offset, st->recv_count, s->count)))
		return fail(sim->res, "rank %d step %zu: range outside the buffer of %zu elements",
		            r, i, s->count);
	if ((st->send_peer >= 0 && st->send_count > s->segment_count) ||
	    (st->recv_peer >= 0 && st->recv_count > s->segment_count))
		return fail(sim->res,
		            "rank %d step %zu: message of %zu/%zu elements exceeds segment %zu", r,
		            i, st->send_count, st->recv_count, s->segment_count);
	if (st->recv_peer >= 0 && st->recv_count > s->max_recv_count)
		return fail(sim->res,
		            "rank %d step %zu: receives %zu elements > max_recv_count %zu", r, i,
		            st->recv_count, s->max_recv_count);
	/* the executor may receive a COPY straight into the result */
	if (st->send_peer >= 0 && st->recv_peer >= 0 && st->action == SCHED_COPY && sends_result &&
	    overlap(st->send_offset, st->send_count, st->recv_offset, st->recv_count))
		return fail(sim->res, "rank %d step %zu: copies into the range it sends from", r,
		            i);
	return 0;
}

static int build_rank(struct sim *sim, int r)
{
	const struct sim_config *cfg = sim->cfg;
	struct sim_rank *rk = &sim->ranks[r];
	size_t bytes = cfg->count * sim->width_bytes;
	sched_init(&rk->s, r, cfg->nranks, cfg->count, cfg->segment_count);
	if (cfg->build(&rk->s) != 0)
		return fail(sim->res, "rank %d: build failed", r);
	if (rk->s.rank != r || rk->s.nranks != cfg->nranks || rk->s.count != cfg->count)
		return fail(sim->res, "rank %d: build changed rank, nranks or count", r);
	for (size_t i = 0; i < rk->s.nsteps; i++)
		if (check_step(sim, r, i) != 0)
			return -1;
	/* + 1: malloc(0) may return NULL */
	rk->input = malloc(bytes + 1);
	rk->tmp = malloc(rk->s.max_recv_count * sim->width_bytes + 1);
	if (!cfg->in_place) {
		rk->result = malloc(bytes + 1);
		rk->input_copy = malloc(bytes + 1);
	}
	if (!rk->input || !rk->tmp || (!cfg->in_place && (!rk->result || !rk->input_copy)))
		return fail(sim->res, "rank %d: out of memory", r);
	ar_pattern_fill(rk->input, cfg->dtype, cfg->op, r, cfg->nranks, cfg->count);
	if (cfg->in_place) {
		rk->result = rk->input;
	} else {
		memcpy(rk->input_copy, rk->input, bytes);
		memset(rk->result, SIM_GARBAGE_BYTE, bytes);
		size_t w = sim->width_bytes;
		if (rk->s.copy_input_first) /* the range the executor copies */
			memcpy((char *)rk->result + rk->s.copy_offset * w,
			       (char *)rk->input + rk->s.copy_offset * w, rk->s.copy_count * w);
	}
	return 0;
}

static void enter_step(struct sim_rank *rk)
{
	if (rk->cur >= rk->s.nsteps)
		return;
	rk->sent = rk->s.steps[rk->cur].send_peer < 0;
	rk->received = rk->s.steps[rk->cur].recv_peer < 0;
}

/* Finish rk's current step if both halves are done: apply it, move on. */
static bool complete(struct sim *sim, struct sim_rank *rk)
{
	const struct sched_step *st;
	size_t w = sim->width_bytes;
	if (rk->cur >= rk->s.nsteps || !rk->sent || !rk->received)
		return false;
	st = &rk->s.steps[rk->cur];
	if (st->recv_peer >= 0 && st->action == SCHED_COPY)
		memcpy(rk->result + st->recv_offset * w, rk->tmp, st->recv_count * w);
	if (st->recv_peer >= 0 && st->action == SCHED_REDUCE) {
		const unsigned char *lhs = st->reduce_from_input ? rk->input : rk->result;
		ar_reduce(rk->result + st->recv_offset * w, lhs + st->recv_offset * w, rk->tmp,
		          st->recv_count, sim->cfg->dtype, sim->cfg->op);
	}
	rk->cur++;
	sim->res->steps_total++;
	enter_step(rk);
	return true;
}

/*
 * Deliver the message rank q's current step waits for, if its sender is at
 * the matching step. 1 when delivered, 0 when not yet, -1 on a mismatch.
 */
static int deliver_to(struct sim *sim, int q)
{
	struct sim_rank *rq = &sim->ranks[q], *rp;
	const struct sched_step *sq, *sp;
	const unsigned char *src;
	size_t w = sim->width_bytes;
	if (rq->cur >= rq->s.nsteps || rq->received)
		return 0;
	sq = &rq->s.steps[rq->cur];
	rp = &sim->ranks[sq->recv_peer];
	if (rp->cur >= rp->s.nsteps || rp->sent)
		return 0;
	sp = &rp->s.steps[rp->cur];
	if (sp->send_peer != q)
		return 0;
	if (sp->send_count != sq->recv_count)
		return fail(sim->res,
		            "mismatched message: rank %d step %zu sends %zu elements to rank %d, "
		            "whose step %zu receives %zu",
		            sq->recv_peer, rp->cur, sp->send_count, q, rq->cur, sq->recv_count);
	src = sp->send_from_input || sim->cfg->in_place ? rp->input : rp->result;
	memcpy(rq->tmp, src + sp->send_offset * w, sp->send_count * w);
	rq->received = true;
	rp->sent = true;
	sim->res->transfers_total++;
	complete(sim, rp);
	complete(sim, rq);
	return 1;
}

/* Move rank r on as far as it can go now: 1 if anything happened, -1 on failure. */
static int advance(struct sim *sim, int r)
{
	struct sim_rank *rk = &sim->ranks[r];
	int moved = 0;
	while (rk->cur < rk->s.nsteps) {
		const struct sched_step *st = &rk->s.steps[rk->cur];
		int got = 0, gave = 0;
		if (complete(sim, rk)) { /* a step with neither half */
			moved = 1;
			continue;
		}
		if (!rk->received)
			got = deliver_to(sim, r);
		if (got >= 0 && !rk->sent && st == &rk->s.steps[rk->cur])
			gave = deliver_to(sim, st->send_peer);
		if (got < 0 || gave < 0)
			return -1;
		if (got == 0 && gave == 0)
			break;
		moved = 1;
	}
	return moved;
}

static void describe_half(struct sim_result *res, const char *verb, int peer, size_t count,
                          bool done)
{
	if (peer < 0)
		return;
	append(res, " %s %zu %s %d%s", verb, count, strcmp(verb, "send") == 0 ? "to" : "from", peer,
	       done ? " (done)" : "");
}

static int report_deadlock(struct sim *sim)
{
	fail(sim->res, "deadlock: no progress with ranks unfinished:");
	for (int r = 0; r < sim->cfg->nranks; r++) {
		const struct sim_rank *rk = &sim->ranks[r];
		const struct sched_step *st;
		if (rk->cur >= rk->s.nsteps)
			continue;
		st = &rk->s.steps[rk->cur];
		append(sim->res, " [rank %d step %zu/%zu:", r, rk->cur, rk->s.nsteps);
		describe_half(sim->res, "recv", st->recv_peer, st->recv_count, rk->received);
		describe_half(sim->res, "send", st->send_peer, st->send_count, rk->sent);
		append(sim->res, "]");
	}
	return -1;
}

static int play(struct sim *sim)
{
	int n = sim->cfg->nranks;
	for (int r = 0; r < n; r++)
		enter_step(&sim->ranks[r]);
	for (;;) {
		bool progress = false, unfinished = false;
		for (int r = 0; r < n; r++) {
			int rc = advance(sim, r);
			if (rc < 0)
				return -1;
			progress = progress || rc > 0;
		}
		for (int r = 0; r < n; r++)
			unfinished = unfinished || sim->ranks[r].cur < sim->ranks[r].s.nsteps;
		if (!unfinished)
			return 0;
		if (!progress)
			return report_deadlock(sim);
	}
}

static int check_results(struct sim *sim)
{
	const struct sim_config *cfg = sim->cfg;
	size_t w = sim->width_bytes;
	for (int r = 0; r < cfg->nranks; r++) {
		const struct sim_rank *rk = &sim->ranks[r];
		struct ar_mismatch first = {0};
		size_t wrong =
		    ar_pattern_check_collective(rk->result, cfg->dtype, cfg->op, r, cfg->nranks,
		                                cfg->count, cfg->collective, &first);
		if (wrong == SIZE_MAX)
			return fail(sim->res, "rank %d: out of memory checking the result", r);
		if (wrong > 0)
			return fail(
			    sim->res,
			    "wrong result: rank %d has %zu of %zu elements wrong, the first at "
			    "index %zu: got %g (bits 0x%llx), expected %g (bits 0x%llx)",
			    r, wrong, cfg->count, first.index, first.got,
			    (unsigned long long)first.got_bits, first.expected,
			    (unsigned long long)first.expected_bits);
		if (cfg->in_place || memcmp(rk->input, rk->input_copy, cfg->count * w) == 0)
			continue;
		for (size_t i = 0; i < cfg->count; i++)
			if (memcmp(rk->input + i * w, rk->input_copy + i * w, w) != 0)
				return fail(sim->res, "rank %d: input modified at index %zu", r, i);
	}
	return 0;
}

static void release_ranks(struct sim *sim)
{
	if (!sim->ranks)
		return;
	for (int r = 0; r < sim->nranks_allocated; r++) {
		struct sim_rank *rk = &sim->ranks[r];
		sched_release(&rk->s);
		if (rk->result != rk->input)
			free(rk->result);
		free(rk->input);
		free(rk->input_copy);
		free(rk->tmp);
	}
	free(sim->ranks);
	sim->ranks = NULL;
}

int sim_run(const struct sim_config *cfg, struct sim_result *res)
{
	struct sim sim = {.cfg = cfg, .res = res, .ranks = NULL};
	memset(res, 0, sizeof *res);
	res->ok = true;
	if (cfg->nranks < 1 || !cfg->build) {
		fail(res, "bad configuration: %d ranks, build %s", cfg->nranks,
		     cfg->build ? "set" : "missing");
		goto out;
	}
	sim.width_bytes = ar_dtype_bytes(cfg->dtype);
	sim.ranks = calloc((size_t)cfg->nranks, sizeof *sim.ranks);
	if (!sim.ranks) {
		fail(res, "out of memory for %d ranks", cfg->nranks);
		goto out;
	}
	sim.nranks_allocated = cfg->nranks;
	for (int r = 0; r < cfg->nranks; r++)
		if (build_rank(&sim, r) != 0)
			goto out;
	if (play(&sim) != 0)
		goto out;
	check_results(&sim);
out:
	release_ranks(&sim);
	return res->ok ? 0 : -1;
}
