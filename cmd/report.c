/*
 * collscope report: one or more reports as one self-contained HTML page
 * with inline SVG charts (reports/html*.c builds it in memory), written
 * atomically like the JSON reports: a temporary file in the same directory,
 * fsync, then moved into place, never replacing a file without --force.
 */
#include <mpi.h>

#include "cmd.h"
#include "html.h"
#include "report_read.h"
#include "version.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char cmd_report_usage[] =
    "usage: collscope report [options] FILE... -o report.html\n\n"
    "Renders one or more JSON reports as one self-contained HTML page (no script,\n"
    "no network, no external style or font) with inline SVG charts: for allreduce,\n"
    "busbw, p50 and p99 time against message size (log2 axis) per variant; for\n"
    "links, the rank-to-rank bandwidth and latency heatmaps with the suspects\n"
    "marked; for scale, efficiency and speedup against ranks, measured and\n"
    "predicted drawn apart; for compare, the verdicts. Every report's context\n"
    "(hosts, MPI library, command line) and verdicts are tables. A kind of report\n"
    "the page cannot chart gets its context and summary, and a note saying so.\n"
    "Reports are read from regular files only; FILE '-' is standard input.\n"
    "Runs without mpirun.\n\n"
    "  -o, --output FILE   the page ('-' for stdout); required\n"
    "      --force         overwrite an existing FILE\n"
    "  -q, --quiet         do not print the path written\n"
    "  -h, --help          this text\n\n"
    "exit codes: 0 ok, 2 bad usage or a report that cannot be read (the message\n"
    "            names the file and the problem), 5 I/O error or out of memory\n";

struct report_opts {
	const char *output;
	bool force, quiet;
	int first, count; /* the input files in argv */
};

static int parse_args(const struct cmd_ctx *ctx, int argc, char **argv, struct report_opts *o)
{
	static const struct option longopts[] = {
	    {"output", required_argument, NULL, 'o'},
	    {"force", no_argument, NULL, 'F'},
	    {"quiet", no_argument, NULL, 'q'},
	    {0},
	};
	char err[1024];
	int c;

	memset(o, 0, sizeof *o);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:q", longopts, NULL)) != -1) {
		if (c == 'o')
			o->output = optarg;
		else if (c == 'F')
			o->force = true;
		else if (c == 'q')
			o->quiet = true;
		else
			return cmd_usage_error(ctx, "report", argc, argv);
	}
	o->first = optind;
	o->count = argc - optind;
	for (int i = optind, dashes = 0; i < argc; i++)
		if (strcmp(argv[i], "-") == 0 && ++dashes > 1) {
			cmd_error(ctx, "report: only one FILE can be '-' (standard input)");
			return EXIT_USAGE;
		}
	if (o->count == 0 || !o->output) {
		cmd_error(ctx, "report: %s (see 'collscope report --help')",
		          o->count == 0 ? "no report to render" : "-o FILE is required");
		return EXIT_USAGE;
	}
	if (strcmp(o->output, "-") != 0 &&
	    report_check_output_path(o->output, o->force, err, sizeof err) != REPORT_OK) {
		cmd_error(ctx, "report: %s", err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The page to path atomically (reports/report_io.c); an exit code after saying why. */
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

static int render(const struct cmd_ctx *ctx, const struct report_opts *o, char **argv,
                  struct html_input *in, struct html_buf *page)
{
	char err[1024];

	for (int i = 0; i < o->count; i++) {
		cJSON *root;
		int rc = report_load(argv[o->first + i], &root, err, sizeof err);
		in[i].path = argv[o->first + i];
		in[i].root = root;
		if (rc != REPORT_OK) {
			cmd_error(ctx, "report: %s", err);
			return rc == REPORT_EIO ? EXIT_RUNTIME : EXIT_USAGE;
		}
	}
	if (html_render_page(page, in, (size_t)o->count, COLLSCOPE_VERSION, err, sizeof err)) {
		cmd_error(ctx, "report: %s", err);
		return page->failed ? EXIT_RUNTIME : EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_report(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct report_opts o;
	struct html_input *in = NULL;
	struct html_buf page;
	int rc = parse_args(ctx, argc, argv, &o);

	html_buf_init(&page);
	if (rc != EXIT_OK)
		goto out;
	in = calloc((size_t)o.count, sizeof *in);
	if (!in) {
		cmd_error(ctx, "report: out of memory");
		rc = EXIT_RUNTIME;
		goto out;
	}
	rc = render(ctx, &o, argv, in, &page);
	if (rc != EXIT_OK)
		goto out;
	if (strcmp(o.output, "-") == 0) {
		rc = fwrite(page.data, 1, page.len, stdout) == page.len && fflush(stdout) == 0
		         ? EXIT_OK
		         : EXIT_RUNTIME;
		if (rc != EXIT_OK)
			cmd_error(ctx, "report: cannot write the page to stdout");
		goto out;
	}
	rc = write_page(ctx, o.output, &page, o.force);
	if (rc == EXIT_OK && !o.quiet)
		printf("report: %s (%zu bytes, %d report%s)\n", o.output, page.len, o.count,
		       o.count == 1 ? "" : "s");
out:
	for (int i = 0; in && i < o.count; i++)
		cJSON_Delete((cJSON *)in[i].root);
	free(in);
	html_buf_release(&page);
	return rc;
}
