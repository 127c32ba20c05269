/*
 * `collscope links`: options (links_opts.c), the command (links.c), its run
 * (cmd/run/links_run.c), stdout (links_print.c).
 */
#ifndef COLLSCOPE_CMD_LINKS_CMD_H
#define COLLSCOPE_CMD_LINKS_CMD_H

#include <cjson/cJSON.h>

#include "cmd/links_opts.h"
#include "reports/diagnose/detect.h"
#include "reports/io/links_report.h"

/*
 * Rank 0's stdout: the bandwidth matrix (and the shift's), the classes, the
 * suspects one line each, and with none what the run rules out.
 */
void links_print(const struct links_view *v, const struct links_opts *o,
                 const struct links_judgement *j);

#endif
