/* The congestion summary (reports/io/congestion_report.h). Pure. */
#include "reports/io/congestion_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/diagnose/classify.h"
#include "reports/io/report_io.h"
#include "reports/io/report_schema.h"

void congestion_summary_init(struct congestion_summary *s)
{
	*s = (struct congestion_summary){0};
}

static void where_release(struct congestion_where *w)
{
	free(w->hosts);
	free(w->loaded_gbps);
	free(w->alone_gbps);
	detect_result_release(&w->loaded);
	detect_result_release(&w->alone);
	cJSON_Delete(w->trace);
}

void congestion_summary_release(struct congestion_summary *s)
{
	for (int g = 0; s->groups && g < s->ngroups; g++) {
		free(s->groups[g].world_ranks);
		free(s->groups[g].hosts);
	}
	for (int i = 0; i < s->nwhere; i++)
		where_release(&s->where[i]);
	free(s->groups);
	free(s->points);
	free(s->where);
	congestion_summary_init(s);
}

int congestion_summary_add(struct congestion_summary *s, const struct congestion_point *p)
{
	if (s->npoints == s->cap_points) {
		int cap = s->cap_points ? 2 * s->cap_points : 16;
		struct congestion_point *more = realloc(s->points, (size_t)cap * sizeof *more);
		if (!more)
			return -1;
		s->points = more;
		s->cap_points = cap;
	}
	struct congestion_point *q = &s->points[s->npoints++];
	*q = *p;
	interference_factors_of(&q->alone, &q->together, &q->f);
	q->degraded = interference_degraded(&q->f, s->tolerance);
	return 0;
}

bool congestion_group_degraded(const struct congestion_summary *s, int g)
{
	for (int i = 0; i < s->npoints; i++)
		if (s->points[i].group == g && s->points[i].degraded)
			return true;
	return false;
}

static bool same_sides(const struct detect_result *a, int sa, const struct detect_result *b, int sb)
{
	if (sa < 0 || sb < 0 || a->nhosts != b->nhosts)
		return false;
	return memcmp(a->sides + (size_t)sa * (size_t)a->nhosts,
	              b->sides + (size_t)sb * (size_t)b->nhosts, (size_t)a->nhosts) == 0;
}

bool congestion_also_alone(const struct congestion_where *w, const struct detect_suspect *v)
{
	for (int i = 0; i < w->alone.nsuspects; i++) {
		const struct detect_suspect *u = &w->alone.suspects[i];
		if (u->kind != v->kind || u->direction != v->direction)
			continue;
		if (v->kind == DETECT_SEGMENT
		        ? same_sides(&w->alone, u->side, &w->loaded, v->side)
		        : u->host == v->host && u->host_a == v->host_a && u->host_b == v->host_b)
			return true;
	}
	return false;
}

/* Names of the hosts given by index into names, as an array of strings. */
static bool add_host_names(cJSON *o, const char *key, const int *hosts, int n,
                           const char *const *names)
{
	cJSON *a = cJSON_AddArrayToObject(o, key);
	for (int i = 0; a && i < n; i++)
		if (!cJSON_AddItemToArray(a, cJSON_CreateString(names[hosts[i]])))
			return false;
	return a != NULL;
}

static bool add_ints(cJSON *o, const char *key, const int *v, int n)
{
	cJSON *a = cJSON_AddArrayToObject(o, key);
	for (int i = 0; a && i < n; i++)
		if (!cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i])))
			return false;
	return a != NULL;
}

static bool add_groups(cJSON *sum, const struct congestion_summary *s)
{
	cJSON *arr = cJSON_AddArrayToObject(sum, SK_CSUM_GROUPS);
	for (int g = 0; arr && g < s->ngroups; g++) {
		const struct congestion_group *gr = &s->groups[g];
		cJSON *o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(arr, o) ||
		    !cJSON_AddNumberToObject(o, SK_CGROUP_GROUP, g) ||
		    !cJSON_AddStringToObject(o, SK_CGROUP_ROLE,
		                             gr->aggressor ? "aggressor" : "victim") ||
		    !add_ints(o, SK_CGROUP_WORLD_RANKS, gr->world_ranks, gr->nranks) ||
		    !add_host_names(o, SK_CGROUP_HOSTS, gr->hosts, gr->nhosts, s->host_names))
			return false;
	}
	return arr != NULL;
}

