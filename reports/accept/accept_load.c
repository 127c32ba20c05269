/*
 * The measured figures of accept loaded from a report on disk (see
 * accept_figures_load in accept_figures.h): topo, links and allreduce
 * reports, read with the typed getters of report_read.h, every bad record
 * named (not only the first).
 */
#include "reports/accept/accept_figures.h"

#include "reports/accept/accept_util.h"
#include "reports/io/links_compact.h"
#include "reports/io/report_read.h"
#include "reports/io/report_schema.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RANKS_MAX 2147483647.0
#define BYTES_MAX 9007199254740992.0 /* 2^53: exact in a double */

/* A host's name and index, sorted by name: looked up by binary search, not one by one. */
struct host_key {
	const char *name;
	int index;
};

/* One report being loaded: the getters' context and the collected errors. */
struct loader {
	const char *path;
	struct accept_errs *errs;
	char err[512];
	char where[REPORT_WHERE_BYTES];
	struct report_at at;
	struct host_key *keys; /* f->nhosts, sorted by name; NULL: look up one by one */
};

static int key_order(const void *pa, const void *pb)
{
	const struct host_key *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);
	return c ? c : (a->index > b->index) - (a->index < b->index);
}

/* The index of the host named name (cleaned as the figures keep it), or -1. */
static int find_host(const struct loader *l, const struct accept_figures *f, const char *name)
{
	char clean[CTX_NAME_BYTES];
	size_t lo = 0, hi = (size_t)f->nhosts;
	if (!l->keys)
		return accept_figures_host(f, name);
	accept_copy_name(clean, sizeof clean, name);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(l->keys[mid].name, clean) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < (size_t)f->nhosts && strcmp(l->keys[lo].name, clean) == 0 ? l->keys[lo].index
	                                                                       : -1;
}

/* at.where = fmt ..., for the getters' messages. */
static void loader_at(struct loader *l, const char *where, size_t index)
{
	if (index == (size_t)-1)
		snprintf(l->where, sizeof l->where, "%s", where);
	else
		snprintf(l->where, sizeof l->where, "%s[%zu]", where, index);
	l->at = (struct report_at){l->path, l->where, l->err, sizeof l->err};
}

/* The getter's message into the errors; -1. */
static int failed(struct loader *l)
{
	accept_errs_add(l->errs, "%s", l->err);
	return -1;
}

/* An adder's result: -1 is out of memory, named. */
static int added(struct loader *l, int rc)
{
	if (rc != 0)
		accept_errs_add(l->errs, "report '%s': %s: out of memory", l->path, l->where);
	return rc;
}

static int load_host(struct loader *l, const cJSON *o, struct accept_host_figures *h)
{
	const char *name;
	const cJSON *ranks;
	int64_t cores = 0, numa = 0;

	if (report_get_string(&l->at, o, "name", true, &name) != 0 ||
	    report_get_array(&l->at, o, "ranks", true, &ranks) != 0 ||
	    report_get_integer(&l->at, o, "cores", true, 0, RANKS_MAX, &cores) != 0 ||
	    report_get_integer(&l->at, o, "numa_nodes", true, 0, RANKS_MAX, &numa) != 0 ||
	    report_get_bool(&l->at, o, "oversubscribed", true, &h->oversubscribed) != 0)
		return failed(l);
	accept_copy_name(h->name, sizeof h->name, name);
	h->ranks = cJSON_GetArraySize(ranks);
	h->cores = (int)cores;
	h->numa_nodes = (int)numa;
	return 0;
}

/* context.hosts: every host, names unique. */
static int load_hosts(struct loader *l, const cJSON *root, struct accept_figures *f)
{
	const cJSON *context, *hosts, *o;
	size_t n, i = 0;
	int rc = 0;

	loader_at(l, "", (size_t)-1);
	if (report_get_object(&l->at, root, "context", true, &context) != 0)
		return failed(l);
	loader_at(l, "context", (size_t)-1);
	if (report_get_array(&l->at, context, "hosts", true, &hosts) != 0)
		return failed(l);
	n = (size_t)cJSON_GetArraySize(hosts);
	if (n == 0) {
		accept_errs_add(l->errs, "report '%s': context.hosts is empty", l->path);
		return -1;
	}
	f->hosts = calloc(n, sizeof *f->hosts);
	if (!f->hosts) {
		accept_errs_add(l->errs, "report '%s': out of memory", l->path);
		return -1;
	}
	for (o = hosts->child; o; o = o->next, i++) {
		loader_at(l, "context.hosts", i);
		if (load_host(l, o, &f->hosts[i]) != 0)
			rc = -1;
	}
	f->nhosts = (int)n;
	/* names unique: sorted, a name equal to the one before is given again */
	l->keys = malloc(n * sizeof *l->keys);
	for (size_t k = 0; l->keys && k < n; k++)
		l->keys[k] = (struct host_key){f->hosts[k].name, (int)k};
	if (l->keys)
		qsort(l->keys, n, sizeof *l->keys, key_order);
	for (size_t k = 1; l->keys && rc == 0 && k < n; k++)
		if (strcmp(l->keys[k].name, l->keys[k - 1].name) == 0) {
			accept_errs_add(l->errs,
			                "report '%s': context.hosts[%d] names host '%s' again "
			                "(context.hosts[%d])",
			                l->path, l->keys[k].index, l->keys[k].name, l->keys[k - 1].index);
			rc = -1;
		}
	f->has[ACCEPT_TOPOLOGY] = rc == 0;
	return rc;
}

