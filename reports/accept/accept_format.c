/*
 * accept's verdicts as text lines and as the JSON of the report (see
 * accept_verdict.h).
 */
#include "reports/accept/accept_verdict.h"
#include "reports/io/report_schema.h"

#include "reports/accept/accept_util.h"
#include "reports/render/junit.h"
#include "reports/render/report_text.h"
#include "reports/io/report_io.h"
#include "reports/stats/stats.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A host name as the lines show it: escaped (report_escape_text), at most 4 bytes a byte. */
#define NAME_SHOWN_BYTES (4 * CTX_NAME_BYTES)

/* The host's name as shown, or "job". */
static const char *who(const struct accept_verdict *v, int host)
{
	return host >= 0 && host < v->nhosts ? v->host_names[host] : "job";
}

/* "0.021 GB/s < min 8.8 GB/s", "3 hosts, expected 4", "not measured". */
static void figures(const struct accept_result *r, char *buf, size_t len)
{
	bool pass = r->status == ACCEPT_PASS && r->failed_repeats == 0;

	if (isnan(r->measured))
		snprintf(buf, len, "not measured");
	else if (strcmp(r->comparison, ">=") == 0)
		snprintf(buf, len, "%.4g %s %s min %.4g %s", r->measured, r->unit,
		         pass ? ">=" : "<", r->threshold, r->unit);
	else if (strcmp(r->comparison, "<=") == 0 && !isnan(r->threshold))
		snprintf(buf, len, "%.4g %s %s max %.4g %s", r->measured, r->unit,
		         pass ? "<=" : ">", r->threshold, r->unit);
	else {
		/* counted units: "1 suspect", "3 hosts" */
		int unit_len = (int)strlen(r->unit) - (r->measured == 1 ? 1 : 0);
		if (pass)
			snprintf(buf, len, "%.4g %.*s", r->measured, unit_len, r->unit);
		else
			snprintf(buf, len, "%.4g %.*s, expected %.4g", r->measured, unit_len, r->unit,
			         r->threshold);
	}
}

int accept_format_result(const struct accept_verdict *v, size_t i, char *buf, size_t len)
{
	const struct accept_result *r = &v->results[i];
	char fig[160], reps[64] = "", name[NAME_SHOWN_BYTES];
	const char *fault = r->status == ACCEPT_PASS ? "-" : accept_fault_name(r->fault);

	figures(r, fig, sizeof fig);
	if (v->repeats > 1 && r->failed_repeats)
		snprintf(reps, sizeof reps, "; failed %d of %d repeats", r->failed_repeats,
		         r->measured_repeats);
	else if (v->repeats > 1)
		snprintf(reps, sizeof reps, "; %d repeats", r->measured_repeats);
	report_escape_text(name, sizeof name, who(v, r->host));
	return snprintf(buf, len, "%-12s %-19s %-8s %s: %s%s%s%s%s", accept_status_name(r->status),
	                fault, name, r->label, fig, r->detail[0] || reps[0] ? " (" : "", r->detail,
	                reps, r->detail[0] || reps[0] ? ")" : "");
}

/* "h1, h2" of the hosts whose role in iso is role (and group, when >= 0), into buf. */
static void hosts_with(const struct accept_verdict *v, const struct accept_isolation *iso,
                       enum accept_role role, int group, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int h = 0; h < v->nhosts && used < len; h++) {
		char name[NAME_SHOWN_BYTES];
		if (iso->role[h] != role || (group >= 0 && iso->group[h] != group))
			continue;
		report_escape_text(name, sizeof name, v->host_names[h]);
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name);
	}
}

/* snprintf at buf + used, however full buf is; returns the new length snprintf would have. */
__attribute__((format(printf, 4, 5))) static size_t appendf(char *buf, size_t len, size_t used,
                                                            const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(used < len ? buf + used : NULL, used < len ? len - used : 0, fmt, ap);
	va_end(ap);
	return used + (n > 0 ? (size_t)n : 0);
}

