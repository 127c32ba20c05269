/*
 * make bench-scale: the analysis of links at 1,024 and 4,096 hosts (issue 28,
 * item 5), on synthetic jobs of one rank per host (reports/diagnose/synth.h):
 * healthy, and each fault class the classifier knows. Every stage runs the
 * pure code collscope runs, and prints its time and the peak resident size
 * of the process during it (VmHWM, reset before each stage through
 * /proc/self/clear_refs):
 *   synth     the screening's pairs (probes/plan.c's plan, O(n log n)), both metrics
 *   detect    detect_run, bandwidth and latency
 *   classify  the host x host matrix, classify_hosts, classify_reconcile
 *   write     the links report in the compact form (links_compact.h), as text
 *   read      report_parse of that text and of the healthy baseline's
 *   accept    accept's figures from the report, judged against a spec
 *   compare   cmp_run_load of both, cmp_compare
 *   page      the HTML page (host heatmap, suspects drillable)
 * and once per size the classifier on the all-pairs host matrix (n^2 cells).
 * Checks: the verdict names the planted fault (kind, culprit, direction),
 * accept fails the culprit's hosts only, goals of 10 s and 1 GiB in all at
 * 4,096 hosts, a page of at most 10 MB at 1,024. Exits 1 when one fails.
 *
 * usage: scale_analysis [--hosts 1024,4096] [--page-dir DIR] [--quick]
 */
#include "reports/accept/accept_figures.h"
#include "reports/accept/accept_verdict.h"
#include "reports/compare/compare_points.h"
#include "reports/diagnose/classify.h"
#include "reports/diagnose/synth.h"
#include "reports/io/links_compact.h"
#include "reports/io/report_read.h"
#include "reports/io/report_schema.h"
#include "reports/render/html.h"
#include "probes/plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GOAL_SECONDS    10.0
#define GOAL_BYTES      (1024.0 * 1024 * 1024)
#define GOAL_PAGE_BYTES (10.0 * 1000 * 1000)

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* VmHWM of this process in bytes (NAN when unknown). */
static double peak_bytes(void)
{
	char line[256];
	double kb = NAN;
	FILE *f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, "VmHWM:", 6) == 0)
			kb = strtod(line + 6, NULL);
	if (f)
		fclose(f);
	return kb * 1024;
}

/* Resets VmHWM to the current resident size (Linux 4.0 and later). */
static void reset_peak(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");
	if (f) {
		fputs("5", f);
		fclose(f);
	}
}

struct stage {
	const char *name;
	double t0, seconds, peak;
};

static double total_s, total_peak;

static void stage_begin(struct stage *s, const char *name)
{
	s->name = name;
	reset_peak();
	s->t0 = now_s();
}

static void stage_end(struct stage *s)
{
	s->seconds = now_s() - s->t0;
	s->peak = peak_bytes();
	total_s += s->seconds;
	if (s->peak > total_peak)
		total_peak = s->peak;
}

static int failures;

static void check(bool ok, const char *fmt, const char *what, int n)
{
	if (!ok) {
		failures++;
		printf("FAIL  ");
		printf(fmt, what, n);
		printf("\n");
	}
}

/* The job: host names h1 .., context with every host and rank, as links writes it. */
struct job {
	int n;
	char (*names)[16];
	const char **name_ptrs;
	int *host_of;
};

static int job_init(struct job *j, int n)
{
	j->n = n;
	j->names = calloc((size_t)n, sizeof *j->names);
	j->name_ptrs = calloc((size_t)n, sizeof *j->name_ptrs);
	j->host_of = calloc((size_t)n, sizeof *j->host_of);
	if (!j->names || !j->name_ptrs || !j->host_of)
		return -1;
	for (int h = 0; h < n; h++) {
		snprintf(j->names[h], sizeof j->names[h], "h%d", h + 1);
		j->name_ptrs[h] = j->names[h];
		j->host_of[h] = h;
	}
	return 0;
}

static void job_release(struct job *j)
{
	free(j->names);
	free(j->name_ptrs);
	free(j->host_of);
}

