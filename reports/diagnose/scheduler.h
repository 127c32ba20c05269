/*
 * Suspects the scheduler explains (issue 29): on a busy host the ranks of a
 * pair wait in the run queue for a core, and a ping-pong then times the
 * scheduler as much as the link (a 97 us link measured 969 us under CPU
 * burners, and the re-test confirmed it: the load persists). The probe records
 * the share w of a pair's ping-pong time its ranks waited for a core (the
 * kernel's schedstat run delay; the larger of the two ranks'). A confirmed
 * latency suspect of one rank pair is cleared when, with the share it waited
 * beyond the job's typical pair (the median share, w0) taken out of its figure
 * (times (1 - w) / (1 - w0)), it is no longer past the tolerance from its
 * class's median: the link answered as fast as its peers' for the time its
 * ranks were running, as its peers' ran. Relative, because on a host whose
 * every rank waits alike (more ranks than cores, or namespace hosts sharing
 * two cores) the wait explains no one pair. A suspect far past that (a link
 * 10x slow while its ranks waited 10% of the time more) stays accused. Latency: a ping-pong
 * needs both ranks on a core at once, every round trip. Bandwidth only inside a host: there
 * the ranks themselves copy every byte (shared memory), so a rank waiting for a core moves
 * nothing, and its figure is discounted the same way (times (1 - w0) / (1 - w), the share of
 * the whole pair's time); between hosts a bandwidth window keeps the wire busy with queued
 * messages while a rank waits, so waiting does not cost bandwidth one for one, and excusing it
 * would excuse slow links on busy hosts. Hosts, segments and links between hosts (their cells)
 * are left as they are: their figures are many pairs'. Pure: no MPI, no I/O.
 */
#ifndef COLLSCOPE_SCHEDULER_H
#define COLLSCOPE_SCHEDULER_H

#include "reports/diagnose/detect.h"

/*
 * The latency (or intra-host bandwidth) s would have had had its ranks
 * waited the typical share w0 instead of w (0 <= w, w0 < 1; w0 NAN: 0);
 * s's own when w <= w0. NAN when w is unknown (NAN) or out of range, or s
 * is a bandwidth between hosts.
 */
double scheduler_discounted(const struct detect_suspect *s, double w, double w0);

/*
 * Whether the scheduler explains s (confirmed or not): a link of one rank
 * pair whose discounted latency is at most 1 + tolerance times the expected,
 * or whose discounted intra-host bandwidth is at least 1 - tolerance times
 * it (0 < tolerance < 1, as detect_params.tolerance).
 */
bool scheduler_explains(const struct detect_suspect *s, double w, double w0, double tolerance);

/*
 * Un-confirms every confirmed suspect of r the scheduler explains, with
 * wait_of(arg, a, b, metric) the share its ranks a and b waited (latency:
 * of their ping-pongs; bandwidth: of the pair's whole time; NAN: unknown,
 * then nothing is cleared) and w0[metric] the typical pair's, and records w
 * in its cpu_wait_fraction and scheduler_cleared. Returns how many it
 * cleared. Each suspect is judged with its metric's tolerance (p).
 */
typedef double (*scheduler_wait_fn)(const void *arg, int a, int b, enum detect_metric m);
int scheduler_clear(struct detect_result *r, scheduler_wait_fn wait_of, const void *arg,
                    const double w0[DETECT_METRICS], const struct detect_params *p);

#endif