/*
 * The robust spread of a suspect's evidence: 1.4826 x the median absolute
 * deviation of its figures from their own test's median (sub-test and
 * complement apart), pooled; NAN when there are none.
 */
double accept_evidence_spread(const struct accept_evidence *e)
{
	double dev[2 * ACCEPT_EVIDENCE_MAX], x[ACCEPT_EVIDENCE_MAX];
	size_t n = 0;

	for (int side = 0; side < 2; side++) {
		const double *fig = side ? e->c_figure : e->s_figure;
		size_t k = 0;
		double m;
		for (int r = 0; r < e->repeats; r++)
			if (isfinite(fig[r]))
				x[k++] = fig[r];
		if (k == 0)
			continue;
		m = stats_median(x, k);
		for (size_t j = 0; j < k; j++)
			dev[n++] = fabs(x[j] - m);
	}
	return n ? 1.4826 * stats_median(dev, n) : NAN;
}

/* "0.5, 0.5, 0.5" of the figures of one side of the evidence. */
static size_t figure_list(char *buf, size_t len, size_t used, const double *fig, int n)
{
	for (int r = 0; r < n; r++)
		used = isfinite(fig[r]) ? appendf(buf, len, used, "%s%.4g", r ? ", " : "", fig[r])
		                        : appendf(buf, len, used, "%snot measured", r ? ", " : "");
	return used;
}

/* "(its sub-test failed 3 of 3: ...; the complement passed 3 of 3: ...; min 0.9 GB/s...)" */
static size_t evidence_text(const struct accept_verdict *v, const struct accept_isolation *iso,
                            int h, char *buf, size_t len, size_t used)
{
	const struct accept_evidence *e = &iso->evidence[h];
	const struct accept_result *r = &v->results[iso->result];

	if (!e->possible)
		return appendf(buf, len, used,
		               " (fewer than two hosts were cleared to compare it with)");
	used = appendf(buf, len, used, " (its sub-test of %d hosts failed %d of %d: ", e->s_hosts,
	               e->s_failed, e->repeats);
	used = figure_list(buf, len, used, e->s_figure, e->repeats);
	used = appendf(buf, len, used, " %s; the %d cleared hosts without it passed %d of %d: ",
	               r->unit, e->c_hosts, e->c_passed, e->repeats);
	used = figure_list(buf, len, used, e->c_figure, e->repeats);
	used = appendf(buf, len, used, " %s; %s %.4g %s", r->unit,
	               strcmp(r->comparison, ">=") == 0 ? "min" : "max", r->threshold, r->unit);
	if (!isnan(accept_evidence_spread(e)))
		used = appendf(buf, len, used, "; spread %.3g %s", accept_evidence_spread(e),
		               r->unit);
	return appendf(buf, len, used, ")");
}

/* Each host of iso in role, with its evidence, "; "-separated. */
static size_t with_evidence(const struct accept_verdict *v, const struct accept_isolation *iso,
                            enum accept_role role, char *buf, size_t len, size_t used)
{
	int k = 0;

	for (int h = 0; h < v->nhosts; h++) {
		char name[CTX_NAME_BYTES];
		if (iso->role[h] != role)
			continue;
		accept_copy_name(name, sizeof name, v->host_names[h]);
		used = appendf(buf, len, used, "%s%s", k++ ? "; " : "", name);
		if (iso->evidence[h].tested)
			used = evidence_text(v, iso, h, buf, len, used);
	}
	return used;
}

/*
 * For a set too small to split: its hosts the spec's per-host links figures
 * fail (their own checks, already failing them), or that every one passes.
 */