static cJSON *envelope(const struct job *j)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddNumberToObject(root, SK_REPORT_SCHEMA_VERSION, 1);
	cJSON_AddStringToObject(root, SK_REPORT_COMMAND, "links");
	cJSON *ctx = cJSON_AddObjectToObject(root, SK_REPORT_CONTEXT);
	cJSON_AddStringToObject(ctx, SK_CTX_STARTED_UTC, "2026-12-03T10:00:00Z");
	cJSON *mpi = cJSON_AddObjectToObject(ctx, SK_CTX_MPI);
	cJSON_AddNumberToObject(mpi, SK_MPI_RANKS, j->n);
	cJSON *hosts = cJSON_AddArrayToObject(ctx, SK_CTX_HOSTS);
	cJSON *ranks = cJSON_AddArrayToObject(ctx, SK_CTX_RANKS);
	for (int h = 0; h < j->n; h++) {
		cJSON *o = cJSON_CreateObject(), *r = cJSON_CreateObject();
		cJSON_AddItemToArray(hosts, o);
		cJSON_AddStringToObject(o, SK_CHOST_NAME, j->names[h]);
		cJSON_AddItemToArray(cJSON_AddArrayToObject(o, SK_CHOST_RANKS), cJSON_CreateNumber(h));
		cJSON_AddNumberToObject(o, SK_CHOST_CORES, 64);
		cJSON_AddNumberToObject(o, SK_CHOST_NUMA_NODES, 1);
		cJSON_AddBoolToObject(o, SK_CHOST_OVERSUBSCRIBED, false);
		cJSON_AddItemToArray(ranks, r);
		cJSON_AddNumberToObject(r, SK_CRANK_RANK, h);
		cJSON_AddStringToObject(r, SK_CRANK_HOST, j->names[h]);
	}
	cJSON_AddBoolToObject(root, SK_REPORT_COMPLETE, true);
	return root;
}

/* The measured records of the synthetic links: window and latency samples around the values. */
static struct link_record *records_of(const struct detect_link *bw, const struct detect_link *lat,
                                      size_t n, double window_bytes)
{
	struct link_record *rec = calloc(n ? n : 1, sizeof *rec);
	for (size_t i = 0; rec && i < n; i++) {
		struct link_record *r = &rec[i];
		double win_us = window_bytes / (bw[i].value * 1e3);
		r->a = bw[i].a;
		r->b = bw[i].b;
		r->measured = true;
		r->nlatency_samples = r->nwindow_samples = 12;
		for (int k = 0; k < 12; k++) {
			r->latency_samples_us[k] = lat[i].value * (0.97 + 0.005 * k);
			r->window_samples_us[k] = win_us * (0.97 + 0.005 * k);
		}
		stats_summarize(r->latency_samples_us, 12, &r->latency_us);
		stats_summarize(r->window_samples_us, 12, &r->window_us);
		r->bidir_window_us = r->window_us;
		r->latency_us.n = 1000;
		r->cpu_wait_share = 0.01;
		r->window_msgs = 16;
	}
	return rec;
}

/* The links report of a judged job, as text (owned). */
static char *write_report(const struct job *j, const struct detect_link *bw,
                          const struct detect_link *lat, size_t n, const struct detect_result *r)
{
	const double window_bytes = 16.0 * 4194304;
	struct links_view v = {.nranks = j->n,
	                       .nhosts = j->n,
	                       .host_of_rank = j->host_of,
	                       .host_names = j->name_ptrs,
	                       .window_bytes = window_bytes};
	struct link_record *rec = records_of(bw, lat, n, window_bytes);
	cJSON *root = envelope(j);
	cJSON *summary = cJSON_AddObjectToObject(root, SK_REPORT_SUMMARY);
	cJSON *suspects = cJSON_AddArrayToObject(summary, SK_LSUM_SUSPECTS);
	char *text = NULL;
	bool ok = rec && links_report_add_pair_list(root, &v, rec, n);
	for (int i = 0; ok && r && i < r->nsuspects; i++)
		ok = links_report_add_suspect(suspects, &v, r, &r->suspects[i]) != NULL;
	if (ok)
		text = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	free(rec);
	return text;
}

/* The planted fault, named as such (and nothing else). */
static bool verdict_right(const struct synth_job *sj, const struct detect_result *r)
{
	if (sj->fault == SYNTH_HEALTHY)
		return r->nsuspects == 0;
	if (r->nsuspects != 1)
		return false;
	const struct detect_suspect *s = &r->suspects[0];
	switch (sj->fault) {
	case SYNTH_HOST_SEND:
		return s->kind == DETECT_HOST && s->host == sj->culprit && s->direction == DETECT_DIR_AB;
	case SYNTH_HOST_RECEIVE:
		return s->kind == DETECT_HOST && s->host == sj->culprit && s->direction == DETECT_DIR_BA;
	case SYNTH_LINK_ONE_WAY:
		return s->kind == DETECT_LINK && s->host_a == (sj->culprit & ~1) &&
		       s->host_b == (sj->culprit | 1) &&
		       s->direction == (sj->culprit & 1 ? DETECT_DIR_BA : DETECT_DIR_AB);
	case SYNTH_SEGMENT:
		return s->kind == DETECT_SEGMENT && s->direction == DETECT_DIR_BOTH;
	default:
		return false;
	}
}

