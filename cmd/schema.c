/* collscope schema: the report's schema, from the one table (reports/io/schema_table.h). */
#include <mpi.h>

#include "cmd/cmd.h"
#include "cmd/small_opts.h"
#include "reports/io/report_schema.h"

#include <stdlib.h>

int cmd_schema(void *opts, struct cmd_ctx *ctx)
{
	const struct schema_opts *o = opts;
	enum report_command c = REPORT_COMMANDS;
	char *text = NULL;
	cJSON *schema = NULL;
	if (o->command.count)
		report_command_parse(o->command.items[0], &c); /* checked by schema_check */
	if (o->markdown) {
		text = schema_markdown();
	} else {
		schema = schema_json(c);
		text = schema ? cJSON_Print(schema) : NULL;
	}
	cJSON_Delete(schema);
	if (!text) {
		cmd_error(ctx, "schema: out of memory");
		return EXIT_RUNTIME;
	}
	fputs(text, stdout);
	if (!o->markdown)
		putchar('\n');
	free(text);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_RUNTIME;
}
