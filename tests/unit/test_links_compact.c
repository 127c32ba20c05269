/*
 * The compact links report (reports/io/links_compact.c, schema 2): the record
 * round trip, its size per pair, and every reader (compare, trend, the page,
 * accept) reading both the new form and the old one (schema 1, and the old
 * report kept in tests/fixtures/links_v1.json).
 */
#include "reports/accept/accept_figures.h"
#include "reports/compare/compare_points.h"
#include "reports/compare/trend_series.h"
#include "reports/io/links_compact.h"
#include "reports/io/links_hosts.h"
#include "reports/io/report_read.h"
#include "reports/render/html.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define OLD_FIXTURE "tests/fixtures/links_v1.json"

/* A synthetic job: n ranks, ranks_per_host a host, every pair measured. */
struct job {
	int n, nhosts;
	struct link_record *records;
	int *host_of, *numa_of;
	const char **names;
	char (*name_buf)[16];
	bool *judged;
	struct links_view v;
};

static unsigned long lcg_state;

static double uniform(void)
{
	lcg_state = lcg_state * 6364136223846793005ul + 1442695040888963407ul;
	return (double)(lcg_state >> 11) / 9007199254740992.0;
}

/* Times with all their digits, as a measurement has them: center x (0.8 .. 1.2). */
static double noisy(double center)
{
	return center * (0.8 + 0.4 * uniform());
}

static void fill_samples(double *x, int *n, double center)
{
	*n = LINK_KEPT_SAMPLES;
	for (int i = 0; i < *n; i++)
		x[i] = noisy(center);
}

static void job_init(struct job *j, int n, int ranks_per_host, unsigned seed)
{
	lcg_state = seed;
	j->n = n;
	j->nhosts = (n + ranks_per_host - 1) / ranks_per_host;
	j->records = calloc((size_t)n * (size_t)n, sizeof *j->records);
	j->host_of = calloc((size_t)n, sizeof *j->host_of);
	j->numa_of = calloc((size_t)n, sizeof *j->numa_of);
	j->names = calloc((size_t)j->nhosts, sizeof *j->names);
	j->name_buf = calloc((size_t)j->nhosts, sizeof *j->name_buf);
	j->judged = calloc((size_t)j->nhosts, sizeof *j->judged);
	cr_assert(j->records && j->host_of && j->numa_of && j->names && j->name_buf && j->judged);
	for (int h = 0; h < j->nhosts; h++) {
		snprintf(j->name_buf[h], sizeof j->name_buf[h], "h%d", h + 1);
		j->names[h] = j->name_buf[h];
		j->judged[h] = true;
	}
	for (int r = 0; r < n; r++)
		j->host_of[r] = r / ranks_per_host;
	for (int a = 0; a < n; a++)
		for (int b = 0; b < n; b++) {
			struct link_record *r = &j->records[a * n + b];
			double lat = noisy(j->host_of[a] == j->host_of[b] ? 1.5 : 23.0);
			r->a = a;
			r->b = b;
			if (a == b)
				continue;
			r->measured = true;
			fill_samples(r->latency_samples_us, &r->nlatency_samples, lat);
			fill_samples(r->window_samples_us, &r->nwindow_samples, noisy(4000));
			stats_summarize(r->latency_samples_us, (size_t)r->nlatency_samples,
			                &r->latency_us);
			stats_summarize(r->window_samples_us, (size_t)r->nwindow_samples,
			                &r->window_us);
			r->latency_us.n = 1000; /* as many round trips as a run times */
			r->latency_us.p99_us = noisy(lat * 40);
			r->bidir_window_us = r->window_us;
			r->cpu_wait_share = uniform() * 0.1;
		}
	j->v = (struct links_view){
	    .nranks = n,
	    .nhosts = j->nhosts,
	    .records = j->records,
	    .host_of_rank = j->host_of,
	    .numa_of_rank = j->numa_of,
	    .host_names = j->names,
	    .host_judged = j->judged,
	    .window_bytes = 16.0 * 65536,
	};
}

static void job_release(struct job *j)
{
	free(j->records);
	free(j->host_of);
	free(j->numa_of);
	free(j->names);
	free(j->name_buf);
	free(j->judged);
}

