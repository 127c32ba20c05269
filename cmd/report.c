/*
 * collscope report: one or more reports as one self-contained HTML page
 * with inline SVG charts (reports/html*.c builds it in memory), written
 * atomically like the JSON reports: a temporary file in the same directory,
 * fsync, then moved into place, never replacing a file without --force.
 */
#include <mpi.h>

#include "cmd/run/run.h"
#include "reports/render/html.h"
#include "reports/io/report_read.h"
#include "cmd/small_opts.h"
#include "version.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The page to path atomically (reports/io/report_io.c); an exit code after saying why. */
static int write_page(const struct cmd_ctx *ctx, const char *path, const struct html_buf *b,
                      bool force)
{
	char err[1024];
	int rc = report_write_text_atomic(path, b->data, b->len, force, err, sizeof err);
	if (rc == REPORT_OK)
		return EXIT_OK;
	cmd_error(ctx, "report: %s", err);
	return rc == REPORT_EUSAGE ? EXIT_USAGE : EXIT_RUNTIME;
}

static int render(const struct cmd_ctx *ctx, const struct report_opts *o, struct html_input *in,
                  struct html_buf *page)
{
	char err[1024];

	for (int i = 0; i < o->files.count; i++) {
		cJSON *root = NULL;
		int rc = report_load(o->files.items[i], &root, err, sizeof err);
		in[i].path = o->files.items[i];
		in[i].root = root;
		if (rc != REPORT_OK) {
			cmd_error(ctx, "report: %s", err);
			return rc == REPORT_EIO ? EXIT_RUNTIME : EXIT_USAGE;
		}
	}
	if (html_render_page(page, in, (size_t)o->files.count, COLLSCOPE_VERSION, err, sizeof err)) {
		cmd_error(ctx, "report: %s", err);
		return page->failed ? EXIT_RUNTIME : EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_report(void *opts, struct cmd_ctx *ctx)
{
	const struct report_opts *o = opts;
	struct html_input *in = NULL;
	struct html_buf page;
	bool to_stdout = strcmp(o->out.output, "-") == 0;
	int rc = to_stdout ? EXIT_OK : run_check_output(ctx, "report", &o->out);

	html_buf_init(&page);
	if (rc != EXIT_OK)
		goto out;
	in = calloc((size_t)o->files.count, sizeof *in);
	if (!in) {
		cmd_error(ctx, "report: out of memory");
		rc = EXIT_RUNTIME;
		goto out;
	}
	rc = render(ctx, o, in, &page);
	if (rc != EXIT_OK)
		goto out;
	if (to_stdout) {
		rc = fwrite(page.data, 1, page.len, stdout) == page.len && fflush(stdout) == 0
		         ? EXIT_OK
		         : EXIT_RUNTIME;
		if (rc != EXIT_OK)
			cmd_error(ctx, "report: cannot write the page to stdout");
		goto out;
	}
	rc = write_page(ctx, o->out.output, &page, o->out.force);
	if (rc == EXIT_OK && !o->out.quiet)
		printf("report: %s (%zu bytes, %d report%s)\n", o->out.output, page.len, o->files.count,
		       o->files.count == 1 ? "" : "s");
out:
	for (int i = 0; in && i < o->files.count; i++)
		cJSON_Delete((cJSON *)in[i].root);
	free(in);
	html_buf_release(&page);
	return rc;
}
