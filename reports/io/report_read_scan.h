/*
 * The first pass over a report's text, before cJSON sees it: the JSON
 * grammar of RFC 8259 checked exactly (cJSON accepts 01, 1., +1, raw control
 * characters, any byte below 0x21 as white space and invalid UTF-8), the
 * limits of cJSON made explicit (nesting, a number's length, \u0000), and
 * the counts that tell what the parsed tree will cost before it is built.
 * Pure: no allocation, no I/O, no recursion; one linear pass.
 */
#ifndef COLLSCOPE_REPORT_READ_SCAN_H
#define COLLSCOPE_REPORT_READ_SCAN_H

#include <stdbool.h>
#include <stddef.h>

/* cJSON copies a number into a buffer of 64 bytes: longer ones it cannot read. */
#define REPORT_SCAN_NUMBER_MAX_CHARS 63

/* What a refusal is, where its message needs more than the reason. */
enum report_scan_kind {
	REPORT_SCAN_OK,
	REPORT_SCAN_TRUNCATED,  /* the input ends inside the document */
	REPORT_SCAN_NUL_BYTE,   /* a byte 0 (cJSON would stop there) */
	REPORT_SCAN_NUL_ESCAPE, /* \u0000 in a string (cJSON would cut the string there) */
	REPORT_SCAN_NAN_INF,    /* NaN, Infinity, -Infinity as a value */
	REPORT_SCAN_TOO_DEEP,   /* more than CJSON_NESTING_LIMIT nested arrays and objects */
	REPORT_SCAN_INVALID,    /* anything else against the grammar; reason says what */
};

struct report_scan {
	/* counts of an accepted document */
	size_t values;       /* every value: objects, arrays, strings, numbers, literals */
	size_t strings;      /* string values and member names */
	size_t string_bytes; /* their bytes between the quotes, escapes as written */
	/* a refusal */
	enum report_scan_kind kind;
	size_t offset;   /* of the problem: the byte, or where the number or escape starts */
	char reason[96]; /* REPORT_SCAN_INVALID: "a number with a leading zero", ... */
};

/*
 * Scans buf (len_bytes bytes; a byte 0 inside is refused, not taken as the
 * end). A UTF-8 byte order mark at the start is skipped, as cJSON does.
 * Returns 0 with the counts, or -1 with kind, offset and reason set.
 * Refused besides the grammar: nesting deeper than CJSON_NESTING_LIMIT, a
 * number longer than REPORT_SCAN_NUMBER_MAX_CHARS, \u0000, and an escape of
 * half a surrogate pair (no character: cJSON refuses it too).
 */
int report_scan_json(const char *buf, size_t len_bytes, struct report_scan *s);

/*
 * An upper bound of the heap that cJSON's tree of an accepted document takes
 * with glibc's malloc: REPORT_TREE_NODE_BYTES for each value (a node of 64
 * bytes in its chunk of 80) and, for each string and member name, its bytes
 * plus REPORT_TREE_STRING_BYTES (the quote and NUL cJSON allocates with it,
 * the chunk's header and rounding: at most 32 bytes), and once
 * REPORT_TREE_PASSING_BYTES for the copy of a number that Debian's cJSON
 * allocates and frees while it reads the number. Saturates at SIZE_MAX.
 */
#define REPORT_TREE_NODE_BYTES    80
#define REPORT_TREE_STRING_BYTES  32
#define REPORT_TREE_PASSING_BYTES 128
size_t report_scan_tree_bytes(const struct report_scan *s);

/*
 * The length (1 to 4) of the well-formed UTF-8 character at p, of at most
 * left bytes (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF),
 * or 0 when the bytes there are not one.
 */
size_t report_utf8_char_bytes(const unsigned char *p, size_t left);

#endif