/* A host name of a record into its index; -1 after naming it. */
static int record_host(struct loader *l, const cJSON *rec, const char *key,
                       const struct accept_figures *f, int *out)
{
	const char *name;

	if (report_get_string(&l->at, rec, key, true, &name) != 0)
		return failed(l);
	*out = find_host(l, f, name);
	if (*out >= 0)
		return 0;
	accept_errs_add(l->errs, "report '%s': %s.%s: host '%.64s' is not in context.hosts",
	                l->path, l->where, key, name);
	return -1;
}

/* obj.name.stat (a number >= 0, null allowed) into *out. */
static int get_stat(struct loader *l, const cJSON *rec, const char *name, const char *stat,
                    double *out)
{
	char where[REPORT_WHERE_BYTES + 64];
	struct report_at at = l->at;
	const cJSON *o;

	*out = NAN;
	if (report_get_object(&l->at, rec, name, false, &o) != 0)
		return failed(l);
	snprintf(where, sizeof where, "%s.%s", l->where, name);
	at.where = where;
	if (o && report_get_number(&at, o, stat, false, 0, DBL_MAX, out) != 0)
		return failed(l);
	return 0;
}

static int load_link(struct loader *l, const cJSON *rec, struct accept_figures *f)
{
	struct accept_link_figures lk = {0};
	const char *locality;
	int64_t a = 0, b = 0;
	enum detect_locality k;

	if (report_get_integer(&l->at, rec, "a", true, 0, RANKS_MAX, &a) != 0 ||
	    report_get_integer(&l->at, rec, "b", true, 0, RANKS_MAX, &b) != 0 ||
	    report_get_string(&l->at, rec, "locality", true, &locality) != 0)
		return failed(l);
	if (detect_locality_parse(locality, &k) != 0) {
		accept_errs_add(l->errs,
		                "report '%s': %s.locality: '%.64s' is not same_numa, same_host or "
		                "cross_host",
		                l->path, l->where, locality);
		return -1;
	}
	if (record_host(l, rec, "host_a", f, &lk.host_a) != 0 ||
	    record_host(l, rec, "host_b", f, &lk.host_b) != 0 ||
	    get_stat(l, rec, "bandwidth_gbps", "p50", &lk.bandwidth_gbps) != 0 ||
	    get_stat(l, rec, "latency_us", "p50", &lk.latency_us) != 0)
		return -1;
	lk.a = (int)a;
	lk.b = (int)b;
	lk.locality = k;
	return added(l, accept_figures_add_link(f, &lk));
}

static int load_suspect(struct loader *l, const cJSON *o, struct accept_figures *f)
{
	struct accept_suspect_figures s = {
	    .host = -1, .a = -1, .b = -1, .host_a = -1, .host_b = -1};
	const char *kind, *reason;
	int64_t a = -1, b = -1;
	enum detect_kind k;

	if (report_get_string(&l->at, o, "kind", true, &kind) != 0 ||
	    report_get_string(&l->at, o, "reason", false, &reason) != 0)
		return failed(l);
	accept_copy_name(s.reason, sizeof s.reason, reason ? reason : "");
	/* links writes "host" (older reports: "who"); a link between two hosts has
	   no ranks a and b (its ranks_a, ranks_b); a segment names sets of hosts,
	   and is the job's alone here */
	if (detect_kind_parse(kind, &k) != 0) {
		accept_errs_add(l->errs,
		                "report '%s': %s.kind: '%.32s' is not host, link or segment",
		                l->path, l->where, kind);
		return -1;
	}
	if (k == DETECT_HOST) {
		if (record_host(l, o,
		                cJSON_GetObjectItemCaseSensitive(o, SK_SUSP_HOST) ? SK_SUSP_HOST
		                                                                  : SK_SUSP_WHO,
		                f, &s.host) != 0)
			return -1;
	} else if (k == DETECT_LINK) {
		if (report_get_integer(&l->at, o, "a", false, 0, RANKS_MAX, &a) != 0 ||
		    report_get_integer(&l->at, o, "b", false, 0, RANKS_MAX, &b) != 0)
			return failed(l);
		if (record_host(l, o, "host_a", f, &s.host_a) != 0 ||
		    record_host(l, o, "host_b", f, &s.host_b) != 0)
			return -1;
		s.a = (int)a;
		s.b = (int)b;
	}
	return added(l, accept_figures_add_suspect(f, &s));
}

