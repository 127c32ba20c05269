/*
 * The page buffer and the escaping of every string that comes from a report
 * (see html.h).
 */
#include "reports/render/html.h"

#include "reports/render/report_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */
#define ELLIPSIS    "\xe2\x80\xa6" /* U+2026 */

void html_buf_init(struct html_buf *b)
{
	memset(b, 0, sizeof *b);
}

void html_buf_release(struct html_buf *b)
{
	free(b->data);
	html_buf_init(b);
}

/* Room for n more bytes and the NUL; false (and failed) when out of memory. */
static bool reserve(struct html_buf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 4096;
	char *grown;

	if (b->failed)
		return false;
	if (n > ((size_t)-1) / 2 - b->len) {
		b->failed = true;
		return false;
	}
	while (cap < b->len + n + 1)
		cap *= 2;
	if (cap == b->cap)
		return true;
	grown = realloc(b->data, cap);
	if (!grown) {
		b->failed = true;
		return false;
	}
	b->data = grown;
	b->cap = cap;
	return true;
}

static void put(struct html_buf *b, const char *s, size_t n)
{
	if (!reserve(b, n))
		return;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void html_raw(struct html_buf *b, const char *s)
{
	put(b, s, strlen(s));
}

void html_rawf(struct html_buf *b, const char *fmt, ...)
{
	char small[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->failed = true;
		return;
	}
	if ((size_t)n < sizeof small) {
		put(b, small, (size_t)n);
		return;
	}
	if (!reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

static bool cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

/*
 * Bytes of the valid UTF-8 character at s (1 to 4), or 0: overlong forms,
 * surrogates, code points over U+10FFFF, cut sequences, and the
 * non-characters U+FFFE and U+FFFF (not allowed in XML) are invalid.
 */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return cont(s[1]) ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		if (!cont(s[1]) || !cont(s[2]) || (c == 0xe0 && s[1] < 0xa0) ||
		    (c == 0xed && s[1] > 0x9f))
			return 0;
		if (c == 0xef && s[1] == 0xbf && (s[2] == 0xbe || s[2] == 0xbf))
			return 0;
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if (!cont(s[1]) || !cont(s[2]) || !cont(s[3]) || (c == 0xf0 && s[1] < 0x90) ||
		    (c == 0xf4 && s[1] > 0x8f))
			return 0;
		return 4;
	}
	return 0;
}

/* The escape of one ASCII byte, or NULL when it stands for itself. */
static const char *escape_of(unsigned char c)
{
	switch (c) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	case '\'': return "&#39;";
	case '\t':
	case '\n': return NULL;
	default: return c < 0x20 || c == 0x7f ? REPLACEMENT : NULL;
	}
}

/* A C1 or bidirectional control, or a line separator (report_char_hidden): not text. */
static bool hidden(const unsigned char *p, size_t n)
{
	if (n == 2)
		return report_char_hidden(((p[0] & 0x1fu) << 6) | (p[1] & 0x3fu));
	return n == 3 &&
	       report_char_hidden(((p[0] & 0x0fu) << 12) | ((p[1] & 0x3fu) << 6) | (p[2] & 0x3fu));
}

void html_text(struct html_buf *b, const char *s, size_t max_bytes)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t used = 0, n;
	const char *esc;

	while (*p) {
		n = utf8_len(p);
		if (max_bytes && used + (n ? n : 1) > max_bytes) {
			html_raw(b, ELLIPSIS);
			return;
		}
		esc = n == 1 ? escape_of(*p) : n == 0 || hidden(p, n) ? REPLACEMENT : NULL;
		if (esc)
			html_raw(b, esc);
		else
			put(b, (const char *)p, n);
		p += n ? n : 1;
		used += n ? n : 1;
	}
}
