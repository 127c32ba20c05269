/*
 * JUnit XML (reports/render/junit.c) and accept's verdict in it
 * (reports/accept/accept_format.c): the structure CI systems read, counts that
 * match, failures with the fault code as type, and hostile host names
 * escaped so the document stays well-formed. A small checker here walks
 * the document: tags nest and close, attribute values are quoted, and '&'
 * only starts one of the five entities; tests/cli/accept.sh parses the
 * file with Python's XML parser as well.
 */
#include "reports/accept/accept_verdict.h"
#include "reports/render/junit.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

static char err[1024];

/* The name of the tag at p (after '<' or '</') into name. */
static size_t tag_name(const char *p, char *name, size_t len)
{
	size_t n = strcspn(p, " />\n");
	cr_assert_lt(n, len, "a tag name too long at '%.20s'", p);
	memcpy(name, p, n);
	name[n] = '\0';
	return n;
}

/* Is p at one of the five XML entities or a numeric reference? */
static bool entity(const char *p)
{
	static const char *const known[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};
	for (size_t i = 0; i < 5; i++)
		if (strncmp(p, known[i], strlen(known[i])) == 0)
			return true;
	return false;
}

/* Well-formed enough for this writer's output; returns the number of elements. */
static int check_xml(const char *doc)
{
	char stack[16][32], name[32];
	int depth = 0, elements = 0;
	const char *p = doc;

	cr_assert_eq(strncmp(p, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 39), 0);
	p += 39;
	while (*p) {
		if (*p == '&') {
			cr_assert(entity(p), "a bare '&' at '%.20s'", p);
			p++;
		} else if (*p == '>') {
			cr_assert_fail("a bare '>' at '%.20s'", p);
		} else if (*p != '<') {
			cr_assert(depth > 0 || *p == '\n', "text outside the root");
			p++;
		} else if (p[1] == '/') {
			p += 2 + tag_name(p + 2, name, sizeof name);
			cr_assert_gt(depth, 0, "</%s> closes nothing", name);
			cr_assert_str_eq(stack[--depth], name, "</%s> closes <%s>", name,
			                 stack[depth]);
			cr_assert_eq(*p++, '>');
		} else {
			p += 1 + tag_name(p + 1, name, sizeof name);
			elements++;
			while (*p == ' ') { /* attributes: name="value" */
				p += 1 + strcspn(p + 1, "=");
				cr_assert_eq(p[1], '"', "an unquoted attribute at '%.20s'", p);
				for (p += 2; *p != '"'; p++) {
					cr_assert(*p && *p != '<', "'<' in an attribute");
					cr_assert(*p != '&' || entity(p),
					          "a bare '&' in an attribute");
				}
				p++;
			}
			if (p[0] == '/' && p[1] == '>') {
				p += 2;
				continue;
			}
			cr_assert_eq(*p++, '>', "a tag not closed at '%.20s'", p);
			cr_assert_lt(depth, 16);
			snprintf(stack[depth++], sizeof stack[0], "%s", name);
		}
	}
	cr_assert_eq(depth, 0, "%d elements left open", depth);
	return elements;
}

static int count(const char *doc, const char *what)
{
	int n = 0;
	for (const char *p = doc; (p = strstr(p, what)) != NULL; p += strlen(what))
		n++;
	return n;
}

