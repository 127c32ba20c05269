/*
 * The reference of collscope, rendered from what already drives the parser:
 * the command table of cmd/main.c (names, summaries), each command's option
 * table (struct cmd_spec, cmd/opts.h) and the exit codes (cmd/exit_codes.h).
 * Three forms: the overview of `collscope --help` (plain text), Markdown
 * (cmd/REFERENCE.md is `collscope help --markdown`) and roff man pages
 * (help_man.c). A command's own plain text is opts_usage's.
 *
 * Pure: no MPI, no I/O. Every function returns a NUL-terminated string owned
 * by the caller (free it), or NULL when out of memory.
 */
#ifndef COLLSCOPE_CMD_HELP_RENDER_H
#define COLLSCOPE_CMD_HELP_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd/opts.h"

/* One command as the table of cmd/main.c lists it. */
struct help_command {
	const struct cmd_spec *spec;
	const char *summary; /* one line */
	bool under_mpirun;   /* it measures: launched by mpirun (or srun) */
};

/* Every command, in the order of the table; borrowed. */
struct help_catalog {
	const struct help_command *commands;
	size_t count;
	const char *version; /* "0.1.0": the man pages' footer */
};

/* The command named name, or NULL. */
const struct help_command *help_find(const struct help_catalog *c, const char *name);

/* `collscope --help`: usage, the commands, where the reference is, the exit codes. */
char *help_overview(const struct help_catalog *c);

/* One command as a Markdown section: synopsis, description, options table, exit codes. */
char *help_markdown_command(const struct help_command *cmd);
/* The whole reference: the commands table, the exit codes, then every command's section. */
char *help_markdown_all(const struct help_catalog *c);

/* collscope-COMMAND(1). */
char *help_man_command(const struct help_catalog *c, const struct help_command *cmd);
/* collscope(1): the commands, the exit codes, and the pages of the commands. */
char *help_man_overview(const struct help_catalog *c);

/*
 * Shared by the Markdown and roff renderers (help_render.c).
 *
 * A growing string; after an allocation failure it stays failed and ignores
 * writes.
 */
struct help_buf {
	char *s;
	size_t len, cap;
	bool failed;
};

void help_put(struct help_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void help_putn(struct help_buf *b, const char *s, size_t n);
/* The string, handed over to the caller; NULL (and freed) after a failure. */
char *help_take(struct help_buf *b);

/*
 * What the reference says of an option, in one line each: its default
 * (def_text or def; "" when none), the values it takes ("" when the parser
 * alone knows: a string, a custom list) and its text ('\n' joined by a
 * space, "{default}" replaced by "default X"; without the mark the default is
 * left to its own column).
 */
void help_opt_default(const struct opt *o, char *buf, size_t len);
void help_opt_range(const struct opt *o, char *buf, size_t len);
void help_opt_text(const struct opt *o, char *buf, size_t len);

/* A command's "exit codes: 0 ok, ...\n      4 ..." on one line, without its label. */
void help_flat_exit_codes(const char *s, char *buf, size_t len);

/* The exit codes: n rows, each with its value, short phrase and meaning. */
struct help_exit_code {
	int value;
	const char *phrase, *meaning;
};
extern const struct help_exit_code help_exit_codes[];
extern const size_t help_exit_code_count;

#endif
