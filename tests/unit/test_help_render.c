/*
 * The reference's renderers (cmd/help_render.h): the overview of
 * `collscope --help`, the Markdown and the man pages, from a fixture table
 * whose texts need every escape, and from every real command's table: each
 * option in each form, with its text.
 */
#include "cmd/accept_opts.h"
#include "cmd/allreduce_opts.h"
#include "cmd/exit_codes.h"
#include "cmd/help.h"
#include "cmd/help_render.h"
#include "cmd/links_opts.h"
#include "cmd/scale_opts.h"
#include "cmd/small_opts.h"
#include "cmd/verify_opts.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

struct fixture_opts {
	bool flag;
	int count, mode;
	uint64_t bytes;
	double frac;
	const char *name;
};

static const char *const modes[] = {"fast", "slow", "both", NULL};

static const struct opt fixture_table[] = {
    {.name = "flag", .letter = 'F', .kind = OPT_FLAG, .help = "a flag, *not* a <tag>"},
    {.name = "count",
     .letter = 'n',
     .kind = OPT_INT,
     .offset = offsetof(struct fixture_opts, count),
     .metavar = "N",
     .def = "3",
     .min = 1,
     .max = 10,
     .help = "how many ({default});\nsecond line"},
    {.name = "mode",
     .kind = OPT_CHOICE,
     .offset = offsetof(struct fixture_opts, mode),
     .metavar = "fast|slow",
     .def = "fast",
     .choices = modes,
     .help = "a_b or a | b"},
    {.name = "bytes",
     .kind = OPT_BYTES,
     .offset = offsetof(struct fixture_opts, bytes),
     .metavar = "SIZE",
     .def_text = "all of it",
     .min = 0,
     .max = 1.8e19,
     .help = "\\ back-slash"},
    {.name = "frac",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct fixture_opts, frac),
     .metavar = "F",
     .def = "0.5",
     .min = 0,
     .max = 1,
     .range = "must be a fraction from 0 to 1",
     .help = "a fraction"},
    {.name = "name",
     .kind = OPT_STRING,
     .offset = offsetof(struct fixture_opts, name),
     .metavar = "NAME",
     .help = NULL},
};

static const struct opt_group fixture_groups[] = {
    OPT_GROUP(fixture_table, 0),
    {NULL, 0, 0},
};

static const struct cmd_spec fixture_spec = {
    .name = "fix-ture",
    .synopsis = "collscope fix-ture [options]\n       collscope fix-ture --other",
    .description = "First paragraph, line one\nline two.\n\n"
                   "'quoted start and\n"
                   ".dot start\n"
                   "  an aligned line\n"
                   "  and another\n"
                   "after the list.\n",
    .exit_codes = "exit codes: 0 ok,\n            2 bad usage\n",
    .groups = fixture_groups,
    .size = sizeof(struct fixture_opts),
};

static const struct help_command fixture_commands[] = {
    {&fixture_spec, "a fixture with every escape", true},
    {&list_spec, "the variants", false},
};
static const struct help_catalog fixture = {fixture_commands, 2, "9.9.9"};

static const struct cmd_spec *const real_specs[] = {
    &allreduce_spec, &scale_spec, &links_spec,  &verify_spec,     &topo_spec, &list_spec,
    &compare_spec,   &trend_spec, &report_spec, &accept_cmd_spec, &help_spec};
enum { NREAL = sizeof real_specs / sizeof real_specs[0] };

static void expect_has(const char *text, const char *want)
{
	cr_expect(strstr(text, want), "lacks <<%s>> in:\n%s", want, text);
}

Test(help_render, exit_codes_are_the_enum_in_order)
{
	static const int want[] = {EXIT_OK,    EXIT_CHECK_FAILED, EXIT_USAGE,
	                           EXIT_WRONG, EXIT_HANG,         EXIT_RUNTIME};
	cr_assert_eq(help_exit_code_count, sizeof want / sizeof want[0]);
	for (size_t i = 0; i < help_exit_code_count; i++) {
		cr_expect_eq(help_exit_codes[i].value, want[i]);
		cr_expect(*help_exit_codes[i].phrase && *help_exit_codes[i].meaning);
	}
}

