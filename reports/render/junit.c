/* JUnit XML (see junit.h). */
#include "reports/render/junit.h"

static size_t failures(const struct junit_suite *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->ncases; i++)
		n += s->cases[i].failure_type != NULL;
	return n;
}

static size_t skipped(const struct junit_suite *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->ncases; i++)
		n += !s->cases[i].failure_type && s->cases[i].skipped_message;
	return n;
}

/* name="value", escaped. */
static void attr(struct html_buf *b, const char *name, const char *value)
{
	html_rawf(b, " %s=\"", name);
	html_text(b, value ? value : "", 0);
	html_raw(b, "\"");
}

static void write_case(struct html_buf *b, const struct junit_case *c)
{
	html_raw(b, "    <testcase");
	attr(b, "classname", c->classname);
	attr(b, "name", c->name);
	if (!c->failure_type && c->skipped_message) {
		html_raw(b, ">\n      <skipped");
		attr(b, "message", c->skipped_message);
		html_raw(b, "/>\n    </testcase>\n");
		return;
	}
	if (!c->failure_type) {
		html_raw(b, "/>\n");
		return;
	}
	html_raw(b, ">\n      <failure");
	attr(b, "type", c->failure_type);
	attr(b, "message", c->failure_message);
	html_raw(b, ">");
	html_text(b, c->failure_text ? c->failure_text : "", 0);
	html_raw(b, "</failure>\n    </testcase>\n");
}

int junit_write(struct html_buf *b, const char *name, const struct junit_suite *suites, size_t n)
{
	size_t tests = 0, failed = 0, skips = 0;

	for (size_t i = 0; i < n; i++) {
		tests += suites[i].ncases;
		failed += failures(&suites[i]);
		skips += skipped(&suites[i]);
	}
	html_raw(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites");
	attr(b, "name", name);
	html_rawf(b, " tests=\"%zu\" failures=\"%zu\" errors=\"0\"", tests, failed);
	if (skips) /* only then: documents without a skipped case stay as they were */
		html_rawf(b, " skipped=\"%zu\"", skips);
	html_raw(b, ">\n");
	for (size_t i = 0; i < n; i++) {
		const struct junit_suite *s = &suites[i];
		html_raw(b, "  <testsuite");
		attr(b, "name", s->name);
		html_rawf(b, " tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n",
		          s->ncases, failures(s), skipped(s));
		for (size_t k = 0; k < s->ncases; k++)
			write_case(b, &s->cases[k]);
		html_raw(b, "  </testsuite>\n");
	}
	html_raw(b, "</testsuites>\n");
	return b->failed ? -1 : 0;
}
