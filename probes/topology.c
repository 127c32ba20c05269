/*
 * Placement of every rank from hwloc and MPI_Get_processor_name: see topo.h.
 *
 * Each rank loads its own host's topology (hwloc restricts it to the PUs the
 * process may use, so a cgroup-limited container counts only its cores),
 * reads its binding, and rank 0 gathers one fixed-size record per rank.
 * Hosts are grouped by processor name; a host is oversubscribed when more
 * ranks run on it than it has cores.
 */
#include <mpi.h>

#include "probes/topology.h"

#include <hwloc.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What one rank sends to rank 0: its own placement and its host's size. */
struct topo_rank_info {
	struct ctx_rank r;
	int cores, pus, numa_nodes, packages;
};

void topo_map_init(struct topo_map *map)
{
	memset(map, 0, sizeof *map);
}

void topo_map_release(struct topo_map *map)
{
	free(map->host_of_rank);
	free(map->numa_of_rank);
	free(map->package_of_rank);
	free(map->host_oversubscribed);
	memset(map, 0, sizeof *map);
}

enum topo_locality topo_locality_of(const struct topo_map *map, int a, int b)
{
	if (map->host_of_rank[a] != map->host_of_rank[b])
		return TOPO_CROSS_HOST;
	if (map->numa_of_rank[a] >= 0 && map->numa_of_rank[a] == map->numa_of_rank[b])
		return TOPO_SAME_NUMA;
	return TOPO_SAME_HOST;
}

const char *topo_locality_name(enum topo_locality l)
{
	switch (l) {
	case TOPO_SAME_NUMA: return "same_numa";
	case TOPO_SAME_HOST: return "same_host";
	case TOPO_CROSS_HOST: return "cross_host";
	}
	return "unknown";
}

static int count_type(hwloc_topology_t topo, hwloc_obj_type_t type)
{
	int n = hwloc_get_nbobjs_by_type(topo, type);
	return n >= 0 ? n : -1;
}

/* The OS index of the one object of type whose cpuset contains set, or -1. */
static int enclosing(hwloc_topology_t topo, hwloc_const_cpuset_t set, hwloc_obj_type_t type)
{
	int n = hwloc_get_nbobjs_by_type(topo, type);
	if (hwloc_bitmap_iszero(set))
		return -1;
	for (int i = 0; i < n; i++) {
		hwloc_obj_t o = hwloc_get_obj_by_type(topo, type, (unsigned)i);
		if (o && o->cpuset && !hwloc_bitmap_iszero(o->cpuset) &&
		    hwloc_bitmap_isincluded(set, o->cpuset))
			return (int)o->os_index;
	}
	return -1;
}

/* This rank's binding and its host's size; unknown fields stay at -1. */
static void read_placement(struct topo_rank_info *me)
{
	hwloc_topology_t topo;
	hwloc_bitmap_t set = NULL;
	snprintf(me->r.cpuset, sizeof me->r.cpuset, "unknown");
	me->r.numa_node = me->r.package = -1;
	me->cores = me->pus = me->numa_nodes = me->packages = -1;
	if (hwloc_topology_init(&topo) != 0)
		return;
	if (hwloc_topology_load(topo) != 0)
		goto out;
	me->cores = count_type(topo, HWLOC_OBJ_CORE);
	me->pus = count_type(topo, HWLOC_OBJ_PU);
	me->numa_nodes = count_type(topo, HWLOC_OBJ_NUMANODE);
	me->packages = count_type(topo, HWLOC_OBJ_PACKAGE);
	set = hwloc_bitmap_alloc();
	if (!set)
		goto out;
	if (hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) != 0 &&
	    hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_THREAD) != 0)
		goto out;
	hwloc_bitmap_and(set, set, hwloc_topology_get_topology_cpuset(topo));
	if (hwloc_bitmap_list_snprintf(me->r.cpuset, sizeof me->r.cpuset, set) < 0)
		snprintf(me->r.cpuset, sizeof me->r.cpuset, "unknown");
	me->r.numa_node = enclosing(topo, set, HWLOC_OBJ_NUMANODE);
	me->r.package = enclosing(topo, set, HWLOC_OBJ_PACKAGE);
	me->r.bound = me->pus > 0 && hwloc_bitmap_weight(set) < me->pus;
