/*
 * Slow links and slow hosts, named with evidence. Pure: no MPI,
 * no I/O.
 *
 * Links are compared only with links of the same locality class (same NUMA
 * node, same host, different hosts): a shared-memory copy and a network hop
 * are not expected to be equally fast. Within a class of at least
 * min_class_links judged links, with M the class median:
 *   - bandwidth: suspect when value < (1 - tolerance) M AND the modified
 *     z-score z = 0.6745 (log value - median of logs) / MAD' < -z_threshold;
 *   - latency, the mirror image: value > M / (1 - latency_tolerance) AND
 *     z > +z. Its own tolerance, wider: links of one class are equally wide
 *     but not equally far (a path through three switches takes longer than
 *     one through one), so latency has a legitimate skewed tail that
 *     bandwidth has not.
 * Both tests must hold: the ratio keeps a tight class (tiny MAD) from
 * accusing a link for a 2 % wobble; the z-score keeps a loose class from
 * accusing its ordinary slow tail. The z-score is taken on logarithms
 * because the noise of rates and times is multiplicative (a link is "2x
 * slower", not "3 GB/s slower"): a dead link then stands out even in a noisy
 * class, and the latency test is the exact mirror of the bandwidth test.
 * MAD' is the median absolute deviation of the logs raised to at least
 * log(1 + mad_floor_fraction) (and, for latency, log(1 + latency_floor_us /
 * M)), so a class whose links are nearly identical (MAD = 0) gives finite
 * scores and only the ratio decides.
 *
 * A host is named instead of its links when, within one class:
 *   (a) more than host_majority of its judged links there are suspect (and at
 *       least 2, of at least min_host_links), or
 *   (b) at least min_hosts hosts have min_host_links links or more in the
 *       class (a host seen through one pair is only that pair) and the median
 *       of its links, compared with the median of those hosts' medians, passes the
 *       same ratio and z tests (this finds a slow host that holds half of the
 *       class's links, which no per-link median can).
 * The links of a named host in that class are then not listed separately.
 */
#ifndef COLLSCOPE_DETECT_H
#define COLLSCOPE_DETECT_H

#include <stdbool.h>
#include <stddef.h>

#include "reports/diagnose/pair_set.h"

/* Locality classes, in the order of enum topo_locality (probes/topology.h). */
enum detect_locality { DETECT_SAME_NUMA, DETECT_SAME_HOST, DETECT_CROSS_HOST, DETECT_LOCALITIES };

enum detect_metric { DETECT_BANDWIDTH, DETECT_LATENCY, DETECT_METRICS };

/* What a suspect names: see reports/diagnose/classify.h for host, link and segment between hosts. */
enum detect_kind { DETECT_LINK, DETECT_HOST, DETECT_SEGMENT, DETECT_KINDS };

/*
 * Which way it is slow. A host: AB is "send" (its outgoing links), BA
 * "receive"; a link or a segment: AB is "a->b" (from host_a's side, or rank a,
 * to host_b's side, or rank b), BA "b->a".
 */
enum detect_direction { DETECT_DIR_BOTH, DETECT_DIR_AB, DETECT_DIR_BA };

/* One ordered pair a -> b, as the detector sees it. */
struct detect_link {
	int a, b;
	int host_a, host_b; /* 0 .. nhosts - 1 */
	enum detect_locality locality;
	double value; /* bandwidth in GB/s or one-way latency in us (a typical one: the p50) */
	bool judged;  /* false: reported but never accused (not measured, oversubscribed, ...) */
};

struct detect_params {
	double tolerance;          /* bandwidth: 0 < t < 1 */
	double latency_tolerance;  /* latency: 0 < t < 1 (links differ in hops, not in width) */
	double z_threshold;        /* > 0 */
	int min_class_links;       /* fewer judged links: the class is not judged link by link */
	int min_hosts;             /* fewer hosts with links in a class: no host-level test (b) */
	int min_host_links;        /* rule (b) judges only hosts with this many links in the class */
	double host_majority;      /* rule (a): fraction of a host's links */
	double mad_floor_fraction; /* MAD' >= log(1 + this) */
	double latency_floor_us;   /* MAD' >= log(1 + this / median) for latency */
	/* classify.h, step 2c: a first pass's screen for a host's row or column (0: none) */
	double screen_z;
};

