/*
 * Synthetic reports for the unit tests of compare and the HTML page: built
 * as cJSON trees with the fields collscope writes, and samples drawn from a
 * fixed generator so every run of the tests sees the same numbers.
 */
#ifndef COLLSCOPE_REPORT_FIXTURES_H
#define COLLSCOPE_REPORT_FIXTURES_H

#include <cjson/cJSON.h>

/* An envelope with context (ranks, hosts named node0.., argv) and an empty results array. */
cJSON *fx_report(const char *command, int ranks, int hosts);

/* Appends an allreduce record without measurements; returns it. */
cJSON *fx_point(cJSON *report, const char *algorithm, double bytes, const char *dtype,
                const char *op, int ranks);

/*
 * n samples spread uniformly over center_us x (1 - spread, 1 + spread), and
 * time_us (p50, p99 when n >= 100), busbw_gbps from them, into rec.
 */
void fx_samples(cJSON *rec, double bytes, int ranks, double center_us, double spread, int n,
                unsigned seed);

/* Shortcut: a measured allreduce point. */
cJSON *fx_measured(cJSON *report, const char *algorithm, double bytes, double center_us,
                   double spread, int n, unsigned seed);

/* A links record a -> b with p50 latency and bandwidth (no samples). */
cJSON *fx_link(cJSON *report, int a, int b, const char *host_a, const char *host_b,
               double latency_us, double bandwidth_gbps);

#endif