/* The envelope collscope writes (context with hosts and ranks), schema 1, no results. */
static cJSON *envelope(const struct job *j, const char *started)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddNumberToObject(root, "schema_version", 1);
	cJSON_AddStringToObject(root, "command", "links");
	cJSON *ctx = cJSON_AddObjectToObject(root, "context");
	cJSON_AddStringToObject(ctx, "started_utc", started);
	cJSON *mpi = cJSON_AddObjectToObject(ctx, "mpi");
	cJSON_AddNumberToObject(mpi, "ranks", j->n);
	cJSON *hosts = cJSON_AddArrayToObject(ctx, "hosts");
	for (int h = 0; h < j->nhosts; h++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(hosts, o);
		cJSON_AddStringToObject(o, "name", j->names[h]);
		cJSON *ranks = cJSON_AddArrayToObject(o, "ranks");
		for (int r = 0; r < j->n; r++)
			if (j->host_of[r] == h)
				cJSON_AddItemToArray(ranks, cJSON_CreateNumber(r));
		cJSON_AddNumberToObject(o, "cores", 64);
		cJSON_AddNumberToObject(o, "numa_nodes", 1);
		cJSON_AddBoolToObject(o, "oversubscribed", false);
	}
	cJSON *ranks = cJSON_AddArrayToObject(ctx, "ranks");
	for (int r = 0; r < j->n; r++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(ranks, o);
		cJSON_AddNumberToObject(o, "rank", r);
		cJSON_AddStringToObject(o, "host", j->names[j->host_of[r]]);
	}
	cJSON_AddObjectToObject(root, "summary");
	cJSON_AddBoolToObject(root, "complete", true);
	return root;
}

/* The report as text and back, through the reader's own checks (report_parse). */
static cJSON *round_trip(const cJSON *root, size_t *bytes)
{
	char err[512] = "";
	char *text = cJSON_PrintUnformatted(root);
	cr_assert(text);
	if (bytes)
		*bytes = strlen(text);
	cJSON *back = report_parse("mem.json", text, strlen(text), err, sizeof err);
	cr_assert(back, "%s", err);
	free(text);
	return back;
}

static cJSON *written(const struct job *j, bool compact, const char *started)
{
	cJSON *root = envelope(j, started);
	cr_assert(compact ? links_report_add_results(root, &j->v) != NULL
	                  : links_report_add_results_v1(root, &j->v) != NULL);
	cJSON *back = round_trip(root, NULL);
	cJSON_Delete(root);
	return back;
}

static void assert_close(double x, double y, const char *what, size_t i)
{
	if (isnan(y)) {
		cr_assert(isnan(x), "%s[%zu]: %g, not null", what, i, x);
		return;
	}
	cr_assert(fabs(x - y) <= 5e-4 * fabs(y), "%s[%zu]: %.17g against %.17g", what, i, x, y);
}