static size_t links_hint(const struct accept_verdict *v, const struct accept_isolation *iso, int g,
                         char *buf, size_t len, size_t used)
{
	bool judged = false, named = false;

	for (size_t i = 0; i < v->nresults; i++)
		judged |= v->results[i].kind == ACCEPT_LINKS && v->results[i].host >= 0;
	if (!judged)
		return used;
	for (int h = 0; h < v->nhosts; h++) {
		char name[CTX_NAME_BYTES];
		bool links_failed = false;
		if (iso->role[h] != ACCEPT_ROLE_NOT_ISOLATED || iso->group[h] != g)
			continue;
		for (size_t i = 0; i < v->nresults; i++)
			links_failed |= v->results[i].kind == ACCEPT_LINKS && v->results[i].host == h &&
			                v->results[i].status != ACCEPT_PASS;
		if (!links_failed)
			continue;
		accept_copy_name(name, sizeof name, v->host_names[h]);
		used = appendf(buf, len, used, "%s%s", named ? ", " : "; against the spec's per-host "
		                                                      "links figures: ",
		               name);
		named = true;
	}
	return appendf(buf, len, used, "%s", named ? " below them"
	                                           : "; every host meets the spec's per-host links "
	                                             "figures");
}

int accept_format_isolation(const struct accept_verdict *v, size_t i, char *buf, size_t len)
{
	const struct accept_isolation *iso = &v->isolations[i];
	char hosts[512];
	size_t used = appendf(buf, len, 0, "SEARCH  %s: ", v->results[iso->result].label);
	int parts = 0;

	hosts_with(v, iso, ACCEPT_ROLE_CULPRIT, -1, hosts, sizeof hosts);
	if (hosts[0]) {
		used = appendf(buf, len, used, "culprit%s ", strchr(hosts, ',') ? "s" : "");
		used = with_evidence(v, iso, ACCEPT_ROLE_CULPRIT, buf, len, used);
		parts++;
	}
	hosts_with(v, iso, ACCEPT_ROLE_INCONCLUSIVE, -1, hosts, sizeof hosts);
	if (hosts[0]) {
		bool compared = false;
		for (int h = 0; h < v->nhosts; h++)
			compared |= iso->role[h] == ACCEPT_ROLE_INCONCLUSIVE && iso->evidence[h].possible;
		used = appendf(buf, len, used, "%sINCONCLUSIVE: ", parts++ ? "; " : "");
		used = with_evidence(v, iso, ACCEPT_ROLE_INCONCLUSIVE, buf, len, used);
		used = appendf(buf, len, used, "%s",
		               compared ? ": suspected, not separated from the rest; noise explains "
		                          "it, no host named"
		                        : ": suspected, with nothing to compare it with; no host named");
	}
	for (int g = 0; g < iso->ngroups; g++) {
		hosts_with(v, iso, ACCEPT_ROLE_NOT_ISOLATED, g, hosts, sizeof hosts);
		if (iso->reason[g] == ACCEPT_GROUP_TOO_SMALL) {
			used = appendf(buf, len, used,
			               "%snot isolated: %s cannot be told apart (a sub-test of one "
			               "host measures no network)",
			               parts++ ? "; " : "", hosts);
			used = links_hint(v, iso, g, buf, len, used);
		}
		else if (iso->reason[g] == ACCEPT_GROUP_ACROSS)
			used = appendf(buf, len, used,
			               "%snot isolated: %s passed together and failed only with the "
			               "others: the path between them and the rest (a segment), not "
			               "the hosts",
			               parts++ ? "; " : "", hosts);
		else
			used = appendf(buf, len, used, "%snot isolated: the fault needs %s together",
			               parts++ ? "; " : "", hosts);
	}
	if (!parts)
		used = appendf(buf, len, used, "nobody named");
	used = appendf(buf, len, used, " (%d run%s of the check)", iso->tests,
	               iso->tests == 1 ? "" : "s");
	return (int)used;
}

/* "LINK_BW_LOW, LINK_SUSPECT" of the faults in mask. */
static void fault_list(unsigned mask, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int f = 1; f < ACCEPT_FAULTS && used < len; f++)
		if (mask & (1u << f))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
			                         accept_fault_name((enum accept_fault)f));
}

