/*
 * The compressed variants' side of a measured point (issue 40, items 2 and
 * 3), collective over the point's communicator: the bytes their executor
 * counted, and their result against the float64 sum of every rank's input
 * within the bound of their format (codec_accuracy.h).
 */
#include <mpi.h>

#ifndef COLLSCOPE_CODEC_CHECK_H
#define COLLSCOPE_CODEC_CHECK_H

#include "algorithms/codec_accuracy.h"
#include "algorithms/executor.h"
#include "algorithms/pattern.h"

struct codec_figures {
	bool on;                  /* a compressed variant's point */
	double sent_bytes;        /* per call, the most any rank sent (counted) */
	double compression_ratio; /* float32 bytes those messages carried / bytes sent, all ranks */
	bool checked;             /* the accuracy below is known */
	double max_abs_error;     /* over every rank's elements */
	double rel_l2_error;      /* |R - X|_2 / |X|_2 over every rank's elements */
	double beyond_bound_share; /* elements outside the bound / elements checked */
	int feedback_calls;          /* error feedback's drift: the calls summed (0: not run) */
	double feedback_rel_l2_error; /* |sum of results - calls x exact|_2 / |calls x exact|_2 */
};

/* Every rank's tally of calls (its bytes per call) into f on every rank. */
int codec_figures_bytes(MPI_Comm comm, const struct exec_tally *t, struct codec_figures *f);

/*
 * result against the sum over ranks of x (this rank's input as the call saw
 * it); on every rank *wrong is the number of elements beyond the bound over
 * all ranks; on rank 0 *first_bad_rank (-1: none) and *first describe the
 * first. Returns an MPI error code.
 */
int codec_check(const struct ar_call *c, const struct ar_codec *codec, const float *x,
                struct codec_figures *f, uint64_t *wrong, int *first_bad_rank,
                struct ar_mismatch *first);

/*
 * Error feedback's drift (issue 40, item 3): acc[0..count) is the float64 sum
 * of calls results of this rank, each from the same input; against calls x
 * the float64 sum over ranks of input, over every rank's elements, into
 * f->feedback_rel_l2_error on every rank. Returns an MPI error code.
 */
int codec_drift(const struct ar_call *c, const float *input, const double *acc, int calls,
                struct codec_figures *f);

#endif
