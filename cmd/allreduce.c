/*
 * collscope allreduce: the main job. Sizes outer, variants inner, so that
 * the variants of one size are measured side by side, minutes apart at most,
 * and a drifting machine biases none of them.
 */
#include <mpi.h>

#include "cmd/allreduce_opts.h"
#include "reports/io/ar_report.h"
#include "reports/io/report_io.h"
#include "reports/io/report_schema.h"
#include "reports/model/crossover.h"
#include "reports/render/fixed.h"
#include "cmd/run/run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the summary keeps per variant while the sweep goes on. */
struct variant_tally {
	double peak_busbw_gbps;
	uint64_t peak_bytes;
	double busbw_at_max_gbps; /* at the largest size measured */
	uint64_t max_bytes_measured;
	uint64_t wrong;
	int measured, skipped;
	uint64_t last_bytes; /* the previous measured point, for cliffs */
	double last_p50_us;
	/* the point --min-busbw gates: the largest size, measured or not */
	bool gated_seen;
	uint64_t gated_bytes;
	double gated_busbw_gbps;   /* NAN: skipped or without a time */
	const char *gated_skipped; /* static: why it was skipped, or NULL */
};

struct cliff {
	int variant;
	uint64_t from_bytes, to_bytes;
	double time_ratio;
};

/* Rank 0's view of the run: the shared sweep, and what allreduce alone keeps. */
struct ar_run {
	const struct ar_opts *o;
	struct sweep sweep;
	struct variant_tally tally[AR_MAX_VARIANTS];
	struct cliff *cliffs; /* grows: a long sweep may have many */
	size_t ncliffs, capcliffs;
	struct crossover_point *timed; /* every timed point: the compressed variants' crossover */
	size_t ntimed, captimed;
	struct run_peak_memory peak; /* rank 0: the largest of any rank's */
	struct sweep_yardstick yard; /* the noise control, measured between the points */
};

static void print_row(const struct ar_run *run, const struct ar_record *r)
{
	char line[512];
	if (ar_format_row(line, sizeof line, r, run->o->format == AR_FORMAT_CSV) != 0)
		return;
	printf("%s\n", line);
	fflush(stdout);
}

/* Room for one more item of size bytes after n in *items (capacity *cap); -1: no memory. */
static int grow(void **items, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return 0;
	size_t more = *cap ? 2 * *cap : 16;
	void *grown = realloc(*items, more * size);
	if (!grown)
		return -1;
	*items = grown;
	*cap = more;
	return 0;
}

static int add_cliff(struct ar_run *run, int v, uint64_t from, uint64_t to, double ratio)
{
	if (grow((void **)&run->cliffs, &run->capcliffs, run->ncliffs, sizeof *run->cliffs) != 0)
		return -1;
	run->cliffs[run->ncliffs++] = (struct cliff){v, from, to, ratio};
	return 0;
}

static int add_timed(struct ar_run *run, int v, const struct ar_record *r)
{
	if (grow((void **)&run->timed, &run->captimed, run->ntimed, sizeof *run->timed) != 0)
		return -1;
	run->timed[run->ntimed++] = (struct crossover_point){v, r->bytes, r->time.p50_us};
	return 0;
}

