/*
 * Internal to reports/diagnose/hops*.c: the messages paired from the traced
 * steps (hops.c builds them), and the judgement by iteration wins
 * (hops_wins.c). Pure: no MPI, no I/O.
 */
#ifndef COLLSCOPE_HOPS_WORK_H
#define COLLSCOPE_HOPS_WORK_H

#include <stddef.h>
#include <stdint.h>

#include "reports/diagnose/hops.h"

/* One end of a message: a sends to b; idx is the step in the caller's array. */
struct end {
	int64_t iteration;
	int a, b, step;
	size_t idx;
};

struct msg {
	int a, b;
	int64_t iteration;
	uint64_t bytes;
	double t_us, wait_us, norm;
};

struct work {
	struct end *sends, *recvs;
	struct msg *msgs;
	size_t nsends, nrecvs, nmsgs;
	double *vals;
};

static inline int cmp_i64(int64_t x, int64_t y)
{
	return (x > y) - (x < y);
}

/*
 * Hops the spread of their medians did not name, named by how often each was
 * the slowest of its class in an iteration (hops_wins.c). -1: no memory.
 */
int hops_judge_iterations(struct work *w, struct hops_result *r, const struct hops_params *p);

/* Shared by hops.c and hops_reduce.c (see hops.c for each). */
int hops_loo_scores(const double *x, size_t n, const struct hops_params *p, double *med,
                    double *z, double *top);
int hops_loo_medians(const double *x, size_t n, double *med);
double hops_log_of(double v);
int hops_add_rank(struct hops_result *r, const struct hops_rank *k, int nranks);
int hops_cmp_rank(const void *pa, const void *pb);

/* hops_reduce.c: ranks judged on their reductions; suspects re-tested and named. */
int hops_name_ranks_by_reduce(const struct hops_step *steps, size_t n, int nranks,
                              const struct hops_params *p, struct hops_result *r, double *vals);
void hops_retest_ranks(struct hops_result *first, const struct hops_result *again,
                       const struct hops_params *p);
int hops_name_confirmed_ranks(struct hops_result *r, int min_retests);

#endif
