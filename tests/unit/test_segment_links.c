/* A link a confirmed segment explains: reports/diagnose/segment_links.c. */
#include <criterion/criterion.h>
#include <math.h>

#include "reports/diagnose/segment_links.h"

enum { H = 5 };

/* Racks {h1, h2, h3} (indices 0-2) and {h4, h5} (3-4), as the campaign's two racks. */
static signed char racks[H] = {0, 0, 0, 1, 1};

static struct detect_suspect link_of(int from, int to, enum detect_direction d, double gbps)
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
	                               .side = -1,
	                               .confirmed = true,
	                               .measured = gbps,
	                               .expected = 0.0352,
	                               .ratio = gbps / 0.0352};
}

static struct detect_suspect segment(enum detect_direction d, double gbps)
{
	return (struct detect_suspect){.kind = DETECT_SEGMENT,
	                               .metric = DETECT_BANDWIDTH,
	                               .locality = DETECT_CROSS_HOST,
	                               .a = -1,
	                               .b = -1,
	                               .host = -1,
	                               .host_a = -1,
	                               .host_b = -1,
	                               .direction = d,
	                               .side = 0,
	                               .confirmed = true,
	                               .measured = gbps,
	                               .expected = 0.0339,
	                               .ratio = gbps / 0.0339};
}

static struct detect_result result_of(struct detect_suspect *v, int n)
{
	return (struct detect_result){.nsuspects = n, .suspects = v, .nhosts = H, .nsides = 1,
	                              .sides = racks};
}

/*
 * Seed 11, draw 29: an uplink 90% slow and a stream h3 -> h1 within its rack.
 * links named the segment at 0.00359 GB/s and four links across it one way at
 * 0.00358: the segment's cells. A link slower than the segment by more than the
 * tolerance, one within a rack, and one of another pattern stay.
 */
Test(segment_links, the_links_across_a_segment_at_its_level_are_its_cells)
{
	struct detect_suspect v[] = {
	    segment(DETECT_DIR_BOTH, 0.00359),
	    link_of(0, 3, DETECT_DIR_AB, 0.00358), /* h1 -> h4 */
	    link_of(0, 4, DETECT_DIR_AB, 0.00358), /* h1 -> h5 */
	    link_of(3, 2, DETECT_DIR_AB, 0.00358), /* h4 -> h3 */
	    link_of(4, 2, DETECT_DIR_BOTH, 0.0034),
	    link_of(1, 3, DETECT_DIR_AB, 0.0020),  /* 0.56x the segment: a fault of its own */
	    link_of(0, 1, DETECT_DIR_AB, 0.0035),  /* within rack 0: the segment is not in its way */
	    link_of(2, 4, DETECT_DIR_AB, 0.00358), /* of the shift pattern */
	};
	v[7].loaded = true;
	struct detect_result r = result_of(v, 8);
	struct detect_params p;
	detect_params_default(&p);
	cr_assert_eq(segment_clear_links(&r, &p), 4);
	for (int i = 1; i <= 4; i++)
		cr_assert(!v[i].confirmed && v[i].segment_cleared, "link %d is the segment's", i);
	for (int i = 5; i <= 7; i++)
		cr_assert(v[i].confirmed && !v[i].segment_cleared, "link %d stays", i);
	cr_assert(v[0].confirmed && !v[0].segment_cleared, "the segment stays");
	cr_assert_eq(segment_clear_links(&r, &p), 0, "once");
}

/* A segment slow one way explains the links that way only; one not confirmed explains none. */
Test(segment_links, only_the_segments_way_and_only_a_confirmed_segment)
{
	struct detect_suspect v[] = {
	    segment(DETECT_DIR_AB, 0.004),         /* side 0 -> side 1 slow */
	    link_of(0, 3, DETECT_DIR_AB, 0.004),   /* h1 -> h4: that way */
	    link_of(3, 0, DETECT_DIR_AB, 0.004),   /* h4 -> h1: the other */
	    link_of(1, 4, DETECT_DIR_BOTH, 0.004), /* both ways: half of it is not the segment's */
	    link_of(4, 2, DETECT_DIR_BA, 0.004),   /* h3 -> h5, written from h5: that way */
	};
	struct detect_result r = result_of(v, 5);
	struct detect_params p;
	detect_params_default(&p);
	cr_assert(segment_explains_link(&r, &v[0], &v[1], &p));
	cr_assert(!segment_explains_link(&r, &v[0], &v[2], &p));
	cr_assert(!segment_explains_link(&r, &v[0], &v[3], &p));
	cr_assert(segment_explains_link(&r, &v[0], &v[4], &p));
	v[0].confirmed = false;
	cr_assert_eq(segment_clear_links(&r, &p), 0);
	v[0].confirmed = true;
	cr_assert_eq(segment_clear_links(&r, &p), 2);
	cr_assert(!v[1].confirmed && v[2].confirmed && v[3].confirmed && !v[4].confirmed);
}

