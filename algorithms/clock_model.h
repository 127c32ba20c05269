/*
 * Clock models: how one rank's clock maps onto the reference clock (world
 * rank 0's), estimated from ping-pong timestamps (algorithms/README.md,
 * timing methods). Pure: no MPI, no I/O. Times are in seconds, as
 * MPI_Wtime gives them.
 *
 * One ping-pong: the rank reads its clock (send_s) and sends; rank 0 answers
 * with its own clock (ref_s); the rank reads its clock again (recv_s). When
 * both one-way trips take as long, ref_s was read at the local midpoint, so
 * offset = ref_s - (send_s + recv_s) / 2; whatever the asymmetry, the true
 * offset lies within half the round trip of that. Of each round of
 * ping-pongs only the shortest round trip is kept: the one least delayed by
 * queueing or preemption, with the tightest bound (Jones and Koenig; the
 * same estimator as SKaMPI's and ReproMPI's HCA, without HCA's hierarchy).
 *
 * A sync is a burst of rounds: its offset is the median of the rounds'
 * offsets, at their mean local time. The drift (the rate at which the offset
 * changes) needs a longer baseline than one burst spans (an error of 0.1 us
 * over a 1 ms burst is a drift of 1e-4: 100 us a second), so it comes from
 * the history of syncs: a least-squares line through the last
 * CLOCK_HISTORY bursts' offsets once they span clock_min_drift_span_s;
 * until then the drift is 0 and periodic resyncs keep the error small.
 */
#ifndef COLLSCOPE_CLOCK_MODEL_H
#define COLLSCOPE_CLOCK_MODEL_H

#include <stddef.h>

struct clock_pingpong {
	double send_s, ref_s, recv_s;
};

/* One round's best ping-pong, or one sync's estimate. */
struct clock_point {
	double local_s;  /* the local time at which offset_s holds */
	double offset_s; /* reference - local */
	double rtt_s;    /* its round trip: the true offset is within rtt_s / 2 */
};

enum { CLOCK_HISTORY = 8 };

struct clock_model {
	double anchor_s; /* local time at which offset_s was measured */
	double offset_s; /* reference = local + offset_s + drift (local - anchor_s) */
	double drift;    /* seconds per second */
	double rtt_s;    /* the best round trip of the last sync; 0 for the reference itself */
	struct clock_point hist[CLOCK_HISTORY]; /* the syncs, oldest first */
	int nhist;
	int syncs;
};

/* The identity: the reference rank's own model, and everyone's before a sync. */
void clock_model_init(struct clock_model *m);
/* A local time on the reference clock. */
double clock_to_ref(const struct clock_model *m, double local_s);
/* The point of p[0..n) with the shortest round trip; -1 for n = 0. */
int clock_best(const struct clock_pingpong *p, size_t n, struct clock_point *out);
/*
 * One sync's estimate from its rounds' best points (n >= 1): the median
 * offset, at the mean local time, with the smallest round trip. -1 for n = 0
 * or no memory.
 */
int clock_burst(const struct clock_point *pts, size_t n, struct clock_point *out);
/*
 * Least squares y = a + b (x - mean x) over n >= 2 points with distinct x:
 * *a, *b and the mean of x. -1 otherwise.
 */
int clock_fit_line(const double *x, const double *y, size_t n, double *a, double *b,
                   double *xmean);
/*
 * A new sync's estimate into m: it becomes the offset at its local time;
 * the drift is the slope of the history's line once the history spans at
 * least min_drift_span_s, else 0. *jump_s (may be NULL) is how far the old
 * model was from the new estimate at its time (NAN on the first sync): the
 * error the old model had accrued.
 */
void clock_model_update(struct clock_model *m, const struct clock_point *est,
                        double min_drift_span_s, double *jump_s);
/*
 * How far the model is from a check ping-pong's offset beyond what the check
 * itself cannot tell: |offset - model's offset| at its time, less half the
 * check's round trip (a ping-pong knows the offset only that closely), and 0
 * within it. Without the discount a check whose round trip a busy core
 * stretched to 4 ms reported 2 ms of error in a model that had none.
 */
double clock_residual(const struct clock_model *m, const struct clock_point *p);

#endif
