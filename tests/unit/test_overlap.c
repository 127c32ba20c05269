/* The overlap formulas (reports/model/overlap.c), the compute kernels and the overlap record. */
#include "reports/model/overlap_model.h"

#include <criterion/criterion.h>
#include <math.h>

#include "algorithms/compute.h"
#include "reports/io/overlap_report.h"

Test(overlap, osu_hidden_entirely_is_100)
{
	/* the call (100 us) hid behind 100 us of compute: overall = compute */
	struct overlap_times t = {
	    .pure_us = 100, .cpu_alone_us = 100, .overall_us = 100, .cpu_us = 100, .test_us = 0};
	cr_expect_float_eq(overlap_osu_percent(&t), 100, 1e-9);
	cr_expect_float_eq(overlap_imb_percent(&t), 100, 1e-9);
}

Test(overlap, in_series_is_0)
{
	struct overlap_times t = {
	    .pure_us = 100, .cpu_alone_us = 100, .overall_us = 200, .cpu_us = 100, .test_us = 0};
	cr_expect_float_eq(overlap_osu_percent(&t), 0, 1e-9);
	cr_expect_float_eq(overlap_imb_percent(&t), 0, 1e-9);
	t.overall_us = 250; /* worse than in series: both floor at 0 */
	cr_expect_float_eq(overlap_osu_percent(&t), 0, 1e-9);
	cr_expect_float_eq(overlap_imb_percent(&t), 0, 1e-9);
}

Test(overlap, osu_takes_the_test_calls_out_of_the_compute)
{
	/* 150 us overall, of which the compute 120 us with 40 us in tests: 80 us of real
	   compute; the call's 100 us less the 70 us beyond it: 30% hidden */
	struct overlap_times t = {
	    .pure_us = 100, .cpu_alone_us = 120, .overall_us = 150, .cpu_us = 120, .test_us = 40};
	cr_expect_float_eq(overlap_osu_percent(&t), 30, 1e-9);
	/* IMB: (100 + 120 - 150) / 120 */
	cr_expect_float_eq(overlap_imb_percent(&t), 100 * 70.0 / 120, 1e-9);
}

Test(overlap, undefined_is_nan)
{
	struct overlap_times t = {.pure_us = 0, .cpu_alone_us = 0, .overall_us = 10};
	cr_expect(isnan(overlap_osu_percent(&t)));
	cr_expect(isnan(overlap_imb_percent(&t)));
	t = (struct overlap_times){.pure_us = NAN, .cpu_alone_us = 1, .overall_us = 1};
	cr_expect(isnan(overlap_osu_percent(&t)) && isnan(overlap_imb_percent(&t)));
}

Test(overlap, means_over_ranks_and_the_slowest)
{
	struct overlap_times r[3] = {{.pure_us = 10, .overall_us = 30, .tests = 2},
	                             {.pure_us = 20, .overall_us = 50, .tests = 4},
	                             {.pure_us = 30, .overall_us = 40, .tests = 0}};
	struct overlap_times m = overlap_mean(r, 3);
	cr_expect_float_eq(m.pure_us, 20, 1e-9);
	cr_expect_float_eq(m.overall_us, 40, 1e-9);
	cr_expect_float_eq(m.tests, 2, 1e-9);
	cr_expect_eq(overlap_slowest(r, 3), 1);
}

Test(overlap, row_figures_use_means_for_osu_and_the_slowest_for_imb)
{
	struct overlap_times r[2] = {
	    {.pure_us = 100, .cpu_alone_us = 100, .overall_us = 100, .cpu_us = 100},
	    {.pure_us = 100, .cpu_alone_us = 100, .overall_us = 200, .cpu_us = 100}};
	struct overlap_row row = {.ranks = 2};
	overlap_row_figures(&row, r);
	cr_expect_eq(row.imb_rank, 1);
	cr_expect_float_eq(row.imb_pct, 0, 1e-9, "the slowest rank hid nothing");
	cr_expect_float_eq(row.osu_pct, 50, 1e-9, "the mean overall is 150");
	cJSON *arr = cJSON_CreateArray();
	row.algorithm = "ring";
	row.dtype = "float32";
	row.op = "sum";
	row.compute = "gemm";
	row.progress = "test";
	cJSON *o = overlap_row_to_json(arr, &row);
	cr_assert_not_null(o);
	cr_expect_float_eq(cJSON_GetObjectItem(o, "overlap_osu_percent")->valuedouble, 50, 1e-9);
	cr_expect_eq(cJSON_GetObjectItem(o, "imb_rank")->valueint, 1);
	row.skipped = "no non-blocking form";
	o = overlap_row_to_json(arr, &row);
	cr_expect_null(cJSON_GetObjectItem(o, "overlap_osu_percent"),
	               "a skipped row has no figures");
	cJSON_Delete(arr);
}

