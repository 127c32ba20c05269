/*
 * Which pairs of ranks `links` measures in each round, and what that costs
 * (issue 28). Pure: no MPI, no I/O.
 *
 * Every round is a matching: no rank is in two pairs, so a round's pairs run
 * at once. Two patterns:
 *   - pairs: the round-robin tournament over all ranks (tournament.h),
 *     N - 1 rounds (N odd: N), every unordered pair of ranks once.
 *   - screen: cross-host links host to host, through each host's first rank
 *     (one pair of ranks per host pair; with rails, every rank of a host with
 *     the rank of the same position on its partner, all at once: a host with
 *     a NIC per rank, as rail-optimised clusters are wired, has every rail
 *     measured), then intra-host links, every host
 *     at once. The cross-host rounds are matchings of hosts:
 *       1. recursive doubling: round k pairs host h with h XOR 2^k, for
 *          2^k < H; the hosts whose partner does not exist (H not a power of
 *          two) are paired among themselves, partners they have not met first;
 *       2. PROBE_PLAN_MATCHINGS random perfect matchings from a fixed seed
 *          (so every run, and --plan-only, plans the same pairs), each
 *          reshuffled a few times to avoid pairs met before.
 *     That is ceil(log2 H) + PROBE_PLAN_MATCHINGS rounds, and every host
 *     meets at least min(3, H - 1) distinct partners, both directions of
 *     each pair measured: a host slow in every one of its cells is told from
 *     a partner slow in one. When the host tournament (H - 1 rounds, H odd:
 *     H) is no longer, it is used instead: every host pair once.
 *     The intra-host rounds are the tournament over each host's ranks, all
 *     hosts at once (max ranks per host - 1 rounds; none with one rank each).
 *     Follow-up rounds (host matchings the search of
 *     reports/diagnose/screen_search.h chose) are appended after screening.
 */
#ifndef COLLSCOPE_PLAN_H
#define COLLSCOPE_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "probes/probe_opts.h"

enum probe_plan_pattern { PROBE_PLAN_PAIRS, PROBE_PLAN_SCREEN };

enum probe_round_kind {
	PROBE_ROUND_PAIRS,    /* a round of the tournament over all ranks */
	PROBE_ROUND_HOSTS,    /* screen: a round of the tournament over hosts */
	PROBE_ROUND_DOUBLING, /* screen: recursive doubling over hosts */
	PROBE_ROUND_RANDOM,   /* screen: a random perfect matching of hosts */
	PROBE_ROUND_FOLLOWUP, /* screen: hosts the follow-up search paired */
	PROBE_ROUND_INTRA,    /* screen: the tournament within every host */
	PROBE_ROUND_KINDS
};

/* Random matchings after recursive doubling, their seed, partners each host gets at least. */
#define PROBE_PLAN_MATCHINGS    2
#define PROBE_PLAN_SEED         28u
#define PROBE_PLAN_MIN_PARTNERS 3

struct probe_plan {
	enum probe_plan_pattern pattern;
	int nranks, nhosts;
	int *host_of_rank; /* nranks, a copy */
	int *local;        /* nranks: the rank's position among its host's ranks */
	int *host_size;    /* nhosts: its ranks */
	int *host_start;   /* nhosts + 1: host h's ranks are by_host[host_start[h] ..] */
	int *by_host;      /* nranks: the ranks sorted by host, then rank */
	int max_host_ranks;
	bool rails; /* screen: set after probe_plan_build (see the top); false: first ranks only */
	int cross_rounds;            /* screen: host matchings, screening and follow-up */
	int screen_rounds;           /* screen: of them, screening (the rest are follow-up) */
	int intra_rounds;            /* screen: the tournament within hosts */
	int cap;                     /* room in host_partner and kind, in host rounds */
	int *host_partner;           /* cap x nhosts: round r's partner of host h, -1 none */
	enum probe_round_kind *kind; /* cap */
};