Test(links_compact, record_round_trip)
{
	struct job j;
	job_init(&j, 6, 2, 7);
	j.records[0 * 6 + 3].remeasured = j.records[3 * 6 + 0].remeasured = true;
	cJSON *back = written(&j, true, "2026-12-03T10:00:00Z");
	char err[512] = "";
	struct links_pairs lp;
	cr_assert_eq(cJSON_GetObjectItem(back, "schema_version")->valueint, 2);
	cr_assert_null(cJSON_GetObjectItem(back, "results"), "schema 2 has no results[]");
	cr_assert_eq(links_pairs_read("mem.json", back, &lp, err, sizeof err), 0, "%s", err);
	cr_assert_eq(lp.n, 30);
	cr_assert_eq(lp.window_bytes, j.v.window_bytes);
	for (size_t i = 0; i < lp.n; i++) {
		const struct link_record *r = &j.records[lp.a[i] * 6 + lp.b[i]];
		cr_assert_neq(lp.a[i], lp.b[i]);
		cr_assert_eq(lp.locality[i], (int)links_locality(&j.v, r->a, r->b));
		assert_close(lp.lat_p50_us[i], link_latency_us(r), "lat_p50_us", i);
		assert_close(lp.lat_p99_us[i], r->latency_us.p99_us, "lat_p99_us", i);
		assert_close(lp.bw_p50_gbps[i], link_bandwidth_gbps(r, j.v.window_bytes), "bw_p50",
		             i);
		assert_close(lp.cpu_wait_fraction[i], link_cpu_wait(&j.v, r->a, r->b), "cpu_wait", i);
		cr_assert(isnan(lp.bw_p99_gbps[i]), "32 windows: no p99");
		cr_assert_eq(lp.lat_count[i], 1000);
		cr_assert_eq(lp.bw_count[i], LINK_KEPT_SAMPLES);
		cr_assert_eq(lp.remeasured[i], r->remeasured);
		cr_assert_str_eq(links_pairs_host(&lp, lp.a[i]), j.names[j.host_of[lp.a[i]]]);
	}
	/* the re-tested pairs keep their samples as suspects; the first other pair is sampled */
	const struct links_pair_samples *s = links_pairs_samples_of(&lp, 3, 0);
	cr_assert(s && s->why == PAIR_SAMPLE_SUSPECT);
	cr_assert_eq(s->nlatency, LINKS_REPORT_SAMPLES);
	cr_assert_eq(s->nwindow, LINKS_REPORT_SAMPLES);
	assert_close(s->latency_us[1], j.records[3 * 6 + 0].latency_samples_us[2], "samples", 1);
	s = links_pairs_samples_of(&lp, 0, 1);
	cr_assert(s && s->why == PAIR_SAMPLE_SAMPLED);
	cr_assert_eq(lp.nsamples, 4, "2 suspects' pairs and 1 in 16 of the 28 others: the 1st, the 17th");
	cr_assert_null(links_pairs_samples_of(&lp, 5, 4));
	links_pairs_release(&lp);
	cJSON_Delete(back);
	job_release(&j);
}

/* The bytes of pairs and pair_samples (or results) per measured pair, printed. */
static double bytes_per_pair(const struct job *j, bool compact)
{
	cJSON *root = cJSON_CreateObject();
	cr_assert(compact ? links_report_add_results(root, &j->v) != NULL
	                  : links_report_add_results_v1(root, &j->v) != NULL);
	cJSON_DeleteItemFromObject(root, "schema_version");
	char *text = cJSON_PrintUnformatted(root);
	double per_pair = (double)strlen(text) / (double)(j->n * (j->n - 1));
	free(text);
	cJSON_Delete(root);
	return per_pair;
}

Test(links_compact, at_most_100_bytes_per_pair)
{
	struct job j;
	job_init(&j, 64, 8, 11);
	double clean = bytes_per_pair(&j, true), old = bytes_per_pair(&j, false);
	/* 8 suspects' pairs re-tested, both directions */
	for (int k = 0; k < 8; k++)
		j.records[k * 64 + 63 - k].remeasured = j.records[(63 - k) * 64 + k].remeasured = true;
	double suspects = bytes_per_pair(&j, true);
	printf("links report, 64 ranks, 4032 pairs: %.1f bytes per pair compact (%.1f with 16 "
	       "pairs re-tested), %.1f in schema 1\n",
	       clean, suspects, old);
	cr_assert(clean <= 100, "%.1f bytes per pair", clean);
	cr_assert(suspects <= 100, "%.1f bytes per pair", suspects);
	cr_assert(old > 10 * clean, "schema 1: %.1f bytes per pair", old);
	job_release(&j);
}

/* Every compare point of both forms: the same pairs, the same figures to 4 digits. */
static void assert_same_points(const struct cmp_run *x, const struct cmp_run *y)
{
	cr_assert_eq(x->npoints, y->npoints);
	for (size_t i = 0; i < x->npoints; i++) {
		const struct cmp_point *p = &x->points[i], *q = &y->points[i];
		cr_assert_eq(p->a, q->a);
		cr_assert_eq(p->b, q->b);
		cr_assert_str_eq(p->host_a, q->host_a);
		cr_assert_str_eq(p->host_b, q->host_b);
		for (int m = 0; m < CMP_METRICS; m++)
			assert_close(p->value[m], q->value[m], "value", i);
	}
}

