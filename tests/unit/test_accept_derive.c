/*
 * accept --derive (reports/accept/accept_derive.c): thresholds from the median of
 * known-good reports minus the tolerance, per locality class and per point,
 * with the provenance of each; the spec it writes reads back; reports that
 * are not known-good, or not of one job layout, are refused with every
 * problem named.
 */
#include "reports/accept/accept_derive.h"
#include "reports/accept/accept_figures.h"
#include "reports/accept/accept_spec.h"
#include "reports/accept/accept_verdict.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static char err[8192];

/* An envelope whose context has hosts h0 .. h(n-1), ranks_per_host each, 2 cores, 1 NUMA node. */
static cJSON *report(const char *command, int nhosts, int ranks_per_host)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *ctx = cJSON_AddObjectToObject(root, "context");
	cJSON *hosts = cJSON_AddArrayToObject(ctx, "hosts");
	char name[16];

	cJSON_AddNumberToObject(root, "schema_version", 1);
	cJSON_AddStringToObject(root, "command", command);
	cJSON_AddStringToObject(ctx, "started_utc", "2026-12-01T10:00:00Z");
	for (int h = 0; h < nhosts; h++) {
		cJSON *o = cJSON_CreateObject(), *ranks;
		cJSON_AddItemToArray(hosts, o);
		snprintf(name, sizeof name, "h%d", h);
		cJSON_AddStringToObject(o, "name", name);
		ranks = cJSON_AddArrayToObject(o, "ranks");
		for (int r = 0; r < ranks_per_host; r++)
			cJSON_AddItemToArray(ranks, cJSON_CreateNumber(h * ranks_per_host + r));
		cJSON_AddNumberToObject(o, "cores", 2);
		cJSON_AddNumberToObject(o, "numa_nodes", 1);
		cJSON_AddBoolToObject(o, "oversubscribed", false);
	}
	cJSON_AddArrayToObject(root, "results");
	cJSON_AddObjectToObject(root, "summary");
	cJSON_AddBoolToObject(root, "complete", true);
	return root;
}

static cJSON *results(cJSON *root)
{
	return cJSON_GetObjectItemCaseSensitive(root, "results");
}

static void link(cJSON *root, int a, int b, int ha, int hb, const char *locality, double bw,
                 double lat)
{
	cJSON *o = cJSON_CreateObject();
	char name[16];

	cJSON_AddItemToArray(results(root), o);
	cJSON_AddNumberToObject(o, "a", a);
	cJSON_AddNumberToObject(o, "b", b);
	snprintf(name, sizeof name, "h%d", ha);
	cJSON_AddStringToObject(o, "host_a", name);
	snprintf(name, sizeof name, "h%d", hb);
	cJSON_AddStringToObject(o, "host_b", name);
	cJSON_AddStringToObject(o, "locality", locality);
	cJSON_AddNumberToObject(cJSON_AddObjectToObject(o, "latency_us"), "p50", lat);
	cJSON_AddNumberToObject(cJSON_AddObjectToObject(o, "bandwidth_gbps"), "p50", bw);
}

/* 2 hosts x 2 ranks: same_host links at 20 GB/s 1 us, cross_host at 9, 10, 10, 11 ... */
static cJSON *links_report(void)
{
	cJSON *root = report("links", 2, 2);
	double cross[] = {9, 10, 10, 11, 10, 12, 8, 10};
	int k = 0;

	cJSON_AddArrayToObject(cJSON_GetObjectItemCaseSensitive(root, "summary"), "suspects");
	for (int a = 0; a < 4; a++)
		for (int b = 0; b < 4; b++) {
			if (a == b)
				continue;
			if (a / 2 == b / 2)
				link(root, a, b, a / 2, b / 2, "same_host", 20, 1);
			else {
				link(root, a, b, a / 2, b / 2, "cross_host", cross[k], 5 + k % 2);
				k++;
			}
		}
	return root;
}

