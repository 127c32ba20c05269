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
#include "reports/accept/accept_spread.h"
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

Test(accept_derive, thresholds_come_from_the_run_to_run_spread_and_the_tolerance)
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
	/*
	 * ring 4 MiB over 2 runs: busbw 1.0 and 1.2, median 1.1; ln: 0 and 0.1823, MAD
	 * 0.0912, s = 0.1352; 1.1 x e^(-3 s) = 0.7333, x 0.9 = 0.66. p99 900 and 1100:
	 * s = 0.1488, 1000 x e^(3 s) = 1562.5, x 1.1 = 1718.7 -> 1720
	 */
	cr_assert_eq(s.allreduce.npoints, 3);
	cr_assert_str_eq(s.allreduce.points[0].variant, "ring");
	cr_assert_eq(s.allreduce.points[0].bytes, 4194304);
	cr_assert_eq(s.allreduce.points[0].min_busbw_gbps, 0.66);
	cr_assert_eq(s.allreduce.points[0].max_p99_us, 1720);
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
	cr_assert_eq(num(prov, "class_median"), 10);
	cr_assert_eq(num(prov, "links"), 8);
	cr_assert_eq(num(prov, "runs"), 1, "one links report: one run");
	cr_assert(cJSON_IsTrue(at(prov, "fragile")), "one run: fragile");
	cr_assert(cJSON_IsNull(at(prov, "log_spread")), "one run: no spread");
	cr_assert_eq(num(prov, "threshold"), 9);
	cr_assert_eq(cJSON_GetArraySize(at(prov, "sources")), 1);
	cr_assert_eq(cJSON_GetArrayItem(at(prov, "sources"), 0)->valuedouble, 1);
	cr_assert_not_null(strstr(at(prov, "rule")->valuestring, "x (1 - 10%)"));
	cr_assert_not_null(strstr(at(prov, "rule")->valuestring, "median x e^(-3 s)"));
	cr_assert_eq(num(prov, "weakest_host_median"), 10);
	prov = at(out, "derived/thresholds/checks.allreduce.points[0].max_p99_us");
	cr_assert_eq(num(prov, "median"), 1000);
	cr_assert_eq(num(prov, "runs"), 2);
	cr_assert_float_eq(num(prov, "log_spread"), 1.4826 * log(1100.0 / 900) / 2, 1e-12);
	cr_assert_float_eq(num(prov, "bound"), 1000 * exp(3 * 1.4826 * log(1100.0 / 900) / 2),
	                   1e-9);
	cr_assert_not(cJSON_IsTrue(at(prov, "fragile")), "two runs: a spread measured");
	cr_assert_eq(cJSON_GetArraySize(at(prov, "sources")), 2);
	/* the links came from one run: the spec says it is fragile, and where */
	cr_assert(cJSON_IsTrue(at(out, "derived/fragile")));
	cr_assert(s.fragile, "the parser reads derived.fragile");
	cr_assert_eq(num(out, "derived/spread_k"), 3);
	cr_assert_eq(num(out, "derived/thresholds/checks.topology.hosts/value"), 2);
	cr_assert_eq(num(out, "derived/thresholds/checks.topology.hosts/runs"), 4,
	             "every report agreed on it");
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

/* A spec derived from allreduce reports of ring 4 MiB at busbw[0 .. n), p99 1000. */
static cJSON *derive_runs(const double *busbw, size_t n, struct accept_spec *s)
{
	cJSON *r[8], *out = spec_root();
	struct accept_source src[8];
	char names[8][32]; /* room for any size_t: -Wformat-truncation under -Werror */

	cr_assert_leq(n, 8);
	for (size_t i = 0; i < n; i++) {
		r[i] = allreduce_report(busbw[i], 1000);
		snprintf(names[i], sizeof names[i], "a%zu.json", i);
		src[i] = (struct accept_source){names[i], r[i]};
	}
	cr_assert_eq(accept_derive(out, src, n, 10, err, sizeof err), 0, "%s", err);
	cr_assert_eq(accept_spec_parse(out, s, err, sizeof err), 0, "%s", err);
	for (size_t i = 0; i < n; i++)
		cJSON_Delete(r[i]);
	return out;
}

