/*
 * Internal to reports/accept*.c: the collector of error lines (a spec or a
 * set of reports is judged whole, so every problem is named, not only the
 * first), JSON paths for those lines, and small helpers. libc and cJSON only.
 */
#ifndef COLLSCOPE_ACCEPT_UTIL_H
#define COLLSCOPE_ACCEPT_UTIL_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * Error lines, "\n"-separated, into buf (len bytes, always terminated).
 * A line that does not fit is counted, and accept_errs_finish adds
 * "... and N more errors" (room for it is kept back).
 */
struct accept_errs {
	char *buf;
	size_t len, used;
	int count, dropped;
};

void accept_errs_init(struct accept_errs *e, char *buf, size_t len);
void accept_errs_add(struct accept_errs *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Appends the count of dropped lines; returns the number of errors (0: none). */
int accept_errs_finish(struct accept_errs *e);

/* A JSON path being walked: "checks.allreduce.points[2].bytes". */
#define ACCEPT_PATH_BYTES 192
struct accept_path {
	char s[ACCEPT_PATH_BYTES];
	size_t len;
};

void accept_path_init(struct accept_path *p);
/* Append ".key" (no dot at the start), or "[index]"; return the old length for accept_path_cut. */
size_t accept_path_key(struct accept_path *p, const char *key);
size_t accept_path_index(struct accept_path *p, size_t index);
void accept_path_cut(struct accept_path *p, size_t len);

/* A value as a message shows it: "fast" quoted (escaped as report_escape_text does, cut), 3,
 * true, an object. */
void accept_describe_value(const cJSON *v, char *buf, size_t len);

/*
 * Copies s into dst (size bytes) as it is, so that names differing only in a
 * control character stay apart; false when cut. Printers escape (cmd_print).
 */
bool accept_copy_name(char *dst, size_t size, const char *s);

/* Room for n + 1 items of size bytes in *items (capacity *cap); -1 when out of memory. */
int accept_grow(void **items, size_t *cap, size_t n, size_t size);

/* "8 B", "64 KiB", "4 MiB", "1 GiB"; other sizes in bytes ("1000 B"). */
void accept_format_bytes(char *buf, size_t len, unsigned long long bytes);

#endif
