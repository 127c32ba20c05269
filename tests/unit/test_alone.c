/* A link the shift pattern names that is fine alone: reports/diagnose/alone.c. */
#include <criterion/criterion.h>
#include <math.h>

#include "reports/diagnose/alone.h"

enum { H = 4 };

static struct detect_suspect shift_link(int from, int to, enum detect_direction d)
{
	return (struct detect_suspect){.kind = DETECT_LINK,
	                               .metric = DETECT_BANDWIDTH,
	                               .locality = DETECT_CROSS_HOST,
	                               .a = -1,
	                               .b = -1,
	                               .host = -1,
	                               .host_a = from,
	                               .host_b = to,
	                               .between_hosts = true,
	                               .direction = d,
	                               .loaded = true,
	                               .confirmed = true,
	                               .measured = 0.84,
	                               .expected = 1.0,
	                               .ratio = 0.84};
}

static struct detect_suspect ab(int from, int to)
{
	return shift_link(from, to, DETECT_DIR_AB);
}

static struct detect_suspect both(int from, int to)
{
	return shift_link(from, to, DETECT_DIR_BOTH);
}

/* An isolated pairs' matrix of n hosts: every cell 1.0, the diagonal not measured. */
static void all_fine(double *m, int n)
{
	for (int i = 0; i < n * n; i++)
		m[i] = i / n == i % n ? NAN : 1.0;
}

/* The isolated pairs' matrix: every cell 1.0 but 2 -> 0 at 0.6. */
static void pairs_matrix(double *m)
{
	all_fine(m, H);
	m[2 * H + 0] = 0.6;
}

/* The campaign's case: h4 -> h0 named by the shift at 0.84x, its pair alone at 0.94-1.00x. */
Test(alone, a_shift_link_fine_alone_is_cleared_one_slow_alone_stays)
{
	double m[H * H];
	pairs_matrix(m);
	m[3 * H + 0] = 0.94;
	struct detect_suspect v[] = {ab(3, 0), shift_link(0, 2, DETECT_DIR_BA), both(1, 3)};
	struct detect_result r = {.nsuspects = 3, .suspects = v};
	struct detect_params p;
	detect_params_default(&p);
	cr_assert_eq(alone_clear(&r, m, H, 1.0, &p), 2);
	cr_assert(!v[0].confirmed && v[0].alone_cleared, "0.94 alone: within 10%%");
	cr_assert(v[1].confirmed && !v[1].alone_cleared, "2 -> 0 is 0.6 alone: slow alone too");
	cr_assert(!v[2].confirmed && v[2].alone_cleared, "both ways fine alone");
}

Test(alone, what_it_leaves_alone)
{
	double m[H * H];
	pairs_matrix(m);
	struct detect_suspect v[] = {ab(3, 0), ab(3, 0), ab(3, 0), ab(1, 0)};
	v[0].loaded = false;     /* the isolated pairs' own verdict */
	v[1].kind = DETECT_HOST; /* a host of the shift: its NIC under load is the point */
	v[1].between_hosts = false;
	v[2].confirmed = false;
	m[1 * H + 0] = NAN; /* not measured alone: no evidence that it is fine */
	struct detect_result r = {.nsuspects = 4, .suspects = v};
	struct detect_params p;
	detect_params_default(&p);
	cr_assert_eq(alone_clear(&r, m, H, 1.0, &p), 0);
	cr_assert(v[0].confirmed && v[1].confirmed && v[3].confirmed);
	cr_assert_eq(alone_clear(&r, m, H, NAN, &p), 0, "no reference");
	cr_assert_eq(alone_clear(&r, NULL, H, 1.0, &p), 0);
}

/*
 * Links fine alone that run between two groups of two hosts or more are an
 * uplink the step's flows share: kept. One host's links, or a group with an
 * odd cycle of links, are not a segment's shape: cleared.
 */
Test(alone, links_of_a_segments_shape_stay)
{
	enum { N = 5 };
	double m[N * N];
	all_fine(m, N);
	struct detect_params p;
	detect_params_default(&p);
	/* the campaign's quiet 5% uplink: h0 h1 | h3 h4, four links across at 0.46x */
	struct detect_suspect up[] = {both(0, 3), both(1, 3), both(1, 4), both(0, 4)};
	struct detect_result r = {.nsuspects = 4, .suspects = up};
	cr_assert_eq(alone_clear(&r, m, N, 1.0, &p), 0);
	for (int i = 0; i < 4; i++)
		cr_assert(up[i].confirmed && !up[i].alone_cleared);
	/* one sender's links (seed 3 draw 30: h4 -> h0, h4 -> h1): a group of one */
	struct detect_suspect one[] = {ab(4, 0), ab(4, 1)};
	r = (struct detect_result){.nsuspects = 2, .suspects = one};
	cr_assert_eq(alone_clear(&r, m, N, 1.0, &p), 2);
	/* a triangle has no two sides */
	struct detect_suspect tri[] = {ab(0, 1), ab(1, 2), ab(2, 0), ab(2, 3)};
	r = (struct detect_result){.nsuspects = 4, .suspects = tri};
	cr_assert_eq(alone_clear(&r, m, N, 1.0, &p), 4);
}

