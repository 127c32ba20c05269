/*
 * The library held to its performance guidelines (reports/tune/consistency.h):
 * a clear violation is found with its figures; a tie, a noisy overlap, a
 * small ratio or mpi the faster is not; a larger message that is faster is;
 * a cliff upwards is not a monotonic violation but shows against the own
 * variants; the adjustment keeps a borderline check out of a large family
 * and lets a real violation through; and the JSON and the text say it all.
 */
#include "reports/stats/stats.h"
#include "reports/tune/consistency.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

enum { N = 20, MANY = 64 };

/* n samples from base upwards by step: distinct, so no ties unless asked for. */
static void ramp(double *x, size_t n, double base, double step)
{
	for (size_t i = 0; i < n; i++)
		x[i] = base + step * (double)i;
}

static struct tune_series series(const char *name, const double *x, size_t n)
{
	return (struct tune_series){name, x, n};
}

static struct tune_consistency check(const struct tune_point *p, size_t n,
                                     const struct tune_consistency_opts *o)
{
	struct tune_consistency c;
	cr_assert_eq(tune_consistency_check(p, n, o, &c), 0);
	return c;
}

Test(tune_consistency, a_clear_violation_is_found_with_its_figures)
{
	double mpi[N], rb[N];
	ramp(mpi, N, 200, 1); /* p50 209.5 */
	ramp(rb, N, 100, 1);  /* p50 109.5 */
	struct tune_point p = {.bytes = 1 << 20,
	                       .mpi = series("mpi", mpi, N),
	                       .reduce_bcast = series("mpi-reduce-bcast", rb, N)};
	struct tune_consistency c = check(&p, 1, NULL);
	double u, pv;
	cr_assert_eq(stats_mann_whitney(mpi, N, rb, N, &u, &pv), 0);
	cr_assert_eq(c.nchecks, 1);
	cr_assert_eq(c.nviolations, 1);
	const struct tune_violation *v = &c.violations[0];
	cr_expect_eq(v->kind, TUNE_SLOWER_THAN_REDUCE_BCAST);
	cr_expect_str_eq(tune_violation_kind_name(v->kind), "slower_than_reduce_bcast");
	cr_expect_eq(v->bytes, 1u << 20);
	cr_expect_eq(v->other_bytes, 1u << 20);
	cr_expect_str_eq(v->other, "mpi-reduce-bcast");
	cr_expect_float_eq(v->mpi_p50_us, 209.5, 1e-12);
	cr_expect_float_eq(v->other_p50_us, 109.5, 1e-12);
	cr_expect_float_eq(v->ratio, 209.5 / 109.5, 1e-12);
	cr_expect_float_eq(v->p_value, pv, 1e-15);
	cr_expect_float_eq(v->q_value, pv, 1e-15, "one check: adjusted is raw");
	/* no overlap at 20 a side: far below any alpha / m of a few hundred (the header's claim) */
	cr_expect_lt(pv, 1e-7);
	cr_expect_eq(v->mpi_samples, N);
	cr_expect_eq(v->other_samples, N);
	tune_consistency_release(&c);
	cr_expect_null(c.violations);
}

