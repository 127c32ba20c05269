/* The aggressors' traffic patterns (probes/congestor.h), by name: pure, for the option table. */
#ifndef COLLSCOPE_CONGESTOR_KIND_H
#define COLLSCOPE_CONGESTOR_KIND_H

enum congestor_kind { CONGESTOR_ALLTOALL, CONGESTOR_INCAST, CONGESTOR_SHIFT };

/* "alltoall", "incast", "shift"; NULL-terminated, in the enum's order. */
extern const char *const congestor_names[];

#endif