struct detect_suspect {
	enum detect_kind kind;
	enum detect_metric metric;
	enum detect_locality locality;
	int a, b;           /* link: the ranks a -> b; host: -1 */
	int host_a, host_b; /* link: their hosts; host: -1 */
	int host;           /* host: its index; link: -1 */
	bool rail;          /* host: named as one of its NICs, rank rail_rank's (rails.h) */
	int rail_rank;
	double measured;    /* link: its value; host: the median of its links in the class */
	double expected;    /* the class median (host rule (b): the median of the hosts' medians) */
	double ratio;       /* measured / expected */
	double score;       /* the modified z-score (of logs) the decision used */
	int links_suspect, links_total; /* host: of its judged links in the class */
	bool by_majority;               /* host: named by rule (a) */
	bool confirmed;                 /* set by detect_confirm */
	int retest_misses; /* retest.h: re-test rounds that did not find it again */
	enum detect_direction direction;
	bool between_hosts; /* link: all rank pairs of host_a and host_b (a, b: -1) */
	int side;           /* segment: its row of detect_result.sides; else -1 */
	bool loaded;        /* found in the shift pattern, not in isolated pairs */
	/* the first pass's figures of what detect_confirm confirmed (NAN before) */
	double first_measured, first_ratio, first_score;
	/* scheduler.h: a rank link's share of time its ranks waited for a core (NAN: not
	 * known), and whether that share explains it (then it is not confirmed) */
	double cpu_wait_fraction;
	bool scheduler_cleared;
	/* traffic.h: what else the NICs of its re-tested pairs carried, in GB/s (NAN:
	   not known), and whether that explains it (then it is not confirmed) */
	double other_traffic_gbps;
	/* the most one of those pairs had in its way (NAN: not known): whether any did, which
	   asks traffic_clear_cells to judge it again on the room matrix */
	double other_traffic_most_gbps;
	bool traffic_cleared;
	/* alone.h: a link of the shift pattern whose pair alone runs within its class */
	bool alone_cleared;
	/* segment_links.h: a link across a confirmed segment's cut, at the segment's level */
	bool segment_cleared;
};

struct detect_class {
	enum detect_locality locality; /* what detect_tolerance it is judged with */
	int links;          /* judged links with a finite value */
	double median, mad; /* of the values; NAN when links = 0 */
	double log_mad;     /* the MAD of their logs, floored: the z-score's unit */
	bool judged;        /* links >= min_class_links */
	int hosts;          /* hosts with judged links in the class */
	bool hosts_judged;  /* min_hosts hosts with min_host_links links or more */
};

/*
 * What detect_run (and classify_hosts) found. suspects and sides are owned:
 * detect_result_release frees them. sides holds nsides rows of nhosts
 * entries: 0 on side a of a segment, 1 on side b, -1 on neither.
 */
struct detect_result {
	struct detect_class classes[DETECT_METRICS][DETECT_LOCALITIES];
	int nsuspects;
	struct detect_suspect *suspects;
	int nhosts, nsides;
	signed char *sides;
};

/* tolerance 0.1 (latency 0.3), z 3.5, 6 links per class, 3 hosts, majority 0.5, floors 0.02 and 0.05 us. */
void detect_params_default(struct detect_params *p);
void detect_result_init(struct detect_result *r);
void detect_result_release(struct detect_result *r);
/* How many suspects of r are confirmed. */
int detect_confirmed_count(const struct detect_result *r);

/*
 * The names of the enums, in their order and NULL-terminated: the one table
 * each that the reports' strings come from (reports/io/schema_table.h) and
 * that readers map back with detect_*_parse.
 */
extern const char *const detect_locality_names[DETECT_LOCALITIES + 1];
extern const char *const detect_metric_names[DETECT_METRICS + 1];
extern const char *const detect_kind_names[DETECT_KINDS + 1];
/* "same_numa", "same_host", "cross_host"; "bandwidth", "latency"; "link", "host", "segment". */
const char *detect_locality_name(enum detect_locality l);
const char *detect_metric_name(enum detect_metric m);
const char *detect_kind_name(enum detect_kind k);
/* The enum named name into *out: 0, or -1 (*out unchanged) for an unknown or NULL name. */
int detect_locality_parse(const char *name, enum detect_locality *out);
int detect_metric_parse(const char *name, enum detect_metric *out);
int detect_kind_parse(const char *name, enum detect_kind *out);
/* "send", "receive", "both" for a host; "a->b", "b->a", "both" otherwise. */
const char *detect_direction_name(enum detect_kind k, enum detect_direction d);

/*
 * The tolerance of metric m in class loc: latency_tolerance, or for
 * bandwidth the tolerance, and inside a host at least
 * DETECT_INTRA_HOST_TOLERANCE: memory paths between cores differ by design
 * (SMT siblings, the chiplets of one socket), a structure the tolerance of
 * 10% across hosts was not measured against; 30% is what it was before.
 */
#define DETECT_INTRA_HOST_TOLERANCE 0.3
double detect_tolerance(const struct detect_params *p, enum detect_metric m,
                        enum detect_locality loc);

