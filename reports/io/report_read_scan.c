/*
 * The grammar pass over a report's text (see report_read_scan.h). An
 * explicit stack of the open arrays and objects replaces recursion; every
 * refusal records the byte offset where it happened.
 */
#include "reports/io/report_read_scan.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* What the pass expects next. */
enum expect { VALUE, MEMBER_NAME, COLON, AFTER_VALUE };

struct cursor {
	const unsigned char *p;
	size_t len, i;
	struct report_scan *s;
};

__attribute__((format(printf, 4, 5))) static int
refuse(struct cursor *c, enum report_scan_kind kind, size_t offset, const char *fmt, ...)
{
	va_list ap;

	c->s->kind = kind;
	c->s->offset = offset;
	va_start(ap, fmt);
	vsnprintf(c->s->reason, sizeof c->s->reason, fmt, ap);
	va_end(ap);
	return -1;
}

static int truncated(struct cursor *c)
{
	return refuse(c, REPORT_SCAN_TRUNCATED, c->len, "truncated");
}

/* A byte that does not belong where it is: its character when printable. */
static int unexpected(struct cursor *c, const char *expected)
{
	unsigned char b = c->p[c->i];

	if (b == 0)
		return refuse(c, REPORT_SCAN_NUL_BYTE, c->i, "NUL byte");
	if (b > 0x20 && b < 0x7f)
		return refuse(c, REPORT_SCAN_INVALID, c->i, "unexpected '%c'%s%s", b,
		              expected ? ", expected " : "", expected ? expected : "");
	return refuse(c, REPORT_SCAN_INVALID, c->i, "unexpected byte 0x%02x%s%s", b,
	              expected ? ", expected " : "", expected ? expected : "");
}

static bool at_end(const struct cursor *c)
{
	return c->i >= c->len;
}

/* RFC 8259 white space only: cJSON also skips every other byte below 0x21. */
static void skip_ws(struct cursor *c)
{
	while (!at_end(c) && (c->p[c->i] == ' ' || c->p[c->i] == '\t' || c->p[c->i] == '\n' ||
	                      c->p[c->i] == '\r'))
		c->i++;
}

static bool is_digit(unsigned char b)
{
	return b >= '0' && b <= '9';
}

size_t report_utf8_char_bytes(const unsigned char *p, size_t left)
{
	unsigned char b = left ? p[0] : 0;
	size_t n;
	unsigned char lo = 0x80, hi = 0xbf; /* the range of the second byte */

	if (left == 0)
		return 0;
	if (b < 0x80)
		return 1;
	if (b >= 0xc2 && b <= 0xdf)
		n = 2;
	else if (b >= 0xe0 && b <= 0xef)
		n = 3;
	else if (b >= 0xf0 && b <= 0xf4)
		n = 4;
	else
		return 0; /* a continuation byte, an overlong lead (c0, c1), or beyond U+10FFFF */
	if (b == 0xe0)
		lo = 0xa0; /* overlong */
	else if (b == 0xed)
		hi = 0x9f; /* surrogates */
	else if (b == 0xf0)
		lo = 0x90; /* overlong */
	else if (b == 0xf4)
		hi = 0x8f; /* beyond U+10FFFF */
	if (left < n || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t k = 2; k < n; k++)
		if (p[k] < 0x80 || p[k] > 0xbf)
			return 0;
	return n;
}

/* True when the left bytes at p begin a UTF-8 character that the end of the input cuts. */
static bool utf8_cut_short(const unsigned char *p, size_t left)
{
	size_t n = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : 2;

	if (p[0] < 0xc2 || p[0] > 0xf4 || left >= n)
		return false;
	for (size_t k = 1; k < left; k++)
		if (p[k] < 0x80 || p[k] > 0xbf)
			return false;
	return true;
}

static int hex4(struct cursor *c, size_t at, unsigned *code)
{
	*code = 0;
	for (size_t k = 0; k < 4; k++) {
		unsigned char h = c->p[at + k];
		unsigned v = is_digit(h) ? (unsigned)(h - '0')
		             : (h | 0x20) >= 'a' && (h | 0x20) <= 'f'
		                 ? (unsigned)((h | 0x20) - 'a' + 10)
		                 : 16u;
		if (v == 16)
			return refuse(c, REPORT_SCAN_INVALID, at - 2,
			              "a \\u escape without four hex digits");
		*code = *code * 16 + v;
	}
	return 0;
}