/* At the tolerance's edge: 10% slower than the segment is still its; more is not. */
Test(segment_links, the_tolerance_is_the_classs)
{
	struct detect_params p;
	detect_params_default(&p);
	double t = detect_tolerance(&p, DETECT_BANDWIDTH, DETECT_CROSS_HOST);
	struct detect_suspect v[] = {
	    segment(DETECT_DIR_BOTH, 0.01),
	    link_of(0, 3, DETECT_DIR_AB, 0.01 * (1 - t) * 1.001),
	    link_of(0, 4, DETECT_DIR_AB, 0.01 * (1 - t) * 0.98),
	    link_of(1, 4, DETECT_DIR_AB, NAN),
	};
	struct detect_result r = result_of(v, 4);
	cr_assert_eq(segment_clear_links(&r, &p), 1);
	cr_assert(!v[1].confirmed && v[2].confirmed && v[3].confirmed);
}

static struct detect_suspect host_of(int h, enum detect_direction d, double gbps)
{
	return (struct detect_suspect){.kind = DETECT_HOST,
	                               .metric = DETECT_BANDWIDTH,
	                               .locality = DETECT_CROSS_HOST,
	                               .a = -1,
	                               .b = -1,
	                               .host = h,
	                               .host_a = -1,
	                               .host_b = -1,
	                               .direction = d,
	                               .side = -1,
	                               .confirmed = true,
	                               .measured = gbps,
	                               .expected = 0.0357,
	                               .ratio = gbps / 0.0357};
}

/*
 * Seed 11, draw 59's matrix (GB/s): an uplink 90% slow between racks {h1, h2, h3}
 * and {h4, h5}; every cell within a rack near 0.035, every cell across near 0.0028.
 * slow_within: a host whose cells within its rack are that much slower.
 */
static void uplink_matrix(double *cells, int slow_host, double slow_within)
{
	for (int x = 0; x < H; x++)
		for (int y = 0; y < H; y++) {
			double c = x == y ? NAN : racks[x] == racks[y] ? 0.035 + 0.0002 * (x + y) : 0.0028;
			if (racks[x] == racks[y] && (x == slow_host || y == slow_host))
				c *= slow_within;
			cells[x * H + y] = c;
		}
}

/*
 * The segment and hosts h4 and h5 slow both ways at its level were named; h4 <-> h5
 * run as the other rack's cells: both hosts are the segment's cells.
 */
Test(segment_links, hosts_of_a_side_that_run_within_it_are_the_segments)
{
	double cells[H * H];
	uplink_matrix(cells, -1, 1);
	struct detect_suspect v[] = {
	    segment(DETECT_DIR_BOTH, 0.00277),
	    host_of(3, DETECT_DIR_BOTH, 0.00256),
	    host_of(4, DETECT_DIR_BOTH, 0.00312),
	};
	struct detect_result r = result_of(v, 3);
	struct detect_params p;
	detect_params_default(&p);
	cr_assert(segment_explains_host(&r, &v[0], &v[1], cells, &p));
	cr_assert_eq(segment_clear_hosts(&r, cells, true, &p), 0, "another pattern's");
	cr_assert_eq(segment_clear_hosts(&r, cells, false, &p), 2);
	cr_assert(!v[1].confirmed && v[1].segment_cleared && !v[2].confirmed && v[2].segment_cleared);
	cr_assert(v[0].confirmed && !v[0].segment_cleared, "the segment stays");
	cr_assert_eq(segment_clear_hosts(&r, cells, false, &p), 0, "once");
}

/* A host slow within its side too is slow of its own: it stays, at the tolerance's edge. */
Test(segment_links, a_host_slow_within_its_side_stays)
{
	struct detect_params p;
	detect_params_default(&p);
	double t = detect_tolerance(&p, DETECT_BANDWIDTH, DETECT_CROSS_HOST);
	double cells[H * H];
	struct detect_suspect v[] = {segment(DETECT_DIR_BOTH, 0.00277),
	                             host_of(1, DETECT_DIR_AB, 0.0027)};
	struct detect_result r = result_of(v, 2);
	/* h2's cells within rack 0 at 0.8x its rack's: a NIC slow beside the uplink */
	uplink_matrix(cells, 1, 0.8);
	cr_assert(!segment_explains_host(&r, &v[0], &v[1], cells, &p));
	uplink_matrix(cells, 1, (1 - t) * 1.02);
	cr_assert(segment_explains_host(&r, &v[0], &v[1], cells, &p));
	/* slower across than the segment by more than the tolerance */
	v[1].measured = 0.00277 * (1 - t) * 0.97;
	cr_assert(!segment_explains_host(&r, &v[0], &v[1], cells, &p));
}

/*
 * The ways: a segment slow from rack 0 to rack 1 explains rack 0's hosts slow to send
 * and rack 1's slow to receive, not the other ways, nor both. A side of one host has
 * no cell within it, and a segment not confirmed clears nothing.
 */
