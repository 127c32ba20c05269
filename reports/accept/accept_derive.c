/*
 * accept --derive: a spec from known-good reports (see accept_derive.h).
 */
#include "reports/accept/accept_derive.h"

#include "reports/accept/accept_figures.h"
#include "reports/accept/accept_spec.h"
#include "reports/accept/accept_spread.h"
#include "reports/accept/accept_util.h"
#include "reports/io/report_io.h"
#include "reports/stats/stats.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Significant digits a derived threshold keeps. */
#define THRESHOLD_DIGITS 3

/* Everything one derivation works on. */
struct deriving {
	const struct accept_source *src;
	struct accept_figures *figs; /* one per source */
	size_t n;
	double t; /* the tolerance as a fraction */
	struct accept_errs errs;
	struct accept_spec spec;
	cJSON *thresholds, *notes; /* in the "derived" block of the output */
	cJSON *fragile;            /* derived.fragile_thresholds: paths from one run */
	double *runs;              /* d->n: one figure per run, for a threshold */
};

/* x to THRESHOLD_DIGITS significant digits, down (a minimum) or up (a maximum). */
static double round_sig(double x, bool down)
{
	int e = (int)floor(log10(x)) - (THRESHOLD_DIGITS - 1);
	double scale = pow(10, fabs((double)e)), units;

	/* divide by an exact power of ten, so 8.82 is the double nearest to 8.82 */
	units = e < 0 ? x * scale : x / scale;
	units = down ? floor(units * (1 + 1e-12)) : ceil(units * (1 - 1e-12));
	return e < 0 ? units / scale : units * scale;
}

/* Known-good: complete, no suspects, every point checked and right. */
static void check_known_good(struct deriving *d, size_t i)
{
	const struct accept_figures *f = &d->figs[i];
	const char *path = d->src[i].path;

	if (!f->complete)
		accept_errs_add(
		    &d->errs,
		    "report '%s': not complete (the run stopped early): not a known-good "
		    "run",
		    path);
	for (size_t s = 0; s < f->nsuspects; s++)
		accept_errs_add(
		    &d->errs, "report '%s': summary.suspects[%zu]: %s: not a known-good run", path,
		    s, f->suspects[s].reason[0] ? f->suspects[s].reason : "a suspect");
	for (size_t p = 0; p < f->npoints; p++) {
		const struct accept_point_figures *q = &f->points[p];
		if (q->skipped[0])
			continue;
		if (q->wrong > 0)
			accept_errs_add(&d->errs,
			                "report '%s': results[%zu] (%s, %llu bytes) has %lld wrong "
			                "elements: not a known-good run",
			                path, p, q->variant, (unsigned long long)q->bytes,
			                (long long)q->wrong);
		else if (q->wrong < 0)
			accept_errs_add(
			    &d->errs,
			    "report '%s': results[%zu] (%s, %llu bytes) was not checked "
			    "(-c 0): not a known-good run",
			    path, p, q->variant, (unsigned long long)q->bytes);
	}
}

/* The hosts of report i against those of report ref: the same job layout, or an error. */
static void check_same_hosts(struct deriving *d, size_t ref, size_t i)
{
	const struct accept_figures *a = &d->figs[ref], *b = &d->figs[i];

	if (a->nhosts != b->nhosts) {
		accept_errs_add(
		    &d->errs,
		    "report '%s': %d hosts, but '%s' has %d: derive from runs of one job "
		    "layout",
		    d->src[i].path, b->nhosts, d->src[ref].path, a->nhosts);
		return;
	}
	for (int h = 0; h < a->nhosts; h++) {
		const struct accept_host_figures *x = &a->hosts[h], *y = &b->hosts[h];
		if (strcmp(x->name, y->name) != 0 || x->ranks != y->ranks || x->cores != y->cores ||
		    x->numa_nodes != y->numa_nodes || x->oversubscribed != y->oversubscribed) {
			accept_errs_add(
			    &d->errs,
			    "report '%s': context.hosts[%d] is '%s' with %d ranks, %d cores, "
			    "%d NUMA nodes, but in '%s' '%s' with %d, %d, %d: derive from "
			    "runs of one job layout",
			    d->src[i].path, h, y->name, y->ranks, y->cores, y->numa_nodes,
			    d->src[ref].path, x->name, x->ranks, x->cores, x->numa_nodes);
			return;
		}
	}
}