/* A tie, a noisy overlap with a large ratio, a clean gap with a small one, mpi the faster. */
Test(tune_consistency, a_tie_a_noisy_overlap_a_small_ratio_or_mpi_faster_is_none)
{
	double same[N], other[N], noisy[N], tight[N], close[N], slow[N];
	ramp(same, N, 100, 1);
	ramp(tight, N, 100, 0.01);
	ramp(other, N, 100, 10); /* 100 .. 290, p50 195 */
	for (int i = 0; i < N; i++) {
		noisy[i] = other[i] * 1.15; /* p50 1.15x, but the middles overlap */
		close[i] = tight[i] * 1.05; /* separated, only 5% */
		slow[i] = same[i] * 2;      /* the mock-up the slower */
	}
	struct tune_point tie = {.bytes = 8, .mpi = series("mpi", same, N),
	                         .reduce_bcast = series("mpi-reduce-bcast", same, N)};
	struct tune_point overlap = {.bytes = 16, .mpi = series("mpi", noisy, N),
	                             .rs_allgather = series("mpi-rs-allgather", other, N)};
	struct tune_point small = {.bytes = 32, .mpi = series("mpi", close, N),
	                           .rs_allgather = series("mpi-rs-allgather", tight, N)};
	struct tune_point faster = {.bytes = 64, .mpi = series("mpi", same, N),
	                            .reduce_bcast = series("mpi-reduce-bcast", slow, N)};
	const struct tune_point *each[] = {&tie, &overlap, &small, &faster};
	for (size_t i = 0; i < 4; i++) {
		struct tune_consistency c = check(each[i], 1, NULL);
		cr_expect_eq(c.nchecks, 1);
		cr_expect_eq(c.nviolations, 0, "point %zu", i);
		tune_consistency_release(&c);
	}
	/* what keeps each out: the overlap's ratio passes, its test does not; the reverse for 5% */
	double u, p;
	cr_assert_eq(stats_mann_whitney(noisy, N, other, N, &u, &p), 0);
	cr_expect_gt(p, 0.01);
	cr_assert_eq(stats_mann_whitney(close, N, tight, N, &u, &p), 0);
	cr_expect_lt(p, 1e-4);
}

/* Sizes in any order: mpi at 64 KiB slower than at 128 KiB (an algorithm switched too late). */
Test(tune_consistency, a_larger_message_that_is_faster_is_found)
{
	double at64[N], at128[N], at256[N];
	ramp(at256, N, 300, 1);
	ramp(at128, N, 150, 1);
	ramp(at64, N, 200, 1);
	struct tune_point p[] = {
	    {.bytes = 256 << 10, .mpi = series("mpi", at256, N)},
	    {.bytes = 64 << 10, .mpi = series("mpi", at64, N)},
	    {.bytes = 128 << 10, .mpi = series("mpi", at128, N)},
	};
	struct tune_consistency c = check(p, 3, NULL);
	cr_expect_eq(c.nchecks, 2);
	cr_assert_eq(c.nviolations, 1);
	const struct tune_violation *v = &c.violations[0];
	cr_expect_eq(v->kind, TUNE_NOT_MONOTONIC);
	cr_expect_eq(v->bytes, 64 << 10, "where mpi is the slower");
	cr_expect_eq(v->other_bytes, 128 << 10);
	cr_expect_str_eq(v->other, "mpi");
	cr_expect_float_eq(v->ratio, 209.5 / 159.5, 1e-12);
	tune_consistency_release(&c);
}

/* A size where mpi was not measured is stepped over, not a gap that hides a drop. */
Test(tune_consistency, a_drop_across_an_unmeasured_size_is_found)
{
	double big[N], small[N];
	ramp(big, N, 200, 1);
	ramp(small, N, 100, 1);
	struct tune_point p[] = {
	    {.bytes = 1024, .mpi = series("mpi", big, N)},
	    {.bytes = 2048},
	    {.bytes = 4096, .mpi = series("mpi", small, N)},
	};
	struct tune_consistency c = check(p, 3, NULL);
	cr_assert_eq(c.nviolations, 1);
	cr_expect_eq(c.violations[0].bytes, 1024);
	cr_expect_eq(c.violations[0].other_bytes, 4096);
	tune_consistency_release(&c);
}

/*
 * Open MPI 4.1's cliff at 32 MiB: time grows 6x for 2x the size. Time still
 * grows: no monotonic violation. The own ring, which allocates nothing per
 * call, does not pay it: mpi slower than ring at 32 MiB and 64 MiB, found.
 */
