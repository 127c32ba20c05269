/*
 * What report_parse refuses beyond the envelope (numbers that overflow a
 * double, NaN and Infinity, duplicate keys, blocks of the wrong type), and
 * the typed getters that name the file, the JSON path and the problem.
 * Reading from disk is covered in test_report_io.c.
 */
#include "reports/io/report_read.h"
#include "reports/io/report_read_scan.h"

#include <criterion/criterion.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char err[512];

#define ENVELOPE "\"schema_version\": 1, \"command\": \"allreduce\""

static void assert_refused(const char *text, const char *word)
{
	cJSON *root;

	err[0] = '\0';
	root = report_parse("r.json", text, strlen(text), err, sizeof err);
	cr_assert_null(root, "accepted: %s", text);
	cr_assert_not_null(strstr(err, "r.json"), "%s", err);
	cr_assert_not_null(strstr(err, word), "'%s' does not say '%s'", err, word);
}

Test(report_read, accepts_a_plain_report)
{
	static const char text[] =
	    "{" ENVELOPE ", \"results\": [{\"a\": 1e300}], \"complete\": true}";
	cJSON *root = report_parse("r.json", text, strlen(text), err, sizeof err);

	cr_assert_not_null(root, "%s", err);
	cJSON_Delete(root);
}

Test(report_read, refuses_numbers_that_overflow)
{
	assert_refused("{" ENVELOPE ", \"results\": [{\"time_us\": {\"p50\": 1e999}}]}",
	               "number out of range at results[0].time_us.p50");
	assert_refused("{" ENVELOPE ", \"x\": -1e400}", "number out of range at x");
}

Test(report_read, refuses_nan_and_infinity_literals)
{
	assert_refused("{" ENVELOPE ", \"x\": NaN}", "NaN and Infinity are not json");
	assert_refused("{" ENVELOPE ", \"x\": -Infinity}", "NaN and Infinity are not json");
	assert_refused("{" ENVELOPE ", \"x\": [nan]}", "NaN and Infinity are not json");
}

/* RFC 8259's grammar, which cJSON does not hold to: every refusal names its byte offset. */
Test(report_read, refuses_what_json_does_not_allow_naming_the_offset)
{
	/* {ENVELOPE, "x": is 51 bytes: the value starts at byte offset 51 */
	assert_refused("{" ENVELOPE ", \"x\": 01}",
	               "a number with a leading zero at line 1, column 52 (byte offset 51)");
	assert_refused("{" ENVELOPE ", \"x\": 1.}", "no digit after its decimal point");
	assert_refused("{" ENVELOPE ", \"x\": 1.}", "(byte offset 51)");
	assert_refused("{" ENVELOPE ", \"x\": \"caf\xe9\"}", "invalid UTF-8 (byte 0xe9) in a string");
	assert_refused("{" ENVELOPE ", \"x\": \"caf\xe9\"}", "(byte offset 55)");
	assert_refused("{" ENVELOPE ", \"x\xff\": 1}", "invalid UTF-8");
	assert_refused("{" ENVELOPE ", \"x\": \"a\tb\"}", "control character");
	assert_refused("{" ENVELOPE ", \"x\": [1,]}", "unexpected ']'");
	assert_refused("{" ENVELOPE "}\n{}", "at line 2, column 1 (byte offset 46)");
}

Test(report_read, refuses_a_nul_escape_in_a_string)
{
	assert_refused("{" ENVELOPE ", \"results\": [{\"algorithm\": \"ring\\u0000evil\"}]}",
	               "a string holds \\u0000 (a NUL character) at byte offset 77");
	assert_refused("{" ENVELOPE ", \"a\\u0000b\": 1}", "a string holds \\u0000");
}

Test(report_read, accepts_what_only_looks_like_a_nul_escape)
{
	/* an escaped backslash followed by the text u0000 holds no NUL; \u0001 is a character like any */
	static const char text[] = "{" ENVELOPE ", \"a\": \"x\\\\u0000\", \"b\": \"\\u0001\"}";
	cJSON *root = report_parse("r.json", text, strlen(text), err, sizeof err);

	cr_assert_not_null(root, "%s", err);
	cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(root, "a")->valuestring, "x\\u0000");
	cJSON_Delete(root);
}

