/*
 * `collscope accept`: its options (accept_opts.c, pure), the modes without
 * MPI (accept.c) and the measuring one (accept_run.c).
 */
#ifndef COLLSCOPE_CMD_ACCEPT_OPTS_H
#define COLLSCOPE_CMD_ACCEPT_OPTS_H

#include "cmd/opts.h"
#include "cmd/opts_common.h"
#include "cmd/links_opts.h"
#include "probes/probe_opts.h"

enum { ACCEPT_MAX_REPEATS = 100 };

struct accept_opts {
	const char *derive_out; /* --derive: write a spec derived from the reports */
	const char *check_spec; /* --check-spec: check one */
	double tolerance_pct;
	int repeats;          /* measuring: each check this many times */
	double budget_s;      /* measuring: --budget, the whole run's bound in seconds; 0: none */
	struct plan_opts planning; /* --plan-only: what SPEC would run and cost, nothing measured */
	const char *junit;    /* measuring: JUnit XML here */
	double timeout_s;     /* measuring: the watchdog's */
	struct probe_link_opts links_probe; /* measuring: how the links check measures */
	struct links_test_slow test_slow;   /* --test-slow-link: testing only */
	struct cmd_out out;   /* measuring: -o; --derive writes derive_out; --force, -q both */
	struct opt_args args; /* measuring: SPEC; --derive: the known-good reports */
};

/* Measuring against a spec runs under MPI; --derive, --check-spec and --plan-only --hosts do not. */
bool accept_needs_mpi(const void *opts);

/* `accept_spec` is the spec itself (reports/accept/accept_spec.h); this is the command's table. */
extern const struct cmd_spec accept_cmd_spec;

#endif
