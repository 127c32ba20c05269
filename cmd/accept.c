/*
 * collscope accept, the modes that need no MPI: --derive writes a spec from
 * known-good reports, --check-spec names every problem of a spec. The
 * measuring mode (mpirun ... collscope accept SPEC) is a layer over the pure
 * modules of reports/accept*.c: read and check the spec here, run the
 * checks, fill struct accept_figures per repeat, accept_judge, search the
 * failing job-wide checks with accept_bisect, print and write.
 */
#include <mpi.h>

#include "accept_derive.h"
#include "accept_spec.h"
#include "cmd.h"
#include "parse.h"
#include "report_read.h"
#include "variant.h"
#include "version.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

const char cmd_accept_usage[] =
    "usage: collscope accept --derive SPEC_OUT [--tolerance PCT] [--force] REPORT...\n"
    "       collscope accept --check-spec SPEC\n\n"
    "Cluster acceptance from a spec: a JSON file listing the checks (topology, verify,\n"
    "links, allreduce) and their thresholds (README.md, \"collscope accept\").\n\n"
    "--derive writes a spec from known-good topo, links and allreduce reports: each\n"
    "threshold is the median of what they measured, a minimum x (1 - PCT/100) and a\n"
    "maximum x (1 + PCT/100), per locality class for links and per variant and size\n"
    "for allreduce; the spec records where each came from. Reports that are not\n"
    "complete, have suspects or wrong elements are refused. Runs without mpirun.\n"
    "--check-spec reads a spec and names every bad field with its JSON path.\n"
    "Measuring a cluster against a spec (under mpirun) is not in this build yet.\n\n"
    "      --derive SPEC_OUT  write the derived spec to SPEC_OUT (atomically)\n"
    "      --tolerance PCT    0 <= PCT < 100 (default 10)\n"
    "      --force            replace SPEC_OUT if it exists\n"
    "      --check-spec SPEC  check SPEC; exit 0 when it is valid\n"
    "  -q, --quiet            no summary on stdout\n"
    "  -h, --help             this text\n\n"
    "exit codes: 0 ok, 2 bad usage, a bad spec or a report that cannot be used,\n"
    "            5 I/O error\n";

struct accept_opts {
	const char *derive_out, *check_spec;
	double tolerance_pct;
	bool force, quiet;
	char **reports;
	int nreports;
};

