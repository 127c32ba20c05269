/* A small file of /proc read whole into a buffer (the probes' one way of reading them). No MPI. */
#ifndef COLLSCOPE_PROC_FILE_H
#define COLLSCOPE_PROC_FILE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Reads at most len - 1 bytes of path into buf and ends them with '\0';
 * false when it cannot be opened (buf is then untouched) or len is 0.
 */
bool probe_read_file(const char *path, char *buf, size_t len);

#endif
