/*
 * Private to the links run (links_run.c, links_screen.c): the state of one
 * run. Commands include cmd/run/run.h only.
 */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_RUN_LINKS_RUN_H
#define COLLSCOPE_CMD_RUN_LINKS_RUN_H

#include "cmd/links_opts.h"
#include "cmd/run/run.h"
#include "probes/p2p.h"
#include "probes/topology.h"
#include "probes/plan.h"
#include "reports/diagnose/classify.h"
#include "reports/diagnose/retest.h"

/*
 * The plan of a links run: the pattern in force, the pairs of each round,
 * the phases' time budgets after --budget, and the rounds kept free for
 * follow-up and re-tests. Pure (links_screen.c): --plan-only builds it
 * without MPI.
 */
struct links_plan {
	enum links_pattern pattern;
	struct probe_plan plan;
	struct probe_link_opts probe;
	int reserve_rounds;
	int fit_rounds; /* of the plan's rounds, those that fit the budget */
};
int links_plan_make(const struct links_opts *o, int nranks, int nhosts, const int *host_of_rank,
                    struct links_plan *out);
void links_plan_release(struct links_plan *p);
/* The plan's lines ("# plan: ..."), and the shift's steps when it runs; as snprintf. */
int links_plan_text(const struct links_plan *p, double budget_s, char *buf, size_t len);

struct links_run {
	const struct cmd_ctx *ctx;
	const struct links_opts *o; /* &eff */
	struct links_opts eff;      /* the options in force: the pattern chosen, --budget applied */
	struct links_plan plan;     /* which pairs each round */
	bool plan_ready;
	double start_s, deadline_s; /* MPI_Wtime at the start; with --budget, the end (else 0) */
	int rounds_run, followup_rounds;
	bool stopped_by_budget;
	struct report_context c;
	struct topo_map map;
	struct probe_links probe;
	bool probe_ready;
	struct link_record *mine;      /* nranks: this rank's row, mine[b] = rank -> b */
	struct link_table table;       /* rank 0: the measured records (links_gather_rows) */
	struct shift_cell *shift_mine; /* nranks: this rank's cells of the shift pattern */
	struct shift_cell *shift_all;  /* rank 0: nranks x nranks, when the shift ran */
	double *cells;                 /* rank 0: nhosts x nhosts, the classifier's input */
	struct classify_info info_pairs[2], info_shift[2]; /* of the first pass, the final one */
	bool shift_retested;
	const char **host_names;    /* rank 0: nhosts, into c.hosts */
	bool *host_judged;          /* rank 0: nhosts */
	struct pair_set pairs;      /* rank 0: the pairs measured again, as detect.h marks them */
	struct detect_link *dlinks; /* rank 0: scratch of the detector */
	struct detect_result first, final;
	struct detect_result standing; /* rank 0: what every re-test round so far confirmed */
	bool has_standing;             /* a round narrowed the suspects: final is matched to standing */
	/* rank 0: the standing before the last narrowing, and what the last round was planned
	   from (first, standing or previous): its pairs name its segments by their index there */
	struct detect_result previous;
	const struct detect_result *planned;
	int remeasured, retest_rounds;
	struct retest_pair *retested; /* rank 0: the last re-test round's pairs measured */
	int nretested;
	int retest_limit; /* LINKS_RETESTS, and one more for each miss a suspect standing has */
	cJSON *root;               /* rank 0: the report, a skeleton until the verdict */
	struct run_partial report; /* writes the skeleton at the start and on a hang */
	links_outcome_fn hand;     /* inside another command: rank 0 hands it the verdict */
	void *hand_arg;
	links_print_fn print; /* the command alone: rank 0 prints the verdict with it */
};

/* links_run.c: a collective step's failure on any rank fails all (true), named by that rank. */
int links_step_failed(struct links_run *r, int rc, bool summarized, const char *what);
/* links_run.c: every row to rank 0; an exit code. */
int links_gather_rows(struct links_run *r);
/* links_run.c: this rank's samples of its pair into its row; false when out of memory. */
bool links_summarize(struct links_run *r, bool remeasured);
struct links_view links_view_of(const struct links_run *r);
/* links_run.c: every step of the shift pattern (probes/rounds.c), then the cells to rank 0. */
int links_measure_shift(struct links_run *r, bool again);
/*
 * links_run.c, rank 0: both metrics of the pairs judged into out by the
 * detector, the cross-host bandwidth by the classifier too (the detector's
 * verdicts it explains dropped), then the shift pattern's by the classifier;
 * pass 0 is the first, 1 the final. 0, or -1 when out of memory.
 */
int links_judge(struct links_run *r, struct detect_result *out, int pass);

/*
 * links_retest.c. links_remeasure: step 3, every suspect's pairs again
 * (retest_plan), up to LINKS_RETESTS rounds (one more for a suspect that
 * missed one), each only what still stands (retest.h), then the shift once
 * more; an exit code. links_judge_round: rank 0, the last re-test round
 * judged into out, the segments of planned (what the round was planned from:
 * its pairs name them by index) by their own steps (retest_judge_segments),
 * its hosts and links alone, then matched to accused: the number confirmed,
 * or -1 when out of memory.
 */
int links_remeasure(struct links_run *r);
int links_judge_round(struct links_run *r, const struct detect_result *planned,
                      const struct detect_result *accused,
                      struct detect_result *out);

/*
 * links_screen.c. links_choose: the plan for the job (r->map), the pattern
 * chosen and --budget applied into r->eff; every rank the same; an exit
 * code. links_measure_plan: the plan's rounds (probes/rounds.h), then the
 * rows gathered, then with screening the follow-up rounds; an exit code.
 * links_print_plan: rank 0 prints the plan (to stdout, or as progress
 * inside another command). links_coverage_of: rank 0, the report's coverage.
 */
int links_choose(struct links_run *r);
int links_measure_plan(struct links_run *r);
void links_print_plan(const struct links_run *r, bool to_stdout);
struct links_coverage;
void links_coverage_of(const struct links_run *r, struct links_coverage *out);
/* Rank 0, after the verdict: one line of coverage when screening or a budget shaped the run. */
void links_print_coverage(const struct links_run *r);

#endif
