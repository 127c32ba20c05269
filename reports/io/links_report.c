/*
 * The links report: see links_report.h. Bandwidth statistics are derived
 * from window times: the fastest window gives the maximum bandwidth, the
 * p90 time the p10 bandwidth (the slow tail), and the mean is the total
 * bytes over the total time of all windows.
 */
#include "reports/io/links_report.h"

#include "reports/io/links_compact.h"
#include "reports/io/links_hosts.h"

#include "reports/io/report_io.h"
#include "reports/io/report_schema.h"
#include "reports/stats/stats.h"

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

const char *const suspect_pattern_names[SUSPECT_PATTERNS + 1] = {"pairs", "shift", NULL};
const char *const suspect_cleared_by_names[CLEARED_BY_COUNT + 1] = {
    "retest", "scheduler", "traffic", "alone", "segment", NULL};

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

double link_bidir_gbps(const struct link_record *r, double window_bytes)
{
	return r && r->measured && r->bidir_window_us.n
	           ? gbps(2 * window_bytes, r->bidir_window_us.p50_us)
	           : NAN;
}

static const struct link_record *record(const struct links_view *v, int a, int b)
{
	return links_view_record(v, a, b);
}

size_t links_to_detect(const struct links_view *v, enum detect_metric metric,
                       struct detect_link *out)
{
	size_t k = 0, at = 0;
	int a, b;
	for (const struct link_record *r; (r = links_next_measured(v, &at, &a, &b));) {
		int ha = v->host_of_rank[a], hb = v->host_of_rank[b];
		out[k++] = (struct detect_link){
		    .a = a,
		    .b = b,
		    .host_a = ha,
		    .host_b = hb,
		    .locality = links_locality(v, a, b),
		    .value = metric == DETECT_BANDWIDTH ? link_bandwidth_gbps(r, v->window_bytes)
		                                        : link_latency_us(r),
		    .judged = (!v->host_judged || (v->host_judged[ha] && v->host_judged[hb])) &&
		              (metric == DETECT_LATENCY ? link_latency_judged(v, a, b)
		                                        : link_bandwidth_judged(v, a, b)),
		};
	}
	return k;
}

double shift_bandwidth_gbps(const struct links_view *v, int a, int b, bool send)
{
	if (!v->shift || a == b)
		return NAN;
	const struct shift_cell *c = &v->shift[send ? (size_t)a * (size_t)v->nranks + (size_t)b
	                                            : (size_t)b * (size_t)v->nranks + (size_t)a];
	return gbps(v->window_bytes, send ? c->send_us : c->recv_us);
}

int links_sensitivity(const struct links_judgement *j, struct links_sensitivity *out)
{
	int k = 0;
	if (!j->params || !j->final)
		return 0;
	for (int m = 0; m < DETECT_METRICS; m++)
		for (int l = 0; l < DETECT_LOCALITIES; l++) {
			const struct detect_class *c = &j->final->classes[m][l];
			bool by_classifier = m == DETECT_BANDWIDTH && l == DETECT_CROSS_HOST &&
			                     j->pairs_info && j->pairs_info->judged;
			if (by_classifier)
				c = &j->pairs_info->as_class;
			double f = detect_sensitivity(c, (enum detect_metric)m, j->params);
			if (isnan(f))
				continue;
			out[k++] = (struct links_sensitivity){SUSPECT_PAIRS,
			                                      (enum detect_metric)m,
			                                      (enum detect_locality)l,
			                                      c->links,
			                                      c->median,
			                                      f};
		}
	if (j->shift_info && j->shift_info->judged) {
		const struct detect_class *c = &j->shift_info->as_class;
		double f = detect_sensitivity(c, DETECT_BANDWIDTH, j->params);
		if (!isnan(f))
			out[k++] = (struct links_sensitivity){SUSPECT_SHIFT,     DETECT_BANDWIDTH,
			                                      DETECT_CROSS_HOST, c->links,
			                                      c->median,         f};
	}
	return k;
}

