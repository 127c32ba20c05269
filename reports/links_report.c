/*
 * The links report: see links_report.h. Bandwidth statistics are derived
 * from window times: the fastest window gives the maximum bandwidth, the
 * p90 time the p10 bandwidth (the slow tail), and the mean is the total
 * bytes over the total time of all windows.
 */
#include "links_report.h"

#include "report_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum detect_locality links_locality(const struct links_view *v, int a, int b)
{
	if (v->host_of_rank[a] != v->host_of_rank[b])
		return DETECT_CROSS_HOST;
	if (v->numa_of_rank && v->numa_of_rank[a] >= 0 && v->numa_of_rank[a] == v->numa_of_rank[b])
		return DETECT_SAME_NUMA;
	return DETECT_SAME_HOST;
}

static double typical(const struct stats_summary *s)
{
	if (s->n == 0)
		return NAN;
	return isfinite(s->p50_us) ? s->p50_us : s->mean_us;
}

double link_latency_us(const struct link_record *r)
{
	return r->measured ? typical(&r->latency_us) : NAN;
}

/* GB/s of bytes moved in t_us microseconds. */
static double gbps(double bytes, double t_us)
{
	return t_us > 0 ? bytes / (t_us * 1e3) : NAN;
}

double link_bandwidth_gbps(const struct link_record *r, double window_bytes)
{
	return r->measured ? gbps(window_bytes, typical(&r->window_us)) : NAN;
}

static const struct link_record *record(const struct links_view *v, int a, int b)
{
	return &v->records[(size_t)a * (size_t)v->nranks + (size_t)b];
}

