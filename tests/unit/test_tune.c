/*
 * collscope tune's decision (reports/tune/tune_decide.h): a clear winner
 * changes the file; a tie, a noisy one, a wrong one, too few samples and a
 * small gain keep the library's default; the ranges start at 0 and merge.
 * Samples are arithmetic runs, so every median and rank is exact.
 */
#include "reports/stats/stats.h"
#include "reports/tune/tune_decide.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#define N 20

/* x[i] = base + step * i: median base + step * (n - 1) / 2. */
static void run(double *x, size_t n, double base, double step)
{
	for (size_t i = 0; i < n; i++)
		x[i] = base + step * (double)i;
}

static struct tune_set set(int ranks, uint64_t bytes, int alg, const char *name, const double *x,
                           size_t n)
{
	return (struct tune_set){.ranks = ranks,
	                         .bytes = bytes,
	                         .alg = alg,
	                         .alg_name = name,
	                         .samples_us = x,
	                         .nsamples = n};
}

/* Decides sets[0..n) with the default options; expects one point. */
static struct tune_choice decide_one(const struct tune_set *sets, size_t n)
{
	struct tune_choice out[8];
	size_t nout = 99;
	char err[256] = "";

	cr_assert_eq(tune_decide(sets, n, NULL, out, &nout, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(nout, 1);
	return out[0];
}

Test(tune, clear_winner_changes)
{
	double def[N], ring[N], rd[N];
	run(def, N, 100, 1); /* p50 109.5 */
	run(ring, N, 50, 1); /* p50 59.5 */
	run(rd, N, 90, 1);   /* p50 99.5 */
	struct tune_set s[] = {set(4, 65536, 3, "recursive_doubling", rd, N),
	                       set(4, 65536, 0, "ignore", def, N),
	                       set(4, 65536, 4, "ring", ring, N)};
	struct tune_choice c = decide_one(s, 3);
	double u, p;

	cr_assert(c.changed);
	cr_assert_eq(c.why, TUNE_FASTER);
	cr_assert_eq(c.alg, 4);
	cr_assert_str_eq(c.alg_name, "ring");
	cr_assert_eq(c.ranks, 4);
	cr_assert_eq(c.bytes, 65536);
	cr_assert_eq(c.default_p50_us, 109.5);
	cr_assert_eq(c.chosen_p50_us, 59.5);
	cr_assert_eq(c.candidate_alg, 4);
	cr_assert_eq(c.gain, 109.5 / 59.5);
	cr_assert_eq(stats_mann_whitney(ring, N, def, N, &u, &p), 0);
	cr_assert_eq(c.p_value, p);
	cr_assert_lt(c.p_value, 1e-6);
}

Test(tune, tie_keeps_default)
{
	double def[N], same[N];
	run(def, N, 100, 1);
	run(same, N, 100, 1);
	struct tune_set s[] = {set(2, 8, 0, "ignore", def, N), set(2, 8, 4, "ring", same, N)};
	struct tune_choice c = decide_one(s, 2);

	cr_assert_not(c.changed);
	cr_assert_eq(c.alg, 0);
	cr_assert_str_eq(c.alg_name, "ignore");
	cr_assert_eq(c.why, TUNE_NONE_FASTER);
	cr_assert_eq(c.chosen_p50_us, c.default_p50_us);
	cr_assert_eq(c.candidate_alg, -1);
	cr_assert(isnan(c.gain) && isnan(c.p_value));
}

/* A lower p50 but samples spread over the default's: not significant. */
Test(tune, noisy_keeps_default)
{
	double def[N], noisy[N];
	run(def, N, 100, 1);  /* 100..119 */
	run(noisy, N, 40, 7); /* 40..173, p50 106.5 */
	struct tune_set s[] = {set(2, 8, 0, "ignore", def, N),
	                       set(2, 8, 6, "rabenseifner", noisy, N)};
	struct tune_choice c = decide_one(s, 2);

	cr_assert_not(c.changed);
	cr_assert_eq(c.why, TUNE_NOT_SIGNIFICANT, "%s", tune_why_text(c.why));
	cr_assert_eq(c.candidate_alg, 6);
	cr_assert_eq(c.candidate_p50_us, 106.5);
	cr_assert_eq(c.gain, 109.5 / 106.5);
	cr_assert_geq(c.p_value, 0.01);
}

/* The noisy fastest does not hide a steady runner-up. */
Test(tune, steady_runner_up_wins_over_noisy_fastest)
{
	double def[N], noisy[N], steady[N];
	run(def, N, 100, 1);
	run(noisy, N, 0, 9);     /* 0..171, p50 85.5: p about 0.14 */
	run(steady, N, 86, 0.5); /* 86..95.5, p50 90.75: every sample below the default's */
	struct tune_set s[] = {set(8, 1024, 0, "ignore", def, N),
	                       set(8, 1024, 1, "basic_linear", noisy, N),
	                       set(8, 1024, 3, "recursive_doubling", steady, N)};
	struct tune_choice c = decide_one(s, 3);

	cr_assert(c.changed);
	cr_assert_eq(c.alg, 3);
	cr_assert_eq(c.candidate_alg, 3);
	cr_assert_eq(c.gain, 109.5 / 90.75);
}

Test(tune, wrong_one_never_chosen)
{
	double def[N], fast[N];
	run(def, N, 100, 1);
	run(fast, N, 10, 1);
	struct tune_set s[] = {set(2, 8, 0, "ignore", def, N), set(2, 8, 4, "ring", fast, N)};
	s[1].wrong = true;
	struct tune_choice c = decide_one(s, 2);

	cr_assert_not(c.changed);
	cr_assert_eq(c.why, TUNE_NONE_FASTER);
}

Test(tune, wrong_fastest_leaves_the_next)
{
	double def[N], fast[N], next[N];
	run(def, N, 100, 1);
	run(fast, N, 10, 1);
	run(next, N, 50, 1);
	struct tune_set s[] = {set(2, 8, 0, "ignore", def, N), set(2, 8, 4, "ring", fast, N),
	                       set(2, 8, 3, "recursive_doubling", next, N)};
	s[1].wrong = true;
	struct tune_choice c = decide_one(s, 3);

	cr_assert(c.changed);
	cr_assert_eq(c.alg, 3);
}

Test(tune, candidate_with_too_few_samples_is_ignored)
{
	double def[N], fast[N];
	run(def, N, 100, 1);
	run(fast, N, 10, 1);
	struct tune_set s[] = {set(2, 8, 0, "ignore", def, N),
	                       set(2, 8, 4, "ring", fast, TUNE_DEFAULT_MIN_SAMPLES - 1)};
	struct tune_choice c = decide_one(s, 2);

	cr_assert_not(c.changed);
	cr_assert_eq(c.why, TUNE_NONE_FASTER);
}

Test(tune, default_with_too_few_samples_is_kept)
{
	double def[N], fast[N];
	run(def, N, 100, 1);
	run(fast, N, 10, 1);
	struct tune_set s[] = {set(2, 8, 0, "ignore", def, 5), set(2, 8, 4, "ring", fast, N)};
	struct tune_choice c = decide_one(s, 2);

	cr_assert_not(c.changed);
	cr_assert_eq(c.why, TUNE_DEFAULT_FEW);
	cr_assert_eq(c.default_p50_us, 102);
}

Test(tune, default_without_samples)
{
	double fast[N];
	run(fast, N, 10, 1);
	struct tune_set s[] = {set(2, 8, 0, "ignore", NULL, 0), set(2, 8, 4, "ring", fast, N)};
	struct tune_choice c = decide_one(s, 2);

	cr_assert_eq(c.why, TUNE_DEFAULT_FEW);
	cr_assert(isnan(c.default_p50_us));
}

Test(tune, wrong_default_is_kept_and_said)
{
	double def[N], fast[N];
	run(def, N, 100, 1);
	run(fast, N, 10, 1);
	struct tune_set s[] = {set(2, 8, 0, "ignore", def, N), set(2, 8, 4, "ring", fast, N)};
	s[0].wrong = true;
	struct tune_choice c = decide_one(s, 2);

	cr_assert_not(c.changed);
	cr_assert_eq(c.alg, 0);
	cr_assert_eq(c.why, TUNE_DEFAULT_WRONG);
}

/* No default at the point: the file keeps the library's decision there, and says why. */
Test(tune, no_default_no_choice)
{
	double fast[N];
	run(fast, N, 10, 1);
	struct tune_set s[] = {set(2, 8, 4, "ring", fast, N)};
	struct tune_choice c = decide_one(s, 1);

	cr_assert_not(c.changed);
	cr_assert_eq(c.alg, 0);
	cr_assert_null(c.alg_name);
	cr_assert_eq(c.why, TUNE_NO_DEFAULT);
	cr_assert(isnan(c.default_p50_us));
	cr_assert_str_eq(tune_why_text(c.why), "no default measured at this point");
}

/* Significant (the runs do not overlap) but 2% faster: below the 5% minimum. */
Test(tune, small_gain_keeps_default)
{
	double def[N], close[N];
	run(def, N, 100, 0.01);
	run(close, N, 98, 0.01);
	struct tune_set s[] = {set(2, 8, 0, "ignore", def, N), set(2, 8, 4, "ring", close, N)};
	struct tune_choice c = decide_one(s, 2);

	cr_assert_not(c.changed);
	cr_assert_eq(c.why, TUNE_GAIN_SMALL);
	cr_assert_lt(c.p_value, 1e-6);
	cr_assert_lt(c.gain, 1.05);
	cr_assert_gt(c.gain, 1.0);
}

Test(tune, options_move_the_thresholds)
{
	double def[N], close[N];
	run(def, N, 100, 0.01);
	run(close, N, 98, 0.01);
	struct tune_set s[] = {set(2, 8, 0, "ignore", def, N), set(2, 8, 4, "ring", close, N)};
	struct tune_decide_opts o;
	struct tune_choice out[2];
	size_t n;
	char err[128];

	tune_decide_opts_init(&o);
	cr_assert_eq(o.alpha, 0.01);
	cr_assert_eq(o.min_gain, 1.05);
	o.min_gain = 1.01;
	cr_assert_eq(tune_decide(s, 2, &o, out, &n, err, sizeof(err)), 0, "%s", err);
	cr_assert(out[0].changed);
	o.alpha = 1e-12;
	cr_assert_eq(tune_decide(s, 2, &o, out, &n, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(out[0].why, TUNE_NOT_SIGNIFICANT);
}

/* Points come out sorted by ranks then bytes, whatever the order of the sets. */
Test(tune, points_sorted)
{
	double a[N], b[N];
	run(a, N, 100, 1);
	run(b, N, 10, 1);
	struct tune_set s[] = {
	    set(8, 1024, 0, "ignore", a, N), set(2, 1024, 4, "ring", b, N),
	    set(2, 8, 0, "ignore", a, N),    set(8, 8, 0, "ignore", a, N),
	    set(2, 1024, 0, "ignore", a, N),
	};
	struct tune_choice out[5];
	size_t n;
	char err[128];

	cr_assert_eq(tune_decide(s, 5, NULL, out, &n, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(n, 4);
	cr_assert(out[0].ranks == 2 && out[0].bytes == 8 && !out[0].changed);
	cr_assert(out[1].ranks == 2 && out[1].bytes == 1024 && out[1].alg == 4);
	cr_assert(out[2].ranks == 8 && out[2].bytes == 8);
	cr_assert(out[3].ranks == 8 && out[3].bytes == 1024);
}

static void expect_error(const struct tune_set *s, size_t n, const struct tune_decide_opts *o,
                         const char *want)
{
	struct tune_choice out[4];
	size_t nout;
	char err[256] = "";

	cr_assert_eq(tune_decide(s, n, o, out, &nout, err, sizeof(err)), -1);
	cr_assert(strstr(err, want), "error '%s' lacks '%s'", err, want);
}

Test(tune, bad_input_named)
{
	double a[N], bad[N];
	run(a, N, 100, 1);
	run(bad, N, 100, 1);
	bad[3] = NAN;
	struct tune_set dup[] = {set(2, 8, 4, "ring", a, N), set(2, 8, 4, "ring", a, N)};
	struct tune_set nan[] = {set(2, 8, 4, "ring", bad, N)};
	struct tune_set neg[] = {set(2, 8, -1, "x", a, N)};
	struct tune_set ranks[] = {set(0, 8, 1, "x", a, N)};
	struct tune_set noname[] = {set(2, 8, 1, NULL, a, N)};
	struct tune_set nosamples[] = {set(2, 8, 1, "x", NULL, 3)};
	struct tune_decide_opts o;

	expect_error(dup, 2, NULL, "two sets of ring at 2 ranks, 8 bytes");
	expect_error(nan, 1, NULL, "sample 3 is nan us");
	expect_error(neg, 1, NULL, "negative algorithm id");
	expect_error(ranks, 1, NULL, "ranks below 1");
	expect_error(noname, 1, NULL, "no algorithm name");
	expect_error(nosamples, 1, NULL, "no samples array");
	tune_decide_opts_init(&o);
	o.alpha = 1.5;
	expect_error(ranks, 1, &o, "alpha 1.5");
	tune_decide_opts_init(&o);
	o.min_gain = 0.9;
	expect_error(ranks, 1, &o, "minimum gain 0.9");
	tune_decide_opts_init(&o);
	o.min_samples = 1;
	expect_error(ranks, 1, &o, "minimum samples 1");
}

Test(tune, no_sets_no_points)
{
	size_t n = 7;
	char err[64];

	cr_assert_eq(tune_decide(NULL, 0, NULL, NULL, &n, err, sizeof(err)), 0);
	cr_assert_eq(n, 0);
}

static struct tune_choice choice(int ranks, uint64_t bytes, int alg, const char *name)
{
	return (struct tune_choice){
	    .ranks = ranks, .bytes = bytes, .alg = alg, .alg_name = name, .changed = alg != 0};
}

Test(tune_ranges, library_below_and_merged)
{
	/* Unsorted, two rank counts mixed. */
	struct tune_choice c[] = {
	    choice(4, 65536, 4, "ring"),     choice(4, 8, 0, "ignore"),  choice(2, 8, 3, "rd"),
	    choice(4, 1024, 3, "rd"),        choice(4, 4096, 4, "ring"), choice(4, 16, 3, "rd"),
	    choice(4, 1 << 20, 0, "ignore"),
	};
	struct tune_range r[7];
	size_t n;
	char err[128];

	cr_assert_eq(tune_ranges(c, 7, 4, r, &n, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(n, 4);
	cr_assert(r[0].from_bytes == 0 && r[0].to_bytes == 16 && r[0].alg == 0);
	cr_assert(r[1].from_bytes == 16 && r[1].to_bytes == 4096 && r[1].alg == 3);
	cr_assert(r[2].from_bytes == 4096 && r[2].to_bytes == 1 << 20 && r[2].alg == 4);
	cr_assert_str_eq(r[2].alg_name, "ring");
	cr_assert(r[3].from_bytes == 1 << 20 && r[3].to_bytes == UINT64_MAX && r[3].alg == 0);

	/* one choice measured at 8 bytes: the library's below and above it */
	cr_assert_eq(tune_ranges(c, 7, 2, r, &n, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(n, 3);
	cr_assert(r[0].from_bytes == 0 && r[0].to_bytes == 8 && r[0].alg == 0);
	cr_assert(r[1].from_bytes == 8 && r[1].to_bytes == 9 && r[1].alg == 3);
	cr_assert(r[2].from_bytes == 9 && r[2].to_bytes == UINT64_MAX && r[2].alg == 0);
}

Test(tune_ranges, only_the_sizes_measured_change)
{
	/* 256 KiB .. 8 MiB measured, forced choices at both ends */
	struct tune_choice c[] = {choice(4, 262144, 2, "nonoverlapping"),
	                          choice(4, 1 << 20, 4, "ring"), choice(4, 2 << 20, 0, "ignore"),
	                          choice(4, 8 << 20, 6, "rabenseifner")};
	struct tune_range r[6];
	size_t n;
	char err[128];

	cr_assert_eq(tune_ranges(c, 4, 4, r, &n, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(n, 6);
	cr_assert(r[0].from_bytes == 0 && r[0].to_bytes == 262144 && r[0].alg == 0);
	cr_assert_null(r[0].alg_name);
	cr_assert(r[1].from_bytes == 262144 && r[1].alg == 2);
	cr_assert(r[2].from_bytes == 1 << 20 && r[2].alg == 4);
	cr_assert(r[3].from_bytes == 2 << 20 && r[3].to_bytes == 8 << 20 && r[3].alg == 0);
	cr_assert(r[4].from_bytes == 8 << 20 && r[4].to_bytes == (8 << 20) + 1 && r[4].alg == 6);
	cr_assert(r[5].from_bytes == (8 << 20) + 1 && r[5].to_bytes == UINT64_MAX && r[5].alg == 0);
}

Test(tune_ranges, all_equal_is_one_range)
{
	struct tune_choice c[] = {choice(2, 0, 0, "ignore"), choice(2, 8, 0, "ignore"),
	                          choice(2, 1 << 30, 0, "ignore")};
	struct tune_range r[3];
	size_t n;
	char err[128];

	cr_assert_eq(tune_ranges(c, 3, 2, r, &n, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(n, 1);
	cr_assert(r[0].from_bytes == 0 && r[0].to_bytes == UINT64_MAX && r[0].alg == 0);
}

Test(tune_ranges, errors_named)
{
	struct tune_choice c[] = {choice(2, 8, 0, "ignore"), choice(2, 8, 4, "ring")};
	struct tune_range r[2];
	size_t n;
	char err[128];

	cr_assert_eq(tune_ranges(c, 2, 2, r, &n, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "two choices at 2 ranks, 8 bytes");
	cr_assert_eq(tune_ranges(c, 2, 3, r, &n, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "no choice at 3 ranks");
}

Test(tune_ranges, ranks_distinct_ascending)
{
	struct tune_choice c[] = {choice(8, 8, 0, NULL), choice(2, 8, 0, NULL),
	                          choice(8, 16, 0, NULL), choice(4, 8, 0, NULL),
	                          choice(2, 16, 0, NULL)};
	int r[5];

	cr_assert_eq(tune_ranks(c, 5, r), 3);
	cr_assert(r[0] == 2 && r[1] == 4 && r[2] == 8);
}

/* tune_confirm: a second draw holds a real lead, reverts a faded or reversed one. */
static double fast[20], slow[20], same[20];

static void fill_draws(void)
{
	for (int i = 0; i < 20; i++) {
		fast[i] = 100 + i;
		slow[i] = 200 + i;
		same[i] = 100 + (i * 7) % 20;
	}
}

static struct tune_set again_set(int alg, const double *samples, size_t n)
{
	return (struct tune_set){.ranks = 4, .bytes = 1 << 20, .alg = alg, .alg_name = "x",
	                         .samples_us = samples, .nsamples = n};
}

static struct tune_choice chosen(int alg)
{
	struct tune_choice c = {.ranks = 4, .bytes = 1 << 20, .alg = alg, .alg_name = "ring",
	                        .changed = true, .why = TUNE_FASTER, .default_p50_us = 210,
	                        .chosen_p50_us = 105, .confirm_gain = NAN, .confirm_p_value = NAN};
	return c;
}

Test(tune_confirm, a_real_lead_holds)
{
	fill_draws();
	struct tune_set again[] = {again_set(0, slow, 20), again_set(4, fast, 20)};
	struct tune_choice c = chosen(4);
	char err[128];
	cr_assert_eq(tune_confirm(&c, 1, again, 2, NULL, err, sizeof err), 0, "%s", err);
	cr_assert(c.changed && c.alg == 4 && c.why == TUNE_FASTER);
	cr_assert_float_eq(c.confirm_gain, 209.5 / 109.5, 1e-9);
	cr_assert_lt(c.confirm_p_value, 0.01);
}

Test(tune_confirm, a_lucky_lead_fades_and_a_reversed_one_would_regress)
{
	fill_draws();
	struct tune_set faded[] = {again_set(0, same, 20), again_set(4, fast, 20)};
	struct tune_set reversed[] = {again_set(0, fast, 20), again_set(4, slow, 20)};
	struct tune_choice c[2] = {chosen(4), chosen(4)};
	char err[128];
	cr_assert_eq(tune_confirm(&c[0], 1, faded, 2, NULL, err, sizeof err), 1, "%s", err);
	cr_assert(!c[0].changed && c[0].alg == 0 && c[0].why == TUNE_NOT_CONFIRMED);
	cr_assert_float_eq(c[0].chosen_p50_us, c[0].default_p50_us, 1e-12);
	cr_assert_eq(tune_confirm(&c[1], 1, reversed, 2, NULL, err, sizeof err), 1, "%s", err);
	cr_assert(!c[1].changed && c[1].why == TUNE_WOULD_REGRESS);
	cr_assert_lt(c[1].confirm_gain, 1);
	cr_assert_str_eq(tune_why_text(TUNE_WOULD_REGRESS),
	                 "slower than the default when measured again: the file would regress");
}

Test(tune_confirm, unmeasured_or_thin_is_not_confirmed_and_unchanged_is_left)
{
	fill_draws();
	struct tune_set thin[] = {again_set(0, slow, 20), again_set(4, fast, 3)};
	struct tune_choice c[2] = {chosen(4), chosen(4)};
	c[1].changed = false;
	c[1].alg = 0;
	c[1].why = TUNE_NOT_SIGNIFICANT;
	char err[128];
	cr_assert_eq(tune_confirm(c, 2, thin, 2, NULL, err, sizeof err), 1, "%s", err);
	cr_assert(c[0].why == TUNE_NOT_CONFIRMED && isnan(c[0].confirm_p_value));
	cr_assert(c[1].why == TUNE_NOT_SIGNIFICANT && isnan(c[1].confirm_gain));
	struct tune_choice d = chosen(4);
	cr_assert_eq(tune_confirm(&d, 1, NULL, 0, NULL, err, sizeof err), 1);
	cr_assert_eq(d.why, TUNE_NOT_CONFIRMED);
}