/* \uXXXX at c->i (the backslash), with the second half of a surrogate pair. */
static int unicode_escape(struct cursor *c)
{
	size_t at = c->i;
	unsigned code, low;

	if (c->len - at < 6)
		return truncated(c);
	if (hex4(c, at + 2, &code) != 0)
		return -1;
	if (code == 0)
		return refuse(c, REPORT_SCAN_NUL_ESCAPE, at, "\\u0000");
	if (code >= 0xdc00 && code <= 0xdfff)
		return refuse(c, REPORT_SCAN_INVALID, at,
		              "\\u%04x, the second half of a surrogate pair, alone", code);
	if (code >= 0xd800 && code <= 0xdbff) {
		size_t left = c->len - at;
		bool pair = left >= 8 && c->p[at + 6] == '\\' && c->p[at + 7] == 'u';
		if (!pair && (left == 6 || (left == 7 && c->p[at + 6] == '\\')))
			return truncated(c);
		if (pair && left < 12)
			return truncated(c);
		if (!pair || hex4(c, at + 8, &low) != 0 || low < 0xdc00 || low > 0xdfff)
			return refuse(c, REPORT_SCAN_INVALID, at,
			              "\\u%04x, the first half of a surrogate pair, alone", code);
		c->i += 12;
		return 0;
	}
	c->i += 6;
	return 0;
}

static int string(struct cursor *c)
{
	size_t start = ++c->i;

	for (;;) {
		if (at_end(c))
			return truncated(c);
		unsigned char b = c->p[c->i];
		if (b == '"')
			break;
		if (b == '\\') {
			if (c->len - c->i < 2)
				return truncated(c);
			if (c->p[c->i + 1] == 'u') {
				if (unicode_escape(c) != 0)
					return -1;
				continue;
			}
			if (!strchr("\"\\/bfnrt", c->p[c->i + 1]) || c->p[c->i + 1] == 0)
				return refuse(c, REPORT_SCAN_INVALID, c->i,
				              "an escape that json does not have (backslash and "
				              "byte 0x%02x)",
				              c->p[c->i + 1]);
			c->i += 2;
		} else if (b < 0x20) {
			if (b == 0)
				return refuse(c, REPORT_SCAN_NUL_BYTE, c->i, "NUL byte");
			return refuse(c, REPORT_SCAN_INVALID, c->i,
			              "a control character (byte 0x%02x) in a string, where json "
			              "wants it escaped",
			              b);
		} else {
			size_t n = report_utf8_char_bytes(c->p + c->i, c->len - c->i);
			if (n == 0 && utf8_cut_short(c->p + c->i, c->len - c->i))
				return truncated(c);
			if (n == 0)
				return refuse(c, REPORT_SCAN_INVALID, c->i,
				              "invalid UTF-8 (byte 0x%02x) in a string", b);
			c->i += n;
		}
	}
	c->s->strings++;
	c->s->string_bytes += c->i - start;
	c->i++;
	return 0;
}

/* NaN, Infinity, -Infinity (any case): what other writers put where JSON has no number. */
static bool is_nan_or_inf(const struct cursor *c)
{
	size_t i = c->i;

	if (i < c->len && (c->p[i] == '-' || c->p[i] == '+'))
		i++;
	if (i < c->len && (c->p[i] | 0x20) != 'n' && (c->p[i] | 0x20) != 'i')
		return false;
	return c->len - i >= 3 && (strncasecmp((const char *)c->p + i, "nan", 3) == 0 ||
	                           strncasecmp((const char *)c->p + i, "inf", 3) == 0);
}

/* Digits at c->i, at least one; what names the part for the refusal. */
static int digits(struct cursor *c, size_t start, const char *what)
{
	if (at_end(c))
		return truncated(c);
	if (!is_digit(c->p[c->i]))
		return refuse(c, REPORT_SCAN_INVALID, start, "a number with no digit %s", what);
	while (!at_end(c) && is_digit(c->p[c->i]))
		c->i++;
	return 0;
}

/* number = [ "-" ] ( "0" / 1-9 *DIGIT ) [ "." 1*DIGIT ] [ ( "e" / "E" ) [ "-" / "+" ] 1*DIGIT ] */
static int number(struct cursor *c)
{
	size_t start = c->i;

	if (c->p[c->i] == '-')
		c->i++;
	if (!at_end(c) && c->p[c->i] == '0' && c->len - c->i > 1 && is_digit(c->p[c->i + 1]))
		return refuse(c, REPORT_SCAN_INVALID, start, "a number with a leading zero");
	if (!at_end(c) && c->p[c->i] == '0')
		c->i++;
	else if (digits(c, start, "after its sign") != 0)
		return -1;
	if (!at_end(c) && c->p[c->i] == '.') {
		c->i++;
		if (digits(c, start, "after its decimal point") != 0)
			return -1;
	}
	if (!at_end(c) && (c->p[c->i] == 'e' || c->p[c->i] == 'E')) {
		c->i++;
		if (!at_end(c) && (c->p[c->i] == '-' || c->p[c->i] == '+'))
			c->i++;
		if (digits(c, start, "in its exponent") != 0)
			return -1;
	}
	if (c->i - start > REPORT_SCAN_NUMBER_MAX_CHARS)
		return refuse(c, REPORT_SCAN_INVALID, start,
		              "a number of %zu characters (collscope reads at most %d)",
		              c->i - start, REPORT_SCAN_NUMBER_MAX_CHARS);
	return 0;
}

