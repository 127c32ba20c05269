/*
 * The man pages (see help_render.h): collscope(1) and collscope-COMMAND(1),
 * in the man macros, from the same tables as the Markdown. No date in .TH:
 * the same tables make the same page.
 */
#include "cmd/help_render.h"

#include <stdio.h>
#include <string.h>

enum { MAN_LINE_BYTES = 4096 };

/*
 * One line of text: '\' is \e, '-' is \- (a hyphen-minus, so that an
 * option copied from the page works), and a line that starts with '.' or '\''
 * would be a request: \& guards it.
 */
static void man_text(struct help_buf *b, const char *s, size_t n)
{
	if (n && (s[0] == '.' || s[0] == '\''))
		help_put(b, "\\&");
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\')
			help_put(b, "\\e");
		else if (s[i] == '-')
			help_put(b, "\\-");
		else
			help_putn(b, &s[i], 1);
	}
}

static void man_line(struct help_buf *b, const char *s)
{
	man_text(b, s, strlen(s));
	help_put(b, "\n");
}

static void man_header(struct help_buf *b, const struct help_catalog *c, const char *page,
                       const char *summary)
{
	help_put(b, ".TH ");
	for (const char *p = page; *p; p++) {
		if (*p == '-')
			help_put(b, "\\-");
		else
			help_put(b, "%c", *p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
	}
	help_put(b, " 1 \"\" \"collscope %s\" \"collscope manual\"\n.SH NAME\n", c->version);
	man_text(b, page, strlen(page));
	help_put(b, " \\- ");
	man_line(b, summary);
}

/*
 * The description: its lines as they are (roff fills them); a blank line
 * starts a paragraph; lines that start with a space are laid out by hand
 * (an aligned list), so they are not filled.
 */
static void man_description(struct help_buf *b, const char *text)
{
	bool pre = false;
	for (const char *line = text; *line;) {
		size_t l = strcspn(line, "\n");
		bool indented = l > 0 && line[0] == ' ';
		if (indented != pre)
			help_put(b, indented ? ".nf\n" : ".fi\n");
		pre = indented;
		if (l == 0) {
			help_put(b, ".PP\n");
		} else {
			man_text(b, line, l);
			help_put(b, "\n");
		}
		line += l + (line[l] ? 1 : 0);
	}
	if (pre)
		help_put(b, ".fi\n");
}

static void man_option(struct help_buf *b, const struct opt *o)
{
	char deflt[256], range[512], text[MAN_LINE_BYTES];
	help_opt_default(o, deflt, sizeof deflt);
	help_opt_range(o, range, sizeof range);
	help_opt_text(o, text, sizeof text);
	help_put(b, ".TP\n");
	if (o->letter)
		help_put(b, "\\fB\\-%c\\fR, ", o->letter);
	help_put(b, "\\fB\\-\\-");
	man_text(b, o->name, strlen(o->name));
	help_put(b, "\\fR");
	if (o->metavar) {
		help_put(b, " \\fI");
		man_text(b, o->metavar, strlen(o->metavar));
		help_put(b, "\\fR");
	}
	help_put(b, "\n");
	man_text(b, text, strlen(text));
	/* as --help says it: in the text where it marks the place, else after it */
	if (deflt[0] && !(o->help && strstr(o->help, "{default}"))) {
		help_put(b, " (default ");
		man_text(b, deflt, strlen(deflt));
		help_put(b, ")");
	}
	help_put(b, "\n");
	if (range[0]) {
		help_put(b, ".br\nValues: ");
		man_line(b, range);
	}
}

char *help_man_command(const struct help_catalog *c, const struct help_command *cmd)
{
	const struct cmd_spec *spec = cmd->spec;
	struct help_buf b = {0};
	char page[128], exits[MAN_LINE_BYTES];
	snprintf(page, sizeof page, "collscope-%s", spec->name);
	man_header(&b, c, page, cmd->summary);
	help_put(&b, ".SH SYNOPSIS\n.nf\n");
	for (const char *line = spec->synopsis; *line;) {
		while (*line == ' ')
			line++;
		size_t l = strcspn(line, "\n");
		man_text(&b, line, l);
		help_put(&b, "\n");
		line += l + (line[l] ? 1 : 0);
	}
	help_put(&b, ".fi\n.SH DESCRIPTION\n");
	man_description(&b, spec->description);
	help_put(&b, ".SH OPTIONS\n");
	for (const struct opt_group *g = spec->groups; g->opts; g++)
		for (size_t i = 0; i < g->count; i++)
			man_option(&b, &g->opts[i]);
	help_put(&b, ".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nthis text\n");
	if (spec->exit_codes) {
		help_flat_exit_codes(spec->exit_codes, exits, sizeof exits);
		help_put(&b, ".SH EXIT STATUS\n");
		man_line(&b, exits);
	}
	help_put(&b, ".SH SEE ALSO\n\\fBcollscope\\fR(1)\n");
	return help_take(&b);
}

char *help_man_overview(const struct help_catalog *c)
{
	struct help_buf b = {0};
	man_header(&b, c, "collscope",
	           "benchmark and diagnose all-reduce and point-to-point links over MPI");
	help_put(&b, ".SH SYNOPSIS\n.nf\n"
	             "collscope [\\-\\-version] [\\-\\-help] \\fIcommand\\fR [\\fIoptions\\fR]\n"
	             "mpirun \\-np N collscope \\fIcommand\\fR [\\fIoptions\\fR]\n"
	             "collscope help [\\fIcommand\\fR] [\\-\\-markdown | \\-\\-man]\n.fi\n"
	             ".SH DESCRIPTION\n"
	             "collscope times, verifies and compares all\\-reduce variants and the links "
	             "between ranks, and writes JSON reports that scripts and CI jobs read.\n"
	             "The commands that measure run under \\fBmpirun\\fR (or \\fBsrun\\fR); the "
	             "others run alone.\n"
	             "Each command has its page, \\fBcollscope\\-\\fIcommand\\fR(1), with every "
	             "option; \\fBcollscope help \\fIcommand\\fR prints the same as "
	             "\\fBcollscope \\fIcommand\\fB \\-\\-help\\fR.\n"
	             ".SH COMMANDS\n");
	for (size_t i = 0; i < c->count; i++) {
		help_put(&b, ".TP\n\\fB");
		man_text(&b, c->commands[i].spec->name, strlen(c->commands[i].spec->name));
		help_put(&b, "\\fR\n");
		man_text(&b, c->commands[i].summary, strlen(c->commands[i].summary));
		help_put(&b, "%s\n", c->commands[i].under_mpirun ? " (under mpirun)" : "");
	}
	help_put(&b, ".SH EXIT STATUS\n");
	for (size_t i = 0; i < help_exit_code_count; i++) {
		help_put(&b, ".TP\n\\fB%d\\fR\n", help_exit_codes[i].value);
		man_line(&b, help_exit_codes[i].meaning);
	}
	help_put(&b, ".SH SEE ALSO\n");
	for (size_t i = 0; i < c->count; i++) {
		const char *name = c->commands[i].spec->name;
		help_put(&b, "\\fBcollscope\\-");
		man_text(&b, name, strlen(name));
		help_put(&b, "\\fR(1)%s\n", i + 1 < c->count ? "," : "");
	}
	return help_take(&b);
}
