/* The fault classes of reports/diagnose/classify.c, on synthetic host x host matrices. */
#include "reports/diagnose/classify.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_HOSTS = 16 };

static uint64_t rng_state;

static double uniform01(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (double)(rng_state >> 11) / (double)(1ULL << 53);
}

static int pick(int n)
{
	return (int)(uniform01() * n) % n;
}

/* n hosts, every cell 1 GB/s times a uniform +-noise; the diagonal NAN. */
static void clean(double *m, int n, double noise)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			m[i * n + j] = i == j ? NAN : 1.0 * (1 - noise + 2 * noise * uniform01());
}

static void judge(const double *m, int n, struct detect_result *r, struct classify_info *info)
{
	struct detect_params p;
	detect_params_default(&p);
	detect_result_init(r);
	cr_assert_eq(classify_hosts(m, n, &p, false, r, info), 0);
}

/* The one verdict of r, checked for kind and direction. */
static const struct detect_suspect *only(const struct detect_result *r, enum detect_kind k,
                                         enum detect_direction d, const char *what)
{
	cr_assert_eq(r->nsuspects, 1, "%s: %d verdicts", what, r->nsuspects);
	const struct detect_suspect *s = &r->suspects[0];
	cr_assert_eq(s->kind, k, "%s: kind %s", what, detect_kind_name(s->kind));
	cr_assert_eq(s->direction, d, "%s: direction %s", what,
	             detect_direction_name(s->kind, s->direction));
	cr_assert_eq(s->metric, DETECT_BANDWIDTH);
	cr_assert_eq(s->locality, DETECT_CROSS_HOST);
	cr_assert(s->ratio < 0.2 && s->score < -3.5, "%s: ratio %g score %g", what, s->ratio,
	          s->score);
	cr_assert(s->expected > 0.8 && s->expected < 1.2, "%s: expected %g", what, s->expected);
	return s;
}

Test(classify, clean_matrices_name_nothing)
{
	double m[MAX_HOSTS * MAX_HOSTS];
	for (uint64_t seed = 1; seed <= 300; seed++) {
		struct detect_result r;
		struct classify_info info;
		rng_state = seed * 0x9E3779B97F4A7C15ULL;
		int n = 3 + (int)(seed % 10);
		/* noise within the tolerance: +-5 % under the default 10 %, +-20 % under 30 % */
		for (int wide = 0; wide < 2; wide++) {
			struct detect_params p;
			detect_params_default(&p);
			if (wide)
				p.tolerance = 0.3;
			clean(m, n, wide ? 0.2 : 0.05);
			detect_result_init(&r);
			cr_assert_eq(classify_hosts(m, n, &p, false, &r, &info), 0);
			cr_assert_eq(r.nsuspects, 0, "seed %llu, %d hosts, +-%d %%: %d verdicts",
			             (unsigned long long)seed, n, wide ? 20 : 5, r.nsuspects);
			cr_assert(info.judged && info.cells == n * (n - 1));
			detect_result_release(&r);
		}
	}
}

Test(classify, a_host_slow_to_send_receive_or_both)
{
	double m[MAX_HOSTS * MAX_HOSTS];
	const enum detect_direction dirs[] = {DETECT_DIR_AB, DETECT_DIR_BA, DETECT_DIR_BOTH};
	for (uint64_t seed = 1; seed <= 60; seed++) {
		struct detect_result r;
		rng_state = seed;
		int n = 3 + (int)(seed % 8), h = pick(n);
		enum detect_direction d = dirs[seed % 3];
		clean(m, n, 0.05);
		for (int x = 0; x < n; x++) {
			if (x == h)
				continue;
			if (d != DETECT_DIR_BA)
				m[h * n + x] /= 30;
			if (d != DETECT_DIR_AB)
				m[x * n + h] /= 30;
		}
		judge(m, n, &r, NULL);
		const struct detect_suspect *s = only(&r, DETECT_HOST, d, "host");
		cr_assert_eq(s->host, h, "seed %llu: host %d named, %d slowed", (unsigned long long)seed,
		             s->host, h);
		cr_assert_eq(s->links_suspect, d == DETECT_DIR_BOTH ? 2 * (n - 1) : n - 1);
		detect_result_release(&r);
	}
}

