/* See shm_host.h. */
#include <mpi.h>

#include "algorithms/shm_host.h"

#include "algorithms/stream_copy.h"
#include "algorithms/stream_sum.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void state_free(struct shm_state *st)
{
	if (!st)
		return;
	if (st->node != MPI_COMM_NULL)
		MPI_Comm_free(&st->node);
	if (st->across != MPI_COMM_NULL)
		MPI_Comm_free(&st->across);
	free(st->arena_rank);
	free(st->peer);
	free(st->block);
	shm_arena_free(&st->control);
	free(st->slot);
	free(st->small_region);
	shm_pipe_scratch_release(&st->pipe);
	free(st);
}

static int delete_state(MPI_Comm comm, int keyval, void *value, void *extra)
{
	(void)comm, (void)keyval, (void)extra;
	state_free(value);
	return MPI_SUCCESS;
}

/* The ranks that meet across hosts: a rail per local rank, or the first ranks. */
static int split_across(MPI_Comm comm, struct shm_state *st)
{
	int counts[2] = {st->nlocal, -st->nlocal}, range[2], hosts = st->local == 0, nhosts;
	int rc = MPI_Allreduce(counts, range, 2, MPI_INT, MPI_MAX, comm);
	if (rc == MPI_SUCCESS)
		rc = MPI_Allreduce(&hosts, &nhosts, 1, MPI_INT, MPI_SUM, comm);
	if (rc != MPI_SUCCESS)
		return rc;
	st->uniform = range[0] == -range[1];
	st->hosts = nhosts;
	if (nhosts == 1)
		return MPI_Comm_split(comm, MPI_UNDEFINED, 0, &st->across);
	int color = st->uniform ? st->local : st->local == 0 ? 0 : MPI_UNDEFINED;
	return MPI_Comm_split(comm, color, 0, &st->across);
}

/* Node rank -> rank of the arena's communicator, through the groups. */
static int translate(const struct shm_state *st, MPI_Comm arena_comm)
{
	MPI_Group from = MPI_GROUP_NULL, to = MPI_GROUP_NULL;
	int *mine = malloc((size_t)st->nlocal * sizeof *mine);
	int rc = mine ? MPI_Comm_group(st->node, &from) : MPI_ERR_NO_MEM;
	for (int i = 0; mine && i < st->nlocal; i++)
		mine[i] = i;
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_group(arena_comm, &to);
	if (rc == MPI_SUCCESS)
		rc = MPI_Group_translate_ranks(from, st->nlocal, mine, to, st->arena_rank);
	for (int i = 0; rc == MPI_SUCCESS && i < st->nlocal; i++)
		if (st->arena_rank[i] == MPI_UNDEFINED)
			rc = MPI_ERR_RANK;
	if (from != MPI_GROUP_NULL)
		MPI_Group_free(&from);
	if (to != MPI_GROUP_NULL)
		MPI_Group_free(&to);
	free(mine);
	return rc;
}

/*
 * The host's barrier slots and small-message slots (collective over
 * st->node): per rank a line for the barrier, then its two slots.
 */
static int control_new(struct shm_state *st)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	const size_t capacity = SHM_SMALL_MAX_BYTES;
	int rc = shm_arena_new(st->node, sizeof(struct shm_slot) + shm_small_rank_bytes(capacity),
	                       &st->control);
	st->slot = calloc((size_t)st->nlocal, sizeof *st->slot);
	st->small_region = calloc((size_t)st->nlocal, sizeof *st->small_region);
	if (rc == MPI_SUCCESS && (!st->slot || !st->small_region))
		rc = MPI_ERR_NO_MEM;
	/* the arena's communicator duplicates st->node: the same ranks */
	for (int i = 0; rc == MPI_SUCCESS && i < st->nlocal; i++) {
		st->slot[i] = (struct shm_slot *)shm_arena_peer(st->control, i);
		st->small_region[i] = st->slot[i] + 1;
		/* shm_small.h's contract: a flag shares its line with its data (shm_arena.c) */
		if ((uintptr_t)st->small_region[i] % SHM_LINE_BYTES)
			rc = MPI_ERR_INTERN;
	}
	st->crowded = cores > 0 && st->nlocal > cores;
	st->small = (struct shm_small){.region = st->small_region,
	                               .count = st->nlocal,
	                               .me = st->local,
	                               .capacity_bytes = capacity,
	                               .crowded = st->crowded};
	return rc;
}

static int state_new(MPI_Comm comm, struct shm_state **out)
{
	struct shm_state *st = calloc(1, sizeof *st);
	int rc = st ? MPI_SUCCESS : MPI_ERR_NO_MEM;
	*out = NULL;
	if (st) {
		st->node = MPI_COMM_NULL;
		st->across = MPI_COMM_NULL;
		rc = MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &st->node);
	}
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_rank(st->node, &st->local);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_size(st->node, &st->nlocal);
	if (rc == MPI_SUCCESS)
		rc = split_across(comm, st);
	if (rc == MPI_SUCCESS) {
		st->arena_rank = calloc((size_t)st->nlocal, sizeof *st->arena_rank);
		st->peer = calloc((size_t)st->nlocal, sizeof *st->peer);
		st->block = malloc(SHM_BLOCK_BYTES);
		if (!st->arena_rank || !st->peer || !st->block)
			rc = MPI_ERR_NO_MEM;
	}
	if (rc == MPI_SUCCESS)
		rc = control_new(st);
	if (rc != MPI_SUCCESS)
		state_free(st);
	else
		*out = st;
	return rc;
}

