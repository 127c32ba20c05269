/*
 * The results of `collscope links` as data: one record per ordered pair,
 * the values the detector judges, per-host aggregates and the JSON of
 * the report schema (reports/README.md, reports/SCHEMA.md). Pure: libc, libm and cJSON.
 */
#ifndef COLLSCOPE_LINKS_REPORT_H
#define COLLSCOPE_LINKS_REPORT_H

#include "reports/diagnose/classify.h"
#include "reports/diagnose/detect.h"
#include "reports/stats/stats.h"

#include <cjson/cJSON.h>
#include <stdbool.h>

/*
 * One ordered pair a -> b, as measured by a. Plain data (rank 0 gathers it
 * as bytes). Bandwidth is kept as the time of one window, in us; GB/s are
 * derived from it with the window's bytes.
 */
/*
 * Raw samples a record keeps for compare's significance test, evenly spaced
 * in time over all of them: enough for the test (it needs 9 a side), and a
 * record stays a fixed size that travels as bytes however many iterations ran.
 */
#define LINK_KEPT_SAMPLES 32

struct link_record {
	int a, b;
	bool measured;                   /* false on the diagonal and for pairs not measured */
	bool remeasured;                 /* the values come from the isolated second measurement */
	struct stats_summary latency_us; /* one-way: half of each round trip */
	struct stats_summary window_us;  /* one window a -> b, acknowledgement included */
	struct stats_summary bidir_window_us; /* a window each way at once, seen by a */
	double
	    cpu_wait_share; /* a's share of the pair's time spent waiting for a CPU; NAN unknown */
	double cpu_wait_share_lat; /* the same of its ping-pongs alone (not in the report) */
	double nic_other_gbps;     /* what a's host NICs carried besides the pair (probes/nic_bytes.h) */
	/* the same of what they sent and what they received (not in the report) */
	double nic_other_sent_gbps, nic_other_received_gbps;
	double latency_samples_us[LINK_KEPT_SAMPLES]; /* one-way latencies a -> b */
	double window_samples_us[LINK_KEPT_SAMPLES];  /* times of one window a -> b */
	int nlatency_samples, nwindow_samples;
	/* how the bandwidth phases went (probes/p2p.h): messages per timed window
	   (window times are scaled to full windows) and whether the time budget
	   ended them before the count; window_us.n is the number of timed windows */
	int window_msgs, bidir_msgs;
	bool stopped_by_time, bidir_stopped_by_time;
};

struct links_view;
/* The record a -> b of v: its own, or one not measured (NAN figures) when the table lacks it. */
const struct link_record *links_view_record(const struct links_view *v, int a, int b);
/* The measured records a -> b, a != b, in order of (a, b), into out (malloc'd); their count,
   or -1 when out of memory. */
long links_view_measured(const struct links_view *v, const struct link_record ***out);
/*
 * The same one at a time, without a list: over a table its records alone, so
 * a pass costs what was measured, not nranks^2 (at 8,192 ranks screening
 * measures 0.1% of the pairs):
 *   size_t at = 0; int a, b; const struct link_record *r;
 *   while ((r = links_next_measured(v, &at, &a, &b))) ...
 */
const struct link_record *links_next_measured(const struct links_view *v, size_t *at, int *a,
                                              int *b);
/* How many links_next_measured gives: the bound of a scratch of one entry per record. */
size_t links_count_measured(const struct links_view *v);

/* Keep at most LINK_KEPT_SAMPLES of x[0..n), evenly spaced; returns how many. */
int link_keep_samples(const double *x, size_t n, double *kept);

/*
 * The shift pattern as rank a saw it: cell [a * nranks + x] holds a's sends
 * to x and its receives from x (in the steps where x was its destination and
 * its source). Plain data, gathered as bytes.
 */
struct shift_cell {
	double send_us; /* p50 window time a -> x until a's sends completed; NAN: none */
	double recv_us; /* p50 window time x -> a until a's receives completed; NAN: none */
	int send_windows, recv_windows; /* timed windows of those steps */
	int msgs;                       /* messages per window of the step a sent to x */
	bool stopped_by_time;           /* that step's budget ran out before the count */
};

/*
 * The measured records of a job row by row, as rank 0 gathers them (issue 28:
 * its memory grows with the pairs measured, not with nranks^2): row a is
 * recs[row[a] .. row[a + 1]), its peers b in increasing order.
 */