Test(junit, the_document_and_its_counts)
{
	const struct junit_case links[] = {
	    {"bandwidth [h1]", "c.links", NULL, NULL, NULL, NULL},
	    {"bandwidth [h2]", "c.links", "LINK_BW_LOW", "1 GB/s < min 9 GB/s", "FAIL ...", NULL},
	};
	const struct junit_case topo[] = {{"hosts [job]", "c.topology", NULL, NULL, NULL, NULL}};
	const struct junit_suite suites[] = {
	    {"links", links, 2}, {"topology", topo, 1}, {"empty", NULL, 0}};
	struct html_buf b;

	html_buf_init(&b);
	cr_assert_eq(junit_write(&b, "collscope accept", suites, 3), 0);
	cr_assert_eq(check_xml(b.data), 1 + 3 + 3 + 1);
	cr_assert_not_null(strstr(b.data, "<testsuites name=\"collscope accept\" tests=\"3\" "
	                                  "failures=\"1\" errors=\"0\">"));
	cr_assert_not_null(strstr(b.data, "<testsuite name=\"links\" tests=\"2\" failures=\"1\" "
	                                  "errors=\"0\" skipped=\"0\">"));
	cr_assert_not_null(strstr(b.data, "<testsuite name=\"empty\" tests=\"0\" failures=\"0\""));
	cr_assert_not_null(
	    strstr(b.data, "<testcase classname=\"c.links\" name=\"bandwidth [h1]\"/>"));
	cr_assert_not_null(strstr(b.data,
	                          "<failure type=\"LINK_BW_LOW\" message=\"1 GB/s &lt; min 9 "
	                          "GB/s\">FAIL ...</failure>"));
	html_buf_release(&b);
}

Test(junit, a_skipped_case_is_neither_passed_nor_failed)
{
	const struct junit_case cases[] = {
	    {"search [h2]", "c.allreduce", NULL, NULL, NULL, "INCONCLUSIVE: noise <explains> it"},
	    {"search [h3]", "c.allreduce", NULL, NULL, NULL, NULL},
	};
	const struct junit_suite suite = {"allreduce", cases, 2};
	struct html_buf b;

	html_buf_init(&b);
	cr_assert_eq(junit_write(&b, "collscope accept", &suite, 1), 0);
	check_xml(b.data);
	cr_assert_not_null(strstr(b.data, "tests=\"2\" failures=\"0\" errors=\"0\" skipped=\"1\">"),
	                   "%s", b.data);
	cr_assert_not_null(strstr(b.data, "<skipped message=\"INCONCLUSIVE: noise &lt;explains&gt; "
	                                  "it\"/>"),
	                   "%s", b.data);
	cr_assert_null(strstr(b.data, "<failure"));
	html_buf_release(&b);
}

Test(junit, hostile_strings_are_escaped)
{
	const struct junit_case cases[] = {
	    {"a<b>&\"c\" 'd' \x01\x1b[31m \xff\xfe", "k", "T&<", "m\"<>&'", "x]]>y</testcase>", NULL},
	};
	const struct junit_suite suite = {"s<&>", cases, 1};
	struct html_buf b;

	html_buf_init(&b);
	cr_assert_eq(junit_write(&b, "n\"&", &suite, 1), 0);
	check_xml(b.data);
	cr_assert_not_null(strstr(b.data,
	                          "name=\"a&lt;b&gt;&amp;&quot;c&quot; &#39;d&#39; "
	                          "\xef\xbf\xbd\xef\xbf\xbd[31m \xef\xbf\xbd\xef\xbf\xbd\""),
	                   "%s", b.data);
	cr_assert_not_null(strstr(b.data, ">x]]&gt;y&lt;/testcase&gt;</failure>"), "%s", b.data);
	cr_assert_not_null(strstr(b.data, "<testsuites name=\"n&quot;&amp;\""));
	html_buf_release(&b);
}

/*
 * A verdict over 3 hosts, one named "<evil&host>\"\e" (the figures already
 * show its control character as '?'), whose links fail.
 */
