/*
 * collscope accept: the measured figures of one run (one repeat) of the
 * checks, as the verdicts and the derivation read them. The command fills
 * them from what it measured (the adders below take the structures of
 * `topo`, `links` and `allreduce`), or they are loaded from reports on disk
 * (`accept --derive`). Pure: libc, libm and cJSON; no MPI, no I/O.
 *
 * Hosts are indices 0 .. nhosts - 1 into hosts[], in the order of the
 * context; every other figure refers to them.
 */
#ifndef COLLSCOPE_ACCEPT_FIGURES_H
#define COLLSCOPE_ACCEPT_FIGURES_H

#include "reports/accept/accept_spec.h"
#include "reports/io/ar_report.h"
#include "reports/io/context.h"
#include "reports/diagnose/detect.h"
#include "reports/io/links_report.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ACCEPT_REASON_BYTES 256

struct accept_host_figures {
	char name[CTX_NAME_BYTES]; /* as it is (printers escape it) */
	int ranks, cores, numa_nodes;
	bool oversubscribed;
	/* links cleared a suspect of it (the host, or a link of it to another host) by what
	   else its NIC carried (the interface counters: another job's traffic) */
	bool traffic_cleared;
};

/* One measured ordered pair of ranks. */
struct accept_link_figures {
	int a, b;           /* ranks */
	int host_a, host_b; /* host indices */
	enum detect_locality locality;
	double bandwidth_gbps, latency_us; /* p50; NAN when not measured */
	/* a confirmed segment or link suspect of that metric covers it: the suspects check
	   judges it, a host's own class median leaves it out (its hosts may be healthy) */
	bool explained_bw, explained_lat;
	/* links judges no latency of it: its ranks waited for a core that share of their
	   ping-pongs (links_report.h's LINK_LATENCY_WAIT_UNJUDGED): a failing latency median
	   is judged without it too (the scheduler's). Bandwidth inside a host, which links
	   also leaves unjudged then, stays judged here: its failure is measured again. */
	bool unjudged_lat;
	/* what else the NICs in its way carried while it was measured (the sender's host
	   out, the receiver's in; links_report.h's link_other_way_any), GB/s; NAN or 0:
	   nothing known */
	double other_gbps;
};

/* A suspect of `links`: a host (host >= 0), or a link (host -1, its ends). */
struct accept_suspect_figures {
	int host;
	int a, b, host_a, host_b; /* link: the ranks (-1 between hosts) and their hosts; host: -1 */
	/* host, host_a and host_b all -1: a segment (the cut between sets of hosts), the job's */
	char reason[ACCEPT_REASON_BYTES];
};

/* One variant through `verify`'s matrix. */
struct accept_verify_figures {
	char variant[ACCEPT_NAME_BYTES];
	int64_t checks, wrong;             /* wrong elements over every check */
	char skipped[ACCEPT_REASON_BYTES]; /* "" when it ran */
};

/* One all-reduce point (or one of its halves: collective). */
struct accept_point_figures {
	enum ar_collective collective;
	char variant[ACCEPT_NAME_BYTES], dtype[ACCEPT_NAME_BYTES], op[ACCEPT_NAME_BYTES];
	bool in_place;
	uint64_t bytes;
	int ranks;
	double busbw_gbps, p99_us;         /* NAN when undefined (p99 needs 100 samples) */
	int64_t wrong;                     /* -1 when not checked */
	char skipped[ACCEPT_REASON_BYTES]; /* "" when measured */
};

struct accept_figures {
	int nhosts;
	struct accept_host_figures *hosts; /* owned */
	bool has[ACCEPT_KINDS];            /* the checks this run measured */
	bool complete;                     /* loaded: the report says "complete": true */
	struct accept_verify_figures *verify;
	size_t nverify, cap_verify;
	struct accept_link_figures *links;
	size_t nlinks, cap_links;
	struct accept_suspect_figures *suspects;
	size_t nsuspects, cap_suspects;
	struct accept_point_figures *points;
	size_t npoints, cap_points;
	/*
	 * The links measured again, at once, on the hosts whose own links checks
	 * failed and on control hosts beside them (cmd/run/accept_run.c): a host's
	 * links failure stands only where it reproduces there. Owned; NULL when
	 * nothing failed, or the run could not measure again (then a failure
	 * stands on the one measurement).
	 */
	struct accept_figures *links_again;
};

void accept_figures_init(struct accept_figures *f);
void accept_figures_release(struct accept_figures *f);

/*
 * The hosts and their topology from a context (has[ACCEPT_TOPOLOGY] set).
 * Must come first. 0, or -1 when out of memory or already set.
 */
int accept_figures_set_hosts(struct accept_figures *f, const struct report_context *c);

/*
 * Whether links confirmed a slow segment (a cut between sets of hosts) in f:
 * it explains a failing all-reduce point, whose culprit search would name
 * the hosts on one side of it (every sub-test with them crosses the cut).
 */
bool accept_figures_segment(const struct accept_figures *f);

/* The index of the host named name, or -1. */
int accept_figures_host(const struct accept_figures *f, const char *name);

/* Each adder copies its argument and sets has[] of its kind; 0, or -1 when out of memory. */
int accept_figures_add_verify(struct accept_figures *f, const struct accept_verify_figures *v);
int accept_figures_add_link(struct accept_figures *f, const struct accept_link_figures *l);
int accept_figures_add_suspect(struct accept_figures *f, const struct accept_suspect_figures *s);
int accept_figures_add_point(struct accept_figures *f, const struct accept_point_figures *p);

/*
 * The links of one run grouped by host: host h's are by_host[first[h] ..
 * first[h + 1]) (indices into f->links; a link within a host once). Built
 * once per judgement, so that a host's checks visit its own links and not
 * every link of the job (which made accept O(hosts x links)). Owned;
 * accept_link_index_release frees it. 0, or -1 when out of memory.
 */
struct accept_link_index {
	size_t *first, *by_host;
};
int accept_link_index_build(struct accept_link_index *x, const struct accept_figures *f);
void accept_link_index_release(struct accept_link_index *x);

/* Marks a kind measured with nothing in it (a links run that found no suspects has none). */
void accept_figures_mark(struct accept_figures *f, enum accept_kind k);

/*
 * What `links` measured: every measured ordered pair of v (hosts of v map to
 * the figures' hosts by name) and the confirmed suspects of final (may be
 * NULL). 0, or -1 when out of memory or a host of v is unknown.
 */
int accept_figures_add_links_view(struct accept_figures *f, const struct links_view *v,
                                  const struct detect_result *final);

/* One record of `allreduce` (measured or skipped). 0, or -1 when out of memory. */
int accept_figures_add_ar_record(struct accept_figures *f, const struct ar_record *r);

/*
 * A report read by report_read (path names it in messages) into an empty
 * *f: the hosts from its context, and by its command: nothing more for
 * topo, the pairs and confirmed suspects for links, the points for
 * allreduce. Refuses other commands. Returns 0, or -1 with every problem
 * in err ("report 'l.json': results[3].locality: ..."), one line each.
 */
int accept_figures_load(struct accept_figures *f, const char *path, const cJSON *root, char *err,
                        size_t len);

#endif
