/*
 * How much memory this process costs the machine: its proportional set size
 * (PSS, /proc/self/smaps_rollup), its private pages plus, for every shared
 * page it maps, that page divided by the number of processes that map it.
 * The kernel's resident high-water mark (getrusage) counts a shared page in
 * full in every process that touches it: with the shm variant, each rank of a
 * host maps slices of all its peers' buffers, so the ranks' resident sizes
 * add up to more than the host holds, while their PSS add up to what it holds.
 */
#ifndef COLLSCOPE_MEMORY_H
#define COLLSCOPE_MEMORY_H

#include <stdbool.h>
#include <stdint.h>

/* The "Pss:" line of an smaps_rollup text, in bytes; false when there is none. */
bool probe_memory_parse_pss(const char *text, uint64_t *bytes);

/* This process's PSS now, in bytes; false when the kernel does not say. */
bool probe_memory_pss_bytes(uint64_t *bytes);

/*
 * This process's resident set size now (/proc/self/statm), in bytes; false
 * when the kernel does not say. What a long watch samples: it moves both
 * ways, unlike the high-water mark, so a leak shows as growth.
 */
bool probe_memory_rss_bytes(uint64_t *bytes);

#endif