double links_class_median(const struct links_view *v, enum detect_metric m, enum detect_locality l,
                          int *links)
{
	size_t cap = links_count_measured(v), k = 0, at = 0;
	double *vals = malloc((cap ? cap : 1) * sizeof *vals);
	int a, b;
	*links = 0;
	if (!vals)
		return NAN;
	for (const struct link_record *r; (r = links_next_measured(v, &at, &a, &b));) {
		double x = m == DETECT_BANDWIDTH ? link_bandwidth_gbps(r, v->window_bytes)
		                                 : link_latency_us(r);
		if (links_locality(v, a, b) == l && isfinite(x))
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
	cJSON *l = cJSON_AddObjectToObject(o, SK_LINK_LATENCY_US);
	return l && report_add_number(l, SK_LAT_MIN, s->min_us) &&
	       report_add_number(l, SK_LAT_MEAN, s->mean_us) &&
	       report_add_number(l, SK_LAT_STDDEV, s->stddev_us) &&
	       report_add_number(l, SK_LAT_P50, s->p50_us) &&
	       report_add_number(l, SK_LAT_P90, s->p90_us) &&
	       report_add_number(l, SK_LAT_P99, s->p99_us) &&
	       report_add_number(l, SK_LAT_MAX, s->max_us) &&
	       cJSON_AddNumberToObject(l, SK_LAT_ITERATIONS, (double)s->n);
}

/*
 * name: bandwidth statistics from the window times s, bytes per window;
 * iterations is the number of timed windows, msgs the messages in each.
 */
static bool add_bandwidth(cJSON *o, const char *name, const struct stats_summary *s, double bytes,
                          int msgs, bool by_time)
{
	cJSON *b = cJSON_AddObjectToObject(o, name);
	return b && report_add_number(b, SK_BW_MIN, gbps(bytes, s->max_us)) &&
	       report_add_number(b, SK_BW_P10, gbps(bytes, s->p90_us)) &&
	       report_add_number(b, SK_BW_P50, gbps(bytes, s->p50_us)) &&
	       report_add_number(b, SK_BW_MEAN, gbps(bytes, s->mean_us)) &&
	       report_add_number(b, SK_BW_MAX, gbps(bytes, s->min_us)) &&
	       cJSON_AddNumberToObject(b, SK_BW_ITERATIONS, (double)s->n) &&
	       cJSON_AddNumberToObject(b, SK_BW_WINDOW_MESSAGES, msgs) &&
	       cJSON_AddBoolToObject(b, SK_BW_STOPPED_BY_TIME, by_time);
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

/* Both ends' figures of a pair: fmax, which takes the one known when the other is NAN. */
double link_other_way(const struct links_view *v, int a, int b)
{
	return record(v, a, b)->remeasured ? link_other_way_any(v, a, b) : NAN;
}

double link_other_way_any(const struct links_view *v, int a, int b)
{
	return fmax(record(v, a, b)->nic_other_sent_gbps, record(v, b, a)->nic_other_received_gbps);
}

double link_cpu_wait(const struct links_view *v, int a, int b)
{
	return fmax(record(v, a, b)->cpu_wait_share, record(v, b, a)->cpu_wait_share);
}

double link_cpu_wait_latency(const struct links_view *v, int a, int b)
{
	return fmax(record(v, a, b)->cpu_wait_share_lat, record(v, b, a)->cpu_wait_share_lat);
}

bool link_latency_judged(const struct links_view *v, int a, int b)
{
	return v->judge_waiting || !(link_cpu_wait_latency(v, a, b) >= LINK_LATENCY_WAIT_UNJUDGED);
}

bool link_bandwidth_judged(const struct links_view *v, int a, int b)
{
	return v->judge_waiting || v->host_of_rank[a] != v->host_of_rank[b] ||
	       !(link_cpu_wait(v, a, b) >= LINK_LATENCY_WAIT_UNJUDGED);
}

static size_t unjudged(const struct links_view *v,
                       bool (*judged)(const struct links_view *, int, int))
{
	size_t k = 0, at = 0;
	int a, b;
	while (links_next_measured(v, &at, &a, &b))
		k += a < b && !judged(v, a, b);
	return k;
}

size_t links_latency_unjudged(const struct links_view *v)
{
	return unjudged(v, link_latency_judged);
}

size_t links_bandwidth_unjudged(const struct links_view *v)
{
	return unjudged(v, link_bandwidth_judged);
}

/*
 * The median of one of the two waits over the measured pairs (a sample of
 * them past LINKS_WAIT_SAMPLE records), each pair once: from a -> b with
 * a < b, or from b -> a when a -> b was not measured.
 */
static double typical_wait(const struct links_view *v,
                           double (*wait)(const struct links_view *, int, int))
{
	size_t records = links_count_measured(v), k = 0, i = 0, at = 0;
	size_t step = records > LINKS_WAIT_SAMPLE ? records / LINKS_WAIT_SAMPLE + 1 : 1;
	double *w = malloc((records / step + 1) * sizeof *w), typical;
	int a, b;
	if (!w)
		return NAN;
	for (const struct link_record *r; (r = links_next_measured(v, &at, &a, &b)); i++) {
		if (i % step || (a > b && links_view_record(v, b, a)->measured))
			continue;
		double x = r ? wait(v, a < b ? a : b, a < b ? b : a) : NAN;
		if (!isnan(x))
			w[k++] = x;
	}
	typical = k ? stats_median(w, k) : NAN;
	free(w);
	return typical;
}

double links_typical_cpu_wait_latency(const struct links_view *v)
{
	return typical_wait(v, link_cpu_wait_latency);
}

double links_typical_cpu_wait(const struct links_view *v)
{
	return typical_wait(v, link_cpu_wait);
}

/* Is a -> b across hosts one of suspect s's, in a direction it is slow in? */
static bool slow_way_of(const struct links_view *v, const struct detect_suspect *s, int a, int b)
{
	int ha = v->host_of_rank[a], hb = v->host_of_rank[b];
	bool out = s->direction != DETECT_DIR_BA, in = s->direction != DETECT_DIR_AB;
	if (ha == hb)
		return false;
	if (s->kind == DETECT_HOST) /* AB: it sends slowly, BA: it receives slowly */
		return (out && ha == s->host) || (in && hb == s->host);
	if (s->kind == DETECT_LINK && s->between_hosts)
		return (out && ha == s->host_a && hb == s->host_b) ||
		       (in && ha == s->host_b && hb == s->host_a);
	if (s->kind == DETECT_LINK)
		return (out && a == s->a && b == s->b) || (in && a == s->b && b == s->a);
	return false;
}

double links_other_traffic(const struct links_view *v, const struct detect_suspect *s,
                           double *most)
{
	size_t k = 0, cap = 0, at = 0;
	double *x = NULL, typical = NAN;
	*most = NAN;
	int a, b;
	while (links_next_measured(v, &at, &a, &b)) {
		if (!slow_way_of(v, s, a, b))
			continue;
		double o = link_other_way(v, a, b);
		if (isnan(o))
			continue;
		if (k == cap) {
			double *y = realloc(x, (cap = cap ? 2 * cap : 16) * sizeof *x);
			if (!y)
				goto out;
			x = y;
		}
		x[k++] = o;
		*most = fmax(*most, o);
	}
	typical = k ? stats_median(x, k) : NAN;
out:
	free(x);
	return typical;
}

static bool add_record(cJSON *results, const struct links_view *v, const struct link_record *r)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_AddItemToArray(results, o)) {
		cJSON_Delete(o);
		return false;
	}
	return cJSON_AddNumberToObject(o, SK_LINK_A, r->a) &&
	       cJSON_AddNumberToObject(o, SK_LINK_B, r->b) &&
	       cJSON_AddStringToObject(o, SK_LINK_HOST_A, v->host_names[v->host_of_rank[r->a]]) &&
	       cJSON_AddStringToObject(o, SK_LINK_HOST_B, v->host_names[v->host_of_rank[r->b]]) &&
	       cJSON_AddStringToObject(o, SK_LINK_LOCALITY,
	                               detect_locality_name(links_locality(v, r->a, r->b))) &&
	       add_latency(o, &r->latency_us) &&
	       add_bandwidth(o, SK_LINK_BANDWIDTH_GBPS, &r->window_us, v->window_bytes,
	                     r->window_msgs, r->stopped_by_time) &&
	       add_bandwidth(o, SK_LINK_BIDIRECTIONAL_GBPS, &r->bidir_window_us,
	                     2 * v->window_bytes, r->bidir_msgs, r->bidir_stopped_by_time) &&
	       report_add_number(o, SK_LINK_CPU_WAIT_FRACTION, link_cpu_wait(v, r->a, r->b)) &&
	       add_samples(o, SK_LINK_SAMPLES_US, r->latency_samples_us, r->nlatency_samples) &&
	       add_samples(o, SK_LINK_WINDOW_SAMPLES_US, r->window_samples_us,
	                   r->nwindow_samples) &&
	       cJSON_AddBoolToObject(o, SK_LINK_REMEASURED, r->remeasured);
}