/* The labels of the searches that named host, "; "-separated. */
static void searches_of(const struct accept_verdict *v, int host, enum accept_role role, char *buf,
                        size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < v->nisolations && used < len; i++)
		if (v->isolations[i].role[host] == role)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
			                         v->results[v->isolations[i].result].label);
}

int accept_format_host(const struct accept_verdict *v, int host, char *buf, size_t len)
{
	struct accept_host_verdict hv;
	char name[NAME_SHOWN_BYTES], faults[256], searches[512];
	size_t used;
	int parts = 0;

	accept_host_verdict(v, host, &hv);
	report_escape_text(name, sizeof name, who(v, host));
	used = appendf(buf, len, 0, "HOST    %-8s %s", name, accept_status_name(hv.status));
	/* the status padded to its column only when something follows */
	if (hv.failed_own || hv.unconfirmed_own || hv.isolated || hv.not_isolated ||
	    hv.inconclusive)
		used = appendf(buf, len, used, "%*s",
		               12 - (int)strlen(accept_status_name(hv.status)), "");
	if (hv.failed_own) {
		fault_list(hv.own_faults, faults, sizeof faults);
		used = appendf(buf, len, used, " own checks: %s", faults);
		parts++;
	}
	if (hv.unconfirmed_own) {
		fault_list(hv.unconfirmed_faults, faults, sizeof faults);
		used = appendf(buf, len, used,
		               "%s own checks not confirmed when measured again: %s",
		               parts++ ? ";" : "", faults);
	}
	if (hv.isolated) {
		fault_list(hv.isolated_faults, faults, sizeof faults);
		searches_of(v, host, ACCEPT_ROLE_CULPRIT, searches, sizeof searches);
		used = appendf(buf, len, used, "%s named by the search of %s: %s",
		               parts++ ? ";" : "", searches, faults);
	}
	if (hv.not_isolated) {
		searches_of(v, host, ACCEPT_ROLE_NOT_ISOLATED, searches, sizeof searches);
		used = appendf(buf, len, used, "%s in a set not isolated by the search of %s",
		               parts++ ? ";" : "", searches);
	}
	if (hv.inconclusive) {
		searches_of(v, host, ACCEPT_ROLE_INCONCLUSIVE, searches, sizeof searches);
		used = appendf(buf, len, used,
		               "%s suspected by the search of %s, inconclusive: not named",
		               parts++ ? ";" : "", searches);
	}
	return (int)used;
}

/* Counts of the results by status. */
static void counts(const struct accept_verdict *v, size_t *by)
{
	for (int s = 0; s < ACCEPT_STATUSES; s++)
		by[s] = 0;
	for (size_t i = 0; i < v->nresults; i++)
		by[v->results[i].status]++;
}

int accept_format_summary(const struct accept_verdict *v, char *buf, size_t len)
{
	size_t by[ACCEPT_STATUSES], used;
	char list[1024], more[96] = "";
	int failing = 0;

	counts(v, by);
	list[0] = '\0';
	used = 0;
	for (int h = 0; h < v->nhosts && used < sizeof list; h++) {
		struct accept_host_verdict hv;
		char name[NAME_SHOWN_BYTES];
		accept_host_verdict(v, h, &hv);
		if (hv.status == ACCEPT_PASS || hv.status == ACCEPT_INCONCLUSIVE)
			continue;
		report_escape_text(name, sizeof name, v->host_names[h]);
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "",
		                         name);
		failing++;
	}
	if (!accept_verdict_failed(v))
		return snprintf(buf, len, "accept: PASS: %zu checks on %d host%s%s", v->nresults,
		                v->nhosts, v->nhosts == 1 ? "" : "s",
		                v->repeats > 1 ? ", every repeat" : "");
	if (by[ACCEPT_INCONCLUSIVE])
		snprintf(more, sizeof more, ", %zu of a host not confirmed when measured again",
		         by[ACCEPT_INCONCLUSIVE]);
	if (accept_verdict_inconclusive(v))
		return snprintf(buf, len,
		                "accept: INCONCLUSIVE: %zu of %zu checks failed on the whole job, "
		                "%zu intermittent%s; no host to blame: noise explains it%s",
		                by[ACCEPT_FAIL], v->nresults, by[ACCEPT_INTERMITTENT], more,
		                by[ACCEPT_FAIL] ? " (see SEARCH)" : "");
	return snprintf(buf, len, "accept: FAIL: %zu of %zu checks failed, %zu intermittent%s; %s%s",
	                by[ACCEPT_FAIL], v->nresults, by[ACCEPT_INTERMITTENT], more,
	                failing ? "hosts failing: " : "no single host failing", list);
}

