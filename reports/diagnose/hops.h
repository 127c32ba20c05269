/*
 * Slow-hop attribution from the per-step traces of one all-reduce point
 * (issue 14). Pure: no MPI, no I/O.
 *
 * Input: every rank's steps of the timed iterations of one (variant, size),
 * their times on one clock (the gather moves each rank's onto rank 0's,
 * algorithms/trace_gather.h). A step posts its receive and its send at
 * start_us, its receive is complete at recv_done_us, reduced at reduced_us.
 *
 * Messages. MPI delivers the messages of one sender to one receiver in the
 * order they were sent, so within an iteration the i-th step of rank a that
 * sends to b and the i-th step of b that receives from a are the two ends of
 * one message. They are paired from the last one backwards, so a rank whose
 * oldest steps fell out of its trace ring still pairs what remains; pairs
 * whose counts differ are counted as unmatched.
 *
 * What a hop alone explains. Waiting propagates: in a ring every rank waits
 * for its predecessor, which waited for its own, so a receiver's wait is
 * mostly the lateness of everyone upstream, and blaming the hop with the
 * longest waits accuses the ranks downstream of the slow one. A message from
 * a to b can only move once a has posted it (start_us of a's step) and b
 * waits for it (start_us of b's step); whatever b waits past the later of the
 * two is the transfer itself, which only the hop a -> b explains:
 *     transfer = recv_done_b - max(start_a, start_b)   (at least 0)
 * This is the receive's wait minus what the sender was late by. A hop
 * downstream of a slow one starts late on both ends and gets its own
 * transfer time only; a hop whose data had arrived before its receiver
 * looked gets 0 (its receiver was the slow party, not the hop).
 *
 * Hops. A hop's messages are compared with the messages of the same size
 * (their "class": the ring's segments, a Rabenseifner step's halves): each
 * message's transfer over the median transfer of its class, and the hop's
 * value is the median of that over its messages (every iteration, every
 * step). hop_time_us is the median transfer of its messages and wait_us the
 * median wait its receiver saw (before attribution), for the reader.
 * Hops are judged only against hops of the same locality (same host, across
 * hosts) when the hosts are known, as links are (detect.h), and only hops
 * whose receivers waited on them: one charged under min_wait_fraction of
 * its locality's median hop had its data there whenever its receiver
 * looked (the receiver was held up elsewhere, like the one before a slow
 * hop, by its own send), which tells nothing of its link, so it is neither
 * judged nor a reference. In a class of at least min_hops such hops, each
 * is judged against the others: with m the
 * median of the others' log values and s the median distance above m of
 * those above it (floored at log(1 + mad_floor_fraction)), its ratio is
 * v / exp(m), its score the modified z 0.6745 (log v - m) / s, and
 * median_hop_us the median hop_time_us of the others. A hop is slow when its
 * score is at least z_threshold (whose unit, the measured spread floored at
 * 5%, asks a ratio of 1.3 at least: no fixed bar on the ratio besides), or it
 * was the slowest of its class in more iterations than chance allows
 * (consistency_p at most consistency_alpha: a loose class hides a hop 1.2-1.5x
 * its peers from the score, not from this), or its
 * value min_ratio times the largest of the others' (with 2 or 3 others a spread is
 * one ratio between them, too loose a yardstick on a busy machine; a hop
 * past all of them by that much stands out whatever it is), its
 * hop_time_us exceeds the others' median by min_excess_us, and that excess,
 * over its messages of an iteration, is at least min_share of an
 * iteration's time (share): a hop that costs the all-reduce little is not
 * its problem. (On the virtual cluster the receiver of a link slowed 50x is
 * slower to progress its own send to its neighbour: 20x that hop's peers,
 * 2 % of an iteration; a rank starved of a core for a while, 10-20 %; the
 * slow link, over 90 %. In a ring a hop 2x slower than the others holds up
 * every step: half of an iteration.) Leaving the hop
 * out keeps a slow hop from widening its own yardstick, which with the 4
 * cross-host hops of a ring over 4 hosts matters; taking the spread from
 * above keeps the fast tail from widening it. Equal hops name nothing, a loose class (half of it 3x
 * the other half) accuses nobody, and microsecond noise accuses no one. Two slow hops among 4 are
 * not told from the other two: a host slowed both ways in a ring of 2 ranks per host is a case for
 * `links`.
 *
 * Suspects, measured again (issue 39). In a ring a hop r times slower than
 * its peers holds up every step, so its share is about (r - 1) / r: the
 * quarter of min_share asks r >= 1.33, and a link 20-35% slower (a hop
 * 1.2-1.4x) stays under it, though its score or its iteration wins single
 * it out. Lowering the bar on one run would name what a core's stall does
 * to a hop for a while (10-20% of an iteration), so such a hop, past the
 * score or the wins test, with the excess and at least retest_share of an
 * iteration, is a suspect: the caller measures the point again (retests
 * times, close together) and names it only when every re-measurement finds
 * the same hop again (hops_retest, hops_name_confirmed).
 * A stall moves from run to run; a slow link does not.
 *
 * Ranks. A slow hop means the link a -> b or the progress of a send there.
 * When more than half of a rank's hops (in and out, at least 2) are slow, the
 * rank is named instead ("hops": its network interface or its progress is
 * slow both ways) and its hops are not listed apart. A rank that is slow at
 * its own work (a throttled core, or one doing other work) delays its sends, which the
 * attribution above takes away from its hops, so it is judged on its
 * reduction rate: bytes reduced per second of reduce time (reduce_busy_us,
 * its time on the core, where known: on 2 cores shared by 5 ranks the wall
 * time reduced_us - recv_done_us was 0.5-1.5x between clean ranks, and a rank
 * 35% slower at its work stood at 0.94-1.64x; on the core, 0.77-1.21x, and a
 * rank 90% slower 2.0-2.1x (reduce_timed.h); a rank that waits for a core is
 * no slower at its work). Else reduced_us - recv_done_us of its reduce
 * steps: a step whose two times are equal
 * copied), the median over iterations, each rank against the others
 * ("reduce"). It is named at once with the hops' ratio, z, excess and share
 * tests. Short of them, it is a suspect when that rate is reduce_min_ratio
 * (1.25) or more below the others' median, its reduce time per iteration
 * min_excess_us above theirs (microsecond differences are the caches' and the
 * clock's: at 64 KiB on 4 ranks sharing 2 cores a clean rank reduced 1.6x
 * slower in 13-17 of 20 iterations, 1-2 us), and it stands out: its score passes
 * z_threshold, or its rate is min_ratio below every other's, or it reduced
 * slowest of all ranks in more iterations than chance allows at
 * reduce_suspect_alpha (consistency_p, as the hops' wins test, over every
 * rank: 0.05, as the re-tests guard the name; at the hops' 0.001 the first
 * pass suspected 2 of 8 reducers 35-50% slow on 5 namespace hosts with 10
 * iterations, their scores 0.8-2.2 and chances 0.004-1 on a cluster whose
 * ranks share 2 cores); the point is measured again as for a hop suspect,
 * and the rank is named when every re-measurement finds it again, as slow
 * and with the one-rank test at confirm_alpha (hops_retest). A re-test that
 * asked the first pass's bar again (a search over every rank) named 2 of 22
 * reducers 5-90% slow on the campaign's seed 3, against 8 of 22 with no
 * re-test. On the campaign's first run of this rule without re-tests it named
 * a healthy rank in 6 of 124 traced draws, one with no load at all: one
 * point's 10 iterations are not enough. No share of the iteration is asked, as
 * it is of a hop: where the network is slow the reductions are a sliver of
 * the all-reduce (on namespace hosts at 300 Mbit/s, 0.1-0.5% of a 1 MiB
 * ring's iteration), yet
 * a core 1.5x slower at its own work slows the training step's compute as
 * much; the share is reported. Measured on 5 such hosts, one rank each, 1 MiB,
 * 10 iterations, idle and under 2 CPU burners (2026-12-06): 20 clean ranks
 * reached ratio 1.18 and score 2.1 at most, chance 0.6 at least; a rank whose
 * reductions were made 35% slower (COLLSCOPE_FAULT=compute) stood at 0.94-1.64x,
 * one 90% slower at 1.65-2.19x. Ranks that reduce nothing (naive's leaves)
 * are not judged. Tried and dropped (2026-12-06): a re-test that found the
 * rank 1.25x slower without the score or the wins, its wins pooled over the
 * re-tests at 0.01. On seed 5's 55 traced draws it found 18 of 45 slow
 * reducers against 12 (7 of 7 at 90%), but named a healthy rank twice under
 * load (a clean draw beside a stream at 0.05, another rank beside a fault at
 * 0.01): under load a rank stays slower for seconds, its iterations and
 * points are not independent, and no wins count says so.
 */