cJSON *links_report_add_results_v1(cJSON *root, const struct links_view *v)
{
	cJSON *results = cJSON_AddArrayToObject(root, SK_REPORT_RESULTS);
	size_t at = 0;
	int a, b;
	for (const struct link_record *r; results && (r = links_next_measured(v, &at, &a, &b));)
		if (!add_record(results, v, r))
			return NULL;
	return results;
}

cJSON *links_report_add_results(cJSON *root, const struct links_view *v)
{
	return links_report_add_pairs(root, v);
}

/* name: a rank x rank matrix of get(v, a, b), null on the diagonal and where NAN. */
static bool add_matrix(cJSON *o, const char *name, const struct links_view *v,
                       double (*get)(const struct links_view *, int, int))
{
	cJSON *rows = cJSON_AddArrayToObject(o, name);
	for (int a = 0; rows && a < v->nranks; a++) {
		cJSON *row = cJSON_CreateArray();
		if (!row || !cJSON_AddItemToArray(rows, row)) {
			cJSON_Delete(row);
			return false;
		}
		for (int b = 0; b < v->nranks; b++) {
			double x = a == b ? NAN : get(v, a, b);
			if (!cJSON_AddItemToArray(row, isfinite(x) ? cJSON_CreateNumber(x)
			                                           : cJSON_CreateNull()))
				return false;
		}
	}
	return rows != NULL;
}

