/* See watch_jsonl.h. */
#include "reports/watch/watch_jsonl.h"

#include <math.h>

#include "reports/io/report_io.h"
#include "reports/io/report_schema.h"

const char *const watch_record_names[WATCH_RECORDS + 1] = {"start", "sample", "event",
                                                           "round", "stop",   NULL};
const char *const watch_direction_names[3] = {"slower", "faster", NULL};

static cJSON *line(enum watch_record r, double time_s)
{
	cJSON *o = cJSON_CreateObject();
	if (o && (!cJSON_AddStringToObject(o, SK_WLINE_RECORD, watch_record_names[r]) ||
	          !report_add_number(o, SK_WLINE_TIME_S, time_s))) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

static cJSON *done(cJSON *o, bool ok)
{
	if (!ok) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

static const char *host(const struct watch_state *s, int h)
{
	return h >= 0 && h < s->nhosts ? s->host_names[h] : "?";
}

cJSON *watch_line_start(double time_s, long pid, int ranks, const struct watch_state *s)
{
	cJSON *o = line(WATCH_START, time_s), *hosts;
	bool ok = o && cJSON_AddNumberToObject(o, SK_WLINE_PID, (double)pid) &&
	          cJSON_AddNumberToObject(o, SK_WLINE_RANKS, ranks) &&
	          (hosts = cJSON_AddArrayToObject(o, SK_WLINE_HOSTS));
	for (int h = 0; ok && h < s->nhosts; h++)
		ok = cJSON_AddItemToArray(hosts, cJSON_CreateString(s->host_names[h]));
	return done(o, ok);
}

/* series, kind, and bytes or the hosts of a link */
static bool add_series(cJSON *o, const struct watch_state *s, const struct watch_series *x,
                       const char *k_series, const char *k_kind, const char *k_bytes,
                       const char *k_a, const char *k_b)
{
	if (!cJSON_AddStringToObject(o, k_series, x->name) ||
	    !cJSON_AddStringToObject(o, k_kind, watch_kind_names[x->kind]))
		return false;
	if (x->kind != WATCH_LINK)
		return cJSON_AddNumberToObject(o, k_bytes, (double)x->bytes) != NULL;
	return cJSON_AddStringToObject(o, k_a, host(s, x->host_a)) &&
	       cJSON_AddStringToObject(o, k_b, host(s, x->host_b));
}

static bool add_line_series(cJSON *o, const struct watch_state *s, const struct watch_series *x)
{
	return add_series(o, s, x, SK_WLINE_SERIES, SK_WLINE_KIND, SK_WLINE_BYTES, SK_WLINE_HOST_A,
	                  SK_WLINE_HOST_B);
}

cJSON *watch_line_sample(const struct watch_state *s, size_t i, uint64_t round)
{
	const struct watch_series *x = &s->series[i];
	cJSON *o = line(WATCH_SAMPLE, x->last_t_s);
	bool ok = o && cJSON_AddNumberToObject(o, SK_WLINE_ROUND, (double)round) &&
	          add_line_series(o, s, x) &&
	          report_add_number(
	              o, x->kind == WATCH_LATENCY ? SK_WLINE_LATENCY_US : SK_WLINE_BANDWIDTH_GBPS,
	              x->last);
	return done(o, ok);
}

static bool add_attribution(cJSON *o, const struct watch_attribution *a)
{
	cJSON *at = cJSON_AddObjectToObject(o, SK_WLINE_ATTRIBUTION);
	return at &&
	       cJSON_AddStringToObject(at, SK_WATTR_BY,
	                               watch_attributed_by_names[a->by_classifier ? 0 : 1]) &&
	       cJSON_AddStringToObject(at, SK_WATTR_KIND, detect_kind_name(a->kind)) &&
	       cJSON_AddStringToObject(at, SK_WATTR_WHO, a->who) &&
	       cJSON_AddStringToObject(at, SK_WATTR_DIRECTION,
	                               detect_direction_name(a->kind, a->direction)) &&
	       (!*a->reason || cJSON_AddStringToObject(at, SK_WATTR_REASON, a->reason));
}

cJSON *watch_line_event(const struct watch_state *s, const struct watch_event *e)
{
	const struct watch_series *x = &s->series[e->series];
	cJSON *o = line(WATCH_EVENT, e->t_s);
	bool ok = o && report_add_number(o, SK_WLINE_DETECTED_TIME_S, e->detected_t_s) &&
	          cJSON_AddNumberToObject(o, SK_WLINE_ROUND, (double)e->round) &&
	          add_line_series(o, s, x) &&
	          cJSON_AddStringToObject(o, SK_WLINE_DIRECTION,
	                                  watch_direction_names[e->slower ? 0 : 1]) &&
	          report_add_number(o, SK_WLINE_BEFORE, e->before) &&
	          report_add_number(o, SK_WLINE_AFTER, e->after) &&
	          report_add_number(o, SK_WLINE_STEP, e->step) &&
	          report_add_number(o, SK_WLINE_P_VALUE, e->p_value) &&
	          cJSON_AddNumberToObject(o, SK_WLINE_DELAY_SAMPLES, (double)e->delay_samples) &&
	          (!e->attributed || add_attribution(o, &e->attribution));
	return done(o, ok);
}

cJSON *watch_line_round(double time_s, uint64_t round, double measure_s, double duty_percent,
                        double rss_bytes)
{
	cJSON *o = line(WATCH_ROUND, time_s);
	bool ok = o && cJSON_AddNumberToObject(o, SK_WLINE_ROUND, (double)round) &&
	          report_add_number(o, SK_WLINE_MEASURE_S, measure_s) &&
	          report_add_number(o, SK_WLINE_DUTY_PERCENT, duty_percent) &&
	          report_add_number(o, SK_WLINE_RSS_BYTES, rss_bytes);
	return done(o, ok);
}

cJSON *watch_line_stop(double time_s, const char *reason, uint64_t rounds, uint64_t events)
{
	cJSON *o = line(WATCH_STOP, time_s);
	bool ok = o && cJSON_AddStringToObject(o, SK_WLINE_REASON, reason) &&
	          cJSON_AddNumberToObject(o, SK_WLINE_ROUNDS, (double)rounds) &&
	          cJSON_AddNumberToObject(o, SK_WLINE_EVENTS, (double)events);
	return done(o, ok);
}

static bool add_result(cJSON *results, const struct watch_state *s, const struct watch_series *x)
{
	cJSON *o = cJSON_CreateObject(), *t, *v;
	if (!o || !cJSON_AddItemToArray(results, o)) {
		cJSON_Delete(o);
		return false;
	}
	bool ok =
	    add_series(o, s, x, SK_WSER_SERIES, SK_WSER_KIND, SK_WSER_BYTES, SK_WSER_HOST_A,
	               SK_WSER_HOST_B) &&
	    cJSON_AddStringToObject(o, SK_WSER_UNIT, x->kind == WATCH_LATENCY ? "us" : "gbps") &&
	    cJSON_AddNumberToObject(o, SK_WSER_SAMPLES_COUNT, (double)x->samples) &&
	    cJSON_AddNumberToObject(o, SK_WSER_CHANGES, (double)x->changes) &&
	    report_add_number(o, SK_WSER_SLOWDOWN, watch_series_slowdown(x)) &&
	    (t = cJSON_AddArrayToObject(o, SK_WSER_TIME_S)) &&
	    (v = cJSON_AddArrayToObject(o, SK_WSER_VALUES));
	for (size_t k = 0; ok && k < x->history.n; k++) {
		const struct watch_sample *p = watch_ring_at(&x->history, k);
		ok = report_add_number_item(t, p->t_s) && report_add_number_item(v, p->value);
	}
	return ok;
}

bool watch_report_add(cJSON *root, const struct watch_state *s, const struct watch_totals *tot)
{
	cJSON *results = cJSON_AddArrayToObject(root, SK_REPORT_RESULTS), *sum, *events;
	bool ok = results != NULL;
	for (size_t i = 0; ok && i < s->nseries; i++)
		ok = add_result(results, s, &s->series[i]);
	ok = ok && (sum = cJSON_AddObjectToObject(root, SK_REPORT_SUMMARY)) &&
	     cJSON_AddNumberToObject(sum, SK_WSUM_ROUNDS, (double)tot->rounds) &&
	     report_add_number(sum, SK_WSUM_MEASURE_S, tot->measure_s) &&
	     report_add_number(sum, SK_WSUM_DUTY_PERCENT, tot->duty_percent) &&
	     cJSON_AddNumberToObject(sum, SK_WSUM_EVENTS_TOTAL, (double)s->events_total) &&
	     cJSON_AddStringToObject(sum, SK_WSUM_STOPPED_BY, tot->stopped_by) &&
	     (events = cJSON_AddArrayToObject(sum, SK_WSUM_EVENTS));
	for (size_t k = 0; ok && k < s->events.n; k++) {
		cJSON *e = watch_line_event(s, watch_ring_at(&s->events, k));
		ok = e && cJSON_AddItemToArray(events, e);
		if (!ok)
			cJSON_Delete(e);
	}
	return ok;
}
