/*
 * compare --paired on synthetic runs: the load moves every run of a pair by
 * the same factor, and by up to 60% between pairs; a real change moves the
 * current run of every pair. Plain compare of two runs sees the drift as a
 * regression; paired compare sees the change alone.
 */
#include "reports/compare/compare_points.h"
#include "report_fixtures.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

enum { PAIRS = 4 };
static const double drift[PAIRS] = {1.0, 1.6, 0.9, 1.3};
static char err[1024];

/* ring and mpi at 64 KiB; ring's times x factor (the change) and every time x load. */
static cJSON *run(double load, double factor, int n, unsigned seed)
{
	cJSON *root = fx_report("allreduce", 4, 1);
	fx_measured(root, "mpi", 65536, 100.0 * load, 0.05, n, seed);
	fx_measured(root, "ring", 65536, 120.0 * load * factor, 0.05, n, seed + 1);
	return root;
}

struct paired {
	cJSON *roots[2 * PAIRS];
	struct cmp_run runs[2 * PAIRS];
	struct cmp_result result;
	struct cmp_options opts;
};

/* Pairs of (baseline, current x factor in the pairs of mask), each pair at its drift. */
static void measure(struct paired *p, double factor, unsigned mask, int n)
{
	memset(p, 0, sizeof *p);
	cmp_options_init(&p->opts);
	p->opts.pairs = PAIRS;
	for (int i = 0; i < PAIRS; i++) {
		p->roots[2 * i] = run(drift[i], 1.0, n, 10u * (unsigned)i);
		p->roots[2 * i + 1] =
		    run(drift[i], mask & (1u << i) ? factor : 1.0, n, 10u * (unsigned)i + 5);
	}
	for (int k = 0; k < 2 * PAIRS; k++)
		cr_assert_eq(cmp_run_load(&p->runs[k], k % 2 ? "cur.json" : "base.json", p->roots[k],
		                          err, sizeof err),
		             0, "%s", err);
	cr_assert_eq(cmp_compare_paired(p->runs, PAIRS, &p->opts, &p->result), 0);
}

static void release(struct paired *p)
{
	cmp_result_release(&p->result);
	for (int k = 0; k < 2 * PAIRS; k++) {
		cmp_run_release(&p->runs[k]);
		cJSON_Delete(p->roots[k]);
	}
}

static const struct cmp_row *row(const struct paired *p, const char *algorithm)
{
	for (size_t i = 0; i < p->result.nrows; i++)
		if (strcmp(p->result.rows[i].base->algorithm, algorithm) == 0)
			return &p->result.rows[i];
	cr_assert_fail("no row of %s", algorithm);
	return NULL;
}

Test(compare_paired, the_load_between_pairs_is_no_regression)
{
	struct paired p;
	measure(&p, 1.0, 0, 30);
	cr_assert_eq(p.result.count[CMP_REGRESSION], 0);
	cr_assert_eq(p.result.count[CMP_UNCHANGED], 2);
	cr_assert_eq(row(&p, "ring")->pairs, PAIRS);
	cr_assert_float_eq(row(&p, "ring")->ratio[CMP_P50], 1.0, 0.05);
	/* the same runs compared two at a time across pairs: the drift fails the gate */
	struct cmp_result plain;
	cr_assert_eq(cmp_compare(&p.runs[0], &p.runs[3], &p.opts, &plain), 0);
	cr_assert_gt(plain.count[CMP_REGRESSION], 0, "baseline of pair 1, current of pair 2");
	cmp_result_release(&plain);
	release(&p);
}