static double shift_send(const struct links_view *v, int a, int b)
{
	return shift_bandwidth_gbps(v, a, b, true);
}

static double shift_recv(const struct links_view *v, int a, int b)
{
	return shift_bandwidth_gbps(v, a, b, false);
}

static double shift_windows(const struct links_view *v, int a, int b)
{
	const struct shift_cell *c = &v->shift[(size_t)a * (size_t)v->nranks + (size_t)b];
	return isfinite(c->send_us) ? c->send_windows : NAN;
}

static double shift_msgs(const struct links_view *v, int a, int b)
{
	const struct shift_cell *c = &v->shift[(size_t)a * (size_t)v->nranks + (size_t)b];
	return isfinite(c->send_us) ? c->msgs : NAN;
}

cJSON *links_report_add_shift(cJSON *root, const struct links_view *v)
{
	if (!v->shift)
		return root;
	cJSON *o = cJSON_AddObjectToObject(root, SK_REPORT_SHIFT);
	bool stopped = false;
	for (size_t i = 0; i < (size_t)v->nranks * (size_t)v->nranks; i++)
		stopped = stopped || v->shift[i].stopped_by_time;
	bool ok = o &&
	          cJSON_AddNumberToObject(o, SK_SHIFT_STEPS, v->nranks > 1 ? v->nranks - 1 : 0) &&
	          cJSON_AddNumberToObject(o, SK_SHIFT_WINDOW_BYTES, v->window_bytes) &&
	          cJSON_AddBoolToObject(o, SK_SHIFT_STOPPED_BY_TIME, stopped) &&
	          add_matrix(o, SK_SHIFT_SEND_GBPS, v, shift_send) &&
	          add_matrix(o, SK_SHIFT_RECEIVE_GBPS, v, shift_recv) &&
	          add_matrix(o, SK_SHIFT_WINDOWS, v, shift_windows) &&
	          add_matrix(o, SK_SHIFT_WINDOW_MESSAGES, v, shift_msgs);
	return ok ? o : NULL;
}

/* name: the ranks of the hosts whose side is `side` (hosts, when sides is NULL, just h). */
static bool add_ranks(cJSON *o, const char *name, const struct links_view *v,
                      const signed char *sides, int side, int h)
{
	cJSON *a = cJSON_AddArrayToObject(o, name);
	for (int k = 0; a && k < v->nranks; k++) {
		int hk = v->host_of_rank[k];
		bool in = sides ? sides[hk] == side : hk == h;
		if (in && !cJSON_AddItemToArray(a, cJSON_CreateNumber(k)))
			return false;
	}
	return a != NULL;
}

static bool add_hosts_named(cJSON *o, const char *name, const struct links_view *v,
                            const signed char *sides, int side)
{
	cJSON *a = cJSON_AddArrayToObject(o, name);
	for (int h = 0; a && h < v->nhosts; h++)
		if (sides[h] == side &&
		    !cJSON_AddItemToArray(a, cJSON_CreateString(v->host_names[h])))
			return false;
	return a != NULL;
}

/* retest: the first pass's figures against the re-test's, and the verdict. */
static bool add_retest(cJSON *o, const struct detect_suspect *s)
{
	cJSON *t = cJSON_AddObjectToObject(o, SK_SUSP_RETEST);
	return t && report_add_number(t, SK_RETEST_FIRST_MEASURED, s->first_measured) &&
	       report_add_number(t, SK_RETEST_FIRST_RATIO, s->first_ratio) &&
	       report_add_number(t, SK_RETEST_FIRST_SCORE, s->first_score) &&
	       report_add_number(t, SK_RETEST_MEASURED, s->measured) &&
	       report_add_number(t, SK_RETEST_RATIO, s->ratio) &&
	       report_add_number(t, SK_RETEST_SCORE, s->score) &&
	       cJSON_AddBoolToObject(t, SK_RETEST_CONFIRMED, s->confirmed);
}

