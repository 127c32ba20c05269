/* All-reduce records (reports/io/ar_report.c): what counts as measured, window fields, table cells. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "reports/io/ar_report.h"

static struct ar_record record(const double *samples, size_t n)
{
	static const double means[2] = {5, 6};
	struct ar_record r = {.algorithm = "ring", .dtype = "float32", .op = "sum", .bytes = 1024,
	                      .count = 256, .ranks = 2, .samples_us = samples, .nsamples = n,
	                      .rank_mean_us = means, .straggler_rank = -1, .timing_known = true,
	                      .timing = TIMING_WINDOW, .calls_per_sample = 1,
	                      .window_lead_us = 20, .straggler_us = NAN};
	cr_assert_eq(ar_record_compute(&r), 0);
	return r;
}

/* No gate may pass on a point that has no time: skipped, or every sample lost. */
Test(ar_report, a_point_without_samples_or_skipped_has_no_time)
{
	double samples[3] = {10, 12, 11};
	struct ar_record r = record(samples, 3);
	cr_expect(ar_record_has_time(&r));
	r = record(samples, 0);
	cr_expect_not(ar_record_has_time(&r), "no sample: not measured");
	cr_expect(isnan(r.busbw_gbps));
	r = record(samples, 3);
	r.skipped = "needs a power-of-two rank count";
	cr_expect_not(ar_record_has_time(&r), "skipped: not measured");
}

/* The window fields say what the samples were timed from and how many late starts were kept. */
Test(ar_report, window_records_say_how_they_were_timed)
{
	double samples[3] = {10, 12, 11};
	struct ar_record r = record(samples, 3);
	r.late_starts_retimed = 3;
	r.timed_from = TIMING_FROM_LAST_ARRIVAL;
	cJSON *results = cJSON_CreateArray();
	cJSON *o = ar_record_to_json(results, &r);
	cr_assert_not_null(o);
	cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(o, "timed_from")), "last_arrival");
	cr_expect_eq(cJSON_GetObjectItem(o, "late_starts_retimed")->valuedouble, 3);
	cr_expect_eq(cJSON_GetObjectItem(o, "late_starts")->valuedouble, 0);
	r.timing = TIMING_BARRIER;
	o = ar_record_to_json(results, &r);
	cr_expect_null(cJSON_GetObjectItem(o, "timed_from"), "window only");
	cJSON_Delete(results);
}

/* A small bandwidth keeps its digits in the table: 0.000294, not 0.000; never an exponent. */
Test(ar_report, small_bandwidths_print_in_fixed_notation)
{
	double samples[2] = {3486.5, 3486.5}; /* 1 KiB in 3.5 ms: 0.000294 GB/s */
	struct ar_record r = record(samples, 2);
	char row[512];
	cr_assert_eq(ar_format_row(row, sizeof row, &r, true), 0);
	cr_expect(strstr(row, ",0.000294,0.000294,") != NULL, "%s", row);
	cr_expect(strstr(row, "e-") == NULL && strstr(row, "e+") == NULL, "%s", row);
}