/* The overview's exit codes are today's line, wrapped where it was. */
Test(help_render, overview)
{
	char *text = help_overview(&fixture);
	cr_assert(text);
	expect_has(text, "usage: collscope [--version] [--help] <command> [options]\n");
	expect_has(text, "\ncommands:\n  fix-ture   a fixture with every escape (under mpirun)\n"
	                 "  list       the variants\n\n");
	expect_has(text, "'collscope help <command>'");
	expect_has(text, "'man collscope'");
	expect_has(text,
	           "exit codes: 0 ok, 1 a check failed, 2 bad usage or input, 3 wrong "
	           "results,\n            4 hang or dead rank, 5 runtime, MPI or I/O error\n");
	free(text);
}

Test(help_render, find)
{
	cr_expect_eq(help_find(&fixture, "list"), &fixture_commands[1]);
	cr_expect_null(help_find(&fixture, "lis"));
	cr_expect_null(help_find(&fixture, ""));
}

Test(help_render, option_fields)
{
	char buf[512];
	help_opt_range(&fixture_table[0], buf, sizeof buf);
	cr_expect_str_eq(buf, "");
	help_opt_range(&fixture_table[1], buf, sizeof buf);
	cr_expect_str_eq(buf, "a whole number from 1 to 10");
	help_opt_range(&fixture_table[2], buf, sizeof buf);
	cr_expect_str_eq(buf, "fast, slow or both");
	help_opt_range(&fixture_table[3], buf, sizeof buf);
	cr_expect_str_eq(buf, "a byte count (suffixes K M G T)");
	help_opt_range(&fixture_table[4], buf, sizeof buf);
	cr_expect_str_eq(buf, "a fraction from 0 to 1");
	help_opt_range(&fixture_table[5], buf, sizeof buf);
	cr_expect_str_eq(buf, "");
	help_opt_text(&fixture_table[1], buf, sizeof buf);
	cr_expect_str_eq(buf, "how many (default 3); second line");
	help_opt_text(&fixture_table[5], buf, sizeof buf);
	cr_expect_str_eq(buf, "");
	help_opt_default(&fixture_table[3], buf, sizeof buf);
	cr_expect_str_eq(buf, "all of it");
	help_opt_default(&fixture_table[0], buf, sizeof buf);
	cr_expect_str_eq(buf, "");
	help_flat_exit_codes(fixture_spec.exit_codes, buf, sizeof buf);
	cr_expect_str_eq(buf, "0 ok, 2 bad usage");
}

Test(help_render, markdown_command)
{
	char *md = help_markdown_command(&fixture_commands[0]);
	cr_assert(md);
	expect_has(md, "## collscope fix-ture\n\na fixture with every escape\n\n"
	               "```text\ncollscope fix-ture [options]\ncollscope fix-ture --other\n```\n");
	/* a paragraph's lines joined; the aligned lines a code block */
	expect_has(md, "\nFirst paragraph, line one line two.\n\n'quoted start and .dot start\n\n"
	               "```text\n  an aligned line\n  and another\n```\n\nafter the list.\n");
	expect_has(md, "| option | short | value | default | values | description |\n");
	expect_has(md, "| `--flag` | `-F` | | | | a flag, \\*not\\* a \\<tag> |\n");
	expect_has(md, "| `--count` | `-n` | `N` | `3` | a whole number from 1 to 10 | how many "
	               "(default 3); second line |\n");
	expect_has(md, "| `--mode` | | `fast\\|slow` | `fast` | fast, slow or both | a_b or a \\| "
	               "b |\n");
	/* a default that is a description is not code */
	expect_has(md, "| `--bytes` | | `SIZE` | all of it | a byte count (suffixes K M G T) | "
	               "\\\\ back-slash |\n");
	expect_has(md, "| `--name` | | `NAME` | | | |\n");
	expect_has(md, "| `--help` | `-h` | | | | this text |\n");
	expect_has(md, "\nExit codes: 0 ok, 2 bad usage\n");
	free(md);
}

Test(help_render, markdown_all)
{
	char *md = help_markdown_all(&fixture);
	cr_assert(md);
	cr_expect_eq(strncmp(md, "# collscope reference\n", 22), 0);
	expect_has(md, "| [`fix-ture`](#collscope-fix-ture) | a fixture with every escape | yes |\n"
	               "| [`list`](#collscope-list) | the variants | no |\n");
	expect_has(md, "| 4 | a hang or a dead rank");
	expect_has(md, "\n## collscope fix-ture\n");
	expect_has(md, "\n## collscope list\n");
	cr_expect(strstr(md, "## collscope fix-ture") < strstr(md, "## collscope list"));
	free(md);
}

