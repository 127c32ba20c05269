/* The chain of re-tests (reports/diagnose/retest.h). */
#include "reports/diagnose/classify.h"
#include "reports/diagnose/retest.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static struct detect_suspect link_suspect(int a, int b, bool confirmed)
{
	return (struct detect_suspect){.kind = DETECT_LINK,
	                               .metric = DETECT_LATENCY,
	                               .locality = DETECT_CROSS_HOST,
	                               .a = a,
	                               .b = b,
	                               .host_a = a / 2,
	                               .host_b = b / 2,
	                               .host = -1,
	                               .measured = 300,
	                               .expected = 30,
	                               .ratio = 10,
	                               .score = 9,
	                               .confirmed = confirmed,
	                               .side = -1,
	                               .first_measured = 500,
	                               .first_ratio = 16.7,
	                               .first_score = 15,
	                               .cpu_wait_fraction = NAN};
}

/* only what the round confirmed stands, with the first pass's figures, not yet confirmed */
Test(retest, keeps_the_confirmed_with_the_first_pass_figures)
{
	struct detect_suspect v[3] = {link_suspect(0, 2, true), link_suspect(1, 3, false),
	                              link_suspect(4, 6, true)};
	v[2].first_measured = NAN; /* not matched before: its own figures */
	struct detect_result r = {.nsuspects = 3, .suspects = v, .nhosts = 4};
	struct detect_result out;
	cr_assert_eq(retest_keep_standing(&r, NULL, 0, &out), 2);
	cr_assert_eq(out.nsuspects, 2);
	cr_assert_eq(out.suspects[0].a, 0);
	cr_assert_float_eq(out.suspects[0].measured, 500, 1e-12);
	cr_assert_float_eq(out.suspects[0].ratio, 16.7, 1e-12);
	cr_assert_not(out.suspects[0].confirmed);
	cr_assert_eq(out.suspects[1].a, 4);
	cr_assert_float_eq(out.suspects[1].measured, 300, 1e-12);
	detect_result_release(&out);
}

/*
 * A segment's sides go along, so the next round can match its sides: one this
 * round confirmed, and one carried over a miss (from before's own sides).
 */
Test(retest, keeps_a_segments_sides)
{
	signed char sides[] = {0, 0, 1, 1};
	struct detect_suspect seg = link_suspect(-1, -1, true);
	seg.kind = DETECT_SEGMENT;
	seg.side = 0;
	struct detect_result r = {
	    .nsuspects = 1, .suspects = &seg, .nhosts = 4, .nsides = 1, .sides = sides};
	struct detect_result none = {.nsuspects = 0, .nhosts = 4}, out;
	for (int carried = 0; carried < 2; carried++) {
		seg.confirmed = !carried;
		cr_assert_eq(carried ? retest_keep_standing(&none, &r, 1, &out)
		                     : retest_keep_standing(&r, NULL, 0, &out),
		             1);
		const signed char *got = detect_sides(&out, &out.suspects[0]);
		cr_assert(got && got[0] == 0 && got[1] == 0 && got[2] == 1 && got[3] == 1);
		cr_assert_eq(out.suspects[0].retest_misses, carried);
		detect_result_release(&out);
	}
}

/*
 * A re-test measures a few of a segment's pairs and may draw its cut over fewer
 * hosts: found again when the sides agree (either way round) wherever both name
 * a host and share a host on each side; not when a host changed sides or one
 * side has no host in common.
 */
Test(retest, a_segment_is_found_again_by_its_cut)
{
	/* 6 hosts, racks {0,1,2} and {3,4,5} */
	signed char first_sides[] = {0, 0, 0, 1, 1, 1};
	struct {
		signed char sides[6];
		bool same;
	} cases[] = {
	    {{0, 0, 0, 1, 1, 1}, true},      /* the same */
	    {{1, 1, 1, 0, 0, 0}, true},      /* mirrored */
	    {{0, -1, -1, 1, 1, -1}, true},   /* fewer hosts */
	    {{-1, 1, -1, -1, 0, -1}, true},  /* fewer, mirrored */
	    {{0, 0, 1, 1, 1, 1}, false},     /* host 2 changed sides */
	    {{0, 0, -1, -1, -1, -1}, false}, /* no host of the second side */
	    {{-1, -1, 0, 1, 1, 0}, false},   /* host 5 on the first's side */
	};
	struct detect_suspect f = link_suspect(-1, -1, false);
	f.kind = DETECT_SEGMENT;
	f.side = 0;
	struct detect_result first = {
	    .nsuspects = 1, .suspects = &f, .nhosts = 6, .nsides = 1, .sides = first_sides};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct detect_suspect s = f;
		struct detect_result second = {
		    .nsuspects = 1, .suspects = &s, .nhosts = 6, .nsides = 1, .sides = cases[i].sides};
		cr_assert_eq(detect_accused_before(&second, &s, &first) == &f, cases[i].same, "case %zu",
		             i);
	}
}

