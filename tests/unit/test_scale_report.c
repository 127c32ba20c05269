/*
 * The rows of `collscope scale` (reports/io/scale_report.h): placement order,
 * references and derived figures, the text, and the JSON of predicted rows.
 */
#include "reports/io/scale_report.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* 3 hosts: host 0 holds ranks 0, 2, 4; host 1 ranks 1, 3; host 2 rank 5. */
static const int host_of[] = {0, 1, 0, 1, 0, 2};

Test(scale_report, packed_fills_a_host_first)
{
	const int want[] = {0, 2, 4, 1, 3, 5};
	int order[6];
	cr_assert_eq(scale_placement_order(host_of, 6, 3, false, order), 0);
	cr_assert_arr_eq(order, want, sizeof want);
	cr_expect_eq(scale_hosts_spanned(host_of, order, 2), 1);
	cr_expect_eq(scale_hosts_spanned(host_of, order, 4), 2);
	cr_expect_eq(scale_hosts_spanned(host_of, order, 6), 3);
}

Test(scale_report, spread_goes_round_the_hosts)
{
	const int want[] = {0, 1, 5, 2, 3, 4};
	int order[6];
	cr_assert_eq(scale_placement_order(host_of, 6, 3, true, order), 0);
	cr_assert_arr_eq(order, want, sizeof want);
	cr_expect_eq(scale_hosts_spanned(host_of, order, 2), 2);
	cr_expect_eq(scale_hosts_spanned(host_of, order, 3), 3);
}

Test(scale_report, placement_of_one_host_is_rank_order)
{
	const int one[] = {0, 0, 0, 0};
	const int want[] = {0, 1, 2, 3};
	int order[4];
	for (int spread = 0; spread < 2; spread++) {
		cr_assert_eq(scale_placement_order(one, 4, 1, spread, order), 0);
		cr_expect_arr_eq(order, want, sizeof want);
	}
	const int bad[] = {0, 3};
	cr_expect_eq(scale_placement_order(bad, 2, 2, false, order), -1);
	cr_expect_eq(scale_placement_order(one, 0, 1, false, order), -1);
}

static struct scale_row row(const char *algo, uint64_t bytes, int ranks, double p50, double busbw)
{
	return (struct scale_row){.algorithm = algo,
	                          .bytes = bytes,
	                          .ranks = ranks,
	                          .hosts = 1,
	                          .p50_us = p50,
	                          .p99_us = NAN,
	                          .busbw_gbps = busbw};
}

Test(scale_report, efficiency_against_the_smallest_count)
{
	struct scale_row rows[] = {
	    row("ring", 1024, 4, 30, 2.0),
	    row("ring", 1024, 2, 10, 4.0),
	    row("tree", 1024, 4, 50, 1.0),
	    row("ring", 8, 8, 40, 0.001),
	};
	struct scale_step_cfg cfg = {0};
	scale_rows_reference(rows, N_OF(rows));
	for (size_t i = 0; i < N_OF(rows); i++)
		scale_row_derive(&rows[i], &cfg);
	cr_expect_eq(rows[0].bw_efficiency, 0.5);
	cr_expect_eq(rows[0].latency_growth, 3);
	cr_expect_eq(rows[1].bw_efficiency, 1);
	cr_expect_eq(rows[2].bw_efficiency, 1, "its own group: tree");
	cr_expect_eq(rows[3].latency_growth, 1, "its own group: 8 bytes");
	cr_expect_not(rows[0].has_step);
}

Test(scale_report, step_model_on_the_gradient_rows)
{
	struct scale_row r = row("ring", 1 << 20, 4, 25000, 1); /* Tar 25 ms */
	struct scale_row other = row("ring", 8, 4, 10, 1);
	struct scale_step_cfg cfg = {
	    .on = true, .compute_us = 100000, .grad_bytes = 1 << 20, .overlap = 0.5};
	r.ref_p50_us = r.p50_us;
	r.ref_busbw_gbps = r.busbw_gbps;
	scale_row_derive(&r, &cfg);
	scale_row_derive(&other, &cfg);
	cr_assert(r.has_step);
	cr_expect_not(other.has_step);
	cr_expect(fabs(r.step.efficiency - 0.8) < 1e-12);
	cr_expect(fabs(r.step.speedup - 3.2) < 1e-12);
	cr_expect(fabs(r.step.strong_speedup - 100000.0 / 50000) < 1e-12);
	/* overlapped: 12.5 ms of 25 hidden behind the 100 ms of compute */
	cr_expect(fabs(r.overlapped.efficiency - 100 / 112.5) < 1e-12);
}

/* issue 40: --compress-ratio, the step again at the compressed Tar the model set */
Test(scale_report, compressed_step_at_its_own_tar)
{
	struct scale_row r = row("ring", 1 << 20, 4, 25000, 1), none = r;
	struct scale_step_cfg cfg = {
	    .on = true, .compute_us = 100000, .grad_bytes = 1 << 20, .compress_ratio = 4};
	r.compressed_tar_us = 7500; /* 25 ms / 4 on the wire, 1.25 ms of casts */
	none.compressed_tar_us = NAN; /* no fit */
	scale_row_derive(&r, &cfg);
	scale_row_derive(&none, &cfg);
	cr_assert(r.has_compressed);
	cr_expect_not(none.has_compressed);
	cr_expect(fabs(r.step.efficiency - 0.8) < 1e-12, "the uncompressed step unchanged");
	cr_expect(fabs(r.compressed.efficiency - 100 / 107.5) < 1e-12);
	cr_expect(fabs(r.compressed.strong_speedup - 100000.0 / 32500) < 1e-12);
	cfg.compress_ratio = 0;
	scale_row_derive(&r, &cfg);
	cr_expect_not(r.has_compressed, "without --compress-ratio, none");
}