/* Gaussian noise of sd fraction sd on every cell (a sum of 4 uniforms, variance matched). */
static void clean_gaussian(double *m, int n, double sd)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			double g = uniform01() + uniform01() + uniform01() + uniform01() - 2;
			m[i * n + j] = i == j ? NAN : 1.0 * (1 + sd * g * sqrt(3.0));
		}
}

/*
 * A host 15 % slow to every partner, in noise of 5 %: one cell 15 % slow is
 * about 3.3 sigmas out, short of the z-threshold of 3.5, so the cells alone
 * mostly do not name it; its row (or column) as one figure does.
 */
Test(classify, a_host_slow_by_a_little_is_named_by_its_row)
{
	double m[MAX_HOSTS * MAX_HOSTS];
	const enum detect_direction dirs[] = {DETECT_DIR_AB, DETECT_DIR_BA, DETECT_DIR_BOTH};
	int named = 0, exact = 0, cells_alone_short = 0, runs = 0, noise_links = 0;
	for (uint64_t seed = 1; seed <= 90; seed++) {
		struct detect_result r;
		struct classify_info info;
		rng_state = seed * 0x9E3779B97F4A7C15ULL;
		int n = 5 + (int)(seed % 8), h = pick(n);
		enum detect_direction d = dirs[seed % 3];
		clean_gaussian(m, n, 0.05);
		for (int x = 0; x < n; x++) {
			if (x == h)
				continue;
			if (d != DETECT_DIR_BA)
				m[h * n + x] *= 0.85;
			if (d != DETECT_DIR_AB)
				m[x * n + h] *= 0.85;
		}
		judge(m, n, &r, &info);
		runs++;
		/* the weakest slowed cell, alone: its z against the reference */
		double weakest = -INFINITY;
		for (int x = 0; x < n; x++)
			if (x != h) {
				double c = d != DETECT_DIR_BA ? m[h * n + x] : m[x * n + h];
				double z = 0.6745 * log(c / info.expected) / info.log_mad;
				weakest = z > weakest ? z : weakest;
			}
		cells_alone_short += weakest > -3.5;
		/* no other host, ever; a noisy cell of a pass, now and then, is what the
		   re-tests are for (links measures every suspect again) */
		for (int i = 0; i < r.nsuspects; i++) {
			const struct detect_suspect *s = &r.suspects[i];
			cr_assert(s->kind == DETECT_LINK || (s->kind == DETECT_HOST && s->host == h),
			          "seed %llu: %d hosts, %s %d named", (unsigned long long)seed, n,
			          detect_kind_name(s->kind), s->host);
			if (s->kind == DETECT_LINK)
				noise_links++;
			else {
				/* both ways slow and named one way: the right host, half its shape */
				named++;
				exact += s->direction == d;
				cr_assert(s->direction == d || d == DETECT_DIR_BOTH,
				          "seed %llu, %d hosts: %s named, %s slowed", (unsigned long long)seed,
				          n, detect_direction_name(DETECT_HOST, s->direction),
				          detect_direction_name(DETECT_HOST, d));
				cr_assert(s->score < -3.5);
			}
		}
		detect_result_release(&r);
	}
	cr_log_info("a host 15%% slow in 5%% noise: named in %d of %d (%d with its direction), where a "
	            "slowed cell alone fell short of the z-threshold in %d; noise links named %d",
	            named, runs, exact, cells_alone_short, noise_links);
	cr_assert_geq(exact, runs * 85 / 100, "with its direction in %d of %d", exact, runs);
	cr_assert_leq(noise_links, runs / 10);
	cr_assert_geq(named, runs * 9 / 10, "named in %d of %d", named, runs);
	cr_assert_geq(cells_alone_short, runs / 2, "the cells alone: short in %d of %d",
	              cells_alone_short, runs);
}

