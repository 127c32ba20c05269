/*
 * The report context every measuring command records: tool, command line,
 * times, MPI library, placement (probes/topology.c), the library's control
 * variables and the hosts' CPU and kernel (probes/mpit.c) and an allow-list
 * of the environment.
 */
#include <mpi.h>

#include "reports/io/ar_report.h"
#include "algorithms/bench.h"
#include "cmd/run/run.h"
#include "reports/io/report_schema.h"
#include "probes/mpit.h"
#include "probes/topology.h"
#include "version.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

extern char **environ;

int run_context_begin(const struct cmd_ctx *ctx, struct report_context *c, struct topo_map *map)
{
	char msg[MPI_MAX_ERROR_STRING];
	report_context_init(c);
	c->tool_version = COLLSCOPE_VERSION;
	c->tool_git = COLLSCOPE_GIT;
	c->argc = ctx->argc_all;
	c->argv = ctx->argv_all;
	report_utc_now(c->started_utc, sizeof c->started_utc);
	int rc = topo_fill_context(ctx->comm, c, map);
	if (rc != MPI_SUCCESS)
		return cmd_error(ctx, "cannot gather the placement of the ranks: %s",
		                 run_mpi_error_text(rc, msg, sizeof msg));
	rc = probe_mpit_fill_context(ctx->comm, c);
	if (rc != MPI_SUCCESS)
		return cmd_error(ctx, "cannot record the library's settings and the hosts: %s",
		                 run_mpi_error_text(rc, msg, sizeof msg));
	c->timer_overhead_us = bench_timer_overhead_us();
	if (run_any(ctx, ctx->rank == 0 && report_context_capture_env(c, environ) != 0))
		return cmd_error(ctx, "out of memory while recording the environment");
	return 0;
}

void run_context_end(struct report_context *c)
{
	report_utc_now(c->finished_utc, sizeof c->finished_utc);
}

