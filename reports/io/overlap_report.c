/* See overlap_report.h. Pure. */
#include "reports/io/overlap_report.h"

#include <math.h>

#include "reports/io/report_io.h"
#include "reports/io/report_schema.h"

void overlap_row_figures(struct overlap_row *row, const struct overlap_times *per_rank)
{
	row->mean = overlap_mean(per_rank, row->ranks);
	row->imb_rank = overlap_slowest(per_rank, row->ranks);
	row->osu_pct = overlap_osu_percent(&row->mean);
	row->imb_pct = overlap_imb_percent(&per_rank[row->imb_rank]);
}

static bool add_rank_times(cJSON *o, const struct overlap_row *r)
{
	if (!r->rank_overall_us)
		return true;
	cJSON *a = cJSON_AddArrayToObject(o, SK_OVL_RANK_OVERALL_US);
	for (int i = 0; a && i < r->ranks; i++)
		if (!report_add_number_item(a, r->rank_overall_us[i]))
			return false;
	return a != NULL;
}

static bool add_measured(cJSON *o, const struct overlap_row *r)
{
	return cJSON_AddNumberToObject(o, SK_OVL_ITERATIONS, r->iterations) &&
	       (r->wrong < 0 ? cJSON_AddNullToObject(o, SK_OVL_WRONG)
	                     : cJSON_AddNumberToObject(o, SK_OVL_WRONG, (double)r->wrong)) &&
	       report_add_number(o, SK_OVL_TEST_INTERVAL_US, r->interval_us) &&
	       report_add_number(o, SK_OVL_PURE_US, r->mean.pure_us) &&
	       report_add_number(o, SK_OVL_CPU_ALONE_US, r->mean.cpu_alone_us) &&
	       report_add_number(o, SK_OVL_OVERALL_US, r->mean.overall_us) &&
	       report_add_number(o, SK_OVL_CPU_US, r->mean.cpu_us) &&
	       report_add_number(o, SK_OVL_TEST_US, r->mean.test_us) &&
	       report_add_number(o, SK_OVL_TESTS_PER_CALL, r->mean.tests) &&
	       report_add_number(o, SK_OVL_OVERLAP_OSU_PCT, r->osu_pct) &&
	       report_add_number(o, SK_OVL_OVERLAP_IMB_PCT, r->imb_pct) &&
	       cJSON_AddNumberToObject(o, SK_OVL_IMB_RANK, r->imb_rank) && add_rank_times(o, r);
}

cJSON *overlap_row_to_json(cJSON *results, const struct overlap_row *r)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_AddItemToArray(results, o)) {
		cJSON_Delete(o);
		return NULL;
	}
	bool ok = cJSON_AddStringToObject(o, SK_OVL_ALGORITHM, r->algorithm) &&
	          cJSON_AddNumberToObject(o, SK_OVL_BYTES, (double)r->bytes) &&
	          cJSON_AddNumberToObject(o, SK_OVL_COUNT, (double)r->count) &&
	          cJSON_AddStringToObject(o, SK_OVL_DTYPE, r->dtype) &&
	          cJSON_AddStringToObject(o, SK_OVL_OP, r->op) &&
	          cJSON_AddNumberToObject(o, SK_OVL_RANKS, r->ranks) &&
	          cJSON_AddStringToObject(o, SK_OVL_COMPUTE, r->compute) &&
	          cJSON_AddStringToObject(o, SK_OVL_PROGRESS, r->progress) &&
	          (r->skipped ? cJSON_AddStringToObject(o, SK_OVL_SKIPPED, r->skipped) != NULL
	                      : add_measured(o, r));
	return ok ? o : NULL;
}