/*
 * The hosts of a small rack behind a slow uplink, read as hosts by one round
 * and as a segment by the next: the segment is found again by a host on one
 * of its sides; a host is never found again by a segment (it would name a
 * healthy host where an uplink is slow).
 */
Test(retest, a_segment_is_found_again_by_a_host_on_its_side)
{
	signed char sides[] = {0, 0, 0, 1, 1};
	struct detect_suspect seg = link_suspect(-1, -1, false), host = link_suspect(-1, -1, false);
	seg.kind = DETECT_SEGMENT;
	seg.side = 0;
	host.kind = DETECT_HOST;
	host.host = 4;
	host.host_a = host.host_b = -1;
	struct detect_result segments = {
	    .nsuspects = 1, .suspects = &seg, .nhosts = 5, .nsides = 1, .sides = sides};
	struct detect_result hosts = {.nsuspects = 1, .suspects = &host, .nhosts = 5};
	cr_assert_eq(detect_accused_before(&segments, &seg, &hosts), &host);
	cr_assert_null(detect_accused_before(&hosts, &host, &segments));
	sides[4] = -1; /* host 4 on neither side */
	cr_assert_null(detect_accused_before(&segments, &seg, &hosts));
}

/* a round that confirmed nothing leaves nothing standing */
Test(retest, nothing_confirmed_nothing_stands)
{
	struct detect_suspect v[1] = {link_suspect(0, 2, false)};
	struct detect_result r = {.nsuspects = 1, .suspects = v, .nhosts = 4};
	struct detect_result out;
	cr_assert_eq(retest_keep_standing(&r, NULL, 0, &out), 0);
	cr_assert_eq(out.nsuspects, 0);
	detect_result_release(&out);
}

/*
 * One round under load hides a fault (issue 39: a host 35% slow to receive
 * and an uplink at half its rate were cleared so): a suspect of before that
 * the round did not find again stands once more, its miss counted; a second
 * miss clears it, and one found again is not carried twice.
 */
Test(retest, a_suspect_may_miss_one_round)
{
	struct detect_suspect was[3] = {link_suspect(0, 2, false), link_suspect(1, 3, false),
	                                link_suspect(4, 6, false)};
	was[2].retest_misses = 1; /* missed a round already */
	struct detect_result before = {.nsuspects = 3, .suspects = was, .nhosts = 4};
	/* this round found 0 -> 2 again (confirmed), and neither 1 -> 3 nor 4 -> 6 */
	struct detect_suspect now_v[1] = {link_suspect(0, 2, true)};
	struct detect_result now = {.nsuspects = 1, .suspects = now_v, .nhosts = 4};
	struct detect_result out;
	cr_assert_eq(retest_keep_standing(&now, &before, 1, &out), 2);
	cr_assert_eq(out.suspects[0].a, 0, "found again: kept once");
	cr_assert_eq(out.suspects[0].retest_misses, 0);
	cr_assert_eq(out.suspects[1].a, 1, "missed once: stands, its miss counted");
	cr_assert_eq(out.suspects[1].retest_misses, 1);
	cr_assert_not(out.suspects[1].confirmed);
	for (int i = 0; i < out.nsuspects; i++)
		cr_assert_neq(out.suspects[i].a, 4, "a second miss clears it");
	detect_result_release(&out);

	/* with no miss allowed, the chain is as strict as before: only what this round found */
	cr_assert_eq(retest_keep_standing(&now, &before, 0, &out), 1);
	cr_assert_eq(out.suspects[0].a, 0);
	detect_result_release(&out);
}

/*
 * What stands is in the round's order, what it found first: a suspect's index
 * there is not its index in what the round was planned from, which the
 * round's pairs name a segment by (links judges the last round again against
 * what stands, with the segments of the plan's own list: links_judge_round).
 */
Test(retest, what_stands_is_in_the_rounds_order)
{
	struct detect_suspect was[2] = {link_suspect(1, 3, false), link_suspect(0, 2, false)};
	struct detect_result before = {.nsuspects = 2, .suspects = was, .nhosts = 4};
	struct detect_suspect now_v[1] = {link_suspect(0, 2, true)};
	struct detect_result now = {.nsuspects = 1, .suspects = now_v, .nhosts = 4};
	struct detect_result out;
	cr_assert_eq(retest_keep_standing(&now, &before, 1, &out), 2);
	cr_assert_eq(out.suspects[0].a, 0, "index 1 before, 0 now");
	cr_assert_eq(out.suspects[1].a, 1, "index 0 before, 1 now (missed once)");
	detect_result_release(&out);
}