static void print_stage(const struct stage *s, const char *extra)
{
	printf("  %-9s %8.3f s %9.1f MiB  %s\n", s->name, s->seconds, s->peak / 1048576, extra);
}

/* The hosts accept failed: the culprit's (a host fault), none (healthy), any (others). */
static int failing_hosts(const struct accept_verdict *v)
{
	int k = 0;
	for (int h = 0; h < v->nhosts; h++) {
		struct accept_host_verdict hv;
		accept_host_verdict(v, h, &hv);
		k += hv.status == ACCEPT_FAIL;
	}
	return k;
}

struct run_out {
	char *text; /* the report */
	size_t bytes;
};

/* One job through every stage; baseline: the healthy report's text (NULL for the healthy run). */
static int run_job(const struct job *j, const struct synth_job *sj, const char *baseline,
                   const char *page_path, struct run_out *out)
{
	struct stage st;
	struct detect_params p;
	struct detect_link *bw = NULL, *lat = NULL;
	size_t nbw = 0, nlat = 0;
	struct detect_result r;
	char err[1024] = "", extra[800];
	int rc = -1;
	double *cells = NULL;
	cJSON *cur = NULL, *base = NULL;
	const char *fault = synth_fault_names[sj->fault];

	detect_params_default(&p);
	detect_result_init(&r);
	printf("%d hosts, %s:\n", j->n, fault);
	stage_begin(&st, "synth");
	if (synth_links(sj, DETECT_BANDWIDTH, &bw, &nbw) || synth_links(sj, DETECT_LATENCY, &lat, &nlat))
		goto out;
	stage_end(&st);
	snprintf(extra, sizeof extra, "%zu ordered pairs measured", nbw);
	print_stage(&st, extra);

	stage_begin(&st, "detect");
	if (detect_run(bw, nbw, j->n, DETECT_BANDWIDTH, &p, &r) ||
	    detect_run(lat, nlat, j->n, DETECT_LATENCY, &p, &r))
		goto out;
	stage_end(&st);
	snprintf(extra, sizeof extra, "%d suspects before the classifier", r.nsuspects);
	print_stage(&st, extra);

	stage_begin(&st, "classify");
	cells = malloc((size_t)j->n * (size_t)j->n * sizeof *cells);
	if (!cells)
		goto out;
	synth_host_matrix(bw, nbw, j->n, cells);
	int from = r.nsuspects;
	if (classify_hosts(cells, j->n, &p, false, &r, NULL) != 0)
		goto out;
	classify_reconcile(&r, from);
	free(cells);
	cells = NULL;
	stage_end(&st);
	bool right = verdict_right(sj, &r);
	check(right, "%s at %d hosts: the classifier did not name the planted fault alone", fault, j->n);
	if (r.nsuspects)
		snprintf(extra, sizeof extra, "%s: %d suspect(s), the first %s %s", right ? "right" : "WRONG",
		         r.nsuspects, detect_kind_name(r.suspects[0].kind),
		         detect_direction_name(r.suspects[0].kind, r.suspects[0].direction));
	else
		snprintf(extra, sizeof extra, "%s: no suspect", right ? "right" : "WRONG");
	print_stage(&st, extra);

	stage_begin(&st, "write");
	out->text = write_report(j, bw, lat, nbw, &r);
	if (!out->text)
		goto out;
	out->bytes = strlen(out->text);
	free(bw);
	free(lat);
	bw = lat = NULL;
	stage_end(&st);
	snprintf(extra, sizeof extra, "%.2f MB, %.1f bytes per pair (context and suspects included)",
	         (double)out->bytes / 1e6, (double)out->bytes / (double)nbw);
	print_stage(&st, extra);

	stage_begin(&st, "read");
	cur = report_parse("current.json", out->text, out->bytes, err, sizeof err);
	base = report_parse("baseline.json", baseline ? baseline : out->text,
	                    strlen(baseline ? baseline : out->text), err, sizeof err);
	if (!cur || !base) {
		printf("FAIL  %s\n", err);
		goto out;
	}
	stage_end(&st);
	print_stage(&st, "both reports parsed and checked");

	stage_begin(&st, "accept");
	struct accept_spec spec;
	struct accept_figures f;
	struct accept_verdict v;
	accept_spec_init(&spec);
	spec.has[ACCEPT_LINKS] = true;
	spec.links.min_bandwidth_gbps[DETECT_CROSS_HOST] = 5;
	if (accept_figures_load(&f, "current.json", cur, err, sizeof err) != 0 ||
	    accept_judge(&spec, &f, 1, &v, err, sizeof err) != 0) {
		printf("FAIL  accept: %s\n", err);
		goto out;
	}
	int failing = failing_hosts(&v);
	bool failed = accept_verdict_failed(&v);
	accept_verdict_release(&v);
	accept_figures_release(&f);
	stage_end(&st);
	bool host_fault = sj->fault == SYNTH_HOST_SEND || sj->fault == SYNTH_HOST_RECEIVE;
	/* a host: that host alone; a link: its two ends; a segment: the job's, no host named */
	int want = sj->fault == SYNTH_HEALTHY        ? 0
	           : host_fault                      ? 1
	           : sj->fault == SYNTH_LINK_ONE_WAY ? 2
	                                             : 0;
	check(failed == (sj->fault != SYNTH_HEALTHY) && failing == want,
	      "%s at %d hosts: accept's verdict is wrong", fault, j->n);
	snprintf(extra, sizeof extra, "%s, %d host(s) fail", failed ? "FAIL" : "PASS", failing);
	print_stage(&st, extra);

	stage_begin(&st, "compare");
	struct cmp_run rb, rcur;
	struct cmp_options o;
	struct cmp_result res;
	cmp_options_init(&o);
	o.gate = CMP_BW;
	if (cmp_run_load(&rb, "baseline.json", base, err, sizeof err) != 0 ||
	    cmp_run_load(&rcur, "current.json", cur, err, sizeof err) != 0 ||
	    cmp_compare(&rb, &rcur, &o, &res) != 0) {
		printf("FAIL  compare: %s\n", err);
		goto out;
	}
	size_t worse = res.count[CMP_UNTESTED] + res.count[CMP_REGRESSION];
	cmp_result_release(&res);
	cmp_run_release(&rb);
	cmp_run_release(&rcur);
	stage_end(&st);
	snprintf(extra, sizeof extra, "%zu pairs' bandwidth worse than the baseline's", worse);
	print_stage(&st, extra);

	stage_begin(&st, "page");
	struct html_buf b;
	struct html_input in = {"current.json", cur};
	html_buf_init(&b);
	if (html_render_page(&b, &in, 1, "bench", err, sizeof err) != 0) {
		printf("FAIL  page: %s\n", err);
		html_buf_release(&b);
		goto out;
	}
	size_t page = b.len;
	if (page_path) {
		FILE *pf = fopen(page_path, "w");
		if (pf) {
			fwrite(b.data, 1, b.len, pf);
			fclose(pf);
		}
	}
	html_buf_release(&b);
	stage_end(&st);
	if (j->n == 1024)
		check((double)page <= GOAL_PAGE_BYTES, "%s at %d hosts: the page is over 10 MB", fault,
		      j->n);
	snprintf(extra, sizeof extra, "%.2f MB%s%s", (double)page / 1e6, page_path ? ": " : "",
	         page_path ? page_path : "");
	print_stage(&st, extra);
	rc = 0;
out:
	if (rc != 0)
		check(false, "%s at %d hosts: a stage failed", fault, j->n);
	free(bw);
	free(lat);
	free(cells);
	cJSON_Delete(cur);
	cJSON_Delete(base);
	detect_result_release(&r);
	return rc;
}