struct link_table {
	int nranks;
	size_t *row;              /* nranks + 1 */
	struct link_record *recs; /* row[nranks] */
};

/* recs[0 .. n) of each rank's row in turn, peers increasing, into t's rows; -1: a bad order. */
int link_table_index(struct link_table *t, const int *counts);
void link_table_release(struct link_table *t);

/* Everything the report needs, borrowed from the caller. */
struct links_view {
	int nranks, nhosts;
	/* the records: a table of the measured ones, or (table NULL) every pair's, dense,
	   [a * nranks + b]; read them through links_view_record */
	const struct link_table *table;
	const struct link_record *records;
	const int *host_of_rank;           /* nranks */
	const int *numa_of_rank;           /* nranks, -1 unknown */
	const char *const *host_names;     /* nhosts */
	const bool *host_judged;           /* nhosts: false when its links are not judged */
	double window_bytes;               /* bytes of one window in one direction */
	const struct shift_cell *shift;    /* nranks x nranks, or NULL: no shift pattern */
	bool keep_all_samples; /* the report keeps every pair's samples (links_compact.h) */
	bool judge_waiting;    /* judge latencies whatever their ranks waited */
	bool rails;            /* links --rails: a NIC per rank, each rail judged too (rails.h) */
};

/*
 * A pair whose ranks waited for a core at least this share of their
 * ping-pongs (link_cpu_wait_latency) has no latency verdict: its latency is
 * the scheduler's (two spinning ranks on one core wait half the time each).
 * Nor has a pair inside a host whose ranks waited that share of its whole time
 * (link_cpu_wait) a bandwidth verdict: there the ranks copy every byte
 * themselves, and one off its core holds the other's copy too (the accept suite
 * under CPU burners saw a healthy same-NUMA pair at 0.54x, z -8.1, through every
 * re-test). Between hosts a window keeps the wire busy while a rank waits, so
 * bandwidth there is judged whatever the wait. The measured counterpart of an
 * oversubscribed host's links, not judged either; --judge-oversubscribed
 * judges all three (judge_waiting).
 */
#define LINK_LATENCY_WAIT_UNJUDGED 0.5
/* Whether the latency of a-b is judged: not when its ranks waited that much. */
bool link_latency_judged(const struct links_view *v, int a, int b);
/* The measured pairs (a < b) whose latency is not judged for that reason. */
size_t links_latency_unjudged(const struct links_view *v);
/* Whether the bandwidth of a-b is judged: not inside a host when its ranks waited that much. */
bool link_bandwidth_judged(const struct links_view *v, int a, int b);
/* The measured pairs (a < b) whose bandwidth is not judged for that reason. */
size_t links_bandwidth_unjudged(const struct links_view *v);

/* The locality class of a -> b: hosts differ, or same host and the same known NUMA node. */
enum detect_locality links_locality(const struct links_view *v, int a, int b);

/*
 * The larger of both ends' shares of the pair a-b's time spent waiting for a
 * CPU (each end measures its own), or NAN when neither knows.
 */
double link_cpu_wait(const struct links_view *v, int a, int b);
/* The same of the pair's ping-pongs alone (cpu_wait_share_lat): what its latency suffered. */
double link_cpu_wait_latency(const struct links_view *v, int a, int b);
/*
 * The typical pair's share of waiting for a core in its ping-pongs: the median
 * of link_cpu_wait_latency over the pairs (at most LINKS_WAIT_SAMPLE of them,
 * evenly spaced, so the cost stays bounded at thousands of ranks); NAN when none
 * is known or out of memory.
 */
#define LINKS_WAIT_SAMPLE 65536
double links_typical_cpu_wait_latency(const struct links_view *v);
/* The same of link_cpu_wait, the pair's whole time: what an intra-host bandwidth suffered. */
double links_typical_cpu_wait(const struct links_view *v);

/*
 * traffic.h's view of suspect s (a host, or a link between ranks or hosts):
 * over its re-tested pairs across hosts, each the way s is slow in (a host
 * slow to send: its pairs out), the median of what was in that way
 * (link_other_way: the sender's host's other traffic out, the receiver's
 * in); NAN when none is known (a segment: its uplink is not any one host's
 * NIC). Each way apart: a host slow to send beside a stream into one of its
 * partners keeps its verdict (the campaign, seed 3 draw 96: a host 35% slow
 * to send cleared by a stream h1 -> h2 counted whole on both its pairs).
 */