/* derived.thresholds[path] = {statistic, rule, median or value, values, sources}. */
static cJSON *provenance(struct deriving *d, const char *path, const char *statistic,
                         const char *rule)
{
	cJSON *o = cJSON_AddObjectToObject(d->thresholds, path);

	if (!o || !cJSON_AddStringToObject(o, "statistic", statistic) ||
	    !cJSON_AddStringToObject(o, "rule", rule) || !cJSON_AddArrayToObject(o, "sources"))
		return NULL;
	return o;
}

static bool add_source_index(cJSON *prov, size_t i)
{
	return cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(prov, "sources"),
	                            cJSON_CreateNumber((double)i));
}

static bool note(struct deriving *d, const char *text)
{
	return cJSON_AddItemToArray(d->notes, cJSON_CreateString(text));
}

/* One topology figure that every host must share; -1 (left out, with a note) when they differ. */
static int64_t shared(struct deriving *d, const char *key, const char *what, size_t offset)
{
	const struct accept_figures *f = &d->figs[0];
	char text[512], path[96];
	int first = *(const int *)((const char *)&f->hosts[0] + offset);
	cJSON *prov;

	for (int h = 1; h < f->nhosts; h++) {
		int v = *(const int *)((const char *)&f->hosts[h] + offset);
		if (v != first) {
			snprintf(text, sizeof text,
			         "topology.%s left out: hosts differ in %s (%.64s %d, %.64s %d)",
			         key, what, f->hosts[0].name, first, f->hosts[h].name, v);
			return note(d, text) ? -1 : -2;
		}
	}
	snprintf(path, sizeof path, "checks.topology.%s", key);
	snprintf(text, sizeof text, "%s of every host", what);
	prov = provenance(d, path, text, "as measured");
	for (size_t i = 0; prov && i < d->n; i++)
		if (!add_source_index(prov, i))
			return -2;
	return prov && cJSON_AddNumberToObject(prov, "value", first) &&
	               cJSON_AddNumberToObject(prov, "runs", (double)d->n)
	           ? first
	           : -2;
}

static int derive_topology(struct deriving *d)
{
	struct accept_topology_spec *t = &d->spec.topology;
	const struct accept_figures *f = &d->figs[0];
	cJSON *prov = provenance(d, "checks.topology.hosts", "hosts in the context", "as measured");

	for (size_t i = 0; prov && i < d->n; i++)
		if (!add_source_index(prov, i))
			return -1;
	if (!prov || !cJSON_AddNumberToObject(prov, "value", f->nhosts) ||
	    !cJSON_AddNumberToObject(prov, "runs", (double)d->n))
		return -1;
	t->hosts = f->nhosts;
	t->ranks_per_host =
	    shared(d, "ranks_per_host", "ranks", offsetof(struct accept_host_figures, ranks));
	t->cores_per_host =
	    shared(d, "cores_per_host", "cores", offsetof(struct accept_host_figures, cores));
	t->numa_nodes_per_host = shared(d, "numa_nodes_per_host", "NUMA nodes",
	                                offsetof(struct accept_host_figures, numa_nodes));
	if (t->ranks_per_host < -1 || t->cores_per_host < -1 || t->numa_nodes_per_host < -1)
		return -1;
	for (int h = 0; h < f->nhosts; h++)
		t->allow_oversubscribed |= f->hosts[h].oversubscribed;
	if (t->allow_oversubscribed &&
	    !note(d, "topology.allow_oversubscribed is true: the reference run was oversubscribed"))
		return -1;
	d->spec.has[ACCEPT_TOPOLOGY] = true;
	return 0;
}

/*
 * The threshold from one figure per run, x[0 .. n), into *out, its
 * provenance into prov: the bound from the run-to-run spread
 * (accept_spread.h), then the tolerance, rounded the lenient way. min:
 * bandwidth-like (a minimum).
 */
