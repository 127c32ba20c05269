/* `collscope links`: its options (links_opts.c, pure), the run (links.c), stdout (links_print.c).
 */
#ifndef COLLSCOPE_CMD_LINKS_OPTS_H
#define COLLSCOPE_CMD_LINKS_OPTS_H

#include "reports/diagnose/detect.h"
#include "cmd/opts.h"
#include "cmd/opts_common.h"
#include "probes/probe_opts.h"

/*
 * Which patterns run: pairs (the tournament over all ranks), mpiGraph's
 * shift, or both; screen: pairs measured by screening (probes/plan.h), so
 * LINKS_PAIRS | LINKS_SCREEN; auto: screen or pairs, decided for the job
 * (links_pattern_for).
 */
enum links_pattern {
	LINKS_PAIRS = 1,
	LINKS_SHIFT = 2,
	LINKS_BOTH = 3,
	LINKS_SCREEN = 4,
	LINKS_AUTO = 8,
};

/* At most this many pairs of one host, link or segment suspect are measured again. */
#define LINKS_RETEST_PAIRS 4
/* Re-tests a suspect must stand before it is accused, the last among them (reports/diagnose/retest.h). */
#define LINKS_RETESTS 5
/* Rounds a suspect may miss and still stand, each one more round for it (reports/diagnose/retest.h). */
#define LINKS_RETEST_MISSES 1

/* Testing only: the window times of the pair a-b multiplied by factor (0: off); b -1: a's
   pairs with every rank of another host (a slow NIC). */
struct links_test_slow {
	int a, b;
	double factor;
};

struct links_opts {
	struct probe_link_opts probe;
	int mode; /* enum probe_mode */
	enum links_pattern pattern;
	bool rails; /* --rails: screening pairs every rank with its partner host's of its position */
	struct detect_params detect;
	bool judge_oversubscribed, fail_on_suspect;
	bool keep_samples; /* every pair's raw samples in the report, not a bounded sample */
	double timeout_s; /* watchdog; 0 disables */
	double budget_s;  /* --budget: the whole run; 0 none */
	struct plan_opts planning; /* --plan-only: print the plan, measure nothing */
	struct cmd_out out;
	struct links_test_slow slow; /* --test-slow-link (testing only) */
};

extern const struct cmd_spec links_spec;

/*
 * --test-slow-link A:B:F (links and accept; testing only): the struct at the
 * option's offset, parsed and echoed. Ranks are checked against the job later.
 */
int links_parse_test_slow(const char *arg, void *base, const struct opt *o, char *why,
                          size_t len);
bool links_echo_test_slow(cJSON *cfg, const char *key, const void *base, const struct opt *o);
/* Its ranks against the job's: EXIT_OK, or EXIT_USAGE and "COMMAND: bad value ..." in err. */
int links_check_test_slow(const char *command, const struct links_test_slow *s, int nranks,
                          char *err, size_t len);

/* The options of the measurement itself (struct probe_link_opts), which accept shares. */
enum { LINKS_PROBE_OPTS = 9 };
extern const struct opt links_probe_opts[LINKS_PROBE_OPTS];

/* "pairs", "shift", "both", "screen", "auto". */
const char *links_pattern_name(enum links_pattern p);

/*
 * The pattern that runs for a job whose ranks sit on hosts as host_of_rank
 * says: auto becomes screen when screening takes at most half the rounds
 * of all pairs (see links_opts.c), else pairs; others stay.
 */
enum links_pattern links_pattern_for(enum links_pattern p, int nranks, int nhosts,
                                     const int *host_of_rank);

/* --plan-only with --hosts runs without MPI. */
bool links_needs_mpi(const void *opts);

#endif
