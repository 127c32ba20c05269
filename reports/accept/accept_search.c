/*
 * accept's verdicts on the culprit searches (see accept_verdict.h): what a
 * search found, copied from the state machine (accept_bisect.h), each
 * host's verdict from its own checks and the searches, and whether a failed
 * run is INCONCLUSIVE (only job-wide failures whose searches found noise).
 */
#include "reports/accept/accept_verdict.h"

#include <stdlib.h>

int accept_verdict_add_isolation(struct accept_verdict *v, size_t result,
                                 const struct accept_bisect *b)
{
	struct accept_isolation *grown, *iso;
	size_t n = v->nhosts > 0 ? (size_t)v->nhosts : 1;

	if (result >= v->nresults || b->nhosts != v->nhosts)
		return -1;
	grown = realloc(v->isolations, (v->nisolations + 1) * sizeof *grown);
	if (!grown)
		return -1;
	v->isolations = grown;
	iso = &v->isolations[v->nisolations];
	*iso = (struct accept_isolation){
	    .result = result, .tests = accept_bisect_tests(b), .ngroups = b->ngroups};
	iso->role = malloc(n * sizeof *iso->role);
	iso->group = malloc(n * sizeof *iso->group);
	iso->reason = malloc(n * sizeof *iso->reason);
	iso->evidence = malloc(n * sizeof *iso->evidence);
	if (!iso->role || !iso->group || !iso->reason || !iso->evidence) {
		free(iso->role);
		free(iso->group);
		free(iso->reason);
		free(iso->evidence);
		return -1;
	}
	for (int h = 0; h < v->nhosts; h++) {
		iso->role[h] = accept_bisect_role(b, h);
		iso->group[h] = accept_bisect_group_of(b, h);
		iso->reason[h] = accept_bisect_group_reason(b, h);
		iso->evidence[h] = *accept_bisect_evidence(b, h);
	}
	v->nisolations++;
	return 0;
}

void accept_host_verdict(const struct accept_verdict *v, int host, struct accept_host_verdict *out)
{
	*out = (struct accept_host_verdict){.status = ACCEPT_PASS};
	for (size_t i = 0; i < v->nresults; i++) {
		const struct accept_result *r = &v->results[i];
		if (r->host != host || r->status == ACCEPT_PASS)
			continue;
		if (r->status == ACCEPT_INCONCLUSIVE) {
			out->unconfirmed_own = true;
			out->unconfirmed_faults |= 1u << r->fault;
		} else {
			out->failed_own = true;
			out->own_faults |= 1u << r->fault;
		}
		if (r->status > out->status)
			out->status = r->status;
	}
	for (size_t i = 0; i < v->nisolations; i++) {
		const struct accept_isolation *iso = &v->isolations[i];
		if (iso->role[host] == ACCEPT_ROLE_CULPRIT) {
			out->isolated = true;
			out->isolated_faults |= 1u << v->results[iso->result].fault;
			out->status = ACCEPT_FAIL;
		}
		out->not_isolated |= iso->role[host] == ACCEPT_ROLE_NOT_ISOLATED;
		out->inconclusive |= iso->role[host] == ACCEPT_ROLE_INCONCLUSIVE;
	}
	/* suspected on noise only: neither a pass nor a failure of the host */
	if (out->inconclusive && out->status == ACCEPT_PASS)
		out->status = ACCEPT_INCONCLUSIVE;
}

enum accept_search_verdict accept_search_verdict(const struct accept_verdict *v, size_t i)
{
	const struct accept_isolation *iso = &v->isolations[i];
	bool culprit = false, inconclusive = false;

	for (int h = 0; h < v->nhosts; h++) {
		culprit |= iso->role[h] == ACCEPT_ROLE_CULPRIT;
		inconclusive |= iso->role[h] == ACCEPT_ROLE_INCONCLUSIVE;
	}
	if (culprit)
		return ACCEPT_SEARCH_ISOLATED;
	if (inconclusive)
		return ACCEPT_SEARCH_INCONCLUSIVE;
	return iso->ngroups ? ACCEPT_SEARCH_NOT_ISOLATED : ACCEPT_SEARCH_NOBODY;
}

const char *accept_search_verdict_name(enum accept_search_verdict s)
{
	static const char *const names[] = {"isolated", "inconclusive", "not isolated",
	                                    "nobody named"};
	return s >= 0 && s <= ACCEPT_SEARCH_NOBODY ? names[s] : "unknown";
}

/* The search of results[i] (of its point: one search covers its busbw and p99), or NULL. */
static const struct accept_isolation *search_of(const struct accept_verdict *v, size_t i)
{
	const struct accept_result *r = &v->results[i];

	for (size_t k = 0; k < v->nisolations; k++) {
		const struct accept_result *s = &v->results[v->isolations[k].result];
		if (v->isolations[k].result == i ||
		    (r->kind == ACCEPT_ALLREDUCE && s->kind == ACCEPT_ALLREDUCE &&
		     s->index == r->index && s->host < 0 && r->host < 0))
			return &v->isolations[k];
	}
	return NULL;
}

bool accept_verdict_inconclusive(const struct accept_verdict *v)
{
	bool any = false;

	for (size_t i = 0; i < v->nresults; i++) {
		const struct accept_result *r = &v->results[i];
		const struct accept_isolation *iso;
		if (r->status == ACCEPT_PASS)
			continue;
		if (r->status == ACCEPT_INCONCLUSIVE) { /* a host's, not reproduced */
			any = true;
			continue;
		}
		if (r->host >= 0 || !(iso = search_of(v, i)) ||
		    accept_search_verdict(v, (size_t)(iso - v->isolations)) !=
		        ACCEPT_SEARCH_INCONCLUSIVE)
			return false;
		any = true;
	}
	return any;
}