/* sweep_point_fn: the row on stdout, the tally, the cliffs and the timed points. */
static int on_point(void *arg, int v, const struct ar_record *r, const struct bench_result *br,
                    cJSON *rec)
{
	struct ar_run *run = arg;
	struct variant_tally *t = &run->tally[v];
	/* the yardstick burst before the point; compare reads the one after it too */
	if (rec && run->yard.nsamples &&
	    !cJSON_AddNumberToObject(rec, SK_AR_YARDSTICK_BURST, (double)(run->yard.nsamples - 1)))
		return -1;
	print_row(run, r);
	/* a compressed variant's point: what went on the wire and what it cost, beside its speed */
	if (run->o->format != AR_FORMAT_CSV && r->compressed && !r->skipped) {
		char error[160] = "error not checked (-c 0)";
		if (!isnan(r->beyond_bound_share))
			snprintf(error, sizeof error,
			         "error max %.3g, relative L2 %.3g, beyond the bound %.3g",
			         r->max_abs_error, r->rel_l2_error, r->beyond_bound_share);
		char wire[96] = "nothing sent (one rank)";
		if (r->compression_ratio > 0)
			snprintf(wire, sizeof wire, "wire busbw %.3g GB/s, %.0f bytes sent (%.3gx less)",
			         r->wire_busbw_gbps, r->sent_bytes, r->compression_ratio);
		char drift[96] = "";
		if (r->feedback_calls)
			snprintf(drift, sizeof drift,
			         "; error feedback over %d calls: relative L2 %.3g", r->feedback_calls,
			         r->feedback_rel_l2_error);
		printf("#   %s %llu bytes: %s; %s%s\n", r->algorithm, (unsigned long long)r->bytes,
		       wire, error, drift);
	}
	if (run->o->format != AR_FORMAT_CSV && r->late_starts_retimed)
		printf(
		    "#   %s %llu bytes: %d of %d starts late (straggler rank %d, %s): timed from "
		    "the last arrival\n",
		    r->algorithm, (unsigned long long)r->bytes, r->late_starts_retimed,
		    r->iterations + r->late_starts, r->straggler_rank,
		    r->straggler_cause != TIMING_CAUSE_NONE ? timing_cause_name(r->straggler_cause)
		                                            : "cause not known");
	if (run->o->format != AR_FORMAT_CSV && r->straggler_persistent)
		printf("#   straggler: %s %llu bytes: rank %d was the last to arrive in %d of %d calls "
		       "(p %.2g), %.1f us a call late, %.0f%% of the p50\n",
		       r->algorithm, (unsigned long long)r->bytes, r->straggler_rank,
		       r->straggler_count, r->iterations + r->late_starts, r->straggler_p_value,
		       r->straggler_us, 100 * r->straggler_us / r->time.p50_us);
	if (!t->gated_seen || r->bytes >= t->gated_bytes) {
		t->gated_seen = true;
		t->gated_bytes = r->bytes;
		t->gated_busbw_gbps = ar_record_has_time(r) ? r->busbw_gbps : NAN;
		t->gated_skipped = r->skipped;
	}
	if (!br) {
		t->skipped++;
		return 0;
	}
	if (t->measured && ar_is_cliff(t->last_bytes, t->last_p50_us, r->bytes, r->time.p50_us) &&
	    add_cliff(run, v, t->last_bytes, r->bytes, r->time.p50_us / t->last_p50_us) != 0)
		return -1;
	t->last_bytes = r->bytes;
	t->last_p50_us = r->time.p50_us;
	if (ar_record_has_time(r) && add_timed(run, v, r) != 0)
		return -1;
	t->measured++;
	t->wrong += br->wrong;
	/* the first figure is the peak so far, even at 0 GB/s (one rank moves no data) */
	if (isfinite(r->busbw_gbps) && (t->peak_bytes == 0 || r->busbw_gbps > t->peak_busbw_gbps)) {
		t->peak_busbw_gbps = r->busbw_gbps;
		t->peak_bytes = r->bytes;
	}
	if (r->bytes >= t->max_bytes_measured) {
		t->max_bytes_measured = r->bytes;
		t->busbw_at_max_gbps = r->busbw_gbps;
	}
	return 0;
}