Test(compare_paired, a_change_in_every_pair_regresses_the_point_alone)
{
	struct paired p;
	measure(&p, 1.25, 0xf, 30);
	cr_assert_eq(p.result.count[CMP_REGRESSION], 1);
	const struct cmp_row *r = row(&p, "ring");
	cr_assert_eq(r->verdict, CMP_REGRESSION);
	cr_assert_float_eq(r->ratio[CMP_P50], 1.25, 0.05);
	cr_assert_gt(r->t, 5, "t %g", r->t);
	cr_assert_lt(r->q_value, 0.01);
	cr_assert(isnan(r->u), "no single Mann-Whitney U");
	/* the row shows the pairs' medians, not pair 1's */
	cr_assert_float_eq(r->base_value[CMP_P50], 120.0 * 1.15, 12, "%g", r->base_value[CMP_P50]);
	cr_assert_eq(row(&p, "mpi")->verdict, CMP_UNCHANGED);
	release(&p);
	measure(&p, 0.75, 0xf, 30);
	cr_assert_eq(row(&p, "ring")->verdict, CMP_IMPROVED);
	release(&p);
}

/* A burst of load on one current run moves its pair, not the median over the pairs. */
Test(compare_paired, one_disturbed_pair_is_not_a_regression)
{
	struct paired p;
	measure(&p, 1.5, 0x2, 30);
	const struct cmp_row *r = row(&p, "ring");
	cr_assert_neq(r->verdict, CMP_REGRESSION, "%s", cmp_verdict_name(r->verdict));
	cr_assert_float_eq(r->ratio[CMP_P50], 1.0, 0.05);
	release(&p);
}

/* The pair is the unit: six samples a run still give each pair its ratio. */
Test(compare_paired, the_pair_is_the_unit_not_the_sample)
{
	struct paired p;
	measure(&p, 1.5, 0xf, 6);
	const struct cmp_row *r = row(&p, "ring");
	cr_assert_eq(r->verdict, CMP_REGRESSION, "%s", cmp_verdict_name(r->verdict));
	cr_assert_eq(r->tested_base, PAIRS);
	release(&p);
}

/* Pairs that disagree (the load, not the code) are no evidence, however many samples. */
Test(compare_paired, pairs_that_disagree_are_not_significant)
{
	struct paired p;
	measure(&p, 1.6, 0x3, 200); /* 1.6x in two pairs of four: median 1.3x */
	const struct cmp_row *r = row(&p, "ring");
	cr_assert_gt(r->ratio[CMP_P50], 1.1);
	cr_assert_eq(r->verdict, CMP_NOT_SIGNIFICANT, "%s, t %g", cmp_verdict_name(r->verdict),
	             r->t);
	cr_assert_str_eq(r->note, "the pairs do not agree on it");
	release(&p);
}

Test(compare_paired, a_point_missing_from_a_pair_is_not_compared)
{
	struct paired p;
	memset(&p, 0, sizeof p);
	cmp_options_init(&p.opts);
	for (int k = 0; k < 2 * PAIRS; k++) {
		p.roots[k] = fx_report("allreduce", 4, 1);
		fx_measured(p.roots[k], "mpi", 65536, 100.0, 0.05, 30, (unsigned)k);
		if (k != 5) /* pair 3's current run has no ring */
			fx_measured(p.roots[k], "ring", 65536, 120.0, 0.05, 30, (unsigned)k + 50);
		cr_assert_eq(cmp_run_load(&p.runs[k], "r.json", p.roots[k], err, sizeof err), 0,
		             "%s", err);
	}
	cr_assert_eq(cmp_compare_paired(p.runs, PAIRS, &p.opts, &p.result), 0);
	const struct cmp_row *r = row(&p, "ring");
	cr_assert_eq(r->verdict, CMP_NOT_COMPARED);
	cr_assert_eq(r->pairs, 2, "the pairs before the one without it");
	cr_assert_str_eq(r->note, "not measured in every pair");
	cr_assert_eq(row(&p, "mpi")->verdict, CMP_UNCHANGED);
	cr_assert_eq(cmp_compare_paired(p.runs, 1, &p.opts, &p.result), -1, "one pair: refused");
	release(&p);
}

/*
 * The run as a whole (struct cmp_whole): 8 points, each pair with a burst
 * of load that slowed two of its points 50x, as a descheduled rank does,
 * each point in one pair. A build 25% slower everywhere: every point's own
 * test loses the pair a burst hit, the median over each pair's points does not.
 */