/* Who a suspect names: hosts and ranks, per kind. */
static bool add_who(cJSON *o, const struct links_view *v, const struct detect_result *r,
                    const struct detect_suspect *s)
{
	const signed char *sides = detect_sides(r, s);
	if (s->kind == DETECT_HOST && s->rail) { /* one NIC of the host: its rank */
		cJSON *a = NULL;
		return cJSON_AddStringToObject(o, SK_SUSP_HOST, v->host_names[s->host]) &&
		       (a = cJSON_AddArrayToObject(o, SK_SUSP_RANKS)) &&
		       cJSON_AddItemToArray(a, cJSON_CreateNumber(s->rail_rank)) &&
		       cJSON_AddNumberToObject(o, SK_SUSP_RAIL_RANK, s->rail_rank);
	}
	if (s->kind == DETECT_HOST)
		return cJSON_AddStringToObject(o, SK_SUSP_HOST, v->host_names[s->host]) &&
		       add_ranks(o, SK_SUSP_RANKS, v, NULL, 0, s->host);
	if (s->kind == DETECT_SEGMENT)
		return sides && add_hosts_named(o, SK_SUSP_HOSTS_A, v, sides, 0) &&
		       add_hosts_named(o, SK_SUSP_HOSTS_B, v, sides, 1) &&
		       add_ranks(o, SK_SUSP_RANKS_A, v, sides, 0, -1) &&
		       add_ranks(o, SK_SUSP_RANKS_B, v, sides, 1, -1);
	bool ok = cJSON_AddStringToObject(o, SK_SUSP_HOST_A, v->host_names[s->host_a]) &&
	          cJSON_AddStringToObject(o, SK_SUSP_HOST_B, v->host_names[s->host_b]);
	if (s->between_hosts)
		return ok && add_ranks(o, SK_SUSP_RANKS_A, v, NULL, 0, s->host_a) &&
		       add_ranks(o, SK_SUSP_RANKS_B, v, NULL, 0, s->host_b);
	return ok && cJSON_AddNumberToObject(o, SK_SUSP_A, s->a) &&
	       cJSON_AddNumberToObject(o, SK_SUSP_B, s->b);
}

/* The hosts of one side, comma-separated, appended to buf at *used. */
static void side_names(const struct links_view *v, const signed char *sides, int side, char *buf,
                       size_t len, size_t *used)
{
	bool first = true;
	for (int h = 0; h < v->nhosts && *used < len; h++) {
		if (sides[h] != side)
			continue;
		int k =
		    snprintf(buf + *used, len - *used, "%s%s", first ? "" : ",", v->host_names[h]);
		*used += k > 0 ? (size_t)k : 0;
		first = false;
	}
}

/* "who" in the JSON: h4; 2->5; h2->h4 (hosts); h1,h2<->h3,h4 (a segment). */
static void who_of(const struct links_view *v, const struct detect_result *r,
                   const struct detect_suspect *s, char *buf, size_t len)
{
	const signed char *sides = detect_sides(r, s);
	const char *arrow = s->direction == DETECT_DIR_BOTH ? "<->" : "->";
	bool back = s->direction == DETECT_DIR_BA;
	size_t used = 0;
	buf[0] = '\0';
	if (s->kind == DETECT_HOST && s->rail) {
		snprintf(buf, len, "%s rank %d", v->host_names[s->host], s->rail_rank);
	} else if (s->kind == DETECT_HOST) {
		snprintf(buf, len, "%s", v->host_names[s->host]);
	} else if (s->kind == DETECT_SEGMENT && sides) {
		side_names(v, sides, back ? 1 : 0, buf, len, &used);
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s", arrow);
		side_names(v, sides, back ? 0 : 1, buf, len, &used);
	} else if (s->between_hosts) {
		snprintf(buf, len, "%s%s%s", v->host_names[back ? s->host_b : s->host_a], arrow,
		         v->host_names[back ? s->host_a : s->host_b]);
	} else {
		snprintf(buf, len, "%d%s%d", s->a, arrow, s->b);
	}
}