static void print_header(const struct ar_run *run)
{
	char line[512];
	const struct sweep_opts *o = &run->o->sweep;
	const struct report_context *c = &run->sweep.context;
	const struct cmd_ctx *ctx = run->sweep.ctx;
	bool csv = run->o->format == AR_FORMAT_CSV;
	if (ctx->rank != 0)
		return;
	if (!csv) {
		printf("# collscope allreduce: %d ranks on %d host%s%s; %s %s, %s; %d sizes from "
		       "%llu to "
		       "%llu bytes\n",
		       ctx->nranks, c->nhosts, c->nhosts == 1 ? "" : "s",
		       c->oversubscribed ? " (oversubscribed)" : "", ar_dtype_name(o->dtype),
		       ar_op_name(o->op), run->o->in_place ? "in place" : "out of place", o->nsizes,
		       (unsigned long long)o->min_bytes, (unsigned long long)o->max_bytes);
		cmd_print_collective_header(o->collective, c->mpi_library);
	}
	if (ar_format_header(line, sizeof line, csv) == 0)
		printf("%s\n", line);
	fflush(stdout);
}

/* Time that grows much faster than size: printed, and listed in the summary. */
static int add_cliffs(const struct ar_run *run, cJSON *sum)
{
	cJSON *a = cJSON_AddArrayToObject(sum, SK_ARSUM_CLIFFS);
	for (size_t i = 0; a && i < run->ncliffs; i++) {
		const struct cliff *c = &run->cliffs[i];
		double size_ratio = (double)c->to_bytes / (double)c->from_bytes;
		if (run->o->format != AR_FORMAT_CSV)
			printf(
			    "# cliff: %s takes %.1fx the time from %llu to %llu bytes (%.0fx the "
			    "size)%s\n",
			    ar_variants[c->variant]->name, c->time_ratio,
			    (unsigned long long)c->from_bytes, (unsigned long long)c->to_bytes,
			    size_ratio,
			    /* the guideline mock-ups are the library's collectives too */
			    strcmp(ar_variants[c->variant]->name, "mpi") == 0 ||
			            ar_variants[c->variant]->guideline
			        ? ": the library allocates per call? (try MALLOC_MMAP_THRESHOLD_ "
			          "and MALLOC_TRIM_THRESHOLD_)"
			        : "");
		cJSON *e = cJSON_CreateObject();
		if (!e || !cJSON_AddItemToArray(a, e) ||
		    !cJSON_AddStringToObject(e, SK_CLIFF_ALGORITHM,
		                             ar_variants[c->variant]->name) ||
		    !cJSON_AddNumberToObject(e, SK_CLIFF_FROM_BYTES, (double)c->from_bytes) ||
		    !cJSON_AddNumberToObject(e, SK_CLIFF_TO_BYTES, (double)c->to_bytes) ||
		    !cJSON_AddNumberToObject(e, SK_CLIFF_TIME_RATIO, c->time_ratio) ||
		    !cJSON_AddNumberToObject(e, SK_CLIFF_SIZE_RATIO, size_ratio))
			return -1;
	}
	return a ? 0 : -1;
}

/*
 * The hungriest rank's memory against its budget: 4 x the largest message +
 * 64 MiB (input, result, scratch, slack). With shared buffers (shm) it is
 * judged on the proportional set size: each rank maps slices of its host
 * peers' shared buffers, which its resident size counts in full although the
 * host holds them once (probes/memory.h); without them, on the kernel's
 * resident high-water mark, which also sees what a call allocates and frees.
 */
