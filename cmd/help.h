/*
 * collscope help [COMMAND] [--markdown | --man | --names]: the reference,
 * from the command table of cmd/main.c, which hands it over as a catalog
 * (help_render.h). Pure: no MPI; prints on stdout and stderr.
 */
#ifndef COLLSCOPE_CMD_HELP_H
#define COLLSCOPE_CMD_HELP_H

#include "cmd/help_render.h"
#include "cmd/opts.h"

struct help_opts {
	bool markdown, man, names;
	struct opt_args command; /* at most one */
};

extern const struct cmd_spec help_spec;

/*
 * Prints what the options ask for, of the catalog's commands; an exit code
 * (EXIT_USAGE after naming an unknown command, EXIT_RUNTIME when out of
 * memory).
 */
int help_run(const struct help_opts *o, const struct help_catalog *c);

#endif
