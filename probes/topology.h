/*
 * Where every rank runs: host name, pid, the cpuset it is bound to, its NUMA
 * node and package (from hwloc), and each host's cores, PUs, NUMA nodes and
 * packages. The only module that uses hwloc.
 *
 * topo_fill_context is collective over comm: every rank reads its own
 * placement, rank 0 gathers them into the report context, and every rank
 * gets the small per-rank arrays it needs to tell the locality of a pair.
 */
#include <mpi.h>

#ifndef COLLSCOPE_TOPO_H
#define COLLSCOPE_TOPO_H

#include "reports/io/context.h"

#include <stdbool.h>

/* Locality of a pair of ranks, from the closest to the farthest. */
enum topo_locality {
	TOPO_SAME_NUMA = 0,  /* same host, both bound within the same NUMA node */
	TOPO_SAME_HOST = 1,  /* same host, NUMA node different or unknown */
	TOPO_CROSS_HOST = 2, /* different hosts */
};

/*
 * What every rank knows about every rank after topo_fill_context. The same
 * on every rank of comm. Arrays are owned (nranks entries each) and freed by
 * topo_map_release.
 */
struct topo_map {
	int nranks;
	int nhosts;
	int *host_of_rank;         /* index into report_context.hosts, 0..nhosts-1 */
	int *numa_of_rank;         /* OS index of the NUMA node, -1 when unknown or spanning */
	int *package_of_rank;      /* OS index of the package, -1 when unknown or spanning */
	bool *host_oversubscribed; /* nhosts entries: more ranks than cores on the host */
	bool oversubscribed;       /* any host */
};

void topo_map_init(struct topo_map *map);
void topo_map_release(struct topo_map *map);

/* The locality of ranks a and b (a may equal b: same NUMA node when known). */
enum topo_locality topo_locality_of(const struct topo_map *map, int a, int b);
/* "same_numa", "same_host", "cross_host". */
const char *topo_locality_name(enum topo_locality l);

/*
 * Collective over comm. Fills, on rank 0: c->ranks (nranks entries, in rank
 * order), c->hosts (grouped by host name in order of their lowest rank, each
 * with its rank list), c->oversubscribed. On every rank: c->nranks,
 * c->mpi_library (first line of MPI_Get_library_version, trimmed),
 * c->timer_resolution_us (MPI_Wtick) and the whole of *map.
 * c must have been set up with report_context_init; the tool name, argv,
 * times and environment are the caller's to fill. map may be NULL.
 * When hwloc cannot load the topology, the placement fields are unknown
 * (cpuset "unknown", -1 counts) and the call still succeeds.
 * Returns MPI_SUCCESS, an MPI error code, or MPI_ERR_NO_MEM (then the
 * outputs are released). Every rank returns the same code.
 */
int topo_fill_context(MPI_Comm comm, struct report_context *c, struct topo_map *map);

#endif