Test(report_read, refuses_duplicate_keys)
{
	assert_refused("{" ENVELOPE ", \"command\": \"links\"}",
	               "duplicate key 'command' in the top level");
	assert_refused("{" ENVELOPE ", \"results\": [{}, {\"b\": 1, \"a\": 2, \"b\": 3}]}",
	               "duplicate key 'b' in results[1]");
	/* many keys: the sorted check, not only the pairwise one */
	char text[4096];
	size_t used = (size_t)snprintf(text, sizeof text, "{" ENVELOPE ", \"o\": {");
	for (int i = 0; i < 100; i++)
		used += (size_t)snprintf(text + used, sizeof text - used, "\"k%d\": %d, ", i, i);
	snprintf(text + used, sizeof text - used, "\"k42\": 0}}");
	assert_refused(text, "duplicate key 'k42' in o");
}

Test(report_read, key_in_message_is_printable)
{
	assert_refused("{" ENVELOPE ", \"a\\u001b[31m\": {\"x\": 1e999}}", "at a?[31m.x");
}

Test(report_read, refuses_blocks_of_the_wrong_type)
{
	assert_refused("{" ENVELOPE ", \"results\": {}}", "results is not an array");
	assert_refused("{" ENVELOPE ", \"context\": []}", "context is not an object");
	assert_refused("{" ENVELOPE ", \"summary\": 3}", "summary is not an object");
	assert_refused("{" ENVELOPE ", \"config\": \"x\"}", "config is not an object");
	assert_refused("{" ENVELOPE ", \"complete\": 1}", "complete is not true or false");
}

Test(report_read, empty_buffer)
{
	assert_refused("", "empty");
}

Test(report_read, getters_name_file_path_and_problem)
{
	static const char text[] =
	    "{\"s\": \"x\", \"n\": 2.5, \"i\": 3, \"big\": 1e300, \"b\": true, \"z\": null, "
	    "\"arr\": [1, 2, \"3\"], \"o\": {}}";
	struct report_at at = {"r.json", "results[4]", err, sizeof err};
	cJSON *obj = cJSON_Parse(text);
	const char *s;
	double d;
	int64_t i = -7;
	bool b = false;
	const cJSON *o;
	double *x;
	size_t n;

	cr_assert_eq(report_get_string(&at, obj, "s", true, &s), 0);
	cr_assert_str_eq(s, "x");
	cr_assert_eq(report_get_string(&at, obj, "n", true, &s), -1);
	cr_assert_str_eq(err, "report 'r.json': results[4].n is not a string");
	cr_assert_eq(report_get_string(&at, obj, "missing", false, &s), 0);
	cr_assert_null(s);
	cr_assert_eq(report_get_string(&at, obj, "missing", true, &s), -1);
	cr_assert_str_eq(err, "report 'r.json': results[4].missing is missing");
	cr_assert_eq(report_get_number(&at, obj, "z", false, 0, 1, &d), 0);
	cr_assert(isnan(d), "null is an undefined statistic");
	cr_assert_eq(report_get_number(&at, obj, "z", true, 0, 1, &d), -1);
	cr_assert_not_null(strstr(err, "results[4].z is null"));
	cr_assert_eq(report_get_number(&at, obj, "n", true, 0, 2, &d), -1);
	cr_assert_not_null(strstr(err, "results[4].n is out of range (2.5, expected 0 to 2)"), "%s",
	                   err);
	cr_assert_eq(report_get_integer(&at, obj, "i", true, 0, 10, &i), 0);
	cr_assert_eq(i, 3);
	cr_assert_eq(report_get_integer(&at, obj, "n", true, 0, 10, &i), -1);
	cr_assert_not_null(strstr(err, "not a whole number"));
	cr_assert_eq(report_get_integer(&at, obj, "big", true, 0, 1e308, &i), -1);
	cr_assert_not_null(strstr(err, "out of range"), "beyond 2^53: %s", err);
	cr_assert_eq(report_get_bool(&at, obj, "b", true, &b), 0);
	cr_assert(b);
	cr_assert_eq(report_get_bool(&at, obj, "i", true, &b), -1);
	cr_assert_eq(report_get_object(&at, obj, "o", true, &o), 0);
	cr_assert_eq(report_get_array(&at, obj, "o", true, &o), -1);
	cr_assert_not_null(strstr(err, "results[4].o is not an array"));
	cr_assert_eq(report_get_numbers(&at, obj, "arr", true, 0, 10, &x, &n), -1);
	cr_assert_not_null(strstr(err, "results[4].arr[2] is not a number"), "%s", err);
	cr_assert_null(x);
	cJSON_ReplaceItemInArray(cJSON_GetObjectItem(obj, "arr"), 2, cJSON_CreateNumber(3));
	cr_assert_eq(report_get_numbers(&at, obj, "arr", true, 0, 10, &x, &n), 0);
	cr_assert_eq(n, 3);
	cr_assert_eq(x[2], 3);
	free(x);
	at.where = "";
	cr_assert_eq(report_get_bool(&at, obj, "s", true, &b), -1);
	cr_assert_str_eq(err, "report 'r.json': s is not true or false");
	cJSON_Delete(obj);
}