/* The classifier on the all-pairs host matrix (n^2 cells), a slow host planted. */
static void dense_classify(int n)
{
	struct synth_job sj = {.nhosts = n,
	                       .fault = SYNTH_HOST_SEND,
	                       .culprit = n / 3,
	                       .slow_factor = 0.2,
	                       .all_pairs = true,
	                       .seed = 11};
	struct detect_params p;
	struct detect_result r;
	struct stage st;
	char extra[160];
	detect_params_default(&p);
	detect_result_init(&r);
	/* the matrix is made first, its links freed: the stage is the classifier's alone */
	double *cells = malloc((size_t)n * (size_t)n * sizeof *cells);
	struct detect_link *bw = NULL;
	size_t nbw = 0;
	bool ok = cells && synth_links(&sj, DETECT_BANDWIDTH, &bw, &nbw) == 0;
	if (ok)
		synth_host_matrix(bw, nbw, n, cells);
	free(bw);
	bw = NULL;
	stage_begin(&st, "classify");
	ok = ok && classify_hosts(cells, n, &p, false, &r, NULL) == 0;
	stage_end(&st);
	ok = ok && verdict_right(&sj, &r);
	check(ok, "%s at %d hosts, all pairs: the classifier did not name the slow host", "host-send",
	      n);
	snprintf(extra, sizeof extra, "all pairs (%zu cells), host-send: %s", (size_t)n * (size_t)(n - 1),
	         ok ? "right" : "WRONG");
	printf("%d hosts, the classifier on the all-pairs matrix:\n", n);
	print_stage(&st, extra);
	free(cells);
	free(bw);
	detect_result_release(&r);
}

