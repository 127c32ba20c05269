/* summary.coverage of a links report: see links_coverage.h. */
#include "reports/io/links_coverage.h"

#include <math.h>

#include "reports/io/report_schema.h"

static bool add_number(cJSON *o, const char *key, double v)
{
	return isfinite(v) ? cJSON_AddNumberToObject(o, key, v) != NULL
	                   : cJSON_AddNullToObject(o, key) != NULL;
}

static bool add_rules_out(cJSON *cov, const struct links_coverage *c)
{
	cJSON *list = cJSON_AddArrayToObject(cov, SK_COVER_RULES_OUT);
	for (int k = 0; list && k < DETECT_KINDS; k++) {
		cJSON *o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(list, o)) {
			cJSON_Delete(o);
			return false;
		}
		const struct links_rules_out *r = &c->rules_out[k];
		if (!cJSON_AddStringToObject(o, SK_RULES_KIND,
		                             detect_kind_name((enum detect_kind)k)) ||
		    !add_number(o, SK_RULES_SLOWDOWN_PERCENT, r->slowdown_percent) ||
		    !cJSON_AddNumberToObject(o, SK_RULES_COVERED, r->covered) ||
		    !cJSON_AddNumberToObject(o, SK_RULES_OF, r->of))
			return false;
	}
	return list != NULL;
}

bool links_report_add_coverage(cJSON *summary, const struct links_coverage *c)
{
	cJSON *o = cJSON_AddObjectToObject(summary, SK_LSUM_COVERAGE);
	return o && cJSON_AddStringToObject(o, SK_COVER_PATTERN, c->pattern) &&
	       cJSON_AddNumberToObject(o, SK_COVER_ROUNDS, c->rounds) &&
	       cJSON_AddNumberToObject(o, SK_COVER_SCREENING_ROUNDS, c->screening_rounds) &&
	       cJSON_AddNumberToObject(o, SK_COVER_FOLLOWUP_ROUNDS, c->followup_rounds) &&
	       cJSON_AddNumberToObject(o, SK_COVER_INTRA_HOST_ROUNDS, c->intra_host_rounds) &&
	       cJSON_AddNumberToObject(o, SK_COVER_PAIRS_MEASURED, (double)c->pairs_measured) &&
	       cJSON_AddNumberToObject(o, SK_COVER_PAIRS_TOTAL, (double)c->pairs_total) &&
	       cJSON_AddNumberToObject(o, SK_COVER_HOST_PAIRS_MEASURED,
	                               (double)c->host_pairs_measured) &&
	       cJSON_AddNumberToObject(o, SK_COVER_HOST_PAIRS_TOTAL, (double)c->host_pairs_total) &&
	       cJSON_AddNumberToObject(o, SK_COVER_MIN_PARTNERS, c->min_partners) &&
	       add_number(o, SK_COVER_BUDGET_S, c->budget_s) &&
	       add_number(o, SK_COVER_ELAPSED_S, c->elapsed_s) &&
	       cJSON_AddBoolToObject(o, SK_COVER_STOPPED_BY_BUDGET, c->stopped_by_budget) &&
	       add_rules_out(o, c);
}
