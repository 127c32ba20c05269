/* See help_render.h: the overview, the Markdown, and what the man pages share. */
#include "cmd/help_render.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/exit_codes.h"

enum { OVERVIEW_WIDTH = 80, EXIT_INDENT = 12, LINE_MAX_BYTES = 4096 };

const struct help_exit_code help_exit_codes[] = {
#define HELP_EXIT_ROW(name, value, phrase, meaning) {value, phrase, meaning},
    CMD_EXIT_CODES(HELP_EXIT_ROW)
#undef HELP_EXIT_ROW
};
const size_t help_exit_code_count = sizeof help_exit_codes / sizeof help_exit_codes[0];

static bool reserve(struct help_buf *b, size_t n)
{
	if (b->failed)
		return false;
	if (b->len + n + 1 <= b->cap)
		return true;
	size_t cap = (b->cap ? 2 * b->cap : 4096) + n;
	char *grown = realloc(b->s, cap);
	if (!grown) {
		b->failed = true;
		return false;
	}
	b->s = grown;
	b->cap = cap;
	return true;
}

void help_putn(struct help_buf *b, const char *s, size_t n)
{
	if (!reserve(b, n))
		return;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void help_put(struct help_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->failed = true;
		return;
	}
	if (!reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

char *help_take(struct help_buf *b)
{
	if (!b->failed && !reserve(b, 0))
		b->failed = true;
	if (b->failed) {
		free(b->s);
		return NULL;
	}
	if (b->len == 0)
		b->s[0] = '\0';
	return b->s;
}

const struct help_command *help_find(const struct help_catalog *c, const char *name)
{
	for (size_t i = 0; i < c->count; i++)
		if (strcmp(c->commands[i].spec->name, name) == 0)
			return &c->commands[i];
	return NULL;
}

void help_opt_default(const struct opt *o, char *buf, size_t len)
{
	const char *d = o->def_text ? o->def_text : o->def;
	snprintf(buf, len, "%s", d ? d : "");
}

void help_opt_range(const struct opt *o, char *buf, size_t len)
{
	char phrase[512];
	buf[0] = '\0';
	if (!o->range && (o->kind == OPT_FLAG || o->kind == OPT_STRING || o->kind == OPT_CUSTOM))
		return;
	opts_range_phrase(o, phrase, sizeof phrase);
	/* the bad-value message's phrase, without its verb */
	const char *p = strncmp(phrase, "must be ", 8) == 0 ? phrase + 8 : phrase;
	snprintf(buf, len, "%s", p);
}

void help_opt_text(const struct opt *o, char *buf, size_t len)
{
	char deflt[256];
	size_t used = 0;
	help_opt_default(o, deflt, sizeof deflt);
	buf[0] = '\0';
	for (const char *h = o->help ? o->help : ""; *h && used + 1 < len; h++) {
		if (strncmp(h, "{default}", 9) == 0) {
			used += (size_t)snprintf(buf + used, len - used, "default %s", deflt);
			h += 8;
			continue;
		}
		buf[used++] = *h == '\n' ? ' ' : *h;
		buf[used] = '\0';
	}
	if (used >= len)
		buf[len - 1] = '\0';
}

/* "exit codes: 0 ok, ...": the words of a list, wrapped at the overview's width. */
static void put_exit_list(struct help_buf *b)
{
	size_t col = (size_t)snprintf(NULL, 0, "exit codes:");
	help_put(b, "exit codes:");
	for (size_t i = 0; i < help_exit_code_count; i++) {
		char item[256];
		int n =
		    snprintf(item, sizeof item, "%d %s%s", help_exit_codes[i].value,
		             help_exit_codes[i].phrase, i + 1 < help_exit_code_count ? "," : "");
		if (col + 1 + (size_t)n > OVERVIEW_WIDTH) {
			help_put(b, "\n%*s%s", EXIT_INDENT, "", item);
			col = EXIT_INDENT + (size_t)n;
		} else {
			help_put(b, " %s", item);
			col += 1 + (size_t)n;
		}
	}
	help_put(b, "\n");
}

char *help_overview(const struct help_catalog *c)
{
	struct help_buf b = {0};
	help_put(&b, "usage: collscope [--version] [--help] <command> [options]\n"
	             "       mpirun -np N collscope <command> [options]   (commands that "
	             "measure)\n\ncommands:\n");
	for (size_t i = 0; i < c->count; i++)
		help_put(&b, "  %-10s %s%s\n", c->commands[i].spec->name, c->commands[i].summary,
		         c->commands[i].under_mpirun ? " (under mpirun)" : "");
	help_put(&b, "\n'collscope help <command>' (or 'collscope <command> --help') describes a "
	             "command;\nadd --markdown or --man for Markdown or a man page, or leave out "
	             "<command> for all.\nInstalled, the man pages are 'man collscope' and "
	             "'man collscope-<command>'.\n");
	put_exit_list(&b);
	return help_take(&b);
}

/*
 * Markdown text: characters that would start markup (emphasis, HTML, an
 * entity; '|' too in a table's cell) are escaped with a backslash; backticks
 * are kept, since the help texts use them for code.
 */
static void md_text(struct help_buf *b, const char *s, bool cell)
{
	for (const char *p = s; *p; p++) {
		bool word_before = p > s && isalnum((unsigned char)p[-1]);
		bool word_after = isalnum((unsigned char)p[1]);
		if (strchr("\\*<&", *p) || (*p == '|' && cell) ||
		    (*p == '_' && !(word_before && word_after)))
			help_put(b, "\\%c", *p);
		else
			help_putn(b, p, 1);
	}
}

/* A paragraph's first characters must not read as a heading, quote or list item. */
static void md_paragraph(struct help_buf *b, const char *s)
{
	if (strchr("#>+-=", s[0]) && s[0] && s[1] == ' ')
		help_put(b, "\\");
	md_text(b, s, false);
	help_put(b, "\n");
}

/* A cell of text, escaped; nothing for an empty value. */
static void md_cell(struct help_buf *b, const char *s)
{
	if (*s) {
		help_put(b, " ");
		md_text(b, s, true);
	}
	help_put(b, " |");
}

/* A cell as code (`8`), escaped; nothing for an empty value. */
static void md_code_cell(struct help_buf *b, const char *prefix, const char *s)
{
	if (*s) {
		help_put(b, " `%s", prefix);
		for (const char *p = s; *p; p++)
			if (*p == '|')
				help_put(b, "\\|");
			else
				help_putn(b, p, 1);
		help_put(b, "`");
	}
	help_put(b, " |");
}

/*
 * The description: lines of a paragraph joined; a blank line ends it; lines
 * that start with a space are laid out by hand (an aligned list): a code block.
 */
static void md_description(struct help_buf *b, const char *text)
{
	char para[LINE_MAX_BYTES * 4] = "";
	bool code = false;
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n');
		size_t l = nl ? (size_t)(nl - line) : strlen(line);
		bool pre = l > 0 && line[0] == ' ';
		if ((pre || l == 0) && para[0]) {
			md_paragraph(b, para);
			para[0] = '\0';
			help_put(b, pre ? "" : "\n");
		}
		if (pre && !code)
			help_put(b, "\n```text\n");
		if (!pre && code)
			help_put(b, "```\n\n");
		code = pre;
		if (pre)
			help_put(b, "%.*s\n", (int)l, line);
		else if (l > 0) {
			size_t used = strlen(para);
			snprintf(para + used, sizeof para - used, "%s%.*s", used ? " " : "", (int)l,
			         line);
		}
		line += l + (nl ? 1 : 0);
	}
	if (code)
		help_put(b, "```\n");
	if (para[0])
		md_paragraph(b, para);
}

void help_flat_exit_codes(const char *s, char *buf, size_t len)
{
	size_t used = 0;
	if (strncmp(s, "exit codes:", 11) == 0)
		s += 11;
	for (; *s && used + 1 < len; s++) {
		if (isspace((unsigned char)*s)) {
			if (used && buf[used - 1] != ' ')
				buf[used++] = ' ';
			continue;
		}
		buf[used++] = *s;
	}
	while (used && buf[used - 1] == ' ')
		used--;
	buf[used] = '\0';
}

static void md_option(struct help_buf *b, const struct opt *o)
{
	char deflt[256], range[512], text[LINE_MAX_BYTES], letter[2] = {o->letter, '\0'};
	help_opt_default(o, deflt, sizeof deflt);
	help_opt_range(o, range, sizeof range);
	help_opt_text(o, text, sizeof text);
	help_put(b, "|");
	md_code_cell(b, "--", o->name);
	md_code_cell(b, "-", letter);
	md_code_cell(b, "", o->metavar ? o->metavar : "");
	if (o->def_text) /* a description of the default, not a value to type */
		md_cell(b, deflt);
	else
		md_code_cell(b, "", deflt);
	md_cell(b, range);
	md_cell(b, text);
	help_put(b, "\n");
}

static void md_command(struct help_buf *b, const struct help_command *cmd)
{
	const struct cmd_spec *spec = cmd->spec;
	char exits[LINE_MAX_BYTES];
	help_put(b, "## collscope %s\n\n", spec->name);
	md_paragraph(b, cmd->summary);
	help_put(b, "\n```text\n");
	for (const char *line = spec->synopsis; *line;) {
		while (*line == ' ')
			line++;
		size_t l = strcspn(line, "\n");
		help_put(b, "%.*s\n", (int)l, line);
		line += l + (line[l] ? 1 : 0);
	}
	help_put(b, "```\n\n");
	md_description(b, spec->description);
	help_put(b, "\n| option | short | value | default | values | description |\n"
	            "|---|---|---|---|---|---|\n");
	for (const struct opt_group *g = spec->groups; g->opts; g++)
		for (size_t i = 0; i < g->count; i++)
			md_option(b, &g->opts[i]);
	help_put(b, "| `--help` | `-h` | | | | this text |\n");
	if (spec->exit_codes) {
		help_flat_exit_codes(spec->exit_codes, exits, sizeof exits);
		help_put(b, "\nExit codes: ");
		md_paragraph(b, exits);
	}
}

char *help_markdown_command(const struct help_command *cmd)
{
	struct help_buf b = {0};
	md_command(&b, cmd);
	return help_take(&b);
}

char *help_markdown_all(const struct help_catalog *c)
{
	struct help_buf b = {0};
	help_put(&b, "# collscope reference\n\n"
	             "<!-- Generated from the option tables by `collscope help --markdown` (`make "
	             "reference`): edit the tables in cmd/, not this file. -->\n\n"
	             "`collscope [--version] [--help] <command> [options]`; the commands that "
	             "measure run under `mpirun -np N` (or `srun`). `collscope help COMMAND` "
	             "prints what `collscope COMMAND --help` does; with `--markdown` or `--man` "
	             "it prints that command's section of this reference or its man page.\n\n"
	             "## Commands\n\n| command | what it does | under mpirun |\n|---|---|---|\n");
	for (size_t i = 0; i < c->count; i++) {
		help_put(&b, "| [`%s`](#collscope-%s) | ", c->commands[i].spec->name,
		         c->commands[i].spec->name);
		md_text(&b, c->commands[i].summary, true);
		help_put(&b, " | %s |\n", c->commands[i].under_mpirun ? "yes" : "no");
	}
	help_put(&b, "\n## Exit codes\n\nEvery command exits with one of these (its own section "
	             "says which it uses):\n\n| code | meaning |\n|---|---|\n");
	for (size_t i = 0; i < help_exit_code_count; i++) {
		help_put(&b, "| %d | ", help_exit_codes[i].value);
		md_text(&b, help_exit_codes[i].meaning, true);
		help_put(&b, " |\n");
	}
	for (size_t i = 0; i < c->count; i++) {
		help_put(&b, "\n");
		md_command(&b, &c->commands[i]);
	}
	return help_take(&b);
}