Test(accept_derive, a_wider_spread_widens_the_bound)
{
	const double tight[] = {1.00, 1.01, 0.99, 1.00, 1.02}, wide[] = {1.0, 1.2, 0.8, 1.1, 0.9};
	struct accept_spec a, b;
	cJSON *x = derive_runs(tight, 5, &a), *y = derive_runs(wide, 5, &b);
	double ta = a.allreduce.points[0].min_busbw_gbps, tb = b.allreduce.points[0].min_busbw_gbps;

	/* both medians are 1.0: the tolerance alone would give 0.9 to both */
	cr_assert_eq(num(x, "derived/thresholds/checks.allreduce.points[0].min_busbw_gbps/median"),
	             1.0);
	cr_assert_eq(num(y, "derived/thresholds/checks.allreduce.points[0].min_busbw_gbps/median"),
	             1.0);
	cr_assert_lt(tb, ta, "the noisier runs get the lower minimum: %g vs %g", tb, ta);
	/* tight: s = 0.0148, e^(-3 s) = 0.9567 (below the lowest run, 0.99), x 0.9 -> 0.861 */
	cr_assert_eq(ta, 0.861);
	/* wide: s = 0.156, e^(-3 s) = 0.6259, x 0.9 = 0.5633 -> 0.563 */
	cr_assert_eq(tb, 0.563);
	cr_assert_not(a.fragile, "five runs: not fragile");
	cr_assert_not(cJSON_IsTrue(at(y, "derived/fragile")));
	cr_assert_eq(cJSON_GetArraySize(at(y, "derived/fragile_thresholds")), 0);
	accept_spec_release(&a);
	accept_spec_release(&b);
	cJSON_Delete(x);
	cJSON_Delete(y);
}

Test(accept_derive, every_known_good_run_passes_its_spec_even_an_outlier)
{
	/* three runs at 1.0 and one at 0.5: MAD 0, but the lowest run sets the bound */
	const double runs[] = {1.0, 1.0, 0.5, 1.0};
	struct accept_spec s;
	cJSON *out = derive_runs(runs, 4, &s);

	cr_assert_eq(s.allreduce.points[0].min_busbw_gbps, 0.45);
	accept_spec_release(&s);
	cJSON_Delete(out);
}

Test(accept_derive, a_spec_from_one_run_says_it_is_fragile)
{
	const double one[] = {1.0};
	struct accept_spec s;
	cJSON *out = derive_runs(one, 1, &s), *list = at(out, "derived/fragile_thresholds");
	bool found = false;

	cr_assert(s.fragile);
	cr_assert(cJSON_IsTrue(at(out, "derived/fragile")));
	for (cJSON *p = list->child; p; p = p->next)
		found |= strcmp(p->valuestring, "checks.allreduce.points[0].min_busbw_gbps") == 0;
	cr_assert(found, "the fragile threshold is listed by its path");
	cr_assert(cJSON_IsTrue(
	    at(out, "derived/thresholds/checks.allreduce.points[0].min_busbw_gbps/fragile")));
	/* one run: the median with the tolerance, as before */
	cr_assert_eq(s.allreduce.points[0].min_busbw_gbps, 0.9);
	accept_spec_release(&s);
	cJSON_Delete(out);
}

