/*
 * A schedule: the steps one rank takes in a point-to-point all-reduce.
 *
 * Schedules are data. A builder (one per variant, pure, no MPI) fills a
 * struct sched for (rank, nranks, count, segment); the executor runs it over
 * MPI, the unit-test simulator plays every rank of it in one process, and the
 * cost model walks it. Offsets and counts are in elements, never bytes.
 *
 * Step semantics (what the executor and the simulator both implement):
 *   1. post the receive (if recv_peer >= 0) and the send (if send_peer >= 0);
 *   2. wait for both;
 *   3. SCHED_COPY: the received elements land at result[recv_offset];
 *      SCHED_REDUCE: result[recv_offset + i] = lhs[recv_offset + i] op tmp[i],
 *      where lhs is the input buffer if reduce_from_input, else the result.
 * A send reads input[] if send_from_input, else result[]. When the call is
 * in place input and result are the same buffer and the flags are moot.
 * If copy_input_first is set the executor copies input to result before
 * step 0 (out of place only): elements [copy_offset, copy_offset +
 * copy_count), the whole buffer unless the builder narrows it (an
 * all-gather needs only its own chunk); builders that read their input
 * through the flags instead leave it clear and so save a full pass over memory.
 * A message never exceeds the builder's segment count, so receive scratch is
 * bounded by sched.max_recv_count elements whatever the message size.
 */
#ifndef COLLSCOPE_SCHEDULE_H
#define COLLSCOPE_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>

/* Default message segment of the point-to-point variants. */
#define SCHED_DEFAULT_SEGMENT_BYTES ((size_t)256 * 1024)
/* Largest segment accepted: keeps every message's byte count an int. */
#define SCHED_MAX_SEGMENT_BYTES ((size_t)1 << 30)

enum sched_action { SCHED_COPY, SCHED_REDUCE };

struct sched_step {
	int send_peer; /* -1: no send */
	int recv_peer; /* -1: no receive */
	size_t send_offset, send_count;
	size_t recv_offset, recv_count;
	enum sched_action action;
	bool send_from_input;
	bool reduce_from_input;
};

struct sched {
	int rank, nranks;
	size_t count;         /* elements in the whole buffer */
	size_t segment_count; /* largest message, in elements (>= 1) */
	bool copy_input_first;
	size_t copy_offset, copy_count; /* the range copied first: 0 and count unless narrowed */
	struct sched_step *steps;
	size_t nsteps, cap;
	size_t max_recv_count; /* largest recv_count of any step */
	/*
	 * A reduce-scatter then an all-gather (ring, rabenseifner): halves is
	 * set and ag_first_step is the all-gather's first step, so a trace can
	 * time each half. Ranks that only fold in and out have neither half.
	 */
	bool halves;
	size_t ag_first_step;
};

/* Builders fill an initialised schedule and return 0, or -1 on allocation failure. */
typedef int (*sched_build_fn)(struct sched *s);

void sched_init(struct sched *s, int rank, int nranks, size_t count, size_t segment_count);
void sched_release(struct sched *s);
/* Remove every step, keep the storage: lets one struct serve many builds. */
void sched_reset(struct sched *s, int rank, int nranks, size_t count, size_t segment_count);

/* Append one step; zero-count halves are dropped (peer set to -1). */
int sched_add(struct sched *s, const struct sched_step *step);

/*
 * Append a send of [send_offset, +send_count) to send_peer paired with a
 * receive of [recv_offset, +recv_count) from recv_peer, both cut into
 * segments of at most s->segment_count: step k carries segment k of each
 * side, so the two sides pipeline. Peers of -1 or counts of 0 mean that side
 * is absent. The flags of tmpl (action, from_input) apply to every segment.
 */
int sched_add_segmented(struct sched *s, int send_peer, size_t send_offset, size_t send_count,
                        int recv_peer, size_t recv_offset, size_t recv_count,
                        const struct sched_step *tmpl);

/*
 * The shape of a reduce-scatter then all-gather variant (ring, direct): one
 * rank copies its input, an empty buffer has no step, else rs, the mark of
 * where the all-gather starts (halves, ag_first_step), then ag.
 */
int sched_build_halves(struct sched *s, sched_build_fn rs, sched_build_fn ag);

/*
 * An all-gather's start: copy_input_first narrowed to this rank's own chunk
 * (sched_part_offset's), the only one of its input it contributes.
 */
void sched_copy_own_chunk(struct sched *s);

/* Balanced split of count into parts: part i starts at sched_part_offset(i). */
size_t sched_part_offset(size_t count, size_t parts, size_t i);
size_t sched_part_count(size_t count, size_t parts, size_t i);

/*
 * The fold of a non-power-of-two rank count (recursive doubling,
 * Rabenseifner; Open MPI's coll/base does the same): with p the largest power
 * of two <= n and rem = n - p, the first 2 rem ranks pair up and each even
 * one hands its input to its odd neighbour, which reduces it and plays a
 * virtual rank; at the end the odd one sends the result back.
 */
/* Rank r's virtual rank after the fold, or -1 for the even ranks folded out. */
int sched_fold_vrank(int r, int rem);
/* The real rank that plays virtual rank v. */
int sched_fold_rank(int v, int rem);
/* This rank's half of the fold (call only for ranks < 2 rem). */
int sched_add_fold(struct sched *s);
/* This rank's half of the unfold (call only for ranks < 2 rem). */
int sched_add_unfold(struct sched *s);

/* Largest power of two <= n (n >= 1). */
int sched_pow2_floor(int n);

/*
 * The whole frame of a power-of-two variant on any rank count: one rank
 * copies its input; a count of 0 has no steps; else the fold, then core on
 * the ranks that play a virtual rank (the odd ranks of the fold already hold
 * a partial result; the even ones wait), then the unfold. core gets p and
 * rem as above, and whether this rank took part in the fold. Returns 0 or -1.
 */
typedef int (*sched_folded_core)(struct sched *s, int p, int rem, bool folded);
int sched_build_folded(struct sched *s, sched_folded_core core);

#endif
