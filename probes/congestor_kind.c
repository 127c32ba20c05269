/* See congestor_kind.h. */
#include "probes/congestor_kind.h"

#include <stddef.h>

const char *const congestor_names[] = {"alltoall", "incast", "shift", NULL};