Test(accept_derive, a_very_noisy_figure_still_gets_a_positive_bound)
{
	/*
	 * runs 10x apart: on a linear scale median - 3 x spread would be below zero; on a
	 * log scale s = 1.028, 1 x e^(-3 s) = 0.0458, x 0.9 -> 0.0412
	 */
	const double runs[] = {1.0, 0.2, 0.5, 1.5, 2.0};
	struct accept_spec s;
	cJSON *out = derive_runs(runs, 5, &s);

	cr_assert_eq(s.allreduce.points[0].min_busbw_gbps, 0.0412);
	cr_assert_eq(s.allreduce.points[0].max_p99_us, 1100, "its p99 (1000 in every run)");
	cr_assert_eq(cJSON_GetArraySize(at(out, "derived/notes")), 0, "nothing left out");
	accept_spec_release(&s);
	cJSON_Delete(out);
}

Test(accept_derive, links_thresholds_come_from_each_runs_weakest_figure)
{
	cJSON *r[3] = {links_report(), links_report(), links_report()}, *out = spec_root();
	const struct accept_source src[3] = {{"l1", r[0]}, {"l2", r[1]}, {"l3", r[2]}};
	struct accept_spec s;
	cJSON *prov;

	cr_assert_eq(accept_derive(out, src, 3, 10, err, sizeof err), 0, "%s", err);
	cr_assert_eq(accept_spec_parse(out, &s, err, sizeof err), 0, "%s", err);
	prov = at(out, "derived/thresholds/checks.links.min_bandwidth_gbps.cross_host");
	cr_assert_eq(num(prov, "runs"), 3);
	cr_assert_eq(num(prov, "links"), 24);
	cr_assert_eq(num(prov, "log_spread"), 0, "three identical runs");
	cr_assert_eq(s.links.min_bandwidth_gbps[DETECT_CROSS_HOST], 9.0);
	cr_assert_not(s.fragile);
	accept_spec_release(&s);
	cJSON_Delete(out);
	for (int i = 0; i < 3; i++)
		cJSON_Delete(r[i]);
}

Test(accept_derive, a_point_on_one_rank_is_not_a_measurement)
{
	cJSON *r = report("allreduce", 1, 1), *out = spec_root();
	const struct accept_source src = {"a.json", r};
	cJSON *ranks = cJSON_GetObjectItemCaseSensitive(point(r, "ring", 8, 0, 5), "ranks");
	struct accept_spec s;

	cJSON_SetNumberValue(ranks, 1); /* a macro: its argument is evaluated twice */
	cr_assert_eq(accept_derive(out, &src, 1, 10, err, sizeof err), 0, "%s", err);
	cr_assert_eq(accept_spec_parse(out, &s, err, sizeof err), 0, "%s", err);
	cr_assert_not(s.has[ACCEPT_ALLREDUCE], "no threshold from a one-rank point");
	accept_spec_release(&s);
	cJSON_Delete(out);
	cJSON_Delete(r);
}

Test(accept_derive, an_old_spec_without_fragility_still_loads)
{
	const char *text =
	    "{\"schema_version\": 1, \"command\": \"accept-spec\", \"spec_version\": 1,"
	    " \"derived\": {\"tolerance_pct\": 10, \"sources\": [], \"thresholds\":"
	    " {\"checks.topology.hosts\": {\"median\": 2, \"values\": 1}}},"
	    " \"checks\": {\"topology\": {\"hosts\": 2}}}";
	cJSON *root = cJSON_Parse(text);
	struct accept_spec s;

	cr_assert_eq(accept_spec_parse(root, &s, err, sizeof err), 0, "%s", err);
	cr_assert_not(s.fragile);
	cr_assert_eq(s.topology.hosts, 2);
	accept_spec_release(&s);
	cJSON_Delete(root);
}