static cJSON *point(cJSON *root, const char *variant, double bytes, double busbw, double p99)
{
	cJSON *o = cJSON_CreateObject(), *t;

	cJSON_AddItemToArray(results(root), o);
	cJSON_AddStringToObject(o, "algorithm", variant);
	cJSON_AddNumberToObject(o, "bytes", bytes);
	cJSON_AddStringToObject(o, "dtype", "float32");
	cJSON_AddStringToObject(o, "op", "sum");
	cJSON_AddNumberToObject(o, "ranks", 4);
	cJSON_AddBoolToObject(o, "in_place", false);
	cJSON_AddNumberToObject(o, "wrong", 0);
	t = cJSON_AddObjectToObject(o, "time_us");
	if (isnan(p99))
		cJSON_AddNullToObject(t, "p99");
	else
		cJSON_AddNumberToObject(t, "p99", p99);
	cJSON_AddNumberToObject(o, "busbw_gbps", busbw);
	return o;
}

static cJSON *allreduce_report(double ring_busbw, double ring_p99)
{
	cJSON *root = report("allreduce", 2, 2);

	point(root, "ring", 4194304, ring_busbw, ring_p99);
	point(root, "mpi", 4194304, 2.0, NAN);
	point(root, "ring", 65536, 0.5, 300);
	return root;
}

static cJSON *at(cJSON *o, const char *path)
{
	char key[128];

	while (o && *path) {
		size_t n = strcspn(path, "/");
		snprintf(key, sizeof key, "%.*s", (int)n, path);
		o = cJSON_GetObjectItemCaseSensitive(o, key);
		path += n + (path[n] == '/');
	}
	cr_assert_not_null(o, "no %s", path);
	return o;
}

static double num(cJSON *o, const char *path)
{
	const cJSON *v = at(o, path);
	cr_assert(cJSON_IsNumber(v), "%s is not a number", path);
	return v->valuedouble;
}

static cJSON *spec_root(void)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddNumberToObject(root, "schema_version", 1);
	cJSON_AddStringToObject(root, "command", ACCEPT_SPEC_COMMAND);
	return root;
}

Test(accept_derive, thresholds_are_the_median_with_the_tolerance)
{
	cJSON *r[4] = {report("topo", 2, 2), links_report(), allreduce_report(1.0, 900),
	               allreduce_report(1.2, 1100)};
	const struct accept_source src[4] = {
	    {"topo.json", r[0]}, {"links.json", r[1]}, {"a1.json", r[2]}, {"a2.json", r[3]}};
	cJSON *out = spec_root();
	struct accept_spec s;
	cJSON *prov;
	char *text;

	cr_assert_eq(accept_derive(out, src, 4, 10, err, sizeof err), 0, "%s", err);
	text = cJSON_Print(out);
	cr_assert_eq(accept_spec_parse(out, &s, err, sizeof err), 0, "%s\n%s", err, text);
	cr_assert_eq(s.topology.hosts, 2);
	cr_assert_eq(s.topology.ranks_per_host, 2);
	cr_assert_eq(s.topology.cores_per_host, 2);
	cr_assert_eq(s.topology.numa_nodes_per_host, 1);
	cr_assert_not(s.topology.allow_oversubscribed);
	/* cross_host bandwidth: median 10 -> 9; latency 5 and 6 alike: median 5.5 -> 6.05 */
	cr_assert_eq(s.links.min_bandwidth_gbps[DETECT_CROSS_HOST], 9.0);
	cr_assert_eq(s.links.max_latency_us[DETECT_CROSS_HOST], 6.05);
	cr_assert_eq(s.links.min_bandwidth_gbps[DETECT_SAME_HOST], 18.0);
	cr_assert_eq(s.links.max_latency_us[DETECT_SAME_HOST], 1.1);
	cr_assert(isnan(s.links.min_bandwidth_gbps[DETECT_SAME_NUMA]),
	          "no such links: no threshold");
	cr_assert_not(s.links.allow_suspects);
	/* ring 4 MiB: busbw median of 1.0, 1.2 = 1.1 -> 0.99; p99 median of 900, 1100 -> 1100 */
	cr_assert_eq(s.allreduce.npoints, 3);
	cr_assert_str_eq(s.allreduce.points[0].variant, "ring");
	cr_assert_eq(s.allreduce.points[0].bytes, 4194304);
	cr_assert_eq(s.allreduce.points[0].min_busbw_gbps, 0.99);
	cr_assert_eq(s.allreduce.points[0].max_p99_us, 1100);
	cr_assert_str_eq(s.allreduce.points[1].variant, "mpi");
	cr_assert_eq(s.allreduce.points[1].min_busbw_gbps, 1.8);
	cr_assert(isnan(s.allreduce.points[1].max_p99_us), "p99 undefined: no threshold");
	cr_assert_eq(s.allreduce.points[2].bytes, 65536);
	cr_assert_eq(s.verify.nvariants, 2);
	cr_assert_str_eq(s.verify.variants[0], "ring");
	cr_assert_str_eq(s.verify.variants[1], "mpi");
	/* where each threshold came from */
	cr_assert_eq(num(out, "derived/tolerance_pct"), 10);
	cr_assert_eq(cJSON_GetArraySize(at(out, "derived/sources")), 4);
	prov = at(out, "derived/thresholds/checks.links.min_bandwidth_gbps.cross_host");
	cr_assert_eq(num(prov, "median"), 10);
	cr_assert_eq(num(prov, "values"), 8);
	cr_assert_eq(num(prov, "threshold"), 9);
	cr_assert_eq(cJSON_GetArraySize(at(prov, "sources")), 1);
	cr_assert_eq(cJSON_GetArrayItem(at(prov, "sources"), 0)->valuedouble, 1);
	cr_assert_not_null(strstr(at(prov, "rule")->valuestring, "x (1 - 10%)"));
	cr_assert_eq(num(prov, "weakest_host_median"), 10);
	prov = at(out, "derived/thresholds/checks.allreduce.points[0].max_p99_us");
	cr_assert_eq(num(prov, "median"), 1000);
	cr_assert_eq(cJSON_GetArraySize(at(prov, "sources")), 2);
	cr_assert_eq(num(out, "derived/thresholds/checks.topology.hosts/value"), 2);
	cJSON_free(text);
	accept_spec_release(&s);
	cJSON_Delete(out);
	for (int i = 0; i < 4; i++)
		cJSON_Delete(r[i]);
}