double links_other_traffic(const struct links_view *v, const struct detect_suspect *s,
                           double *most);

/* The typical one-way latency (p50; the mean when p50 is undefined), or NAN. */
double link_latency_us(const struct link_record *r);
/* The typical bandwidth a -> b in GB/s (window bytes over the p50 window time), or NAN. */
double link_bandwidth_gbps(const struct link_record *r, double window_bytes);
/* Both ways at once, a window each way (2 x window bytes over the p50 time), or NAN. */
double link_bidir_gbps(const struct link_record *r, double window_bytes);

/*
 * The detector's view of every measured ordered pair for metric: writes at
 * most nranks x (nranks - 1) entries to out and returns the count. A link is
 * judged when both its hosts are judged.
 */
size_t links_to_detect(const struct links_view *v, enum detect_metric metric,
                       struct detect_link *out);

/*
 * Median of the typical bandwidths of the links from host i to host j into
 * out[i * nhosts + j] (NAN where there are none): the host x host matrix.
 */
int links_host_matrix(const struct links_view *v, double *out);

/*
 * The median of the typical values of every measured link of class l,
 * judged or not (for display); *links gets their count. NAN when none or
 * out of memory.
 */
double links_class_median(const struct links_view *v, enum detect_metric m, enum detect_locality l,
                          int *links);

/*
 * The shift pattern's bandwidth a -> b in GB/s as b received it (send: as a
 * sent it), from v->shift; NAN when not measured.
 */
double shift_bandwidth_gbps(const struct links_view *v, int a, int b, bool send);

/*
 * The host x host matrices the classifier judges (classify.h): out[i * nhosts
 * + j], the median bandwidth from host i's ranks to host j's, NAN on the
 * diagonal, where nothing was measured and where either host is not judged.
 * Of the isolated pairs (shift false) or of the shift pattern's receives.
 * Returns 0, or -1 when out of memory.
 */
int links_judged_host_matrix(const struct links_view *v, bool shift, double *out);
/*
 * The same with the room each pair had (traffic.h's traffic_clear_cells): a
 * pair measured again alone counts what its hosts' NICs carried besides it
 * that way (link_other_way, another job's traffic) as its own. The shift's
 * pairs run at once, so there a cell i -> j gains the larger of host i's
 * other traffic out and host j's in, each the median over its pairs measured
 * again alone.
 */
int links_room_host_matrix(const struct links_view *v, bool shift, double *out);
/*
 * The isolated pairs' bidirectional bandwidth (both ways at once, as the pair's
 * first rank saw it: link_bidir_gbps) as links_judged_host_matrix lays it out.
 */
int links_bidir_host_matrix(const struct links_view *v, double *out);
/*
 * Of the isolated pairs, what was in each one's way alone (link_other_way):
 * the median over the pairs of a host pair measured again alone, NAN where
 * none was. Which cells of the room were quiet (traffic_clear_cells).
 */
int links_other_host_matrix(const struct links_view *v, double *out);
/*
 * Rail k's host matrix (rails.h), as links_judged_host_matrix of the isolated
 * pairs, of the pairs between two ranks at position k on their hosts (pos[r]:
 * rank r's position among its host's ranks, in rank order: probe_plan.local).
 */
int links_rail_host_matrix(const struct links_view *v, const int *pos, int rail, double *out);
/*
 * The other traffic in the way of a -> b when the pair was measured again
 * alone: the larger of what a's host sent and b's host received besides it, or NAN.
 */
double link_other_way(const struct links_view *v, int a, int b);
/*
 * The same of its last measurement, alone or in a round (a round's counters
 * are known where every host has one rank: probe_links.nic_in_rounds), or
 * NAN. links' own rules keep to the pairs measured again alone; accept's
 * host checks read it of every link (reports/accept/accept_verdict.c).
 */
double link_other_way_any(const struct links_view *v, int a, int b);

/* What the summary says besides the view. Borrowed; any pointer but final may be NULL. */
struct links_judgement {
	const struct detect_result *first, *final;
	int remeasured_pairs;
	const struct detect_params *params;     /* for the sensitivity */
	const struct classify_info *pairs_info; /* the classifier's reference, isolated pairs */
	const struct classify_info *shift_info; /* the same under the shift pattern */
	bool shift_retested;                    /* the shift pattern ran a second time */
};

