/*
 * The page oracle of the fuzzer (see page_check.h): a small XML reader
 * with the vocabulary of collscope's pages, strict where an escaping bug
 * would show.
 */
#include "page_check.h"

#include "reports/io/report_read_scan.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define DEPTH_MAX 64

/* The oracle is not what the fuzzer explores: no coverage feedback from it (and 5x faster). */
#if defined(__clang__)
#define ORACLE __attribute__((no_sanitize("coverage")))
#else
#define ORACLE
#endif

static const char *const elements[] = {
    "html",    "head",    "meta", "title", "style", "body", "h1",     "h2",     "h3",   "h4",
    "p",       "table",   "tr",   "th",    "td",    "div",  "code",   "strong", "a",    "section",
    "details", "summary", "svg",  "g",     "line",  "rect", "circle", "path",   "text", NULL,
};
static const char *const attributes[] = {
    "lang",        "charset",   "name",   "content",      "class",
    "id",          "href",      "width",  "height",       "viewBox",
    "role",        "x",         "y",      "x1",           "y1",
    "x2",          "y2",        "cx",     "cy",           "r",
    "d",           "fill",      "stroke", "stroke-width", "stroke-dasharray",
    "text-anchor", "transform", NULL,
};

struct reader {
	const char *p;
	size_t len, i;
	char *why;
	size_t whylen;
};

ORACLE __attribute__((format(printf, 2, 3))) static int bad(struct reader *r, const char *fmt, ...)
{
	char what[160];
	va_list ap;
	size_t from = r->i > 40 ? r->i - 40 : 0;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	snprintf(r->why, r->whylen, "%s at byte %zu, after '%.*s'", what, r->i, (int)(r->i - from),
	         r->p + from);
	return -1;
}

ORACLE static bool known(const char *const *list, const char *s, size_t n)
{
	for (size_t k = 0; list[k]; k++)
		if (strlen(list[k]) == n && memcmp(list[k], s, n) == 0)
			return true;
	return false;
}

ORACLE static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-';
}

ORACLE static size_t name_len(const struct reader *r)
{
	size_t n = 0;

	while (r->i + n < r->len && name_char(r->p[r->i + n]))
		n++;
	return n;
}