static int spread_threshold(struct deriving *d, cJSON *prov, const char *path, const double *x,
                            size_t n, bool min, double *out)
{
	struct accept_spread sp;
	cJSON *list;

	*out = NAN;
	if (!prov || accept_spread_bound(x, n, min, ACCEPT_SPREAD_K, &sp) != 0)
		return -1;
	*out = round_sig(sp.bound * (min ? 1 - d->t : 1 + d->t), min);
	if (!cJSON_AddNumberToObject(prov, "median", sp.median) ||
	    !cJSON_AddNumberToObject(prov, "values", (double)n) ||
	    !cJSON_AddNumberToObject(prov, "runs", (double)n) ||
	    !(list = cJSON_AddArrayToObject(prov, "run_values")) ||
	    !report_add_number(prov, "log_spread", sp.spread) ||
	    !cJSON_AddNumberToObject(prov, "spread_k", ACCEPT_SPREAD_K) ||
	    !cJSON_AddNumberToObject(prov, "bound", sp.bound) ||
	    !cJSON_AddBoolToObject(prov, "fragile", sp.fragile) ||
	    !cJSON_AddNumberToObject(prov, "threshold", *out))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!cJSON_AddItemToArray(list, cJSON_CreateNumber(x[i])))
			return -1;
	return sp.fragile && !cJSON_AddItemToArray(d->fragile, cJSON_CreateString(path)) ? -1 : 0;
}

/* A rule text: "the lower of median x e^(-3 s) and the lowest run, x (1 - 10%), ...". */
static void rule(const struct deriving *d, bool min, const char *per_run, char *buf, size_t len)
{
	snprintf(buf, len,
	         "%sover the runs, the %s of median x e^(%s%g s) (s = 1.4826 x MAD of ln(run)) "
	         "and the %s run, x (1 %c %.6g%%), rounded %s to %d significant digits",
	         per_run, min ? "lower" : "higher", min ? "-" : "", ACCEPT_SPREAD_K,
	         min ? "lowest" : "highest", min ? '-' : '+', d->t * 100, min ? "down" : "up",
	         THRESHOLD_DIGITS);
}

/*
 * The figures of class l of report run (every report: d->n), of the links
 * touching host (every link: -1), into x.
 */
static size_t class_values(const struct deriving *d, size_t run, enum detect_locality l,
                           bool bandwidth, int host, double *x)
{
	size_t n = 0;

	for (size_t i = 0; i < d->n; i++)
		for (size_t k = 0; (run == d->n || run == i) && k < d->figs[i].nlinks; k++) {
			const struct accept_link_figures *lk = &d->figs[i].links[k];
			double v = bandwidth ? lk->bandwidth_gbps : lk->latency_us;
			if (lk->locality == l && isfinite(v) && v > 0 &&
			    (host < 0 || lk->host_a == host || lk->host_b == host))
				x[n++] = v;
		}
	return n;
}

/* derived.thresholds[path] of a links class, with the reports that have links of it. */
static cJSON *class_provenance(struct deriving *d, enum detect_locality l, bool bandwidth,
                               char *path, size_t len)
{
	char stat[96], text[512];
	cJSON *prov;

	accept_spec_path_links(path, len, bandwidth, l);
	snprintf(stat, sizeof stat, "p50 %s of %s links", bandwidth ? "bandwidth" : "latency",
	         detect_locality_name(l));
	rule(d, bandwidth,
	     bandwidth ? "per run, the lower of the class median and its weakest host's median; "
	               : "per run, the higher of the class median and its weakest host's median; ",
	     text, sizeof text);
	prov = provenance(d, path, stat, text);
	for (size_t i = 0; prov && i < d->n; i++) {
		size_t k = 0;
		while (k < d->figs[i].nlinks && d->figs[i].links[k].locality != l)
			k++;
		if (k < d->figs[i].nlinks && !add_source_index(prov, i))
			return NULL;
	}
	return prov;
}

/*
 * The weakest host's median of class l in report run (every report: d->n)
 * into *weakest, its index returned (-1: no host has such links).
 */