/* A record's "collective" into *out; absent: the all-reduce (a report before the halves). */
static int load_collective(struct loader *l, const cJSON *rec, enum ar_collective *out)
{
	const char *name;
	char known[128] = "";
	size_t used = 0;

	if (report_get_string(&l->at, rec, "collective", false, &name) != 0)
		return failed(l);
	*out = AR_ALLREDUCE;
	if (!name)
		return 0;
	for (int c = 0; c < AR_COLLECTIVES; c++) {
		if (strcmp(name, ar_collective_names[c]) == 0) {
			*out = (enum ar_collective)c;
			return 0;
		}
		if (used < sizeof known)
			used += (size_t)snprintf(known + used, sizeof known - used, "%s%s",
			                         c ? ", " : "", ar_collective_names[c]);
	}
	accept_errs_add(l->errs,
	                "report '%s': %s.collective: unknown collective \"%.64s\" (known: %s)",
	                l->path, l->where, name, known);
	return -1;
}

static int load_point(struct loader *l, const cJSON *rec, struct accept_figures *f)
{
	struct accept_point_figures p = {.wrong = -1};
	const char *variant, *dtype, *op, *skipped;
	int64_t bytes = 0, ranks = 0;

	if (load_collective(l, rec, &p.collective) != 0)
		return -1;
	if (report_get_string(&l->at, rec, "algorithm", true, &variant) != 0 ||
	    report_get_string(&l->at, rec, "dtype", true, &dtype) != 0 ||
	    report_get_string(&l->at, rec, "op", true, &op) != 0 ||
	    report_get_integer(&l->at, rec, "bytes", true, 0, BYTES_MAX, &bytes) != 0 ||
	    report_get_integer(&l->at, rec, "ranks", true, 1, RANKS_MAX, &ranks) != 0 ||
	    report_get_bool(&l->at, rec, "in_place", false, &p.in_place) != 0 ||
	    report_get_string(&l->at, rec, "skipped", false, &skipped) != 0 ||
	    report_get_integer(&l->at, rec, "wrong", false, 0, BYTES_MAX, &p.wrong) != 0 ||
	    report_get_number(&l->at, rec, "busbw_gbps", false, 0, DBL_MAX, &p.busbw_gbps) != 0)
		return failed(l);
	if (get_stat(l, rec, "time_us", "p99", &p.p99_us) != 0)
		return -1;
	accept_copy_name(p.variant, sizeof p.variant, variant);
	accept_copy_name(p.dtype, sizeof p.dtype, dtype);
	accept_copy_name(p.op, sizeof p.op, op);
	if (skipped)
		accept_copy_name(p.skipped, sizeof p.skipped, skipped[0] ? skipped : "skipped");
	p.bytes = (uint64_t)bytes;
	p.ranks = (int)ranks;
	return added(l, accept_figures_add_point(f, &p));
}

/* Every element of array, each by load(); -1 when any failed (all are tried). */
static int load_each(struct loader *l, const cJSON *array, const char *where,
                     int (*load)(struct loader *, const cJSON *, struct accept_figures *),
                     struct accept_figures *f)
{
	size_t i = 0;
	int rc = 0;

	for (const cJSON *c = array ? array->child : NULL; c; c = c->next, i++) {
		loader_at(l, where, i);
		if (load(l, c, f) != 0)
			rc = -1;
	}
	return rc;
}

/* A pair's host into its index (by_rank: each rank's, -2 not yet looked up); -1 after naming it. */
static int pair_host(struct loader *l, const struct links_pairs *lp, int64_t rank,
                     const struct accept_figures *f, int *by_rank, int *out)
{
	const char *name = links_pairs_host(lp, rank);
	if (rank >= 0 && rank < lp->nranks && by_rank[rank] == -2)
		by_rank[rank] = name ? find_host(l, f, name) : -1;
	*out = rank >= 0 && rank < lp->nranks ? by_rank[rank] : -1;
	if (*out >= 0)
		return 0;
	accept_errs_add(l->errs, "report '%s': %s: rank %lld's host '%.64s' is not in context.hosts",
	                l->path, l->where, (long long)rank, name ? name : "(none in context.ranks)");
	return -1;
}