#ifndef COLLSCOPE_HOPS_H
#define COLLSCOPE_HOPS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One step of one rank, on a common clock. */
struct hops_step {
	int rank;
	int64_t iteration;
	int step;
	int half;                 /* enum trace_half (algorithms/trace.h): 0 none, 1 RS, 2 AG */
	int send_peer, recv_peer; /* -1: none */
	uint64_t send_bytes, recv_bytes;
	double start_us, recv_done_us, reduced_us, end_us;
	double reduce_busy_us; /* the reduction's time on the core (trace.h); 0: not known */
};

struct hops_params {
	double min_ratio;          /* 2: past the slowest other (the dominant path) */
	double z_threshold;        /* 3.5 */
	double min_excess_us;      /* 20 */
	double min_share;          /* 0.25 of an iteration's time */
	double floor_us;           /* 1: transfers below count as this (their logs stay finite) */
	double mad_floor_fraction; /* 0.05 */
	double min_wait_fraction; /* 0.1: hops charged less than this x the median are not judged */
	int min_hops;             /* 3 hops per locality to judge it */
	int min_ranks;            /* 3 reducing ranks to judge reduction rates */
	double consistency_alpha; /* 1e-3: a hop the slowest of its class in more iterations
	                             than chance allows at this level is slow (see below) */
	double retest_share;      /* 0.1: a suspect's least share (see "Suspects") */
	double confirm_alpha;     /* 0.05: a re-measurement's wins test of the one suspect */
	int retests;              /* 2: re-measurements a suspect must pass to be named */
	double traffic_tolerance; /* 0.1: other traffic explains a hop within this (see below) */
	double reduce_min_ratio;  /* 1.25: a rank named for its reductions is this much slower */
	double reduce_suspect_alpha; /* 0.05: a slower reducer's consistency_p to be a suspect */
};