Test(accept_derive, one_run_given_twice_counts_once)
{
	cJSON *a = allreduce_report(1.0, 900), *out = spec_root();
	cJSON *ctx = cJSON_GetObjectItemCaseSensitive(a, "context"), *b;

	cJSON_AddStringToObject(ctx, "finished_utc", "2026-12-01T10:01:00Z");
	b = cJSON_Duplicate(a, true);
	const struct accept_source src[2] = {{"a.json", a}, {"copy.json", b}};
	cr_assert_eq(accept_derive(out, src, 2, 10, err, sizeof err), -1);
	cr_assert_not_null(strstr(err, "report 'copy.json': the same run as 'a.json' (allreduce "
	                               "started 2026-12-01T10:00:00Z)"),
	                   "%s", err);
	cJSON_Delete(out);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

/* Time stamps are whole seconds: two quick runs can share them; rank 0's pid tells them apart. */
Test(accept_derive, two_runs_within_one_second_both_count)
{
	cJSON *a = allreduce_report(1.0, 900), *out = spec_root();
	cJSON *ctx = cJSON_GetObjectItemCaseSensitive(a, "context"), *b, *ranks, *r0;

	cJSON_AddStringToObject(ctx, "finished_utc", "2026-12-01T10:00:00Z");
	ranks = cJSON_AddArrayToObject(ctx, "ranks");
	r0 = cJSON_CreateObject();
	cJSON_AddNumberToObject(r0, "pid", 1000);
	cJSON_AddItemToArray(ranks, r0);
	b = cJSON_Duplicate(a, true);
	cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(
	                         cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(
	                                                cJSON_GetObjectItemCaseSensitive(b, "context"), "ranks"),
	                                            0),
	                         "pid"),
	                     1001);
	const struct accept_source src[2] = {{"a.json", a}, {"b.json", b}};
	cr_assert_eq(accept_derive(out, src, 2, 10, err, sizeof err), 0, "%s", err);
	cJSON_Delete(out);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

Test(accept_derive, the_spread_bound_of_a_minimum_and_of_a_maximum)
{
	const double x[] = {10, 12, 8, 11, 9};
	struct accept_spread sp;

	/* median 10; ln 10 - ln 9 = 0.105 is the MAD of the logarithms */
	double s = 1.4826 * log(10.0 / 9);

	cr_assert_eq(accept_spread_bound(x, 5, true, 3, &sp), 0);
	cr_assert_eq(sp.median, 10);
	cr_assert_float_eq(sp.spread, s, 1e-12);
	cr_assert_float_eq(sp.bound, 10 * exp(-3 * s), 1e-12, "below the lowest run, 8");
	cr_assert_not(sp.fragile);
	cr_assert_eq(accept_spread_bound(x, 5, false, 3, &sp), 0);
	cr_assert_float_eq(sp.bound, 10 * exp(3 * s), 1e-12, "above the highest run, 12");
	cr_assert_eq(accept_spread_bound(x, 5, true, 0, &sp), 0);
	cr_assert_eq(sp.bound, 8, "k 0: the lowest run still bounds it");
	cr_assert_eq(accept_spread_bound(x, 1, true, 3, &sp), 0);
	cr_assert(sp.fragile && isnan(sp.spread) && sp.bound == 10, "one run: itself, fragile");
	cr_assert_eq(accept_spread_bound(x, 0, true, 3, &sp), -1);
	cr_assert_eq(accept_spread_bound(x, 5, true, -1, &sp), -1);
	{
		const double zero[] = {1, 0};
		cr_assert_eq(accept_spread_bound(zero, 2, true, 3, &sp), -1, "0 has no logarithm");
	}
}

/* A run of allreduce --collective c: ring 4 MiB at busbw, tree skipped (it has no halves). */
static cJSON *half_report(const char *collective, double busbw)
{
	cJSON *root = report("allreduce", 2, 2), *tree;

	cJSON_AddStringToObject(point(root, "ring", 4194304, busbw, 500), "collective", collective);
	tree = point(root, "tree", 4194304, 0, NAN);
	cJSON_AddStringToObject(tree, "collective", collective);
	cJSON_AddStringToObject(tree, "skipped", "no reduce-scatter form");
	return root;
}

