/*
 * collscope watch's metrics file (issue 34): what node_exporter's textfile
 * collector exports, in OpenMetrics text (watch_openmetrics.h), Prometheus's
 * naming: the collscope_watch_ prefix, base units in the names (_seconds,
 * _bytes, _bytes_per_second), counters ending in _total, labels for what
 * varies (size_bytes, src_host and dst_host, series). Pure.
 *
 *   collscope_watch_allreduce_latency_seconds{size_bytes}       the small all-reduce, median
 *   collscope_watch_allreduce_bus_bandwidth_bytes_per_second{size_bytes}  the large one
 *   collscope_watch_link_bandwidth_bytes_per_second{src_host,dst_host}    a host pair
 *   collscope_watch_series_slowdown_ratio{series}   now against before the first change
 *   collscope_watch_changes_total{series,direction}  changes found
 *   collscope_watch_last_change_timestamp_seconds{series}
 *   collscope_watch_rounds_total, collscope_watch_measure_seconds_total,
 *   collscope_watch_duty_ratio, collscope_watch_last_round_timestamp_seconds,
 *   collscope_watch_start_timestamp_seconds, collscope_watch_resident_memory_bytes
 */
#ifndef COLLSCOPE_WATCH_METRICS_H
#define COLLSCOPE_WATCH_METRICS_H

#include "reports/watch/watch_openmetrics.h"
#include "reports/watch/watch_state.h"

struct watch_figures {
	double start_s, last_round_s; /* the watch's clock, seconds since the epoch */
	double measure_s;             /* real seconds spent measuring */
	double duty_ratio;            /* measure over elapsed, real */
	double rss_bytes;             /* rank 0's; NAN unknown */
};

/* The whole file into t (initialised by the caller), # EOF included; 0 or -1. */
int watch_metrics_render(const struct watch_state *s, const struct watch_figures *f,
                         struct om_text *t);

#endif