cJSON *run_report_new(const char *command, const struct report_context *c)
{
	cJSON *root = cJSON_CreateObject();
	if (!root || !cJSON_AddNumberToObject(root, SK_REPORT_SCHEMA_VERSION, 1) ||
	    !cJSON_AddStringToObject(root, SK_REPORT_COMMAND, command) || !report_context_to_json(root, c)) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

int run_report_write(const struct cmd_ctx *ctx, const char *path, const cJSON *root, bool force)
{
	char err[1024];
	int rc = REPORT_OK;
	if (ctx->rank == 0 && path)
		rc = report_write_atomic(path, root, force, err, sizeof err);
	if (rc != REPORT_OK)
		cmd_error(ctx, "%s", err);
	return rc == REPORT_OK ? EXIT_OK : rc == REPORT_EUSAGE ? EXIT_USAGE : EXIT_RUNTIME;
}

int run_report_write_or_print(const struct cmd_ctx *ctx, const char *cmd, const char *path,
                              const cJSON *root, bool force)
{
	if (strcmp(path, "-") != 0)
		return run_report_write(ctx, path, root, force);
	char *text = cJSON_Print(root);
	bool ok = text && fputs(text, stdout) >= 0 && fputc('\n', stdout) != EOF && fflush(stdout) == 0;
	free(text);
	if (!ok)
		cmd_error(ctx, "%s: cannot write the JSON to standard output", cmd);
	return ok ? EXIT_OK : EXIT_RUNTIME;
}

int run_check_output(const struct cmd_ctx *ctx, const char *cmd, const struct cmd_out *out)
{
	char err[1024] = "";
	bool bad = out->output && ctx->rank == 0 &&
	           report_check_output_path(out->output, out->force, err, sizeof err) != REPORT_OK;
	if (!run_any(ctx, bad))
		return EXIT_OK;
	cmd_error(ctx, "%s: %s", cmd, err);
	return EXIT_USAGE;
}

bool run_needs_shared(const bool *selected)
{
	for (int i = 0; ar_variants[i]; i++)
		if (selected[i] && ar_variants[i]->shared_buffers)
			return true;
	return false;
}

/* How many ranks of ctx's communicator share this host, and which of them this one is. */
static int host_ranks(const struct cmd_ctx *ctx, int *node_rank)
{
	MPI_Comm node;
	int local = 1;
	*node_rank = 0;
	if (MPI_Comm_split_type(ctx->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) ==
	    MPI_SUCCESS) {
		MPI_Comm_size(node, &local);
		MPI_Comm_rank(node, node_rank);
		MPI_Comm_free(&node);
	}
	return local;
}

bool run_host_oversubscribed(const struct cmd_ctx *ctx)
{
	int node_rank;
	return host_ranks(ctx, &node_rank) > sysconf(_SC_NPROCESSORS_ONLN);
}

/*
 * The MPI library backs a shared window with a sparse file in a directory: a
 * small one (a container's 64 MiB /dev/shm) would end the job with SIGBUS
 * when the window is first touched, so it is measured before, on every host.
 * Open MPI's directory is a setting (osc_sm_backing_directory, /dev/shm by
 * default); MPICH's is /dev/shm, with no setting.
 */
static const char *shared_window_dir(void)
{
#ifdef OPEN_MPI
	const char *dir = getenv("OMPI_MCA_osc_sm_backing_directory");
	if (dir && *dir)
		return dir;
#endif
	return "/dev/shm";
}

static bool shared_room(const struct cmd_ctx *ctx, size_t bytes, int *node_rank, char *why,
                        size_t len)
{
	const char *dir = shared_window_dir();
	struct statvfs fs;
	int local = host_ranks(ctx, node_rank);
	/* input and result per rank, and a page of slack each */
	double need = (double)local * (2.0 * (double)bytes + 8192.0);
	if (statvfs(dir, &fs) != 0) {
		snprintf(why, len, "'%s', where MPI keeps shared windows, cannot be read", dir);
		return false;
	}
	double room = (double)fs.f_bavail * (double)fs.f_frsize;
	if (room < need) {
		snprintf(why, len, "%d rank(s) on this host need %.0f bytes in '%s', which has %.0f free",
		         local, need, dir, room);
		return false;
	}
	return true;
}

int run_alloc_shared(const struct cmd_ctx *ctx, const char *cmd, const bool *selected,
                     struct bench_bufs *b)
{
	char msg[MPI_MAX_ERROR_STRING], why[256] = "";
	if (!run_needs_shared(selected))
		return EXIT_OK;
	int node_rank;
	bool short_here = !shared_room(ctx, b->bytes ? b->bytes : 1, &node_rank, why, sizeof why);
	if (short_here && node_rank == 0) /* once per host */
		fprintf(stderr, "[rank %d] %s: warning: no room for a shared-memory window: %s\n",
		        ctx->rank, cmd, why);
	if (run_any(ctx, short_here)) {
		b->shared_skip = "no room for its shared-memory window on a host (see the warning)";
		return EXIT_OK;
	}
	int rc = bench_bufs_alloc_shared(b, ctx->comm);
	if (rc != MPI_SUCCESS)
		cmd_rank_error(ctx, "%s: cannot allocate 2 x %zu bytes of shared memory: %s", cmd,
		               b->bytes, run_mpi_error_text(rc, msg, sizeof msg));
	return run_any(ctx, rc != MPI_SUCCESS) ? EXIT_RUNTIME : EXIT_OK;
}

int run_check_memory(const struct cmd_ctx *ctx, const char *cmd, uint64_t max_bytes,
                     uint64_t segment_bytes, bool shared, uint64_t *need)
{
	int node_rank, local = host_ranks(ctx, &node_rank);
	double phys = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
	/* input and result, twice for variants that need them in shared memory; in double,
	 * where no message size can wrap it */
	double per_rank = (shared ? 4.0 : 2.0) * (double)max_bytes +
	                  (double)exec_scratch_bound_bytes(segment_bytes);
	*need = per_rank < 1.8e19 ? (uint64_t)per_rank : UINT64_MAX;
	if (per_rank * local > phys) {
		cmd_error(ctx,
		          "%s: a message of %llu bytes needs %.0f bytes of buffers per rank, with %d "
		          "rank(s) on this host, but the host has %.0f bytes of memory",
		          cmd, (unsigned long long)max_bytes, per_rank, local, phys);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

void run_describe_wrong(const struct cmd_ctx *ctx, const struct ar_record *r,
                        const struct bench_result *br)
{
	if (r->compressed) {
		cmd_error(ctx,
		          "wrong result: variant %s, %llu bytes (%llu %s, %s) on %d ranks: %llu "
		          "elements beyond the bound of its format; rank %d, first at index %zu: got "
		          "%.9g, the exact sum (float64) is %.17g",
		          r->algorithm, (unsigned long long)r->bytes, (unsigned long long)r->count,
		          r->dtype, r->op, r->ranks, (unsigned long long)br->wrong, br->first_bad_rank,
		          br->first.index, br->first.got, br->first.expected);
		return;
	}
	enum ar_dtype t = AR_FLOAT64;
	ar_dtype_parse(r->dtype, &t); /* the record carries the canonical name */
	int hex = (int)(2 * ar_dtype_bytes(t));
	cmd_error(ctx,
	          "wrong result: variant %s, %llu bytes (%llu %s, %s) on %d ranks: %llu wrong "
	          "elements; rank %d, first bad index %zu: got %g (0x%0*llx), expected %g (0x%0*llx), "
	          "differing bits 0x%0*llx",
	          r->algorithm, (unsigned long long)r->bytes, (unsigned long long)r->count, r->dtype,
	          r->op, r->ranks, (unsigned long long)br->wrong, br->first_bad_rank, br->first.index,
	          br->first.got, hex, (unsigned long long)br->first.got_bits, br->first.expected, hex,
	          (unsigned long long)br->first.expected_bits, hex,
	          (unsigned long long)(br->first.got_bits ^ br->first.expected_bits));
}

int run_record_measured(struct ar_record *r, const struct bench_result *br,
                        const struct bench_bufs *b, bool checked)
{
	r->iterations = br->iterations;
	r->wrong = checked ? (int64_t)br->wrong : -1;
	r->samples_us = b->max_us;
	r->nsamples = (size_t)br->iterations;
	r->rank_mean_us = b->rank_mean_us;
	r->timing_known = true;
	r->timing = br->timing_method;
	r->calls_per_sample = br->calls;
	r->late_starts = br->timing.late_starts;
	r->late_starts_retimed = br->timing.late_retimed;
	r->timed_from = br->timing.from;
	r->window_lead_us = br->timing_method == TIMING_WINDOW ? br->lead_us : NAN;
	r->start_error_us = br->timing_method == TIMING_WINDOW ? br->timing.start_error_us : NAN;
	r->straggler_rank = br->timing.straggler_rank;
	r->straggler_cause = br->timing.cause;
	r->straggler_us = br->timing.straggler_us;
	r->rank_late_us = br->timing.cause != TIMING_CAUSE_NONE ? b->rank_late_us : NULL;
	r->rank_learnt_late_us =
	    r->rank_late_us && br->timing_method == TIMING_WINDOW ? b->rank_learnt_us : NULL;
	r->p50_ci_lo_us = br->ci_lo_us;
	r->p50_ci_hi_us = br->ci_hi_us;
	r->stop = sample_stop_name(br->stop);
	r->straggler_count = br->timing.straggler_count;
	r->straggler_p_value = br->timing.straggler_p;
	int rc = ar_record_compute(r);
	r->straggler_persistent = rc == 0 && timing_straggler_persistent(&br->timing, r->time.p50_us);
	const struct codec_figures *f = &br->codec;
	if (rc == 0 && f->on) {
		r->compressed = true;
		r->sent_bytes = f->sent_bytes;
		r->compression_ratio = f->compression_ratio;
		r->wire_busbw_gbps = r->busbw_gbps / f->compression_ratio;
		r->max_abs_error = f->checked ? f->max_abs_error : NAN;
		r->rel_l2_error = f->checked ? f->rel_l2_error : NAN;
		r->beyond_bound_share = f->checked ? f->beyond_bound_share : NAN;
		r->feedback_calls = f->feedback_calls;
		r->feedback_rel_l2_error = f->feedback_calls ? f->feedback_rel_l2_error : NAN;
	}
	return rc;
}