/* 8 hosts of one rank each, every ordered pair a judged cross-host link of bandwidth 1 */
#define PLAN_HOSTS 8
static size_t all_links(struct detect_link *k)
{
	size_t n = 0;
	for (int a = 0; a < PLAN_HOSTS; a++)
		for (int b = 0; b < PLAN_HOSTS; b++)
			if (a != b)
				k[n++] = (struct detect_link){.a = a, .b = b, .host_a = a, .host_b = b,
				                              .locality = DETECT_CROSS_HOST, .value = 1,
				                              .judged = true};
	return n;
}

/*
 * A link's pair is measured alone, a step of its own; a segment's 4 pairs
 * across its cut at once (no host twice), then 4 within its sides at once (2
 * on each side); then 3 controls for the link, alone, between hosts it does
 * not touch, each host in as few as can be; every pair listed once, marked,
 * and listed steps in order.
 */
Test(retest, a_segment_is_measured_again_as_rounds_measure_it)
{
	signed char sides[PLAN_HOSTS] = {0, 0, 0, 0, 1, 1, 1, 1};
	struct detect_suspect v[2] = {link_suspect(0, 4, false), link_suspect(-1, -1, false)};
	v[0].metric = DETECT_BANDWIDTH;
	v[0].host_a = 0, v[0].host_b = 4;
	v[1].kind = DETECT_SEGMENT;
	v[1].metric = DETECT_BANDWIDTH;
	v[1].side = 0;
	struct detect_result r = {
	    .nsuspects = 2, .suspects = v, .nhosts = PLAN_HOSTS, .nsides = 1, .sides = sides};
	struct detect_link links[PLAN_HOSTS * PLAN_HOSTS];
	size_t n = all_links(links);
	struct pair_set pairs;
	pair_set_init(&pairs);
	struct retest_pair *list = NULL;
	cr_assert_eq(retest_plan(&r, links, n, PLAN_HOSTS, 4, &pairs, &list), 12);
	cr_assert(list[0].a == 0 && list[0].b == 4 && list[0].step == 0, "the link alone, first");
	int in_control[PLAN_HOSTS] = {0};
	for (int i = 9; i < 12; i++) {
		cr_assert_eq(list[i].suspect, RETEST_CONTROL);
		cr_assert_eq(list[i].step, 3 + (i - 9), "a control alone, after the segment's");
		cr_assert(list[i].a != 0 && list[i].b != 4 && list[i].a != 4 && list[i].b != 0);
		in_control[list[i].a]++;
		in_control[list[i].b]++;
	}
	/* 1-2, 3-5; then 6-7 is the segment's: a host in two, as few as can be */
	cr_assert(list[9].a == 1 && list[9].b == 2 && list[10].a == 3 && list[10].b == 5);
	for (int h = 0; h < PLAN_HOSTS; h++)
		cr_assert_leq(in_control[h], 2);
	int across = 0, within[2] = {0, 0}, listed = 0;
	for (int step = 1; step <= 2; step++) {
		bool busy[PLAN_HOSTS] = {false};
		for (int i = 1; i < 9; i++) {
			if (list[i].step != step)
				continue;
			cr_assert_not(busy[list[i].a] || busy[list[i].b], "host twice in step %d", step);
			busy[list[i].a] = busy[list[i].b] = true;
			cr_assert_not(list[i].a == 0 && list[i].b == 4, "0-4 listed twice");
			bool crossing = sides[list[i].a] != sides[list[i].b];
			cr_assert_eq(crossing, step == 1, "%d-%d in step %d", list[i].a, list[i].b, step);
			across += crossing;
			within[sides[list[i].a]] += !crossing;
		}
	}
	cr_assert_eq(across, 4);
	cr_assert(within[0] == 2 && within[1] == 2);
	for (int i = 0; i < 12; i++)
		listed += pair_set_has(&pairs, list[i].a, list[i].b);
	cr_assert_eq(listed, 12, "every pair listed is marked");
	cr_assert_eq(pairs.count, 12, "and no other");
	free(list);
	pair_set_release(&pairs);
}

/*
 * A side of one host has no pair within it: the pairs within the other side
 * take its share. No limit (0): every host across the cut at once. A segment
 * of the shift pattern is measured again the same way (the shift's own
 * artefacts are found again when it is measured again whole).
 */
