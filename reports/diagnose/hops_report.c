/* The findings of the slow-hop attribution in reports and text: see hops.h. */
#include "reports/diagnose/hops.h"

#include <math.h>
#include <stdio.h>

#include "reports/io/report_io.h"
#include "reports/io/report_schema.h"

int hops_report_rank(const struct hops_names *nm, int r)
{
	return nm && nm->report_rank ? nm->report_rank[r] : r;
}

const char *hops_host_of(const struct hops_names *nm, int r)
{
	return nm && nm->host ? nm->host[r] : NULL;
}

/* "hosts": [a, b], nulls when unknown. */
static bool add_hosts(cJSON *o, const char *a, const char *b)
{
	cJSON *h = cJSON_AddArrayToObject(o, SK_HOP_HOSTS);
	return h && cJSON_AddItemToArray(h, a ? cJSON_CreateString(a) : cJSON_CreateNull()) &&
	       cJSON_AddItemToArray(h, b ? cJSON_CreateString(b) : cJSON_CreateNull());
}

static bool add_hop(cJSON *hops, const struct hops_hop *h, const struct hops_names *nm)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_AddItemToArray(hops, o)) {
		cJSON_Delete(o);
		return false;
	}
	return cJSON_AddNumberToObject(o, SK_HOP_FROM_RANK, hops_report_rank(nm, h->from_rank)) &&
	       cJSON_AddNumberToObject(o, SK_HOP_TO_RANK, hops_report_rank(nm, h->to_rank)) &&
	       add_hosts(o, hops_host_of(nm, h->from_rank), hops_host_of(nm, h->to_rank)) &&
	       cJSON_AddStringToObject(o, SK_HOP_LOCALITY, hops_locality_name(h->locality)) &&
	       cJSON_AddNumberToObject(o, SK_HOP_MESSAGES, (double)h->messages) &&
	       report_add_number(o, SK_HOP_HOP_TIME_US, h->hop_time_us) &&
	       report_add_number(o, SK_HOP_WAIT_US, h->wait_us) &&
	       report_add_number(o, SK_HOP_MEDIAN_HOP_US, h->median_hop_us) &&
	       report_add_number(o, SK_HOP_RATIO, h->ratio) &&
	       report_add_number(o, SK_HOP_SCORE, h->score) &&
	       report_add_number(o, SK_HOP_SHARE, h->share) &&
	       report_add_number(o, SK_HOP_CONSISTENCY_P, h->consistency_p) &&
	       cJSON_AddBoolToObject(o, SK_HOP_WAITED, h->waited) &&
	       cJSON_AddBoolToObject(o, SK_HOP_SLOW, h->slow) &&
	       cJSON_AddBoolToObject(o, SK_HOP_SUSPECT, h->suspect) &&
	       cJSON_AddNumberToObject(o, SK_HOP_RETESTS, h->retests) &&
	       cJSON_AddNumberToObject(o, SK_HOP_RETESTS_CONFIRMED, h->retests_confirmed) &&
	       report_add_number(o, SK_HOP_MESSAGE_BYTES, h->message_bytes) &&
	       report_add_number(o, SK_HOP_OTHER_TRAFFIC_GBPS, h->other_traffic_gbps) &&
	       cJSON_AddBoolToObject(o, SK_HOP_TRAFFIC_CLEARED, h->traffic_cleared);
}

/* The hops of r as the trace's "hops" array; NULL when out of memory. */
static cJSON *hops_array(const struct hops_result *r, const struct hops_names *nm)
{
	cJSON *hops = cJSON_CreateArray();
	bool ok = hops != NULL;
	for (size_t i = 0; ok && i < r->nhops; i++)
		ok = add_hop(hops, &r->hops[i], nm);
	if (ok)
		return hops;
	cJSON_Delete(hops);
	return NULL;
}

int hops_point_update_json(cJSON *rec, const struct hops_result *r, const struct hops_names *nm)
{
	cJSON *t = cJSON_GetObjectItemCaseSensitive(rec, SK_AR_TRACE);
	cJSON *hops = t ? hops_array(r, nm) : NULL;
	if (hops && cJSON_ReplaceItemInObjectCaseSensitive(t, SK_TRACE_HOPS, hops))
		return 0;
	cJSON_Delete(hops);
	return -1;
}

