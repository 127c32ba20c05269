/*
 * Who watches whom (cmd/run/watchdog.c): the ranks of a host share memory
 * (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)); the lowest rank of each host is
 * its leader and reads its ranks' heartbeats from that memory; the leaders
 * send rank 0, the leader of its own host, one frame a second over TCP
 * (cmd/run/watchdog_wire.h). Rank 0 then holds one connection per other
 * host and none per rank. Pure: no MPI, no sockets.
 */
#ifndef COLLSCOPE_CMD_WATCHDOG_PLAN_H
#define COLLSCOPE_CMD_WATCHDOG_PLAN_H

#include <stdbool.h>
#include <stddef.h>

/* The hosts of a job, from every rank's leader. Owned by the struct (wd_hosts_release). */
struct wd_hosts {
	int nranks, nhosts;
	int *leader_of; /* per rank: the rank of its host's leader */
	int *host_of;   /* per rank: its host's index */
	int *leaders;   /* per host: its leader, in increasing order (rank 0's host first) */
	int *count;     /* per host: its ranks */
};

/*
 * The plan from leader_of[0..nranks): each host's leader is its lowest rank
 * and its own leader, and rank 0 leads its host. 0, or -1 when leader_of
 * breaks that (or memory runs out); *h is then empty.
 */
int wd_hosts_plan(const int *leader_of, int nranks, struct wd_hosts *h);
void wd_hosts_release(struct wd_hosts *h);

/*
 * Testing only: COLLSCOPE_WATCHDOG_HOST_RANKS=K cuts each host into hosts
 * of K ranks (consecutive in the host), so one machine shows the leaders'
 * TCP path. s NULL or empty: *k = 0 (off). 0, or -1 for anything but a
 * whole number from 1 to 1000000.
 */
int wd_host_ranks_parse(const char *s, int *k);

/*
 * "host(s) led by rank 3, rank 7 (9 ranks)": the hosts whose arrived[h] is
 * false (rank 0's host, index 0, is always there), at most 16 named.
 * Returns how many hosts are missing; buf gets "" when none is.
 */
int wd_hosts_missing(char *buf, size_t len, const struct wd_hosts *h, const bool *arrived);

#endif
