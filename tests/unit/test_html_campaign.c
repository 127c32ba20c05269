/*
 * The campaign section of the HTML page (tests/cluster/campaign_run.py's
 * result): the confusion table with its intervals, the sensitivity chart,
 * the draws with the healthy accusations flagged, escaping, and members of
 * the wrong type named with where they are.
 */
#include "reports/render/html.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

static char err[1024];

static const char campaign_json[] =
    "{\"schema_version\": 1, \"command\": \"campaign\", \"campaign_format_version\": 1,"
    " \"complete\": true,"
    " \"context\": {\"started_utc\": \"2026-12-03T17:40:16Z\", \"duration_s\": 120.5},"
    " \"config\": {\"seed\": 7, \"draws\": 3, \"base_rate_mbit\": 300},"
    " \"summary\": {"
    "  \"overall\": {\"draws\": 3,"
    "   \"cells\": {\"right\": 1, \"wrong_class\": 0, \"missed\": 1, \"healthy_accused\": 1,"
    "              \"clean_ok\": 0},"
    "   \"precision\": {\"value\": 0.5, \"ci_low\": 0.09, \"ci_high\": 0.91, \"count\": 1, \"of\": "
    "2},"
    "   \"recall\": {\"value\": 0.5, \"ci_low\": 0.09, \"ci_high\": 0.91, \"count\": 1, \"of\": 2},"
    "   \"attribution\": {\"value\": 1, \"ci_low\": 0.21, \"ci_high\": 1, \"count\": 1, \"of\": 1},"
    "   \"clean_false_accusation\": {\"value\": 1, \"ci_low\": 0.21, \"ci_high\": 1, \"count\": 1,"
    "                               \"of\": 1},"
    "   \"time_to_verdict\": {\"n\": 3, \"p50_s\": 12.25, \"p50_ci_low_s\": null,"
    "                        \"p50_ci_high_s\": null, \"p90_s\": 30, \"p90_ci_low_s\": 10,"
    "                        \"p90_ci_high_s\": null}},"
    "  \"classes\": [{\"class\": \"host<send>\", \"draws\": 2,"
    "   \"cells\": {\"right\": 1, \"missed\": 1},"
    "   \"recall\": {\"value\": 0.5, \"ci_low\": 0.09, \"ci_high\": 0.91, \"count\": 1, \"of\": 2},"
    "   \"precision\": {\"value\": null, \"ci_low\": null, \"ci_high\": null, \"count\": 0, "
    "\"of\": 0}}],"
    "  \"sensitivity\": [{\"magnitude_pct\": 10, \"draws\": 1,"
    "                    \"recall\": {\"value\": 0, \"ci_low\": 0, \"ci_high\": 0.79}},"
    "                   {\"magnitude_pct\": 50, \"draws\": 1,"
    "                    \"recall\": {\"value\": 1, \"ci_low\": 0.21, \"ci_high\": 1}}]},"
    " \"results\": ["
    "  {\"index\": 0, \"class\": \"host-send\", \"command\": \"links\", \"magnitude_pct\": 50,"
    "   \"load\": \"none\", \"time_to_verdict_s\": 12.25, \"score\": {\"outcome\": \"right\"}},"
    "  {\"index\": 1, \"class\": \"host-send\", \"command\": \"links\", \"magnitude_pct\": 10,"
    "   \"load\": \"cpu\", \"time_to_verdict_s\": 30, \"score\": {\"outcome\": \"missed\"}},"
    "  {\"index\": 2, \"class\": \"none\", \"command\": \"trace\", \"load\": \"traffic\","
    "   \"time_to_verdict_s\": 5, \"score\": {\"outcome\": \"healthy_accused\"}},"
    "  {\"index\": 3, \"class\": \"none\", \"command\": \"trace\", \"run_error\": \"exit 132\"}]}";

static char *page_of(cJSON *root)
{
	struct html_input in = {"campaign.json", root};
	struct html_buf b;

	html_buf_init(&b);
	err[0] = '\0';
	if (html_render_page(&b, &in, 1, "0.test", err, sizeof err) != 0) {
		cr_assert_neq(err[0], '\0', "a failure says why");
		html_buf_release(&b);
		return NULL;
	}
	return b.data;
}

Test(html_campaign, confusion_table_with_intervals)
{
	cJSON *r = cJSON_Parse(campaign_json);
	cr_assert_not_null(r);
	char *page = page_of(r);

	cr_assert_not_null(page, "%s", err);
	cr_assert_not_null(strstr(page, "Verdicts against the truth"));
	/* the class name from the report, escaped */
	cr_assert_not_null(strstr(page, "<td>host&lt;send&gt;</td><td class=\"num\">2</td>"));
	cr_assert_not_null(strstr(page, "0.50 [0.09, 0.91] 1/2"));
	/* an undefined proportion is a dash, not 0 */
	cr_assert_not_null(strstr(page, "<td class=\"num\">0</td><td>&#8212;</td>"));
	/* an end the sample cannot bound is '?' */
	cr_assert_not_null(strstr(page, "12.2 [?, ?]"), "%s", page);
	cr_assert_not_null(strstr(page, "30.0 [10.0, ?]"));
	cr_assert_null(strstr(page, "does not know how to chart"));
	free(page);
	cJSON_Delete(r);
}

Test(html_campaign, sensitivity_chart_and_draws)
{
	cJSON *r = cJSON_Parse(campaign_json);
	char *page = page_of(r);

	cr_assert_not_null(page, "%s", err);
	cr_assert_not_null(strstr(page, "recall by magnitude of the fault"));
	cr_assert_not_null(strstr(page, "<svg"));
	cr_assert_not_null(strstr(page, "<tr class=\"flag\"><td class=\"num\">2</td>"));
	cr_assert_not_null(strstr(page, "<td>run failed</td>"));
	cr_assert_null(strstr(page, "<script"));
	free(page);
	cJSON_Delete(r);
}

Test(html_campaign, wrong_types_are_named)
{
	cJSON *r = cJSON_Parse(campaign_json);
	cJSON *classes = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "summary"), "classes");

	cJSON_ReplaceItemInObject(cJSON_GetArrayItem(classes, 0), "draws", cJSON_CreateString("2"));
	cr_assert_null(page_of(r));
	cr_assert_not_null(
	    strstr(err, "report 'campaign.json': summary.classes[0].draws is not a number"), "%s",
	    err);
	cJSON_Delete(r);

	r = cJSON_Parse(campaign_json);
	cJSON *sens = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "summary"), "sensitivity");
	cJSON_ReplaceItemInObject(cJSON_GetArrayItem(sens, 1), "magnitude_pct",
	                          cJSON_CreateNumber(400));
	cr_assert_null(page_of(r));
	cr_assert_not_null(strstr(err, "summary.sensitivity[1].magnitude_pct is out of range"),
	                   "%s", err);
	cJSON_Delete(r);

	r = cJSON_Parse(campaign_json);
	cJSON_ReplaceItemInObject(cJSON_GetObjectItem(r, "summary"), "overall",
	                          cJSON_CreateArray());
	cr_assert_null(page_of(r));
	cr_assert_not_null(strstr(err, "summary.overall is not an object"), "%s", err);
	cJSON_Delete(r);
}
