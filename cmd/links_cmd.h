/* `collscope links`: options (links_opts.c), the run (links.c), stdout (links_print.c). */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_LINKS_CMD_H
#define COLLSCOPE_CMD_LINKS_CMD_H

#include <cjson/cJSON.h>

#include "cmd/cmd.h"
#include "reports/diagnose/detect.h"
#include "probes/p2p.h"
#include "cmd/links_opts.h"
#include "reports/io/links_report.h"

/*
 * Rank 0's stdout: the bandwidth matrix (and the shift's), the classes, the
 * suspects one line each, and with none what the run rules out.
 */
void links_print(const struct links_view *v, const struct links_opts *o,
                 const struct links_judgement *j);

/*
 * links inside another command (accept): measures and judges every pair as
 * cmd_links does (its options o, its watchdog none: the caller's), prints
 * nothing and writes no report; rank 0 hands the judged run to hand (view
 * and the confirmed suspects, both valid during the call; 0, or -1 when out
 * of memory). Collective. Returns an exit code.
 */
typedef int (*links_outcome_fn)(void *arg, const struct links_view *v,
                                const struct detect_result *final);
int links_measure(const struct cmd_ctx *ctx, const struct links_opts *o, links_outcome_fn hand,
                  void *arg);

#endif