static int add_memory(const struct ar_run *run, cJSON *sum)
{
	const struct sweep_opts *o = &run->o->sweep;
	bool on_pss = run_needs_shared(o->variants) && isfinite(run->peak.pss_bytes);
	double budget = 4.0 * (double)o->sizes[o->nsizes - 1] + 64.0 * 1024 * 1024;
	double judged = on_pss ? run->peak.pss_bytes : run->peak.rss_bytes;
	cJSON *m = cJSON_AddObjectToObject(sum, SK_ARSUM_MEMORY);
	char pss[64] = "proportional size not known"; /* a rank could not read it: no "nan" */
	if (isfinite(run->peak.pss_bytes))
		snprintf(pss, sizeof pss, "%.1f MiB proportional on rank %d",
		         run->peak.pss_bytes / 1048576.0, run->peak.pss_rank);
	if (run->o->format != AR_FORMAT_CSV)
		printf("# peak memory: %.1f MiB resident on rank %d, %s; "
		       "budget %.1f MiB (4 x the largest message + 64 MiB, against the %s)\n",
		       run->peak.rss_bytes / 1048576.0, run->peak.rss_rank, pss, budget / 1048576.0,
		       on_pss ? "proportional size: shared pages counted once per host"
		              : "resident size");
	return m && cJSON_AddNumberToObject(m, SK_MEM_PEAK_RSS_BYTES, run->peak.rss_bytes) &&
	               cJSON_AddNumberToObject(m, SK_MEM_PEAK_RSS_RANK, run->peak.rss_rank) &&
	               cJSON_AddNumberToObject(m, SK_MEM_PEAK_PSS_BYTES, run->peak.pss_bytes) &&
	               cJSON_AddNumberToObject(m, SK_MEM_PEAK_PSS_RANK, run->peak.pss_rank) &&
	               cJSON_AddNumberToObject(m, SK_MEM_BUDGET_BYTES, budget) &&
	               cJSON_AddStringToObject(m, SK_MEM_JUDGED_ON,
	                                       on_pss ? "peak_pss_bytes" : "peak_rss_bytes") &&
	               cJSON_AddBoolToObject(m, SK_MEM_WITHIN_BUDGET, judged <= budget)
	           ? 0
	           : -1;
}

/*
 * A compressed variant measured beside the ring: the size from which it stays
 * faster (issue 40, item 4), printed and in its summary record; nothing when
 * either is missing. -1 when out of memory.
 */
static int add_crossover(const struct ar_run *run, int v, cJSON *e)
{
	const struct ar_variant *ring = ar_variant_find("ring");
	int r = ring ? ar_variant_index(ring) : -1;
	struct crossover c;
	if (!ar_variants[v]->codec || r < 0 || !run->o->sweep.variants[r])
		return 0;
	if (crossover_find(run->timed, run->ntimed, v, r, &c) != 0)
		return -1;
	if (c.sizes == 0)
		return 0;
	bool text = run->o->format != AR_FORMAT_CSV;
	if (text && c.from_bytes)
		printf("#   crossover: %s beats ring from %llu bytes (%.2fx at %llu bytes)\n",
		       ar_variants[v]->name, (unsigned long long)c.from_bytes, c.speedup_at_max,
		       (unsigned long long)c.max_bytes);
	else if (text)
		printf("#   crossover: %s does not beat ring at %llu bytes (%.2fx)\n",
		       ar_variants[v]->name, (unsigned long long)c.max_bytes, c.speedup_at_max);
	return (c.from_bytes ? cJSON_AddNumberToObject(e, SK_ARVAR_CROSSOVER_VS_RING_BYTES,
	                                               (double)c.from_bytes)
	                     : cJSON_AddNullToObject(e, SK_ARVAR_CROSSOVER_VS_RING_BYTES)) &&
	               cJSON_AddNumberToObject(e, SK_ARVAR_SPEEDUP_VS_RING_AT_MAX,
	                                       c.speedup_at_max)
	           ? 0
	           : -1;
}

