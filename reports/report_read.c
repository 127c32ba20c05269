/*
 * Defensive report reading (see report_read.h): bounded read, parse with the
 * error position reported, then the envelope checks of DESIGN.md section 5.
 */
#include "report_read.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
 * Returns 0, or -1 with errno (EFBIG when over the limit).
 */
static int read_fd(int fd, size_t cap_bytes, char **buf, size_t *len_bytes)
{
	char *data = malloc(cap_bytes), *grown;
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

/* Opens and reads path; NULL with err set on any failure. */
static char *slurp(const char *path, size_t *len_bytes, char *err, size_t errlen)
{
	struct stat st;
	char *buf = NULL;
	/* A FIFO blocks here until it has a writer, as with cat. */
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) != 0) {
		set_err(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		set_err(err, errlen, "cannot read '%s': is a directory", path);
		goto out;
	}
	if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > REPORT_READ_MAX_BYTES)
		goto too_big;
	if (read_fd(fd, S_ISREG(st.st_mode) ? (size_t)st.st_size + 2 : PIPE_CHUNK_BYTES, &buf,
		    len_bytes) != 0) {
		if (errno == EFBIG)
			goto too_big;
		set_err(err, errlen, "cannot read '%s': %s", path, strerror(errno));
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
	if (fd >= 0)
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

/*
 * True when parsing failed because the input ended: cJSON reports the error
 * at the end, inside a string left open at the end, or at the start of a
 * literal cut short ("tr" of true).
 */
static bool is_cut_short(const char *buf, size_t offset, size_t len_bytes)
{
	static const char *const literals[] = {"true", "false", "null"};
	size_t open_at = 0, left = len_bytes - offset;
	bool in_string = false;

	if (offset >= len_bytes)
		return true;
	for (size_t i = 0; i < len_bytes; i++)
		if (in_string && buf[i] == '\\')
			i++;
		else if (buf[i] == '"') {
			in_string = !in_string;
			open_at = i;
		}
	if (in_string && offset >= open_at)
		return true;
	for (size_t i = 0; i < sizeof literals / sizeof literals[0]; i++)
		if (left < strlen(literals[i]) && strncmp(buf + offset, literals[i], left) == 0)
			return true;
	return false;
}

/* Open brackets before offset, outside strings: cJSON refuses CJSON_NESTING_LIMIT. */
static size_t depth_at(const char *buf, size_t offset)
{
	size_t depth = 0;
	bool in_string = false;

	for (size_t i = 0; i < offset; i++)
		if (in_string && buf[i] == '\\')
			i++;
		else if (buf[i] == '"')
			in_string = !in_string;
		else if (!in_string && (buf[i] == '[' || buf[i] == '{'))
			depth++;
		else if (!in_string && (buf[i] == ']' || buf[i] == '}') && depth > 0)
			depth--;
	return depth;
}

static cJSON *parse(const char *path, const char *buf, size_t len_bytes, char *err,
		    size_t errlen)
{
	const char *end = NULL;
	cJSON *root = cJSON_ParseWithOpts(buf, &end, true);
	size_t offset = end ? (size_t)(end - buf) : 0, line, col;

	if (root && offset == len_bytes)
		return root;
	cJSON_Delete(root);
	if (root) /* cJSON stopped at a NUL byte it took for the end */
		set_err(err, errlen, "'%s' is not valid json: NUL byte at byte offset %zu", path,
			offset);
	else if (is_cut_short(buf, offset, len_bytes))
		set_err(err, errlen, "'%s' is not valid json: truncated (input ends at byte %zu)",
			path, len_bytes);
	else if (depth_at(buf, offset) >= CJSON_NESTING_LIMIT)
		set_err(err, errlen, "'%s' is not valid json: nested deeper than %d levels at byte %zu",
			path, CJSON_NESTING_LIMIT, offset);
	else {
		line_col(buf, offset, &line, &col);
		set_err(err, errlen,
			"'%s' is not valid json: error at line %zu, column %zu (byte offset %zu)",
			path, line, col, offset);
	}
	return NULL;
}

/* The envelope of DESIGN.md section 5. 0, or -1 with err set. */
static int check_envelope(const char *path, const cJSON *root, char *err, size_t errlen)
{
	const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
	const cJSON *command = cJSON_GetObjectItemCaseSensitive(root, "command");
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
	if (v != REPORT_SCHEMA_VERSION) {
		set_err(err, errlen,
			"report '%s': schema_version %.17g is not supported (this build reads "
			"version %d)",
			path, v, REPORT_SCHEMA_VERSION);
		return -1;
	}
	if (!cJSON_IsString(command) || !command->valuestring) {
		set_err(err, errlen, "report '%s': %s", path,
			command ? "command is not a string" : "no command");
		return -1;
	}
	return 0;
}

cJSON *report_read(const char *path, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len_bytes = 0;
	cJSON *root = NULL;

	if (!path || *path == '\0') {
		set_err(err, errlen, "cannot read a report: empty path");
		goto out;
	}
	buf = slurp(path, &len_bytes, err, errlen);
	if (!buf)
		goto out;
	root = parse(path, buf, len_bytes, err, errlen);
	if (root && check_envelope(path, root, err, errlen) != 0) {
		cJSON_Delete(root);
		root = NULL;
	}
out:
	free(buf);
	return root;
}
