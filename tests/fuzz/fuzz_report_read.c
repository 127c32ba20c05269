/*
 * libFuzzer target: the report reader and everything that reads a report's
 * fields after it (compare's loader, matching and rendering; the HTML page),
 * on arbitrary bytes. A crash, a leak, a sanitizer report, or a refusal that
 * does not say why fails `make fuzz-test`.
 */
#include "compare.h"
#include "html.h"
#include "report_read.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every refusal names its problem. */
static void explained(const char *err)
{
	if (err[0] == '\0')
		abort();
}

static void compare_with_itself(const cJSON *root, FILE *sink)
{
	struct cmp_options o;
	struct cmp_result r;
	struct cmp_run run;
	char err[512] = "";
	cJSON *out;

	if (cmp_run_load(&run, "fuzz.json", root, err, sizeof err) != 0) {
		explained(err);
		return;
	}
	cmp_options_init(&o);
	if (cmp_compare(&run, &run, &o, &r) == 0) {
		cmp_print(sink, CMP_FORMAT_TABLE, &run, &run, &r, &o);
		cmp_print(sink, CMP_FORMAT_MARKDOWN, &run, &run, &r, &o);
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
	struct html_input in = {"fuzz.json", root};
	struct html_buf b;
	char err[512] = "";

	html_buf_init(&b);
	if (html_render_page(&b, &in, 1, "fuzz", err, sizeof err) != 0)
		explained(err);
	html_buf_release(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	char err[512] = "";
	char *buf = malloc(size + 1);
	cJSON *root;

	if (!sink)
		sink = fopen("/dev/null", "w");
	if (!buf || !sink) {
		free(buf);
		return 0;
	}
	memcpy(buf, data, size);
	buf[size] = '\0'; /* report_parse's contract; a NUL inside is the input's */
	root = report_parse("fuzz.json", buf, size, err, sizeof err);
	if (!root) {
		explained(err);
	} else {
		compare_with_itself(root, sink);
		render(root);
		cJSON_Delete(root);
	}
	free(buf);
	return 0;
}
