/*
 * The grammar pass before cJSON: RFC 8259 exactly (what cJSON lets through
 * is refused with its byte offset), UTF-8 in strings, cJSON's own limits,
 * and the counts the memory estimate is made of.
 */
#include "reports/io/report_read_scan.h"

#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

static struct report_scan scan_of(const char *text, size_t len, int want_rc)
{
	struct report_scan s;
	int rc = report_scan_json(text, len, &s);

	cr_assert_eq(rc, want_rc, "'%s': rc %d (%s at %zu)", text, rc, s.reason, s.offset);
	return s;
}

#define ACCEPT(text) scan_of(text, sizeof text - 1, 0)

static void refused(const char *text, enum report_scan_kind kind, size_t offset, const char *word)
{
	struct report_scan s = scan_of(text, strlen(text), -1);

	cr_assert_eq(s.kind, kind, "'%s': kind %d, expected %d (%s)", text, s.kind, kind, s.reason);
	cr_assert_eq(s.offset, offset, "'%s': offset %zu, expected %zu (%s)", text, s.offset,
	             offset, s.reason);
	cr_assert_not_null(strstr(s.reason, word), "'%s': reason '%s' lacks '%s'", text, s.reason,
	                   word);
}

Test(report_read_scan, accepts_json)
{
	static const char *const ok[] = {
	    "{}",
	    "[]",
	    " {\"a\": [1, -0, 0.5, -1.25e+10, 2E-3, 1e5, true, false, null]} ",
	    "{\"\": \"\", \"k\": {\"n\": [[], {}]}}",
	    "\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\"",
	    "\"\\u00e9 \\uD83D\\uDE00 \\uFFFF\"",
	    "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"",
	    "\xef\xbb\xbf{}",
	    "0",
	    "\t\r\n[0]\n",
	    "\"\x7f\"",
	};

	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		scan_of(ok[i], strlen(ok[i]), 0);
		cJSON *root = cJSON_ParseWithLength(ok[i], strlen(ok[i]));
		cr_assert_not_null(root, "cJSON reads what the pass accepts: '%s'", ok[i]);
		cJSON_Delete(root);
	}
}

Test(report_read_scan, refuses_numbers_json_does_not_have)
{
	refused("{\"a\": 01}", REPORT_SCAN_INVALID, 6, "leading zero");
	refused("{\"a\": -01}", REPORT_SCAN_INVALID, 6, "leading zero");
	refused("{\"a\": 1.}", REPORT_SCAN_INVALID, 6, "after its decimal point");
	refused("{\"a\": .5}", REPORT_SCAN_INVALID, 6, "unexpected '.'");
	refused("{\"a\": 1e}", REPORT_SCAN_INVALID, 6, "in its exponent");
	refused("{\"a\": 1e+}", REPORT_SCAN_INVALID, 6, "in its exponent");
	refused("{\"a\": -}", REPORT_SCAN_INVALID, 6, "after its sign");
	refused("{\"a\": +1}", REPORT_SCAN_INVALID, 6, "'+' sign");
	refused("{\"a\": 0x10}", REPORT_SCAN_INVALID, 7, "unexpected 'x'");
	refused("[1 2]", REPORT_SCAN_INVALID, 3, "expected ',' or ']'");
	refused("{\"a\": NaN}", REPORT_SCAN_NAN_INF, 6, "NaN");
	refused("[-Infinity]", REPORT_SCAN_NAN_INF, 1, "Infinity");
	refused("[inf]", REPORT_SCAN_NAN_INF, 1, "Infinity");
	char longnum[100] = "[1";
	memset(longnum + 2, '0', 63);
	strcat(longnum, "]");
	refused(longnum, REPORT_SCAN_INVALID, 1, "at most 63");
	longnum[64] = ']';
	longnum[65] = '\0';
	scan_of(longnum, strlen(longnum), 0); /* 63 characters: cJSON reads them */
}

Test(report_read_scan, refuses_invalid_utf8_with_its_offset)
{
	refused("{\"a\": \"x\xff\"}", REPORT_SCAN_INVALID, 8, "invalid UTF-8 (byte 0xff)");
	refused("[\"\xc0\xaf\"]", REPORT_SCAN_INVALID, 2, "invalid UTF-8");     /* overlong '/' */
	refused("[\"\xe0\x80\xaf\"]", REPORT_SCAN_INVALID, 2, "invalid UTF-8"); /* overlong */
	refused("[\"\xed\xa0\x80\"]", REPORT_SCAN_INVALID, 2, "invalid UTF-8"); /* a surrogate */
	refused("[\"\xf4\x90\x80\x80\"]", REPORT_SCAN_INVALID, 2, "invalid UTF-8"); /* > U+10FFFF */
	refused("[\"a\x80\"]", REPORT_SCAN_INVALID, 3, "invalid UTF-8"); /* continuation */
	refused("[\"\xc3(\"]", REPORT_SCAN_INVALID, 2, "invalid UTF-8");
	refused("[\xc3\xa9]", REPORT_SCAN_INVALID, 1, "unexpected byte 0xc3");
	refused("[\"\xe2\x82", REPORT_SCAN_TRUNCATED, 4, "truncated");
}