Test(links_compact, compare_and_trend_read_both_forms)
{
	struct job j;
	char err[512] = "";
	job_init(&j, 8, 2, 3);
	cJSON *roots[3] = {written(&j, false, "2026-12-01T10:00:00Z"),
	                   written(&j, true, "2026-12-02T10:00:00Z"),
	                   written(&j, true, "2026-12-03T10:00:00Z")};
	struct cmp_run runs[3];
	for (int i = 0; i < 3; i++)
		cr_assert_eq(cmp_run_load(&runs[i], "mem.json", roots[i], err, sizeof err), 0, "%s",
		             err);
	assert_same_points(&runs[0], &runs[1]);
	cr_assert_eq(runs[0].points[0].nsamples, LINK_KEPT_SAMPLES, "schema 1 keeps 32");
	cr_assert_eq(runs[1].points[0].nsamples, LINKS_REPORT_SAMPLES, "the sampled pair 0->1");
	cr_assert_eq(runs[1].points[1].nsamples, 0, "a pair without samples");
	struct cmp_options o;
	struct cmp_result res;
	cmp_options_init(&o);
	cr_assert_eq(cmp_compare(&runs[0], &runs[1], &o, &res), 0);
	cr_assert_not(cmp_failed(&res), "the same figures do not regress");
	cmp_result_release(&res);
	struct trend_options to;
	struct trend_result tr;
	trend_options_init(&to);
	cr_assert_eq(trend_check_setup(runs, 3, err, sizeof err), 0, "%s", err);
	cr_assert_eq(trend_analyze(runs, 3, &to, &tr), 0);
	cr_assert_not(trend_failed(&tr));
	trend_result_release(&tr);
	for (int i = 0; i < 3; i++) {
		cmp_run_release(&runs[i]);
		cJSON_Delete(roots[i]);
	}
	job_release(&j);
}

Test(links_compact, accept_and_the_page_read_both_forms)
{
	struct job j;
	char err[1024] = "";
	job_init(&j, 6, 2, 5);
	cJSON *v1 = written(&j, false, "2026-12-01T10:00:00Z");
	cJSON *v2 = written(&j, true, "2026-12-02T10:00:00Z");
	struct accept_figures f1, f2;
	cr_assert_eq(accept_figures_load(&f1, "v1.json", v1, err, sizeof err), 0, "%s", err);
	cr_assert_eq(accept_figures_load(&f2, "v2.json", v2, err, sizeof err), 0, "%s", err);
	cr_assert_eq(f1.nlinks, 30);
	cr_assert_eq(f2.nlinks, f1.nlinks);
	for (size_t i = 0; i < f1.nlinks; i++) {
		cr_assert_eq(f1.links[i].a, f2.links[i].a);
		cr_assert_eq(f1.links[i].host_b, f2.links[i].host_b);
		cr_assert_eq(f1.links[i].locality, f2.links[i].locality);
		assert_close(f2.links[i].bandwidth_gbps, f1.links[i].bandwidth_gbps, "bw", i);
		assert_close(f2.links[i].latency_us, f1.links[i].latency_us, "lat", i);
	}
	accept_figures_release(&f1);
	accept_figures_release(&f2);
	struct html_input in[2] = {{"v1.json", v1}, {"v2.json", v2}};
	struct html_buf b;
	html_buf_init(&b);
	cr_assert_eq(html_render_page(&b, in, 2, "test", err, sizeof err), 0, "%s", err);
	cr_assert(strstr(b.data, "<svg"), "heatmaps from both forms");
	html_buf_release(&b);
	cJSON_Delete(v1);
	cJSON_Delete(v2);
	job_release(&j);
}

