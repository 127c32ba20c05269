/* `collscope links`: options (links_opts.c), the run (links.c), stdout (links_print.c). */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_LINKS_CMD_H
#define COLLSCOPE_CMD_LINKS_CMD_H

#include <cjson/cJSON.h>

#include "cmd.h"
#include "detect.h"
#include "links.h"
#include "links_opts.h"
#include "links_report.h"

/*
 * Rank 0's stdout: the bandwidth matrix (and the shift's), the classes, the
 * suspects one line each, and with none what the run rules out.
 */
void links_print(const struct links_view *v, const struct links_opts *o,
                 const struct links_judgement *j);

#endif