Test(junit, accept_verdict_with_a_hostile_host)
{
	static const char spec_text[] =
	    "{\"schema_version\": 1, \"command\": \"accept-spec\", \"spec_version\": 1, "
	    "\"checks\": {"
	    " \"topology\": {\"hosts\": 3},"
	    " \"links\": {\"min_bandwidth_gbps\": {\"cross_host\": 5}, \"allow_suspects\": true},"
	    " \"allreduce\": {\"points\": [{\"variant\": \"ring\", \"bytes\": 1048576,"
	    "  \"min_busbw_gbps\": 1}]}}}";
	struct ctx_host hosts[3] = {{.name = "h0", .nranks = 1, .cores = 1},
	                            {.name = "<evil&host>\"\x1b", .nranks = 1, .cores = 1},
	                            {.name = "h2", .nranks = 1, .cores = 1}};
	struct report_context c;
	struct accept_figures f;
	struct accept_spec s;
	struct accept_verdict v;
	struct accept_bisect b;
	struct html_buf out;
	bool subset[3];
	cJSON *root = cJSON_Parse(spec_text);

	cr_assert_eq(accept_spec_parse(root, &s, err, sizeof err), 0, "%s", err);
	report_context_init(&c);
	c.nhosts = 3;
	c.hosts = hosts;
	accept_figures_init(&f);
	cr_assert_eq(accept_figures_set_hosts(&f, &c), 0);
	for (int a = 0; a < 3; a++)
		for (int d = 0; d < 3; d++) {
			struct accept_link_figures l = {.a = a, .b = d, .host_a = a, .host_b = d};
			l.locality = DETECT_CROSS_HOST;
			l.bandwidth_gbps = a == 1 || d == 1 ? 1.0 : 10.0;
			l.latency_us = 5;
			if (a != d)
				cr_assert_eq(accept_figures_add_link(&f, &l), 0);
		}
	struct accept_point_figures p = {.variant = "ring",
	                                 .dtype = "float32",
	                                 .op = "sum",
	                                 .bytes = 1048576,
	                                 .ranks = 3,
	                                 .busbw_gbps = 0.2};
	cr_assert_eq(accept_figures_add_point(&f, &p), 0);
	cr_assert_eq(accept_judge(&s, &f, 1, &v, err, sizeof err), 0, "%s", err);
	/* the search: any subset with host 1 fails */
	cr_assert_eq(accept_bisect_init(&b, 3), 0);
	while (accept_bisect_next(&b, subset))
		accept_bisect_result(&b, !subset[1]);
	cr_assert_eq(accept_verdict_add_isolation(&v, v.nresults - 1, &b), 0);
	accept_bisect_release(&b);

	html_buf_init(&out);
	cr_assert_eq(accept_junit(&v, &out), 0);
	check_xml(out.data);
	cr_assert_eq(count(out.data, "<testsuite "), 4, "a suite per kind of check");
	/* hosts and 3 x oversubscription; 4 links; the point and 3 of its search */
	cr_assert_eq(count(out.data, "<testcase "), 12);
	cr_assert_not_null(
	    strstr(out.data, "<testsuite name=\"topology\" tests=\"4\" failures=\"0\""));
	cr_assert_not_null(strstr(out.data, "<testsuite name=\"links\" tests=\"4\" failures=\"2\""),
	                   "%s", out.data);
	cr_assert_not_null(strstr(out.data,
	                          "name=\"links bandwidth cross_host [&lt;evil&amp;host&gt;"
	                          "&quot;\xef\xbf\xbd]\">"), /* ESC: U+FFFD, as in the page */
	                   "%s", out.data);
	cr_assert_not_null(strstr(out.data,
	                          "<failure type=\"LINK_BW_LOW\" message=\"LINK_BW_LOW on "
	                          "&lt;evil&amp;host&gt;&quot;\xef\xbf\xbd: 1 GB/s &lt; min 5 GB/s "
	                          "(median of 4 links, 4 below the "
	                          "minimum)\">"),
	                   "%s", out.data);
	cr_assert_not_null(strstr(out.data, "<testsuite name=\"allreduce\" tests=\"4\" "
	                                    "failures=\"2\""),
	                   "the point and its search: %s", out.data);
	cr_assert_not_null(strstr(out.data, "name=\"allreduce ring 1 MiB busbw culprit search "
	                                    "[&lt;evil&amp;host&gt;&quot;\xef\xbf\xbd]\">\n      "
	                                    "<failure type=\"AR_BUSBW_LOW\" message=\"AR_BUSBW_LOW: "
	                                    "&lt;evil&amp;host&gt;&quot;\xef\xbf\xbd named by"),
	                   "%s", out.data);
	cr_assert_not_null(strstr(out.data, "<testsuite name=\"verify\" tests=\"0\""));
	html_buf_release(&out);
	accept_verdict_release(&v);
	accept_figures_release(&f);
	accept_spec_release(&s);
	cJSON_Delete(root);
}
