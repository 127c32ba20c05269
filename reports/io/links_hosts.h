/*
 * Internal to reports/io/links_*.c: each host's aggregates of the links
 * summary, computed in one pass (links_hosts.c). Pure: libc and libm.
 */
#ifndef COLLSCOPE_LINKS_HOSTS_H
#define COLLSCOPE_LINKS_HOSTS_H

#include "reports/io/links_report.h"

/* Median and the worst value of one host's links of one class, per metric. */
struct host_class_agg {
	int links;
	double bw_median_gbps, bw_min_gbps, lat_median_us, lat_max_us;
};

/*
 * Every host's aggregate of every class into agg[h * DETECT_LOCALITIES + l]
 * (initialised by the caller: links 0, figures NAN). 0, or -1 when out of memory.
 */
int links_host_classes(const struct links_view *v, struct host_class_agg *agg);

#endif