static int weakest_host(const struct deriving *d, size_t run, enum detect_locality l,
                        bool bandwidth, double *x, double *weakest)
{
	int found = -1;

	for (int h = 0; h < d->figs[0].nhosts; h++) {
		size_t k = class_values(d, run, l, bandwidth, h, x);
		double m = k ? stats_median_inplace(x, k) : NAN;
		if (k && (found < 0 || (bandwidth ? m < *weakest : m > *weakest))) {
			*weakest = m;
			found = h;
		}
	}
	return found;
}

/*
 * One class and metric of links. The verdict judges each host's median as
 * well as the class's, so a run's figure is the weakest of them (a run
 * passes the spec derived from it); the threshold comes from those figures'
 * spread over the runs.
 */
static int derive_class(struct deriving *d, enum detect_locality l, bool bandwidth, double *x)
{
	size_t n = class_values(d, d->n, l, bandwidth, -1, x), nruns = 0;
	double median, weakest = NAN, v;
	char path[96];
	int host;
	cJSON *prov;

	if (n == 0)
		return 0;
	median = stats_median_inplace(x, n);
	host = weakest_host(d, d->n, l, bandwidth, x, &weakest);
	for (size_t i = 0; i < d->n; i++) {
		size_t k = class_values(d, i, l, bandwidth, -1, x);
		double run_median, run_weakest = NAN;
		if (k == 0)
			continue;
		run_median = stats_median_inplace(x, k);
		if (weakest_host(d, i, l, bandwidth, x, &run_weakest) < 0)
			run_weakest = run_median;
		d->runs[nruns++] =
		    bandwidth ? fmin(run_median, run_weakest) : fmax(run_median, run_weakest);
	}
	prov = class_provenance(d, l, bandwidth, path, sizeof path);
	if (!prov || !cJSON_AddNumberToObject(prov, "class_median", median) ||
	    !cJSON_AddNumberToObject(prov, "links", (double)n) ||
	    (host >= 0 &&
	     (!cJSON_AddStringToObject(prov, "weakest_host", d->figs[0].hosts[host].name) ||
	      !cJSON_AddNumberToObject(prov, "weakest_host_median", weakest))) ||
	    spread_threshold(d, prov, path, d->runs, nruns, bandwidth, &v) != 0)
		return -1;
	*(bandwidth ? &d->spec.links.min_bandwidth_gbps[l] : &d->spec.links.max_latency_us[l]) = v;
	return 0;
}

static int derive_links(struct deriving *d)
{
	size_t total = 0;
	double *x;
	int rc = 0;

	for (size_t i = 0; i < d->n; i++) {
		total += d->figs[i].nlinks;
		d->spec.has[ACCEPT_LINKS] |= d->figs[i].has[ACCEPT_LINKS];
	}
	if (!d->spec.has[ACCEPT_LINKS])
		return 0;
	x = malloc((total ? total : 1) * sizeof *x);
	if (!x)
		return -1;
	for (int l = 0; l < DETECT_LOCALITIES && rc == 0; l++)
		rc = derive_class(d, (enum detect_locality)l, true, x) ||
		     derive_class(d, (enum detect_locality)l, false, x);
	free(x);
	return rc ? -1 : 0;
}

/* A point of the spec being derived: borrowed from the figures. */
struct point_key {
	enum ar_collective collective;
	const char *variant;
	uint64_t bytes;
};

/* dtype, op and placement of every measured point agree; the first one's into the spec. */
static void check_same_kind(struct deriving *d)
{
	const struct accept_point_figures *first = NULL;
	size_t fi = 0, fp = 0;

	for (size_t i = 0; i < d->n; i++)
		for (size_t p = 0; p < d->figs[i].npoints; p++) {
			const struct accept_point_figures *q = &d->figs[i].points[p];
			if (q->skipped[0])
				continue;
			if (!first) {
				first = q;
				fi = i;
				fp = p;
			} else if (strcmp(q->dtype, first->dtype) != 0 ||
			           strcmp(q->op, first->op) != 0 ||
			           q->in_place != first->in_place) {
				accept_errs_add(
				    &d->errs,
				    "report '%s': results[%zu] is %s %s%s, but '%s' results[%zu] "
				    "is %s %s%s: derive from runs of one dtype, op and placement",
				    d->src[i].path, p, q->dtype, q->op,
				    q->in_place ? " in place" : "", d->src[fi].path, fp,
				    first->dtype, first->op, first->in_place ? " in place" : "");
				return;
			}
		}
	if (!first)
		return;
	snprintf(d->spec.allreduce.dtype, ACCEPT_NAME_BYTES, "%s", first->dtype);
	snprintf(d->spec.allreduce.op, ACCEPT_NAME_BYTES, "%s", first->op);
	d->spec.allreduce.in_place = first->in_place;
}