Test(accept_derive, thresholds_are_rounded_the_lenient_way)
{
	cJSON *r = allreduce_report(8.8234, 1234.5);
	const struct accept_source src = {"a.json", r};
	cJSON *out = spec_root();
	struct accept_spec s;

	cr_assert_eq(accept_derive(out, &src, 1, 10, err, sizeof err), 0, "%s", err);
	cr_assert_eq(accept_spec_parse(out, &s, err, sizeof err), 0, "%s", err);
	/* 8.8234 x 0.9 = 7.94106 -> 7.94 (down); 1234.5 x 1.1 = 1357.95 -> 1360 (up) */
	cr_assert_eq(s.allreduce.points[0].min_busbw_gbps, 7.94);
	cr_assert_eq(s.allreduce.points[0].max_p99_us, 1360);
	accept_spec_release(&s);
	cJSON_Delete(out);
	out = spec_root();
	cr_assert_eq(accept_derive(out, &src, 1, 0, err, sizeof err), 0, "%s", err);
	cr_assert_eq(accept_spec_parse(out, &s, err, sizeof err), 0, "%s", err);
	cr_assert_eq(s.allreduce.points[0].min_busbw_gbps, 8.82,
	             "tolerance 0: the median, rounded down");
	cr_assert_eq(s.allreduce.points[0].max_p99_us, 1240);
	accept_spec_release(&s);
	cJSON_Delete(out);
	cJSON_Delete(r);
}

Test(accept_derive, hosts_that_differ_leave_a_figure_out_with_a_note)
{
	cJSON *r = report("topo", 3, 2);
	cJSON *h2 = cJSON_GetArrayItem(at(r, "context/hosts"), 2);
	const struct accept_source src = {"t.json", r};
	cJSON *out = spec_root();
	struct accept_spec s;

	cJSON_ReplaceItemInObject(h2, "cores", cJSON_CreateNumber(4));
	cJSON_ReplaceItemInObject(h2, "oversubscribed", cJSON_CreateTrue());
	cr_assert_eq(accept_derive(out, &src, 1, 10, err, sizeof err), 0, "%s", err);
	cr_assert_eq(accept_spec_parse(out, &s, err, sizeof err), 0, "%s", err);
	cr_assert_eq(s.topology.cores_per_host, -1);
	cr_assert_eq(s.topology.ranks_per_host, 2);
	cr_assert(s.topology.allow_oversubscribed, "the reference run was oversubscribed");
	cr_assert_not(s.has[ACCEPT_LINKS] || s.has[ACCEPT_ALLREDUCE] || s.has[ACCEPT_VERIFY]);
	cr_assert_str_eq(cJSON_GetArrayItem(at(out, "derived/notes"), 0)->valuestring,
	                 "topology.cores_per_host left out: hosts differ in cores (h0 2, h2 4)");
	accept_spec_release(&s);
	cJSON_Delete(out);
	cJSON_Delete(r);
}