static bool add_point(cJSON *arr, const struct congestion_point *p)
{
	cJSON *o = cJSON_CreateObject();
	return o && cJSON_AddItemToArray(arr, o) &&
	       cJSON_AddStringToObject(o, SK_CPOINT_ALGORITHM, p->algorithm) &&
	       cJSON_AddNumberToObject(o, SK_CPOINT_BYTES, (double)p->bytes) &&
	       cJSON_AddNumberToObject(o, SK_CPOINT_GROUP, p->group) &&
	       report_add_number(o, SK_CPOINT_BUSBW_ALONE_GBPS, p->alone.busbw_gbps) &&
	       report_add_number(o, SK_CPOINT_BUSBW_TOGETHER_GBPS, p->together.busbw_gbps) &&
	       report_add_number(o, SK_CPOINT_P50_ALONE_US, p->alone.p50_us) &&
	       report_add_number(o, SK_CPOINT_P50_TOGETHER_US, p->together.p50_us) &&
	       report_add_number(o, SK_CPOINT_P99_ALONE_US, p->alone.p99_us) &&
	       report_add_number(o, SK_CPOINT_P99_TOGETHER_US, p->together.p99_us) &&
	       cJSON_AddNumberToObject(o, SK_CPOINT_ITERATIONS_ALONE, p->iterations_alone) &&
	       cJSON_AddNumberToObject(o, SK_CPOINT_ITERATIONS_TOGETHER, p->iterations_together) &&
	       report_add_number(o, SK_CPOINT_FACTOR_BUSBW, p->f.busbw) &&
	       report_add_number(o, SK_CPOINT_FACTOR_MEAN, p->f.mean) &&
	       report_add_number(o, SK_CPOINT_FACTOR_P50, p->f.p50) &&
	       report_add_number(o, SK_CPOINT_FACTOR_P99, p->f.p99) &&
	       cJSON_AddBoolToObject(o, SK_CPOINT_DEGRADED, p->degraded);
}

/* One overall row: the points from `from` that share its algorithm and bytes (consecutive). */
static int add_overall(cJSON *arr, const struct congestion_summary *s, int from)
{
	const struct congestion_point *p = &s->points[from];
	double a = 0, t = 0, worst = NAN;
	int n = 0;
	for (int i = from; i < s->npoints && s->points[i].bytes == p->bytes &&
	                   strcmp(s->points[i].algorithm, p->algorithm) == 0;
	     i++, n++) {
		const struct congestion_point *q = &s->points[i];
		a += q->alone.busbw_gbps;
		t += q->together.busbw_gbps;
		if (isnan(worst) || q->f.p99 > worst)
			worst = q->f.p99;
	}
	cJSON *o = cJSON_CreateObject();
	bool ok = o && cJSON_AddItemToArray(arr, o) &&
	          cJSON_AddStringToObject(o, SK_COVERALL_ALGORITHM, p->algorithm) &&
	          cJSON_AddNumberToObject(o, SK_COVERALL_BYTES, (double)p->bytes) &&
	          report_add_number(o, SK_COVERALL_BUSBW_ALONE_GBPS, a) &&
	          report_add_number(o, SK_COVERALL_BUSBW_TOGETHER_GBPS, t) &&
	          report_add_number(o, SK_COVERALL_FACTOR_BUSBW, interference_ratio(a, t)) &&
	          report_add_number(o, SK_COVERALL_WORST_FACTOR_P99, worst);
	return ok ? n : -1;
}

/* A host x host matrix as rows of numbers (null unknown). */
static bool add_matrix(cJSON *o, const char *key, const double *m, int n)
{
	if (!m)
		return true; /* not measured: the where entry says why */
	cJSON *rows = cJSON_AddArrayToObject(o, key);
	for (int i = 0; rows && i < n; i++) {
		cJSON *row = cJSON_CreateArray();
		if (!row || !cJSON_AddItemToArray(rows, row))
			return false;
		for (int j = 0; j < n; j++)
			if (!report_add_number_item(row, m[(size_t)i * (size_t)n + (size_t)j]))
				return false;
	}
	return rows != NULL;
}

/* The sides of a verdict as host names: a segment's two sides, a host, a link's two ends. */
static bool add_sides(cJSON *o, const struct congestion_where *w, const struct detect_suspect *v,
                      const char *const *names)
{
	cJSON *a = cJSON_AddArrayToObject(o, SK_CVERDICT_HOSTS_A);
	cJSON *b = cJSON_AddArrayToObject(o, SK_CVERDICT_HOSTS_B);
	for (int h = 0; a && b && h < w->nhosts; h++) {
		const char *name = names[w->hosts[h]];
		int side = v->kind == DETECT_SEGMENT && v->side >= 0
		               ? w->loaded.sides[(size_t)v->side * (size_t)w->nhosts + (size_t)h]
		           : v->kind == DETECT_HOST ? (h == v->host ? 0 : -1)
		           : h == v->host_a         ? 0
		           : h == v->host_b         ? 1
		                                    : -1;
		if (side >= 0 && !cJSON_AddItemToArray(side ? b : a, cJSON_CreateString(name)))
			return false;
	}
	return a && b;
}