Test(retest, a_segment_of_one_host_on_a_side)
{
	signed char sides[PLAN_HOSTS] = {0, 1, 1, 1, 1, 1, 1, 1};
	struct detect_suspect seg = link_suspect(-1, -1, false);
	seg.kind = DETECT_SEGMENT;
	seg.metric = DETECT_BANDWIDTH;
	seg.side = 0;
	struct detect_result r = {
	    .nsuspects = 1, .suspects = &seg, .nhosts = PLAN_HOSTS, .nsides = 1, .sides = sides};
	struct detect_link links[PLAN_HOSTS * PLAN_HOSTS];
	size_t n = all_links(links);
	struct pair_set pairs;
	pair_set_init(&pairs);
	struct retest_pair *list = NULL;
	cr_assert_eq(retest_plan(&r, links, n, PLAN_HOSTS, 0, &pairs, &list), 2);
	cr_assert(list[0].a == 0 && list[0].step == 0, "one pair across: host 0 in it once");
	cr_assert(list[1].a != 0 && list[1].step == 1, "one within side 1");
	free(list);

	pair_set_clear(&pairs);
	seg.loaded = true;
	cr_assert_eq(retest_plan(&r, links, n, PLAN_HOSTS, 4, &pairs, &list), 2,
	             "a segment of the shift: its pairs across, then within");
	cr_assert(list[0].a == 0 && list[0].step == 0 && list[0].across == 1);
	cr_assert(list[1].a != 0 && list[1].step == 1 && list[1].across == 0);
	free(list);
	pair_set_release(&pairs);
}

/*
 * Two pairs across a slow uplink, measured in one round, read as two links;
 * the re-test, measuring the segment's pairs at once, reads a segment: found
 * again by a link across its cut, not by one within a side or to a host on
 * neither; a link is never found again by a segment.
 */
Test(retest, a_segment_is_found_again_by_a_link_across_its_cut)
{
	signed char sides[] = {0, 0, 0, 1, 1, -1};
	struct detect_suspect seg = link_suspect(-1, -1, false), link = link_suspect(1, 3, false);
	seg.kind = DETECT_SEGMENT;
	seg.side = 0;
	struct detect_result segments = {
	    .nsuspects = 1, .suspects = &seg, .nhosts = 6, .nsides = 1, .sides = sides};
	struct detect_result links = {.nsuspects = 1, .suspects = &link, .nhosts = 6};
	struct {
		int host_a, host_b;
		bool across;
	} cases[] = {{1, 3, true}, {4, 0, true}, {0, 2, false}, {3, 4, false}, {1, 5, false}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		link.host_a = cases[i].host_a;
		link.host_b = cases[i].host_b;
		cr_assert_eq(detect_accused_before(&segments, &seg, &links) == &link, cases[i].across,
		             "hosts %d-%d", cases[i].host_a, cases[i].host_b);
	}
	link.host_a = 1, link.host_b = 3;
	cr_assert_null(detect_accused_before(&links, &link, &segments));
	link.locality = DETECT_SAME_HOST;
	cr_assert_null(detect_accused_before(&segments, &seg, &links), "another class");
}

/* Racks {0..3} and {4..7}: their segment accused, its re-test planned over all_links. */
struct planned {
	signed char sides[PLAN_HOSTS];
	struct detect_suspect seg;
	struct detect_result accused;
	struct detect_link links[PLAN_HOSTS * PLAN_HOSTS];
	size_t n;
	struct retest_pair *list; /* freed by the test */
	int count;
};

static void plan_two_racks(struct planned *x)
{
	*x = (struct planned){.sides = {0, 0, 0, 0, 1, 1, 1, 1}};
	x->seg = link_suspect(-1, -1, false);
	x->seg.kind = DETECT_SEGMENT;
	x->seg.metric = DETECT_BANDWIDTH;
	x->seg.side = 0;
	x->accused = (struct detect_result){.nsuspects = 1, .suspects = &x->seg,
	                                    .nhosts = PLAN_HOSTS, .nsides = 1, .sides = x->sides};
	x->n = all_links(x->links);
	struct pair_set pairs;
	pair_set_init(&pairs);
	x->count = retest_plan(&x->accused, x->links, x->n, PLAN_HOSTS, 4, &pairs, &x->list);
	pair_set_release(&pairs);
}

/* the links of all_links with the cells of hosts on different sides at `across` */
static void set_uplink(struct detect_link *links, size_t n, const signed char *sides,
                       double across)
{
	for (size_t j = 0; j < n; j++)
		links[j].value = sides[links[j].host_a] != sides[links[j].host_b] ? across : 1.0;
}

/*
 * The segment's two steps decide it: cells across at 0.35x of those within
 * hold, replacing what the classifier read (links across it, a segment over
 * fewer hosts), with the steps' figures; cells across at 0.95x (within the
 * tolerance) or one cell across above the median within do not, and the classifier's
 * reading of the segment is removed, its other suspects kept.
 */