size_t links_to_detect(const struct links_view *v, enum detect_metric metric,
                       struct detect_link *out)
{
	size_t k = 0;
	for (int a = 0; a < v->nranks; a++)
		for (int b = 0; b < v->nranks; b++) {
			const struct link_record *r = record(v, a, b);
			if (a == b || !r->measured)
				continue;
			int ha = v->host_of_rank[a], hb = v->host_of_rank[b];
			out[k++] = (struct detect_link){
			    .a = a,
			    .b = b,
			    .host_a = ha,
			    .host_b = hb,
			    .locality = links_locality(v, a, b),
			    .value = metric == DETECT_BANDWIDTH
			                 ? link_bandwidth_gbps(r, v->window_bytes)
			                 : link_latency_us(r),
			    .judged =
			        (!v->host_judged || (v->host_judged[ha] && v->host_judged[hb])),
			};
		}
	return k;
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

int links_host_matrix(const struct links_view *v, double *out)
{
	size_t cap = (size_t)v->nranks * (size_t)v->nranks;
	double *vals = malloc((cap ? cap : 1) * sizeof *vals);
	if (!vals)
		return -1;
	for (int i = 0; i < v->nhosts; i++)
		for (int j = 0; j < v->nhosts; j++) {
			size_t k = 0;
			for (int a = 0; a < v->nranks; a++)
				for (int b = 0; b < v->nranks; b++) {
					double g =
					    link_bandwidth_gbps(record(v, a, b), v->window_bytes);
					if (a != b && v->host_of_rank[a] == i &&
					    v->host_of_rank[b] == j && isfinite(g))
						vals[k++] = g;
				}
			out[i * v->nhosts + j] = k ? stats_median(vals, k) : NAN;
		}
	free(vals);
	return 0;
}

double links_class_median(const struct links_view *v, enum detect_metric m, enum detect_locality l,
                          int *links)
{
	size_t cap = (size_t)v->nranks * (size_t)v->nranks, k = 0;
	double *vals = malloc((cap ? cap : 1) * sizeof *vals);
	*links = 0;
	if (!vals)
		return NAN;
	for (int a = 0; a < v->nranks; a++)
		for (int b = 0; b < v->nranks; b++) {
			const struct link_record *r = record(v, a, b);
			double x = m == DETECT_BANDWIDTH ? link_bandwidth_gbps(r, v->window_bytes)
			                                 : link_latency_us(r);
			if (a != b && links_locality(v, a, b) == l && isfinite(x))
				vals[k++] = x;
		}
	double med = k ? stats_median(vals, k) : NAN;
	*links = (int)k;
	free(vals);
	return med;
}

/* latency_us: the time statistics as they are. */
static bool add_latency(cJSON *o, const struct stats_summary *s)
{
	cJSON *l = cJSON_AddObjectToObject(o, "latency_us");
	return l && report_add_number(l, "min", s->min_us) &&
	       report_add_number(l, "mean", s->mean_us) &&
	       report_add_number(l, "stddev", s->stddev_us) &&
	       report_add_number(l, "p50", s->p50_us) && report_add_number(l, "p90", s->p90_us) &&
	       report_add_number(l, "p99", s->p99_us) && report_add_number(l, "max", s->max_us) &&
	       cJSON_AddNumberToObject(l, "iterations", (double)s->n);
}

/*
 * name: bandwidth statistics from the window times s, bytes per window;
 * iterations is the number of timed windows, msgs the messages in each.
 */
static bool add_bandwidth(cJSON *o, const char *name, const struct stats_summary *s, double bytes,
                          int msgs, bool by_time)
{
	cJSON *b = cJSON_AddObjectToObject(o, name);
	return b && report_add_number(b, "min", gbps(bytes, s->max_us)) &&
	       report_add_number(b, "p10", gbps(bytes, s->p90_us)) &&
	       report_add_number(b, "p50", gbps(bytes, s->p50_us)) &&
	       report_add_number(b, "mean", gbps(bytes, s->mean_us)) &&
	       report_add_number(b, "max", gbps(bytes, s->min_us)) &&
	       cJSON_AddNumberToObject(b, "iterations", (double)s->n) &&
	       cJSON_AddNumberToObject(b, "window_messages", msgs) &&
	       cJSON_AddBoolToObject(b, "stopped_by_time", by_time);
}

int link_keep_samples(const double *x, size_t n, double *kept)
{
	size_t k = n < LINK_KEPT_SAMPLES ? n : LINK_KEPT_SAMPLES;
	for (size_t i = 0; i < k; i++)
		kept[i] = x[i * n / k];
	return (int)k;
}

static bool add_samples(cJSON *o, const char *name, const double *x, int n)
{
	cJSON *a = cJSON_AddArrayToObject(o, name);
	for (int i = 0; a && i < n; i++)
		if (!cJSON_AddItemToArray(a, cJSON_CreateNumber(x[i])))
			return false;
	return a != NULL;
}

double link_cpu_wait(const struct links_view *v, int a, int b)
{
	double x = record(v, a, b)->cpu_wait_share, y = record(v, b, a)->cpu_wait_share;
	if (isnan(x))
		return y;
	return isnan(y) || x >= y ? x : y;
}

static bool add_record(cJSON *results, const struct links_view *v, const struct link_record *r)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_AddItemToArray(results, o)) {
		cJSON_Delete(o);
		return false;
	}
	return cJSON_AddNumberToObject(o, "a", r->a) && cJSON_AddNumberToObject(o, "b", r->b) &&
	       cJSON_AddStringToObject(o, "host_a", v->host_names[v->host_of_rank[r->a]]) &&
	       cJSON_AddStringToObject(o, "host_b", v->host_names[v->host_of_rank[r->b]]) &&
	       cJSON_AddStringToObject(o, "locality",
	                               detect_locality_name(links_locality(v, r->a, r->b))) &&
	       add_latency(o, &r->latency_us) &&
	       add_bandwidth(o, "bandwidth_gbps", &r->window_us, v->window_bytes, r->window_msgs,
	                     r->stopped_by_time) &&
	       add_bandwidth(o, "bidirectional_gbps", &r->bidir_window_us, 2 * v->window_bytes,
	                     r->bidir_msgs, r->bidir_stopped_by_time) &&
	       report_add_number(o, "cpu_wait_fraction", link_cpu_wait(v, r->a, r->b)) &&
	       add_samples(o, "samples_us", r->latency_samples_us, r->nlatency_samples) &&
	       add_samples(o, "window_samples_us", r->window_samples_us, r->nwindow_samples) &&
	       cJSON_AddBoolToObject(o, "remeasured", r->remeasured);
}

cJSON *links_report_add_results(cJSON *root, const struct links_view *v)
{
	cJSON *results = cJSON_AddArrayToObject(root, "results");
	for (int a = 0; results && a < v->nranks; a++)
		for (int b = 0; b < v->nranks; b++) {
			const struct link_record *r = record(v, a, b);
			if (a != b && r->measured && !add_record(results, v, r))
				return NULL;
		}
	return results;
}