static int count_calls(void *arg)
{
	(*(int *)arg)++;
	return 0;
}

Test(compute, runs_at_least_the_duration_and_tests_at_the_interval)
{
	for (int kind = 0; kind < COMPUTE_KINDS; kind++) {
		struct compute k;
		struct compute_run r;
		int calls = 0;
		cr_assert_eq(compute_init(&k, kind), 0);
		cr_assert_eq(compute_for(&k, 2000, 100, count_calls, &calls, &r), 0);
		cr_expect_geq(r.wall_us, 2000, "%s ran %.0f us", compute_kind_names[kind],
		              r.wall_us);
		cr_expect_eq(r.tests, calls);
		cr_expect(calls >= 1 && calls <= 21, "%s: %d test calls in 2 ms every 100 us",
		          compute_kind_names[kind], calls);
		cr_expect(r.units >= 1);
		compute_release(&k);
	}
}

Test(compute, no_test_function_no_calls)
{
	struct compute k;
	struct compute_run r;
	cr_assert_eq(compute_init(&k, COMPUTE_GEMM), 0);
	compute_for(&k, 100, 0, NULL, NULL, &r);
	cr_expect_eq(r.tests, 0);
	cr_expect_eq(r.test_us, 0);
	compute_release(&k);
}

Test(overlap, step_figures_take_the_slowest_rank)
{
	/* compute 100, serial 160, step 130 on the slowest rank: 30 exposed, half of 60 hidden */
	const double r[6] = {100, 150, 120, 90, 160, 130};
	struct overlap_step s = overlap_step_of(r, 2);
	cr_expect_float_eq(s.compute_us, 100, 1e-9);
	cr_expect_float_eq(s.serial_us, 160, 1e-9);
	cr_expect_float_eq(s.step_us, 130, 1e-9);
	cr_expect_float_eq(s.exposed_us, 30, 1e-9);
	cr_expect_float_eq(s.hidden_fraction, 0.5, 1e-9);
	const double none[3] = {100, 100, 100};
	cr_expect(isnan(overlap_step_of(none, 1).hidden_fraction), "no communication: undefined");
}

Test(overlap, step_buckets_round_up)
{
	cr_expect_eq(overlap_buckets(0, 4), 0);
	cr_expect_eq(overlap_buckets(8, 4), 2);
	cr_expect_eq(overlap_buckets(9, 4), 3);
	cr_expect_eq(overlap_buckets(3, 4), 1);
}

Test(overlap, buckets_tile_the_gradient)
{
	const size_t grads[] = {1, 7, 8, 9, 1000, 1031}, buckets[] = {1, 3, 4, 8, 1000};
	for (size_t g = 0; g < sizeof grads / sizeof grads[0]; g++)
		for (size_t b = 0; b < sizeof buckets / sizeof buckets[0]; b++) {
			size_t n = overlap_buckets(grads[g], buckets[b]), next = 0;
			for (size_t i = 0; i < n; i++) {
				size_t c = overlap_bucket_count(grads[g], buckets[b], i);
				cr_expect_eq(overlap_bucket_offset(buckets[b], i), next,
				             "bucket %zu of %zu in %zu starts where the last ended", i,
				             grads[g], buckets[b]);
				cr_expect(c >= 1 && c <= buckets[b]);
				cr_expect(i + 1 == n || c == buckets[b], "only the last is smaller");
				next += c;
			}
			cr_expect_eq(next, grads[g], "%zu in buckets of %zu: every element once",
			             grads[g], buckets[b]);
			cr_expect_eq(overlap_bucket_count(grads[g], buckets[b], n), 0);
		}
}
