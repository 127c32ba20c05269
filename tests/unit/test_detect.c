/* The slow-link and slow-host detector of reports/diagnose/detect.c, on synthetic matrices. */
#include "reports/diagnose/detect.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_RANKS = 32 };

/* A synthetic cluster: where each rank is, and the value of every ordered pair. */
struct cluster {
	int nranks, nhosts;
	int host_of[MAX_RANKS], numa_of[MAX_RANKS];
	double value[MAX_RANKS][MAX_RANKS];
	struct detect_link links[MAX_RANKS * MAX_RANKS];
	size_t nlinks;
};

/* A deterministic generator (xorshift), so every run sees the same noise. */
static uint64_t rng_state;

static double uniform01(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (double)(rng_state >> 11) / (double)(1ULL << 53);
}

static double gaussian(void)
{
	double u = uniform01(), v = uniform01();
	return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

/* hosts x ranks_per_host ranks; numas NUMA nodes per host, ranks spread in blocks. */
static void layout(struct cluster *c, int hosts, int ranks_per_host, int numas)
{
	memset(c, 0, sizeof *c);
	c->nhosts = hosts;
	c->nranks = hosts * ranks_per_host;
	cr_assert(c->nranks <= MAX_RANKS);
	for (int r = 0; r < c->nranks; r++) {
		c->host_of[r] = r / ranks_per_host;
		c->numa_of[r] = (r % ranks_per_host) * numas / ranks_per_host;
	}
}

static enum detect_locality locality(const struct cluster *c, int a, int b)
{
	if (c->host_of[a] != c->host_of[b])
		return DETECT_CROSS_HOST;
	return c->numa_of[a] == c->numa_of[b] ? DETECT_SAME_NUMA : DETECT_SAME_HOST;
}

/* Every pair gets base[class] times (1 + noise x gaussian). */
static void fill(struct cluster *c, const double base[DETECT_LOCALITIES], double noise)
{
	for (int a = 0; a < c->nranks; a++)
		for (int b = 0; b < c->nranks; b++)
			c->value[a][b] = base[locality(c, a, b)] * (1 + noise * gaussian());
}

static void build(struct cluster *c)
{
	c->nlinks = 0;
	for (int a = 0; a < c->nranks; a++)
		for (int b = 0; b < c->nranks; b++)
			if (a != b)
				c->links[c->nlinks++] = (struct detect_link){
				    .a = a,
				    .b = b,
				    .host_a = c->host_of[a],
				    .host_b = c->host_of[b],
				    .locality = locality(c, a, b),
				    .value = c->value[a][b],
				    .judged = true,
				};
}

static void run_with(struct cluster *c, enum detect_metric m, const struct detect_params *p,
                     struct detect_result *r)
{
	build(c);
	detect_result_init(r);
	cr_assert_eq(detect_run(c->links, c->nlinks, c->nhosts, m, p, r), 0);
}

static void run(struct cluster *c, enum detect_metric m, struct detect_result *r)
{
	struct detect_params p;
	detect_params_default(&p);
	run_with(c, m, &p, r);
}

static const double BW[DETECT_LOCALITIES] = {20.0, 12.0, 3.0};
static const double LAT[DETECT_LOCALITIES] = {0.4, 0.9, 4.0};

Test(detect, one_slow_link_is_named)
{
	struct cluster c;
	struct detect_result r;
	rng_state = 1;
	layout(&c, 1, 8, 1);
	fill(&c, BW, 0.02);
	c.value[2][5] = 4.0;
	c.value[5][2] = 4.2;
	run(&c, DETECT_BANDWIDTH, &r);
	cr_assert_eq(r.nsuspects, 2, "%d suspects", r.nsuspects);
	cr_assert_eq(r.suspects[0].kind, DETECT_LINK);
	cr_assert(r.suspects[0].a == 2 && r.suspects[0].b == 5, "worst first: %d->%d",
	          r.suspects[0].a, r.suspects[0].b);
	cr_assert(r.suspects[1].a == 5 && r.suspects[1].b == 2);
	cr_assert_float_eq(r.suspects[0].ratio, 4.0 / r.classes[DETECT_BANDWIDTH][0].median, 1e-12);
	cr_assert(r.suspects[0].score < -3.5 && isfinite(r.suspects[0].score));
	cr_assert(r.classes[DETECT_BANDWIDTH][DETECT_SAME_NUMA].judged);
	detect_result_release(&r);
}

Test(detect, one_slow_link_across_hosts)
{
	struct cluster c;
	struct detect_result r;
	rng_state = 2;
	layout(&c, 4, 2, 1);
	fill(&c, BW, 0.03);
	c.value[1][6] = 0.9; /* one direction only: a bad transmit side */
	run(&c, DETECT_BANDWIDTH, &r);
	cr_assert_eq(r.nsuspects, 1, "%d suspects", r.nsuspects);
	cr_assert_eq(r.suspects[0].kind, DETECT_LINK);
	cr_assert_eq(r.suspects[0].locality, DETECT_CROSS_HOST);
	cr_assert(r.suspects[0].a == 1 && r.suspects[0].b == 6);
	cr_assert(r.suspects[0].host_a == 0 && r.suspects[0].host_b == 3);
	detect_result_release(&r);
}

Test(detect, one_slow_host_named_by_majority)
{
	struct cluster c;
	struct detect_result r;
	char why[256];
	const char *names[] = {"h0", "h1", "h2", "h3", "h4", "h5", "h6"};
	rng_state = 3;
	layout(&c, 7, 1, 1);
	fill(&c, BW, 0.03);
	for (int o = 0; o < c.nranks; o++)
		if (o != 3)
			c.value[3][o] = c.value[o][3] = 0.42 * (1 + 0.01 * gaussian());
	run(&c, DETECT_BANDWIDTH, &r);
	cr_assert_eq(r.nsuspects, 1, "the host, not its links: %d suspects", r.nsuspects);
	cr_assert_eq(r.suspects[0].kind, DETECT_HOST);
	cr_assert_eq(r.suspects[0].host, 3);
	cr_assert(r.suspects[0].by_majority);
	cr_assert_eq(r.suspects[0].links_suspect, 12);
	cr_assert_eq(r.suspects[0].links_total, 12);
	detect_describe(&r.suspects[0], names, why, sizeof why);
	cr_assert(strstr(why, "host h3: 12 of 12 cross_host links at 0.14x the median"), "%s", why);
	detect_result_release(&r);
}

/* Half of the cross-host links touch the slow host: only the host-level test sees it. */
Test(detect, one_slow_host_holding_half_the_links)
{
	struct cluster c;
	struct detect_result r;
	rng_state = 4;
	layout(&c, 4, 2, 1);
	fill(&c, BW, 0.03);
	for (int a = 6; a < 8; a++)
		for (int o = 0; o < 6; o++)
			c.value[a][o] = c.value[o][a] = 0.5 * (1 + 0.02 * gaussian());
	run(&c, DETECT_BANDWIDTH, &r);
	cr_assert_eq(r.nsuspects, 1, "%d suspects", r.nsuspects);
	cr_assert_eq(r.suspects[0].kind, DETECT_HOST);
	cr_assert_eq(r.suspects[0].host, 3);
	cr_assert_eq(r.suspects[0].locality, DETECT_CROSS_HOST);
	cr_assert(!r.suspects[0].by_majority);
	cr_assert(r.suspects[0].ratio < 0.25);
	cr_assert(r.classes[DETECT_BANDWIDTH][DETECT_CROSS_HOST].hosts_judged);
	detect_result_release(&r);
}

Test(detect, homogeneous_noisy_matrix_has_no_suspect)
{
	for (uint64_t seed = 1; seed <= 200; seed++) {
		struct cluster c;
		struct detect_result r;
		rng_state = seed * 0x9E3779B97F4A7C15ULL;
		layout(&c, seed % 2 ? 1 : 4, seed % 2 ? 16 : 4, 2);
		/* bandwidth: every link within +-5 % (the default tolerance is 10 %), or
		   +-20 % under a tolerance of 30 %, plus a little gaussian jitter */
		for (int wide = 0; wide < 2; wide++) {
			struct detect_params p;
			detect_params_default(&p);
			if (wide)
				p.tolerance = 0.3;
			fill(&c, BW, wide ? 0.02 : 0.005);
			for (int a = 0; a < c.nranks; a++)
				for (int b = 0; b < c.nranks; b++)
					c.value[a][b] *= wide ? 0.8 + 0.4 * uniform01() : 0.95 + 0.1 * uniform01();
			run_with(&c, DETECT_BANDWIDTH, &p, &r);
			char why[256] = "";
			if (r.nsuspects)
				detect_describe(&r.suspects[0], NULL, why, sizeof why);
			cr_assert_eq(r.nsuspects, 0, "seed %llu, +-%d %%: %d bandwidth suspects: %s",
			             (unsigned long long)seed, wide ? 20 : 5, r.nsuspects, why);
			detect_result_release(&r);
		}
		/* latency: a skewed tail, every link up to 1.35x slower */
		for (int a = 0; a < c.nranks; a++)
			for (int b = 0; b < c.nranks; b++)
				c.value[a][b] = LAT[locality(&c, a, b)] *
				                (1 + 0.35 * uniform01() * uniform01());
		run(&c, DETECT_LATENCY, &r);
		cr_assert_eq(r.nsuspects, 0, "seed %llu: %d latency suspects",
		             (unsigned long long)seed, r.nsuspects);
		detect_result_release(&r);
	}
}

Test(detect, two_classes_with_different_medians_accuse_nobody)
{
	struct cluster c;
	struct detect_result r;
	rng_state = 5;
	layout(&c, 3, 6, 2); /* same NUMA at 20, across NUMA at 12, across hosts at 3 GB/s */
	fill(&c, BW, 0.02);
	run(&c, DETECT_BANDWIDTH, &r);
	cr_assert_eq(r.nsuspects, 0, "%d suspects", r.nsuspects);
	for (int l = 0; l < DETECT_LOCALITIES; l++) {
		const struct detect_class *k = &r.classes[DETECT_BANDWIDTH][l];
		cr_assert(k->judged, "class %d", l);
		cr_assert(fabs(k->median / BW[l] - 1) < 0.02, "class %d median %g", l, k->median);
	}
	detect_result_release(&r);
	fill(&c, LAT, 0.02);
	run(&c, DETECT_LATENCY, &r);
	cr_assert_eq(r.nsuspects, 0, "%d latency suspects", r.nsuspects);
	detect_result_release(&r);
}

Test(detect, latency_is_the_mirror_image)
{
	struct cluster c;
	struct detect_result r;
	rng_state = 6;
	layout(&c, 1, 6, 1);
	fill(&c, LAT, 0.02);
	c.value[0][4] = 3.0;  /* slow */
	c.value[1][2] = 0.05; /* fast is never suspect */
	run(&c, DETECT_LATENCY, &r);
	cr_assert_eq(r.nsuspects, 1, "%d suspects", r.nsuspects);
	cr_assert(r.suspects[0].a == 0 && r.suspects[0].b == 4);
	cr_assert(r.suspects[0].ratio > 5 && r.suspects[0].score > 3.5);
	detect_result_release(&r);
	/* bandwidth: a fast link is never suspect either */
	fill(&c, BW, 0.02);
	c.value[1][2] = 200;
	run(&c, DETECT_BANDWIDTH, &r);
	cr_assert_eq(r.nsuspects, 0);
	detect_result_release(&r);
}

Test(detect, zero_mad_needs_the_ratio_too)
{
	struct cluster c;
	struct detect_result r;
	layout(&c, 1, 5, 1);
	double base[DETECT_LOCALITIES] = {10, 10, 10};
	fill(&c, base, 0);
	c.value[1][3] = 9.5; /* MAD is 0, so z is huge, but 0.95x is no accusation */
	run(&c, DETECT_BANDWIDTH, &r);
	cr_assert_eq(r.classes[DETECT_BANDWIDTH][0].mad, 0);
	cr_assert_eq(r.nsuspects, 0);
	detect_result_release(&r);
	c.value[1][3] = 5;
	run(&c, DETECT_BANDWIDTH, &r);
	cr_assert_eq(r.nsuspects, 1);
	cr_assert(isfinite(r.suspects[0].score), "score %g", r.suspects[0].score);
	detect_result_release(&r);
}

Test(detect, tiny_classes_are_not_judged)
{
	struct cluster c;
	struct detect_result r;
	layout(&c, 1, 2, 1);
	c.value[0][1] = 10;
	c.value[1][0] = 1;
	run(&c, DETECT_BANDWIDTH, &r);
	cr_assert_eq(r.nsuspects, 0);
	cr_assert_eq(r.classes[DETECT_BANDWIDTH][DETECT_SAME_NUMA].links, 2);
	cr_assert(!r.classes[DETECT_BANDWIDTH][DETECT_SAME_NUMA].judged);
	cr_assert_eq(r.classes[DETECT_BANDWIDTH][DETECT_CROSS_HOST].links, 0);
	detect_result_release(&r);
}

Test(detect, unjudged_links_are_never_accused)
{
	struct cluster c;
	struct detect_result r;
	struct detect_params p;
	rng_state = 7;
	layout(&c, 1, 8, 1);
	fill(&c, BW, 0.02);
	c.value[2][5] = 1;
	build(&c);
	for (size_t i = 0; i < c.nlinks; i++)
		c.links[i].judged = !(c.links[i].a == 2 && c.links[i].b == 5);
	detect_params_default(&p);
	detect_result_init(&r);
	cr_assert_eq(detect_run(c.links, c.nlinks, c.nhosts, DETECT_BANDWIDTH, &p, &r), 0);
	cr_assert_eq(r.nsuspects, 0);
	cr_assert_eq(r.classes[DETECT_BANDWIDTH][0].links, 55);
	detect_result_release(&r);
}

Test(detect, remeasured_suspects_are_confirmed_or_cleared)
{
	struct cluster c;
	struct detect_result first, second;
	struct pair_set pairs;
	pair_set_init(&pairs);
	struct detect_params p;
	detect_params_default(&p);
	rng_state = 8;
	layout(&c, 1, 8, 1);
	fill(&c, BW, 0.02);
	c.value[2][5] = 3;
	c.value[4][1] = 3;
	run(&c, DETECT_BANDWIDTH, &first);
	cr_assert_eq(first.nsuspects, 2);
	cr_assert_eq(detect_remeasure_pairs(&first, c.links, c.nlinks, c.nranks, 0, &pairs), 2);
	cr_assert(pair_set_has(&pairs, 2, 5) && pair_set_has(&pairs, 1, 4));
	cr_assert_eq(pairs.count, 2);
	/* measured again: 2->5 is still slow, 4->1 was noise, and 6->7 is new */
	c.value[4][1] = 20;
	c.value[6][7] = 3;
	run(&c, DETECT_BANDWIDTH, &second);
	cr_assert_eq(second.nsuspects, 2);
	cr_assert_eq(detect_confirm(&second, &first, &pairs), 1);
	for (int i = 0; i < second.nsuspects; i++)
		cr_assert_eq(second.suspects[i].confirmed, second.suspects[i].a == 2, "%d->%d",
		             second.suspects[i].a, second.suspects[i].b);
	detect_result_release(&first);
	detect_result_release(&second);
	pair_set_release(&pairs);
}

Test(detect, a_named_host_marks_all_its_links_for_remeasuring)
{
	struct cluster c;
	struct detect_result r;
	struct pair_set pairs;
	pair_set_init(&pairs);
	rng_state = 9;
	layout(&c, 7, 1, 1);
	fill(&c, BW, 0.02);
	for (int o = 0; o < c.nranks; o++)
		if (o != 3)
			c.value[3][o] = c.value[o][3] = 0.4;
	run(&c, DETECT_BANDWIDTH, &r);
	cr_assert_eq(r.nsuspects, 1);
	cr_assert_eq(detect_remeasure_pairs(&r, c.links, c.nlinks, c.nranks, 0, &pairs), 6);
	cr_assert_eq(detect_remeasure_pairs(&r, c.links, c.nlinks, c.nranks, 0, &pairs), 0,
	             "each pair once");
	detect_result_release(&r);
	pair_set_release(&pairs);
}

/* A host suspect made by hand, as screening's first pass named it: host h, one direction. */
static void host_suspect(struct detect_result *r, int nhosts, int h, enum detect_direction d)
{
	static struct detect_suspect s;
	detect_result_init(r);
	s = (struct detect_suspect){.kind = DETECT_HOST,
	                            .metric = DETECT_BANDWIDTH,
	                            .locality = DETECT_CROSS_HOST,
	                            .a = -1,
	                            .b = -1,
	                            .host_a = -1,
	                            .host_b = -1,
	                            .host = h,
	                            .side = -1,
	                            .direction = d};
	r->nsuspects = 1;
	r->suspects = &s;
	r->nhosts = nhosts;
}

/*
 * Issue 28: screening named a host "slow to send" where one of its links was
 * slow (and its other sends a little); four of its pairs evenly spaced left
 * that link out, the re-test cleared the host and the link was never measured
 * again. Here h3 and 3 -> 5: its worst cell is always among the pairs, in the
 * suspect's direction.
 */
Test(detect, a_host_is_measured_again_on_its_worst_cell)
{
	struct cluster c;
	struct detect_result r;
	struct pair_set pairs;
	rng_state = 10;
	layout(&c, 7, 1, 1);
	fill(&c, BW, 0.02);
	c.value[3][5] = 0.2;  /* the slow link, one way */
	c.value[1][3] = 0.15; /* slower, but into h3: not its sending side */
	build(&c);
	host_suspect(&r, c.nhosts, 3, DETECT_DIR_AB);
	pair_set_init(&pairs);
	cr_assert_eq(detect_remeasure_pairs(&r, c.links, c.nlinks, c.nranks, 4, &pairs), 4);
	cr_assert(pair_set_has(&pairs, 3, 5), "its worst sending cell");
	pair_set_release(&pairs);
	/* receiving: 1 -> 3 is its worst */
	r.suspects[0].direction = DETECT_DIR_BA;
	pair_set_init(&pairs);
	cr_assert_eq(detect_remeasure_pairs(&r, c.links, c.nlinks, c.nranks, 4, &pairs), 4);
	cr_assert(pair_set_has(&pairs, 1, 3));
	pair_set_release(&pairs);
	/* one pair allowed: the worst alone; none limit: all six */
	r.suspects[0].direction = DETECT_DIR_BOTH;
	pair_set_init(&pairs);
	cr_assert_eq(detect_remeasure_pairs(&r, c.links, c.nlinks, c.nranks, 1, &pairs), 1);
	cr_assert(pair_set_has(&pairs, 1, 3));
	cr_assert_eq(detect_remeasure_pairs(&r, c.links, c.nlinks, c.nranks, 0, &pairs), 5);
	pair_set_release(&pairs);
}

Test(detect, bad_arguments)
{
	struct detect_params p;
	struct detect_result r;
	struct detect_link k = {
	    .a = 0, .b = 1, .host_a = 0, .host_b = 2, .value = 1, .judged = true};
	detect_params_default(&p);
	detect_result_init(&r);
	cr_assert_eq(detect_run(&k, 1, 2, DETECT_BANDWIDTH, &p, &r), -1, "host out of range");
	p.tolerance = 1;
	k.host_b = 1;
	cr_assert_eq(detect_run(&k, 1, 2, DETECT_BANDWIDTH, &p, &r), -1, "tolerance 1");
	detect_params_default(&p);
	cr_assert_eq(detect_run(NULL, 0, 0, DETECT_LATENCY, &p, &r), 0, "no links at all");
	cr_assert_eq(r.nsuspects, 0);
	detect_result_release(&r);
}

/* Noise is multiplicative: a link at a twentieth stands out even when the class spreads 2x. */
Test(detect, a_dead_link_is_named_in_a_noisy_class)
{
	struct cluster c;
	struct detect_result r;
	rng_state = 10;
	layout(&c, 1, 6, 1);
	fill(&c, BW, 0);
	for (int a = 0; a < c.nranks; a++)
		for (int b = 0; b < c.nranks; b++)
			c.value[a][b] *= 0.5 + uniform01();
	c.value[4][0] = BW[0] / 20;
	run(&c, DETECT_BANDWIDTH, &r);
	cr_assert_eq(r.nsuspects, 1, "%d suspects", r.nsuspects);
	cr_assert(r.suspects[0].a == 4 && r.suspects[0].b == 0);
	detect_result_release(&r);
	c.value[4][0] = 0; /* no bandwidth at all */
	run(&c, DETECT_BANDWIDTH, &r);
	cr_assert_eq(r.nsuspects, 1);
	cr_assert(isfinite(r.suspects[0].score) && r.suspects[0].score < -3.5);
	detect_result_release(&r);
}

/*
 * The virtual-cluster case: 4 hosts of 2 ranks, so each host's same_numa class
 * is one pair (2 links). That pair running slow is that pair, not a slow host:
 * rule (b) must not name the host from 2 links.
 */
Test(detect, a_host_seen_through_one_pair_is_not_named)
{
	struct cluster c;
	struct detect_result r;
	rng_state = 7;
	layout(&c, 4, 2, 1);
	fill(&c, BW, 0.05);
	c.value[2][3] *= 0.4; /* host 1's only same_numa pair, both directions */
	c.value[3][2] *= 0.4;
	run(&c, DETECT_BANDWIDTH, &r);
	for (int i = 0; i < r.nsuspects; i++)
		cr_expect(r.suspects[i].kind != DETECT_HOST, "host %d named from one pair",
		          r.suspects[i].host);
	detect_result_release(&r);
}

/* A host whose sends alone are slow is named with direction send; the mirror, receive. */
Test(detect, a_host_suspect_says_which_way)
{
	for (int way = 0; way < 2; way++) {
		struct cluster c;
		struct detect_result r;
		rng_state = 11 + (uint64_t)way;
		layout(&c, 7, 1, 1);
		fill(&c, BW, 0.02);
		for (int o = 0; o < c.nranks; o++)
			if (o != 2) {
				if (way == 0)
					c.value[2][o] = 0.3;
				else
					c.value[o][2] = 0.3;
			}
		struct detect_params p;
		detect_params_default(&p);
		p.host_majority = 0.4; /* half of its links are slow: one direction */
		build(&c);
		detect_result_init(&r);
		cr_assert_eq(detect_run(c.links, c.nlinks, c.nhosts, DETECT_BANDWIDTH, &p, &r), 0);
		cr_assert_eq(r.nsuspects, 1, "%d suspects", r.nsuspects);
		cr_assert_eq(r.suspects[0].kind, DETECT_HOST);
		cr_assert_eq(r.suspects[0].direction, way == 0 ? DETECT_DIR_AB : DETECT_DIR_BA);
		cr_assert_str_eq(detect_direction_name(DETECT_HOST, r.suspects[0].direction),
		                 way == 0 ? "send" : "receive");
		detect_result_release(&r);
	}
}

Test(detect, sensitivity_is_the_larger_of_both_tests)
{
	struct detect_params p;
	detect_params_default(&p);
	struct detect_class tight = {
	    .locality = DETECT_CROSS_HOST, .judged = true, .log_mad = log1p(0.02)};
	struct detect_class loose = {.locality = DETECT_CROSS_HOST, .judged = true, .log_mad = 0.2};
	cr_assert_float_eq(detect_sensitivity(&tight, DETECT_BANDWIDTH, &p), 0.1, 1e-12);
	/* inside a host the tolerance is 30% at least (detect_tolerance) */
	struct detect_class inside = tight;
	inside.locality = DETECT_SAME_NUMA;
	cr_assert_float_eq(detect_sensitivity(&inside, DETECT_BANDWIDTH, &p), 0.3, 1e-12);
	cr_assert_float_eq(detect_tolerance(&p, DETECT_BANDWIDTH, DETECT_SAME_HOST), 0.3, 1e-12);
	cr_assert_float_eq(detect_tolerance(&p, DETECT_BANDWIDTH, DETECT_CROSS_HOST), 0.1, 1e-12);
	cr_assert_float_eq(detect_tolerance(&p, DETECT_LATENCY, DETECT_SAME_NUMA), 0.3, 1e-12);
	p.tolerance = 0.5;
	cr_assert_float_eq(detect_tolerance(&p, DETECT_BANDWIDTH, DETECT_SAME_NUMA), 0.5, 1e-12,
	                   "a wider tolerance holds everywhere");
	p.tolerance = 0.1;
	/* 3.5 x 0.2 / 0.6745 = 1.038 in logs: 1 - e^-1.038 */
	cr_assert_float_eq(detect_sensitivity(&loose, DETECT_BANDWIDTH, &p), 1 - exp(-1.0378058),
	                   1e-6);
	cr_assert_float_eq(detect_sensitivity(&tight, DETECT_LATENCY, &p), 1 / 0.7 - 1, 1e-12);
	cr_assert_float_eq(detect_sensitivity(&loose, DETECT_LATENCY, &p), expm1(1.0378058), 1e-6);
	struct detect_class off = {.judged = false, .log_mad = 0.1};
	cr_assert(isnan(detect_sensitivity(&off, DETECT_BANDWIDTH, &p)));
}

/* hosts on the two sides of a cut: not on one side, not on neither, not out of range */
Test(detect, sides_cross)
{
	const signed char sides[] = {0, 0, 1, -1};
	cr_assert(detect_sides_cross(sides, 4, 0, 2));
	cr_assert(detect_sides_cross(sides, 4, 2, 1));
	cr_assert_not(detect_sides_cross(sides, 4, 0, 1), "one side");
	cr_assert_not(detect_sides_cross(sides, 4, 2, 3), "a host on neither");
	cr_assert_not(detect_sides_cross(sides, 4, 0, 4), "out of range");
	cr_assert_not(detect_sides_cross(sides, 4, -1, 2), "out of range");
	cr_assert_not(detect_sides_cross(NULL, 4, 0, 2), "no sides");
}

/*
 * A link of the shift pattern marks its pairs, to be measured alone (alone.h
 * judges it on them); a host or a segment of the shift marks none: the shift
 * is measured again whole.
 */
Test(detect, a_shift_link_is_measured_again_alone_a_shift_host_not)
{
	struct cluster c;
	struct detect_result r;
	struct pair_set pairs;
	rng_state = 11;
	layout(&c, 7, 1, 1);
	fill(&c, BW, 0.02);
	build(&c);
	host_suspect(&r, c.nhosts, 3, DETECT_DIR_AB);
	r.suspects[0].loaded = true;
	pair_set_init(&pairs);
	cr_assert_eq(detect_remeasure_pairs(&r, c.links, c.nlinks, c.nranks, 4, &pairs), 0);
	r.suspects[0].kind = DETECT_LINK;
	r.suspects[0].between_hosts = true;
	r.suspects[0].host_a = 5;
	r.suspects[0].host_b = 2;
	cr_assert_eq(detect_remeasure_pairs(&r, c.links, c.nlinks, c.nranks, 4, &pairs), 1);
	cr_assert(pair_set_has(&pairs, 2, 5), "h5 -> h2's pair, alone");
	pair_set_release(&pairs);
}