Test(tune_consistency, the_cliff_shows_against_the_own_variants_not_as_a_drop)
{
	double m16[N], m32[N], m64[N], r16[N], r32[N], r64[N];
	ramp(m16, N, 8000, 10);
	ramp(m32, N, 48000, 10);
	ramp(m64, N, 96000, 10);
	ramp(r16, N, 9000, 10);
	ramp(r32, N, 18000, 10);
	ramp(r64, N, 36000, 10);
	struct tune_series own16 = series("ring", r16, N), own32 = series("ring", r32, N),
	                   own64 = series("ring", r64, N);
	struct tune_point p[] = {
	    {.bytes = 16u << 20, .mpi = series("mpi", m16, N), .own = &own16, .nown = 1},
	    {.bytes = 32u << 20, .mpi = series("mpi", m32, N), .own = &own32, .nown = 1},
	    {.bytes = 64u << 20, .mpi = series("mpi", m64, N), .own = &own64, .nown = 1},
	};
	struct tune_consistency c = check(p, 3, NULL);
	cr_expect_eq(c.nchecks, 5, "3 against ring, 2 monotonic");
	cr_assert_eq(c.nviolations, 2);
	for (size_t i = 0; i < 2; i++) {
		cr_expect_eq(c.violations[i].kind, TUNE_SLOWER_THAN_OWN_VARIANT);
		cr_expect_str_eq(c.violations[i].other, "ring");
	}
	cr_expect_eq(c.violations[0].bytes, 32u << 20);
	cr_expect_eq(c.violations[1].bytes, 64u << 20);
	tune_consistency_release(&c);
}

/* Several own variants faster: one violation a size, against the fastest. */
Test(tune_consistency, only_the_fastest_own_variant_is_named)
{
	double mpi[N], ring[N], tree[N], naive[N];
	ramp(mpi, N, 200, 1);
	ramp(ring, N, 150, 1);
	ramp(tree, N, 120, 1);
	ramp(naive, N, 400, 1);
	struct tune_series own[] = {series("ring", ring, N), series("tree", tree, N),
	                            series("naive", naive, N)};
	struct tune_point p = {.bytes = 4096, .mpi = series("mpi", mpi, N), .own = own, .nown = 3};
	struct tune_consistency c = check(&p, 1, NULL);
	cr_expect_eq(c.nchecks, 3);
	cr_assert_eq(c.nviolations, 1);
	cr_expect_str_eq(c.violations[0].other, "tree");
	cr_expect_float_eq(c.violations[0].ratio, 209.5 / 129.5, 1e-12);
	tune_consistency_release(&c);
}

/*
 * mpi against one mock-up at p about 6e-4 and a ratio of 1.12: alone, a
 * violation. Among 63 checks that find nothing (own variants measured like
 * mpi), Holm's adjustment (and BH's) lifts it above 0.01: the one borderline
 * check of a large family is the false positive that 1 in 100 checks gives.
 */
Test(tune_consistency, the_adjustment_keeps_a_borderline_check_out_of_a_large_family)
{
	const double other[10] = {100, 101, 102, 103, 104, 105, 106, 107, 108, 109};
	const double mpi[10] = {106.5, 108.5, 115, 116, 117, 118, 119, 120, 121, 122};
	struct tune_series own[MANY - 1];
	for (size_t i = 0; i < MANY - 1; i++)
		own[i] = series("ring", mpi, 10);
	struct tune_point p = {.bytes = 512,
	                       .mpi = series("mpi", mpi, 10),
	                       .reduce_bcast = series("mpi-reduce-bcast", other, 10)};
	double u, pv;
	cr_assert_eq(stats_mann_whitney(mpi, 10, other, 10, &u, &pv), 0);
	cr_assert(pv < 0.01 && pv * MANY > 0.01, "p %g", pv);
	struct tune_consistency c = check(&p, 1, NULL);
	cr_expect_eq(c.nviolations, 1, "alone, it is one");
	tune_consistency_release(&c);

	p.own = own;
	p.nown = MANY - 1;
	struct tune_consistency_opts bh = tune_consistency_defaults();
	bh.correction = TUNE_CORRECT_BH;
	const struct tune_consistency_opts *opts[] = {NULL, &bh};
	for (size_t k = 0; k < 2; k++) {
		c = check(&p, 1, opts[k]);
		cr_expect_eq(c.nchecks, MANY);
		cr_expect_eq(c.nviolations, 0, "%s", k ? "bh" : "holm");
		tune_consistency_release(&c);
	}
}

