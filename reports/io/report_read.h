/*
 * Reading a JSON report back (for compare and report), defensively: the file
 * may be anything a user points at. libc and cJSON only.
 */
#ifndef COLLSCOPE_REPORT_READ_H
#define COLLSCOPE_REPORT_READ_H

#include <cjson/cJSON.h>

#include "reports/io/report_io.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The schemas this build reads (reports/README.md): 1, and 2, which only
 * links writes (its pairs in the compact form, reports/io/links_compact.h).
 */
#define REPORT_SCHEMA_VERSION     2
#define REPORT_SCHEMA_VERSION_MIN 1

/* Larger files are refused before parsing. */
#define REPORT_READ_MAX_BYTES ((size_t)1 << 30)

/*
 * The memory a parsed report may take: its tree (report_scan_tree_bytes,
 * estimated from the counts of the grammar pass before anything is built)
 * at most REPORT_READ_TREE_FACTOR times the text's bytes, or
 * REPORT_READ_TREE_FLOOR_BYTES when that is more. With the text itself, a
 * reader's peak stays below about 9 times a report's size past 256 MiB.
 * collscope's samples take 3 to 6 times their text; a links report's compact
 * pairs (five bytes a number) 10 to 16 times, so the floor is what lets a
 * links report of all pairs of 1,024 ranks (about 75 MB) be read: about 1.2
 * GiB. (At 256 MiB, the floor before, links reports over about 20 MB were
 * refused.) Text that packs a value into every two bytes ("1,1,1,...") would
 * take 40 times.
 */
#define REPORT_READ_TREE_FACTOR 8
#define REPORT_READ_TREE_FLOOR_BYTES ((size_t)2 << 30)

/* The bytes a report of len_bytes may take once parsed: the larger of the two above. */
size_t report_tree_limit_bytes(size_t len_bytes);

/*
 * Reads and parses the report at path and checks its envelope: a JSON object
 * with an integer "schema_version" from REPORT_SCHEMA_VERSION_MIN to
 * REPORT_SCHEMA_VERSION and a string
 * "command". The rest of the document is not validated. Returns the root,
 * which the caller frees with cJSON_Delete, or NULL with err (at most errlen
 * bytes, always terminated; may be NULL when errlen is 0) naming path and the
 * problem: a directory, a missing or unreadable file, a file over 1 GiB, an
 * empty file, invalid or truncated JSON (with line, column and byte offset
 * where parsing stopped; nesting deeper than cJSON's CJSON_NESTING_LIMIT is
 * refused there, without recursion trouble), a NUL byte, a non-object root,
 * a missing or wrong schema_version or command. Only regular files are
 * read: a FIFO, a device or a socket is refused at once, naming its kind
 * (a FIFO without a writer would hang the reader; /dev/zero would be read
 * to the limit). path "-" reads standard input instead, whatever it is but
 * a terminal, up to the same limit; a NUL byte stops any read at once.
 */
cJSON *report_read(const char *path, char *err, size_t errlen);

/*
 * report_read and report_parse, saying why they failed: REPORT_OK with *root
 * (the caller frees it), REPORT_EUSAGE when the input is refused (exit 2), or
 * REPORT_EIO when memory ran out while reading, parsing or checking it
 * ("out of memory" in err; exit 5). *root is NULL on failure.
 */
int report_load(const char *path, cJSON **root, char *err, size_t errlen);
int report_load_text(const char *path, const char *buf, size_t len_bytes, cJSON **root,
                     char *err, size_t errlen);

/*
 * The checks of report_read on text already in memory: buf holds len_bytes
 * bytes and buf[len_bytes] must be '\0'. path only names the text in errors.
 * Text whose tree would take more than the limit above is refused before
 * parsing, naming its size, its values and the limit.
 * Beyond the envelope, refuses anywhere in the document a number that does
 * not fit a double (1e999), NaN or Infinity literals, a key given twice in
 * one object, a \u0000 escape in a string (cJSON would cut it there), and "context", "config", "summary" that are not objects,
 * "results" that is not an array, "complete" that is not a boolean.
 */
cJSON *report_parse(const char *path, const char *buf, size_t len_bytes, char *err,
		    size_t errlen);

/* The JSON path in messages ("results[3].time_us.p50") is cut to this. */
#define REPORT_WHERE_BYTES 160

/*
 * Typed access to one member of an object of a report, for the readers of
 * records (compare, the HTML page). Every getter names the file (path) and
 * where the object is (where, e.g. "results[3]") in err on failure, e.g.
 * "report 'b.json': results[3].bytes is not a number", and returns -1.
 * A member that is absent, or null, is "missing": an error when required,
 * otherwise the getter returns 0 and leaves the default described below.
 */
struct report_at {
	const char *path;  /* the file, for messages */
	const char *where; /* the object's JSON path, for messages; "" for the top level */
	char *err;
	size_t errlen;
};

/* A string; *out NULL when missing. */
int report_get_string(const struct report_at *at, const cJSON *obj, const char *name,
		      bool required, const char **out);
/* A number in [min, max]; *out NAN when missing (an undefined statistic is null). */
int report_get_number(const struct report_at *at, const cJSON *obj, const char *name,
		      bool required, double min, double max, double *out);
/* A whole number in [min, max] (both within +-2^53); *out unchanged when missing. */
int report_get_integer(const struct report_at *at, const cJSON *obj, const char *name,
		       bool required, double min, double max, int64_t *out);
/* true or false; *out unchanged when missing. */
int report_get_bool(const struct report_at *at, const cJSON *obj, const char *name,
		    bool required, bool *out);
/* An object or an array (as asked); *out NULL when missing. */
int report_get_object(const struct report_at *at, const cJSON *obj, const char *name,
		      bool required, const cJSON **out);
int report_get_array(const struct report_at *at, const cJSON *obj, const char *name,
		     bool required, const cJSON **out);
/*
 * An array of numbers in [min, max] into a new array *out of *n entries
 * (the caller frees it; NULL and 0 when missing or empty). -1 also when out
 * of memory.
 */
int report_get_numbers(const struct report_at *at, const cJSON *obj, const char *name,
		       bool required, double min, double max, double **out, size_t *n);

#endif