int shm_state_of(MPI_Comm comm, struct shm_state **out)
{
	static int keyval = MPI_KEYVAL_INVALID;
	int found = 0, rc = MPI_SUCCESS;
	if (keyval == MPI_KEYVAL_INVALID)
		rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_state, &keyval, NULL);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_get_attr(comm, keyval, out, &found);
	if (rc != MPI_SUCCESS || found)
		return rc;
	rc = state_new(comm, out);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_set_attr(comm, keyval, *out);
	return rc;
}

/* Point peer[] at the segments of arena (once per arena). */
static int look_up_peers(struct shm_state *st, const struct shm_arena *arena)
{
	if (st->arena == arena)
		return MPI_SUCCESS;
	int rc = translate(st, shm_arena_comm(arena));
	for (int i = 0; rc == MPI_SUCCESS && i < st->nlocal; i++)
		if (!(st->peer[i] = shm_arena_peer(arena, st->arena_rank[i])))
			rc = MPI_ERR_RANK;
	st->arena = rc == MPI_SUCCESS ? arena : NULL;
	return rc;
}

void shm_host_barrier(struct shm_state *st)
{
	shm_sync_barrier(st->slot, st->nlocal, st->local, ++st->barriers, st->crowded);
}

int shm_gather_offsets(struct shm_state *st, const struct ar_call *c, size_t bytes)
{
	const struct shm_arena *a = shm_arena_find(c->input, bytes);
	struct shm_slot *mine = st->slot[st->local];
	mine->ok = a && shm_arena_find(c->result, bytes) == a;
	if (mine->ok) {
		const char *base = shm_arena_base(a);
		mine->input = (uint64_t)((const char *)c->input - base);
		mine->result = (uint64_t)((const char *)c->result - base);
	}
	/* peers publish theirs before the barrier, and keep them until the next one */
	shm_host_barrier(st);
	int rc = MPI_SUCCESS;
	for (int i = 0; rc == MPI_SUCCESS && i < st->nlocal; i++)
		if (!st->slot[i]->ok)
			rc = MPI_ERR_BUFFER;
	if (rc == MPI_SUCCESS)
		rc = look_up_peers(st, a);
	return rc;
}

/*
 * float32 sums whose results stream: one pass, every input read and every result written at
 * once (stream_sum.h), instead of a block reduced in cache and then streamed out. Side by side
 * at 2 ranks, the two builds in turns, three runs each (busbw, GB/s, blocks -> one pass):
 * 16 MiB 18.0-18.4 -> 29.8-34.0, 64 MiB 10.9-12.0 -> 18.7-23.0, 256 MiB 9.5-11.1 -> 15.1-17.6,
 * with the all-core memcpy rate C at 33.0 GB/s in the same minutes (the memory limit
 * 2(n-1)/n^2 x C = 16.5 GB/s).
 */
static bool sum_range_fused(const struct shm_state *st, const struct ar_call *c, size_t first,
                            size_t n, int lead, int to)
{
	if (c->dtype != AR_FLOAT32 || c->op != AR_SUM || !st->stream ||
	    st->nlocal > AR_STREAM_SUM_MAX)
		return false;
	const float *src[AR_STREAM_SUM_MAX];
	float *dst[AR_STREAM_SUM_MAX];
	int nsrc = 0, ndst = 0;
	src[nsrc++] = (const float *)shm_input_of(st, lead) + first;
	for (int j = 0; j < st->nlocal; j++) {
		if (j != lead)
			src[nsrc++] = (const float *)shm_input_of(st, j) + first;
		if (to < 0 || j == to)
			dst[ndst++] = (float *)shm_result_of(st, j) + first;
	}
	return ar_stream_sum_f32(dst, ndst, src, nsrc, n);
}

void shm_sum_range(const struct shm_state *st, const struct ar_call *c, size_t first, size_t n,
                   int lead, int to)
{
	if (sum_range_fused(st, c, first, n, lead, to))
		return;
	const size_t w = ar_dtype_bytes(c->dtype), per_block = SHM_BLOCK_BYTES / w;
	for (size_t done = 0; done < n; done += per_block) {
		size_t k = n - done < per_block ? n - done : per_block, at = (first + done) * w;
		const char *lhs = shm_input_of(st, lead) + at;
		for (int j = 0; j < st->nlocal; j++) {
			if (j == lead)
				continue;
			ar_reduce(st->block, lhs, shm_input_of(st, j) + at, k, c->dtype, c->op);
			lhs = st->block;
		}
		for (int j = 0; j < st->nlocal; j++)
			if (to < 0 || j == to)
				ar_store_copy(shm_result_of(st, j) + at, lhs, k * w, st->stream);
	}
}