/* A real gap survives the same family: Holm costs a clear violation nothing. */
Test(tune_consistency, a_clear_violation_survives_a_large_family)
{
	double mpi[N], rb[N];
	ramp(mpi, N, 200, 1);
	ramp(rb, N, 100, 1);
	struct tune_series own[MANY * 4];
	for (size_t i = 0; i < MANY * 4; i++)
		own[i] = series("ring", mpi, N);
	struct tune_point p = {.bytes = 512,
	                       .mpi = series("mpi", mpi, N),
	                       .reduce_bcast = series("mpi-reduce-bcast", rb, N),
	                       .own = own,
	                       .nown = MANY * 4};
	struct tune_consistency c = check(&p, 1, NULL);
	cr_expect_eq(c.nchecks, MANY * 4 + 1);
	cr_assert_eq(c.nviolations, 1);
	cr_expect_lt(c.violations[0].q_value, 0.01);
	cr_expect_gt(c.violations[0].q_value, c.violations[0].p_value);
	tune_consistency_release(&c);
}

/* Fewer than 2 samples a side: counted as untested, in no family. 5 a side never pass. */
Test(tune_consistency, too_few_samples_are_untested_or_never_significant)
{
	double one[1] = {1000}, mpi[5] = {200, 201, 202, 203, 204}, rb[5] = {100, 101, 102, 103, 104};
	struct tune_point p = {.bytes = 8,
	                       .mpi = series("mpi", mpi, 5),
	                       .reduce_bcast = series("mpi-reduce-bcast", rb, 5),
	                       .rs_allgather = series("mpi-rs-allgather", one, 1)};
	struct tune_consistency c = check(&p, 1, NULL);
	cr_expect_eq(c.nchecks, 1);
	cr_expect_eq(c.nuntested, 1);
	cr_expect_eq(c.nviolations, 0, "5 a side, no overlap: p 0.012 at best");
	tune_consistency_release(&c);
	double u, pv;
	cr_assert_eq(stats_mann_whitney(mpi, 5, rb, 5, &u, &pv), 0);
	cr_expect(pv > 0.01 && pv < 0.013, "p %g", pv);
}

Test(tune_consistency, bad_arguments_are_refused)
{
	double x[N];
	ramp(x, N, 1, 1);
	struct tune_point twice[] = {{.bytes = 8, .mpi = series("mpi", x, N)},
	                             {.bytes = 8, .mpi = series("mpi", x, N)}};
	struct tune_consistency c;
	struct tune_consistency_opts o = tune_consistency_defaults();
	cr_expect_eq(tune_consistency_check(twice, 2, NULL, &c), -1, "a size twice");
	cr_expect_eq(c.nviolations, 0);
	cr_expect_null(c.violations);
	cr_expect_eq(tune_consistency_check(twice, 1, NULL, NULL), -1);
	cr_expect_eq(tune_consistency_check(NULL, 1, NULL, &c), -1);
	o.alpha = 0;
	cr_expect_eq(tune_consistency_check(twice, 1, &o, &c), -1);
	o = tune_consistency_defaults();
	o.min_ratio = 0.9;
	cr_expect_eq(tune_consistency_check(twice, 1, &o, &c), -1);
	o.min_ratio = NAN;
	cr_expect_eq(tune_consistency_check(twice, 1, &o, &c), -1);
	cr_expect_eq(tune_consistency_check(NULL, 0, NULL, &c), 0, "nothing to check is no error");
	cr_expect_eq(c.nchecks, 0);
	cr_expect_null(tune_violation_kind_name(TUNE_VIOLATION_KINDS));
}