/* Derives from the reports and expects a refusal naming each of want (NULL-terminated). */
static void assert_refused(cJSON **r, size_t n, const char *const *want)
{
	struct accept_source src[8];
	char name[8][32];
	cJSON *out = spec_root();

	for (size_t i = 0; i < n; i++) {
		snprintf(name[i], sizeof name[i], "r%zu.json", i);
		src[i] = (struct accept_source){name[i], r[i]};
	}
	cr_assert_eq(accept_derive(out, src, n, 10, err, sizeof err), -1, "accepted");
	for (const char *const *w = want; *w; w++)
		cr_assert_not_null(strstr(err, *w), "'%s'\ndoes not say\n'%s'", err, *w);
	cr_assert_null(cJSON_GetObjectItemCaseSensitive(out, "checks"), "no spec when refused");
	cr_assert_null(cJSON_GetObjectItemCaseSensitive(out, "derived"));
	cJSON_Delete(out);
	for (size_t i = 0; i < n; i++)
		cJSON_Delete(r[i]);
}

Test(accept_derive, refuses_reports_that_are_not_known_good)
{
	cJSON *r[3] = {links_report(), allreduce_report(1, 1), report("topo", 2, 2)};
	cJSON *sus = cJSON_CreateObject();
	const char *const want[] = {
	    "report 'r0.json': summary.suspects[0]: host h1 is slow: not a known-good run",
	    "report 'r1.json': results[0] (ring, 4194304 bytes) has 5 wrong elements",
	    "report 'r1.json': results[2] (ring, 65536 bytes) was not checked (-c 0)",
	    "report 'r2.json': not complete (the run stopped early)", NULL};

	cJSON_AddStringToObject(sus, "kind", "host");
	cJSON_AddStringToObject(sus, "who", "h1");
	cJSON_AddStringToObject(sus, "reason", "host h1 is slow");
	cJSON_AddItemToArray(at(r[0], "summary/suspects"), sus);
	cJSON_ReplaceItemInObject(cJSON_GetArrayItem(results(r[1]), 0), "wrong",
	                          cJSON_CreateNumber(5));
	cJSON_ReplaceItemInObject(cJSON_GetArrayItem(results(r[1]), 2), "wrong",
	                          cJSON_CreateNull());
	cJSON_ReplaceItemInObject(r[2], "complete", cJSON_CreateFalse());
	assert_refused(r, 3, want);
}

Test(accept_derive, refuses_runs_of_different_layouts_and_kinds)
{
	cJSON *r[4] = {report("topo", 2, 2), report("topo", 3, 2), allreduce_report(1, 1),
	               report("scale", 2, 2)};
	const char *const want[] = {
	    "report 'r1.json': 3 hosts, but 'r0.json' has 2: derive from runs of one job layout",
	    "report 'r3.json': a scale report: accept reads topo, links and allreduce reports",
	    NULL};
	assert_refused(r, 4, want);

	cJSON *s[2] = {report("topo", 2, 2), report("topo", 2, 3)};
	const char *const want2[] = {"report 'r1.json': context.hosts[0] is 'h0' with 3 ranks, 2 "
	                             "cores, 1 NUMA nodes, but in 'r0.json' 'h0' with 2, 2, 1",
	                             NULL};
	assert_refused(s, 2, want2);

	cJSON *a[2] = {allreduce_report(1, 1), allreduce_report(1, 1)};
	cJSON_ReplaceItemInObject(cJSON_GetArrayItem(results(a[1]), 1), "dtype",
	                          cJSON_CreateString("int32"));
	const char *const want3[] = {"report 'r1.json': results[1] is int32 sum, but 'r0.json' "
	                             "results[0] is float32 sum: derive from runs of one dtype",
	                             NULL};
	assert_refused(a, 2, want3);
}

