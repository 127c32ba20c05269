/* See shm_arena.h. */
#include <mpi.h>

#include "algorithms/shm_arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct shm_arena {
	MPI_Comm comm; /* a duplicate of the creator's */
	MPI_Win win;
	size_t bytes;
	int rank;
	char **segment; /* per rank of comm: its segment mapped here, NULL on another host */
	struct shm_arena *next;
};

/*
 * Where a segment starts: the first page boundary in what the library gave.
 * Open MPI 4.1's shared windows put a segment 8 B past a cache line, so a
 * slot line of shm_small.h straddled two lines: its data and its flag were
 * two cache misses, and an 8 B all-reduce took 0.70 us where 0.60 does (2
 * ranks, window p50, 4 runs each in turns). Every process maps the window on
 * page boundaries, so a segment's offset within its page, and this rounding,
 * are the same in every process that maps it.
 */
enum { ARENA_ALIGN = 4096 };

static char *page_start(void *base)
{
	return (char *)(((uintptr_t)base + ARENA_ALIGN - 1) & ~(uintptr_t)(ARENA_ALIGN - 1));
}

/* The live arenas, for shm_arena_find: few (one per command), so a list. */
static struct shm_arena *arenas;

static void unlink_arena(const struct shm_arena *a)
{
	for (struct shm_arena **p = &arenas; *p; p = &(*p)->next)
		if (*p == a) {
			*p = a->next;
			return;
		}
}

/* Every rank of comm's segment, looked up through the host communicator. */
static int map_segments(struct shm_arena *a, MPI_Comm node)
{
	int nranks, local;
	MPI_Group world_group = MPI_GROUP_NULL, node_group = MPI_GROUP_NULL;
	int *node_ranks = NULL, *world_ranks = NULL;
	int rc = MPI_Comm_size(a->comm, &nranks);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_size(node, &local);
	if (rc != MPI_SUCCESS)
		return rc;
	node_ranks = malloc((size_t)local * sizeof *node_ranks);
	world_ranks = malloc((size_t)local * sizeof *world_ranks);
	a->segment = calloc((size_t)nranks, sizeof *a->segment);
	if (!node_ranks || !world_ranks || !a->segment) {
		rc = MPI_ERR_NO_MEM;
		goto out;
	}
	for (int i = 0; i < local; i++)
		node_ranks[i] = i;
	rc = MPI_Comm_group(a->comm, &world_group);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_group(node, &node_group);
	if (rc == MPI_SUCCESS)
		rc = MPI_Group_translate_ranks(node_group, local, node_ranks, world_group, world_ranks);
	for (int i = 0; i < local && rc == MPI_SUCCESS; i++) {
		MPI_Aint size;
		int disp;
		void *base;
		rc = MPI_Win_shared_query(a->win, i, &size, &disp, &base);
		if (rc == MPI_SUCCESS)
			a->segment[world_ranks[i]] = page_start(base);
	}
out:
	if (world_group != MPI_GROUP_NULL)
		MPI_Group_free(&world_group);
	if (node_group != MPI_GROUP_NULL)
		MPI_Group_free(&node_group);
	free(node_ranks);
	free(world_ranks);
	return rc;
}

int shm_arena_new(MPI_Comm comm, size_t bytes, struct shm_arena **out)
{
	MPI_Comm node = MPI_COMM_NULL;
	MPI_Info info = MPI_INFO_NULL;
	void *base = NULL;
	struct shm_arena *a = calloc(1, sizeof *a);
	int rc = a ? MPI_SUCCESS : MPI_ERR_NO_MEM;
	*out = NULL;
	if (bytes == 0)
		bytes = 1;
	if (rc == MPI_SUCCESS) {
		a->comm = MPI_COMM_NULL;
		a->win = MPI_WIN_NULL;
		a->bytes = bytes;
		rc = MPI_Comm_dup(comm, &a->comm);
	}
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_rank(a->comm, &a->rank);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_split_type(a->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
	/* each rank's segment on pages of its own: its owner touches them first */
	if (rc == MPI_SUCCESS)
		rc = MPI_Info_create(&info);
	if (rc == MPI_SUCCESS)
		rc = MPI_Info_set(info, "alloc_shared_noncontig", "true");
	if (rc == MPI_SUCCESS)
		rc = MPI_Win_allocate_shared((MPI_Aint)(bytes + ARENA_ALIGN - 1), 1, info, node, &base,
		                             &a->win);
	if (rc == MPI_SUCCESS)
		rc = map_segments(a, node);
	if (rc == MPI_SUCCESS) {
		memset(shm_arena_base(a), 0, bytes);
		a->next = arenas;
		arenas = a;
		*out = a;
	}
	if (info != MPI_INFO_NULL)
		MPI_Info_free(&info);
	if (node != MPI_COMM_NULL)
		MPI_Comm_free(&node);
	if (rc != MPI_SUCCESS && a) {
		if (a->win != MPI_WIN_NULL)
			MPI_Win_free(&a->win);
		if (a->comm != MPI_COMM_NULL)
			MPI_Comm_free(&a->comm);
		free(a->segment);
		free(a);
	}
	return rc;
}

void shm_arena_free(struct shm_arena **pa)
{
	struct shm_arena *a = *pa;
	if (!a)
		return;
	unlink_arena(a);
	MPI_Win_free(&a->win);
	MPI_Comm_free(&a->comm);
	free(a->segment);
	free(a);
	*pa = NULL;
}

void *shm_arena_base(const struct shm_arena *a) { return a->segment[a->rank]; }

const struct shm_arena *shm_arena_find(const void *p, size_t bytes)
{
	/* integers: comparing pointers into different objects is undefined */
	uintptr_t at = (uintptr_t)p;
	for (const struct shm_arena *a = arenas; a; a = a->next) {
		uintptr_t base = (uintptr_t)a->segment[a->rank];
		if (at >= base && at - base <= a->bytes && bytes <= a->bytes - (at - base))
			return a;
	}
	return NULL;
}

MPI_Comm shm_arena_comm(const struct shm_arena *a) { return a->comm; }

char *shm_arena_peer(const struct shm_arena *a, int r) { return a->segment[r]; }