/* The report an older collscope wrote (schema 1, 4 ranks on one host), as it was. */
Test(links_compact, the_old_report_on_disk_is_read)
{
	char err[1024] = "";
	cJSON *root = report_read(OLD_FIXTURE, err, sizeof err);
	cr_assert(root, "%s", err);
	cr_assert_eq(cJSON_GetObjectItem(root, "schema_version")->valueint, 1);
	cr_assert_not(links_report_is_compact(root));
	struct cmp_run run;
	cr_assert_eq(cmp_run_load(&run, OLD_FIXTURE, root, err, sizeof err), 0, "%s", err);
	cr_assert_eq(run.npoints, 12);
	cr_assert_eq(run.points[0].nsamples, LINK_KEPT_SAMPLES);
	cr_assert(run.points[0].value[CMP_BW] > 0);
	cmp_run_release(&run);
	struct accept_figures f;
	cr_assert_eq(accept_figures_load(&f, OLD_FIXTURE, root, err, sizeof err), 0, "%s", err);
	cr_assert_eq(f.nlinks, 12);
	accept_figures_release(&f);
	struct html_input in = {OLD_FIXTURE, root};
	struct html_buf b;
	html_buf_init(&b);
	cr_assert_eq(html_render_page(&b, &in, 1, "test", err, sizeof err), 0, "%s", err);
	html_buf_release(&b);
	cJSON_Delete(root);
}

/* A bad entry of the compact form is named with its array and index. */
static void expect_refused(void (*mutate)(cJSON *pairs), const char *what)
{
	struct job j;
	char err[512] = "";
	struct links_pairs lp;
	job_init(&j, 4, 2, 9);
	cJSON *root = written(&j, true, "2026-12-02T10:00:00Z");
	mutate(cJSON_GetObjectItem(root, "pairs"));
	cr_assert_eq(links_pairs_read("bad.json", root, &lp, err, sizeof err), -1);
	cr_assert(strstr(err, what), "'%s' does not say '%s'", err, what);
	struct cmp_run run;
	cr_assert_eq(cmp_run_load(&run, "bad.json", root, err, sizeof err), -1);
	cr_assert(strstr(err, what), "compare: '%s' does not say '%s'", err, what);
	cJSON_Delete(root);
	job_release(&j);
}

static void short_column(cJSON *pairs)
{
	cJSON_DeleteItemFromArray(cJSON_GetObjectItem(pairs, "bw_p50_gbps"), 0);
}

static void string_entry(cJSON *pairs)
{
	cJSON_ReplaceItemInArray(cJSON_GetObjectItem(pairs, "lat_p50_us"), 3,
	                         cJSON_CreateString("x"));
}

static void rank_too_big(cJSON *pairs)
{
	cJSON_ReplaceItemInArray(cJSON_GetObjectItem(pairs, "b"), 2, cJSON_CreateNumber(4));
}

static void huge_count(cJSON *pairs)
{
	cJSON_ReplaceItemInObject(pairs, "count", cJSON_CreateNumber(1e15));
}

Test(links_compact, bad_entries_are_named)
{
	expect_refused(short_column, "pairs.bw_p50_gbps has 11 entries, not count 12");
	expect_refused(string_entry, "pairs.lat_p50_us[3] is not a number");
	expect_refused(rank_too_big, "pairs.b[2] is out of range");
	expect_refused(huge_count, "pairs.a has 12 entries, not count 1000000000000000");
}

/* Past 128 ranks the page shows hosts: a host x host heatmap, in blocks, and the suspects' pairs. */
Test(links_compact, the_page_shows_hosts_and_opens_suspects)
{
	struct job j;
	char err[1024] = "";
	job_init(&j, 140, 1, 13);
	for (int b = 0; b < 140; b++)
		if (b != 4)
			j.records[4 * 140 + b].window_us.p50_us *= 10; /* h5 slow to send */
	cJSON *root = envelope(&j, "2026-12-02T10:00:00Z");
	cr_assert(links_report_add_results(root, &j.v));
	cJSON *sus = cJSON_AddArrayToObject(cJSON_GetObjectItem(root, "summary"), "suspects");
	cJSON *s = cJSON_CreateObject();
	cJSON_AddItemToArray(sus, s);
	cJSON_AddStringToObject(s, "kind", "host");
	cJSON_AddStringToObject(s, "who", "h5");
	cJSON_AddStringToObject(s, "host", "h5");
	cJSON_AddStringToObject(s, "line", "host h5 is slow to send");
	cJSON *back = round_trip(root, NULL);
	struct html_input in = {"v2.json", back};
	struct html_buf b;
	html_buf_init(&b);
	cr_assert_eq(html_render_page(&b, &in, 1, "test", err, sizeof err), 0, "%s", err);
	cr_assert(strstr(b.data, "140 hosts in blocks of 2"), "the host heatmap, in blocks");
	cr_assert(strstr(b.data, "block with a suspect host"));
	const char *d = strstr(b.data, "<details class=\"suspect\"><summary>host h5");
	cr_assert(d, "the suspect opens");
	cr_assert(strstr(d, "(278 pairs)"), "its 139 pairs each way");
	/* the slowest first: its own sends, at a tenth of the others */
	const char *row = strstr(d, "<tr><td>");
	cr_assert(row && strncmp(row, "<tr><td>4 -&gt; ", 16) == 0, "a pair h5 sends first");
	html_buf_release(&b);
	cJSON_Delete(back);
	cJSON_Delete(root);
	job_release(&j);
}

