/*
 * The cost walk (algorithms/cost.h): the terms read from each variant's own
 * schedule against the closed forms of its header comment, the ring's time
 * 2(n-1) alpha + 2(n-1)/n S beta + (n-1)/n S gamma through the model, the
 * busiest rank, and the sample taken past the step budget.
 */
#include "algorithms/cost.h"
#include "reports/model/model.h"

#include <criterion/criterion.h>
#include <math.h>

#define SEG_LARGE ((size_t)1 << 30) /* bytes: one segment per transfer */
#define ELEM      4

static const struct ar_variant *variant(const char *name)
{
	const struct ar_variant *v = ar_variant_find(name);
	cr_assert_not_null(v, "variant %s", name);
	return v;
}

static struct cost_path walk(const char *name, int n, size_t count, size_t segment_bytes)
{
	struct cost_path c;
	cr_assert_eq(cost_walk(variant(name), n, count, ELEM, segment_bytes, 0, &c), 0,
	             "%s at %d ranks", name, n);
	return c;
}

static int log2i(int n)
{
	int l = 0;
	while ((1 << l) < n)
		l++;
	return l;
}

Test(cost, segment_count_as_the_executor)
{
	cr_expect_eq(cost_segment_count(256 * 1024, 4), 65536);
	cr_expect_eq(cost_segment_count(3, 4), 1);
	cr_expect_eq(cost_segment_count(0, 8), 1);
}

/* The check: ring = 2(n-1) alpha + 2(n-1)/n S beta + (n-1)/n S gamma. */
Test(cost, ring_time_is_the_closed_form)
{
	const struct model_fit f = {
	    .alpha_us = 5, .beta_us_per_byte = 1e-4, .gamma_us_per_byte = 3e-5};
	for (int n = 2; n <= 33; n++) {
		size_t count = (size_t)n * 1000; /* divides evenly: every chunk 1000 elements */
		double s = (double)(count * ELEM);
		struct cost_path c = walk("ring", n, count, SEG_LARGE);
		struct model_terms x = {(double)c.messages, (double)c.bytes,
		                        (double)c.reduced_bytes};
		double want = 2.0 * (n - 1) * f.alpha_us +
		              2.0 * (n - 1) / n * s * f.beta_us_per_byte +
		              (double)(n - 1) / n * s * f.gamma_us_per_byte;
		cr_expect_eq(c.messages, 2 * (uint64_t)(n - 1), "n %d", n);
		cr_expect_eq(c.bytes, 2 * (uint64_t)(n - 1) * 1000 * ELEM, "n %d", n);
		cr_expect_eq(c.bytes_sent, c.bytes, "n %d: every ring step sends what it receives",
		             n);
		cr_expect_eq(c.reduced_bytes, (uint64_t)(n - 1) * 1000 * ELEM, "n %d", n);
		cr_expect(c.one_rank, "n %d: every rank of the ring does the same", n);
		cr_expect(fabs(model_time_us(&f, &x) - want) <= 1e-9 * want, "n %d: %g vs %g", n,
		          model_time_us(&f, &x), want);
	}
}

Test(cost, ring_segments_multiply_the_messages)
{
	/* 8 ranks, chunks of 1000 elements cut into segments of 300: 4 per chunk */
	struct cost_path c = walk("ring", 8, 8000, 300 * ELEM);
	cr_expect_eq(c.messages, 2 * 7 * 4);
	cr_expect_eq(c.bytes, 2 * 7 * 1000 * ELEM);
	cr_expect_eq(c.reduced_bytes, 7 * 1000 * ELEM);
}

/* The root of the binomial tree: L children, each segment received then sent L times. */
Test(cost, tree_is_bound_by_its_root)
{
	for (int n = 2; n <= 64; n *= 2) {
		int l = log2i(n);
		struct cost_path c = walk("tree", n, 1000, 250 * ELEM); /* 4 segments */
		cr_expect_eq(c.messages, 2 * (uint64_t)l * 4, "n %d", n);
		cr_expect_eq(c.bytes, 2 * (uint64_t)l * 1000 * ELEM, "n %d", n);
		cr_expect_eq(c.reduced_bytes, (uint64_t)l * 1000 * ELEM, "n %d", n);
		cr_expect_eq(c.busiest_rank, 0, "n %d", n);
		cr_expect(c.one_rank, "n %d", n);
	}
}