Test(retest, a_segment_is_judged_by_its_own_steps)
{
	signed char read_sides[PLAN_HOSTS] = {0, 0, -1, -1, 1, 1, -1, -1};
	static struct planned x;
	struct detect_params p;
	detect_params_default(&p);
	plan_two_racks(&x);
	cr_assert_eq(x.count, 8);
	struct {
		double across;
		bool bump; /* one cell across above the median within */
		bool holds;
	} cases[] = {{0.35, false, true}, {0.95, false, false}, {0.35, true, false}};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		set_uplink(x.links, x.n, x.sides, cases[c].across);
		for (size_t j = 0; cases[c].bump && j < x.n; j++)
			if (x.links[j].a == x.list[0].a && x.links[j].b == x.list[0].b)
				x.links[j].value = 1.5;
		/* what the classifier read: a link across, the segment over fewer hosts, a host */
		struct detect_result now;
		detect_result_init(&now);
		now.nhosts = PLAN_HOSTS;
		now.suspects = calloc(3, sizeof *now.suspects);
		now.sides = malloc(PLAN_HOSTS);
		memcpy(now.sides, read_sides, PLAN_HOSTS);
		now.nsides = 1;
		now.suspects[0] = link_suspect(1, 5, false);
		now.suspects[0].metric = DETECT_BANDWIDTH;
		now.suspects[0].host_a = 1, now.suspects[0].host_b = 5;
		now.suspects[1] = x.seg;
		now.suspects[2] = link_suspect(-1, -1, false);
		now.suspects[2].kind = DETECT_HOST;
		now.suspects[2].metric = DETECT_BANDWIDTH;
		now.suspects[2].host = 2;
		now.nsuspects = 3;
		cr_assert_eq(retest_judge_segments(&now, &x.accused, x.list, x.count, x.links, x.n, &p), 0);
		int segments = 0, links_across = 0, hosts = 0;
		for (int i = 0; i < now.nsuspects; i++) {
			const struct detect_suspect *s = &now.suspects[i];
			segments += s->kind == DETECT_SEGMENT;
			links_across += s->kind == DETECT_LINK;
			hosts += s->kind == DETECT_HOST;
			if (s->kind == DETECT_SEGMENT) {
				cr_assert_float_eq(s->ratio, 0.35, 1e-9);
				cr_assert_eq(s->links_suspect, 8, "both directions of 4 pairs");
				cr_assert_not(s->confirmed);
				cr_assert(detect_same_segment(&now, s, &x.accused, &x.seg));
			}
		}
		cr_assert_eq(segments, cases[c].holds, "case %zu", c);
		cr_assert_eq(links_across, !cases[c].holds, "case %zu: the link across", c);
		cr_assert_eq(hosts, 1, "case %zu: the host is not the segment's", c);
		detect_result_release(&now);
	}
	free(x.list);
}

/*
 * A segment of the shift pattern is judged by its own steps too, which may
 * only clear it: the shift's reading of it (found again when the shift was
 * measured again whole) is removed when its pairs across at once run as those
 * within, and stands as it was when they hold.
 */
Test(retest, a_segment_of_the_shift_is_judged_by_its_own_steps)
{
	static struct planned x;
	struct detect_params p;
	detect_params_default(&p);
	plan_two_racks(&x);
	free(x.list);
	x.seg.loaded = true;
	struct pair_set pairs;
	pair_set_init(&pairs);
	x.count = retest_plan(&x.accused, x.links, x.n, PLAN_HOSTS, 4, &pairs, &x.list);
	pair_set_release(&pairs);
	cr_assert_eq(x.count, 8, "4 pairs across, 4 within");
	const double across[] = {0.35, 0.95};
	for (size_t c = 0; c < 2; c++) {
		set_uplink(x.links, x.n, x.sides, across[c]);
		struct detect_result now;
		detect_result_init(&now);
		now.nhosts = PLAN_HOSTS;
		now.suspects = calloc(1, sizeof *now.suspects);
		now.sides = malloc(PLAN_HOSTS);
		memcpy(now.sides, x.sides, PLAN_HOSTS);
		now.nsides = 1;
		now.suspects[0] = x.seg; /* the shift's reading, at 0.52x */
		now.suspects[0].ratio = 0.52;
		now.nsuspects = 1;
		cr_assert_eq(retest_judge_segments(&now, &x.accused, x.list, x.count, x.links, x.n, &p), 0);
		cr_assert_eq(now.nsuspects, c == 0, "across at %g", across[c]);
		if (c == 0) {
			cr_assert(now.suspects[0].loaded, "still the shift's");
			cr_assert_float_eq(now.suspects[0].ratio, 0.52, 1e-9, "the shift's own reading");
		}
		detect_result_release(&now);
	}
	free(x.list);
}