Test(scale_report, measured_overlap_replaces_the_given_one)
{
	struct scale_row r = row("ring", 1 << 20, 4, 25000, 1); /* Tar 25 ms */
	struct scale_step_cfg cfg = {
	    .on = true, .compute_us = 100000, .grad_bytes = 1 << 20, .overlap = 0.5};
	r.overlap_measured = true;
	r.measured_overlap = 0.2;
	r.measured_step_us = 121000;
	scale_row_derive(&r, &cfg);
	cr_expect_float_eq(r.overlap, 0.2, 1e-12);
	/* 5 ms of 25 hidden: the model's step 100 + 20 ms */
	cr_expect_float_eq(r.predicted_step_us, 120000, 1e-6);
	cr_expect_float_eq(r.overlapped.efficiency, 100 / 120.0, 1e-12);
	cJSON *rec = cJSON_CreateObject();
	cr_assert_not_null(scale_row_add_json(rec, &r));
	const cJSON *ov = cJSON_GetObjectItemCaseSensitive(rec, "overlapped");
	cr_expect(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ov, "measured")));
	cr_expect_float_eq(cJSON_GetObjectItemCaseSensitive(ov, "measured_step_us")->valuedouble,
	                   121000, 1e-6);
	cr_expect_float_eq(cJSON_GetObjectItemCaseSensitive(ov, "predicted_step_us")->valuedouble,
	                   120000, 1e-6);
	cJSON_Delete(rec);
	struct scale_row given = row("ring", 1 << 20, 4, 25000, 1);
	scale_row_derive(&given, &cfg);
	cr_expect_float_eq(given.overlap, 0.5, 1e-12, "not measured: the configured overlap");
}

Test(scale_report, speedup_line)
{
	char buf[128];
	cr_assert_eq(scale_format_speedup(buf, sizeof buf, 256, 200.7), 0);
	cr_expect_str_eq(buf, "256 ranks: 201x of 256 ideal (78%)");
	cr_assert_eq(scale_format_speedup(buf, sizeof buf, 2, 1.984), 0);
	cr_expect_str_eq(buf, "2 ranks: 1.98x of 2 ideal (99%)");
	cr_assert_eq(scale_format_speedup(buf, sizeof buf, 4, NAN), 0);
	cr_expect_str_eq(buf, "4 ranks: -");
	cr_expect_eq(scale_format_speedup(buf, 8, 256, 200.7), -1);
}

Test(scale_report, predicted_rows_say_so)
{
	char line[256];
	struct scale_row r = row("ring", 1024, 4096, 500, 0.5);
	struct scale_row m = row("ring", 1024, 2, 10, 4);
	r.predicted = true;
	r.hosts = -1;
	r.ref_p50_us = 100;
	r.ref_busbw_gbps = 1;
	scale_row_derive(&r, &(struct scale_step_cfg){0});
	cr_assert_eq(scale_format_row(line, sizeof line, &r), 0);
	cr_expect(strstr(line, "PREDICTED") != NULL, "%s", line);
	cr_assert_eq(scale_format_row(line, sizeof line, &m), 0);
	cr_expect(strstr(line, "measured") != NULL, "%s", line);

	cJSON *results = cJSON_CreateArray();
	cr_assert_not_null(
	    scale_prediction_to_json(results, &r, 256, "allgather", "float32", "sum", false));
	const cJSON *rec = cJSON_GetArrayItem(results, 0);
	cr_expect_str_eq(cJSON_GetObjectItemCaseSensitive(rec, "collective")->valuestring,
	                 "allgather");
	cr_expect(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rec, "predicted")));
	cr_expect_eq(cJSON_GetObjectItemCaseSensitive(rec, "ranks")->valuedouble, 4096);
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(rec, "time_us");
	cr_expect_eq(cJSON_GetObjectItemCaseSensitive(t, "p50")->valuedouble, 500);
	cr_expect_eq(cJSON_GetObjectItemCaseSensitive(rec, "bandwidth_efficiency")->valuedouble,
	             0.5);
	cr_expect_eq(cJSON_GetObjectItemCaseSensitive(rec, "latency_growth")->valuedouble, 5);
	cr_expect_null(cJSON_GetObjectItemCaseSensitive(rec, "hosts"));
	cJSON_Delete(results);
}

Test(scale_report, fit_json_marks_a_borrowed_shape)
{
	struct model_fit f = {.alpha_us = 2,
	                      .beta_us_per_byte = 1e-4,
	                      .gamma_us_per_byte = 0,
	                      .rms_error = 0.1,
	                      .max_error = 0.2,
	                      .npoints = 4};
	cJSON *o = cJSON_CreateObject();
	cJSON *fit = scale_fit_to_json(o, &f, "rabenseifner", true);
	cr_assert_not_null(fit);
	cr_expect(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(fit, "shape_borrowed")));
	cr_expect(fabs(cJSON_GetObjectItemCaseSensitive(fit, "bandwidth_gbps")->valuedouble - 10) <
	          1e-9);
	cr_expect(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(fit, "reduce_gbps")));
	cJSON_Delete(o);
}