cJSON *links_report_add_suspect(cJSON *array, const struct links_view *v,
                                const struct detect_result *r, const struct detect_suspect *s)
{
	char who[600], reason[512], line[1024];
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_AddItemToArray(array, o)) {
		cJSON_Delete(o);
		return NULL;
	}
	who_of(v, r, s, who, sizeof who);
	detect_describe(s, v->host_names, reason, sizeof reason);
	classify_describe(r, s, v->host_names, line, sizeof line);
	bool ok = cJSON_AddStringToObject(o, SK_SUSP_KIND, detect_kind_name(s->kind)) &&
	          cJSON_AddStringToObject(o, SK_SUSP_DIRECTION,
	                                  detect_direction_name(s->kind, s->direction)) &&
	          cJSON_AddStringToObject(o, SK_SUSP_WHO, who) && add_who(o, v, r, s) &&
	          cJSON_AddStringToObject(o, SK_SUSP_METRIC, detect_metric_name(s->metric)) &&
	          cJSON_AddStringToObject(o, SK_SUSP_LOCALITY, detect_locality_name(s->locality)) &&
	          cJSON_AddStringToObject(
	              o, SK_SUSP_PATTERN,
	              suspect_pattern_names[s->loaded ? SUSPECT_SHIFT : SUSPECT_PAIRS]) &&
	          cJSON_AddStringToObject(o, SK_SUSP_UNIT,
	                                  s->metric == DETECT_BANDWIDTH ? "GB/s" : "us") &&
	          report_add_number(o, SK_SUSP_MEASURED, s->measured) &&
	          report_add_number(o, SK_SUSP_EXPECTED, s->expected) &&
	          report_add_number(o, SK_SUSP_RATIO, s->ratio) &&
	          report_add_number(o, SK_SUSP_SCORE, s->score) &&
	          report_add_number(o, SK_SUSP_CPU_WAIT_FRACTION, s->cpu_wait_fraction) &&
	          report_add_number(o, SK_SUSP_OTHER_TRAFFIC_GBPS, s->other_traffic_gbps) &&
	          cJSON_AddNumberToObject(o, SK_SUSP_LINKS_SUSPECT, s->links_suspect) &&
	          cJSON_AddNumberToObject(o, SK_SUSP_LINKS_TOTAL, s->links_total) &&
	          add_retest(o, s) && cJSON_AddStringToObject(o, SK_SUSP_LINE, line) &&
	          cJSON_AddStringToObject(o, SK_SUSP_REASON, reason);
	return ok ? o : NULL;
}

static bool add_classes(cJSON *summary, const struct detect_result *r)
{
	cJSON *classes = cJSON_AddArrayToObject(summary, SK_LSUM_CLASSES);
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
			if (!cJSON_AddStringToObject(o, SK_LCLASS_METRIC,
			                             detect_metric_name((enum detect_metric)m)) ||
			    !cJSON_AddStringToObject(
			        o, SK_LCLASS_LOCALITY,
			        detect_locality_name((enum detect_locality)l)) ||
			    !cJSON_AddNumberToObject(o, SK_LCLASS_LINKS, k->links) ||
			    !report_add_number(o, SK_LCLASS_MEDIAN, k->median) ||
			    !report_add_number(o, SK_LCLASS_MAD, k->mad) ||
			    !cJSON_AddBoolToObject(o, SK_LCLASS_JUDGED, k->judged) ||
			    !cJSON_AddNumberToObject(o, SK_LCLASS_HOSTS, k->hosts) ||
			    !cJSON_AddBoolToObject(o, SK_LCLASS_HOSTS_JUDGED, k->hosts_judged))
				return false;
		}
	return classes != NULL;
}

static bool add_host(cJSON *hosts, const struct links_view *v, int h,
                     const struct host_class_agg *agg)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_AddItemToArray(hosts, o)) {
		cJSON_Delete(o);
		return false;
	}
	cJSON *classes = cJSON_AddObjectToObject(o, SK_LHOST_CLASSES);
	if (!classes || !cJSON_AddStringToObject(o, SK_LHOST_NAME, v->host_names[h]) ||
	    !cJSON_AddBoolToObject(o, SK_LHOST_JUDGED, !v->host_judged || v->host_judged[h]))
		return false;
	for (int l = 0; l < DETECT_LOCALITIES; l++) {
		struct host_class_agg g = agg[(size_t)h * DETECT_LOCALITIES + (size_t)l];
		if (g.links == 0)
			continue;
		cJSON *c =
		    cJSON_AddObjectToObject(classes, detect_locality_name((enum detect_locality)l));
		cJSON *bw = c ? cJSON_AddObjectToObject(c, SK_HCLASS_BANDWIDTH_GBPS) : NULL;
		cJSON *lat = c ? cJSON_AddObjectToObject(c, SK_HCLASS_LATENCY_US) : NULL;
		if (!bw || !lat || !cJSON_AddNumberToObject(c, SK_HCLASS_LINKS, g.links) ||
		    !report_add_number(bw, SK_HBW_MEDIAN, g.bw_median_gbps) ||
		    !report_add_number(bw, SK_HBW_MIN, g.bw_min_gbps) ||
		    !report_add_number(lat, SK_HLAT_MEDIAN, g.lat_median_us) ||
		    !report_add_number(lat, SK_HLAT_MAX, g.lat_max_us))
			return false;
	}
	return true;
}

