/*
 * The fuzz target options (fuzz.h): every command's option table on a
 * command line made of the input. The first byte picks the command and the
 * rank count the world checks see; the rest is the arguments, one a line.
 * This drives the list parsers (--sizes and the other byte-size lists,
 * --counts, --ranks, variant, dtype and op lists), the sizes with suffixes
 * and every number, choice and custom parser of the tables. Oracles: a
 * refusal names its problem; options it accepts echo into a report's config.
 * No collscope option takes a list of hosts: host names come from reports
 * (targets report_read and runs).
 */
#include "fuzz.h"

#include "cmd/accept_opts.h"
#include "cmd/allreduce_opts.h"
#include "cmd/links_opts.h"
#include "cmd/scale_opts.h"
#include "cmd/small_opts.h"
#include "cmd/verify_opts.h"

#include <stdlib.h>
#include <string.h>

enum { ARGS_MAX = 64 };

int fuzz_options(const uint8_t *data, size_t size)
{
	const struct cmd_spec *specs[] = {&allreduce_spec, &links_spec,   &scale_spec,
	                                  &verify_spec,    &accept_cmd_spec, &topo_spec,
	                                  &compare_spec,   &trend_spec,   &report_spec,
	                                  &list_spec,      &schema_spec};
	const size_t nspecs = sizeof specs / sizeof specs[0];
	char err[2048] = "", *argv[ARGS_MAX + 1], *text, *p;
	const struct cmd_spec *spec;
	int argc = 1, nranks;
	void *opts;

	if (size < 2)
		return 0;
	spec = specs[data[0] % nspecs];
	nranks = 1 + data[1] % 64;
	text = fuzz_strndup(data + 2, size - 2);
	opts = calloc(1, spec->size);
	if (!text || !opts)
		goto out;
	argv[0] = (char *)spec->name;
	for (p = text; p && argc < ARGS_MAX; argc++) {
		argv[argc] = p;
		p = strchr(p, '\n');
		if (p)
			*p++ = '\0';
	}
	argv[argc] = NULL;
	switch (opts_parse(spec, argc, argv, opts, err, sizeof err)) {
	case OPTS_ERROR:
		fuzz_explained("a refused command line", err);
		break;
	case OPTS_RUN:
		err[0] = '\0';
		if (spec->check_world && spec->check_world(opts, nranks, err, sizeof err) != EXIT_OK)
			fuzz_explained("a command line refused for the rank count", err);
		cJSON *root = cJSON_CreateObject();
		if (root)
			opts_to_json(root, spec, opts);
		cJSON_Delete(root);
		break;
	case OPTS_HELP:
		break;
	}
out:
	free(opts);
	free(text);
	return 0;
}