static const struct tune_violation drop = {.kind = TUNE_NOT_MONOTONIC,
                                           .bytes = 65536,
                                           .other_bytes = 131072,
                                           .other = "mpi",
                                           .mpi_p50_us = 209.5,
                                           .other_p50_us = 159.5,
                                           .ratio = 209.5 / 159.5,
                                           .p_value = 6.8e-8,
                                           .q_value = 1.4e-7,
                                           .mpi_samples = 20,
                                           .other_samples = 30};

static double number(const cJSON *o, const char *key)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
	cr_assert(cJSON_IsNumber(x), "%s is a number", key);
	return x->valuedouble;
}

Test(tune_consistency, the_json_names_every_figure_with_its_unit)
{
	struct tune_violation v[2] = {drop, drop};
	v[1].kind = TUNE_SLOWER_THAN_OWN_VARIANT;
	v[1].other = "ring";
	v[1].other_bytes = v[1].bytes;
	v[1].p_value = NAN; /* undefined: null, never a number */
	cJSON *a = cJSON_CreateArray();
	cr_assert_eq(tune_violations_to_json(a, v, 2), 0);
	cr_assert_eq(cJSON_GetArraySize(a), 2);
	const cJSON *e = cJSON_GetArrayItem(a, 0);
	cr_expect_str_eq(cJSON_GetObjectItemCaseSensitive(e, "kind")->valuestring, "not_monotonic");
	cr_expect_str_eq(cJSON_GetObjectItemCaseSensitive(e, "other")->valuestring, "mpi");
	cr_expect_eq(number(e, "bytes"), 65536);
	cr_expect_eq(number(e, "other_bytes"), 131072);
	cr_expect_eq(number(e, "mpi_p50_us"), 209.5);
	cr_expect_eq(number(e, "other_p50_us"), 159.5);
	cr_expect_eq(number(e, "ratio"), 209.5 / 159.5);
	cr_expect_eq(number(e, "p_value"), 6.8e-8);
	cr_expect_eq(number(e, "q_value"), 1.4e-7);
	cr_expect_eq(number(e, "mpi_samples"), 20);
	cr_expect_eq(number(e, "other_samples"), 30);
	e = cJSON_GetArrayItem(a, 1);
	cr_expect_str_eq(cJSON_GetObjectItemCaseSensitive(e, "kind")->valuestring,
	                 "slower_than_own_variant");
	cr_expect(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(e, "p_value")));
	cr_expect_eq(tune_violations_to_json(NULL, v, 2), -1);
	cJSON_Delete(a);
}

Test(tune_consistency, a_violation_reads_as_one_line)
{
	char line[256], tiny[16];
	cr_assert_eq(tune_violation_format(&drop, line, sizeof line), 0);
	cr_expect_str_eq(line, "65536 bytes: mpi p50 209.5 us is 1.31x its 159.5 us at 131072 bytes "
	                       "(p 6.8e-08, adjusted 1.4e-07): a larger message is faster");
	struct tune_violation v = drop;
	v.kind = TUNE_SLOWER_THAN_RS_ALLGATHER;
	v.other = "mpi-rs-allgather";
	cr_assert_eq(tune_violation_format(&v, line, sizeof line), 0);
	cr_expect_str_eq(line, "65536 bytes: mpi p50 209.5 us is 1.31x mpi-rs-allgather's 159.5 us "
	                       "(p 6.8e-08, adjusted 1.4e-07): MPI_Allreduce slower than "
	                       "MPI_Reduce_scatter + MPI_Allgatherv");
	cr_expect_eq(tune_violation_format(&v, tiny, sizeof tiny), -1, "cut");
	cr_expect_eq(strlen(tiny), sizeof tiny - 1, "and terminated");
	cr_expect_eq(tune_violation_format(NULL, line, sizeof line), -1);
}