cJSON *links_report_add_suspect(cJSON *array, const struct links_view *v,
                                const struct detect_suspect *s)
{
	char who[300], reason[512];
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_AddItemToArray(array, o)) {
		cJSON_Delete(o);
		return NULL;
	}
	if (s->kind == DETECT_HOST)
		snprintf(who, sizeof who, "%s", v->host_names[s->host]);
	else
		snprintf(who, sizeof who, "%d->%d", s->a, s->b);
	detect_describe(s, v->host_names, reason, sizeof reason);
	bool ok =
	    cJSON_AddStringToObject(o, "kind", detect_kind_name(s->kind)) &&
	    cJSON_AddStringToObject(o, "who", who) &&
	    cJSON_AddStringToObject(o, "metric", detect_metric_name(s->metric)) &&
	    cJSON_AddStringToObject(o, "locality", detect_locality_name(s->locality)) &&
	    cJSON_AddStringToObject(o, "unit", s->metric == DETECT_BANDWIDTH ? "GB/s" : "us") &&
	    report_add_number(o, "measured", s->measured) &&
	    report_add_number(o, "expected", s->expected) &&
	    report_add_number(o, "ratio", s->ratio) && report_add_number(o, "score", s->score) &&
	    cJSON_AddStringToObject(o, "reason", reason);
	if (ok && s->kind == DETECT_LINK)
		ok = cJSON_AddNumberToObject(o, "a", s->a) &&
		     cJSON_AddNumberToObject(o, "b", s->b) &&
		     cJSON_AddStringToObject(o, "host_a", v->host_names[s->host_a]) &&
		     cJSON_AddStringToObject(o, "host_b", v->host_names[s->host_b]);
	if (ok && s->kind == DETECT_HOST)
		ok = cJSON_AddNumberToObject(o, "links_suspect", s->links_suspect) &&
		     cJSON_AddNumberToObject(o, "links_total", s->links_total);
	return ok ? o : NULL;
}

static bool add_classes(cJSON *summary, const struct detect_result *r)
{
	cJSON *classes = cJSON_AddArrayToObject(summary, "classes");
	for (int m = 0; classes && m < DETECT_METRICS; m++)
		for (int l = 0; l < DETECT_LOCALITIES; l++) {
			const struct detect_class *k = &r->classes[m][l];
			if (k->links == 0)
				continue;
			cJSON *o = cJSON_CreateObject();
			if (!o || !cJSON_AddItemToArray(classes, o)) {
				cJSON_Delete(o);
				return false;
			}
			if (!cJSON_AddStringToObject(o, "metric",
			                             detect_metric_name((enum detect_metric)m)) ||
			    !cJSON_AddStringToObject(
			        o, "locality", detect_locality_name((enum detect_locality)l)) ||
			    !cJSON_AddNumberToObject(o, "links", k->links) ||
			    !report_add_number(o, "median", k->median) ||
			    !report_add_number(o, "mad", k->mad) ||
			    !cJSON_AddBoolToObject(o, "judged", k->judged) ||
			    !cJSON_AddNumberToObject(o, "hosts", k->hosts) ||
			    !cJSON_AddBoolToObject(o, "hosts_judged", k->hosts_judged))
				return false;
		}
	return classes != NULL;
}

/* Median and the worst value of one host's links of one class, per metric. */
struct host_class_agg {
	int links;
	double bw_median_gbps, bw_min_gbps, lat_median_us, lat_max_us;
};

static void host_class(const struct links_view *v, int h, enum detect_locality loc, double *vals,
                       struct host_class_agg *g)
{
	g->links = 0;
	for (int m = 0; m < DETECT_METRICS; m++) {
		size_t k = 0;
		for (int a = 0; a < v->nranks; a++)
			for (int b = 0; b < v->nranks; b++) {
				const struct link_record *r = record(v, a, b);
				if (a == b || !r->measured || links_locality(v, a, b) != loc ||
				    (v->host_of_rank[a] != h && v->host_of_rank[b] != h))
					continue;
				double x = m == DETECT_BANDWIDTH
				               ? link_bandwidth_gbps(r, v->window_bytes)
				               : link_latency_us(r);
				if (isfinite(x))
					vals[k++] = x;
			}
		qsort(vals, k, sizeof *vals, cmp_double);
		double med = k ? stats_percentile(vals, k, 0.5) : NAN;
		if (m == DETECT_BANDWIDTH) {
			g->bw_median_gbps = med;
			g->bw_min_gbps = k ? vals[0] : NAN;
		} else {
			g->lat_median_us = med;
			g->lat_max_us = k ? vals[k - 1] : NAN;
		}
		if ((int)k > g->links)
			g->links = (int)k;
	}
}