/* One variant's line of the peak table and its summary record; -1 when out of memory. */
static int summarize_variant(const struct ar_run *run, int v, cJSON *vars, bool low)
{
	const struct variant_tally *t = &run->tally[v];
	char peak[48], at_max[48];
	report_fixed(peak, sizeof peak, t->peak_busbw_gbps, 3, 3);
	report_fixed(at_max, sizeof at_max, t->busbw_at_max_gbps, 3, 3);
	if (run->o->format != AR_FORMAT_CSV && t->peak_bytes)
		printf("#   %-20s %10s GB/s at %llu bytes; %s GB/s at %llu bytes%s\n",
		       ar_variants[v]->name, peak, (unsigned long long)t->peak_bytes, at_max,
		       (unsigned long long)t->max_bytes_measured, low ? "  BELOW --min-busbw" : "");
	else if (run->o->format != AR_FORMAT_CSV && t->skipped)
		printf("#   %-20s not measured: %d point%s skipped (%s)%s\n", ar_variants[v]->name,
		       t->skipped, t->skipped == 1 ? "" : "s",
		       t->gated_skipped ? t->gated_skipped : "see the table",
		       low ? "  BELOW --min-busbw" : "");
	else if (run->o->format != AR_FORMAT_CSV)
		printf("#   %-20s not measured%s\n", ar_variants[v]->name,
		       low ? "  BELOW --min-busbw" : "");
	cJSON *e = cJSON_CreateObject();
	return e && cJSON_AddItemToArray(vars, e) && add_crossover(run, v, e) == 0 &&
	               cJSON_AddStringToObject(e, SK_ARVAR_ALGORITHM, ar_variants[v]->name) &&
	               report_add_number(e, SK_ARVAR_PEAK_BUSBW_GBPS,
	                                 t->measured ? t->peak_busbw_gbps : NAN) &&
	               cJSON_AddNumberToObject(e, SK_ARVAR_PEAK_BUSBW_BYTES,
	                                       (double)t->peak_bytes) &&
	               report_add_number(e, SK_ARVAR_BUSBW_AT_MAX_BYTES_GBPS,
	                                 t->measured ? t->busbw_at_max_gbps : NAN) &&
	               cJSON_AddNumberToObject(e, SK_ARVAR_POINTS, t->measured) &&
	               cJSON_AddNumberToObject(e, SK_ARVAR_SKIPPED, t->skipped) &&
	               cJSON_AddNumberToObject(e, SK_ARVAR_WRONG, (double)t->wrong)
	           ? 0
	           : -1;
}

/* The --min-busbw failure of variant v, naming its gated point. */
static void gate_error(const struct ar_run *run, int v)
{
	const struct variant_tally *t = &run->tally[v];
	char min[48], got[48];
	report_fixed(min, sizeof min, run->o->min_busbw_gbps, 0, 6);
	report_fixed(got, sizeof got, t->gated_busbw_gbps, 3, 3);
	if (!t->gated_seen)
		cmd_error(run->sweep.ctx, "allreduce: %s: no point measured: --min-busbw %s fails",
		          ar_variants[v]->name, min);
	else if (t->gated_skipped)
		cmd_error(
		    run->sweep.ctx,
		    "allreduce: %s at %llu bytes: skipped (%s): --min-busbw %s fails on a point "
		    "not measured",
		    ar_variants[v]->name, (unsigned long long)t->gated_bytes, t->gated_skipped,
		    min);
	else if (!isfinite(t->gated_busbw_gbps))
		cmd_error(run->sweep.ctx,
		          "allreduce: %s at %llu bytes: no time measured: --min-busbw %s fails",
		          ar_variants[v]->name, (unsigned long long)t->gated_bytes, min);
	else
		cmd_error(run->sweep.ctx,
		          "allreduce: %s: busbw %s GB/s at %llu bytes is below --min-busbw %s",
		          ar_variants[v]->name, got, (unsigned long long)t->gated_bytes, min);
}