/*
 * Where a suspect or a class was measured: isolated pairs, or under the shift
 * pattern's load. suspect_pattern_names ("pairs", "shift", NULL) is the one
 * table of the reports' "pattern" (reports/io/schema_table.h).
 */
enum suspect_pattern { SUSPECT_PAIRS, SUSPECT_SHIFT, SUSPECT_PATTERNS };
extern const char *const suspect_pattern_names[SUSPECT_PATTERNS + 1];

/*
 * Why a suspect of the first pass is in cleared[]: its re-test did not confirm
 * it, the scheduler explains it (reports/diagnose/scheduler.h), another job's
 * traffic (traffic.h), it is a link of the shift pattern that is fine
 * alone (alone.h), or a link across a confirmed segment at its level
 * (segment_links.h). suspect_cleared_by_names ("retest", "scheduler",
 * "traffic", "alone", "segment", NULL): the reports' "cleared_by".
 */
enum suspect_cleared_by {
	CLEARED_BY_RETEST,
	CLEARED_BY_SCHEDULER,
	CLEARED_BY_TRAFFIC,
	CLEARED_BY_ALONE,
	CLEARED_BY_SEGMENT,
	CLEARED_BY_COUNT
};
extern const char *const suspect_cleared_by_names[CLEARED_BY_COUNT + 1];

/* The smallest slowdown a class would have had named (detect_sensitivity), with its context. */
struct links_sensitivity {
	enum suspect_pattern pattern;
	enum detect_metric metric;
	enum detect_locality locality;
	int links;
	double median; /* the class median, or the classifier's reference */
	double
	    fraction; /* bandwidth below (1 - fraction) x median, latency above (1 + fraction) x */
};

enum { LINKS_SENSITIVITY_MAX = DETECT_METRICS * DETECT_LOCALITIES + 1 };

/*
 * The judged classes' sensitivity into out (room for LINKS_SENSITIVITY_MAX);
 * cross_host bandwidth from the classifier's reference where it judged.
 * Returns the count.
 */
int links_sensitivity(const struct links_judgement *j, struct links_sensitivity *out);

/*
 * Adds the measured pairs in the compact form of schema 2 ("pairs" and
 * "pair_samples", links_compact.h). Returns "pairs" or NULL.
 */
cJSON *links_report_add_results(cJSON *root, const struct links_view *v);
/*
 * Adds "results" as schema 1 had it: one record of about 2 KB per measured
 * ordered pair. For the tests of the readers of old reports. The array or NULL.
 */
cJSON *links_report_add_results_v1(cJSON *root, const struct links_view *v);

/*
 * Adds "shift" when v->shift is set: steps, and the rank x rank matrices
 * send_gbps, receive_gbps, windows and window_messages (rows the sender,
 * null where nothing was measured). Returns the object, or NULL when out of
 * memory; without a shift pattern, root itself.
 */
cJSON *links_report_add_shift(cJSON *root, const struct links_view *v);

/*
 * Adds "summary": pairs and links measured, the classes of both metrics,
 * per-host aggregates, "suspects" (the confirmed suspects of final),
 * "cleared" (what first accused and the re-test did not confirm),
 * "remeasured_pairs", "sensitivity" and "not_judged" (notes, e.g.
 * oversubscribed hosts). Returns the object or NULL when out of memory.
 */
cJSON *links_report_add_summary(cJSON *root, const struct links_view *v,
                                const struct links_judgement *j);

/*
 * Suspect s of r as JSON into array: kind, direction, who, hosts and ranks,
 * metric, locality, pattern, measured, expected, ratio, score, retest, line,
 * reason. NULL on no memory.
 */
cJSON *links_report_add_suspect(cJSON *array, const struct links_view *v,
                                const struct detect_result *r, const struct detect_suspect *s);

/*
 * "suspects" into parent: every confirmed suspect of final (links_report_add_suspect),
 * as a links report's summary lists them and accept's report repeats them
 * (summary.links_suspects). The array, or NULL when out of memory.
 */
cJSON *links_report_add_confirmed(cJSON *parent, const struct links_view *v,
                                  const struct detect_result *final);

#endif