static bool add_host(cJSON *hosts, const struct links_view *v, int h, double *vals)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_AddItemToArray(hosts, o)) {
		cJSON_Delete(o);
		return false;
	}
	cJSON *classes = cJSON_AddObjectToObject(o, "classes");
	if (!classes || !cJSON_AddStringToObject(o, "name", v->host_names[h]) ||
	    !cJSON_AddBoolToObject(o, "judged", !v->host_judged || v->host_judged[h]))
		return false;
	for (int l = 0; l < DETECT_LOCALITIES; l++) {
		struct host_class_agg g = {0};
		host_class(v, h, (enum detect_locality)l, vals, &g);
		if (g.links == 0)
			continue;
		cJSON *c =
		    cJSON_AddObjectToObject(classes, detect_locality_name((enum detect_locality)l));
		cJSON *bw = c ? cJSON_AddObjectToObject(c, "bandwidth_gbps") : NULL;
		cJSON *lat = c ? cJSON_AddObjectToObject(c, "latency_us") : NULL;
		if (!bw || !lat || !cJSON_AddNumberToObject(c, "links", g.links) ||
		    !report_add_number(bw, "median", g.bw_median_gbps) ||
		    !report_add_number(bw, "min", g.bw_min_gbps) ||
		    !report_add_number(lat, "median", g.lat_median_us) ||
		    !report_add_number(lat, "max", g.lat_max_us))
			return false;
	}
	return true;
}

static bool add_hosts(cJSON *summary, const struct links_view *v)
{
	size_t cap = (size_t)v->nranks * (size_t)v->nranks;
	double *vals = malloc((cap ? cap : 1) * sizeof *vals);
	cJSON *hosts = cJSON_AddArrayToObject(summary, "hosts");
	bool ok = vals && hosts;
	for (int h = 0; ok && h < v->nhosts; h++)
		ok = add_host(hosts, v, h, vals);
	free(vals);
	return ok;
}

/* suspects: the confirmed ones of final; cleared: those of first that final does not confirm. */
static bool add_suspects(cJSON *summary, const struct links_view *v,
                         const struct detect_result *first, const struct detect_result *final)
{
	cJSON *suspects = cJSON_AddArrayToObject(summary, "suspects");
	cJSON *cleared = cJSON_AddArrayToObject(summary, "cleared");
	if (!suspects || !cleared)
		return false;
	for (int i = 0; i < final->nsuspects; i++)
		if (final->suspects[i].confirmed &&
		    !links_report_add_suspect(suspects, v, &final->suspects[i]))
			return false;
	for (int i = 0; first && i < first->nsuspects; i++) {
		const struct detect_suspect *f = &first->suspects[i];
		bool kept = false;
		for (int j = 0; j < final->nsuspects && !kept; j++) {
			const struct detect_suspect *s = &final->suspects[j];
			kept = s->confirmed && s->kind == f->kind && s->metric == f->metric &&
			       s->locality == f->locality && s->host == f->host && s->a == f->a &&
			       s->b == f->b;
		}
		if (!kept && !links_report_add_suspect(cleared, v, f))
			return false;
	}
	return true;
}

static bool add_not_judged(cJSON *summary, const struct links_view *v)
{
	cJSON *notes = cJSON_AddArrayToObject(summary, "not_judged");
	for (int h = 0; notes && v->host_judged && h < v->nhosts; h++)
		if (!v->host_judged[h] &&
		    !cJSON_AddItemToArray(notes, cJSON_CreateString(v->host_names[h])))
			return false;
	return notes != NULL;
}

cJSON *links_report_add_summary(cJSON *root, const struct links_view *v,
                                const struct detect_result *first,
                                const struct detect_result *final, int remeasured_pairs)
{
	int confirmed = 0, links = 0;
	for (int i = 0; i < final->nsuspects; i++)
		confirmed += final->suspects[i].confirmed;
	for (size_t i = 0; i < (size_t)v->nranks * (size_t)v->nranks; i++)
		links += v->records[i].measured;
	int pairs = links / 2; /* both directions of every pair are measured */
	cJSON *summary = cJSON_AddObjectToObject(root, "summary");
	if (!summary || !cJSON_AddNumberToObject(summary, "ranks", v->nranks) ||
	    !cJSON_AddNumberToObject(summary, "hosts_count", v->nhosts) ||
	    !cJSON_AddNumberToObject(summary, "links", links) ||
	    !cJSON_AddNumberToObject(summary, "pairs", pairs) ||
	    !cJSON_AddNumberToObject(summary, "remeasured_pairs", remeasured_pairs) ||
	    !cJSON_AddNumberToObject(summary, "suspects_count", confirmed) ||
	    !add_classes(summary, final) || !add_hosts(summary, v) ||
	    !add_suspects(summary, v, first, final) || !add_not_judged(summary, v))
		return NULL;
	return summary;
}