/* Parts are judged apart: a segment's links stay beside one host's links cleared. */
Test(alone, each_part_on_its_own)
{
	enum { N = 7 };
	double m[N * N];
	all_fine(m, N);
	struct detect_params p;
	detect_params_default(&p);
	struct detect_suspect v[] = {ab(0, 1), ab(1, 2), ab(2, 0), ab(3, 5),
	                             ab(4, 5), ab(4, 6), ab(3, 6)};
	struct detect_result r = {.nsuspects = 7, .suspects = v};
	cr_assert_eq(alone_clear(&r, m, N, 1.0, &p), 3, "the triangle only");
	for (int i = 3; i < 7; i++)
		cr_assert(v[i].confirmed, "h3 h4 <-> h5 h6 stays");
}

static struct detect_suspect shift_host(int h, enum detect_direction d)
{
	struct detect_suspect s = shift_link(-1, -1, d);
	s.kind = DETECT_HOST;
	s.between_hosts = false;
	s.host = h;
	return s;
}

/*
 * Seed 3, draw 35 (2026-12-07): h4 received 20% slow (index 3 here), and the shift
 * named h2 (index 1) slow to send, its pairs alone fine one way and both ways: cleared.
 * h4's own reading, slow to receive, is slow in the pairs too: it stays.
 */
Test(alone, a_shift_host_fine_alone_both_ways_is_cleared)
{
	double pairs[H * H], bidir[H * H];
	all_fine(pairs, H);
	all_fine(bidir, H);
	for (int x = 0; x < H; x++)
		if (x != 3)
			pairs[x * H + 3] = 0.8;
	struct detect_suspect v[] = {shift_host(1, DETECT_DIR_AB), shift_host(3, DETECT_DIR_BA),
	                             shift_host(3, DETECT_DIR_AB)};
	struct detect_result r = {.nsuspects = 3, .suspects = v};
	struct detect_params p;
	detect_params_default(&p);
	cr_assert_eq(alone_clear_hosts(&r, pairs, bidir, H, 1.0, &p), 2);
	cr_assert(!v[0].confirmed && v[0].alone_cleared);
	cr_assert(v[1].confirmed && !v[1].alone_cleared, "slow to receive alone too");
	cr_assert(!v[2].confirmed, "its sends are fine alone");
	cr_assert_eq(alone_clear_hosts(&r, pairs, bidir, H, 1.0, &p), 0, "once");
}

/*
 * A NIC that cannot send and receive at once: fine one way at a time, slow in
 * the bidirectional windows: the shift's reason to name a host, it stays. So
 * does a host of the isolated pairs, and one whose pairs were not measured.
 */
Test(alone, a_host_slow_both_ways_at_once_stays)
{
	struct detect_params p;
	detect_params_default(&p);
	double t = detect_tolerance(&p, DETECT_BANDWIDTH, DETECT_CROSS_HOST);
	double pairs[H * H], bidir[H * H];
	all_fine(pairs, H);
	all_fine(bidir, H);
	for (int x = 0; x < H; x++)
		if (x != 2)
			bidir[x * H + 2] = bidir[2 * H + x] = (1 - t) * 0.97;
	struct detect_suspect v[] = {shift_host(2, DETECT_DIR_BOTH), shift_host(0, DETECT_DIR_AB),
	                             shift_host(1, DETECT_DIR_AB)};
	v[1].loaded = false;
	for (int x = 0; x < H; x++)
		pairs[1 * H + x] = NAN;
	struct detect_result r = {.nsuspects = 3, .suspects = v};
	cr_assert_eq(alone_clear_hosts(&r, pairs, bidir, H, 1.0, &p), 0);
	cr_assert(v[0].confirmed && v[1].confirmed && v[2].confirmed);
	/* at the tolerance's edge the other way: cleared */
	for (int x = 0; x < H; x++)
		if (x != 2)
			bidir[x * H + 2] = bidir[2 * H + x] = (1 - t) * 1.02;
	cr_assert_eq(alone_clear_hosts(&r, pairs, bidir, H, 1.0, &p), 1);
	cr_assert(!v[0].confirmed && v[0].alone_cleared);
}
