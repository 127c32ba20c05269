/* See codec_check.h. */
#include <mpi.h>

#include "algorithms/codec_check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int codec_figures_bytes(MPI_Comm comm, const struct exec_tally *t, struct codec_figures *f)
{
	double per_call = t->calls ? (double)t->wire_bytes / (double)t->calls : 0, most = 0;
	double mine[2] = {(double)t->wire_bytes, (double)t->logical_bytes}, all[2] = {0, 0};
	int rc = MPI_Allreduce(&per_call, &most, 1, MPI_DOUBLE, MPI_MAX, comm);
	if (rc == MPI_SUCCESS)
		rc = MPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_SUM, comm);
	f->on = true;
	f->sent_bytes = most;
	f->compression_ratio = all[0] > 0 ? all[1] / all[0] : NAN; /* one rank sends nothing */
	return rc;
}

/* The slices: every rank's float64 input and share of the bound summed, then checked here. */
static int check_slices(const struct ar_call *c, const struct ar_codec *codec, const float *x,
                        struct codec_accuracy *acc)
{
	const size_t L = CODEC_CHECK_SLICE;
	double *mine = malloc(2 * L * sizeof *mine), *sum = malloc(2 * L * sizeof *sum);
	int rc = mine && sum ? MPI_SUCCESS : MPI_ERR_NO_MEM;
	/* every rank must take part in every slice: agree on the allocation first */
	int bad = rc != MPI_SUCCESS, any = bad;
	if (MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, c->comm) != MPI_SUCCESS || any)
		rc = rc != MPI_SUCCESS ? rc : MPI_ERR_NO_MEM;
	for (size_t at = 0; rc == MPI_SUCCESS && at < c->count; at += L) {
		size_t n = c->count - at < L ? c->count - at : L;
		for (size_t i = 0; i < n; i++)
			mine[i] = x[at + i];
		codec_bound_share(codec, c->codec_cfg, c->nranks, x, c->count, at, n, mine + n);
		rc = MPI_Allreduce(mine, sum, (int)(2 * n), MPI_DOUBLE, MPI_SUM, c->comm);
		if (rc == MPI_SUCCESS)
			codec_check_slice(codec, c->codec_cfg, c->result, c->count, at, n, sum,
			                  sum + n, acc);
	}
	free(mine);
	free(sum);
	return rc;
}

static void to_mismatch(const struct codec_accuracy *a, struct ar_mismatch *m)
{
	float expected = (float)a->first_expected;
	uint32_t got_bits, want_bits;
	memcpy(&got_bits, &a->first_got, sizeof got_bits);
	memcpy(&want_bits, &expected, sizeof want_bits);
	*m = (struct ar_mismatch){.index = a->first_index,
	                          .got_bits = got_bits,
	                          .expected_bits = want_bits,
	                          .got = a->first_got,
	                          .expected = a->first_expected};
}

int codec_check(const struct ar_call *c, const struct ar_codec *codec, const float *x,
                struct codec_figures *f, uint64_t *wrong, int *first_bad_rank,
                struct ar_mismatch *first)
{
	struct codec_accuracy acc = {0}, *all = NULL;
	int rc = check_slices(c, codec, x, &acc);
	if (rc != MPI_SUCCESS)
		return rc;
	int bad = c->rank == 0 && !(all = calloc((size_t)c->nranks, sizeof *all)), any = bad;
	/* every rank learns that rank 0 cannot gather before any waits in the gather */
	if (MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, c->comm) != MPI_SUCCESS || any) {
		free(all);
		return MPI_ERR_NO_MEM;
	}
	rc = MPI_Gather(&acc, sizeof acc, MPI_BYTE, all, sizeof acc, MPI_BYTE, 0, c->comm);
	double beyond = 0, checked = 0, sse = 0, ssx = 0, most = 0;
	*first_bad_rank = -1;
	for (int r = 0; rc == MPI_SUCCESS && c->rank == 0 && r < c->nranks; r++) {
		beyond += (double)all[r].beyond;
		checked += (double)all[r].checked;
		sse += all[r].sum_sq_error;
		ssx += all[r].sum_sq_exact;
		most = fmax(most, all[r].max_abs_error);
		if (all[r].have_first && *first_bad_rank < 0) {
			*first_bad_rank = r;
			to_mismatch(&all[r], first);
		}
	}
	free(all);
	struct codec_accuracy total = {
	    .max_abs_error = most, .sum_sq_error = sse, .sum_sq_exact = ssx};
	f->checked = true;
	f->max_abs_error = most;
	f->rel_l2_error = codec_rel_l2(&total);
	f->beyond_bound_share = checked > 0 ? beyond / checked : NAN;
	*wrong = (uint64_t)beyond;
	if (rc == MPI_SUCCESS)
		rc = MPI_Bcast(wrong, 1, MPI_UINT64_T, 0, c->comm);
	return rc;
}

int codec_drift(const struct ar_call *c, const float *input, const double *acc, int calls,
                struct codec_figures *f)
{
	const size_t L = CODEC_CHECK_SLICE;
	double *mine = malloc(L * sizeof *mine), *sum = malloc(L * sizeof *sum), sq[2] = {0, 0};
	int bad = !mine || !sum, any = bad;
	int rc = MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, c->comm);
	if (rc == MPI_SUCCESS && any)
		rc = MPI_ERR_NO_MEM;
	for (size_t at = 0; rc == MPI_SUCCESS && at < c->count; at += L) {
		size_t n = c->count - at < L ? c->count - at : L;
		for (size_t i = 0; i < n; i++)
			mine[i] = input[at + i];
		rc = MPI_Allreduce(mine, sum, (int)n, MPI_DOUBLE, MPI_SUM, c->comm);
		for (size_t i = 0; rc == MPI_SUCCESS && i < n; i++) {
			double want = (double)calls * sum[i], e = acc[at + i] - want;
			sq[0] += e * e;
			sq[1] += want * want;
		}
	}
	free(mine);
	free(sum);
	double all[2] = {0, 0};
	if (rc == MPI_SUCCESS)
		rc = MPI_Allreduce(sq, all, 2, MPI_DOUBLE, MPI_SUM, c->comm);
	f->feedback_calls = calls;
	f->feedback_rel_l2_error = all[1] > 0 ? sqrt(all[0] / all[1]) : all[0] > 0 ? INFINITY : 0;
	return rc;
}