static bool add_verdicts(cJSON *o, const struct congestion_where *w, const char *const *names)
{
	cJSON *arr = cJSON_AddArrayToObject(o, SK_CWHERE_VERDICTS);
	const char **local = malloc((size_t)(w->nhosts ? w->nhosts : 1) * sizeof *local);
	bool ok = arr && local;
	for (int h = 0; ok && h < w->nhosts; h++)
		local[h] = names[w->hosts[h]];
	for (int i = 0; ok && i < w->loaded.nsuspects; i++) {
		const struct detect_suspect *v = &w->loaded.suspects[i];
		char line[1024];
		classify_describe(&w->loaded, v, local, line, sizeof line);
		cJSON *e = cJSON_CreateObject();
		ok =
		    e && cJSON_AddItemToArray(arr, e) &&
		    cJSON_AddStringToObject(e, SK_CVERDICT_KIND, detect_kind_name(v->kind)) &&
		    cJSON_AddStringToObject(e, SK_CVERDICT_DIRECTION,
		                            detect_direction_name(v->kind, v->direction)) &&
		    add_sides(e, w, v, names) &&
		    report_add_number(e, SK_CVERDICT_MEASURED_GBPS, v->measured) &&
		    report_add_number(e, SK_CVERDICT_EXPECTED_GBPS, v->expected) &&
		    report_add_number(e, SK_CVERDICT_SCORE, v->score) &&
		    cJSON_AddBoolToObject(e, SK_CVERDICT_ALSO_ALONE, congestion_also_alone(w, v)) &&
		    cJSON_AddStringToObject(e, SK_CVERDICT_LINE, line);
	}
	free(local);
	return ok;
}

/* The traced all-reduce's "trace" and "slow_hops", copied, or why there are none. */
static bool add_trace(cJSON *o, const struct congestion_where *w)
{
	if (w->trace_skipped)
		return cJSON_AddStringToObject(o, SK_CWHERE_TRACE_SKIPPED, w->trace_skipped);
	const char *keys[] = {SK_CWHERE_TRACE, SK_CWHERE_SLOW_HOPS};
	for (size_t i = 0; w->trace && i < 2; i++) {
		const cJSON *x = cJSON_GetObjectItemCaseSensitive(w->trace, keys[i]);
		cJSON *copy = x ? cJSON_Duplicate(x, true) : NULL;
		if (x && (!copy || !cJSON_AddItemToObject(o, keys[i], copy))) {
			cJSON_Delete(copy);
			return false;
		}
	}
	return true;
}

static bool add_where(cJSON *sum, const struct congestion_summary *s)
{
	cJSON *arr = cJSON_AddArrayToObject(sum, SK_CSUM_WHERE);
	for (int i = 0; arr && i < s->nwhere; i++) {
		const struct congestion_where *w = &s->where[i];
		cJSON *o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(arr, o) ||
		    !cJSON_AddNumberToObject(o, SK_CWHERE_GROUP, w->group) ||
		    !add_host_names(o, SK_CWHERE_HOSTS, w->hosts, w->nhosts, s->host_names) ||
		    !cJSON_AddNumberToObject(o, SK_CWHERE_HOSTS_TOTAL, w->hosts_total) ||
		    (w->skipped && !cJSON_AddStringToObject(o, SK_CWHERE_SKIPPED, w->skipped)) ||
		    !add_trace(o, w) ||
		    !add_matrix(o, SK_CWHERE_LOADED_GBPS, w->loaded_gbps, w->nhosts) ||
		    !add_matrix(o, SK_CWHERE_ALONE_GBPS, w->alone_gbps, w->nhosts) ||
		    !add_verdicts(o, w, s->host_names))
			return false;
	}
	return arr != NULL;
}

cJSON *congestion_report_add_summary(cJSON *root, const struct congestion_summary *s,
                                     const char **verdict)
{
	cJSON *sum = cJSON_AddObjectToObject(root, SK_REPORT_SUMMARY);
	cJSON *points = sum ? cJSON_AddArrayToObject(sum, SK_CSUM_POINTS) : NULL;
	cJSON *overall = sum ? cJSON_AddArrayToObject(sum, SK_CSUM_OVERALL) : NULL;
	cJSON *degraded = sum ? cJSON_AddArrayToObject(sum, SK_CSUM_DEGRADED_GROUPS) : NULL;
	int64_t wrong = 0;
	bool ok = points && overall && degraded &&
	          cJSON_AddStringToObject(sum, SK_CSUM_UNIT, s->by_host ? "host" : "rank") &&
	          add_groups(sum, s);
	for (int i = 0; ok && i < s->npoints; i++) {
		ok = add_point(points, &s->points[i]);
		wrong += s->points[i].wrong > 0 ? s->points[i].wrong : 0;
	}
	for (int i = 0, n = 0; ok && i < s->npoints; i += n)
		ok = (n = add_overall(overall, s, i)) > 0;
	int ndegraded = 0;
	for (int g = 0; ok && g < s->ngroups; g++)
		if (congestion_group_degraded(s, g)) {
			ndegraded++;
			ok = cJSON_AddItemToArray(degraded, cJSON_CreateNumber(g));
		}
	*verdict = wrong ? "wrong results" : ndegraded ? "interference" : "no interference";
	ok = ok && add_where(sum, s) &&
	     cJSON_AddNumberToObject(sum, SK_CSUM_WRONG_TOTAL, (double)wrong) &&
	     cJSON_AddStringToObject(sum, SK_CSUM_VERDICT, *verdict);
	return ok ? sum : NULL;
}