out:
	hwloc_bitmap_free(set);
	hwloc_topology_destroy(topo);
}

static void read_identity(MPI_Comm comm, struct topo_rank_info *me)
{
	char name[MPI_MAX_PROCESSOR_NAME + 1] = "";
	int len = 0;
	MPI_Comm_rank(comm, &me->r.rank);
	me->r.pid = (int)getpid();
	if (MPI_Get_processor_name(name, &len) != MPI_SUCCESS || len <= 0)
		gethostname(name, sizeof name - 1);
	/* the name as it is, cut to the report's field (memcpy: no format to warn about) */
	size_t n = strnlen(name, sizeof me->r.host - 1);
	memcpy(me->r.host, name, n);
	me->r.host[n] = '\0';
	/*
	 * Testing only: COLLSCOPE_TEST_HOSTS=K names rank r's host "<name>-v<r mod K>",
	 * so one machine plays K hosts to the plans and verdicts of links (the
	 * links underneath stay the machine's: only the names differ).
	 */
	const char *test_hosts = getenv("COLLSCOPE_TEST_HOSTS");
	int k = test_hosts ? atoi(test_hosts) : 0;
	if (k > 0)
		snprintf(me->r.host, sizeof me->r.host, "%.200s-v%d", name, me->r.rank % k);
}

/* The first line of the library's version string, without surrounding blanks. */
static void read_mpi_library(struct report_context *c)
{
	char buf[MPI_MAX_LIBRARY_VERSION_STRING + 1] = "";
	int len = 0;
	if (MPI_Get_library_version(buf, &len) != MPI_SUCCESS)
		len = 0;
	buf[len < (int)sizeof buf ? (len > 0 ? len : 0) : (int)sizeof buf - 1] = '\0';
	char *s = buf;
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	size_t n = strcspn(s, "\r\n");
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	s[n] = '\0';
	snprintf(c->mpi_library, sizeof c->mpi_library, "%s", s);
	c->timer_resolution_us = MPI_Wtick() * 1e6;
}

static int find_host(const struct report_context *c, const char *name)
{
	for (int h = 0; h < c->nhosts; h++)
		if (strcmp(c->hosts[h].name, name) == 0)
			return h;
	return -1;
}

/* Rank 0: the ranks and hosts of the context, and the host of every rank. */
static int build_hosts(struct report_context *c, const struct topo_rank_info *all, int n,
                       int *host_of_rank)
{
	if (!all || n < 1)
		return MPI_ERR_ARG;
	c->ranks = calloc((size_t)n, sizeof *c->ranks);
	c->hosts = calloc((size_t)n, sizeof *c->hosts);
	if (!c->ranks || !c->hosts)
		return MPI_ERR_NO_MEM;
	for (int r = 0; r < n; r++) {
		c->ranks[r] = all[r].r;
		int h = find_host(c, all[r].r.host);
		if (h < 0) {
			h = c->nhosts++;
			struct ctx_host *ho = &c->hosts[h];
			snprintf(ho->name, sizeof ho->name, "%s", all[r].r.host);
			ho->cores = all[r].cores;
			ho->pus = all[r].pus;
			ho->numa_nodes = all[r].numa_nodes;
			ho->packages = all[r].packages;
		}
		host_of_rank[r] = h;
		c->hosts[h].nranks++;
	}
	for (int h = 0; h < c->nhosts; h++) {
		struct ctx_host *ho = &c->hosts[h];
		ho->ranks = calloc((size_t)ho->nranks + 1, sizeof *ho->ranks); /* never 0 bytes */
		if (!ho->ranks)
			return MPI_ERR_NO_MEM;
		ho->oversubscribed = ho->cores > 0 && ho->nranks > ho->cores;
		c->oversubscribed |= ho->oversubscribed;
		ho->nranks = 0;
	}
	for (int r = 0; r < n; r++) {
		struct ctx_host *ho = &c->hosts[host_of_rank[r]];
		ho->ranks[ho->nranks++] = r;
	}
	return MPI_SUCCESS;
}