/* The distinct (collective, variant, bytes) of the measured points, in order of first sight. */
static size_t point_keys(const struct deriving *d, struct point_key *keys)
{
	size_t n = 0;

	for (size_t i = 0; i < d->n; i++)
		for (size_t p = 0; p < d->figs[i].npoints; p++) {
			const struct accept_point_figures *q = &d->figs[i].points[p];
			size_t k = 0;
			if (q->skipped[0])
				continue;
			while (k < n &&
			       (keys[k].bytes != q->bytes || keys[k].collective != q->collective ||
			        strcmp(keys[k].variant, q->variant) != 0))
				k++;
			if (k == n)
				keys[n++] = (struct point_key){q->collective, q->variant, q->bytes};
		}
	return n;
}

/* Whether q is a measurement of key: measured on two ranks or more (one moves no data). */
static bool is_point(const struct accept_point_figures *q, const struct point_key *key)
{
	return !q->skipped[0] && q->ranks >= 2 && q->bytes == key->bytes &&
	       q->collective == key->collective && strcmp(q->variant, key->variant) == 0;
}

/*
 * One metric of one point: its figure in each report (the median, should
 * a report hold the point twice) and the threshold from their spread into
 * *out; NAN when no report has it.
 */
static int derive_metric(struct deriving *d, const struct point_key *key, size_t index, bool busbw,
                         double *x, double *out)
{
	char path[96], stat[160], size[32], text[512];
	size_t nruns = 0;
	cJSON *prov = NULL;

	*out = NAN;
	accept_spec_path_point(path, sizeof path, index, busbw);
	for (size_t i = 0; i < d->n; i++) {
		size_t n = 0;
		for (size_t p = 0; p < d->figs[i].npoints; p++) {
			const struct accept_point_figures *q = &d->figs[i].points[p];
			double v = busbw ? q->busbw_gbps : q->p99_us;
			if (is_point(q, key) && isfinite(v) && v > 0)
				x[n++] = v;
		}
		if (n == 0)
			continue;
		d->runs[nruns++] = stats_median_inplace(x, n);
		if (!prov) {
			accept_format_bytes(size, sizeof size, key->bytes);
			snprintf(stat, sizeof stat, "%s of %s%s at %s",
			         busbw ? "busbw" : "p99 time",
			         accept_collective_prefix(key->collective), key->variant, size);
			rule(d, busbw, "", text, sizeof text);
			if (!(prov = provenance(d, path, stat, text)))
				return -1;
		}
		if (!add_source_index(prov, i))
			return -1;
	}
	return nruns ? spread_threshold(d, prov, path, d->runs, nruns, busbw, out) : 0;
}

/* A variant into verify.variants, once. */
static void verify_variant(struct accept_verify_spec *v, const char *name)
{
	for (size_t i = 0; i < v->nvariants; i++)
		if (strcmp(v->variants[i], name) == 0)
			return;
	snprintf(v->variants[v->nvariants++], ACCEPT_NAME_BYTES, "%s", name);
}