Test(cost, rabenseifner_and_recursive_doubling_at_powers_of_two)
{
	for (int p = 2; p <= 64; p *= 2) {
		int l = log2i(p);
		size_t count = (size_t)p * 64;
		double s = (double)(count * ELEM);
		struct cost_path r = walk("rabenseifner", p, count, SEG_LARGE);
		struct cost_path d = walk("recursive-doubling", p, count, SEG_LARGE);
		cr_expect_eq(r.messages, 2 * (uint64_t)l, "p %d", p);
		cr_expect_eq((double)r.bytes, 2.0 * (p - 1) / p * s, "p %d", p);
		cr_expect_eq((double)r.reduced_bytes, (double)(p - 1) / p * s, "p %d", p);
		cr_expect_eq(d.messages, (uint64_t)l, "p %d", p);
		cr_expect_eq((double)d.bytes, l * s, "p %d", p);
		cr_expect_eq((double)d.reduced_bytes, l * s, "p %d", p);
	}
}

/* 3 ranks: rank 1 folds rank 0's input in, halves with rank 2, and sends the result back. */
Test(cost, rabenseifner_fold_is_on_the_path)
{
	struct cost_path c = walk("rabenseifner", 3, 8, SEG_LARGE);
	cr_expect_eq(c.messages, 4);
	cr_expect_eq(c.bytes, (8 + 4 + 4 + 8) * ELEM);
	cr_expect_eq(c.reduced_bytes, (8 + 4) * ELEM);
	cr_expect_eq(c.busiest_rank, 1);
	cr_expect(c.one_rank);
}

Test(cost, naive_root_receives_everything)
{
	struct cost_path c = walk("naive", 5, 100, SEG_LARGE);
	cr_expect_eq(c.messages, 8);
	cr_expect_eq(c.bytes, 8 * 100 * ELEM);
	cr_expect_eq(c.bytes_sent, 4 * 100 * ELEM);
	cr_expect_eq(c.reduced_bytes, 4 * 100 * ELEM);
	cr_expect_eq(c.busiest_rank, 0);
}

Test(cost, one_rank_and_empty_cases)
{
	struct cost_path c = walk("ring", 1, 1000, SEG_LARGE);
	cr_expect_eq(c.messages, 0);
	cr_expect_eq(c.bytes, 0);
	c = walk("tree", 4, 0, SEG_LARGE);
	cr_expect_eq(c.messages, 0);
	/* 2 elements over 4 ranks: the empty chunks vanish, as they do when the executor runs */
	c = walk("ring", 4, 2, SEG_LARGE);
	cr_expect_lt(c.messages, 6);
	cr_expect_gt(c.messages, 0);
}

Test(cost, direct_variants_have_no_schedule)
{
	struct cost_path c;
	cr_expect_eq(cost_walk(variant("mpi"), 4, 100, ELEM, SEG_LARGE, 0, &c), -1);
	cr_expect_eq(cost_walk(variant("ring"), 0, 100, ELEM, SEG_LARGE, 0, &c), -1);
}

/* Past the budget a sample is walked; it finds what the whole walk finds, up to an element. */
Test(cost, sample_matches_the_whole_walk)
{
	static const int ns[] = {100, 129, 257, 1000};
	static const size_t counts[] = {2, 1031, 65539};
	for (int i = 0; ar_variants[i]; i++) {
		if (!ar_variants[i]->build)
			continue;
		for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
			for (size_t b = 0; b < sizeof counts / sizeof counts[0]; b++) {
				struct cost_path all, some;
				const char *name = ar_variants[i]->name;
				cr_assert_eq(cost_walk(ar_variants[i], ns[a], counts[b], ELEM, 4096,
				                       0, &all),
				             0);
				cr_assert_eq(cost_walk(ar_variants[i], ns[a], counts[b], ELEM, 4096,
				                       1, &some),
				             0);
				cr_expect(!all.sampled && some.sampled);
				cr_expect_lt(some.ranks_walked, ns[a], "%s n %d", name, ns[a]);
				cr_expect_eq(some.messages, all.messages, "%s n %d count %zu", name,
				             ns[a], counts[b]);
				cr_expect_eq(some.bytes, all.bytes, "%s n %d count %zu", name,
				             ns[a], counts[b]);
				cr_expect_leq(all.reduced_bytes - some.reduced_bytes, ELEM,
				              "%s n %d count %zu", name, ns[a], counts[b]);
			}
	}
}

Test(cost, budget_decides_the_sample)
{
	struct cost_path c;
	/* ring of 64 ranks: (126 steps + 64) x 64 = 12160 units of work */
	cr_assert_eq(cost_walk(variant("ring"), 64, 64000, ELEM, SEG_LARGE, 12160, &c), 0);
	cr_expect_not(c.sampled);
	cr_expect_eq(c.ranks_walked, 64);
	cr_assert_eq(cost_walk(variant("ring"), 64, 64000, ELEM, SEG_LARGE, 12159, &c), 0);
	cr_expect(c.sampled);
}