Test(classify, a_link_slow_one_way_or_both)
{
	double m[MAX_HOSTS * MAX_HOSTS];
	for (uint64_t seed = 1; seed <= 60; seed++) {
		struct detect_result r;
		rng_state = seed + 1000;
		int n = 3 + (int)(seed % 8), a = pick(n), b = (a + 1 + pick(n - 1)) % n;
		int lo = a < b ? a : b, hi = a < b ? b : a;
		bool both = seed % 2;
		clean(m, n, 0.05);
		m[a * n + b] /= 20;
		if (both)
			m[b * n + a] /= 20;
		judge(m, n, &r, NULL);
		enum detect_direction want = both ? DETECT_DIR_BOTH : a < b ? DETECT_DIR_AB : DETECT_DIR_BA;
		const struct detect_suspect *s = only(&r, DETECT_LINK, want, "link");
		cr_assert(s->between_hosts);
		cr_assert(s->host_a == lo && s->host_b == hi, "seed %llu: %d-%d named, %d->%d slowed",
		          (unsigned long long)seed, s->host_a, s->host_b, a, b);
		detect_result_release(&r);
	}
}

/* Racks: hosts [0, k) and [k, n); the cells between them slowed, one way or both. */
Test(classify, a_segment_between_two_racks)
{
	double m[MAX_HOSTS * MAX_HOSTS];
	const enum detect_direction dirs[] = {DETECT_DIR_AB, DETECT_DIR_BA, DETECT_DIR_BOTH};
	for (uint64_t seed = 1; seed <= 60; seed++) {
		struct detect_result r;
		rng_state = seed + 2000;
		int n = 4 + (int)(seed % 7), k = 2 + pick(n - 3); /* both racks of 2 or more */
		enum detect_direction d = dirs[seed % 3];
		clean(m, n, 0.05);
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++) {
				bool ab = i < k && j >= k, ba = i >= k && j < k;
				if ((ab && d != DETECT_DIR_BA) || (ba && d != DETECT_DIR_AB))
					m[i * n + j] /= 25;
			}
		judge(m, n, &r, NULL);
		const struct detect_suspect *s = only(&r, DETECT_SEGMENT, d, "segment");
		const signed char *sides = detect_sides(&r, s);
		cr_assert(sides, "seed %llu: no sides", (unsigned long long)seed);
		for (int h = 0; h < n; h++)
			cr_assert_eq(sides[h], h < k ? 0 : 1, "seed %llu: %d hosts, rack of %d: host %d",
			             (unsigned long long)seed, n, k, h);
		detect_result_release(&r);
	}
}