static bool add_step(cJSON *arr, const struct overlap_step_row *r)
{
	cJSON *o = cJSON_CreateObject();
	bool ok = o && cJSON_AddItemToArray(arr, o) &&
	          cJSON_AddStringToObject(o, SK_OVSTEP_ALGORITHM, r->algorithm) &&
	          cJSON_AddStringToObject(o, SK_OVSTEP_COMPUTE, r->compute) &&
	          cJSON_AddNumberToObject(o, SK_OVSTEP_RANKS, r->ranks) &&
	          cJSON_AddNumberToObject(o, SK_OVSTEP_GRAD_BYTES, (double)r->grad_bytes) &&
	          cJSON_AddNumberToObject(o, SK_OVSTEP_BUCKET_BYTES, (double)r->bucket_bytes) &&
	          cJSON_AddNumberToObject(o, SK_OVSTEP_BUCKETS, (double)r->buckets);
	if (!ok || r->skipped)
		return ok && cJSON_AddStringToObject(o, SK_OVSTEP_SKIPPED, r->skipped);
	return report_add_number(o, SK_OVSTEP_COMPUTE_US, r->s.compute_us) &&
	       report_add_number(o, SK_OVSTEP_SERIAL_US, r->s.serial_us) &&
	       report_add_number(o, SK_OVSTEP_STEP_US, r->s.step_us) &&
	       report_add_number(o, SK_OVSTEP_EXPOSED_US, r->s.exposed_us) &&
	       report_add_number(o, SK_OVSTEP_HIDDEN_FRACTION, r->s.hidden_fraction) &&
	       (r->wrong < 0 ? cJSON_AddNullToObject(o, SK_OVSTEP_WRONG)
	                     : cJSON_AddNumberToObject(o, SK_OVSTEP_WRONG, (double)r->wrong));
}

cJSON *overlap_report_add_summary(cJSON *root, const struct overlap_row *rows, int n,
                                  const struct overlap_step_row *steps, int nsteps)
{
	cJSON *sum = cJSON_AddObjectToObject(root, SK_REPORT_SUMMARY);
	cJSON *arr = sum ? cJSON_AddArrayToObject(sum, SK_OVSUM_LARGEST_SIZE) : NULL;
	uint64_t largest = 0;
	int64_t wrong = 0;
	for (int i = 0; i < n; i++) {
		largest = rows[i].bytes > largest ? rows[i].bytes : largest;
		wrong += rows[i].wrong > 0 ? rows[i].wrong : 0;
	}
	bool ok = arr != NULL;
	for (int i = 0; ok && i < n; i++) {
		const struct overlap_row *r = &rows[i];
		if (r->bytes != largest || r->skipped)
			continue;
		cJSON *o = cJSON_CreateObject();
		ok = o && cJSON_AddItemToArray(arr, o) &&
		     cJSON_AddStringToObject(o, SK_OVROW_ALGORITHM, r->algorithm) &&
		     cJSON_AddNumberToObject(o, SK_OVROW_BYTES, (double)r->bytes) &&
		     cJSON_AddStringToObject(o, SK_OVROW_COMPUTE, r->compute) &&
		     cJSON_AddStringToObject(o, SK_OVROW_PROGRESS, r->progress) &&
		     report_add_number(o, SK_OVROW_OVERLAP_OSU_PCT, r->osu_pct) &&
		     report_add_number(o, SK_OVROW_OVERLAP_IMB_PCT, r->imb_pct);
	}
	cJSON *sarr = ok && nsteps ? cJSON_AddArrayToObject(sum, SK_OVSUM_STEPS) : NULL;
	ok = ok && (!nsteps || sarr);
	for (int i = 0; ok && i < nsteps; i++) {
		ok = add_step(sarr, &steps[i]);
		wrong += steps[i].wrong > 0 ? steps[i].wrong : 0;
	}
	ok = ok && cJSON_AddNumberToObject(sum, SK_OVSUM_WRONG_TOTAL, (double)wrong) &&
	     cJSON_AddStringToObject(sum, SK_OVSUM_VERDICT, wrong ? "wrong results" : "ok");
	return ok ? sum : NULL;
}