static int parse_args(const struct cmd_ctx *ctx, int argc, char **argv, struct accept_opts *o)
{
	static const struct option longopts[] = {
	    {"derive", required_argument, NULL, 'D'}, {"tolerance", required_argument, NULL, 'T'},
	    {"force", no_argument, NULL, 'F'},        {"check-spec", required_argument, NULL, 'C'},
	    {"quiet", no_argument, NULL, 'q'},        {0},
	};
	const char *why = NULL;
	int c;

	*o = (struct accept_opts){.tolerance_pct = ACCEPT_DEFAULT_TOLERANCE_PCT};
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "q", longopts, NULL)) != -1) {
		switch (c) {
		case 'D': o->derive_out = optarg; break;
		case 'C': o->check_spec = optarg; break;
		case 'F': o->force = true; break;
		case 'q': o->quiet = true; break;
		case 'T':
			if (parse_double(optarg, 0, 100, &o->tolerance_pct, &why) != 0 ||
			    o->tolerance_pct >= 100) {
				cmd_error(ctx, "accept: bad value '%s' for --tolerance: %s", optarg,
				          why ? why : "must be under 100");
				return EXIT_USAGE;
			}
			break;
		default: return cmd_usage_error(ctx, "accept", argc, argv);
		}
	}
	o->reports = argv + optind;
	o->nreports = argc - optind;
	if (o->derive_out && o->check_spec) {
		cmd_error(ctx, "accept: --derive and --check-spec are different modes: give one");
		return EXIT_USAGE;
	}
	if (!o->derive_out && !o->check_spec) {
		cmd_error(ctx,
		          "accept: measuring against a spec is not in this build yet: use "
		          "--check-spec SPEC to check one, --derive SPEC_OUT REPORT... to write "
		          "one (see 'collscope accept --help')");
		return EXIT_USAGE;
	}
	if (o->derive_out && o->nreports == 0) {
		cmd_error(ctx, "accept: --derive needs the known-good reports to derive from");
		return EXIT_USAGE;
	}
	if (o->check_spec && o->nreports > 0) {
		cmd_error(ctx, "accept: unexpected argument '%s'", o->reports[0]);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* Every line of err, as errors about what (a spec or the reports). */
static void print_lines(const struct cmd_ctx *ctx, const char *what, char *err)
{
	char *save = NULL;

	for (char *line = strtok_r(err, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		cmd_error(ctx, "accept: %s%s", what, line);
}

static int check_spec(const struct cmd_ctx *ctx, const struct accept_opts *o)
{
	const char *dtypes[AR_DTYPE_COUNT], *ops[AR_OP_COUNT];
	const char **variants = calloc(ar_variant_count() + 1, sizeof *variants);
	struct accept_names names = {variants, ar_variant_count(), dtypes, AR_DTYPE_COUNT,
	                             ops,      AR_OP_COUNT};
	struct accept_spec spec;
	char err[16384], what[1100];
	cJSON *root = NULL;
	int rc = EXIT_USAGE;

	if (!variants) {
		cmd_error(ctx, "accept: out of memory");
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; ar_variants[i]; i++)
		variants[i] = ar_variants[i]->name;
	for (int i = 0; i < AR_DTYPE_COUNT; i++)
		dtypes[i] = ar_dtype_name((enum ar_dtype)i);
	for (int i = 0; i < AR_OP_COUNT; i++)
		ops[i] = ar_op_name((enum ar_op)i);
	root = report_read(o->check_spec, err, sizeof err);
	if (!root) {
		cmd_error(ctx, "accept: %s", err);
		goto out;
	}
	if (accept_spec_parse_names(root, &names, &spec, err, sizeof err) != 0) {
		snprintf(what, sizeof what, "spec '%s': ", o->check_spec);
		print_lines(ctx, what, err);
		goto out;
	}
	if (!o->quiet)
		printf("accept: spec '%s' is valid: topology %s, verify %zu variant%s, links %s, "
		       "allreduce %zu point%s\n",
		       o->check_spec, spec.has[ACCEPT_TOPOLOGY] ? "yes" : "no",
		       spec.verify.nvariants, spec.verify.nvariants == 1 ? "" : "s",
		       spec.has[ACCEPT_LINKS] ? "yes" : "no", spec.allreduce.npoints,
		       spec.allreduce.npoints == 1 ? "" : "s");
	accept_spec_release(&spec);
	rc = EXIT_OK;
out:
	cJSON_Delete(root);
	free(variants);
	return rc;
}

/* Reads every report; EXIT_USAGE after naming each that cannot be read. */
static int read_reports(const struct cmd_ctx *ctx, const struct accept_opts *o,
                        struct accept_source *src)
{
	char err[1024];
	int rc = EXIT_OK;

	for (int i = 0; i < o->nreports; i++) {
		src[i].path = o->reports[i];
		src[i].root = report_read(o->reports[i], err, sizeof err);
		if (!src[i].root) {
			cmd_error(ctx, "accept: %s", err);
			rc = EXIT_USAGE;
		}
	}
	return rc;
}

/* "topology, verify (2 variants), links, allreduce (6 points)" of the derived spec. */
static void print_derived(const struct accept_opts *o, const cJSON *root)
{
	const cJSON *checks = cJSON_GetObjectItemCaseSensitive(root, "checks");
	const cJSON *ar = cJSON_GetObjectItemCaseSensitive(checks, "allreduce");
	const cJSON *verify = cJSON_GetObjectItemCaseSensitive(checks, "verify");
	const cJSON *derived = cJSON_GetObjectItemCaseSensitive(root, "derived");
	int points = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(ar, "points"));
	int variants = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(verify, "variants"));
	const cJSON *notes = cJSON_GetObjectItemCaseSensitive(derived, "notes"), *n;

	printf("accept: derived '%s' from %d report%s, tolerance %.6g%%: topology%s%s, "
	       "allreduce %d point%s\n",
	       o->derive_out, o->nreports, o->nreports == 1 ? "" : "s", o->tolerance_pct,
	       cJSON_GetObjectItemCaseSensitive(checks, "links") ? ", links" : "",
	       variants ? ", verify" : "", points, points == 1 ? "" : "s");
	for (n = notes ? notes->child : NULL; n; n = n->next)
		if (cJSON_IsString(n))
			printf("accept: note: %s\n", n->valuestring);
}

static int derive(const struct cmd_ctx *ctx, const struct accept_opts *o)
{
	struct accept_source *src = calloc((size_t)o->nreports + 1, sizeof *src);
	struct report_context c;
	char err[16384];
	cJSON *root = NULL;
	int rc = EXIT_RUNTIME;

	report_context_init(&c);
	if (!src) {
		cmd_error(ctx, "accept: out of memory");
		goto out;
	}
	if (report_check_output_path(o->derive_out, o->force, err, sizeof err) != REPORT_OK) {
		cmd_error(ctx, "accept: %s", err);
		rc = EXIT_USAGE;
		goto out;
	}
	if ((rc = read_reports(ctx, o, src)) != EXIT_OK)
		goto out;
	c.tool_version = COLLSCOPE_VERSION;
	c.tool_git = COLLSCOPE_GIT;
	c.argc = ctx->argc_all;
	c.argv = ctx->argv_all;
	report_utc_now(c.started_utc, sizeof c.started_utc);
	report_utc_now(c.finished_utc, sizeof c.finished_utc);
	rc = EXIT_RUNTIME;
	if (!(root = cmd_report_new(ACCEPT_SPEC_COMMAND, &c))) {
		cmd_error(ctx, "accept: out of memory");
		goto out;
	}
	if (accept_derive(root, src, (size_t)o->nreports, o->tolerance_pct, err, sizeof err) != 0) {
		print_lines(ctx, "", err);
		rc = EXIT_USAGE;
		goto out;
	}
	rc = cmd_report_write(ctx, o->derive_out, root, o->force);
	if (rc == EXIT_OK && !o->quiet)
		print_derived(o, root);
out:
	for (int i = 0; src && i < o->nreports; i++)
		cJSON_Delete((cJSON *)src[i].root);
	free(src);
	cJSON_Delete(root);
	report_context_release(&c);
	return rc;
}

int cmd_accept(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct accept_opts o;
	int rc = parse_args(ctx, argc, argv, &o);

	if (rc != EXIT_OK)
		return rc;
	return o.derive_out ? derive(ctx, &o) : check_spec(ctx, &o);
}
