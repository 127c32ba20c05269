/*
 * Defensive report reading (see report_read.h): bounded read, parse with the
 * error position reported, then the envelope checks of the schema (reports/README.md).
 */
#include "reports/io/report_read.h"

#include "reports/io/report_read_scan.h"
#include "reports/io/report_schema.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB(bytes) ((double)(bytes) / (1 << 20))

/* First buffer for a file whose size fstat cannot tell (a pipe). */
#define PIPE_CHUNK_BYTES ((size_t)64 << 10)

__attribute__((format(printf, 3, 4))) static void set_err(char *err, size_t errlen,
							  const char *fmt, ...)
{
	va_list ap;

	if (err && errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
}

/*
 * Reads all of fd into a NUL-terminated heap buffer (*buf, freed by the
 * caller) of at most REPORT_READ_MAX_BYTES + 1 bytes of data, so a file over
 * the limit is seen to be over it. cap_bytes is the first buffer size.
 * A NUL byte ends the read at once (no report has one: /dev/zero on
 * standard input is refused at byte 0, not after 1 GiB), with *nul_at its
 * offset. Returns 0, or -1 with errno (EFBIG when over the limit, EILSEQ
 * for a NUL byte).
 */
static int read_fd(int fd, size_t cap_bytes, char **buf, size_t *len_bytes, size_t *nul_at)
{
	char *data = malloc(cap_bytes), *grown;
	const char *nul;
	size_t len = 0;
	ssize_t got;

	if (!data)
		goto fail;
	for (;;) {
		if (len + 1 == cap_bytes) { /* full: one byte stays for the NUL */
			if (len > REPORT_READ_MAX_BYTES) {
				errno = EFBIG;
				goto fail;
			}
			cap_bytes = cap_bytes > REPORT_READ_MAX_BYTES / 2 ? REPORT_READ_MAX_BYTES + 2
									   : cap_bytes * 2;
			grown = realloc(data, cap_bytes);
			if (!grown)
				goto fail;
			data = grown;
		}
		got = read(fd, data + len, cap_bytes - 1 - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			goto fail;
		if (got == 0)
			break;
		nul = memchr(data + len, '\0', (size_t)got);
		if (nul) {
			*nul_at = (size_t)(nul - data);
			errno = EILSEQ;
			goto fail;
		}
		len += (size_t)got;
	}
	if (len > REPORT_READ_MAX_BYTES) {
		errno = EFBIG;
		goto fail;
	}
	data[len] = '\0';
	*buf = data;
	*len_bytes = len;
	return 0;
fail:
	free(data);
	return -1;
}

/* What a file that is not a regular one is, for the refusal. */
static const char *kind_of(mode_t mode)
{
	return S_ISDIR(mode)    ? "a directory"
	       : S_ISFIFO(mode) ? "a FIFO (named pipe)"
	       : S_ISCHR(mode)  ? "a character device"
	       : S_ISBLK(mode)  ? "a block device"
	       : S_ISSOCK(mode) ? "a socket"
	                        : "not a regular file";
}

/*
 * The descriptor to read path from: standard input for "-" (whatever it is
 * but a terminal or a directory), else path opened without blocking (a FIFO
 * without a writer must not hang the reader) and only when it is a regular
 * file. -1 with err naming path and, for a special file, its kind.
 */
static int open_report(const char *path, struct stat *st, char *err, size_t errlen)
{
	bool from_stdin = strcmp(path, "-") == 0;
	int fd = from_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	int saved;

	if (fd < 0) {
		saved = errno;
		if (saved == ENXIO && stat(path, st) == 0 && !S_ISREG(st->st_mode))
			set_err(err, errlen, "cannot read '%s': it is %s, not a regular file", path,
				kind_of(st->st_mode));
		else
			set_err(err, errlen, "cannot read '%s': %s", path, strerror(saved));
		return -1;
	}
	if (fstat(fd, st) != 0) {
		set_err(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st->st_mode)) {
		set_err(err, errlen, "cannot read '%s': is a directory", path);
		goto fail;
	}
	if (from_stdin && isatty(fd)) {
		set_err(err, errlen,
			"cannot read '-': standard input is a terminal (pipe or redirect a report "
			"into it)");
		goto fail;
	}
	if (!from_stdin && !S_ISREG(st->st_mode)) {
		set_err(err, errlen,
			"cannot read '%s': it is %s, not a regular file (to read a pipe, give '-' and "
			"make it standard input)",
			path, kind_of(st->st_mode));
		goto fail;
	}
	if (!from_stdin && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
		set_err(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		goto fail;
	}
	return fd;
fail:
	if (!from_stdin)
		close(fd);
	return -1;
}

/* Opens and reads path ("-": standard input); NULL with err set on any failure (*oom when memory ran out). */
static char *slurp(const char *path, size_t *len_bytes, bool *oom, char *err, size_t errlen)
{
	struct stat st;
	char *buf = NULL;
	size_t nul_at = 0;
	int fd = open_report(path, &st, err, errlen);

	if (fd < 0)
		return NULL;
	if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > REPORT_READ_MAX_BYTES)
		goto too_big;
	if (read_fd(fd, S_ISREG(st.st_mode) ? (size_t)st.st_size + 2 : PIPE_CHUNK_BYTES, &buf,
		    len_bytes, &nul_at) != 0) {
		if (errno == EFBIG)
			goto too_big;
		*oom = errno == ENOMEM;
		if (errno == EILSEQ)
			set_err(err, errlen, "'%s' is not valid json: NUL byte at byte offset %zu",
				path, nul_at);
		else
			set_err(err, errlen, "cannot read '%s': %s", path,
				*oom ? "out of memory for its text" : strerror(errno));
		goto out;
	}
	if (*len_bytes == 0) {
		set_err(err, errlen, "cannot read '%s': the file is empty", path);
		free(buf);
		buf = NULL;
	}
	goto out;
too_big:
	set_err(err, errlen, "cannot read '%s': larger than the 1 GiB limit for a report", path);
out:
	if (fd != STDIN_FILENO)
		close(fd);
	return buf;
}

/* Line and column (1-based) of byte offset in buf, for the parse error. */
static void line_col(const char *buf, size_t offset, size_t *line, size_t *col)
{
	const char *line_start = buf;

	*line = 1;
	for (const char *p = buf; p < buf + offset; p++)
		if (*p == '\n') {
			(*line)++;
			line_start = p + 1;
		}
	*col = (size_t)(buf + offset - line_start) + 1;
}

/* The refusal of the grammar pass as a message naming path and the byte offset. */
static void scan_error(const char *path, const char *buf, const struct report_scan *scan,
                       char *err, size_t errlen)
{
	size_t line, col;

	switch (scan->kind) {
	case REPORT_SCAN_TRUNCATED:
		set_err(err, errlen, "'%s' is not valid json: truncated (input ends at byte %zu)",
			path, scan->offset);
		return;
	case REPORT_SCAN_NUL_BYTE:
		set_err(err, errlen, "'%s' is not valid json: NUL byte at byte offset %zu", path,
			scan->offset);
		return;
	case REPORT_SCAN_NUL_ESCAPE:
		set_err(err, errlen,
			"'%s': a string holds \\u0000 (a NUL character) at byte offset %zu, which "
			"collscope cannot read without cutting the string short",
			path, scan->offset);
		return;
	case REPORT_SCAN_NAN_INF:
		set_err(err, errlen,
			"'%s' is not valid json: NaN and Infinity are not json numbers (byte offset "
			"%zu)",
			path, scan->offset);
		return;
	case REPORT_SCAN_TOO_DEEP:
		set_err(err, errlen, "'%s' is not valid json: nested deeper than %d levels at byte %zu",
			path, CJSON_NESTING_LIMIT, scan->offset);
		return;
	default:
		line_col(buf, scan->offset, &line, &col);
		set_err(err, errlen,
			"'%s' is not valid json: %s at line %zu, column %zu (byte offset %zu)", path,
			scan->reason, line, col, scan->offset);
	}
}

size_t report_tree_limit_bytes(size_t len_bytes)
{
	if (len_bytes <= SIZE_MAX / REPORT_READ_TREE_FACTOR &&
	    len_bytes * REPORT_READ_TREE_FACTOR > REPORT_READ_TREE_FLOOR_BYTES)
		return len_bytes * REPORT_READ_TREE_FACTOR;
	return REPORT_READ_TREE_FLOOR_BYTES;
}

/* The tree's estimated bytes against the limit of report_read.h; 0 or -1 naming both. */
static int check_tree_bytes(const char *path, size_t len_bytes, const struct report_scan *scan,
                            char *err, size_t errlen)
{
	size_t tree = report_scan_tree_bytes(scan), limit = report_tree_limit_bytes(len_bytes);

	if (tree <= limit)
		return 0;
	set_err(err, errlen,
		"cannot read '%s' (%.1f MiB): its %zu values would take about %.0f MiB of memory "
		"once parsed, over the limit of %d times the file's size or %.0f MiB, whichever is "
		"more (%.0f MiB here)",
		path, MIB(len_bytes), scan->values, MIB(tree), REPORT_READ_TREE_FACTOR,
		MIB(REPORT_READ_TREE_FLOOR_BYTES), MIB(limit));
	return -1;
}

/*
 * The grammar pass first (report_read_scan.c: RFC 8259 exactly, UTF-8, the
 * limits of cJSON), so that cJSON only ever parses what it reads right and
 * every refusal names its byte offset.
 */
static cJSON *parse(const char *path, const char *buf, size_t len_bytes, bool *oom, char *err,
		    size_t errlen)
{
	struct report_scan scan;
	cJSON *root;

	if (report_scan_json(buf, len_bytes, &scan) != 0) {
		scan_error(path, buf, &scan, err, errlen);
		return NULL;
	}
	if (check_tree_bytes(path, len_bytes, &scan, err, errlen) != 0)
		return NULL;
	/* The grammar is cJSON's and more: it fails here only when an allocation does. */
	root = cJSON_ParseWithLength(buf, len_bytes);
	if (!root) {
		*oom = true;
		set_err(err, errlen,
			"cannot read '%s': out of memory while parsing it (its %zu values take "
			"about %.0f MiB)",
			path, scan.values, MIB(report_scan_tree_bytes(&scan)));
	}
	return root;
}

/*
 * The walk over a parsed document that refuses what cJSON lets through: a
 * number that overflowed a double (cJSON turns 1e999 into infinity) and a key
 * given twice in one object (cJSON keeps both and lookups see the first, so
 * two readers could disagree on the value). Iterative, over a stack of the
 * containers above the current item; the JSON path of the message
 * ("results[3].time_us") is written only when there is a problem, so a
 * million samples cost no formatting.
 */
struct frame {
	const cJSON *container, *child;
	size_t index;
};

/* Appends text to where (cap bytes), printable ASCII only, cut at the buffer's end. */
static size_t where_append(char *where, size_t len, size_t cap, const char *text)
{
	for (const unsigned char *p = (const unsigned char *)text; *p && len + 1 < cap; p++)
		where[len++] = *p >= 0x20 && *p < 0x7f ? (char)*p : '?';
	where[len] = '\0';
	return len;
}

/* The JSON path of the item below frames[0..depth), "the top level" for the root. */
static void where_of(const struct frame *frames, size_t depth, char *where, size_t cap)
{
	char at[32];
	size_t len = 0;

	where[0] = '\0';
	for (size_t k = 0; k < depth; k++) {
		if (cJSON_IsObject(frames[k].container)) {
			if (len)
				len = where_append(where, len, cap, ".");
			len = where_append(where, len, cap,
			                   frames[k].child->string ? frames[k].child->string : "");
		} else {
			snprintf(at, sizeof at, "[%zu]", frames[k].index);
			len = where_append(where, len, cap, at);
		}
	}
	if (len == 0)
		snprintf(where, cap, "the top level");
}

static int cmp_key(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

/* Small objects (a record's keys) are checked pairwise, without allocating. */
#define DUP_PAIRWISE_MAX 16

/*
 * The first key that appears twice in object, or NULL; *oom when the
 * sorting buffer of a large object cannot be had.
 */
static const char *duplicate_key(const cJSON *object, bool *oom)
{
	const cJSON *c, *d;
	const char **keys = NULL, *dup = NULL;
	size_t n = 0, i = 0;

	for (c = object->child; c; c = c->next)
		n++;
	if (n <= DUP_PAIRWISE_MAX) {
		for (c = object->child; c && !dup; c = c->next)
			for (d = c->next; d && !dup; d = d->next)
				if (strcmp(c->string ? c->string : "", d->string ? d->string : "") == 0)
					dup = d->string ? d->string : "";
		return dup;
	}
	keys = malloc(n * sizeof *keys);
	if (!keys) {
		*oom = true;
		return NULL;
	}
	for (c = object->child; c; c = c->next)
		keys[i++] = c->string ? c->string : "";
	qsort(keys, n, sizeof *keys, cmp_key);
	for (i = 1; i < n && !dup; i++)
		if (strcmp(keys[i - 1], keys[i]) == 0)
			dup = keys[i];
	free(keys);
	return dup;
}

/* One item's own checks; 0, or -1 with err naming it (frames locate it). */
static int check_item(const char *path, const cJSON *item, const struct frame *frames,
                      size_t depth, bool *oom, char *err, size_t errlen)
{
	char where[REPORT_WHERE_BYTES];
	const char *dup;

	if (cJSON_IsNumber(item) && !isfinite(item->valuedouble)) {
		where_of(frames, depth, where, sizeof where);
		set_err(err, errlen, "report '%s': number out of range at %s", path, where);
		return -1;
	}
	if (cJSON_IsObject(item) && (dup = duplicate_key(item, oom)) != NULL) {
		where_of(frames, depth, where, sizeof where);
		set_err(err, errlen, "report '%s': duplicate key '%.64s' in %s", path, dup, where);
		return -1;
	}
	if (*oom) {
		set_err(err, errlen, "cannot read '%s': out of memory while checking it", path);
		return -1;
	}
	return 0;
}

/* Every item of the tree, depth first; cJSON's nesting limit bounds the stack. */
static int walk(const char *path, const cJSON *root, bool *oom, char *err, size_t errlen)
{
	struct frame frames[CJSON_NESTING_LIMIT + 1];
	size_t depth = 0;
	const cJSON *item = root;

	for (;;) {
		if (check_item(path, item, frames, depth, oom, err, errlen) != 0)
			return -1;
		if (item->child && (cJSON_IsObject(item) || cJSON_IsArray(item)) &&
		    depth < CJSON_NESTING_LIMIT) {
			frames[depth++] = (struct frame){item, item->child, 0};
			item = item->child;
			continue;
		}
		while (depth > 0 && !frames[depth - 1].child->next)
			depth--;
		if (depth == 0)
			return 0;
		frames[depth - 1].child = frames[depth - 1].child->next;
		frames[depth - 1].index++;
		item = frames[depth - 1].child;
	}
}

/* The blocks of the envelope that every reader relies on, when present, have their types. */
static int check_blocks(const char *path, const cJSON *root, char *err, size_t errlen)
{
	static const struct {
		const char *name;
		cJSON_bool (*is)(const cJSON *);
		const char *what;
	} blocks[] = {
	    {SK_REPORT_CONTEXT, cJSON_IsObject, "an object"},
	    {SK_REPORT_CONFIG, cJSON_IsObject, "an object"},
	    {SK_REPORT_RESULTS, cJSON_IsArray, "an array"},
	    {SK_REPORT_SUMMARY, cJSON_IsObject, "an object"},
	    {SK_REPORT_COMPLETE, cJSON_IsBool, "true or false"},
	};

	for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) {
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(root, blocks[i].name);
		if (b && !blocks[i].is(b)) {
			set_err(err, errlen, "report '%s': %s is not %s", path, blocks[i].name,
				blocks[i].what);
			return -1;
		}
	}
	return 0;
}

/* The envelope of every report (reports/README.md). 0, or -1 with err set. */
static int check_envelope(const char *path, const cJSON *root, char *err, size_t errlen)
{
	const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, SK_REPORT_SCHEMA_VERSION);
	const cJSON *command = cJSON_GetObjectItemCaseSensitive(root, SK_REPORT_COMMAND);
	double v;

	if (!cJSON_IsObject(root)) {
		set_err(err, errlen, "'%s' is not a collscope report: the top level is not an object",
			path);
		return -1;
	}
	if (!version) {
		set_err(err, errlen, "'%s' is not a collscope report: no schema_version", path);
		return -1;
	}
	v = version->valuedouble;
	if (!cJSON_IsNumber(version) || !isfinite(v) || floor(v) != v) {
		set_err(err, errlen, "report '%s': schema_version is not an integer", path);
		return -1;
	}
	if (v < REPORT_SCHEMA_VERSION_MIN || v > REPORT_SCHEMA_VERSION) {
		set_err(err, errlen,
			"report '%s': schema_version %.17g is not supported (this build reads "
			"versions %d to %d)",
			path, v, REPORT_SCHEMA_VERSION_MIN, REPORT_SCHEMA_VERSION);
		return -1;
	}
	if (!cJSON_IsString(command) || !command->valuestring) {
		set_err(err, errlen, "report '%s': %s", path,
			command ? "command is not a string" : "no command");
		return -1;
	}
	return 0;
}

int report_load_text(const char *path, const char *buf, size_t len_bytes, cJSON **root,
                     char *err, size_t errlen)
{
	bool oom = false;

	*root = NULL;
	if (len_bytes == 0) {
		set_err(err, errlen, "cannot read '%s': the file is empty", path);
		return REPORT_EUSAGE;
	}
	*root = parse(path, buf, len_bytes, &oom, err, errlen);
	if (*root && (check_envelope(path, *root, err, errlen) != 0 ||
		      check_blocks(path, *root, err, errlen) != 0 ||
		      walk(path, *root, &oom, err, errlen) != 0)) {
		cJSON_Delete(*root);
		*root = NULL;
	}
	if (*root)
		return REPORT_OK;
	return oom ? REPORT_EIO : REPORT_EUSAGE;
}

int report_load(const char *path, cJSON **root, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len_bytes = 0;
	bool oom = false;
	int rc = REPORT_EUSAGE;

	*root = NULL;
	if (!path || *path == '\0') {
		set_err(err, errlen, "cannot read a report: empty path");
		goto out;
	}
	buf = slurp(path, &len_bytes, &oom, err, errlen);
	if (buf)
		rc = report_load_text(path, buf, len_bytes, root, err, errlen);
	else if (oom)
		rc = REPORT_EIO;
out:
	free(buf);
	return rc;
}

cJSON *report_parse(const char *path, const char *buf, size_t len_bytes, char *err,
		    size_t errlen)
{
	cJSON *root;

	report_load_text(path, buf, len_bytes, &root, err, errlen);
	return root;
}

cJSON *report_read(const char *path, char *err, size_t errlen)
{
	cJSON *root;

	report_load(path, &root, err, errlen);
	return root;
}