/* The pairs of a compact links report (schema 2): their hosts from context.ranks[]. */
static int load_compact_links(struct loader *l, const cJSON *root, struct accept_figures *f)
{
	struct links_pairs lp;
	int rc = 0, *by_rank;

	if (links_pairs_read(l->path, root, &lp, l->err, sizeof l->err) != 0)
		return failed(l);
	by_rank = malloc(((size_t)lp.nranks + 1) * sizeof *by_rank);
	if (!by_rank) {
		links_pairs_release(&lp);
		accept_errs_add(l->errs, "report '%s': out of memory", l->path);
		return -1;
	}
	for (int64_t r = 0; r < lp.nranks; r++)
		by_rank[r] = -2;
	for (size_t i = 0; i < lp.n; i++) {
		struct accept_link_figures lk = {.a = (int)lp.a[i],
		                                 .b = (int)lp.b[i],
		                                 .locality = (enum detect_locality)lp.locality[i],
		                                 .bandwidth_gbps = lp.bw_p50_gbps[i],
		                                 .latency_us = lp.lat_p50_us[i]};
		loader_at(l, "pairs", i);
		if (pair_host(l, &lp, lp.a[i], f, by_rank, &lk.host_a) != 0 ||
		    pair_host(l, &lp, lp.b[i], f, by_rank, &lk.host_b) != 0) {
			rc = -1;
			continue;
		}
		if (added(l, accept_figures_add_link(f, &lk)) != 0) {
			rc = -1;
			break;
		}
	}
	free(by_rank);
	links_pairs_release(&lp);
	return rc;
}

static int load_links(struct loader *l, const cJSON *root, struct accept_figures *f)
{
	const cJSON *results = NULL, *summary, *suspects = NULL;
	bool compact = links_report_is_compact(root);
	int rc;

	loader_at(l, "", (size_t)-1);
	if ((!compact && report_get_array(&l->at, root, "results", true, &results) != 0) ||
	    report_get_object(&l->at, root, "summary", false, &summary) != 0)
		return failed(l);
	loader_at(l, "summary", (size_t)-1);
	if (summary && report_get_array(&l->at, summary, "suspects", false, &suspects) != 0)
		return failed(l);
	rc = compact ? load_compact_links(l, root, f)
	             : load_each(l, results, "results", load_link, f);
	if (load_each(l, suspects, "summary.suspects", load_suspect, f) != 0)
		rc = -1;
	accept_figures_mark(f, ACCEPT_LINKS);
	return rc;
}

static int load_points(struct loader *l, const cJSON *root, struct accept_figures *f)
{
	const cJSON *results;

	loader_at(l, "", (size_t)-1);
	if (report_get_array(&l->at, root, "results", true, &results) != 0)
		return failed(l);
	accept_figures_mark(f, ACCEPT_ALLREDUCE);
	return load_each(l, results, "results", load_point, f);
}

int accept_figures_load(struct accept_figures *f, const char *path, const cJSON *root, char *err,
                        size_t len)
{
	struct accept_errs errs;
	struct loader l = {.path = path, .errs = &errs};
	const cJSON *command = cJSON_GetObjectItemCaseSensitive(root, "command");
	const cJSON *complete = cJSON_GetObjectItemCaseSensitive(root, "complete");
	const char *kind = cJSON_IsString(command) ? command->valuestring : "";

	accept_errs_init(&errs, err, len);
	accept_figures_init(f);
	f->complete = cJSON_IsTrue(complete);
	if (strcmp(kind, "topo") != 0 && strcmp(kind, "links") != 0 &&
	    strcmp(kind, "allreduce") != 0) {
		accept_errs_add(
		    &errs,
		    "report '%s': a %.32s report: accept reads topo, links and allreduce "
		    "reports",
		    path, kind[0] ? kind : "untyped");
	} else if (load_hosts(&l, root, f) == 0) {
		if (strcmp(kind, "links") == 0)
			load_links(&l, root, f);
		else if (strcmp(kind, "allreduce") == 0)
			load_points(&l, root, f);
	}
	free(l.keys);
	if (accept_errs_finish(&errs) == 0)
		return 0;
	accept_figures_release(f);
	return -1;
}