static bool add_result(cJSON *list, const struct accept_verdict *v, const struct accept_result *r)
{
	cJSON *o = cJSON_CreateObject(), *reps;

	if (!o || !cJSON_AddItemToArray(list, o)) {
		cJSON_Delete(o);
		return false;
	}
	if (!cJSON_AddStringToObject(o, "kind", accept_kind_name(r->kind)) ||
	    !cJSON_AddStringToObject(o, "check", r->spec_path) ||
	    !cJSON_AddStringToObject(o, "label", r->label) ||
	    !(r->host >= 0 ? cJSON_AddStringToObject(o, "host", v->host_names[r->host])
	                   : cJSON_AddNullToObject(o, "host")) ||
	    !cJSON_AddStringToObject(o, "status", accept_status_name(r->status)) ||
	    !(r->status != ACCEPT_PASS
	          ? cJSON_AddStringToObject(o, "fault", accept_fault_name(r->fault))
	          : cJSON_AddNullToObject(o, "fault")) ||
	    !report_add_number(o, "measured", r->measured) ||
	    !report_add_number(o, "measured_again", r->again) ||
	    !report_add_number(o, "threshold", r->threshold) ||
	    !cJSON_AddStringToObject(o, "unit", r->unit) ||
	    !cJSON_AddStringToObject(o, "comparison", r->comparison) ||
	    !cJSON_AddNumberToObject(o, "repeats", r->measured_repeats) ||
	    !cJSON_AddNumberToObject(o, "failed_repeats", r->failed_repeats) ||
	    !(reps = cJSON_AddArrayToObject(o, "measured_per_repeat")) ||
	    !cJSON_AddStringToObject(o, "detail", r->detail))
		return false;
	for (int i = 0; i < v->repeats; i++)
		if (!report_add_number_item(reps, r->per_repeat[i]))
			return false;
	return true;
}

static bool add_names(cJSON *list, unsigned mask)
{
	for (int f = 1; f < ACCEPT_FAULTS; f++)
		if ((mask & (1u << f)) &&
		    !cJSON_AddItemToArray(list, cJSON_CreateString(accept_fault_name(f))))
			return false;
	return true;
}

static bool add_host(cJSON *list, const struct accept_verdict *v, int h)
{
	struct accept_host_verdict hv;
	cJSON *o = cJSON_CreateObject(), *own, *iso;

	accept_host_verdict(v, h, &hv);
	if (!o || !cJSON_AddItemToArray(list, o)) {
		cJSON_Delete(o);
		return false;
	}
	return cJSON_AddStringToObject(o, "name", v->host_names[h]) &&
	       cJSON_AddStringToObject(o, "status", accept_status_name(hv.status)) &&
	       cJSON_AddBoolToObject(o, "failed_own", hv.failed_own) &&
	       cJSON_AddBoolToObject(o, "isolated", hv.isolated) &&
	       cJSON_AddBoolToObject(o, "not_isolated", hv.not_isolated) &&
	       cJSON_AddBoolToObject(o, "inconclusive", hv.inconclusive) &&
	       cJSON_AddBoolToObject(o, "unconfirmed_own", hv.unconfirmed_own) &&
	       (own = cJSON_AddArrayToObject(o, "faults")) && add_names(own, hv.own_faults) &&
	       (own = cJSON_AddArrayToObject(o, "unconfirmed_faults")) &&
	       add_names(own, hv.unconfirmed_faults) &&
	       (iso = cJSON_AddArrayToObject(o, "isolated_faults")) &&
	       add_names(iso, hv.isolated_faults);
}