/*
 * Rank 0's table of the measured records (issue 28: it grows with the pairs
 * measured): the same report as the dense form it replaces, lookups of pairs
 * not measured, and rows out of order refused.
 */
Test(links_compact, the_table_of_measured_records_reads_as_the_dense_form)
{
	enum { N = 7 };
	struct job j;
	job_init(&j, N, 2, 5);
	int counts[N] = {0};
	struct link_record recs[N * N];
	size_t row[N + 1], k = 0;
	for (int a = 0; a < N; a++)
		for (int b = 0; b < N; b++) {
			struct link_record *r = &j.records[a * N + b];
			/* screening left these out, and rank 6 measured none: as links_run.c
			   starts a row */
			if ((a + b) % 3 == 0 || a == 6)
				*r = (struct link_record){.a = a,
				                          .b = b,
				                          .cpu_wait_share = NAN,
				                          .cpu_wait_share_lat = NAN,
				                          .nic_other_gbps = NAN,
				                          .nic_other_sent_gbps = NAN,
				                          .nic_other_received_gbps = NAN};
			if (r->measured) {
				recs[k++] = *r;
				counts[a]++;
			}
		}
	struct link_table t = {.nranks = N, .row = row, .recs = recs};
	cr_assert_eq(link_table_index(&t, counts), 0);
	cr_assert_eq(row[N], k);
	struct links_view tv = j.v;
	tv.records = NULL;
	tv.table = &t;
	for (int a = 0; a < N; a++)
		for (int b = 0; b < N; b++) {
			const struct link_record *d = links_view_record(&j.v, a, b),
			                         *s = links_view_record(&tv, a, b);
			cr_assert_eq(s->measured, d->measured, "%d -> %d", a, b);
			if (d->measured)
				cr_assert_eq(memcmp(s, d, sizeof *s), 0, "%d -> %d", a, b);
			else
				cr_assert(isnan(s->cpu_wait_share) && isnan(s->nic_other_gbps));
		}
	cJSON *dense = envelope(&j, "2026-12-06T09:00:00Z");
	cJSON *table = envelope(&j, "2026-12-06T09:00:00Z");
	cr_assert(links_report_add_pairs(dense, &j.v) && links_report_add_pairs(table, &tv));
	char *x = cJSON_PrintUnformatted(dense), *y = cJSON_PrintUnformatted(table);
	cr_assert_str_eq(x, y, "the same pairs, figures and samples");
	free(x);
	free(y);
	cJSON_Delete(dense);
	cJSON_Delete(table);
	/* a row out of order (its peers must increase) is refused */
	struct link_record swap = recs[0];
	recs[0] = recs[1];
	recs[1] = swap;
	cr_assert_eq(link_table_index(&t, counts), -1);
	job_release(&j);
}

/*
 * Rank 0's analysis of a screened 8,192-rank job (1,024 hosts x 8) under an
 * address-space limit of 512 MiB: every pass goes over the measured records,
 * none allocates nranks^2 entries (a host matrix is 1,024^2 doubles, 8 MB; a
 * scratch of nranks^2 values was 0.5-4 GB). Each rank measures four peers, one
 * in its host and three across (rank ^ 1, ^ 8, ^ 64, ^ 512).
 */