/* A slow uplink of one rack among three: the other two stay one group. */
Test(classify, one_rack_of_three_behind_a_slow_uplink)
{
	double m[9 * 9];
	struct detect_result r;
	char line[512];
	const char *names[] = {"h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "h9"};
	rng_state = 77;
	clean(m, 9, 0.1);
	for (int i = 0; i < 9; i++)
		for (int j = 0; j < 9; j++)
			if (i != j && ((i >= 3 && i < 6) != (j >= 3 && j < 6)))
				m[i * 9 + j] /= 10;
	judge(m, 9, &r, NULL);
	const struct detect_suspect *s = only(&r, DETECT_SEGMENT, DETECT_DIR_BOTH, "uplink");
	const signed char *sides = detect_sides(&r, s);
	for (int h = 0; h < 9; h++)
		cr_assert_eq(sides[h], h >= 3 && h < 6 ? 1 : 0);
	classify_describe(&r, s, names, line, sizeof line);
	cr_assert(strstr(line, "segment h1 h2 h3 h7 h8 h9 <-> h4 h5 h6 is slow both ways: 36 "
	                       "cross_host cells at 0.1"),
	          "%s", line);
	detect_result_release(&r);
}

Test(classify, the_lines_a_person_reads)
{
	double m[4 * 4];
	struct detect_result r;
	char line[512];
	const char *names[] = {"h1", "h2", "h3", "h4"};
	rng_state = 5;
	clean(m, 4, 0.05);
	for (int x = 0; x < 3; x++)
		m[3 * 4 + x] /= 30;
	judge(m, 4, &r, NULL);
	classify_describe(&r, &r.suspects[0], names, line, sizeof line);
	cr_assert(strstr(line, "host h4 is slow to send: 3 cross_host cells at 0.0"), "%s", line);
	detect_result_release(&r);
	clean(m, 4, 0.05);
	m[2 * 4 + 1] /= 30;
	judge(m, 4, &r, NULL);
	classify_describe(&r, &r.suspects[0], names, line, sizeof line);
	cr_assert(strstr(line, "link h3 -> h2 is slow one way: 1 cross_host cell at 0.0"), "%s",
	          line);
	detect_result_release(&r);
}

Test(classify, two_hosts_or_too_few_cells_give_no_verdict)
{
	double m[4] = {NAN, 1, 0.01, NAN};
	struct detect_result r;
	struct classify_info info;
	judge(m, 2, &r, &info);
	cr_assert_eq(r.nsuspects, 0);
	cr_assert(!info.judged);
	cr_assert(isnan(detect_sensitivity(&info.as_class, DETECT_BANDWIDTH, &(struct detect_params){
	                                                                          .tolerance = 0.3,
	                                                                          .z_threshold = 3.5})));
	detect_result_release(&r);
	double n3[9] = {NAN, 1, NAN, NAN, NAN, NAN, 0.01, NAN, NAN}; /* 2 finite cells */
	judge(n3, 3, &r, &info);
	cr_assert_eq(r.nsuspects, 0);
	cr_assert_eq(info.cells, 2);
	detect_result_release(&r);
}

Test(classify, sensitivity_follows_the_noise)
{
	double m[6 * 6];
	struct detect_result r;
	struct classify_info tight, loose;
	struct detect_params p;
	detect_params_default(&p);
	rng_state = 9;
	clean(m, 6, 0.01);
	judge(m, 6, &r, &tight);
	detect_result_release(&r);
	/* 1 % noise: the tolerance decides, 10 % */
	cr_assert_float_eq(detect_sensitivity(&tight.as_class, DETECT_BANDWIDTH, &p), 0.1, 1e-12);
	clean(m, 6, 0.6);
	judge(m, 6, &r, &loose);
	detect_result_release(&r);
	double s = detect_sensitivity(&loose.as_class, DETECT_BANDWIDTH, &p);
	cr_assert(s > 0.1 && s < 1, "60 %% noise: %g", s);
	/* exactly the bound: a cell just past it is named, one just short is not */
	clean(m, 6, 0.6);
	judge(m, 6, &r, &loose);
	detect_result_release(&r);
	s = detect_sensitivity(&loose.as_class, DETECT_BANDWIDTH, &p);
	m[1 * 6 + 4] = loose.expected * (1 - s) * 0.9;
	judge(m, 6, &r, NULL);
	cr_assert_eq(r.nsuspects, 1, "a cell 10 %% past the bound: %d verdicts", r.nsuspects);
	detect_result_release(&r);
}

/*
 * classify_host_sensitivity: a host's whole row at 1.4x the figure below
 * the reference is named (as a host, slow to send), at 0.6x it is not, in
 * noise wide enough that the z-score decides (sd 25 %: the figure near 0.2
 * at 12-16 hosts, a single cell's near 0.5), so a report's host rules_out
 * is what the classifier does, and well under a link's.
 */
Test(classify, a_host_is_named_from_its_row_figure_on)
{
	double m[MAX_HOSTS * MAX_HOSTS];
	struct detect_params p;
	detect_params_default(&p);
	int runs = 0, above = 0, below = 0;
	for (uint64_t seed = 1; seed <= 60; seed++) {
		struct detect_result r;
		struct classify_info info;
		rng_state = seed * 0x2545F4914F6CDD1DULL;
		int n = 12 + (int)(seed % 5), h = pick(n);
		clean_gaussian(m, n, 0.25);
		judge(m, n, &r, &info);
		detect_result_release(&r);
		double s = classify_host_sensitivity(&info, &p, n - 1);
		double cell = detect_sensitivity(&info.as_class, DETECT_BANDWIDTH, &p);
		cr_assert(s > p.tolerance && s < 0.6 * cell, "seed %llu: host %g, cell %g",
		          (unsigned long long)seed, s, cell);
		for (int k = 0; k < 2; k++) {
			double f = k ? 1 - 0.6 * s : 1 - 1.4 * s, row[MAX_HOSTS];
			for (int x = 0; x < n; x++)
				row[x] = m[h * n + x], m[h * n + x] *= f;
			judge(m, n, &r, NULL);
			bool named = false;
			for (int i = 0; i < r.nsuspects; i++)
				named |= r.suspects[i].kind == DETECT_HOST && r.suspects[i].host == h &&
				         r.suspects[i].direction != DETECT_DIR_BA;
			if (k)
				below += named;
			else
				above += named;
			detect_result_release(&r);
			for (int x = 0; x < n; x++)
				m[h * n + x] = row[x];
		}
		runs++;
	}
	cr_log_info("a host's row at 1.4x its figure named in %d of %d, at 0.6x in %d", above, runs,
	            below);
	cr_assert_geq(above, runs * 80 / 100, "1.4x: named in %d of %d", above, runs);
	cr_assert_leq(below, runs * 15 / 100, "0.6x: named in %d of %d", below, runs);
	cr_assert(isnan(classify_host_sensitivity(&(struct classify_info){0}, &p, 10)));
}

Test(classify, reconcile_drops_what_a_verdict_explains_and_merges_directions)
{
	struct detect_result r;
	struct detect_suspect base = {.metric = DETECT_BANDWIDTH,
	                              .locality = DETECT_CROSS_HOST,
	                              .side = -1,
	                              .direction = DETECT_DIR_AB,
	                              .host = -1};
	detect_result_init(&r);
	r.suspects = calloc(6, sizeof *r.suspects);
	cr_assert(r.suspects);
	struct detect_suspect *v = r.suspects;
	v[0] = base; /* the detector's own host: dropped */
	v[0].kind = DETECT_HOST;
	v[0].host = 2;
	v[1] = base; /* a rank link of host 2: explained */
	v[1].kind = DETECT_LINK;
	v[1].a = 0, v[1].b = 4, v[1].host_a = 0, v[1].host_b = 2;
	v[2] = base; /* two directions of 0-2, hosts 0 and 1: kept, merged */
	v[2].kind = DETECT_LINK;
	v[2].a = 2, v[2].b = 0, v[2].host_a = 1, v[2].host_b = 0, v[2].ratio = 0.2;
	v[3] = v[2];
	v[3].a = 0, v[3].b = 2, v[3].host_a = 0, v[3].host_b = 1, v[3].ratio = 0.1;
	v[4] = base; /* a latency link: kept */
	v[4].kind = DETECT_LINK;
	v[4].metric = DETECT_LATENCY;
	v[4].a = 1, v[4].b = 3, v[4].host_a = 0, v[4].host_b = 1;
	v[5] = base; /* the classifier's verdict */
	v[5].kind = DETECT_HOST;
	v[5].host = 2;
	r.nsuspects = 6;
	cr_assert_eq(classify_reconcile(&r, 5), 3);
	cr_assert_eq(r.nsuspects, 3);
	cr_assert(r.suspects[0].kind == DETECT_LINK && r.suspects[0].direction == DETECT_DIR_BOTH);
	cr_assert(r.suspects[0].a == 0 && r.suspects[0].b == 2 && r.suspects[0].host_a == 0);
	cr_assert_float_eq(r.suspects[0].ratio, 0.1, 1e-12);
	cr_assert_eq(r.suspects[1].metric, DETECT_LATENCY);
	cr_assert(r.suspects[2].kind == DETECT_HOST && r.suspects[2].host == 2);
	detect_result_release(&r);
}

Test(classify, bad_arguments)
{
	struct detect_params p;
	struct detect_result r;
	detect_params_default(&p);
	detect_result_init(&r);
	cr_assert_eq(classify_hosts(NULL, 3, &p, false, &r, NULL), -1);
	cr_assert_eq(classify_hosts(NULL, 0, &p, false, &r, NULL), 0);
	cr_assert_eq(classify_hosts(NULL, 0, &p, false, NULL, NULL), -1);
}

/* A suspect kept before one that is dropped: the verdicts are still found where they were. */
Test(classify, reconcile_drops_after_keeping)
{
	struct detect_result r;
	struct detect_suspect base = {.metric = DETECT_BANDWIDTH,
	                              .locality = DETECT_CROSS_HOST,
	                              .side = -1,
	                              .direction = DETECT_DIR_AB,
	                              .host = -1};
	detect_result_init(&r);
	r.suspects = calloc(3, sizeof *r.suspects);
	cr_assert(r.suspects);
	r.suspects[0] = base; /* latency: kept */
	r.suspects[0].kind = DETECT_LINK;
	r.suspects[0].metric = DETECT_LATENCY;
	r.suspects[0].a = 0, r.suspects[0].b = 1, r.suspects[0].host_a = 0, r.suspects[0].host_b = 1;
	r.suspects[1] = base; /* a rank link of the named host 2: dropped */
	r.suspects[1].kind = DETECT_LINK;
	r.suspects[1].a = 1, r.suspects[1].b = 2, r.suspects[1].host_a = 1, r.suspects[1].host_b = 2;
	r.suspects[2] = base;
	r.suspects[2].kind = DETECT_HOST;
	r.suspects[2].host = 2;
	r.nsuspects = 3;
	cr_assert_eq(classify_reconcile(&r, 2), 1);
	cr_assert_eq(r.nsuspects, 2);
	cr_assert_eq(r.suspects[0].metric, DETECT_LATENCY);
	cr_assert_eq(r.suspects[1].kind, DETECT_HOST);
	detect_result_release(&r);
}

/*
 * An uplink that a round's pairs share, measured under CPU load (the fault
 * campaign, uplink at half its rate): its cells spread from 0.17x to 0.55x of
 * the rack's (one pair alone on it, or two at once) and the racks' own cells
 * from 0.65x to 1.05x, so no gap of CLASSIFY_LEVEL_GAP parts the levels. The
 * second reading, from the fastest quarter, names the segment.
 */
Test(classify, a_shared_uplink_with_no_gap_is_a_segment)
{
	const double m[25] = {NAN,     0.02695, 0.02736, 0.0166,  0.01044, 0.03279, NAN,
	                      0.03454, 0.00584, 0.00981, 0.02902, 0.03539, NAN,     0.00679,
	                      0.01596, 0.0164,  0.00546, 0.00799, NAN,     0.03038, 0.01294,
	                      0.00908, 0.0158,  0.02236, NAN};
	struct detect_params p;
	struct detect_result r;
	struct classify_info info;
	detect_params_default(&p);
	detect_result_init(&r);
	cr_assert_eq(classify_hosts(m, 5, &p, false, &r, &info), 0);
	cr_assert_eq(r.nsuspects, 1, "%d verdicts", r.nsuspects);
	cr_assert_eq(r.suspects[0].kind, DETECT_SEGMENT);
	cr_assert_eq(r.suspects[0].direction, DETECT_DIR_BOTH);
	const signed char *sides = detect_sides(&r, &r.suspects[0]);
	for (int h = 0; h < 5; h++)
		cr_assert_eq(sides[h], h < 3 ? 0 : 1, "host %d", h);
	cr_assert(info.reference_cells < info.cells, "the fast level is %d of %d cells",
	          info.reference_cells, info.cells);
	detect_result_release(&r);
}

/* The classifier's verdicts of m (n x n) into r (released by the caller): one, of kind. */
static void one_verdict(const double *m, int n, enum detect_kind kind, struct detect_result *r)
{
	struct detect_params p;
	detect_params_default(&p);
	detect_result_init(r);
	cr_assert_eq(classify_hosts(m, n, &p, false, r, NULL), 0);
	cr_assert_eq(r->nsuspects, 1, "%d verdicts, the first a %s", r->nsuspects,
	             r->nsuspects ? detect_kind_name(r->suspects[0].kind) : "");
	cr_assert_eq(r->suspects[0].kind, kind);
}

/*
 * The same uplink with a gap, but not between the levels: two cross pairs at
 * 0.16x (the rounds that had two pairs on it at once, under CPU load) stand
 * far below the others, so the first reading's gap sets them apart and names
 * them as links against a reference that holds the rest of the cross cells
 * (0.45x-0.55x). The second reading, from the fastest quarter, names the
 * segment and drops those links (seed 11, uplink 50%, CPU load).
 */
Test(classify, an_uplink_under_a_gap_of_its_own_is_a_segment)
{
	const double m[25] = {NAN,    0.0297, 0.0286, 0.0147, 0.0172, 0.0321, NAN,    0.0309, 0.0049,
	                      0.0177, 0.0298, 0.0328, NAN,    0.0054, 0.0181, 0.0145, 0.0057, 0.0053,
	                      NAN,    0.0329, 0.0174, 0.0178, 0.0182, 0.0333, NAN};
	struct detect_result r;
	one_verdict(m, 5, DETECT_SEGMENT, &r);
	const signed char *sides = detect_sides(&r, &r.suspects[0]);
	for (int h = 0; h < 5; h++)
		cr_assert_eq(sides[h], h < 3 ? 0 : 1, "host %d", h);
	detect_result_release(&r);
}

/*
 * Under a gap the second reading names segments only: a link 100x slow
 * between hosts 1 and 2 stands apart, and the other cells, four ranks on two
 * cores, spread to 0.3x of the fastest; read from the fastest quarter they
 * made host 1 slow and dropped the link (tests/mpi/links_screen.sh, 3 tries
 * of 3 once).
 */
Test(classify, a_link_under_a_gap_is_not_read_as_its_host)
{
	const double m[16] = {NAN, 5.6, 14.1, 5.7, 5.5, NAN, 0.15, 4.0,
	                      14.0, 0.18, NAN, 14.3, 5.8, 4.2, 14.5, NAN};
	struct detect_result r;
	one_verdict(m, 4, DETECT_LINK, &r);
	cr_assert(r.suspects[0].host_a + r.suspects[0].host_b == 3, "hosts %d and %d",
	          r.suspects[0].host_a, r.suspects[0].host_b);
	detect_result_release(&r);
}

/*
 * The second reading names nothing in noise alone: a clean cluster under CPU
 * load (the campaign, 0.50x to 1.0x of its fastest cells with no fault, a
 * quarter of them more than 30 % below the fastest quarter), and clean
 * matrices of 4 to 12 hosts with the noise that clean_matrices_name_nothing
 * allows the first (+-30 % is beyond the first reading's tolerance: it names
 * hosts now and then, with or without the second).
 */
Test(classify, noise_alone_names_nothing_from_the_fastest_quarter)
{
	const double loaded[25] = {NAN,     0.03411, 0.02411, 0.0285,  0.02477, 0.02331, NAN,
	                           0.02582, 0.02674, 0.01996, 0.03208, 0.01726, NAN,     0.03019,
	                           0.03211, 0.02804, 0.02712, 0.02109, NAN,     0.03056, 0.0199,
	                           0.02776, 0.02651, 0.02024, NAN};
	const double noise[] = {0.05, 0.2}, tolerance[] = {0.1, 0.3};
	double m[MAX_HOSTS * MAX_HOSTS];
	for (uint64_t seed = 0; seed <= 300; seed++) {
		struct detect_params p;
		struct detect_result r;
		int n = seed ? 4 + (int)(seed % 9) : 5, level = (int)(seed % 2);
		detect_params_default(&p);
		rng_state = seed * 0x2545F4914F6CDD1DULL + 1;
		if (seed) {
			p.tolerance = tolerance[level];
			clean(m, n, noise[level]);
		}
		detect_result_init(&r);
		cr_assert_eq(classify_hosts(seed ? m : loaded, n, &p, false, &r, NULL), 0);
		cr_assert_eq(r.nsuspects, 0, "seed %llu, %d hosts, +-%g: %d verdicts, the first a %s",
		             (unsigned long long)seed, n, seed ? noise[level] : 0.5, r.nsuspects,
		             r.nsuspects ? detect_kind_name(r.suspects[0].kind) : "");
		detect_result_release(&r);
	}
}

/* Host lines (a host's row and its column each) that r names. */
static int host_lines(const struct detect_result *r, int except)
{
	int lines = 0;
	for (int i = 0; i < r->nsuspects; i++) {
		const struct detect_suspect *s = &r->suspects[i];
		if (s->kind == DETECT_HOST && s->host != except)
			lines += s->direction == DETECT_DIR_BOTH ? 2 : 1;
	}
	return lines;
}

static bool names_host(const struct detect_result *r, int h)
{
	return host_lines(r, -1) > host_lines(r, h);
}

/*
 * Step 2c: a host 20% slow in noise of 10% (a loaded cluster's first pass) is
 * short of 2b's z in many matrices; the screen names it for the re-tests in
 * more of them. It changes nothing the classifier named (a host's line read
 * as slow once broke a rack's group and hid its uplink): its hosts come after,
 * at most CLASSIFY_SCREEN_LINES lines, none on a side of a segment named. A
 * screen at or above the z-threshold changes nothing.
 */
Test(classify, the_first_pass_screen_names_a_few_host_lines_more)
{
	double m[MAX_HOSTS * MAX_HOSTS];
	struct detect_params plain, screen, moot;
	detect_params_default(&plain);
	screen = moot = plain;
	screen.screen_z = CLASSIFY_SCREEN_Z;
	moot.screen_z = plain.z_threshold;
	int runs = 0, by_2b = 0, by_screen = 0, clean_lines = 0;
	for (uint64_t seed = 1; seed <= 120; seed++) {
		for (int faulty = 0; faulty < 3; faulty++) {
			struct detect_result a, b, c;
			rng_state = seed * 0x9E3779B97F4A7C15ULL;
			int n = 5 + (int)(seed % 6), h = pick(n);
			clean_gaussian(m, n, 0.1);
			for (int x = 0; faulty == 1 && x < n; x++)
				if (x != h)
					m[h * n + x] *= 0.8;
			/* 2: an uplink at 0.6x between the first two hosts and the rest */
			for (int i = 0; faulty == 2 && i < n; i++)
				for (int j = 0; j < n; j++)
					m[i * n + j] *= i != j && (i < 2) != (j < 2) ? 0.6 : 1;
			detect_result_init(&a);
			detect_result_init(&b);
			detect_result_init(&c);
			cr_assert_eq(classify_hosts(m, n, &plain, false, &a, NULL), 0);
			cr_assert_eq(classify_hosts(m, n, &screen, false, &b, NULL), 0);
			cr_assert_eq(classify_hosts(m, n, &moot, false, &c, NULL), 0);
			cr_assert_eq(c.nsuspects, a.nsuspects, "seed %llu: a screen at z 3.5",
			             (unsigned long long)seed);
			cr_assert_geq(b.nsuspects, a.nsuspects);
			for (int i = 0; i < a.nsuspects; i++)
				cr_assert(b.suspects[i].kind == a.suspects[i].kind &&
				              b.suspects[i].host == a.suspects[i].host &&
				              b.suspects[i].direction == a.suspects[i].direction,
				          "seed %llu, matrix %d: verdict %d changed", (unsigned long long)seed,
				          faulty, i);
			cr_assert_leq(host_lines(&b, -1), host_lines(&a, -1) + CLASSIFY_SCREEN_LINES,
			              "seed %llu: the screen's lines", (unsigned long long)seed);
			for (int i = a.nsuspects; i < b.nsuspects; i++) {
				const struct detect_suspect *s = &b.suspects[i];
				cr_assert_eq(s->kind, DETECT_HOST);
				for (int k = 0; k < a.nsuspects; k++) {
					const signed char *sides = a.suspects[k].kind == DETECT_SEGMENT
					                               ? detect_sides(&a, &a.suspects[k])
					                               : NULL;
					cr_assert(!sides || sides[s->host] < 0,
					          "seed %llu: host %d on a side of a segment named",
					          (unsigned long long)seed, s->host);
				}
			}
			if (faulty == 1) {
				runs++;
				by_2b += names_host(&a, h);
				by_screen += names_host(&b, h);
			} else if (faulty == 0)
				clean_lines += host_lines(&b, -1) - host_lines(&a, -1);
			detect_result_release(&a);
			detect_result_release(&b);
			detect_result_release(&c);
		}
	}
	cr_log_info("a host 20%% slow to send in 10%% noise: named in %d of %d by 2b, %d with the "
	            "screen; clean matrices: %d lines more",
	            by_2b, runs, by_screen, clean_lines);
	cr_assert_geq(by_screen, by_2b + runs / 6, "2b %d, the screen %d of %d", by_2b, by_screen,
	              runs);
}