/* &amp; &lt; &gt; &quot; &#39; &#NNN; &#xHH; */
ORACLE static int entity(struct reader *r)
{
	static const char *const named[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;", NULL};
	size_t left = r->len - r->i, k = 2;

	for (size_t e = 0; named[e]; e++)
		if (left >= strlen(named[e]) &&
		    memcmp(r->p + r->i, named[e], strlen(named[e])) == 0) {
			r->i += strlen(named[e]);
			return 0;
		}
	if (left > 3 && r->p[r->i + 1] == '#') {
		bool hex = r->p[r->i + 2] == 'x';
		k += hex;
		size_t digits = 0;
		while (r->i + k < r->len && ((r->p[r->i + k] >= '0' && r->p[r->i + k] <= '9') ||
		                             (hex && ((r->p[r->i + k] | 0x20) >= 'a' &&
		                                      (r->p[r->i + k] | 0x20) <= 'f')))) {
			k++;
			digits++;
		}
		if (digits > 0 && r->i + k < r->len && r->p[r->i + k] == ';') {
			r->i += k + 1;
			return 0;
		}
	}
	return bad(r, "an '&' that is not an entity");
}

/* Text up to the next '<' (or until "</style>" inside a style element). */
ORACLE static int text(struct reader *r, bool in_style)
{
	while (r->i < r->len && r->p[r->i] != '<') {
		if (r->p[r->i] == '&' && !in_style) {
			if (entity(r) != 0)
				return -1;
		} else {
			r->i++;
		}
	}
	return 0;
}

ORACLE static int attribute_value(struct reader *r, bool href)
{
	if (r->i >= r->len || r->p[r->i] != '"')
		return bad(r, "an attribute value without quotes");
	r->i++;
	if (href && (r->i >= r->len || r->p[r->i] != '#'))
		return bad(r, "an href that leaves the page");
	while (r->i < r->len && r->p[r->i] != '"') {
		if (r->p[r->i] == '<')
			return bad(r, "a '<' in an attribute value");
		if (r->p[r->i] == '&') {
			if (entity(r) != 0)
				return -1;
		} else {
			r->i++;
		}
	}
	if (r->i >= r->len)
		return bad(r, "an attribute value left open");
	r->i++;
	return 0;
}

/* After "<name": attributes, then ">" or "/>"; *empty for the latter. */
ORACLE static int attributes_of(struct reader *r, bool *empty)
{
	for (;;) {
		while (r->i < r->len && (r->p[r->i] == ' ' || r->p[r->i] == '\n'))
			r->i++;
		if (r->i >= r->len)
			return bad(r, "a tag left open");
		if (r->p[r->i] == '>' ||
		    (r->p[r->i] == '/' && r->i + 1 < r->len && r->p[r->i + 1] == '>')) {
			*empty = r->p[r->i] == '/';
			r->i += *empty ? 2 : 1;
			return 0;
		}
		size_t n = name_len(r);
		if (n == 0 || !known(attributes, r->p + r->i, n))
			return bad(r, "an attribute collscope does not write ('%.*s')",
			           (int)(n ? n : 1), r->p + r->i);
		bool href = n == 4 && memcmp(r->p + r->i, "href", 4) == 0;
		r->i += n;
		if (r->i >= r->len || r->p[r->i] != '=')
			return bad(r, "an attribute without a value");
		r->i++;
		if (attribute_value(r, href) != 0)
			return -1;
	}
}

ORACLE static int markup(struct reader *r)
{
	const char *open[DEPTH_MAX];
	size_t open_len[DEPTH_MAX], depth = 0;
	bool empty;

	while (r->i < r->len) {
		bool in_style = depth > 0 && open_len[depth - 1] == 5 &&
		                memcmp(open[depth - 1], "style", 5) == 0;
		if (text(r, in_style) != 0)
			return -1;
		if (r->i >= r->len)
			break;
		r->i++; /* '<' */
		bool closing = r->i < r->len && r->p[r->i] == '/';
		r->i += closing;
		size_t n = name_len(r);
		if (n == 0 || !known(elements, r->p + r->i, n))
			return bad(r, "an element collscope does not write ('%.*s')",
			           (int)(n ? n : 1), r->p + r->i);
		const char *name = r->p + r->i;
		r->i += n;
		if (closing) {
			if (depth == 0 || open_len[depth - 1] != n ||
			    memcmp(open[depth - 1], name, n) != 0)
				return bad(r, "a closing tag that closes nothing open");
			if (r->i >= r->len || r->p[r->i] != '>')
				return bad(r, "a closing tag left open");
			r->i++;
			depth--;
			continue;
		}
		if (attributes_of(r, &empty) != 0)
			return -1;
		if (empty)
			continue;
		if (depth == DEPTH_MAX)
			return bad(r, "elements nested deeper than %d", DEPTH_MAX);
		open[depth] = name;
		open_len[depth++] = n;
	}
	return depth == 0 ? 0 : bad(r, "%zu elements left open", depth);
}

ORACLE int page_check(const char *page, size_t len, char *why, size_t whylen)
{
	static const char doctype[] = "<!DOCTYPE html>\n";
	struct reader r = {page, len, 0, why, whylen};

	for (size_t i = 0; i < len;) {
		size_t n = report_utf8_char_bytes((const unsigned char *)page + i, len - i);
		unsigned char b = (unsigned char)page[i];
		r.i = i;
		if (n == 0)
			return bad(&r, "invalid UTF-8");
		if (n == 1 && (b < 0x20 || b == 0x7f) && b != '\n' && b != '\t')
			return bad(&r, "a control character (0x%02x)", b);
		i += n;
	}
	r.i = 0;
	if (len < sizeof doctype - 1 || memcmp(page, doctype, sizeof doctype - 1) != 0)
		return bad(&r, "no doctype");
	r.i = sizeof doctype - 1;
	return markup(&r);
}

ORACLE int terminal_check(const char *text, size_t len, char *why, size_t whylen)
{
	struct reader r = {text, len, 0, why, whylen};

	for (size_t i = 0; i < len;) {
		size_t n = report_utf8_char_bytes((const unsigned char *)text + i, len - i);
		unsigned char b = (unsigned char)text[i];
		r.i = i;
		if (n == 0)
			return bad(&r, "invalid UTF-8 (0x%02x) for a terminal", b);
		if (n == 1 && (b < 0x20 || b == 0x7f) && b != '\n')
			return bad(&r, "a control character (0x%02x) for a terminal", b);
		if (n == 2 && b == 0xc2 && (unsigned char)text[i + 1] < 0xa0)
			return bad(&r, "a C1 control for a terminal");
		i += n;
	}
	return 0;
}