Test(accept_derive, names_every_bad_record)
{
	cJSON *r[1] = {links_report()};
	cJSON *rec = cJSON_GetArrayItem(results(r[0]), 1);
	const char *const want[] = {
	    "report 'r0.json': results[1].locality: 'sideways' is not same_numa, same_host or "
	    "cross_host",
	    "report 'r0.json': results[4].host_b: host 'h9' is not in context.hosts",
	    "report 'r0.json': results[6].bandwidth_gbps.p50 is not a number", NULL};

	cJSON_ReplaceItemInObject(rec, "locality", cJSON_CreateString("sideways"));
	cJSON_ReplaceItemInObject(cJSON_GetArrayItem(results(r[0]), 4), "host_b",
	                          cJSON_CreateString("h9"));
	cJSON_ReplaceItemInObject(at(cJSON_GetArrayItem(results(r[0]), 6), "bandwidth_gbps"), "p50",
	                          cJSON_CreateString("fast"));
	assert_refused(r, 1, want);
}

Test(accept_derive, bad_arguments)
{
	cJSON *r = report("topo", 1, 1), *out = spec_root();
	const struct accept_source src = {"t.json", r};

	cr_assert_eq(accept_derive(out, &src, 0, 10, err, sizeof err), -1);
	cr_assert_not_null(strstr(err, "no reports"), "%s", err);
	cr_assert_eq(accept_derive(out, &src, 1, 100, err, sizeof err), -1);
	cr_assert_not_null(strstr(err, "tolerance"), "%s", err);
	cr_assert_eq(accept_derive(out, &src, 1, -1, err, sizeof err), -1);
	cJSON_Delete(out);
	cJSON_Delete(r);
}

/* 3 hosts x 2 ranks, every link's figures spread by a fixed generator; host 2 a little slower. */
static cJSON *noisy_links_report(unsigned seed)
{
	cJSON *root = report("links", 3, 2);
	unsigned long state = seed * 2654435761ul + 1;

	cJSON_AddArrayToObject(cJSON_GetObjectItemCaseSensitive(root, "summary"), "suspects");
	for (int a = 0; a < 6; a++)
		for (int b = 0; b < 6; b++) {
			if (a == b)
				continue;
			state = state * 6364136223846793005ul + 1442695040888963407ul;
			double u = (double)(state >> 11) / 9007199254740992.0;
			double slow = a / 2 == 2 || b / 2 == 2 ? 0.5 : 1, noise = 0.8 + 0.4 * u;
			link(root, a, b, a / 2, b / 2, a / 2 == b / 2 ? "same_host" : "cross_host",
			     (a / 2 == b / 2 ? 20 : 10) * slow * noise, 5 / slow * noise);
		}
	return root;
}

Test(accept_derive, a_run_passes_the_spec_derived_from_it)
{
	for (unsigned seed = 1; seed <= 20; seed++) {
		cJSON *r = noisy_links_report(seed), *out = spec_root();
		const struct accept_source src = {"l.json", r};
		struct accept_figures f;
		struct accept_spec s;
		struct accept_verdict v;
		char line[512];

		/* tolerance 0: only the rounding, always the lenient way, is left */
		cr_assert_eq(accept_derive(out, &src, 1, 0, err, sizeof err), 0, "%s", err);
		cr_assert_eq(accept_spec_parse(out, &s, err, sizeof err), 0, "%s", err);
		cr_assert_eq(accept_figures_load(&f, "l.json", r, err, sizeof err), 0, "%s", err);
		cr_assert_eq(accept_judge(&s, &f, 1, &v, err, sizeof err), 0, "%s", err);
		for (size_t i = 0; i < v.nresults; i++) {
			accept_format_result(&v, i, line, sizeof line);
			cr_assert_eq(v.results[i].status, ACCEPT_PASS, "seed %u: %s", seed, line);
		}
		/* the weakest host sets the bar: the slower host 2 */
		cr_assert_str_eq(
		    at(out,
		       "derived/thresholds/checks.links.min_bandwidth_gbps.cross_host/weakest_host")
		        ->valuestring,
		    "h2");
		accept_verdict_release(&v);
		accept_figures_release(&f);
		accept_spec_release(&s);
		cJSON_Delete(out);
		cJSON_Delete(r);
	}
}