/* "{ENVELOPE, "x": [1,1,...]}" of n values, as dense as JSON gets: two bytes a value. */
static char *dense_report(size_t n, size_t *len)
{
	static const char head[] = "{" ENVELOPE ", \"x\": [";
	char *text = malloc(sizeof head + 2 * n + 8);

	memcpy(text, head, sizeof head - 1);
	*len = sizeof head - 1;
	for (size_t i = 0; i < n; i++) {
		text[(*len)++] = '1';
		text[(*len)++] = ',';
	}
	memcpy(text + *len - 1, "]}", 3);
	*len += 1;
	return text;
}

/*
 * A links report of all pairs of 1,024 ranks in the compact form (about 75 MB,
 * 14 numbers of five bytes a pair: 15 million values) is read; a 1 GiB file
 * may take 8 GiB, no more.
 */
Test(report_read, a_compact_links_report_of_1024_ranks_fits)
{
	size_t text = 75u * 1000 * 1000, values = 15u * 1000 * 1000;
	size_t tree = values * REPORT_TREE_NODE_BYTES; /* numbers only: no strings */
	cr_assert_geq(report_tree_limit_bytes(text), tree, "%zu MiB of tree, limit %zu MiB",
	              tree >> 20, report_tree_limit_bytes(text) >> 20);
	cr_assert_eq(report_tree_limit_bytes(REPORT_READ_MAX_BYTES), 8 * REPORT_READ_MAX_BYTES);
	cr_assert_eq(report_tree_limit_bytes(1), REPORT_READ_TREE_FLOOR_BYTES);
}

/* Refused before cJSON builds anything: the file, its size, its values and the limit are named. */
Test(report_read, refuses_a_report_whose_tree_would_outgrow_the_limit)
{
	size_t len, n = 32u << 20; /* 64 MiB of text, about 2.5 GiB of tree */
	char *text = dense_report(n, &len);
	cJSON *root = report_parse("dense.json", text, len, err, sizeof err);

	cr_assert_null(root);
	cr_assert_not_null(strstr(err, "cannot read 'dense.json' (64.0 MiB)"), "%s", err);
	cr_assert_not_null(strstr(err, "its 33554436 values would take about 2560 MiB"), "%s", err);
	cr_assert_not_null(strstr(err, "over the limit of 8 times the file's size or 2048 MiB"),
	                   "%s", err);
	free(text);
	/* the same values spread over more text are read: the limit is a multiple of the size */
	text = dense_report(1u << 20, &len);
	root = report_parse("dense.json", text, len, err, sizeof err);
	cr_assert_not_null(root, "a small report is never refused for its density: %s", err);
	cJSON_Delete(root);
	free(text);
}

