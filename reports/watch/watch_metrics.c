/* See watch_metrics.h. */
#include "reports/watch/watch_metrics.h"

#include <math.h>
#include <stdio.h>

static const char *host(const struct watch_state *s, int h)
{
	return h >= 0 && h < s->nhosts ? s->host_names[h] : "?";
}

/* The all-reduce families: its latency (us to seconds) and bandwidth (GB/s to bytes/s). */
static int allreduce(const struct watch_state *s, struct om_text *t, enum watch_kind kind)
{
	bool latency = kind == WATCH_LATENCY;
	int rc = latency ? om_family(t, "collscope_watch_allreduce_latency_seconds", OM_GAUGE,
	                             "seconds", "median time of the small all-reduce, last round")
	                 : om_family(t, "collscope_watch_allreduce_bus_bandwidth_bytes_per_second",
	                             OM_GAUGE, "bytes_per_second",
	                             "bus bandwidth of the large all-reduce, last round");
	for (size_t i = 0; rc == 0 && i < s->nseries; i++) {
		const struct watch_series *x = &s->series[i];
		char bytes[32];
		if (x->kind != kind || !x->samples)
			continue;
		snprintf(bytes, sizeof bytes, "%llu", (unsigned long long)x->bytes);
		struct om_label l[] = {{"size_bytes", bytes}};
		rc = om_sample(t, l, 1, latency ? x->last / 1e6 : x->last * 1e9);
	}
	return rc;
}

static int links(const struct watch_state *s, struct om_text *t)
{
	int rc = om_family(t, "collscope_watch_link_bandwidth_bytes_per_second", OM_GAUGE,
	                   "bytes_per_second",
	                   "bandwidth from one host to another, median of their rank pairs");
	for (size_t i = 0; rc == 0 && i < s->nseries; i++) {
		const struct watch_series *x = &s->series[i];
		if (x->kind != WATCH_LINK || !x->samples)
			continue;
		struct om_label l[] = {{"src_host", host(s, x->host_a)},
		                       {"dst_host", host(s, x->host_b)}};
		rc = om_sample(t, l, 2, x->last * 1e9);
	}
	return rc;
}

static int per_series(const struct watch_state *s, struct om_text *t)
{
	int rc = om_family(t, "collscope_watch_series_slowdown_ratio", OM_GAUGE, "",
	                   "level now over the level before the first change (bandwidth: "
	                   "inverted), 1 without a change, above 1 slower");
	for (size_t i = 0; rc == 0 && i < s->nseries; i++) {
		struct om_label l[] = {{"series", s->series[i].name}};
		rc = om_sample(t, l, 1, watch_series_slowdown(&s->series[i]));
	}
	rc = rc ? rc
	        : om_family(t, "collscope_watch_changes", OM_COUNTER, "",
	                    "changes found by the online change-point detector");
	for (size_t i = 0; rc == 0 && i < s->nseries; i++) {
		const struct watch_series *x = &s->series[i];
		struct om_label slower[] = {{"series", x->name}, {"direction", "slower"}},
		                faster[] = {{"series", x->name}, {"direction", "faster"}};
		rc = om_sample(t, slower, 2, (double)x->slower_changes);
		rc = rc ? rc : om_sample(t, faster, 2, (double)(x->changes - x->slower_changes));
	}
	rc = rc ? rc
	        : om_family(t, "collscope_watch_last_change_timestamp_seconds", OM_GAUGE, "seconds",
	                    "when the series' last change began");
	for (size_t i = 0; rc == 0 && i < s->nseries; i++) {
		struct om_label l[] = {{"series", s->series[i].name}};
		if (!isnan(s->series[i].last_change_t_s))
			rc = om_sample(t, l, 1, s->series[i].last_change_t_s);
	}
	return rc;
}

/* A family of one unlabelled sample. */
static int single(struct om_text *t, const char *name, enum om_type type, const char *unit,
                  const char *help, double v)
{
	return om_family(t, name, type, unit, help) == 0 ? om_sample(t, NULL, 0, v) : -1;
}

static int run_figures(const struct watch_state *s, const struct watch_figures *f,
                       struct om_text *t)
{
	return single(t, "collscope_watch_rounds", OM_COUNTER, "", "rounds measured",
	              (double)s->rounds) ||
	       single(t, "collscope_watch_measure_seconds", OM_COUNTER, "seconds",
	              "time spent measuring", f->measure_s) ||
	       single(t, "collscope_watch_duty_ratio", OM_GAUGE, "",
	              "time measuring over time elapsed since the start", f->duty_ratio) ||
	       single(t, "collscope_watch_start_timestamp_seconds", OM_GAUGE, "seconds",
	              "when the watch started", f->start_s) ||
	       single(t, "collscope_watch_last_round_timestamp_seconds", OM_GAUGE, "seconds",
	              "when the last round ended (stale: the watch stopped)", f->last_round_s) ||
	       single(t, "collscope_watch_resident_memory_bytes", OM_GAUGE, "bytes",
	              "resident memory of rank 0", f->rss_bytes);
}

int watch_metrics_render(const struct watch_state *s, const struct watch_figures *f,
                         struct om_text *t)
{
	if (allreduce(s, t, WATCH_LATENCY) || allreduce(s, t, WATCH_BANDWIDTH) || links(s, t) ||
	    per_series(s, t) || run_figures(s, f, t))
		return -1;
	return om_finish(t);
}