Test(segment_links, only_the_segments_ways_and_a_side_with_cells)
{
	struct detect_params p;
	detect_params_default(&p);
	double cells[H * H];
	uplink_matrix(cells, -1, 1);
	struct detect_suspect v[] = {
	    segment(DETECT_DIR_AB, 0.00277),
	    host_of(0, DETECT_DIR_AB, 0.0028),   /* h1 sends across: the segment's way */
	    host_of(0, DETECT_DIR_BA, 0.0028),   /* h1 receives from rack 1: not */
	    host_of(3, DETECT_DIR_BA, 0.0028),   /* h4 receives from rack 0: the segment's */
	    host_of(3, DETECT_DIR_BOTH, 0.0028), /* h4 both ways: half is not */
	};
	struct detect_result r = result_of(v, 5);
	cr_assert(segment_explains_host(&r, &v[0], &v[1], cells, &p));
	cr_assert(!segment_explains_host(&r, &v[0], &v[2], cells, &p));
	cr_assert(segment_explains_host(&r, &v[0], &v[3], cells, &p));
	cr_assert(!segment_explains_host(&r, &v[0], &v[4], cells, &p));
	v[0].confirmed = false;
	cr_assert_eq(segment_clear_hosts(&r, cells, false, &p), 0);
	/* h1 alone on its side: nothing within it to tell it from the segment */
	signed char lone[H] = {0, 1, 1, 1, 1};
	r.sides = lone;
	v[0].confirmed = true;
	cr_assert(!segment_explains_host(&r, &v[0], &v[1], cells, &p));
}

/*
 * Seed 11, draw 51: an uplink 35% slow named twice, h1 h3 <-> h4 h5 and h1 h2 h3 <->
 * h4 h5, one cut: the one naming more hosts stays; of two alike, the first. A cut
 * that does not agree stays, and so does one of another metric.
 */
Test(segment_links, one_cut_is_one_accusation)
{
	signed char rows[4 * H] = {
	    0, -1, 0, 1, 1, /* h1 h3 <-> h4 h5 */
	    0, 0,  0, 1, 1, /* h1 h2 h3 <-> h4 h5 */
	    1, 1,  1, 0, 0, /* the same, the other way round */
	    0, 1,  1, 1, 1, /* h1 <-> the rest: another cut */
	};
	struct detect_suspect v[] = {segment(DETECT_DIR_BOTH, 0.0142), segment(DETECT_DIR_BOTH, 0.0119),
	                             segment(DETECT_DIR_BOTH, 0.0120), segment(DETECT_DIR_BOTH, 0.0100),
	                             segment(DETECT_DIR_BOTH, 0.0120)};
	for (int i = 0; i < 4; i++)
		v[i].side = i;
	v[4].side = 0;
	v[4].metric = DETECT_LATENCY;
	v[2].loaded = true; /* another pattern's reading of it */
	struct detect_result r = {.nsuspects = 5, .suspects = v, .nhosts = H, .nsides = 4, .sides = rows};
	cr_assert_eq(segment_clear_repeats(&r), 2);
	cr_assert(!v[0].confirmed && v[0].segment_cleared, "the cut with a host left out");
	cr_assert(v[1].confirmed, "the first of the two alike stays");
	cr_assert(!v[2].confirmed && v[2].segment_cleared);
	cr_assert(v[3].confirmed && v[4].confirmed);
	cr_assert_eq(segment_clear_repeats(&r), 0, "once");
}

/*
 * Seed 3, draw 1 (2026-12-07): the shift named h4 slow both ways beside an uplink
 * 50% slow that the isolated pairs' re-test confirmed; alone, h4 <-> h5 ran as the
 * other rack's cells. A shift host is read on the pairs' segment and matrix, whatever
 * its level in the shift; a segment of the shift does not explain a host of the pairs.
 */
Test(segment_links, a_shift_host_is_read_on_the_pairs_segment)
{
	double cells[H * H];
	uplink_matrix(cells, -1, 1);
	struct detect_suspect v[] = {segment(DETECT_DIR_BOTH, 0.00863),
	                             host_of(3, DETECT_DIR_BOTH, 0.0114 * 0.3)};
	v[1].loaded = true;
	struct detect_result r = result_of(v, 2);
	struct detect_params p;
	detect_params_default(&p);
	cr_assert_eq(segment_clear_hosts(&r, cells, true, &p), 0, "no segment of the shift");
	cr_assert_eq(segment_clear_hosts(&r, cells, false, &p), 1);
	cr_assert(!v[1].confirmed && v[1].segment_cleared);
	/* the other way round: a shift's segment, a host of the pairs */
	v[1].confirmed = true;
	v[1].segment_cleared = false;
	v[0].loaded = true;
	v[1].loaded = false;
	cr_assert_eq(segment_clear_hosts(&r, cells, false, &p), 0);
	cr_assert_eq(segment_clear_hosts(&r, cells, true, &p), 0);
	cr_assert(v[1].confirmed);
}