/*
 * A re-test round whose classifier reads no segment (hosts and links, or
 * nothing) still has the segment it measured again judged by its steps: the
 * round's result knows its hosts (seed 11's draw 29, where an uplink at 0.08x
 * of its rack's pairs was dropped because the round read hosts instead).
 */
Test(retest, a_segment_is_judged_in_a_round_that_read_none)
{
	static struct planned x;
	struct detect_params p;
	detect_params_default(&p);
	plan_two_racks(&x);
	set_uplink(x.links, x.n, x.sides, 0.1);
	double cells[PLAN_HOSTS * PLAN_HOSTS];
	for (int i = 0; i < PLAN_HOSTS * PLAN_HOSTS; i++)
		cells[i] = i / PLAN_HOSTS == i % PLAN_HOSTS ? NAN : 1.0;
	struct detect_result now;
	detect_result_init(&now);
	cr_assert_eq(classify_hosts(cells, PLAN_HOSTS, &p, false, &now, NULL), 0);
	cr_assert_eq(now.nsuspects, 0);
	cr_assert_eq(now.nhosts, PLAN_HOSTS, "the round's result knows its hosts");
	cr_assert_eq(retest_judge_segments(&now, &x.accused, x.list, x.count, x.links, x.n, &p), 0);
	cr_assert_eq(now.nsuspects, 1);
	cr_assert_eq(now.suspects[0].kind, DETECT_SEGMENT);
	cr_assert(detect_same_segment(&now, &now.suspects[0], &x.accused, &x.seg));
	detect_result_release(&now);
	free(x.list);
}

/*
 * A segment slow one way (side 0 to side 1) is judged on those cells only: its
 * way back, as fast as within, does not clear it; the other way round does.
 */
Test(retest, a_segment_one_way_is_judged_on_its_way)
{
	static struct planned x;
	struct detect_params p;
	detect_params_default(&p);
	plan_two_racks(&x);
	for (size_t j = 0; j < x.n; j++) /* side 0 -> side 1 at 0.4x, the rest at 1 */
		x.links[j].value = x.sides[x.links[j].host_a] == 0 && x.sides[x.links[j].host_b] == 1 ? 0.4 : 1.0;
	enum detect_direction ways[] = {DETECT_DIR_AB, DETECT_DIR_BA, DETECT_DIR_BOTH};
	bool holds[] = {true, false, false};
	for (int d = 0; d < 3; d++) {
		x.seg.direction = ways[d];
		struct detect_result now;
		detect_result_init(&now);
		now.nhosts = PLAN_HOSTS;
		cr_assert_eq(retest_judge_segments(&now, &x.accused, x.list, x.count, x.links, x.n, &p), 0);
		cr_assert_eq(now.nsuspects, holds[d], "direction %d", d);
		if (holds[d])
			cr_assert_eq(now.suspects[0].links_suspect, 4, "one way of 4 pairs");
		detect_result_release(&now);
	}
	free(x.list);
}

/* A host suspect of cross-host bandwidth, as the classifier names one. */
static struct detect_suspect host_suspect(int h, enum detect_direction d)
{
	return (struct detect_suspect){.kind = DETECT_HOST, .metric = DETECT_BANDWIDTH,
	                               .locality = DETECT_CROSS_HOST, .a = -1, .b = -1,
	                               .host = h, .host_a = -1, .host_b = -1, .direction = d,
	                               .side = -1, .measured = 0.84, .expected = 1, .ratio = 0.84,
	                               .score = -3.5, .first_measured = NAN,
	                               .cpu_wait_fraction = NAN};
}

/*
 * 8 hosts as all_links makes them, host 7's pairs with hosts 0-3 measured alone
 * (its slow ways to_7 in, from_7 out), and 3 controls alone (0.97, 1.0, 1.03 both ways).
 */
static int alone_round(struct detect_link *links, size_t n, double to_7, double from_7,
                       struct retest_pair *pairs)
{
	static const double control[3] = {0.97, 1.0, 1.03};
	int k = 0;
	for (int h = 0; h < 4; h++)
		pairs[k++] = (struct retest_pair){.a = h, .b = 7, .step = k, .suspect = -1};
	for (int c = 0; c < 3; c++)
		pairs[k++] = (struct retest_pair){
		    .a = 4 + (c == 2), .b = 5 + c - (c == 2), .step = k, .suspect = RETEST_CONTROL};
	for (size_t j = 0; j < n; j++) {
		struct detect_link *l = &links[j];
		l->value = l->b == 7 ? to_7 : l->a == 7 ? from_7 : 1;
		for (int c = 4; c < 7; c++)
			if (pairs[c].a == l->a && pairs[c].b == l->b)
				l->value = control[c - 4];
			else if (pairs[c].a == l->b && pairs[c].b == l->a)
				l->value = control[c - 4];
	}
	return k;
}