enum { POINTS = 4 };
static const double sizes[POINTS] = {8, 1024, 65536, 1048576};

static cJSON *sweep(double load, double factor, unsigned burst_mask, unsigned seed)
{
	cJSON *root = fx_report("allreduce", 4, 1);
	for (int k = 0; k < 2 * POINTS; k++) {
		double us = (10.0 + sizes[k % POINTS] / 1000) * load * factor;
		fx_measured(root, k < POINTS ? "mpi" : "ring", sizes[k % POINTS],
		            burst_mask & (1u << k) ? 50 * us : us, 0.05, 20, seed + (unsigned)k);
	}
	return root;
}

static void measure_sweeps(struct paired *p, double factor)
{
	static const unsigned bursts[PAIRS] = {0x03, 0x0c, 0x30, 0xc0}; /* each point in one pair */
	memset(p, 0, sizeof *p);
	cmp_options_init(&p->opts);
	p->opts.pairs = PAIRS;
	for (int i = 0; i < PAIRS; i++) {
		p->roots[2 * i] = sweep(drift[i], 1.0, 0, 100u * (unsigned)i);
		p->roots[2 * i + 1] = sweep(drift[i], factor, bursts[i], 100u * (unsigned)i + 50);
	}
	for (int k = 0; k < 2 * PAIRS; k++)
		cr_assert_eq(cmp_run_load(&p->runs[k], "r.json", p->roots[k], err, sizeof err), 0,
		             "%s", err);
	cr_assert_eq(cmp_compare_paired(p->runs, PAIRS, &p->opts, &p->result), 0);
}

Test(compare_paired, a_build_slower_everywhere_regresses_the_run_as_a_whole)
{
	struct paired p;
	measure_sweeps(&p, 1.25);
	const struct cmp_whole *w = &p.result.whole;
	cr_assert(w->judged);
	cr_assert_eq(w->points, 2 * POINTS);
	cr_assert_float_eq(w->change_pct, 25, 3, "%g", w->change_pct);
	for (int i = 0; i < PAIRS; i++)
		cr_assert_float_eq(w->pair_change_pct[i], 25, 5, "pair %d: %g", i,
		                   w->pair_change_pct[i]);
	cr_assert_eq(w->verdict, CMP_REGRESSION, "%s, t %g, p %g", cmp_verdict_name(w->verdict),
	             w->t, w->p_value);
	cr_assert_eq(p.result.count[CMP_REGRESSION], 0, "a burst in one pair hid every point: %zu",
	             p.result.count[CMP_REGRESSION]);
	cr_assert(cmp_failed(&p.result));
	cr_assert_str_eq(cmp_status(&p.result), "regression");
	release(&p);
}

Test(compare_paired, bursts_without_a_change_are_no_regression_of_the_whole)
{
	struct paired p;
	measure_sweeps(&p, 1.0);
	const struct cmp_whole *w = &p.result.whole;
	cr_assert(w->judged);
	cr_assert_float_eq(w->change_pct, 0, 3, "%g", w->change_pct);
	cr_assert_eq(w->verdict, CMP_UNCHANGED, "%s", cmp_verdict_name(w->verdict));
	cr_assert(!cmp_failed(&p.result));
	release(&p);
	/* faster everywhere: improved, not a failure */
	measure_sweeps(&p, 0.75);
	cr_assert_eq(p.result.whole.verdict, CMP_IMPROVED);
	cr_assert_lt(p.result.whole.change_pct, -20);
	cr_assert(!cmp_failed(&p.result));
	release(&p);
}

/* Two runs, not pairs: no whole-run verdict. */
Test(compare_paired, two_runs_judge_no_whole)
{
	struct paired p;
	measure_sweeps(&p, 1.25);
	struct cmp_result plain;
	cr_assert_eq(cmp_compare(&p.runs[0], &p.runs[1], &p.opts, &plain), 0);
	cr_assert(!plain.whole.judged);
	cmp_result_release(&plain);
	release(&p);
}
