/* See help.h: the options of `collscope help`, and what it prints. */
#include "cmd/help.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

static const struct opt help_only[] = {
    {.name = "markdown",
     .kind = OPT_FLAG,
     .offset = offsetof(struct help_opts, markdown),
     .help = "the reference as Markdown: COMMAND's section, or all of it\n"
             "(cmd/REFERENCE.md)"},
    {.name = "man",
     .kind = OPT_FLAG,
     .offset = offsetof(struct help_opts, man),
     .help = "the man page in roff: collscope-COMMAND(1), or collscope(1)"},
    {.name = "names",
     .kind = OPT_FLAG,
     .offset = offsetof(struct help_opts, names),
     .help = "the commands' names, one per line (for scripts)"},
};

static const struct opt_group help_groups[] = {
    OPT_GROUP(help_only, 0),
    {NULL, 0, 0},
};

static int help_check(void *opts, char *err, size_t len)
{
	const struct help_opts *o = opts;
	if (o->markdown + o->man + o->names > 1) {
		snprintf(err, len,
		         "help: --markdown, --man and --names are different outputs: "
		         "give one");
		return EXIT_USAGE;
	}
	if (o->names && o->command.count) {
		snprintf(err, len, "help: --names lists every command: no COMMAND (got '%s')",
		         o->command.items[0]);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

const struct cmd_spec help_spec = {
    .name = "help",
    .synopsis = "collscope help [COMMAND] [--markdown | --man | --names]",
    .description =
        "Prints the reference, made from the same option tables as the parser, so it\n"
        "cannot drift from what the commands accept. Without COMMAND: the overview of\n"
        "'collscope --help'; with it: what 'collscope COMMAND --help' prints. --markdown\n"
        "and --man print the same as Markdown and as a man page in roff (make install\n"
        "installs the pages: 'man collscope', 'man collscope-COMMAND'). Runs without\n"
        "mpirun.\n",
    .exit_codes = "exit codes: 0 ok, 2 bad usage or an unknown COMMAND, 5 out of memory or\n"
                  "            an I/O error\n",
    .groups = help_groups,
    .size = sizeof(struct help_opts),
    .args_name = "COMMAND",
    .min_args = 0,
    .max_args = 1,
    .args_offset = offsetof(struct help_opts, command),
    .check = help_check,
};

static int print_names(const struct help_catalog *c)
{
	for (size_t i = 0; i < c->count; i++)
		printf("%s\n", c->commands[i].spec->name);
	return EXIT_OK;
}

int help_run(const struct help_opts *o, const struct help_catalog *c)
{
	const struct help_command *cmd = NULL;
	char *text;
	if (o->names)
		return print_names(c);
	if (o->command.count) {
		cmd = help_find(c, o->command.items[0]);
		if (!cmd) {
			fprintf(stderr,
			        "collscope: error: help: unknown command '%s' (see 'collscope "
			        "--help')\n",
			        o->command.items[0]);
			return EXIT_USAGE;
		}
	}
	if (o->markdown)
		text = cmd ? help_markdown_command(cmd) : help_markdown_all(c);
	else if (o->man)
		text = cmd ? help_man_command(c, cmd) : help_man_overview(c);
	else
		text = cmd ? opts_usage(cmd->spec) : help_overview(c);
	if (!text) {
		fprintf(stderr, "collscope: error: help: out of memory\n");
		return EXIT_RUNTIME;
	}
	fputs(text, stdout);
	free(text);
	return EXIT_OK;
}