/*
 * What retest_judge_alone puts in an empty round for was, host 7's pairs alone at
 * to_7 (in) and from_7 (out) against alone_round's controls (released by the caller).
 */
static struct detect_result alone_verdict(struct detect_suspect *was, double to_7, double from_7)
{
	struct detect_link links[PLAN_HOSTS * PLAN_HOSTS];
	size_t n = all_links(links);
	struct retest_pair pairs[8];
	int count = alone_round(links, n, to_7, from_7, pairs);
	struct detect_result accused = {.nsuspects = 1, .suspects = was, .nhosts = PLAN_HOSTS};
	struct detect_params p;
	detect_params_default(&p);
	struct detect_result now;
	detect_result_init(&now);
	now.nhosts = PLAN_HOSTS;
	cr_assert_eq(retest_judge_alone(&now, &accused, pairs, count, links, n, &p), 0);
	return now;
}

/*
 * Host 7, 20% slow to receive, named by the first pass; the round's matrix of
 * pairs alone and pairs in rounds named nothing. Judged on its pairs alone
 * against the controls it holds, at 0.8x, and is put in; slow to send it does not.
 */
Test(retest, a_host_is_judged_on_its_pairs_alone_against_controls)
{
	struct detect_suspect was = host_suspect(7, DETECT_DIR_BA);
	struct detect_result now = alone_verdict(&was, 0.8, 1.0);
	cr_assert_eq(now.nsuspects, 1);
	cr_assert_eq(now.suspects[0].kind, DETECT_HOST);
	cr_assert_eq(now.suspects[0].host, 7);
	cr_assert_float_eq(now.suspects[0].ratio, 0.8, 1e-9);
	cr_assert_eq(now.suspects[0].links_total, 4, "its 4 cells in, not its cells out");
	cr_assert_not(now.suspects[0].confirmed, "detect_confirm confirms it");
	detect_result_release(&now);
	/* the other way round: its cells out are fine, so slow to send it is not */
	was.direction = DETECT_DIR_AB;
	now = alone_verdict(&was, 0.8, 1.0);
	cr_assert_eq(now.nsuspects, 0);
	detect_result_release(&now);
}

/*
 * Host 7 named slow both ways, 40% slow to send alone and fine to receive: its
 * cells do not hold together, its way out does, and it is put narrowed to
 * send; slow both ways alone it stays both; slow neither way it goes.
 */
Test(retest, a_host_named_both_ways_is_narrowed_to_the_way_that_holds)
{
	struct detect_suspect was = host_suspect(7, DETECT_DIR_BOTH);
	struct detect_result now = alone_verdict(&was, 1.0, 0.6);
	cr_assert_eq(now.nsuspects, 1);
	cr_assert_eq(now.suspects[0].direction, DETECT_DIR_AB, "slow to send");
	cr_assert_float_eq(now.suspects[0].ratio, 0.6, 1e-9);
	cr_assert_eq(now.suspects[0].links_total, 4, "its cells out");
	detect_result_release(&now);
	now = alone_verdict(&was, 0.7, 0.6);
	cr_assert_eq(now.nsuspects, 1);
	cr_assert_eq(now.suspects[0].direction, DETECT_DIR_BOTH);
	detect_result_release(&now);
	now = alone_verdict(&was, 1.0, 1.0);
	cr_assert_eq(now.nsuspects, 0);
	detect_result_release(&now);
}

/*
 * The round's matrix named host 7 (a burst in the rounds' cells), its pairs
 * alone run as the controls: the reading is removed. A link the round named
 * from its cells stays (a host narrowed to its link). With fewer than 2
 * control cells nothing changes.
 */
