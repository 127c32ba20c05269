/* Helpers of the accept modules: see accept_util.h. */
#include "reports/accept/accept_util.h"

#include "reports/render/report_text.h"
#include "reports/stats/stats.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Kept back at the end of the buffer for "... and N more errors". */
#define TRAILER_BYTES 48

void accept_errs_init(struct accept_errs *e, char *buf, size_t len)
{
	memset(e, 0, sizeof *e);
	e->buf = buf;
	e->len = len;
	if (buf && len)
		buf[0] = '\0';
}

void accept_errs_add(struct accept_errs *e, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	size_t n, room;

	e->count++;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	n = strlen(line) + (e->used ? 1 : 0);
	room = e->len > TRAILER_BYTES ? e->len - TRAILER_BYTES : 0;
	if (!e->buf || e->used + n + 1 > room) {
		e->dropped++;
		return;
	}
	snprintf(e->buf + e->used, e->len - e->used, "%s%s", e->used ? "\n" : "", line);
	e->used += n;
}

int accept_errs_finish(struct accept_errs *e)
{
	if (e->dropped && e->buf && e->len > e->used)
		snprintf(e->buf + e->used, e->len - e->used, "%s... and %d more error%s",
		         e->used ? "\n" : "", e->dropped, e->dropped == 1 ? "" : "s");
	return e->count;
}

void accept_path_init(struct accept_path *p)
{
	p->s[0] = '\0';
	p->len = 0;
}

/* Appends text, printable ASCII only, cut at the buffer's end. */
static void path_append(struct accept_path *p, const char *text)
{
	for (const unsigned char *c = (const unsigned char *)text; *c && p->len < sizeof p->s - 1;
	     c++)
		p->s[p->len++] = *c >= 0x20 && *c < 0x7f ? (char)*c : '?';
	p->s[p->len] = '\0';
}

size_t accept_path_key(struct accept_path *p, const char *key)
{
	size_t old = p->len;

	if (p->len)
		path_append(p, ".");
	path_append(p, key);
	return old;
}

size_t accept_path_index(struct accept_path *p, size_t index)
{
	char at[32];
	size_t old = p->len;

	snprintf(at, sizeof at, "[%zu]", index);
	path_append(p, at);
	return old;
}

void accept_path_cut(struct accept_path *p, size_t len)
{
	if (len < sizeof p->s) {
		p->len = len;
		p->s[len] = '\0';
	}
}

void accept_describe_value(const cJSON *v, char *buf, size_t len)
{
	char text[48];

	if (!v)
		snprintf(buf, len, "nothing");
	else if (cJSON_IsString(v)) {
		bool cut = report_escape_text(text, sizeof text - 3, v->valuestring) >= sizeof text - 3;
		snprintf(buf, len, "\"%s%s\"", text, cut ? "..." : "");
	} else if (cJSON_IsNumber(v))
		snprintf(buf, len, "%.17g", v->valuedouble);
	else if (cJSON_IsTrue(v))
		snprintf(buf, len, "true");
	else if (cJSON_IsFalse(v))
		snprintf(buf, len, "false");
	else if (cJSON_IsNull(v))
		snprintf(buf, len, "null");
	else if (cJSON_IsArray(v))
		snprintf(buf, len, "an array");
	else
		snprintf(buf, len, "an object");
}

bool accept_copy_name(char *dst, size_t size, const char *s)
{
	size_t i = 0;

	if (size == 0)
		return false;
	/* as it is: names that differ in a control character are two names */
	for (; s && s[i] && i < size - 1; i++)
		dst[i] = s[i];
	dst[i] = '\0';
	return !s || s[i] == '\0';
}

int accept_grow(void **items, size_t *cap, size_t n, size_t size)
{
	size_t want = *cap ? *cap : 8;
	void *grown;

	if (n < *cap)
		return 0;
	while (want <= n) {
		if (want > SIZE_MAX / 2 / size)
			return -1;
		want *= 2;
	}
	grown = realloc(*items, want * size);
	if (!grown)
		return -1;
	*items = grown;
	*cap = want;
	return 0;
}

void accept_format_bytes(char *buf, size_t len, unsigned long long bytes)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	int u = 0;
	unsigned long long v = bytes;

	while (u < 4 && v >= 1024 && v % 1024 == 0) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu %s", v, units[u]);
}