/*
 * The smallest slowdown a link of class cls would have been named for, as a
 * fraction: bandwidth below (1 - s) x the median, latency above (1 + s) x.
 * Both tests of the detector must pass: s is the larger of the tolerance's
 * (detect_tolerance, for cls->locality) and the z-score's (z_threshold MADs
 * of the class's logs). NAN when the class is not judged.
 */
double detect_sensitivity(const struct detect_class *cls, enum detect_metric m,
                          const struct detect_params *p);

/*
 * Does link k run one of host or link suspect s's slow ways? A host's out
 * (send) or in (receive), of its rail's rank for a rail; a link's a -> b
 * (DIR_AB, from host_a or rank a), b -> a, or both. Class and judgement
 * aside; false for a segment.
 */
bool detect_link_in_way(const struct detect_suspect *s, const struct detect_link *k);

/* Is k judged in class loc, with a value (what a suspect of that class may be measured by)? */
bool detect_link_usable(const struct detect_link *k, enum detect_locality loc);

/*
 * Do hosts ha and hb sit on the two sides of a cut (sides: nhosts entries, 0
 * or 1, -1 for a host on neither)? False without sides or for a host out of range.
 */
bool detect_sides_cross(const signed char *sides, int nhosts, int ha, int hb);

/* A segment's row of sides (nhosts entries), or NULL. */
const signed char *detect_sides(const struct detect_result *r, const struct detect_suspect *s);

/*
 * Judges links[0 .. n-1] on metric and appends what it finds to r (classes
 * of that metric are overwritten; suspects of other metrics are kept).
 * Host suspects come first, then links, the worst first. Returns 0, or -1
 * for bad arguments or no memory (r then holds what it held before).
 */
int detect_run(const struct detect_link *links, size_t n, int nhosts, enum detect_metric metric,
               const struct detect_params *p, struct detect_result *r);

/*
 * The unordered pairs to measure again before anyone is accused: adds to
 * pairs (ranks under nranks) every suspect link and every
 * judged link of a suspect host in the suspect's class or of a link between
 * hosts (a segment's: retest_plan, retest.h). links and n are those given to detect_run. At
 * most max_per_suspect pairs of each suspect (0: all) are marked: a host's
 * slowest link in its direction (the lowest value), then the others evenly
 * spaced, so a host named on one slow link is told from it by the re-test;
 * of the suspects of the shift pattern (loaded) only links mark theirs (what
 * alone.h asks of them: fine alone, measured alone, as the re-tests measure
 * pairs; the campaign's seed 3 named a healthy link h5 -> h2 under the shift,
 * its pair at 0.81x in the first pass's rounds under CPU burners and never
 * measured alone). Returns the number of pairs newly marked, or -1 when out
 * of memory.
 */
int detect_remeasure_pairs(const struct detect_result *r, const struct detect_link *links, size_t n,
                           int nranks, int max_per_suspect, struct pair_set *pairs);

/*
 * Do two segments (each of its own result) name the same cut: sides that
 * agree, in one orientation, on every host both name, with a host of each
 * side in common? A re-test that measured a few of a segment's pairs draws
 * its cut over fewer hosts.
 */
bool detect_same_segment(const struct detect_result *x, const struct detect_suspect *sx,
                         const struct detect_result *y, const struct detect_suspect *sy);

/*
 * The suspect of first that accused what s (a suspect of second) accuses: the
 * same kind, metric, class, pattern and link, host pair, host or segment
 * cut (detect_same_segment); a rank link also by naming one of its hosts,
 * a segment by a host on one of its sides or a link (of ranks or hosts) across
 * its cut. NULL: none.
 */
const struct detect_suspect *detect_accused_before(const struct detect_result *second,
                                                   const struct detect_suspect *s,
                                                   const struct detect_result *first);

/*
 * After the pairs have been measured again and detect_run has judged the new
 * values into second: marks confirmed every suspect of second that first
 * also accused (same kind, metric, class and link, host pair, host or
 * segment sides) and whose links were measured again (pairs, as filled by
 * detect_remeasure_pairs; a rank link only). The first pass's figures go into
 * first_measured, first_ratio and first_score. Returns the number confirmed.
 * A suspect of first that is not confirmed was noise.
 */
int detect_confirm(struct detect_result *second, const struct detect_result *first,
                   const struct pair_set *pairs);

/*
 * The reason of a suspect in words, e.g. "bandwidth 1.20 GB/s is 0.21x the
 * same_numa median 5.61 GB/s (z -14.2)" or "host h3: 6 of 6 cross_host links
 * at 0.14x the median (bandwidth)"; a segment or a link between hosts: its
 * cells against the reference. host_names may be NULL ("host N").
 * Returns the length snprintf would write.
 */
int detect_describe(const struct detect_suspect *s, const char *const *host_names, char *buf,
                    size_t len);

#endif