Test(retest, a_reading_the_pairs_alone_do_not_hold_is_removed)
{
	struct detect_link links[PLAN_HOSTS * PLAN_HOSTS];
	size_t n = all_links(links);
	struct retest_pair pairs[8];
	int count = alone_round(links, n, 0.99, 1.0, pairs);
	struct detect_suspect was = host_suspect(7, DETECT_DIR_BA);
	struct detect_result accused = {.nsuspects = 1, .suspects = &was, .nhosts = PLAN_HOSTS};
	struct detect_params p;
	detect_params_default(&p);
	struct detect_suspect link = link_suspect(3, 7, false);
	link.metric = DETECT_BANDWIDTH;
	link.host_a = 3, link.host_b = 7;
	struct detect_result now;
	detect_result_init(&now);
	now.nhosts = PLAN_HOSTS;
	now.suspects = malloc(2 * sizeof *now.suspects);
	now.suspects[0] = host_suspect(7, DETECT_DIR_BOTH);
	now.suspects[1] = link;
	now.nsuspects = 2;
	cr_assert_eq(retest_judge_alone(&now, &accused, pairs, count, links, n, &p), 0);
	cr_assert_eq(now.nsuspects, 1);
	cr_assert_eq(now.suspects[0].kind, DETECT_LINK, "the link stays");
	/* no controls: the round's reading stands */
	now.suspects[1] = host_suspect(7, DETECT_DIR_BOTH);
	now.nsuspects = 2;
	cr_assert_eq(retest_judge_alone(&now, &accused, pairs, 4, links, n, &p), 0);
	cr_assert_eq(now.nsuspects, 2);
	detect_result_release(&now);
}

/*
 * A link one way: its one cell alone at 0.6x holds (a single cell's z over the
 * controls' spread); at 0.93x, inside the tolerance, it does not.
 */
Test(retest, a_link_is_judged_on_its_way_alone)
{
	struct detect_suspect was = link_suspect(2, 7, false);
	was.metric = DETECT_BANDWIDTH;
	was.host_a = 2, was.host_b = 7;
	was.direction = DETECT_DIR_AB;
	struct detect_result now = alone_verdict(&was, 0.6, 1.0);
	cr_assert_eq(now.nsuspects, 1);
	cr_assert_eq(now.suspects[0].links_total, 1, "2 -> 7 only");
	cr_assert_float_eq(now.suspects[0].ratio, 0.6, 1e-9);
	detect_result_release(&now);
	now = alone_verdict(&was, 0.93, 1.0);
	cr_assert_eq(now.nsuspects, 0);
	detect_result_release(&now);
}

/*
 * Seed 3, draw 62 (2026-12-07): beside another job's stream the controls split
 * into two levels (here 1.0 one way, 0.68 the other), so wide a spread that a z
 * against it cleared a link 70% slow. The ratio to their median and the link's
 * cell under it decide: 0.38 holds. A host one of whose cells reaches the
 * controls' median does not hold, its median past the tolerance or not.
 */
Test(retest, controls_on_two_levels_still_judge)
{
	struct detect_link links[PLAN_HOSTS * PLAN_HOSTS];
	size_t n = all_links(links);
	struct retest_pair pairs[8];
	int count = alone_round(links, n, 0.38, 1.0, pairs);
	for (size_t j = 0; j < n; j++)
		for (int c = 4; c < 7; c++) {
			if (pairs[c].a == links[j].a && pairs[c].b == links[j].b)
				links[j].value = 1.0;
			if (pairs[c].b == links[j].a && pairs[c].a == links[j].b)
				links[j].value = 0.68;
		}
	struct detect_suspect was = link_suspect(1, 7, false);
	was.metric = DETECT_BANDWIDTH;
	was.host_a = 1, was.host_b = 7;
	was.direction = DETECT_DIR_AB;
	struct detect_result accused = {.nsuspects = 1, .suspects = &was, .nhosts = PLAN_HOSTS};
	struct detect_params p;
	detect_params_default(&p);
	struct detect_result now;
	detect_result_init(&now);
	now.nhosts = PLAN_HOSTS;
	cr_assert_eq(retest_judge_alone(&now, &accused, pairs, count, links, n, &p), 0);
	cr_assert_eq(now.nsuspects, 1, "a link 0.45x the controls' median, their spread aside");
	cr_assert_gt(now.suspects[0].score, -p.z_threshold, "which a z test would have cleared");
	detect_result_release(&now);
	/* host 7 slow to receive: 3 cells at 0.38, one (0 -> 7) at the controls' median */
	for (size_t j = 0; j < n; j++)
		if (links[j].a == 0 && links[j].b == 7)
			links[j].value = 0.9;
	was = (struct detect_suspect){.kind = DETECT_HOST, .metric = DETECT_BANDWIDTH,
	                              .locality = DETECT_CROSS_HOST, .a = -1, .b = -1, .host = 7,
	                              .host_a = -1, .host_b = -1, .direction = DETECT_DIR_BA,
	                              .side = -1};
	detect_result_init(&now);
	now.nhosts = PLAN_HOSTS;
	cr_assert_eq(retest_judge_alone(&now, &accused, pairs, count, links, n, &p), 0);
	cr_assert_eq(now.nsuspects, 0, "a cell at the controls' median: not every way slow");
	detect_result_release(&now);
}
