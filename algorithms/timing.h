/*
 * How an all-reduce point is timed, and what its per-rank timestamps say
 * (algorithms/README.md, timing methods): the iteration times, the
 * iterations dropped because a rank came late to the common start, and the
 * straggler with its cause. Pure: no MPI, no I/O.
 *
 * Methods:
 *   window     rank 0 picks a start a little in the future on the reference
 *              clock; every rank spins until its corrected clock reaches it,
 *              calls, and stamps its end; the iteration is the latest end
 *              minus the start. An iteration where a rank arrived after the
 *              start (by more than the slack) is dropped and counted, unless
 *              most were late: then every iteration is timed from its last
 *              arrival instead (timing_window_retime).
 *   barrier    a barrier, then every rank times its own call; the iteration
 *              is the longest of them (the barrier's exit skew included).
 *   pipelined  a barrier, then calls back to back; a sample is one batch,
 *              its time per call on the slowest rank (nccl-tests' and OSU's
 *              way, comparable with their figures).
 */
#ifndef COLLSCOPE_TIMING_H
#define COLLSCOPE_TIMING_H

#include <stdbool.h>
#include <stddef.h>

enum timing_method { TIMING_WINDOW, TIMING_BARRIER, TIMING_PIPELINED, TIMING_METHOD_COUNT };

/*
 * "window", "barrier", "pipelined", NULL: the one table of the names, which
 * --timing's choices and the reports' "timing" (reports/io/schema_table.h) use.
 */
extern const char *const timing_method_names[TIMING_METHOD_COUNT + 1];
/* The name of m; "?" out of range. */
const char *timing_method_name(enum timing_method m);
/* 0, or -1 for an unknown name. */
int timing_method_parse(const char *name, enum timing_method *out);

enum timing_cause {
	TIMING_CAUSE_NONE,
	TIMING_CAUSE_LATE_ARRIVAL,
	TIMING_CAUSE_SLOW_INSIDE,
	TIMING_CAUSES
};
/* The names of the causes but none: "late_arrival", "slow_inside", NULL. */
extern const char *const timing_cause_names[TIMING_CAUSES];
/* "late_arrival", "slow_inside", or NULL for none. */
const char *timing_cause_name(enum timing_cause c);

/*
 * Where the samples of a window point are timed from: the common start (late
 * attempts dropped), or each attempt's last arrival (most attempts late).
 * The others' samples are each rank's own call: TIMING_FROM_NONE.
 */
enum timing_from { TIMING_FROM_NONE, TIMING_FROM_START, TIMING_FROM_LAST_ARRIVAL, TIMING_FROMS };
/* The names of the origins but none: "start", "last_arrival", NULL. */
extern const char *const timing_from_names[TIMING_FROMS];
/* "start", "last_arrival", or NULL for none. */
const char *timing_from_name(enum timing_from f);

/*
 * Window: whether a point whose late attempts (a rank arrived after the
 * start, beyond the slack) number late of attempts is timed from each
 * attempt's last arrival instead of dropping them. An occasional late start
 * is a disturbance (a preempted rank) and dropping it keeps the method's
 * clean start; when more than half are late, a rank is persistently late,
 * which is the finding: dropping would leave few samples or none, so every
 * attempt is kept, timed from its last arrival, and the report says so.
 */
bool timing_window_retime(int late, int attempts);

/* A window arrival later than this after the start makes the attempt late. */
#define TIMING_LATE_SLACK_US 0.5
/*
 * The window's lead: from the first, doubled while too many arrive late, up
 * to the most; halved while every rank learns the start with over half of it
 * to spare, down to the least. A spin to a start far off makes the call after
 * it slower (8 B, 2 ranks on shared memory: window p50 1.07x the pipelined
 * mean with a lead of 5 us, 1.14x at 20, 1.31x at 100), so the lead is kept
 * near what the agreement on the start needs.
 */
#define TIMING_LEAD_FIRST_US 20.0
#define TIMING_LEAD_MIN_US 2.0
#define TIMING_LEAD_MAX_US 500.0
/* Pipelined: calls per sample, n / TIMING_PIPE_SAMPLES, from 1 to TIMING_PIPE_MAX_CALLS. */
#define TIMING_PIPE_SAMPLES 16
#define TIMING_PIPE_MAX_CALLS 64

/* Calls per pipelined sample for a count of iters timed calls. */
int timing_pipe_calls(int iters);
/*
 * The window lead after a batch of attempts, from slack_us[i]: the least
 * time any rank had left before attempt i's start when it learnt it (0 or
 * less: a rank learnt it only after it had passed). Doubled (up to
 * TIMING_LEAD_MAX_US) when half or more were missed: a longer lead helps only
 * those, while a rank that spins longer is likelier to be preempted, not
 * less. Halved (down to TIMING_LEAD_MIN_US) when none was missed and every
 * attempt's slack exceeded half the lead. Else the same.
 */
double timing_next_lead_us(double lead_us, const double *slack_us, int attempts);