enum hops_locality { HOPS_SAME_HOST, HOPS_CROSS_HOST, HOPS_ANY /* hosts not known */ };

struct hops_hop {
	int from_rank, to_rank;
	enum hops_locality locality;
	size_t messages;
	double hop_time_us; /* median attributed transfer of its messages */
	double wait_us;     /* median receive wait of its messages, before attribution */
	double value;       /* median of its messages' transfer / their class's median */
	double
	    median_hop_us; /* median hop_time_us of the others of its locality; NAN if not judged */
	double ratio, score; /* value / the others' median value; modified z of its log value */
	double share; /* (hop_time_us - median_hop_us) x its messages per iteration / iteration */
	double consistency_p; /* chance of being its class's slowest hop in as many iterations
	                         as it was, were it no slower than its k peers (x k); NAN if not judged */
	double wins_p; /* the same for this one hop, not multiplied by k (hops_retest's test of the
	                  one hop under test: consistency_p / k is wrong once that is capped at 1) */
	bool waited;  /* charged at least min_wait_fraction of its locality's median hop */
	bool judged, slow;
	bool suspect;          /* past the evidence, under min_share: to be measured again */
	int retests;           /* re-measurements of the point while it was a suspect */
	int retests_confirmed; /* of them, those that found it slow or a suspect again */
	double message_bytes;  /* the median size of its messages */
	double other_traffic_gbps; /* its busier host's other traffic (hops_clear_traffic); NAN */
	bool traffic_cleared;      /* slow or a suspect, explained by that traffic */
};