static int literal(struct cursor *c)
{
	static const char *const words[] = {"true", "false", "null"};

	for (size_t w = 0; w < 3; w++) {
		size_t n = strlen(words[w]), left = c->len - c->i;
		if (c->p[c->i] != (unsigned char)words[w][0])
			continue;
		if (left >= n && memcmp(c->p + c->i, words[w], n) == 0) {
			c->i += n;
			return 0;
		}
		if (left < n && memcmp(c->p + c->i, words[w], left) == 0)
			return truncated(c);
	}
	return unexpected(c, "a value");
}

/* One scalar, or the opening of an array or object (pushed on stack). */
static int value(struct cursor *c, char *stack, size_t *depth, enum expect *next)
{
	unsigned char b = c->p[c->i];

	c->s->values++;
	*next = AFTER_VALUE;
	if (b == '{' || b == '[') {
		if (*depth >= CJSON_NESTING_LIMIT)
			return refuse(c, REPORT_SCAN_TOO_DEEP, c->i, "nested too deep");
		stack[(*depth)++] = (char)b;
		c->i++;
		skip_ws(c);
		if (!at_end(c) && c->p[c->i] == (b == '{' ? '}' : ']')) {
			(*depth)--; /* empty */
			c->i++;
			return 0;
		}
		*next = b == '{' ? MEMBER_NAME : VALUE;
		return 0;
	}
	if (b == '"')
		return string(c);
	if (is_nan_or_inf(c))
		return refuse(c, REPORT_SCAN_NAN_INF, c->i, "NaN or Infinity");
	if (b == '-' || is_digit(b))
		return number(c);
	if (b == '+')
		return refuse(c, REPORT_SCAN_INVALID, c->i, "a number with a '+' sign");
	return literal(c);
}

/* After a value inside a container: a comma, or the container's end. */
static int after_value(struct cursor *c, char *stack, size_t *depth, enum expect *next)
{
	char open = stack[*depth - 1];

	if (c->p[c->i] == ',') {
		c->i++;
		*next = open == '{' ? MEMBER_NAME : VALUE;
		return 0;
	}
	if (c->p[c->i] == (open == '{' ? '}' : ']')) {
		c->i++;
		(*depth)--;
		*next = AFTER_VALUE;
		return 0;
	}
	return unexpected(c, open == '{' ? "',' or '}'" : "',' or ']'");
}

int report_scan_json(const char *buf, size_t len_bytes, struct report_scan *s)
{
	char stack[CJSON_NESTING_LIMIT];
	struct cursor c = {(const unsigned char *)buf, len_bytes, 0, s};
	enum expect next = VALUE;
	size_t depth = 0;
	int rc = 0;

	memset(s, 0, sizeof *s);
	if (len_bytes >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		c.i = 3;
	while (rc == 0) {
		skip_ws(&c);
		if (at_end(&c))
			return next == AFTER_VALUE && depth == 0 ? 0 : truncated(&c);
		switch (next) {
		case VALUE: rc = value(&c, stack, &depth, &next); break;
		case MEMBER_NAME:
			rc = c.p[c.i] == '"' ? string(&c)
			                     : unexpected(&c, "a member name (a string)");
			next = COLON;
			break;
		case COLON:
			rc = c.p[c.i] == ':' ? 0 : unexpected(&c, "':'");
			c.i++;
			next = VALUE;
			break;
		case AFTER_VALUE:
			rc = depth == 0 ? unexpected(&c, "nothing after the document")
			                : after_value(&c, stack, &depth, &next);
			break;
		}
	}
	return -1;
}

size_t report_scan_tree_bytes(const struct report_scan *s)
{
	size_t nodes = s->values, strings = s->strings, total;

	if (nodes > SIZE_MAX / 4 / REPORT_TREE_NODE_BYTES ||
	    strings > SIZE_MAX / 4 / REPORT_TREE_STRING_BYTES)
		return SIZE_MAX;
	total = nodes * REPORT_TREE_NODE_BYTES + REPORT_TREE_PASSING_BYTES;
	if (total > SIZE_MAX - strings * REPORT_TREE_STRING_BYTES - s->string_bytes)
		return SIZE_MAX;
	return total + strings * REPORT_TREE_STRING_BYTES + s->string_bytes;
}
