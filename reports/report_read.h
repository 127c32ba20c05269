/*
 * Reading a JSON report back (for compare and report), defensively: the file
 * may be anything a user points at. libc and cJSON only.
 */
#ifndef COLLSCOPE_REPORT_READ_H
#define COLLSCOPE_REPORT_READ_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* The schema this build reads and writes (DESIGN.md section 5). */
#define REPORT_SCHEMA_VERSION 1

/* Larger files are refused before parsing. */
#define REPORT_READ_MAX_BYTES ((size_t)1 << 30)

/*
 * Reads and parses the report at path and checks its envelope: a JSON object
 * with an integer "schema_version" equal to REPORT_SCHEMA_VERSION and a string
 * "command". The rest of the document is not validated. Returns the root,
 * which the caller frees with cJSON_Delete, or NULL with err (at most errlen
 * bytes, always terminated; may be NULL when errlen is 0) naming path and the
 * problem: a directory, a missing or unreadable file, a file over 1 GiB, an
 * empty file, invalid or truncated JSON (with line, column and byte offset
 * where parsing stopped; nesting deeper than cJSON's CJSON_NESTING_LIMIT is
 * refused there, without recursion trouble), a NUL byte, a non-object root,
 * a missing or wrong schema_version or command. Pipes and other
 * non-regular files are read up to the same limit (so `<(cmd)` works); a
 * FIFO blocks until it has a writer, as with cat.
 */
cJSON *report_read(const char *path, char *err, size_t errlen);

#endif