enum hops_rank_reason { HOPS_RANK_HOPS, HOPS_RANK_REDUCE };

struct hops_rank {
	int rank;
	enum hops_rank_reason reason;
	int hops_slow, hops_total;              /* HOPS: of its hops, in and out */
	double reduce_gbps, median_reduce_gbps; /* REDUCE: its rate and the other ranks' median */
	double ratio, score; /* HOPS: its slow hops' largest; REDUCE: median / rate */
	double share; /* HOPS: its slow hops' shares, added; REDUCE: its excess reduce time's */
	int wins, ranked;     /* REDUCE: iterations it reduced slowest of all ranks, of those it reduced */
	double consistency_p; /* REDUCE: chance of as many wins, were it no slower than its peers */
	double wins_p;        /* REDUCE: the same for this one rank, not multiplied by the peers */
	int retests;           /* REDUCE: re-measurements of the point while it was a suspect */
	int retests_confirmed; /* of them, those that found it again */
};

/* What hops_analyse found; owned, hops_result_release frees it. */
struct hops_result {
	struct hops_hop *hops; /* every hop seen, by from_rank then to_rank */
	size_t nhops;
	size_t *named; /* indices into hops of the slow hops named, worst first */
	size_t nnamed;
	struct hops_rank *ranks; /* ranks named, worst first */
	size_t nranks;
	struct hops_rank *reducers;      /* every rank judged on its reductions, by rank */
	size_t nreducers;
	struct hops_rank *rank_suspects; /* slow reducers to be measured again (see "Ranks") */
	size_t nrank_suspects;           /* of them, those still standing come first */
	size_t nsuspects; /* hops with suspect set, and rank suspects standing */
	size_t messages;  /* paired */
	size_t unmatched; /* sends or receives left without a partner */
	size_t iterations;
	double
	    iteration_us; /* median span of an iteration, first step's start to last step's end */
};

/* ratio 2, z 3.5, excess 20 us, share 0.25, floor 1 us, MAD floor 0.05, wait 0.1, 3 hops, 3 ranks,
 * consistency 1e-3, suspects from a share of 0.1, 2 re-tests confirming at 0.05, traffic 0.1,
 * a slow reducer 1.25x, suspected at 0.05. */
void hops_params_default(struct hops_params *p);
void hops_result_init(struct hops_result *r);
void hops_result_release(struct hops_result *r);

/*
 * Attributes steps[0 .. n-1] of nranks ranks (peers and ranks in 0 ..
 * nranks-1) to hops and judges them. host_of_rank (nranks entries) may be
 * NULL: hosts unknown, one locality. Returns 0, or -1 for bad arguments or
 * no memory (r is then empty).
 */
int hops_analyse(const struct hops_step *steps, size_t n, int nranks, const int *host_of_rank,
                 const struct hops_params *p, struct hops_result *r);

/*
 * A re-measurement of the same point (again, from hops_analyse with the same
 * ranks and p) against first's suspects: each one's retests counts it, and
 * its retests_confirmed when again finds the same hop slow or a suspect, or
 * the slowest of its class in more iterations than chance allows at
 * confirm_alpha (one hop tested, not a search over its peers) with a
 * suspect's excess and share; a rank suspect, when again names the same rank
 * for its reductions or suspects it again, or finds its rate reduce_min_ratio
 * below the others' median again with a score past z_threshold or the slowest
 * reducer in more iterations than chance allows at confirm_alpha (one rank
 * tested: wins_p). A suspect not found again stops being one. Returns the
 * suspects left.
 */
