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

/* Rank 0's stdout: the bandwidth matrix, the classes, then the suspects. */
void links_print(const struct links_view *v, const struct links_opts *o,
                 const struct detect_result *first, const struct detect_result *final,
                 int remeasured_pairs);

#endif