/* cJSON's allocations, counted as glibc's chunks: the usable size and the 8-byte header. */
static size_t heap_bytes, heap_peak_bytes;

static void *counting_malloc(size_t n)
{
	void *p = malloc(n);

	if (p) {
		heap_bytes += malloc_usable_size(p) + 8;
		heap_peak_bytes = heap_bytes > heap_peak_bytes ? heap_bytes : heap_peak_bytes;
	}
	return p;
}

static void counting_free(void *p)
{
	if (p)
		heap_bytes -= malloc_usable_size(p) + 8;
	free(p);
}

/* The estimate is an upper bound of what cJSON takes, and not a loose one. */
Test(report_read, tree_estimate_bounds_what_cjson_allocates)
{
	static const char *const texts[] = {
	    "{\"a\": [1, 2.5, -3e10, true, false, null], \"bb\": {\"c\": \"\"}}",
	    "[\"a string of some length, longer than a chunk's minimum\", \"\\u00e9\\n\", 1]",
	    "{\"results\": [{\"algorithm\": \"ring\", \"samples_us\": [1.25, 1.5, 1.75]}]}",
	};
	cJSON_Hooks hooks = {counting_malloc, counting_free};
	struct report_scan scan;
	size_t len;
	char *dense = dense_report(100000, &len);

	cJSON_InitHooks(&hooks);
	for (size_t i = 0; i <= sizeof texts / sizeof texts[0]; i++) {
		const char *t = i < 3 ? texts[i] : dense;
		size_t n = i < 3 ? strlen(t) : len;
		cr_assert_eq(report_scan_json(t, n, &scan), 0, "%s", scan.reason);
		heap_bytes = heap_peak_bytes = 0;
		cJSON *root = cJSON_ParseWithLength(t, n);
		cr_assert_not_null(root);
		cr_assert_leq(heap_peak_bytes, report_scan_tree_bytes(&scan), "text %zu: %zu > %zu", i,
		              heap_peak_bytes, report_scan_tree_bytes(&scan));
		cr_assert_geq(heap_peak_bytes * 2, report_scan_tree_bytes(&scan), "text %zu: %zu", i,
		              heap_peak_bytes);
		cJSON_Delete(root);
	}
	cJSON_InitHooks(NULL);
	free(dense);
}

/* cJSON's allocations fail after this many have succeeded. */
static long allocations_left;

static void *failing_malloc(size_t n)
{
	return allocations_left-- > 0 ? malloc(n) : NULL;
}

/* Memory running out at any point of the parse is said as such (exit 5), never as bad json. */
Test(report_read, out_of_memory_while_parsing_says_so)
{
	static const char text[] =
	    "{" ENVELOPE ", \"context\": {\"argv\": [\"collscope\", \"allreduce\"]}, \"results\": "
	    "[{\"algorithm\": \"ring\", \"bytes\": 8, \"samples_us\": [1.5, 2, 2.5]}], "
	    "\"complete\": true}";
	cJSON_Hooks hooks = {failing_malloc, free};
	cJSON *root;
	int failed = 0;

	cJSON_InitHooks(&hooks);
	for (long n = 0;; n++) {
		allocations_left = n;
		err[0] = '\0';
		int rc = report_load_text("r.json", text, sizeof text - 1, &root, err, sizeof err);
		if (rc == REPORT_OK) {
			cr_assert_not_null(root);
			cJSON_Delete(root);
			break;
		}
		failed++;
		cr_assert_eq(rc, REPORT_EIO, "after %ld allocations: rc %d (%s)", n, rc, err);
		cr_assert_null(root);
		cr_assert_not_null(strstr(err, "cannot read 'r.json': out of memory while parsing it"),
		                   "after %ld allocations: %s", n, err);
		cr_assert_null(strstr(err, "not valid json"), "%s", err);
	}
	cJSON_InitHooks(NULL);
	cr_assert_geq(failed, 20, "every allocation of the parse was made to fail once");
}
