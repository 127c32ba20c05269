/*
 * collscope accept, the modes that need no MPI: --derive writes a spec from
 * known-good reports, --check-spec names every problem of a spec. The
 * measuring mode (mpirun ... collscope accept SPEC) is cmd/run/accept_run.c.
 */
#include <mpi.h>

#include "reports/accept/accept_derive.h"
#include "cmd/accept_opts.h"
#include "cmd/run/run.h"
#include "reports/accept/accept_spec.h"
#include "cmd/run/run.h"
#include "reports/io/report_read.h"
#include "algorithms/variant.h"
#include "version.h"

#include <stdlib.h>
#include <string.h>

/* Every line of err, as errors about what (a spec or the reports). */
static void print_lines(const struct cmd_ctx *ctx, const char *what, char *err)
{
	char *save = NULL;

	for (char *line = strtok_r(err, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		cmd_error(ctx, "accept: %s%s", what, line);
}

static int check_spec(const struct cmd_ctx *ctx, const struct accept_opts *o)
{
	struct accept_spec spec;
	accept_spec_init(&spec);
	int rc = accept_read_spec(ctx, o->check_spec, &spec);
	if (rc == EXIT_OK && !o->out.quiet)
		cmd_print("accept: spec '%s' is valid: topology %s, verify %zu variant%s, links %s, "
		          "allreduce %zu point%s%s%s%s%s",
		          o->check_spec, spec.has[ACCEPT_TOPOLOGY] ? "yes" : "no",
		          spec.verify.nvariants, spec.verify.nvariants == 1 ? "" : "s",
		          spec.has[ACCEPT_LINKS] ? "yes" : "no", spec.allreduce.npoints,
		          spec.allreduce.npoints == 1 ? "" : "s",
		          spec.fragile ? "; fragile: some thresholds come from a single run" : "",
		          spec.name[0] ? "; named '" : "", spec.name, spec.name[0] ? "'" : "");
	accept_spec_release(&spec);
	return rc;
}

/* Reads every report; EXIT_USAGE after naming each that cannot be read. */
static int read_reports(const struct cmd_ctx *ctx, const struct accept_opts *o,
                        struct accept_source *src)
{
	char err[1024];
	int rc = EXIT_OK;

	for (int i = 0; i < o->args.count; i++) {
		src[i].path = o->args.items[i];
		src[i].root = report_read(o->args.items[i], err, sizeof err);
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

	cmd_print("accept: derived '%s' from %d report%s, tolerance %.6g%%: topology%s%s, "
	          "allreduce %d point%s",
	       o->derive_out, o->args.count, o->args.count == 1 ? "" : "s", o->tolerance_pct,
	       cJSON_GetObjectItemCaseSensitive(checks, "links") ? ", links" : "",
	       variants ? ", verify" : "", points, points == 1 ? "" : "s");
	for (n = notes ? notes->child : NULL; n; n = n->next)
		if (cJSON_IsString(n))
			cmd_print("accept: note: %s", n->valuestring);
}

/* On stderr, even with -q: a spec whose thresholds allow for no measured noise. */
static void warn_fragile(const struct accept_opts *o, const cJSON *root)
{
	const cJSON *derived = cJSON_GetObjectItemCaseSensitive(root, "derived");
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(derived, "fragile_thresholds");
	int n = cJSON_GetArraySize(list);

	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(derived, "fragile")) || n == 0)
		return;
	fprintf(stderr,
	        "collscope: warning: accept: '%s' is fragile: %d threshold%s (%s%s) come%s from "
	        "a single run, with no run-to-run spread measured; derive from 3 or more runs of "
	        "each (links and allreduce reports of repeated runs)\n",
	        o->derive_out, n, n == 1 ? "" : "s", cJSON_GetArrayItem(list, 0)->valuestring,
	        n > 1 ? ", ..." : "", n == 1 ? "s" : "");
}

static int derive(const struct cmd_ctx *ctx, const struct accept_opts *o)
{
	struct accept_source *src = calloc((size_t)o->args.count + 1, sizeof *src);
	struct report_context c;
	char err[16384];
	cJSON *root = NULL;
	int rc = EXIT_RUNTIME;

	report_context_init(&c);
	if (!src) {
		cmd_error(ctx, "accept: out of memory");
		goto out;
	}
	if (report_check_output_path(o->derive_out, o->out.force, err, sizeof err) != REPORT_OK) {
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
	if (!(root = run_report_new(ACCEPT_SPEC_COMMAND, &c))) {
		cmd_error(ctx, "accept: out of memory");
		goto out;
	}
	if (accept_derive(root, src, (size_t)o->args.count, o->tolerance_pct, err, sizeof err) !=
	    0) {
		print_lines(ctx, "", err);
		rc = EXIT_USAGE;
		goto out;
	}
	rc = run_report_write(ctx, o->derive_out, root, o->out.force);
	if (rc == EXIT_OK && !o->out.quiet)
		print_derived(o, root);
	if (rc == EXIT_OK)
		warn_fragile(o, root);
out:
	for (int i = 0; src && i < o->args.count; i++)
		cJSON_Delete((cJSON *)src[i].root);
	free(src);
	cJSON_Delete(root);
	report_context_release(&c);
	return rc;
}

int cmd_accept(void *opts, struct cmd_ctx *ctx)
{
	const struct accept_opts *o = opts;
	if (o->derive_out)
		return derive(ctx, o);
	if (o->check_spec)
		return check_spec(ctx, o);
	return o->planning.only ? accept_plan_only(ctx, o) : accept_measure(ctx, o);
}