static bool add_hosts(cJSON *summary, const struct links_view *v)
{
	size_t n = (size_t)v->nhosts * DETECT_LOCALITIES;
	struct host_class_agg *agg = malloc((n ? n : 1) * sizeof *agg);
	cJSON *hosts = cJSON_AddArrayToObject(summary, SK_LSUM_HOSTS);
	for (size_t i = 0; agg && i < n; i++)
		agg[i] = (struct host_class_agg){0, NAN, NAN, NAN, NAN};
	bool ok = agg && hosts && links_host_classes(v, agg) == 0;
	for (int h = 0; ok && h < v->nhosts; h++)
		ok = add_host(hosts, v, h, agg);
	free(agg);
	return ok;
}

/*
 * Was s confirmed (CLEARED_BY_RETEST), or cleared by the scheduler, by traffic, as fine
 * alone, as a segment's?
 */
static bool in_state(const struct detect_suspect *s, enum suspect_cleared_by state)
{
	return state == CLEARED_BY_SCHEDULER ? s->scheduler_cleared
	       : state == CLEARED_BY_TRAFFIC ? s->traffic_cleared
	       : state == CLEARED_BY_ALONE   ? s->alone_cleared
	       : state == CLEARED_BY_SEGMENT ? s->segment_cleared
	                                     : s->confirmed;
}

/* Does final hold what f (of first) accused, in state (confirmed: CLEARED_BY_RETEST)? */
static bool kept(const struct detect_result *first, const struct detect_suspect *f,
                 const struct detect_result *final, enum suspect_cleared_by state)
{
	for (int j = 0; j < final->nsuspects; j++) {
		const struct detect_suspect *s = &final->suspects[j];
		bool wanted = in_state(s, state);
		if (!wanted || s->kind != f->kind || s->metric != f->metric ||
		    s->locality != f->locality || s->loaded != f->loaded)
			continue;
		if (s->kind == DETECT_SEGMENT) {
			if (detect_same_segment(final, s, first, f))
				return true;
			continue;
		}
		bool same_pair = (s->a == f->a && s->b == f->b) || (s->a == f->b && s->b == f->a);
		bool same_hosts = (s->host_a == f->host_a && s->host_b == f->host_b) ||
		                  (s->host_a == f->host_b && s->host_b == f->host_a);
		if (s->host == f->host && same_pair && same_hosts)
			return true;
	}
	return false;
}

/* One cleared suspect, and what cleared it (scheduler.h, or the re-test). */
static bool add_cleared(cJSON *cleared, const struct links_view *v, const struct detect_result *r,
                        const struct detect_suspect *s, enum suspect_cleared_by by)
{
	cJSON *o = links_report_add_suspect(cleared, v, r, s);
	return o && cJSON_AddStringToObject(o, SK_SUSP_CLEARED_BY, suspect_cleared_by_names[by]);
}

cJSON *links_report_add_confirmed(cJSON *parent, const struct links_view *v,
                                  const struct detect_result *final)
{
	cJSON *suspects = cJSON_AddArrayToObject(parent, SK_LSUM_SUSPECTS);
	for (int i = 0; suspects && final && i < final->nsuspects; i++)
		if (final->suspects[i].confirmed &&
		    !links_report_add_suspect(suspects, v, final, &final->suspects[i]))
			return NULL;
	return suspects;
}

/*
 * suspects: the confirmed ones of final; cleared: those the scheduler explains (their
 * re-test's figures), then those of first that final does not confirm otherwise.
 */
static bool add_suspects(cJSON *summary, const struct links_view *v,
                         const struct detect_result *first, const struct detect_result *final)
{
	cJSON *suspects = links_report_add_confirmed(summary, v, final);
	cJSON *cleared = cJSON_AddArrayToObject(summary, SK_LSUM_CLEARED);
	if (!suspects || !cleared)
		return false;
	for (int i = 0; i < final->nsuspects; i++) {
		const struct detect_suspect *s = &final->suspects[i];
		if (s->scheduler_cleared &&
		    !add_cleared(cleared, v, final, s, CLEARED_BY_SCHEDULER))
			return false;
		if (s->traffic_cleared && !add_cleared(cleared, v, final, s, CLEARED_BY_TRAFFIC))
			return false;
		if (s->alone_cleared && !add_cleared(cleared, v, final, s, CLEARED_BY_ALONE))
			return false;
		if (s->segment_cleared && !add_cleared(cleared, v, final, s, CLEARED_BY_SEGMENT))
			return false;
	}
	for (int i = 0; first && i < first->nsuspects; i++) {
		const struct detect_suspect *f = &first->suspects[i];
		if (!kept(first, f, final, CLEARED_BY_RETEST) &&
		    !kept(first, f, final, CLEARED_BY_SCHEDULER) &&
		    !kept(first, f, final, CLEARED_BY_TRAFFIC) &&
		    !kept(first, f, final, CLEARED_BY_ALONE) &&
		    !kept(first, f, final, CLEARED_BY_SEGMENT) &&
		    !add_cleared(cleared, v, first, f, CLEARED_BY_RETEST))
			return false;
	}
	return true;
}