size_t hops_retest(struct hops_result *first, const struct hops_result *again,
                   const struct hops_params *p);

/*
 * Names the suspects of r that passed at least min_retests re-measurements,
 * every one of them: slow, and among the named hops, worst first; a rank
 * suspect among the named ranks. Returns how many it named, or -1 with no
 * memory.
 */
int hops_name_confirmed(struct hops_result *r, int min_retests);

/*
 * Another job's traffic (issue 39). On a shared cluster a hop is slow when
 * another job's stream shares its sender's or its receiver's NIC: the link
 * is really slower for this run, but nothing is wrong with it (links clears
 * the same case, reports/diagnose/traffic.h). Every rank reads its host's
 * interface counters (probes/nic_bytes.h) around the traced point, and the
 * trace says what each rank itself sent and received across hosts in the
 * traced calls (own, hops_cross_host_bytes). Counted over own bytes is the
 * same factor on every host (the calls not traced, the frames' overhead)
 * unless someone else used the NIC, so with per the median of that factor
 * over the hosts:
 *     other_gbps[h] = max(0, counted[h] - per x own[h]) / wall_s / 1e9
 * (counted[h] the median of its ranks' readings, own[h] its ranks' sum).
 * Unknown (NAN for every host) when a reading is missing or fewer than 3
 * hosts move bytes across the network; NAN for a host that moves none.
 * Returns 0, or -1 for bad arguments or no memory.
 */
void hops_cross_host_bytes(const struct hops_step *steps, size_t n, const int *host_of_rank,
                           int nranks, double *own);
int hops_host_other_gbps(const double *counted, const double *own, const int *host_of_rank,
                         int nranks, int nhosts, double wall_s, double *other_gbps);
/*
 * Clears each slow hop or suspect across hosts whose busier end's other
 * traffic makes up its deficit, as links does: its rate (message_bytes /
 * hop_time_us) plus that traffic reaches (1 - traffic_tolerance) x its
 * peers' (message_bytes / median_hop_us). Such a hop is no longer slow nor a
 * suspect (traffic_cleared, other_traffic_gbps recorded), leaves the named
 * hops, and a rank named for its hops is named no longer once they are not
 * most of its hops (its hops still slow are then named apart). other_gbps
 * per host (indexed by host_of_rank); NAN: unknown, nothing cleared. A hop
 * that is slow and also shared stays named when the traffic does not make up
 * the difference. Returns how many it cleared, or -1 with no memory.
 */
int hops_clear_traffic(struct hops_result *r, const int *host_of_rank, const double *other_gbps,
                       const struct hops_params *p);

/*
 * Drops each rank suspect (a slow reducer) whose host carried another job's
 * traffic (other_gbps, as above) of at least traffic_tolerance x its own
 * ranks' cross-host bytes (own_bytes per rank, hops_cross_host_bytes) over
 * wall_s: the host's cores spend time on those packets (their interrupts and
 * copies), which slows its reductions with nothing wrong with its core. On
 * the campaign's 5 namespace hosts sharing 2 cores, 5 of 124 traced draws named
 * a healthy rank whose host received another job's stream at 30% of the link.
 * Returns how many it dropped.
 */
int hops_clear_busy_reducers(struct hops_result *r, const int *host_of_rank,
                             const double *other_gbps, const double *own_bytes, int nranks,
                             double wall_s, const struct hops_params *p);

/*
 * Drops each rank suspect whose wait for a core explains its slowness:
 * wait_share[q] the share of the point rank q waited in the run queue
 * (probes/cpu_wait.h; NAN unknown), w0 the median rank's; a suspect that
 * waited more than w0, with its ratio times (1 - its share) / (1 - w0) under
 * reduce_min_ratio, reduced slowly because it was off its core, as links'
 * scheduler rule reads a pair (scheduler.h), not because its core is slow. On
 * 4 ranks sharing 2 cores a clean traced ring named a rank reducing 2.2x
 * slower than the others in every iteration. Returns the ranks whose wait was
 * known (0 when there is no suspect: nothing is read), or -1 with no memory.
 */