static int alloc_map(struct topo_map *map, int n)
{
	map->nranks = n;
	map->host_of_rank = calloc((size_t)n, sizeof *map->host_of_rank);
	map->numa_of_rank = calloc((size_t)n, sizeof *map->numa_of_rank);
	map->package_of_rank = calloc((size_t)n, sizeof *map->package_of_rank);
	map->host_oversubscribed = calloc((size_t)n, sizeof *map->host_oversubscribed);
	if (!map->host_of_rank || !map->numa_of_rank || !map->package_of_rank ||
	    !map->host_oversubscribed)
		return MPI_ERR_NO_MEM;
	return MPI_SUCCESS;
}

/* Rank 0 fills the map from the gathered records; then everyone gets it. */
static int share_map(MPI_Comm comm, int rank, const struct report_context *c,
                     const struct topo_rank_info *all, struct topo_map *map)
{
	int n = map->nranks;
	int head[2] = {c->nhosts, c->oversubscribed};
	if (rank == 0) {
		for (int r = 0; r < n; r++) {
			map->numa_of_rank[r] = all[r].r.numa_node;
			map->package_of_rank[r] = all[r].r.package;
		}
		for (int h = 0; h < c->nhosts; h++)
			map->host_oversubscribed[h] = c->hosts[h].oversubscribed;
	}
	int rc = MPI_Bcast(head, 2, MPI_INT, 0, comm);
	if (rc == MPI_SUCCESS)
		rc = MPI_Bcast(map->host_of_rank, n, MPI_INT, 0, comm);
	if (rc == MPI_SUCCESS)
		rc = MPI_Bcast(map->numa_of_rank, n, MPI_INT, 0, comm);
	if (rc == MPI_SUCCESS)
		rc = MPI_Bcast(map->package_of_rank, n, MPI_INT, 0, comm);
	if (rc == MPI_SUCCESS)
		rc = MPI_Bcast(map->host_oversubscribed, n * (int)sizeof(bool), MPI_BYTE, 0, comm);
	map->nhosts = head[0];
	map->oversubscribed = head[1] != 0;
	return rc;
}

/* Every rank returns the worst code of any rank, so that none is left waiting. */
static int agree(MPI_Comm comm, int rc)
{
	int bad = rc != MPI_SUCCESS, any = bad;
	if (MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS)
		return rc != MPI_SUCCESS ? rc : MPI_ERR_OTHER;
	return any ? (rc != MPI_SUCCESS ? rc : MPI_ERR_OTHER) : MPI_SUCCESS;
}

int topo_fill_context(MPI_Comm comm, struct report_context *c, struct topo_map *map)
{
	struct topo_rank_info me = {0}, *all = NULL;
	struct topo_map local;
	int rank = 0, n = 1;
	topo_map_init(&local);
	int rc = MPI_Comm_rank(comm, &rank);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_size(comm, &n);
	if (rc != MPI_SUCCESS)
		return rc;
	read_identity(comm, &me);
	read_placement(&me);
	read_mpi_library(c);
	c->nranks = n;
	if (rank == 0 && !(all = calloc((size_t)n, sizeof *all)))
		rc = MPI_ERR_NO_MEM;
	rc = agree(comm, rc == MPI_SUCCESS ? alloc_map(&local, n) : rc);
	if (rc != MPI_SUCCESS)
		goto out;
	rc = MPI_Gather(&me, (int)sizeof me, MPI_BYTE, all, (int)sizeof me, MPI_BYTE, 0, comm);
	if (rc == MPI_SUCCESS && rank == 0)
		rc = build_hosts(c, all, n, local.host_of_rank);
	rc = agree(comm, rc);
	if (rc == MPI_SUCCESS)
		rc = agree(comm, share_map(comm, rank, c, all, &local));
out:
	if (rc == MPI_SUCCESS)
		c->oversubscribed = local.oversubscribed;
	if (rc == MPI_SUCCESS && map) {
		*map = local;
		topo_map_init(&local);
	}
	if (rc != MPI_SUCCESS && rank == 0) {
		for (int h = 0; c->hosts && h < c->nhosts; h++)
			free(c->hosts[h].ranks);
		free(c->hosts);
		free(c->ranks);
		c->hosts = NULL;
		c->ranks = NULL;
		c->nhosts = 0;
	}
	topo_map_release(&local);
	free(all);
	return rc;
}