Test(links_compact, a_screened_8192_rank_job_is_judged_in_what_it_measured)
{
#ifdef __SANITIZE_ADDRESS__
	cr_skip_test("AddressSanitizer reserves terabytes of address space");
#endif
	enum { N = 8192, PER_HOST = 8, PEERS = 4 };
	static const int mask[PEERS] = {1, 8, 64, 512}; /* in increasing order of peer for a = 0 */
	struct rlimit lim = {512ul << 20, 512ul << 20};
	cr_assert_eq(setrlimit(RLIMIT_AS, &lim), 0);
	struct link_table t = {.nranks = N,
	                       .row = malloc((N + 1) * sizeof(size_t)),
	                       .recs = calloc((size_t)N * PEERS, sizeof(struct link_record))};
	int *counts = malloc(N * sizeof *counts), *host_of = malloc(N * sizeof *host_of);
	cr_assert(t.row && t.recs && counts && host_of);
	size_t k = 0;
	for (int a = 0; a < N; a++) {
		int peers[PEERS];
		for (int i = 0; i < PEERS; i++)
			peers[i] = a ^ mask[i];
		for (int i = 1; i < PEERS; i++) /* sorted: insertion, four of them */
			for (int j = i; j > 0 && peers[j - 1] > peers[j]; j--) {
				int x = peers[j];
				peers[j] = peers[j - 1];
				peers[j - 1] = x;
			}
		for (int i = 0; i < PEERS; i++) {
			struct link_record *r = &t.recs[k++];
			*r = (struct link_record){.a = a, .b = peers[i], .measured = true,
			                          .cpu_wait_share = 0.01, .cpu_wait_share_lat = 0.01,
			                          .nic_other_gbps = NAN, .nic_other_sent_gbps = NAN,
			                          .nic_other_received_gbps = NAN};
			/* the slow host 17 sends at half the rate */
			double us = a / PER_HOST == 17 && peers[i] / PER_HOST != 17 ? 2000 : 1000;
			r->window_us = (struct stats_summary){.n = 5, .min_us = us, .p50_us = us,
			                                      .mean_us = us, .max_us = us, .p90_us = us};
			r->latency_us = (struct stats_summary){.n = 50, .p50_us = 20, .min_us = 20,
			                                       .mean_us = 20, .max_us = 20};
		}
		counts[a] = PEERS;
		host_of[a] = a / PER_HOST;
	}
	cr_assert_eq(link_table_index(&t, counts), 0);
	int nh = N / PER_HOST;
	struct links_view v = {.nranks = N, .nhosts = nh, .table = &t, .host_of_rank = host_of,
	                       .window_bytes = 1 << 20};
	cr_assert_eq(links_count_measured(&v), (size_t)N * PEERS);
	double *cells = malloc((size_t)nh * nh * sizeof *cells);
	struct host_class_agg *agg = calloc((size_t)nh * DETECT_LOCALITIES, sizeof *agg);
	struct detect_link *links = malloc((size_t)N * PEERS * sizeof *links);
	cr_assert(cells && agg && links);
	cr_assert_eq(links_host_matrix(&v, cells), 0);
	cr_expect_float_eq(cells[17 * nh + (17 ^ 1)], 0.5 * cells[16 * nh + (16 ^ 1)], 1e-9,
	                   "host 17 sends at half the rate");
	cr_assert_eq(links_room_host_matrix(&v, false, cells), 0);
	cr_assert_eq(links_host_classes(&v, agg), 0);
	cr_expect_eq(links_to_detect(&v, DETECT_BANDWIDTH, links), (size_t)N * PEERS);
	int counted;
	cr_expect(isfinite(links_class_median(&v, DETECT_BANDWIDTH, DETECT_CROSS_HOST, &counted)));
	cr_expect_eq(counted, N * (PEERS - 1));
	cr_expect_float_eq(links_typical_cpu_wait(&v), 0.01, 1e-12);
	cr_expect_eq(links_bandwidth_unjudged(&v), 0);
	cJSON *root = cJSON_CreateObject();
	cr_expect(links_report_add_pairs(root, &v), "the compact pairs of 16,384 pairs");
	cJSON_Delete(root);
	free(cells);
	free(agg);
	free(links);
	free(counts);
	free(host_of);
	free(t.row);
	free(t.recs);
}