struct timing_input {
	enum timing_method method;
	int nranks, attempts;
	/*
	 * [r * attempts + i]: rank r's arrival in its call and its end, attempt i,
	 * in microseconds on the reference clock: for window relative to the
	 * attempt's start, for the others to any origin shared by the ranks.
	 */
	const double *arrive_us, *end_us;
	/*
	 * Window, [r * attempts + i]: when rank r learnt attempt i's start, after it (negative:
	 * before it, as it should). NULL: not known (every rank learnt it in time). A rank that
	 * learnt the start only after it had passed never had it to keep: its arrival until it
	 * learnt is the start's delivery, not the rank, and the straggler's blame, count and
	 * spread are taken from each rank's own lateness, its arrival less that. The start is
	 * agreed by an MPI_Allreduce, and the library delivers its result to some rank last by
	 * its schedule (Open MPI's recursive doubling over 5 ranks: rank 0, which waits for rank
	 * 1's result at the end): on the campaign's 5 namespace hosts, with the lead at 40 us,
	 * rank 0 arrived last in 8 of 10 calls of a ring by 1.3 ms, and a healthy rank 0 was
	 * named late in 3 of 65 traced draws, one of them clean (issue 39: seed 5 of addc596,
	 * seed 3 of 95c06be).
	 */
	const double *learnt_us;
	int calls;     /* calls an attempt spans: pipelined's batch, else 1 */
	bool synced;   /* the clocks are synchronised: arrivals compare across ranks */
	double slack_us; /* window: lateness that does not drop an attempt */
};

struct timing_result {
	size_t nsamples; /* written to samples_us: the attempts kept */
	int late_starts; /* window: attempts dropped */
	int late_retimed; /* window: late attempts kept, timed from their last arrival */
	enum timing_from from; /* window: what the samples were timed from; NONE otherwise */
	int straggler_rank;
	enum timing_cause cause;
	double straggler_us; /* the straggler's own delay, per attempt, on average */
	/* how often it was the last (to arrive, or to end: by its cause), and, for a
	   late arrival at a window's common start, the chance that any rank is the
	   last that often were none slower: nranks x P(X >= count), X ~
	   Binomial(attempts, 1 / nranks); NAN otherwise */
	int straggler_count;
	double straggler_p;
	/* the latest other rank's median own lateness (learnt_us): the start's own error (clock
	   offsets, the spin, the scheduler), which a late rank must stand out from; NAN unsynced */
	double others_late_us;
	/* window: the start's error as measured in these calls, the latest median arrival after
	   the start of any rank but a persistent straggler (the clock model's own error comes on
	   top: context.clock_sync.error_us); NAN otherwise */
	double start_error_us;
};

/*
 * A straggler is persistent, the point's finding rather than its noise,
 * when it arrived late (cause late_arrival), was the last to arrive more
 * often than chance allows (straggler_p at most TIMING_STRAGGLER_ALPHA), and
 * its own delay stands out: at least TIMING_STRAGGLER_SPREAD times the other
 * ranks' start error (others_late_us, measured in the same calls) and at
 * least TIMING_STRAGGLER_MIN_SHARE of the point's p50. A rank that starts
 * each call late holds up every call of the job (issue 29: a persistent late
 * rank is the finding). Some rank is always the last; on a busy machine the
 * same one is, now and then, by a few microseconds, and a rank whose clock
 * offset is misjudged is late in every call by that error: the spread rule
 * asks for more than the others' own lateness. The share was 10% of the p50
 * until the campaign (issue 39) showed a rank 3 ms late in each 54 ms call
 * (p 5e-7, the others within 134 us of the start) going unnamed: 5% of every
 * call is the job's problem; 1% is not. Only window timing judges it: after
 * a barrier the arrivals are its exit order (rank 0 the last to arrive in 60
 * of 60 calls at 3 ranks here, by 10-77% of the p50, with no fault); on an
 * oversubscribed host a rank the scheduler keeps waiting is persistently
 * late too, and named: the OS is its cause. The last to end is not judged so: a schedule ends on some
 * ranks a step after the others by design (the ring at 64 KiB on 3 ranks:
 * rank 0 the last in 100 of 100 calls, by 29% of the p50, with no fault),
 * and slowness inside the call is the hop judge's (reports/diagnose/hops.h);
 * so a late rank that passes the count and spread rules is the straggler
 * even where another rank's end was blamed more.
 * Nor can a loop that starts every call together see a rank whose work
 * between calls is slow: the start waits for it (COLLSCOPE_FAULT=slow).
 */
#define TIMING_STRAGGLER_ALPHA 1e-3
#define TIMING_STRAGGLER_MIN_SHARE 0.01
#define TIMING_STRAGGLER_SPREAD 3.0
bool timing_straggler_persistent(const struct timing_result *t, double p50_us);

/*
 * samples_us (attempts entries at most): each kept attempt's time (per call):
 * window from the start to the latest end, or (most attempts late,
 * timing_window_retime) from the latest arrival to the latest end;
 * rank_late_us[r]: rank r's mean arrival after the start (window) or after
 * the first rank's arrival (the others), 0 when not synced; rank_inside_us[r]:
 * its mean time inside one call.
 *
 * The straggler: in every attempt, the last rank to arrive is blamed for
 * its lead over the next-to-last arrival (everyone waited that long for it
 * alone), and the last rank to finish for its lead over the next-to-last
 * end (the attempt lasted that much longer for it alone). The rank with the
 * most blame of one kind is the straggler, and the kind its cause, with how
 * often it was the last by that measure (straggler_count, straggler_p). Without
 * synchronised clocks (or blame), the straggler is the rank with the least
 * time inside the call (the others waited inside for it) and the cause none.
 * blame_us is scratch of 2 x nranks (nothing is allocated: rank 0 runs this
 * between collectives). Returns 0, or -1 for bad sizes.
 */
int timing_analyze(const struct timing_input *in, double *samples_us, double *rank_late_us,
                   double *rank_inside_us, double *blame_us, struct timing_result *out);

/*
 * Window: rank_learnt_us[r], how long after the start rank r learnt it, on average over the
 * attempts (an attempt it learnt in time counts 0): of its mean arrival (rank_late_us), the
 * part that was the start's delivery. All 0 when learnt_us is NULL.
 */
void timing_rank_learnt_late(const struct timing_input *in, double *rank_learnt_us);

#endif