/* Peak busbw per variant on stdout, the acceptance gate, and the JSON summary. */
static int summarize_run(const struct ar_run *run, cJSON *root)
{
	const struct ar_opts *o = run->o;
	bool gate = isfinite(o->min_busbw_gbps), below_any = false;
	uint64_t wrong = 0;
	cJSON *sum = cJSON_AddObjectToObject(root, SK_REPORT_SUMMARY);
	cJSON *vars = sum ? cJSON_AddArrayToObject(sum, SK_ARSUM_VARIANTS) : NULL;
	cJSON *below = sum ? cJSON_AddArrayToObject(sum, SK_ARSUM_BELOW_MIN_BUSBW) : NULL;
	if (!vars || !below)
		return -1;
	if (o->format != AR_FORMAT_CSV)
		printf("# peak busbw per variant:\n");
	for (int v = 0; ar_variants[v]; v++) {
		const struct variant_tally *t = &run->tally[v];
		if (!o->sweep.variants[v])
			continue;
		wrong += t->wrong;
		/* a gate never passes on nothing: a skipped or unmeasured point fails it */
		bool low = gate && (!t->gated_seen || !(t->gated_busbw_gbps >= o->min_busbw_gbps));
		if (summarize_variant(run, v, vars, low) != 0)
			return -1;
		if (!low)
			continue;
		below_any = true;
		if (!cJSON_AddItemToArray(below, cJSON_CreateString(ar_variants[v]->name)))
			return -1;
		gate_error(run, v);
	}
	if (add_cliffs(run, sum) != 0 || add_memory(run, sum) != 0 ||
	    sweep_yardstick_summary(&run->yard, sum, run->o->format != AR_FORMAT_CSV) != 0 ||
	    sweep_trace_summary(&run->sweep, sum, o->format == AR_FORMAT_CSV) != 0)
		return -1;
	fflush(stdout);
	if (!cJSON_AddNumberToObject(sum, SK_ARSUM_WRONG_TOTAL, (double)wrong) ||
	    !report_add_number(sum, SK_ARSUM_MIN_BUSBW_GBPS, o->min_busbw_gbps) ||
	    !cJSON_AddStringToObject(sum, SK_ARSUM_VERDICT,
	                             wrong       ? "wrong results"
	                             : below_any ? "below min busbw"
	                                         : "ok"))
		return -1;
	return wrong ? EXIT_WRONG : below_any ? EXIT_CHECK_FAILED : EXIT_OK;
}

/* sweep_finish's callback. */
static int summarize(void *arg, cJSON *root)
{
	struct ar_run *run = arg;
	int verdict = summarize_run(run, root);
	if (verdict < 0) {
		cmd_error(run->sweep.ctx, "allreduce: out of memory for the report");
		return EXIT_RUNTIME;
	}
	return verdict;
}

int cmd_allreduce(void *opts, struct cmd_ctx *ctx)
{
	const struct ar_opts *o = opts;
	struct ar_run run = {.o = o};
	struct sweep *s = &run.sweep;
	int points = 0;
	for (int i = 0; ar_variants[i]; i++)
		points += o->sweep.variants[i] ? o->sweep.nsizes : 0;
	sweep_init(s, ctx, "allreduce", &o->sweep, o->in_place, o->out.quiet);
	s->on_point = on_point;
	s->on_point_arg = &run;
	int status = run_check_output(ctx, "allreduce", &o->out);
	if (status == EXIT_OK)
		status = sweep_setup(s, points);
	if (status == EXIT_OK)
		status = sweep_begin(s, &allreduce_spec, o, &o->out, o->timeout_s);
	if (status == EXIT_OK)
		print_header(&run);
	const struct sweep_comm world = sweep_comm_whole(s);
	/* sizes outer, variants inner: the variants of one size are measured minutes apart at most;
	   the yardstick before every point and after the last */
	sweep_yardstick_init(&run.yard);
	for (int i = 0; i < o->sweep.nsizes && status == EXIT_OK; i++)
		for (int v = 0; ar_variants[v] && status == EXIT_OK; v++)
			if (o->sweep.variants[v]) {
				status = sweep_yardstick_measure(s, &run.yard, &world);
				if (status == EXIT_OK)
					status = sweep_point(s, v, o->sweep.sizes[i], &world);
			}
	if (status == EXIT_OK)
		status = sweep_yardstick_measure(s, &run.yard, &world);
	sweep_end(s);
	if (status == EXIT_OK)
		sweep_peak_memory(&run.sweep, &run.peak);
	if (status == EXIT_OK && ctx->rank == 0)
		status = sweep_finish(s, summarize, &run);
	sweep_yardstick_release(&run.yard);
	sweep_release(s);
	free(run.cliffs);
	free(run.timed);
	return status;
}
