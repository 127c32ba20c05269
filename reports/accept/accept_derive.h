/*
 * collscope accept --derive: a spec from known-good reports. Pure: libc,
 * libm and cJSON; the command reads the reports (report_read) and writes
 * the spec (report_write_atomic).
 *
 * Each report is one run. A threshold comes from its figure's run-to-run
 * distribution (accept_spread.h): a minimum is the lower of median x
 * e^(-3 s) (s = 1.4826 x MAD of the runs' logarithms: a relative spread) and
 * the lowest run, times (1 - t), rounded down to 3 significant digits; a
 * maximum the higher of median x e^(3 s) and the highest run, times (1 + t),
 * rounded up (t = tolerance_pct / 100). A figure from a single run has no
 * spread: its bound is that
 * run, and it is listed in derived.fragile_thresholds ("derived.fragile":
 * true; the measuring command warns of it).
 *   - topology, from every report's context (they must agree): hosts, and
 *     ranks, cores and NUMA nodes per host where every host has the same
 *     (otherwise left out, with a note); oversubscription allowed only when
 *     the reference run was oversubscribed;
 *   - links, per locality class and links report: the lower (bandwidth) or
 *     higher (latency) of the class median of the p50s and its weakest
 *     host's median, as the verdict judges both (a run passes the spec
 *     derived from it); then over the links reports;
 *   - allreduce, per (collective, variant, bytes) and allreduce report
 *     measured on two ranks or more (one rank moves no data): busbw and p99
 *     (where defined); then over the reports; a point keeps its records'
 *     collective (reports of --collective reduce_scatter give reduce_scatter
 *     points); verify: the variants those reports measured.
 * A report is refused as known-good when it is not complete, when a links
 * report has suspects, when an allreduce point has wrong elements or was
 * not checked. "derived" in the spec records the sources, the tolerance,
 * and for each threshold (keyed by its spec path) the median, the runs and
 * their values, the spread, the bound, whether it is fragile, and the
 * sources it came from.
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
