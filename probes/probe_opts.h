/* What the link probes measure and how (probes/p2p.h): pure, for the option tables. */
#ifndef COLLSCOPE_PROBE_OPTS_H
#define COLLSCOPE_PROBE_OPTS_H

#include <stddef.h>

enum probe_mode { PROBE_CONCURRENT, PROBE_ISOLATED };

struct probe_link_opts {
	size_t lat_bytes;          /* ping-pong message */
	size_t bw_bytes;           /* one message of a window */
	int window;                /* messages in flight per window */
	int lat_iters, lat_warmup; /* timed and untimed ping-pongs per direction */
	int bw_iters, bw_warmup;   /* timed and untimed windows per direction (at most) */
	double lat_time_s;         /* budget of one ping-pong direction; 0: the counts alone */
	double bw_time_s;          /* budget of one bandwidth phase, sizing and warm-up
	                              included; 0: the counts alone decide */
};

#endif
