/* Terminal-safe text (see report_text.h). */
#include "reports/render/report_text.h"

#include "reports/io/report_read_scan.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

bool report_char_hidden(unsigned code)
{
	return (code >= 0x80 && code <= 0x9f) || (code >= 0x202a && code <= 0x202e) ||
	       (code >= 0x2066 && code <= 0x2069) || code == 0x200e || code == 0x200f ||
	       code == 0x061c || code == 0x2028 || code == 0x2029;
}

/*
 * The piece of output for the character at p (n bytes of left, n >= 1):
 * an escape into esc, or the character itself. Returns its length; *step
 * is how many input bytes it stands for.
 */
static size_t piece(const unsigned char *p, size_t left, char esc[8], const char **text,
                    size_t *step)
{
	size_t n = report_utf8_char_bytes(p, left);
	unsigned code = 0;

	*step = n ? n : 1;
	if (n == 2)
		code = ((p[0] & 0x1fu) << 6) | (p[1] & 0x3fu);
	else if (n == 3)
		code = ((p[0] & 0x0fu) << 12) | ((p[1] & 0x3fu) << 6) | (p[2] & 0x3fu);
	if (n == 0 || (n == 1 && (p[0] < 0x20 || p[0] == 0x7f))) {
		snprintf(esc, 8, "\\x%02x", p[0]);
	} else if (report_char_hidden(code)) {
		snprintf(esc, 8, "\\u%04x", code);
	} else {
		*text = (const char *)p;
		return n;
	}
	*text = esc;
	return strlen(esc);
}

size_t report_escape_text(char *out, size_t outlen, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), need = 0, step;
	bool full = false;
	char esc[8];
	const char *text;

	if (outlen > 0)
		out[0] = '\0';
	for (size_t i = 0; i < len; i += step) {
		size_t k = piece(p + i, len - i, esc, &text, &step);
		if (!full && need + k < outlen) {
			memcpy(out + need, text, k);
			out[need + k] = '\0';
		} else {
			full = true;
		}
		need += k;
	}
	return need;
}

int report_fput_escaped(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), step;
	char esc[8];
	const char *text;

	for (size_t i = 0; i < len; i += step) {
		size_t k = piece(p + i, len - i, esc, &text, &step);
		if (fwrite(text, 1, k, f) != k)
			return -1;
	}
	return 0;
}
