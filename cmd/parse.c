/*
 * Parsing of command-line values (see parse.h). The grammar is checked by
 * hand before any libc conversion, because strtoull and strtod are too
 * lenient for a benchmark's options: they skip leading blanks, take signs
 * ("-1" becomes 2^64 - 1), hex, "inf" and "nan".
 */
#include "cmd/parse.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char **why, const char *reason)
{
	if (why)
		*why = reason;
	return -1;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

/*
 * Reads the leading decimal digits of s into *out. *end is left at the first
 * character that is not a digit. Returns 0, or -1 with *why set when s does
 * not start with a digit or the number does not fit in 64 bits.
 */
static int read_digits(const char *s, uint64_t *out, const char **end, const char **why)
{
	uint64_t v = 0;

	if (!s || *s == '\0')
		return fail(why, "empty value");
	if (*s == '-' || *s == '+')
		return fail(why, "signs are not accepted");
	if (!is_digit(*s))
		return fail(why, "not a number");
	for (; is_digit(*s); s++) {
		unsigned d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return fail(why, "out of range");
		v = v * 10 + d;
	}
	*out = v;
	*end = s;
	return 0;
}

/*
 * The binary shift of a size suffix: "" or "B" is 0, then K/M/G/T optionally
 * followed by "i" and/or "B" (KB, KiB, Ki), any case. Returns -1 otherwise.
 */
static int suffix_shift(const char *s)
{
	static const char letters[] = "kmgt";
	const char *hit;
	int shift = 0;

	if (*s != '\0' && lower(*s) != 'b') {
		hit = strchr(letters, lower(*s));
		if (!hit)
			return -1;
		shift = 10 * (int)(hit - letters + 1);
		s++;
		if (lower(*s) == 'i')
			s++;
	}
	if (lower(*s) == 'b')
		s++;
	return *s == '\0' ? shift : -1;
}

int parse_bytes(const char *s, uint64_t *out, const char **why)
{
	uint64_t v;
	const char *end;
	int shift;

	if (read_digits(s, &v, &end, why) != 0)
		return -1;
	if (*end == '.' || *end == ',')
		return fail(why, "not a whole number");
	if (lower(*end) == 'x' && v == 0)
		return fail(why, "hexadecimal is not accepted");
	shift = suffix_shift(end);
	if (shift < 0)
		return fail(why, "unknown suffix (use K, M, G or T)");
	if (shift > 0 && v > (UINT64_MAX >> shift))
		return fail(why, "out of range");
	*out = v << shift;
	return 0;
}

int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out, const char **why)
{
	uint64_t v;
	const char *end;

	if (read_digits(s, &v, &end, why) != 0)
		return -1;
	if (*end != '\0')
		return fail(why, "not a whole number");
	if (v < min || v > max)
		return fail(why, "out of range");
	*out = v;
	return 0;
}

/*
 * True when s is a plain decimal number: [+-] digits [. digits] [e [+-] digits]
 * with at least one mantissa digit. Rejects blanks, hex, inf and nan, which
 * strtod would accept.
 */
static bool is_decimal(const char *s)
{
	size_t mantissa_digits = 0;

	if (*s == '+' || *s == '-')
		s++;
	for (; is_digit(*s); s++)
		mantissa_digits++;
	if (*s == '.')
		for (s++; is_digit(*s); s++)
			mantissa_digits++;
	if (mantissa_digits == 0)
		return false;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!is_digit(*s))
			return false;
		while (is_digit(*s))
			s++;
	}
	return *s == '\0';
}

int parse_double(const char *s, double min, double max, double *out, const char **why)
{
	char *end = NULL;
	double v;

	if (!s || *s == '\0')
		return fail(why, "empty value");
	if (!is_decimal(s))
		return fail(why, "not a decimal number");
	errno = 0;
	v = strtod(s, &end);
	/* A locale whose decimal point is not '.' stops strtod early. */
	if (*end != '\0')
		return fail(why, "not a decimal number");
	/* ERANGE: overflow to inf, or underflow to a denormal or zero. */
	if (errno == ERANGE || !isfinite(v))
		return fail(why, "out of range");
	if (!(v >= min && v <= max))
		return fail(why, "out of range");
	*out = v;
	return 0;
}

int parse_list(char *buf, char **items, int max_items, const char **why)
{
	int count = 1;
	char *p;

	if (!buf || max_items <= 0)
		return fail(why, "empty list");
	/* Validate first, so a rejected list leaves buf untouched. */
	for (p = buf; *p; p++)
		if (*p == ',') {
			if (p == buf || p[1] == '\0' || p[1] == ',')
				return fail(why, "empty item in list");
			count++;
		}
	if (p == buf)
		return fail(why, "empty list");
	if (count > max_items)
		return fail(why, "too many items in list");
	items[0] = buf;
	count = 1;
	for (p = buf; *p; p++)
		if (*p == ',') {
			*p = '\0';
			items[count++] = p + 1;
		}
	return count;
}