int hops_clear_waiting_reducers(struct hops_result *r, const double *wait_share, int nranks,
                                const struct hops_params *p);

/* "same_host", "cross_host", "any"; "hops", "reduce". */
const char *hops_locality_name(enum hops_locality l);
const char *hops_rank_reason_name(enum hops_rank_reason r);

/*
 * Reporting (hops_report.c): a point's hops into its record, its findings
 * kept for the summary, and their lines of text.
 *
 * Names: per rank of the analysis (a communicator's), the rank the report
 * uses and its host; either may be NULL (the same rank; hosts unknown).
 */
struct hops_names {
	const int *report_rank;
	const char *const *host; /* borrowed; must outlive the findings */
};

/* Rank r (of the traced communicator) as the report names it, and its host (NULL: unknown). */
int hops_report_rank(const struct hops_names *nm, int r);
const char *hops_host_of(const struct hops_names *nm, int r);

/* One named hop or rank of one point, as the summary lists it. */
struct hops_finding {
	const char *algorithm; /* borrowed */
	uint64_t bytes;
	int ranks;
	bool is_rank;
	struct hops_hop hop;   /* !is_rank; from_rank and to_rank as the report numbers them */
	struct hops_rank rank; /* is_rank; rank likewise */
	const char *host_a, *host_b; /* of from and to (is_rank: host_a, its host); NULL unknown */
};

/*
 * Adds "trace" to the record rec: iterations, messages, unmatched, dropped,
 * iteration_us, clock_error_us, and hops [{from_rank, to_rank, hosts,
 * locality, messages, hop_time_us, wait_us, median_hop_us, ratio, score,
 * share, consistency_p, waited, slow, suspect, retests, retests_confirmed}]. NULL when out
 * of memory.
 */
cJSON *hops_point_to_json(cJSON *rec, const struct hops_result *r, const struct hops_names *nm,
                          double clock_error_us, size_t dropped);
/* The hops of rec's trace written again from r (after re-measuring its suspects). -1: no memory. */
int hops_point_update_json(cJSON *rec, const struct hops_result *r, const struct hops_names *nm);
/*
 * The same for a direct variant, whose calls have no steps: "trace" with
 * calls (per rank) and rank_call_us, each rank's median call.
 */
cJSON *hops_calls_to_json(cJSON *rec, const double *rank_call_us, int nranks, size_t calls,
                          double clock_error_us);

/* The named hops, then the named ranks, of r into out[0 .. max); returns how many. */
size_t hops_findings(const struct hops_result *r, const char *algorithm, uint64_t bytes, int ranks,
                     const struct hops_names *nm, struct hops_finding *out, size_t max);

/*
 * Adds to summary "slow_hops" [{algorithm, bytes, ranks, from_rank, to_rank,
 * hosts, locality, hop_time_us, median_hop_us, ratio, score, share, consistency_p,
 * retests_confirmed}] and
 * "slow_ranks" [{algorithm, bytes, ranks, rank, host, reason, hops_slow,
 * hops_total, reduce_gbps, median_reduce_gbps, ratio, score, share}]. -1 when out
 * of memory.
 */
int hops_findings_to_json(cJSON *summary, const struct hops_finding *f, size_t n);

/*
 * "slow hop: ring, 4194304 bytes: 3->4 (h2 -> h3) 10512.3 us per message,
 * 9.8x the median hop 1071.2 us (z 25.1)" or "slow rank: ...". Returns the
 * length snprintf would write.
 */
int hops_finding_describe(const struct hops_finding *f, char *buf, size_t len);

#endif