cJSON *hops_point_to_json(cJSON *rec, const struct hops_result *r, const struct hops_names *nm,
                          double clock_error_us, size_t dropped)
{
	cJSON *t = cJSON_AddObjectToObject(rec, SK_AR_TRACE);
	cJSON *hops = NULL;
	bool ok = t && cJSON_AddNumberToObject(t, SK_TRACE_ITERATIONS, (double)r->iterations) &&
	          cJSON_AddNumberToObject(t, SK_TRACE_MESSAGES, (double)r->messages) &&
	          cJSON_AddNumberToObject(t, SK_TRACE_UNMATCHED, (double)r->unmatched) &&
	          cJSON_AddNumberToObject(t, SK_TRACE_DROPPED, (double)dropped) &&
	          report_add_number(t, SK_TRACE_ITERATION_US, r->iteration_us) &&
	          report_add_number(t, SK_TRACE_CLOCK_ERROR_US, clock_error_us) &&
	          (hops = hops_array(r, nm));
	if (ok && cJSON_AddItemToObject(t, SK_TRACE_HOPS, hops))
		return t;
	cJSON_Delete(hops);
	return NULL;
}

cJSON *hops_calls_to_json(cJSON *rec, const double *rank_call_us, int nranks, size_t calls,
                          double clock_error_us)
{
	cJSON *t = cJSON_AddObjectToObject(rec, SK_AR_TRACE);
	cJSON *a = NULL;
	bool ok = t && cJSON_AddNumberToObject(t, SK_TRACE_CALLS, (double)calls) &&
	          report_add_number(t, SK_TRACE_CLOCK_ERROR_US, clock_error_us) &&
	          (a = cJSON_AddArrayToObject(t, SK_TRACE_RANK_CALL_US));
	for (int q = 0; ok && q < nranks; q++)
		ok = report_add_number_item(a, rank_call_us[q]) != NULL;
	return ok ? t : NULL;
}

size_t hops_findings(const struct hops_result *r, const char *algorithm, uint64_t bytes, int ranks,
                     const struct hops_names *nm, struct hops_finding *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nnamed && n < max; i++) {
		const struct hops_hop *h = &r->hops[r->named[i]];
		struct hops_finding *f = &out[n++];
		*f = (struct hops_finding){.algorithm = algorithm,
		                           .bytes = bytes,
		                           .ranks = ranks,
		                           .hop = *h,
		                           .host_a = hops_host_of(nm, h->from_rank),
		                           .host_b = hops_host_of(nm, h->to_rank)};
		f->hop.from_rank = hops_report_rank(nm, h->from_rank);
		f->hop.to_rank = hops_report_rank(nm, h->to_rank);
	}
	for (size_t i = 0; i < r->nranks && n < max; i++) {
		struct hops_finding *f = &out[n++];
		*f = (struct hops_finding){.algorithm = algorithm,
		                           .bytes = bytes,
		                           .ranks = ranks,
		                           .is_rank = true,
		                           .rank = r->ranks[i],
		                           .host_a = hops_host_of(nm, r->ranks[i].rank)};
		f->rank.rank = hops_report_rank(nm, r->ranks[i].rank);
	}
	return n;
}

static bool add_point(cJSON *o, const struct hops_finding *f)
{
	return cJSON_AddStringToObject(o, SK_SLOWHOP_ALGORITHM, f->algorithm) &&
	       cJSON_AddNumberToObject(o, SK_SLOWHOP_BYTES, (double)f->bytes) &&
	       cJSON_AddNumberToObject(o, SK_SLOWHOP_RANKS, f->ranks);
}

static bool add_slow_hop(cJSON *o, const struct hops_finding *f)
{
	const struct hops_hop *h = &f->hop;
	return add_point(o, f) && cJSON_AddNumberToObject(o, SK_SLOWHOP_FROM_RANK, h->from_rank) &&
	       cJSON_AddNumberToObject(o, SK_SLOWHOP_TO_RANK, h->to_rank) &&
	       add_hosts(o, f->host_a, f->host_b) &&
	       cJSON_AddStringToObject(o, SK_SLOWHOP_LOCALITY, hops_locality_name(h->locality)) &&
	       report_add_number(o, SK_SLOWHOP_HOP_TIME_US, h->hop_time_us) &&
	       report_add_number(o, SK_SLOWHOP_MEDIAN_HOP_US, h->median_hop_us) &&
	       report_add_number(o, SK_SLOWHOP_RATIO, h->ratio) &&
	       report_add_number(o, SK_SLOWHOP_SCORE, h->score) &&
	       report_add_number(o, SK_SLOWHOP_SHARE, h->share) &&
	       report_add_number(o, SK_SLOWHOP_CONSISTENCY_P, h->consistency_p) &&
	       cJSON_AddNumberToObject(o, SK_SLOWHOP_RETESTS_CONFIRMED, h->retests_confirmed);
}