static bool add_role_list(cJSON *o, const char *key, const struct accept_verdict *v,
                          const struct accept_isolation *iso, enum accept_role role, int group)
{
	cJSON *list = cJSON_AddArrayToObject(o, key);

	for (int h = 0; list && h < v->nhosts; h++)
		if (iso->role[h] == role && (group < 0 || iso->group[h] == group) &&
		    !cJSON_AddItemToArray(list, cJSON_CreateString(v->host_names[h])))
			return false;
	return list != NULL;
}

/* evidence[]: per suspect, its sub-test and complement, interleaved, and the verdict. */
static bool add_evidence(cJSON *o, const struct accept_verdict *v,
                         const struct accept_isolation *iso)
{
	cJSON *list = cJSON_AddArrayToObject(o, "evidence");

	for (int h = 0; list && h < v->nhosts; h++) {
		const struct accept_evidence *e = &iso->evidence[h];
		cJSON *x = NULL, *s = NULL, *c = NULL;
		if (!e->tested)
			continue;
		if (!(x = cJSON_CreateObject()) || !cJSON_AddItemToArray(list, x)) {
			cJSON_Delete(x);
			return false;
		}
		if (!cJSON_AddStringToObject(x, "host", v->host_names[h]) ||
		    !cJSON_AddBoolToObject(x, "confirmed", iso->role[h] == ACCEPT_ROLE_CULPRIT) ||
		    !cJSON_AddBoolToObject(x, "possible", e->possible) ||
		    !cJSON_AddNumberToObject(x, "repeats", e->repeats) ||
		    !cJSON_AddNumberToObject(x, "with_host_hosts", e->s_hosts) ||
		    !cJSON_AddNumberToObject(x, "with_host_failed", e->s_failed) ||
		    !(s = cJSON_AddArrayToObject(x, "with_host_measured")) ||
		    !cJSON_AddNumberToObject(x, "without_host_hosts", e->c_hosts) ||
		    !cJSON_AddNumberToObject(x, "without_host_passed", e->c_passed) ||
		    !(c = cJSON_AddArrayToObject(x, "without_host_measured")) ||
		    !report_add_number(x, "spread", accept_evidence_spread(e)))
			return false;
		for (int r = 0; r < e->repeats; r++)
			if (!report_add_number_item(s, e->s_figure[r]) ||
			    !report_add_number_item(c, e->c_figure[r]))
				return false;
	}
	return list != NULL;
}

