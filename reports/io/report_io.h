/*
 * Writing JSON reports to disk, atomically, and the cJSON helpers that turn
 * an undefined statistic (NAN, infinity) into JSON null. libc and cJSON only.
 *
 * Error messages go to err (at most errlen bytes, always terminated; err may
 * be NULL when errlen is 0). They are lowercase, name the path and give the
 * reason, e.g. "cannot write 'out.json': No space left on device".
 */
#ifndef COLLSCOPE_REPORT_IO_H
#define COLLSCOPE_REPORT_IO_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

/* Return codes of report_write_atomic and report_check_output_path. */
#define REPORT_OK 0
#define REPORT_EIO (-1)	  /* I/O failure: the caller exits 5 */
#define REPORT_EUSAGE (-2) /* exists without force, a directory, ...: exit 2 */

/*
 * Writes root, formatted and followed by a newline, to path: into a
 * temporary ".NAME.tmp.XXXXXX" in the same directory, fsync, close, then
 * moved to path (rename with force; without force renameat2(RENAME_NOREPLACE),
 * or link + unlink where the file system lacks it, so an existing file is
 * never replaced), then the directory is fsynced.
 * Returns REPORT_OK; REPORT_EUSAGE when path exists and !force, or names a
 * directory or something that is not a regular file (a device is never
 * replaced); REPORT_EIO for any other failure. On failure the temporary is
 * removed and path is unchanged, except when only the final directory fsync
 * fails (the report is then in place but perhaps not durable; REPORT_EIO).
 * Bytes of strings that are not well-formed UTF-8 (a command line or a host
 * name in another encoding) are written as the escape \ufffd: every report
 * written is valid JSON that report_read accepts.
 * A file replaced with force keeps its permission bits (not set-id bits)
 * and, where the caller may give them, its owner and group; a new file gets
 * 0666 minus the umask.
 * While the temporary exists, SIGINT, SIGTERM and SIGHUP (unless ignored)
 * remove it first and then take their previous course; only SIGKILL and the
 * like leave it behind.
 * With force, a symbolic link at path is replaced, not followed.
 * Not thread-safe: reads the umask by setting it, and the handlers are
 * process-wide.
 */
int report_write_atomic(const char *path, const cJSON *root, bool force, char *err, size_t errlen);

/* The same for text that is not JSON (an HTML page): written as given, no newline added. */
int report_write_text_atomic(const char *path, const char *text, size_t len_bytes, bool force,
                             char *err, size_t errlen);

/*
 * The check a command runs before measuring, so that a long run does not end
 * in an unwritable report: fails when path is empty, names a directory,
 * exists and !force, exists and is not a regular file, or when its directory
 * does not exist or is not writable. Returns REPORT_OK or REPORT_EUSAGE.
 * Advisory: report_write_atomic checks again when it writes.
 */
int report_check_output_path(const char *path, bool force, char *err, size_t errlen);

/*
 * Adds name: v to the object parent, or name: null when v is not finite.
 * Returns the new item (owned by parent), or NULL when out of memory.
 */
cJSON *report_add_number(cJSON *parent, const char *name, double v);

/* Appends v (null when not finite) to the array parent; as report_add_number. */
cJSON *report_add_number_item(cJSON *parent, double v);

#endif