static bool add_slow_rank(cJSON *o, const struct hops_finding *f)
{
	const struct hops_rank *k = &f->rank;
	return add_point(o, f) && cJSON_AddNumberToObject(o, SK_SLOWRANK_RANK, k->rank) &&
	       (f->host_a ? cJSON_AddStringToObject(o, SK_SLOWRANK_HOST, f->host_a)
	                  : cJSON_AddNullToObject(o, SK_SLOWRANK_HOST)) &&
	       cJSON_AddStringToObject(o, SK_SLOWRANK_REASON, hops_rank_reason_name(k->reason)) &&
	       cJSON_AddNumberToObject(o, SK_SLOWRANK_HOPS_SLOW, k->hops_slow) &&
	       cJSON_AddNumberToObject(o, SK_SLOWRANK_HOPS_TOTAL, k->hops_total) &&
	       report_add_number(o, SK_SLOWRANK_REDUCE_GBPS, k->reduce_gbps) &&
	       report_add_number(o, SK_SLOWRANK_MEDIAN_REDUCE_GBPS, k->median_reduce_gbps) &&
	       report_add_number(o, SK_SLOWRANK_RATIO, k->ratio) &&
	       report_add_number(o, SK_SLOWRANK_SCORE, k->score) &&
	       report_add_number(o, SK_SLOWRANK_SHARE, k->share) &&
	       report_add_number(o, SK_SLOWRANK_CONSISTENCY_P,
	                         k->reason == HOPS_RANK_REDUCE ? k->consistency_p : NAN) &&
	       cJSON_AddNumberToObject(o, SK_SLOWRANK_RETESTS_CONFIRMED, k->retests_confirmed);
}

int hops_findings_to_json(cJSON *summary, const struct hops_finding *f, size_t n)
{
	cJSON *hops = cJSON_AddArrayToObject(summary, SK_ARSUM_SLOW_HOPS);
	cJSON *ranks = hops ? cJSON_AddArrayToObject(summary, SK_ARSUM_SLOW_RANKS) : NULL;
	if (!ranks)
		return -1;
	for (size_t i = 0; i < n; i++) {
		cJSON *o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(f[i].is_rank ? ranks : hops, o)) {
			cJSON_Delete(o);
			return -1;
		}
		if (!(f[i].is_rank ? add_slow_rank(o, &f[i]) : add_slow_hop(o, &f[i])))
			return -1;
	}
	return 0;
}

int hops_finding_describe(const struct hops_finding *f, char *buf, size_t len)
{
	const char *a = f->host_a ? f->host_a : "?", *b = f->host_b ? f->host_b : "?";
	char again[64] = "";
	if (!f->is_rank && f->hop.retests_confirmed)
		snprintf(again, sizeof again, ", found again in %d of %d re-measurements",
		         f->hop.retests_confirmed, f->hop.retests);
	if (f->is_rank && f->rank.retests_confirmed)
		snprintf(again, sizeof again, "; found again in %d of %d re-measurements",
		         f->rank.retests_confirmed, f->rank.retests);
	if (!f->is_rank)
		return snprintf(buf, len,
		                "slow hop: %s, %llu bytes: %d->%d (%s -> %s) %.1f us per message, "
		                "%.1fx the median %shop %.1f us (z %.1f), %.0f%% of an iteration%s",
		                f->algorithm, (unsigned long long)f->bytes, f->hop.from_rank,
		                f->hop.to_rank, a, b, f->hop.hop_time_us, f->hop.ratio,
		                f->hop.locality == HOPS_SAME_HOST    ? "same-host "
		                : f->hop.locality == HOPS_CROSS_HOST ? "cross-host "
		                                                     : "",
		                f->hop.median_hop_us, f->hop.score, 100 * f->hop.share, again);
	if (f->rank.reason == HOPS_RANK_HOPS)
		return snprintf(
		    buf, len,
		    "slow rank: %s, %llu bytes: rank %d (%s): %d of its %d hops slow, both "
		    "ways (up to %.1fx the median hop, z %.1f): its interface or its progress",
		    f->algorithm, (unsigned long long)f->bytes, f->rank.rank, a, f->rank.hops_slow,
		    f->rank.hops_total, f->rank.ratio, f->rank.score);
	return snprintf(buf, len,
	                "slow rank: %s, %llu bytes: rank %d (%s) reduces at %.2f GB/s, %.2fx below "
	                "the median rank's %.2f GB/s (z %.1f; the slowest in %d of %d iterations): "
	                "its core is slow at its own work, not its hops (%.1f%% of an iteration "
	                "here, more of a training step's compute%s)",
	                f->algorithm, (unsigned long long)f->bytes, f->rank.rank, a,
	                f->rank.reduce_gbps, f->rank.ratio, f->rank.median_reduce_gbps,
	                f->rank.score, f->rank.wins, f->rank.ranked, 100 * f->rank.share, again);
}
