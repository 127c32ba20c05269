/*
 * The job of accept's unit tests: hosts h0, h1, ... of 2 ranks each (2 cores,
 * 1 NUMA node), ranks 2h and 2h + 1 on host h, set into fresh figures.
 */
#ifndef COLLSCOPE_ACCEPT_FIXTURES_H
#define COLLSCOPE_ACCEPT_FIXTURES_H

#include "reports/accept/accept_figures.h"
#include "reports/accept/accept_verdict.h"

enum { FX_ACCEPT_MAX_HOSTS = 16 };

/* f initialised, with nhosts (at most FX_ACCEPT_MAX_HOSTS) such hosts; fails the test else. */
void fx_accept_hosts(struct accept_figures *f, int nhosts);

/* The result of label on host (-1: the job); fails the test when there is none. */
const struct accept_result *fx_result(const struct accept_verdict *v, const char *label, int host);

#endif