static bool add_sensitivity(cJSON *summary, const struct links_judgement *j)
{
	struct links_sensitivity sens[LINKS_SENSITIVITY_MAX];
	int k = links_sensitivity(j, sens);
	cJSON *a = cJSON_AddArrayToObject(summary, SK_LSUM_SENSITIVITY);
	for (int i = 0; a && i < k; i++) {
		cJSON *o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(a, o)) {
			cJSON_Delete(o);
			return false;
		}
		if (!cJSON_AddStringToObject(o, SK_SENS_PATTERN,
		                             suspect_pattern_names[sens[i].pattern]) ||
		    !cJSON_AddStringToObject(o, SK_SENS_METRIC,
		                             detect_metric_name(sens[i].metric)) ||
		    !cJSON_AddStringToObject(o, SK_SENS_LOCALITY,
		                             detect_locality_name(sens[i].locality)) ||
		    !cJSON_AddNumberToObject(o, SK_SENS_LINKS, sens[i].links) ||
		    !report_add_number(o, SK_SENS_MEDIAN, sens[i].median) ||
		    !cJSON_AddStringToObject(o, SK_SENS_UNIT,
		                             sens[i].metric == DETECT_BANDWIDTH ? "GB/s" : "us") ||
		    !report_add_number(o, SK_SENS_SLOWDOWN_PERCENT, 100 * sens[i].fraction))
			return false;
	}
	return a != NULL;
}

static bool add_not_judged(cJSON *summary, const struct links_view *v)
{
	cJSON *notes = cJSON_AddArrayToObject(summary, SK_LSUM_NOT_JUDGED);
	for (int h = 0; notes && v->host_judged && h < v->nhosts; h++)
		if (!v->host_judged[h] &&
		    !cJSON_AddItemToArray(notes, cJSON_CreateString(v->host_names[h])))
			return false;
	return notes != NULL;
}

cJSON *links_report_add_summary(cJSON *root, const struct links_view *v,
                                const struct links_judgement *j)
{
	const struct detect_result *first = j->first, *final = j->final;
	int confirmed = detect_confirmed_count(final);
	size_t links = links_count_measured(v);
	int pairs = (int)(links / 2); /* both directions of every pair are measured */
	cJSON *summary = cJSON_AddObjectToObject(root, SK_REPORT_SUMMARY);
	if (!summary || !cJSON_AddNumberToObject(summary, SK_LSUM_RANKS, v->nranks) ||
	    !cJSON_AddNumberToObject(summary, SK_LSUM_HOSTS_COUNT, v->nhosts) ||
	    !cJSON_AddNumberToObject(summary, SK_LSUM_LINKS, (double)links) ||
	    !cJSON_AddNumberToObject(summary, SK_LSUM_PAIRS, pairs) ||
	    !cJSON_AddNumberToObject(summary, SK_LSUM_REMEASURED_PAIRS, j->remeasured_pairs) ||
	    !cJSON_AddBoolToObject(summary, SK_LSUM_SHIFT_RETESTED, j->shift_retested) ||
	    !cJSON_AddNumberToObject(summary, SK_LSUM_SUSPECTS_COUNT, confirmed) ||
	    !cJSON_AddNumberToObject(summary, SK_LSUM_LATENCY_NOT_JUDGED_PAIRS,
	                             (double)links_latency_unjudged(v)) ||
	    !cJSON_AddNumberToObject(summary, SK_LSUM_BANDWIDTH_NOT_JUDGED_PAIRS,
	                             (double)links_bandwidth_unjudged(v)) ||
	    !add_classes(summary, final) || !add_hosts(summary, v) ||
	    !add_suspects(summary, v, first, final) || !add_sensitivity(summary, j) ||
	    !add_not_judged(summary, v))
		return NULL;
	return summary;
}