/* No line of text may start as a request: '.' or '\'' only in the macros. */
static void expect_roff_lines(const char *man)
{
	static const char *const requests[] = {".TH ",  ".SH ",  ".TP\n", ".PP\n",
	                                       ".nf\n", ".fi\n", ".br\n"};
	for (const char *line = man; *line; line = strchr(line, '\n') + 1) {
		cr_assert(strchr(line, '\n'), "the page does not end with a newline");
		if (*line == '\'')
			cr_expect(0, "a line starts with a quote: %.40s", line);
		if (*line != '.')
			continue;
		bool known = false;
		for (size_t i = 0; i < sizeof requests / sizeof requests[0]; i++)
			known |= strncmp(line, requests[i], strlen(requests[i])) == 0;
		cr_expect(known, "a line starts with a dot: %.40s", line);
	}
}

Test(help_render, man_command)
{
	char *man = help_man_command(&fixture, &fixture_commands[0]);
	cr_assert(man);
	cr_expect_eq(strncmp(man, ".TH COLLSCOPE\\-FIX\\-TURE 1 \"\" \"collscope 9.9.9\"", 45), 0,
	             "%s", man);
	expect_has(man, ".SH NAME\ncollscope\\-fix\\-ture \\- a fixture with every escape\n");
	expect_has(man, ".SH SYNOPSIS\n.nf\ncollscope fix\\-ture [options]\n"
	                "collscope fix\\-ture \\-\\-other\n.fi\n");
	expect_has(man, "line two.\n.PP\n\\&'quoted start and\n\\&.dot start\n"
	                ".nf\n  an aligned line\n  and another\n.fi\nafter the list.\n");
	expect_has(man, ".TP\n\\fB\\-F\\fR, \\fB\\-\\-flag\\fR\na flag, *not* a <tag>\n");
	expect_has(man, ".TP\n\\fB\\-n\\fR, \\fB\\-\\-count\\fR \\fIN\\fR\nhow many (default 3); "
	                "second line\n.br\nValues: a whole number from 1 to 10\n");
	expect_has(man, "\\fB\\-\\-mode\\fR \\fIfast|slow\\fR\na_b or a | b (default fast)\n");
	expect_has(man, "\\fB\\-\\-bytes\\fR \\fISIZE\\fR\n\\e back\\-slash (default all of it)\n");
	expect_has(man, ".SH EXIT STATUS\n0 ok, 2 bad usage\n");
	expect_roff_lines(man);
	free(man);
}

Test(help_render, man_overview)
{
	char *man = help_man_overview(&fixture);
	cr_assert(man);
	cr_expect_eq(strncmp(man, ".TH COLLSCOPE 1 ", 16), 0);
	expect_has(man, ".TP\n\\fBfix\\-ture\\fR\na fixture with every escape (under mpirun)\n");
	expect_has(man, ".TP\n\\fB3\\fR\nwrong results");
	expect_has(man, "\\fBcollscope\\-fix\\-ture\\fR(1),\n\\fBcollscope\\-list\\fR(1)\n");
	expect_roff_lines(man);
	free(man);
}

/* Every option of every command, in both forms, with a text: nothing the parser takes is
 * left out of the reference. */
Test(help_render, every_real_option_is_documented)
{
	for (int i = 0; i < NREAL; i++) {
		struct help_command cmd = {real_specs[i], "summary", false};
		char *md = help_markdown_command(&cmd);
		char *man = help_man_command(&fixture, &cmd);
		cr_assert(md && man, "%s", real_specs[i]->name);
		expect_roff_lines(man);
		for (const struct opt_group *g = real_specs[i]->groups; g->opts; g++)
			for (size_t k = 0; k < g->count; k++) {
				const struct opt *o = &g->opts[k];
				char row[128], item[128], text[4096];
				cr_expect(o->help && *o->help, "%s --%s has no help text",
				          real_specs[i]->name, o->name);
				snprintf(row, sizeof row, "| `--%s` |", o->name);
				expect_has(md, row);
				help_opt_text(o, text, sizeof text);
				cr_expect(strstr(text, "{default}") == NULL);
				size_t used = (size_t)snprintf(item, sizeof item, "\\fB\\-\\-");
				for (const char *p = o->name; *p && used + 8 < sizeof item; p++)
					used += *p == '-'
					            ? (size_t)snprintf(item + used, 3, "\\-")
					            : (size_t)snprintf(item + used, 2, "%c", *p);
				snprintf(item + used, sizeof item - used, "\\fR");
				expect_has(man, item);
			}
		free(md);
		free(man);
	}
}