static bool add_isolation(cJSON *list, const struct accept_verdict *v,
                          const struct accept_isolation *iso)
{
	const struct accept_result *r = &v->results[iso->result];
	cJSON *o = cJSON_CreateObject(), *sets;

	if (!o || !cJSON_AddItemToArray(list, o)) {
		cJSON_Delete(o);
		return false;
	}
	if (!cJSON_AddStringToObject(o, "check", r->spec_path) ||
	    !cJSON_AddStringToObject(o, "label", r->label) ||
	    !cJSON_AddStringToObject(o, "fault", accept_fault_name(r->fault)) ||
	    !cJSON_AddStringToObject(
	        o, "verdict",
	        accept_search_verdict_name(accept_search_verdict(v, (size_t)(iso - v->isolations)))) ||
	    !cJSON_AddNumberToObject(o, "tests", iso->tests) ||
	    !add_role_list(o, "culprits", v, iso, ACCEPT_ROLE_CULPRIT, -1) ||
	    !add_role_list(o, "inconclusive", v, iso, ACCEPT_ROLE_INCONCLUSIVE, -1) ||
	    !add_role_list(o, "cleared", v, iso, ACCEPT_ROLE_CLEARED, -1) ||
	    !add_evidence(o, v, iso) || !(sets = cJSON_AddArrayToObject(o, "not_isolated")))
		return false;
	for (int g = 0; g < iso->ngroups; g++) {
		cJSON *set = cJSON_CreateObject();
		if (!set || !cJSON_AddItemToArray(sets, set) ||
		    !add_role_list(set, "hosts", v, iso, ACCEPT_ROLE_NOT_ISOLATED, g) ||
		    !cJSON_AddStringToObject(set, "reason",
		                             accept_group_reason_name(iso->reason[g])))
			return false;
	}
	return true;
}

cJSON *accept_verdict_to_json(cJSON *root, const struct accept_verdict *v)
{
	cJSON *results = cJSON_AddArrayToObject(root, "results");
	cJSON *summary = cJSON_AddObjectToObject(root, "summary"), *hosts, *isolations;
	size_t by[ACCEPT_STATUSES];

	counts(v, by);
	if (!results || !summary ||
	    !cJSON_AddStringToObject(summary, SK_ACCSUM_VERDICT,
	                             !accept_verdict_failed(v)       ? "PASS"
	                             : accept_verdict_inconclusive(v) ? "INCONCLUSIVE"
	                                                             : "FAIL") ||
	    !cJSON_AddNumberToObject(summary, SK_ACCSUM_CHECKS, (double)v->nresults) ||
	    !cJSON_AddNumberToObject(summary, SK_ACCSUM_PASSED, (double)by[ACCEPT_PASS]) ||
	    !cJSON_AddNumberToObject(summary, SK_ACCSUM_FAILED, (double)by[ACCEPT_FAIL]) ||
	    !cJSON_AddNumberToObject(summary, SK_ACCSUM_INTERMITTENT, (double)by[ACCEPT_INTERMITTENT]) ||
	    !cJSON_AddNumberToObject(summary, SK_ACCSUM_INCONCLUSIVE,
	                             (double)by[ACCEPT_INCONCLUSIVE]) ||
	    !cJSON_AddNumberToObject(summary, SK_ACCSUM_REPEATS, v->repeats) ||
	    !(hosts = cJSON_AddArrayToObject(summary, SK_ACCSUM_HOSTS)) ||
	    !(isolations = cJSON_AddArrayToObject(summary, SK_ACCSUM_ISOLATIONS)))
		return NULL;
	for (size_t i = 0; i < v->nresults; i++)
		if (!add_result(results, v, &v->results[i]))
			return NULL;
	for (int h = 0; h < v->nhosts; h++)
		if (!add_host(hosts, v, h))
			return NULL;
	for (size_t i = 0; i < v->nisolations; i++)
		if (!add_isolation(isolations, v, &v->isolations[i]))
			return NULL;
	return root;
}

/* The strings of one JUnit case, owned by the builder. */
struct junit_text {
	char name[CTX_NAME_BYTES + 160], message[512], text[1024];
};

/* A case for result r (host: r->host), or for host h named by isolation iso (iso not NULL). */
static void junit_case_of(const struct accept_verdict *v, size_t i,
                          const struct accept_isolation *iso, int h, struct junit_case *c,
                          struct junit_text *t)
{
	const struct accept_result *r = &v->results[iso ? iso->result : i];
	char fig[160];