static int derive_keyed_points(struct deriving *d, const struct point_key *keys, size_t nkeys,
                               double *x)
{
	struct accept_allreduce_spec *a = &d->spec.allreduce;
	char text[256], size[32];

	a->points = calloc(nkeys ? nkeys : 1, sizeof *a->points);
	d->spec.verify.variants = calloc(nkeys ? nkeys : 1, sizeof *d->spec.verify.variants);
	if (!a->points || !d->spec.verify.variants)
		return -1;
	for (size_t k = 0; k < nkeys; k++) {
		struct accept_ar_point *p = &a->points[a->npoints];
		snprintf(p->variant, sizeof p->variant, "%s", keys[k].variant);
		p->collective = keys[k].collective;
		p->bytes = keys[k].bytes;
		if (derive_metric(d, &keys[k], a->npoints, true, x, &p->min_busbw_gbps) != 0 ||
		    derive_metric(d, &keys[k], a->npoints, false, x, &p->max_p99_us) != 0)
			return -1;
		verify_variant(&d->spec.verify, p->variant);
		if (!isnan(p->min_busbw_gbps) || !isnan(p->max_p99_us)) {
			a->npoints++;
			continue;
		}
		accept_format_bytes(size, sizeof size, p->bytes);
		snprintf(text, sizeof text,
		         "%s %s at %s left out: neither busbw nor p99 is defined there (one "
		         "rank, or fewer than 100 iterations)",
		         ar_collective_names[p->collective], p->variant, size);
		if (!note(d, text))
			return -1;
	}
	d->spec.has[ACCEPT_ALLREDUCE] = a->npoints > 0;
	d->spec.has[ACCEPT_VERIFY] = d->spec.verify.nvariants > 0;
	return 0;
}

static int derive_points(struct deriving *d)
{
	struct point_key *keys = NULL;
	double *x = NULL;
	size_t total = 0, nkeys;
	int rc = -1;

	for (size_t i = 0; i < d->n; i++)
		total += d->figs[i].npoints;
	if (total == 0)
		return 0;
	check_same_kind(d);
	keys = malloc(total * sizeof *keys);
	x = malloc(total * sizeof *x);
	if (!keys || !x)
		goto out;
	nkeys = point_keys(d, keys);
	rc = derive_keyed_points(d, keys, nkeys, x);
out:
	free(keys);
	free(x);
	return rc;
}

/* derived.sources: what each report was. */
static bool add_sources(cJSON *derived, const struct deriving *d)
{
	cJSON *list = cJSON_AddArrayToObject(derived, "sources");

	for (size_t i = 0; list && i < d->n; i++) {
		const cJSON *root = d->src[i].root;
		const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(root, "command");
		const cJSON *ctx = cJSON_GetObjectItemCaseSensitive(root, "context");
		const cJSON *started = cJSON_GetObjectItemCaseSensitive(ctx, "started_utc");
		cJSON *o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(list, o))
			return false;
		if (!cJSON_AddStringToObject(o, "path", d->src[i].path) ||
		    !cJSON_AddStringToObject(o, "command",
		                             cJSON_IsString(cmd) ? cmd->valuestring : "") ||
		    !(cJSON_IsString(started)
		          ? cJSON_AddStringToObject(o, "started_utc", started->valuestring)
		          : cJSON_AddNullToObject(o, "started_utc")) ||
		    !cJSON_AddNumberToObject(o, "hosts", d->figs[i].nhosts))
			return false;
	}
	return list != NULL;
}

/* A context's time stamp at key, or NULL. */
static const char *stamp(const cJSON *root, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(root, "context"), key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Rank 0's process id, the run's identity beside its time stamps (which are whole seconds:
 * two quick runs can start and finish within the same one); -1 when not recorded. */
static double rank0_pid(const cJSON *root)
{
	const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(root, "context"), "ranks");
	const cJSON *pid = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(ranks, 0), "pid");
	return cJSON_IsNumber(pid) ? pid->valuedouble : -1;
}

/* Report i is the run of an earlier one (its command, times and rank 0's pid): each run
 * counts once. */
static void check_new_run(struct deriving *d, size_t i)
{
	const cJSON *a = d->src[i].root;
	const char *cmd = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(a, "command"));

	for (size_t k = 0; k < i && cmd && stamp(a, "started_utc") && stamp(a, "finished_utc");
	     k++) {
		const cJSON *b = d->src[k].root;
		const char *other =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(b, "command"));
		if (other && strcmp(cmd, other) == 0 && stamp(b, "started_utc") &&
		    stamp(b, "finished_utc") &&
		    strcmp(stamp(a, "started_utc"), stamp(b, "started_utc")) == 0 &&
		    strcmp(stamp(a, "finished_utc"), stamp(b, "finished_utc")) == 0 &&
		    rank0_pid(a) == rank0_pid(b)) {
			accept_errs_add(
			    &d->errs,
			    "report '%s': the same run as '%s' (%s started %s): each run "
			    "counts once in the run-to-run spread",
			    d->src[i].path, d->src[k].path, cmd, stamp(a, "started_utc"));
			return;
		}
	}
}

