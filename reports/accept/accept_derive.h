/*
 * collscope accept --derive: a spec from known-good reports. Pure: libc,
 * libm and cJSON; the command reads the reports (report_read) and writes
 * the spec (report_write_atomic).
 *
 * Each threshold is the median of what the reports measured, with a stated
 * tolerance t (tolerance_pct / 100): a minimum is median x (1 - t), rounded
 * down to 3 significant digits, a maximum median x (1 + t), rounded up.
 *   - topology, from every report's context (they must agree): hosts, and
 *     ranks, cores and NUMA nodes per host where every host has the same
 *     (otherwise left out, with a note); oversubscription allowed only when
 *     the reference run was oversubscribed;
 *   - links, per locality class over every measured pair of every links
 *     report: the median p50 bandwidth and p50 latency, or the median of the
 *     weakest host's links where that is worse (the verdict judges every
 *     host's median: a run passes the spec derived from it); no suspects;
 *   - allreduce, per (variant, bytes) over the allreduce reports: the median
 *     busbw and the median p99 (where p99 is defined); verify: the variants
 *     those reports measured.
 * A report is refused as known-good when it is not complete, when a links
 * report has suspects, when an allreduce point has wrong elements or was
 * not checked. "derived" in the spec records the sources, the tolerance,
 * and for each threshold (keyed by its spec path) the median, the number of
 * values and the sources it came from.
 */
#ifndef COLLSCOPE_ACCEPT_DERIVE_H
#define COLLSCOPE_ACCEPT_DERIVE_H

#include <cjson/cJSON.h>
#include <stddef.h>

#define ACCEPT_DEFAULT_TOLERANCE_PCT 10.0

/* One report, as read by report_read, and the file it came from. */
struct accept_source {
	const char *path;
	const cJSON *root;
};

/*
 * Adds "spec_version", "name", "derived" and "checks" to root (which the
 * caller created with the envelope: schema_version, "command":
 * "accept-spec", and its context). 0 <= tolerance_pct < 100. Returns 0, or
 * -1 with every problem of every report in err, one line each (root then
 * holds nothing of the spec).
 */
int accept_derive(cJSON *root, const struct accept_source *src, size_t n, double tolerance_pct,
                  char *err, size_t len);

#endif
