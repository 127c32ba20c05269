/*
 * How `congestion` splits a job into groups that run at once (issue 31).
 * Pure: no MPI, no I/O.
 *
 * The unit of a split is the host when the job has at least as many hosts
 * as groups (a group then owns whole hosts, as jobs sharing a cluster do),
 * else the rank (one host: groups of ranks, sharing its memory and cores).
 * A rank follows its unit. Splits of nunits units into k groups:
 *   packed:  consecutive blocks, sizes differing by at most one
 *            (unit u -> u * k / nunits): on a cluster dealt rack by rack,
 *            groups that stay inside a rack;
 *   strided: unit u -> u mod k: every group spread over every rack;
 *   random:  the units shuffled from a seed (the same seed, the same
 *            split), then packed;
 *   given:   a list of group indices, one per unit, in the units' order
 *            (the hosts as the report's context lists them, or the ranks).
 */
#ifndef COLLSCOPE_GROUPS_H
#define COLLSCOPE_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum groups_split { GROUPS_PACKED, GROUPS_STRIDED, GROUPS_RANDOM, GROUPS_GIVEN };

/* "packed", "strided", "random", "given"; NULL-terminated, in the enum's order. */
extern const char *const groups_split_names[];

enum { GROUPS_MAX = 4096 };

/*
 * unit_group[u] for the nunits units (1 <= k <= nunits): how = packed,
 * strided or random (seed). Returns 0, or -1 for bad arguments or no memory.
 */
int groups_split_units(enum groups_split how, int k, int nunits, uint64_t seed, int *unit_group);

/*
 * A given split, "0,0,1,1": one group index per unit, 0 .. GROUPS_MAX - 1,
 * every index from 0 to the largest used. On success *k is the group count
 * and 0 is returned; else -1 with the reason in why, naming the bad item
 * ("item 3 'x' is not a group index", "3 indices for 4 hosts",
 * "group 1 has no host").
 */
int groups_parse_given(const char *list, int nunits, const char *unit_name, int *unit_group, int *k,
                       char *why, size_t len);

/*
 * Group of each rank: by host (host_of_rank) when by_host, else by rank
 * (the rank is the unit). Returns the smallest group's rank count, so the
 * caller can refuse a group of fewer than 2 ranks.
 */
int groups_of_ranks(const int *unit_group, bool by_host, const int *host_of_rank, int nranks, int k,
                    int *group_of_rank);

#endif