/* The figures of every source, checked: -1 when any is unusable (all are named). */
static int load_all(struct deriving *d)
{
	char err[4096];
	size_t ref = d->n;

	for (size_t i = 0; i < d->n; i++) {
		if (accept_figures_load(&d->figs[i], d->src[i].path, d->src[i].root, err,
		                        sizeof err) != 0) {
			/* one line each, as they came */
			for (char *save = NULL, *line = strtok_r(err, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save))
				accept_errs_add(&d->errs, "%s", line);
			continue;
		}
		check_known_good(d, i);
		check_new_run(d, i);
		if (ref == d->n)
			ref = i;
		else
			check_same_hosts(d, ref, i);
	}
	return d->errs.count ? -1 : 0;
}

static int derive_all(struct deriving *d, cJSON *root)
{
	cJSON *derived;
	char name[128];

	derived = cJSON_AddObjectToObject(root, "derived");
	if (!derived || !cJSON_AddNumberToObject(derived, "tolerance_pct", d->t * 100) ||
	    !cJSON_AddNumberToObject(derived, "spread_k", ACCEPT_SPREAD_K) ||
	    !add_sources(derived, d) ||
	    !(d->thresholds = cJSON_AddObjectToObject(derived, "thresholds")) ||
	    !(d->fragile = cJSON_AddArrayToObject(derived, "fragile_thresholds")) ||
	    !(d->notes = cJSON_AddArrayToObject(derived, "notes")))
		return -1;
	if (derive_topology(d) != 0 || derive_links(d) != 0 || derive_points(d) != 0)
		return -1;
	if (d->errs.count)
		return -1;
	if (!cJSON_AddBoolToObject(derived, "fragile", cJSON_GetArraySize(d->fragile) > 0))
		return -1;
	snprintf(name, sizeof name, "derived from %zu report%s, tolerance %.6g%%", d->n,
	         d->n == 1 ? "" : "s", d->t * 100);
	snprintf(d->spec.name, sizeof d->spec.name, "%s", name);
	return accept_spec_to_json(root, &d->spec) ? 0 : -1;
}

int accept_derive(cJSON *root, const struct accept_source *src, size_t n, double tolerance_pct,
                  char *err, size_t len)
{
	struct deriving d = {.src = src, .n = n, .t = tolerance_pct / 100};
	int rc = -1;

	accept_errs_init(&d.errs, err, len);
	accept_spec_init(&d.spec);
	if (n == 0 || !(tolerance_pct >= 0 && tolerance_pct < 100)) {
		accept_errs_add(&d.errs, n == 0
		                             ? "no reports to derive a spec from"
		                             : "the tolerance must be from 0 to under 100 percent");
		goto out;
	}
	d.figs = calloc(n, sizeof *d.figs);
	d.runs = malloc(n * sizeof *d.runs);
	if (!d.figs || !d.runs) {
		accept_errs_add(&d.errs, "out of memory");
		goto out;
	}
	if (load_all(&d) == 0 && derive_all(&d, root) != 0 && d.errs.count == 0)
		accept_errs_add(&d.errs, "out of memory");
	rc = d.errs.count ? -1 : 0;
	if (rc != 0) {
		cJSON_DeleteItemFromObjectCaseSensitive(root, "spec_version");
		cJSON_DeleteItemFromObjectCaseSensitive(root, "name");
		cJSON_DeleteItemFromObjectCaseSensitive(root, "derived");
		cJSON_DeleteItemFromObjectCaseSensitive(root, "checks");
	}
out:
	for (size_t i = 0; d.figs && i < n; i++)
		accept_figures_release(&d.figs[i]);
	free(d.figs);
	free(d.runs);
	accept_spec_release(&d.spec);
	accept_errs_finish(&d.errs);
	return rc;
}