Test(report_read_scan, refuses_what_cjson_lets_through)
{
	refused("{\"a\": \"tab\there\"}", REPORT_SCAN_INVALID, 10, "control character (byte 0x09)");
	refused("{\"a\":\x01 1}", REPORT_SCAN_INVALID, 5, "unexpected byte 0x01");
	refused("{\"a\": 1,}", REPORT_SCAN_INVALID, 8, "unexpected '}'");
	refused("[1,]", REPORT_SCAN_INVALID, 3, "unexpected ']'");
	refused("{\"a\" 1}", REPORT_SCAN_INVALID, 5, "expected ':'");
	refused("{1: 2}", REPORT_SCAN_INVALID, 1, "member name");
	refused("{} {}", REPORT_SCAN_INVALID, 3, "nothing after the document");
	refused("[\"\\x\"]", REPORT_SCAN_INVALID, 2, "escape that json does not have");
	refused("[\"\\u12G4\"]", REPORT_SCAN_INVALID, 2, "four hex digits");
	refused("[\"\\ud800\"]", REPORT_SCAN_INVALID, 2, "first half of a surrogate pair");
	refused("[\"\\ud800\\u0041\"]", REPORT_SCAN_INVALID, 2, "first half");
	refused("[\"\\udc00\"]", REPORT_SCAN_INVALID, 2, "second half");
	refused("[\"a\\u0000b\"]", REPORT_SCAN_NUL_ESCAPE, 3, "u0000");
	refused("[tru]", REPORT_SCAN_INVALID, 1, "unexpected 't'");
	refused("[nul", REPORT_SCAN_TRUNCATED, 4, "truncated");
	refused("{\"a\": [1, 2", REPORT_SCAN_TRUNCATED, 11, "truncated");
	refused("{\"a\": \"open", REPORT_SCAN_TRUNCATED, 11, "truncated");
	refused("[\"\\u00", REPORT_SCAN_TRUNCATED, 6, "truncated");
	refused("", REPORT_SCAN_TRUNCATED, 0, "truncated");
	struct report_scan s = scan_of("[1, \0 2]", 8, -1);
	cr_assert_eq(s.kind, REPORT_SCAN_NUL_BYTE);
	cr_assert_eq(s.offset, 4);
}

/* Exactly cJSON's limit: 1000 levels are read, 1001 are not. */
Test(report_read_scan, nesting_stops_where_cjson_does)
{
	size_t n = CJSON_NESTING_LIMIT + 1;
	char *text = malloc(2 * n + 1);

	for (size_t depth = CJSON_NESTING_LIMIT; depth <= n; depth++) {
		memset(text, '[', depth);
		memset(text + depth, ']', depth);
		text[2 * depth] = '\0';
		struct report_scan s;
		int rc = report_scan_json(text, 2 * depth, &s);
		cJSON *root = cJSON_ParseWithLength(text, 2 * depth);
		cr_assert_eq(rc == 0, root != NULL, "depth %zu: the pass and cJSON disagree",
		             depth);
		cr_assert_eq(rc == 0, depth <= CJSON_NESTING_LIMIT);
		if (rc != 0) {
			cr_assert_eq(s.kind, REPORT_SCAN_TOO_DEEP);
			cr_assert_eq(s.offset, CJSON_NESTING_LIMIT);
		}
		cJSON_Delete(root);
	}
	free(text);
}

Test(report_read_scan, counts)
{
	struct report_scan s = ACCEPT("{\"ab\": [1, \"xyz\", {\"k\": null}], \"\\n\": true}");

	cr_assert_eq(s.values, 7, "object, array, 1, xyz, object, null, true");
	cr_assert_eq(s.strings, 4, "ab, xyz, k and \\n");
	cr_assert_eq(s.string_bytes, 2 + 3 + 1 + 2);
}

Test(report_read_scan, utf8_characters)
{
	cr_assert_eq(report_utf8_char_bytes((const unsigned char *)"a", 1), 1);
	cr_assert_eq(report_utf8_char_bytes((const unsigned char *)"\xc3\xa9", 2), 2);
	cr_assert_eq(report_utf8_char_bytes((const unsigned char *)"\xc3\xa9", 1), 0);
	cr_assert_eq(report_utf8_char_bytes((const unsigned char *)"\xef\xbf\xbd", 3), 3);
	cr_assert_eq(report_utf8_char_bytes((const unsigned char *)"\xf4\x8f\xbf\xbf", 4), 4);
	cr_assert_eq(report_utf8_char_bytes((const unsigned char *)"\xf5\x80\x80\x80", 4), 0);
	cr_assert_eq(report_utf8_char_bytes((const unsigned char *)"\xc1\xbf", 2), 0);
	cr_assert_eq(report_utf8_char_bytes((const unsigned char *)"", 0), 0);
}