/* The screening plan of n hosts of one rank each, as links makes it; 0 or -1. */
static int screening_plan(int n, struct probe_plan *plan)
{
	int *host = malloc((size_t)n * sizeof *host);
	if (!host)
		return -1;
	for (int h = 0; h < n; h++)
		host[h] = h;
	int rc = probe_plan_build(plan, PROBE_PLAN_SCREEN, n, n, host);
	free(host);
	return rc;
}

static int run_size(int n, const char *page_dir)
{
	struct job j;
	struct run_out healthy = {0};
	struct probe_plan plan;
	int rc = 0;
	if (screening_plan(n, &plan) != 0)
		return -1;
	if (job_init(&j, n) != 0) {
		probe_plan_release(&plan);
		return -1;
	}
	printf("%d hosts: screening as links plans it, %d rounds of host matchings\n", n,
	       plan.screen_rounds);
	for (int f = 0; f < SYNTH_FAULTS; f++) {
		struct synth_job sj = {.nhosts = n,
		                       .fault = (enum synth_fault)f,
		                       .culprit = n / 3,
		                       .slow_factor = 0.2,
		                       .seed = 7,
		                       .partner = plan.host_partner,
		                       .rounds = plan.screen_rounds};
		struct run_out o = {0};
		char page[512];
		snprintf(page, sizeof page, "%s/scale-%d-%s.html", page_dir ? page_dir : ".", n,
		         synth_fault_names[f]);
		total_s = total_peak = 0;
		if (run_job(&j, &sj, healthy.text, page_dir && n == 1024 ? page : NULL, &o) != 0)
			rc = -1;
		printf("  %-9s %8.3f s %9.1f MiB  (the stages' sum; the largest peak)\n", "total",
		       total_s, total_peak / 1048576);
		if (n == 4096) {
			check(total_s <= GOAL_SECONDS, "%s at %d hosts: over 10 s in all",
			      synth_fault_names[f], n);
			check(total_peak <= GOAL_BYTES, "%s at %d hosts: over 1 GiB", synth_fault_names[f], n);
		}
		if (f == SYNTH_HEALTHY)
			healthy = o;
		else
			free(o.text);
	}
	free(healthy.text);
	dense_classify(n);
	job_release(&j);
	probe_plan_release(&plan);
	return rc;
}

int main(int argc, char **argv)
{
	const char *hosts = "1024,4096", *page_dir = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--hosts") == 0 && i + 1 < argc)
			hosts = argv[++i];
		else if (strcmp(argv[i], "--page-dir") == 0 && i + 1 < argc)
			page_dir = argv[++i];
		else {
			fprintf(stderr, "usage: %s [--hosts 1024,4096] [--page-dir DIR]\n", argv[0]);
			return 2;
		}
	}
	printf("# the analysis of links on synthetic jobs, one rank per host (goals at 4,096 hosts: "
	       "10 s, 1 GiB; the page at 1,024: 10 MB)\n");
	printf("  stage         time       peak RSS\n");
	for (const char *s = hosts; *s;) {
		char *end;
		long n = strtol(s, &end, 10);
		if (end == s || n < 4 || n > 65536) {
			fprintf(stderr, "bad host count in '%s'\n", hosts);
			return 2;
		}
		run_size((int)n, page_dir);
		s = *end == ',' ? end + 1 : end;
	}
	printf("# bench-scale: %s\n", failures ? "FAILED" : "every check passed");
	return failures ? 1 : 0;
}