/* Issue 35: reports of the halves give points of the halves, beside the all-reduce's. */
Test(accept_derive, each_point_keeps_its_collective)
{
	cJSON *r[3] = {allreduce_report(1.0, 900), half_report("reduce_scatter", 0.5),
	               half_report("allgather", 0.8)};
	const struct accept_source src[3] = {
	    {"ar.json", r[0]}, {"rs.json", r[1]}, {"ag.json", r[2]}};
	static const enum ar_collective want[] = {AR_ALLREDUCE, AR_ALLREDUCE, AR_ALLREDUCE,
	                                          AR_REDUCE_SCATTER, AR_ALLGATHER};
	cJSON *out = spec_root(), *points;
	struct accept_figures f, more;
	struct accept_verdict v;
	struct accept_spec s;
	char line[512];
	int judged = 0;

	cr_assert_eq(accept_derive(out, src, 3, 10, err, sizeof err), 0, "%s", err);
	cr_assert_eq(accept_spec_parse(out, &s, err, sizeof err), 0, "%s", err);
	cr_assert_eq(s.allreduce.npoints, 5, "ring, mpi, ring 64K; ring of each half; no tree");
	for (size_t i = 0; i < 5; i++)
		cr_assert_eq(s.allreduce.points[i].collective, want[i], "points[%zu]", i);
	cr_assert_str_eq(s.allreduce.points[3].variant, "ring");
	cr_assert_eq(s.allreduce.points[3].bytes, 4194304);
	/* from its own run, not the all-reduce's busbw of 1.0: 0.5 x 0.9 */
	cr_assert(s.allreduce.points[3].min_busbw_gbps > 0.44 &&
	              s.allreduce.points[3].min_busbw_gbps <= 0.45,
	          "%g", s.allreduce.points[3].min_busbw_gbps);
	cr_assert(s.allreduce.points[4].min_busbw_gbps > 0.71 &&
	              s.allreduce.points[4].min_busbw_gbps <= 0.72,
	          "%g", s.allreduce.points[4].min_busbw_gbps);
	points = at(out, "checks/allreduce/points");
	cr_assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(points, 0), "collective"));
	cr_assert_str_eq(
	    cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(points, 3), "collective")),
	    "reduce_scatter");
	cr_assert_str_eq(
	    at(out, "derived/thresholds/checks.allreduce.points[3].min_busbw_gbps/statistic")
	        ->valuestring,
	    "busbw of reduce_scatter ring at 4 MiB");
	/* the three runs, one figure set, pass the spec: each point judged by its own record */
	cr_assert_eq(accept_figures_load(&f, "ar.json", r[0], err, sizeof err), 0, "%s", err);
	for (int k = 1; k < 3; k++) {
		cr_assert_eq(accept_figures_load(&more, "h.json", r[k], err, sizeof err), 0, "%s",
		             err);
		for (size_t i = 0; i < more.npoints; i++)
			cr_assert_eq(accept_figures_add_point(&f, &more.points[i]), 0);
		accept_figures_release(&more);
	}
	s.has[ACCEPT_VERIFY] = false; /* the reports ran no verify */
	cr_assert_eq(accept_judge(&s, &f, 1, &v, err, sizeof err), 0, "%s", err);
	for (size_t i = 0; i < v.nresults; i++) {
		accept_format_result(&v, i, line, sizeof line);
		cr_assert_eq(v.results[i].status, ACCEPT_PASS, "%s", line);
		judged += v.results[i].kind == ACCEPT_ALLREDUCE;
	}
	cr_assert_eq(judged, 9, "5 busbw, 4 p99 (mpi's undefined)");
	accept_verdict_release(&v);
	accept_figures_release(&f);
	accept_spec_release(&s);
	cJSON_Delete(out);
	for (int i = 0; i < 3; i++)
		cJSON_Delete(r[i]);
}

Test(accept_derive, an_unknown_collective_in_a_report_is_named)
{
	cJSON *r[1] = {half_report("alltoall", 1)};
	const char *const want[] = {"report 'r0.json': results[0].collective: unknown collective "
	                            "\"alltoall\" (known: allreduce, reduce_scatter, allgather)",
	                            NULL};
	assert_refused(r, 1, want);
}
