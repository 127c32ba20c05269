/*
 * The fuzz target report_read (fuzz.h): the report reader and everything that reads a report's
 * fields after it (compare's loader, matching and rendering; the HTML page),
 * on arbitrary bytes. Fails (abort) on a crash, a leak, a sanitizer report,
 * or when an oracle says no:
 *  - a refusal must say why;
 *  - what the grammar pass accepts, cJSON must parse: the reader may never
 *    say "out of memory" here, where nothing runs short;
 *  - the tree estimate (report_scan_tree_bytes) must bound what cJSON
 *    allocated while parsing;
 *  - the page must be collscope's own markup with every report string
 *    escaped (page_check.c), and compare's text and markdown tables must hold
 *    nothing a terminal acts on.
 *
 * Size-dependent paths (the 500-row tables, the 128-rank heatmap cap, the 8
 * charted configurations, the legend's 16 series, the tree limit's floor)
 * need more than -max_len bytes, so an input may be a template:
 *   "#x" COUNT "\n" PREFIX "@{" ITEM "@}" SUFFIX
 * is read as PREFIX, then COUNT copies of ITEM joined by commas, with every
 * "@i" in ITEM the copy's index, then SUFFIX (at most EXPANDED_MAX bytes).
 */
#include "reports/compare/compare_points.h"
#include "reports/render/html.h"
#include "fuzz.h"
#include "page_check.h"
#include "reports/io/report_read.h"
#include "reports/io/report_read_scan.h"

#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT_MAX    20000
#define EXPANDED_MAX ((size_t)2 << 20)

static void oracle_failed(const char *what, const char *why)
{
	fprintf(stderr, "fuzz oracle: %s: %s\n", what, why);
	abort();
}

/* Every refusal names its problem. */
static void explained(const char *err)
{
	if (err[0] == '\0')
		oracle_failed("a refusal", "says nothing");
}

/* cJSON's heap while the reader parses: requested bytes, now and at the peak. */
static size_t heap_bytes, heap_peak_bytes;

static void *counting_malloc(size_t n)
{
	void *p = malloc(n);

	if (p) {
		heap_bytes += malloc_usable_size(p);
		if (heap_bytes > heap_peak_bytes)
			heap_peak_bytes = heap_bytes;
	}
	return p;
}

static void counting_free(void *p)
{
	if (p)
		heap_bytes -= malloc_usable_size(p);
	free(p);
}

static void check_terminal_text(const char *text, size_t len, const char *what)
{
	char why[256];

	if (terminal_check(text, len, why, sizeof why) != 0)
		oracle_failed(what, why);
}

static void compare_with_itself(const cJSON *root)
{
	struct cmp_options o;
	struct cmp_result r;
	struct cmp_run run;
	char err[512] = "", *text = NULL;
	size_t len = 0;
	FILE *f;
	cJSON *out;

	if (cmp_run_load(&run, "fuzz.json", root, err, sizeof err) != 0) {
		explained(err);
		return;
	}
	cmp_options_init(&o);
	if (cmp_compare(&run, &run, &o, &r) == 0) {
		for (int fmt = CMP_FORMAT_TABLE; fmt <= CMP_FORMAT_MARKDOWN; fmt++) {
			f = open_memstream(&text, &len);
			if (f) {
				cmp_print(f, (enum cmp_format)fmt, &run, &run, &r, &o);
				fclose(f);
				check_terminal_text(text, len, "compare's table");
			}
			free(text);
			text = NULL;
		}
		out = cJSON_CreateObject();
		if (out)
			cmp_to_json(out, &run, &run, &r, &o);
		cJSON_Delete(out);
		cmp_result_release(&r);
	}
	cmp_run_release(&run);
}

static void render(const cJSON *root)
{
	struct html_input in = {"fuzz <&> \"\x1b\".json", root};
	struct html_buf b;
	char err[512] = "", why[256];

	html_buf_init(&b);
	if (html_render_page(&b, &in, 1, "fuzz", err, sizeof err) != 0)
		explained(err);
	else if (!b.failed && page_check(b.data, b.len, why, sizeof why) != 0)
		oracle_failed("the page", why);
	html_buf_release(&b);
}

/* The input as the reader's text: itself, or its template expanded. NULL when out of memory. */
static char *text_of(const uint8_t *data, size_t size, size_t *len)
{
	const char *in = (const char *)data, *end = in + size, *open, *close, *nl;
	unsigned long count = 0;
	size_t used = 0;
	char *out;

	if (size < 3 || memcmp(in, "#x", 2) != 0 || !(nl = memchr(in, '\n', size)))
		goto verbatim;
	for (const char *p = in + 2; p < nl && *p >= '0' && *p <= '9'; p++)
		count = count * 10 + (unsigned long)(*p - '0') > COUNT_MAX
		            ? COUNT_MAX
		            : count * 10 + (unsigned long)(*p - '0');
	in = nl + 1;
	open = memmem(in, (size_t)(end - in), "@{", 2);
	close = open ? memmem(open + 2, (size_t)(end - open - 2), "@}", 2) : NULL;
	if (!close)
		goto verbatim_rest;
	out = malloc(EXPANDED_MAX + 1);
	if (!out)
		return NULL;
	memcpy(out, in, (size_t)(open - in));
	used = (size_t)(open - in);
	for (unsigned long k = 0; k < count; k++) {
		if (k && used < EXPANDED_MAX)
			out[used++] = ',';
		for (const char *p = open + 2; p < close && used < EXPANDED_MAX - 24; p++)
			if (p + 1 < close && p[0] == '@' && p[1] == 'i') {
				used += (size_t)snprintf(out + used, 24, "%lu", k);
				p++;
			} else {
				out[used++] = *p;
			}
	}
	for (const char *p = close + 2; p < end && used < EXPANDED_MAX; p++)
		out[used++] = *p;
	out[used] = '\0';
	*len = used;
	return out;
verbatim:
	in = (const char *)data;
verbatim_rest:
	out = malloc((size_t)(end - in) + 1);
	if (!out)
		return NULL;
	memcpy(out, in, (size_t)(end - in));
	out[end - in] = '\0'; /* report_parse's contract; a NUL inside is the input's */
	*len = (size_t)(end - in);
	return out;
}

int fuzz_report_read(const uint8_t *data, size_t size)
{
	static const cJSON_Hooks counting = {counting_malloc, counting_free};
	char err[512] = "";
	struct report_scan scan;
	size_t len = 0;
	char *buf = text_of(data, size, &len);
	bool scanned;
	cJSON *root;
	int rc;

	if (!buf)
		return 0;
	scanned = report_scan_json(buf, len, &scan) == 0;
	cJSON_InitHooks((cJSON_Hooks *)&counting);
	heap_bytes = heap_peak_bytes = 0;
	rc = report_load_text("fuzz.json", buf, len, &root, err, sizeof err);
	cJSON_InitHooks(NULL);
	if (rc == REPORT_EIO)
		oracle_failed("the reader ran out of memory on a small input", err);
	if (scanned && heap_peak_bytes > report_scan_tree_bytes(&scan)) {
		snprintf(err, sizeof err, "%zu bytes allocated, %zu estimated", heap_peak_bytes,
		         report_scan_tree_bytes(&scan));
		oracle_failed("the tree estimate", err);
	}
	if (!root) {
		explained(err);
	} else {
		compare_with_itself(root);
		render(root);
		cJSON_Delete(root);
	}
	free(buf);
	return 0;
}