	if (iso) {
		snprintf(t->name, sizeof t->name, "%s culprit search [%s]", r->label,
		         v->host_names[h]);
		*c = (struct junit_case){t->name, NULL, NULL, NULL, NULL, NULL};
		if (iso->role[h] == ACCEPT_ROLE_INCONCLUSIVE) {
			/* not a failure of this host: skipped, with the evidence */
			size_t used = (size_t)snprintf(t->message, sizeof t->message,
			                               "INCONCLUSIVE: %s suspected by the culprit "
			                               "search of %s, not separated from the rest",
			                               v->host_names[h], r->label);
			evidence_text(v, iso, h, t->message, sizeof t->message, used);
			c->skipped_message = t->message;
			return;
		}
		if (iso->role[h] != ACCEPT_ROLE_CULPRIT)
			return;
		snprintf(t->message, sizeof t->message,
		         "%s: %s named by the culprit search of %s (%d runs of the check)",
		         accept_fault_name(r->fault), v->host_names[h], r->label, iso->tests);
		snprintf(t->text, sizeof t->text, "%s", t->message);
	} else {
		snprintf(t->name, sizeof t->name, "%s [%s]", r->label, who(v, r->host));
		*c = (struct junit_case){t->name, NULL, NULL, NULL, NULL, NULL};
		if (r->status == ACCEPT_PASS)
			return;
		figures(r, fig, sizeof fig);
		if (r->status == ACCEPT_INCONCLUSIVE) {
			/* not a failure of this host: skipped, with the figures */
			snprintf(t->message, sizeof t->message, "INCONCLUSIVE %s on %s: %s (%s)",
			         accept_fault_name(r->fault), who(v, r->host), fig, r->detail);
			c->skipped_message = t->message;
			return;
		}
		/* the host in the message too: a CI page often shows the message alone */
		snprintf(t->message, sizeof t->message, "%s%s%s%s: %s%s%s%s",
		         r->status == ACCEPT_INTERMITTENT ? "INTERMITTENT " : "",
		         accept_fault_name(r->fault), r->host >= 0 ? " on " : "",
		         r->host >= 0 ? who(v, r->host) : "", fig, r->detail[0] ? " (" : "",
		         r->detail, r->detail[0] ? ")" : "");
		accept_format_result(v, i, t->text, sizeof t->text);
	}
	c->failure_type = accept_fault_name(r->fault);
	c->failure_message = t->message;
	c->failure_text = t->text;
}

int accept_junit(const struct accept_verdict *v, struct html_buf *out)
{
	static const char *const classes[ACCEPT_KINDS] = {
	    "collscope.accept.topology", "collscope.accept.verify", "collscope.accept.links",
	    "collscope.accept.allreduce"};
	size_t total = v->nresults + v->nisolations * (size_t)v->nhosts, k = 0, first[ACCEPT_KINDS];
	struct junit_case *cases = calloc(total ? total : 1, sizeof *cases);
	struct junit_text *texts = calloc(total ? total : 1, sizeof *texts);
	struct junit_suite suites[ACCEPT_KINDS];
	int rc = -1;

	if (!cases || !texts)
		goto out;
	for (int kind = 0; kind < ACCEPT_KINDS; kind++) {
		first[kind] = k;
		for (size_t i = 0; i < v->nresults; i++)
			if ((int)v->results[i].kind == kind) {
				junit_case_of(v, i, NULL, -1, &cases[k], &texts[k]);
				cases[k++].classname = classes[kind];
			}
		for (size_t s = 0; s < v->nisolations; s++)
			for (int h = 0;
			     (int)v->results[v->isolations[s].result].kind == kind && h < v->nhosts;
			     h++) {
				junit_case_of(v, 0, &v->isolations[s], h, &cases[k], &texts[k]);
				cases[k++].classname = classes[kind];
			}
		suites[kind] = (struct junit_suite){classes[kind] + strlen("collscope.accept."),
		                                    cases + first[kind], k - first[kind]};
	}
	rc = junit_write(out, "collscope accept", suites, ACCEPT_KINDS);
out:
	free(cases);
	free(texts);
	return rc;
}
