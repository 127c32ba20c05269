/*
 * Terminal-safe text: every control a terminal acts on is written as an
 * escape, every other character as it is; and compare's labels use it.
 */
#include "reports/compare/compare_points.h"
#include "reports/render/report_text.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void escapes_to(const char *in, const char *want)
{
	char out[256];
	size_t need = report_escape_text(out, sizeof out, in);

	cr_assert_str_eq(out, want, "'%s'", in);
	cr_assert_eq(need, strlen(want));
}

Test(report_text, escapes_what_a_terminal_acts_on)
{
	escapes_to("plain host-01.example", "plain host-01.example");
	escapes_to("\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m");
	escapes_to("\x1b]0;title\x07", "\\x1b]0;title\\x07");
	escapes_to("a\tb\nc\rd\x7f", "a\\x09b\\x0ac\\x0dd\\x7f");
	escapes_to("csi \xc2\x9b"
	           "2J",
	           "csi \\u009b2J"); /* U+009B: CSI to a terminal */
	escapes_to("\xc2\x80\xc2\x9f\xc2\xa0", "\\u0080\\u009f\xc2\xa0"); /* C1; NBSP is text */
	escapes_to("caf\xe9", "caf\\xe9");                                /* not UTF-8 */
	escapes_to("\x9b", "\\x9b");                                      /* a lone 8-bit CSI */
	escapes_to("abc\xe2\x80\xae"
	           "cba",
	           "abc\\u202ecba"); /* right-to-left override */
	escapes_to("\xe2\x81\xa6x\xe2\x81\xa9", "\\u2066x\\u2069");
	escapes_to("\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c", "\\u200e\\u200f\\u061c"); /* LRM, RLM, ALM */
	escapes_to("a\xe2\x80\xa8" "b\xe2\x80\xa9", "a\\u2028b\\u2029");          /* separators */
	escapes_to("\xe2\x80\x8b\xe2\x80\x94", "\xe2\x80\x8b\xe2\x80\x94");        /* ZWSP, em dash: text */
	escapes_to("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	           "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
}

Test(report_text, cuts_only_between_escapes)
{
	char out[8];

	cr_assert_eq(report_escape_text(out, sizeof out, "ab\x1b\x1b"), 10);
	cr_assert_str_eq(out, "ab\\x1b", "the second escape does not fit whole");
	cr_assert_eq(report_escape_text(out, 1, "abc"), 3);
	cr_assert_str_eq(out, "");
	cr_assert_eq(report_escape_text(NULL, 0, "\x1b"), 4);
}

Test(report_text, to_a_stream)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_eq(report_fput_escaped(f, "x\x1b[2Jy\xc2\x9b"), 0);
	fclose(f);
	cr_assert_str_eq(text, "x\\x1b[2Jy\\u009b");
	free(text);
}

/* A host name holding a terminal escape reaches compare's table escaped. */
Test(report_text, compare_labels_are_escaped)
{
	struct cmp_run run = {.kind = CMP_KIND_LINKS};
	struct cmp_point p = {.a = 0,
	                      .b = 1,
	                      .host_a = "h\x1b[31m",
	                      .host_b = "\xc2\x9b"
	                                "2J"};
	char label[CMP_LABEL_BYTES];

	cmp_point_label(&run, &p, label, sizeof label);
	cr_assert_str_eq(label, "0->1 (h\\x1b[31m->\\u009b2J)");
}
