/*
 * JUnit XML, the test-report format CI systems and dashboards read: a
 * <testsuites> document of <testsuite> elements of <testcase> elements,
 * a failing case holding a <failure type message> with text, a skipped one
 * a <skipped message>. Pure: the
 * document is built in a growing buffer (html.h's, whose escaping it uses:
 * the five XML entities, and control characters and invalid UTF-8 replaced
 * by U+FFFD, so any host name or message gives well-formed XML).
 */
#ifndef COLLSCOPE_JUNIT_H
#define COLLSCOPE_JUNIT_H

#include "reports/render/html.h"

#include <stddef.h>

/* One test case; strings are borrowed. */
struct junit_case {
	const char *name, *classname;
	const char *failure_type;    /* NULL: it passed */
	const char *failure_message; /* the attribute: one line */
	const char *failure_text;    /* the element's content; may be NULL */
	const char *skipped_message; /* not NULL (and no failure): <skipped message>, neither
	                                passed nor failed */
};

struct junit_suite {
	const char *name;
	const struct junit_case *cases;
	size_t ncases;
};

/*
 * Appends the whole document to b: the XML declaration, <testsuites name
 * tests failures errors> and each suite with its counts. 0, or -1 when out
 * of memory (b->failed).
 */
int junit_write(struct html_buf *b, const char *name, const struct junit_suite *suites, size_t n);

#endif