/*
 * Builds the plan of pattern for nranks ranks on nhosts hosts
 * (host_of_rank[r] in 0 .. nhosts - 1, every host with a rank). Owns what it
 * allocates: probe_plan_release frees it. 0, or -1 for bad arguments or no
 * memory (then released).
 */
int probe_plan_build(struct probe_plan *p, enum probe_plan_pattern pattern, int nranks, int nhosts,
                     const int *host_of_rank);
void probe_plan_release(struct probe_plan *p);

/* The rounds planned so far (screening, follow-up, intra-host). */
int probe_plan_rounds(const struct probe_plan *p);
enum probe_round_kind probe_plan_kind(const struct probe_plan *p, int round);
/* "pairs", "hosts", "doubling", "random", "follow-up", "intra-host". */
const char *probe_round_kind_name(enum probe_round_kind k);

/* The partner of rank in round (0 <= round < rounds), or -1 (a bye, bad arguments). */
int probe_plan_partner(const struct probe_plan *p, int round, int rank);
/* The rank that stands for host h in the cross-host rounds: its first. */
int probe_plan_host_rank(const struct probe_plan *p, int h);

/*
 * Screen only: appends a follow-up round, host_partner[h] (nhosts, -1 none,
 * symmetric) inserted before the intra-host rounds, which keep their place
 * last. 0, or -1 (pairs pattern, asymmetric, no memory).
 */
int probe_plan_add_followup(struct probe_plan *p, const int *host_partner);

/* Rank pairs of round; distinct partners host h has met across hosts (screen). */
int64_t probe_plan_round_pairs(const struct probe_plan *p, int round);
int probe_plan_host_partners(const struct probe_plan *p, int h);

/* What a plan costs, before anything is measured. */
struct probe_plan_cost {
	int rounds;
	int64_t pairs;      /* unordered rank pairs measured (a pair met twice counts twice) */
	int64_t all_pairs;  /* N (N - 1) / 2: what --pattern pairs measures */
	int64_t host_pairs; /* unordered host pairs with a cross-host measurement */
	int min_partners;   /* the fewest distinct partners of a host across hosts */
	double bytes;       /* at most, every window of every phase full */
	double seconds;     /* estimated: every phase its time budget; NAN without budgets */
	double round_s;     /* of it, one round's */
};

/*
 * The estimated time of one round: its two ping-pong phases and three
 * bandwidth phases each at its time budget, plus PROBE_PLAN_ROUND_OVERHEAD_S
 * (barriers, sizing windows past the budget). NAN when a budget is 0 (the
 * counts decide, and the link's speed is not known before it is measured).
 */
#define PROBE_PLAN_ROUND_OVERHEAD_S 0.3
double probe_plan_round_seconds(const struct probe_link_opts *o);
void probe_plan_cost(const struct probe_plan *p, const struct probe_link_opts *o,
                     struct probe_plan_cost *out);

/*
 * --budget: the time budgets of o scaled down, never up, so that rounds
 * rounds fit in budget_s (reserve_rounds more are kept free for follow-up
 * and re-tests), each phase's budget at least PROBE_PLAN_MIN_PHASE_S.
 * Returns how many of the rounds fit at those times (rounds, when all do).
 */
#define PROBE_PLAN_MIN_PHASE_S 0.02

/*
 * The plan in lines a person reads, each starting "# plan: ", into buf
 * (NUL-terminated, cut to len): rounds by kind, pairs, bytes and time, the
 * budget's phase times, the follow-up and re-test allowance
 * (reserve_rounds), and the same figures for all pairs. Returns the length
 * snprintf would have written.
 */
int probe_plan_describe(const struct probe_plan *p, const struct probe_link_opts *o,
                        double budget_s, int reserve_rounds, char *buf, size_t len);
int probe_plan_fit(int rounds, int reserve_rounds, double budget_s, struct probe_link_opts *o);

#endif
