/* summary.coverage of a links report (reports/io/links_coverage.c). */
#include "reports/io/links_coverage.h"

#include <criterion/criterion.h>
#include <math.h>

#include "reports/io/report_schema.h"

static struct links_coverage sample(void)
{
	struct links_coverage c = {
	    .pattern = "screen",
	    .rounds = 9,
	    .screening_rounds = 7,
	    .followup_rounds = 2,
	    .pairs_measured = 90,
	    .pairs_total = 276,
	    .host_pairs_measured = 90,
	    .host_pairs_total = 276,
	    .min_partners = 6,
	    .budget_s = NAN,
	    .elapsed_s = 31.5,
	};
	for (int k = 0; k < DETECT_KINDS; k++)
		c.rules_out[k] =
		    (struct links_rules_out){.slowdown_percent = 30 + k, .covered = 24, .of = 24};
	c.rules_out[DETECT_LINK].covered = 90;
	c.rules_out[DETECT_LINK].of = 276;
	return c;
}

Test(links_coverage, every_field_under_its_key)
{
	cJSON *summary = cJSON_CreateObject();
	struct links_coverage c = sample();
	cr_assert(links_report_add_coverage(summary, &c));
	cJSON *o = cJSON_GetObjectItemCaseSensitive(summary, SK_LSUM_COVERAGE);
	cr_assert(cJSON_IsObject(o));
	cr_assert_str_eq(cJSON_GetObjectItem(o, SK_COVER_PATTERN)->valuestring, "screen");
	cr_assert_eq(cJSON_GetObjectItem(o, SK_COVER_ROUNDS)->valueint, 9);
	cr_assert_eq(cJSON_GetObjectItem(o, SK_COVER_FOLLOWUP_ROUNDS)->valueint, 2);
	cr_assert_eq(cJSON_GetObjectItem(o, SK_COVER_PAIRS_MEASURED)->valueint, 90);
	cr_assert_eq(cJSON_GetObjectItem(o, SK_COVER_MIN_PARTNERS)->valueint, 6);
	cr_assert(cJSON_IsNull(cJSON_GetObjectItem(o, SK_COVER_BUDGET_S)), "no budget: null");
	cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(o, SK_COVER_STOPPED_BY_BUDGET)));
	cJSON *rules = cJSON_GetObjectItem(o, SK_COVER_RULES_OUT);
	cr_assert_eq(cJSON_GetArraySize(rules), DETECT_KINDS);
	for (int k = 0; k < DETECT_KINDS; k++) {
		cJSON *r = cJSON_GetArrayItem(rules, k);
		cr_assert_str_eq(cJSON_GetObjectItem(r, SK_RULES_KIND)->valuestring,
		                 detect_kind_name((enum detect_kind)k));
		cr_assert_float_eq(cJSON_GetObjectItem(r, SK_RULES_SLOWDOWN_PERCENT)->valuedouble,
		                   30 + k, 1e-12);
	}
	cr_assert_eq(
	    cJSON_GetObjectItem(cJSON_GetArrayItem(rules, DETECT_LINK), SK_RULES_OF)->valueint,
	    276);
	cJSON_Delete(summary);
}

Test(links_coverage, not_judged_is_null)
{
	cJSON *summary = cJSON_CreateObject();
	struct links_coverage c = sample();
	c.rules_out[DETECT_HOST].slowdown_percent = NAN;
	cr_assert(links_report_add_coverage(summary, &c));
	cJSON *rules =
	    cJSON_GetObjectItem(cJSON_GetObjectItem(summary, SK_LSUM_COVERAGE), SK_COVER_RULES_OUT);
	cr_assert(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(rules, DETECT_HOST),
	                                           SK_RULES_SLOWDOWN_PERCENT)));
	cJSON_Delete(summary);
}
