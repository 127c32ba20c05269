/* Another job's traffic told from a slow link: reports/diagnose/traffic.c. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/diagnose/classify.h"
#include "reports/diagnose/traffic.h"

static struct detect_suspect host_send(double measured, double expected)
{
	return (struct detect_suspect){.kind = DETECT_HOST,
	                               .metric = DETECT_BANDWIDTH,
	                               .locality = DETECT_CROSS_HOST,
	                               .a = -1,
	                               .b = -1,
	                               .host = 2,
	                               .measured = measured,
	                               .expected = expected,
	                               .ratio = measured / expected,
	                               .confirmed = true,
	                               .cpu_wait_fraction = NAN,
	                               .other_traffic_gbps = NAN};
}

Test(traffic, room_another_job_used_explains_a_slow_host)
{
	struct detect_suspect s = host_send(0.70, 1.0);
	/* 0.70 + 0.25 = 0.95 >= 0.9: its NIC was busy */
	cr_assert(traffic_explains(&s, 0.25, 0.1));
	/* 0.70 + 0.1 = 0.8 < 0.9: slow beyond what the traffic took */
	cr_assert_not(traffic_explains(&s, 0.1, 0.1));
	cr_assert_not(traffic_explains(&s, 0, 0.1), "no other traffic");
	cr_assert_not(traffic_explains(&s, NAN, 0.1), "not known");
}

Test(traffic, only_bandwidth_across_hosts)
{
	struct detect_suspect s = host_send(0.70, 1.0);
	s.metric = DETECT_LATENCY;
	cr_assert_not(traffic_explains(&s, 10, 0.1), "latency");
	s = host_send(0.70, 1.0);
	s.locality = DETECT_SAME_HOST;
	cr_assert_not(traffic_explains(&s, 10, 0.1), "inside a host: no NIC");
}

static double fixed_other(const void *arg, const struct detect_suspect *s, double *most)
{
	(void)s;
	*most = *(const double *)arg;
	return *(const double *)arg;
}

Test(traffic, clearing_unconfirms_and_records)
{
	struct detect_suspect v[3] = {host_send(0.70, 1.0), host_send(0.70, 1.0),
	                              host_send(0.30, 1.0)};
	v[1].confirmed = false; /* not confirmed: left alone */
	struct detect_result r = {.nsuspects = 3, .suspects = v};
	struct detect_params p;
	detect_params_default(&p);
	double other = 0.3;
	cr_assert_eq(traffic_clear(&r, fixed_other, &other, &p), 1);
	cr_assert(!v[0].confirmed && v[0].traffic_cleared);
	cr_assert_float_eq(v[0].other_traffic_gbps, 0.3, 1e-12);
	cr_assert(!v[1].traffic_cleared && isnan(v[1].other_traffic_gbps));
	/* 0.3 + 0.3 < 0.9: a NIC at a third of its class stays named, traffic or not */
	cr_assert(v[2].confirmed && !v[2].traffic_cleared);
	cr_assert_float_eq(v[2].other_traffic_gbps, 0.3, 1e-12);
}

/*
 * The fault campaign's case (seed 3, draw 54): racks {h0 h1 h2} and {h3 h4}
 * behind an uplink at 0.3 of the rate, and another job's stream h0 -> h1 that
 * takes 0.3 of h0's sending and h1's receiving. As measured, h0's row and
 * h1's column are slow inside the rack too, and the classifier names them
 * (and h2, whose cells to both are slow) beside the segment.
 */
enum { H = 5 };

static bool rack_a(int h)
{
	return h < 3;
}

static void uplink_and_stream(double *measured, double *room)
{
	for (int i = 0; i < H; i++)
		for (int j = 0; j < H; j++) {
			/* a little spread, as measured: 1 +- 1 % */
			double v = i == j ? NAN : 1.0 + 0.005 * (double)((i * 7 + j * 3) % 5 - 2);
			bool busy = i == 0 || j == 1; /* h0's NIC out, h1's in */
			if (rack_a(i) != rack_a(j))
				v *= 0.3;
			else if (busy)
				v *= 0.7;
			measured[i * H + j] = v;
			/* the NIC counters see the stream leave h0 and reach h1 */
			room[i * H + j] = busy && i != j ? v + 0.3 : v;
		}
}

static int count_kind(const struct detect_result *r, enum detect_kind k, bool confirmed_only)
{
	int n = 0;
	for (int i = 0; i < r->nsuspects; i++)
		n += r->suspects[i].kind == k && (!confirmed_only || r->suspects[i].confirmed);
	return n;
}

/* The campaign's matrices, and what the classifier names of the measured one (loaded: the shift). */
static void classified(double *measured, double *room, bool loaded, struct detect_params *p,
                       struct detect_result *r)
{
	uplink_and_stream(measured, room);
	detect_params_default(p);
	detect_result_init(r);
	cr_assert_eq(classify_hosts(measured, H, p, loaded, r, NULL), 0);
}

/* Every verdict of r confirmed by its re-tests, with other_gbps known beside it (traffic_clear). */
static void confirm_all(struct detect_result *r, double other_gbps)
{
	for (int i = 0; i < r->nsuspects; i++) {
		r->suspects[i].confirmed = true;
		r->suspects[i].other_traffic_gbps = r->suspects[i].other_traffic_most_gbps = other_gbps;
	}
}

Test(traffic, cells_beside_an_uplink_and_a_stream_clear_the_hosts_not_the_segment)
{
	double measured[H * H], room[H * H];
	struct detect_params p;
	struct detect_result r;
	classified(measured, room, false, &p, &r);
	/* as measured: h0 slow to send, h1 to receive, h2 both ways, and 4 links across */
	cr_assert_eq(count_kind(&r, DETECT_HOST, false), 3);
	cr_assert_eq(count_kind(&r, DETECT_LINK, false), 4);
	cr_assert_eq(count_kind(&r, DETECT_SEGMENT, false), 0);
	/* the room names the segment alone; in a links run the shift pattern names it too */
	cr_assert_eq(classify_hosts(room, H, &p, false, &r, NULL), 0);
	cr_assert_eq(count_kind(&r, DETECT_SEGMENT, false), 1, "the uplink");
	for (int i = 0; i < r.nsuspects; i++) {
		r.suspects[i].confirmed = true;
		/* what traffic_clear records: known wherever the verdict has a busy end */
		r.suspects[i].other_traffic_gbps = r.suspects[i].other_traffic_most_gbps =
		    r.suspects[i].kind == DETECT_SEGMENT ? NAN : 0.3;
	}
	int hosts_and_links = r.nsuspects - count_kind(&r, DETECT_SEGMENT, false);
	cr_assert_eq(traffic_clear_cells(&r, room, NULL, H, false, &p), hosts_and_links);
	cr_assert_eq(count_kind(&r, DETECT_SEGMENT, true), 1, "the uplink stays named");
	cr_assert_eq(count_kind(&r, DETECT_HOST, true), 0);
	for (int i = 0; i < r.nsuspects; i++)
		cr_assert(r.suspects[i].kind == DETECT_SEGMENT || r.suspects[i].traffic_cleared);
	detect_result_release(&r);
}

/* A host slow to send with a stream beside it: the room does not make up for it. */
Test(traffic, cells_keep_a_slow_host_that_the_stream_does_not_explain)
{
	double measured[H * H], room[H * H];
	for (int i = 0; i < H * H; i++)
		measured[i] = room[i] = i / H == i % H ? NAN : 1.0 + 0.005 * (double)(i % 3);
	for (int j = 0; j < H; j++)
		if (j != 2) {
			measured[2 * H + j] = 0.4;   /* h2 sends at 0.4 */
			room[2 * H + j] = 0.4 + 0.2; /* with 0.2 of another job's beside it */
		}
	struct detect_params p;
	detect_params_default(&p);
	struct detect_result r;
	detect_result_init(&r);
	cr_assert_eq(classify_hosts(measured, H, &p, false, &r, NULL), 0);
	cr_assert_eq(r.nsuspects, 1);
	r.suspects[0].confirmed = true;
	r.suspects[0].other_traffic_gbps = r.suspects[0].other_traffic_most_gbps = 0.2;
	cr_assert_eq(traffic_clear_cells(&r, room, NULL, H, false, &p), 0);
	cr_assert(r.suspects[0].confirmed && !r.suspects[0].traffic_cleared);
	/* unknown traffic: nothing is classified again */
	r.suspects[0].other_traffic_gbps = r.suspects[0].other_traffic_most_gbps = NAN;
	cr_assert_eq(traffic_clear_cells(&r, measured, NULL, H, false, &p), 0);
	detect_result_release(&r);
}

/*
 * The campaign's seed 3 draw 96: h3 35% slow to send, another job's stream
 * h0 -> h1 at 0.0105 GB/s beside it (the base 0.0358). In the room the
 * stream lifts h3's cell into h1, and the classifier names h3's three other
 * links one by one: those ran alone, so h3 stays named. Had other traffic
 * been in their way too, they would not speak for h3.
 */
static void stream_beside_a_slow_sender(double *measured, double *room, double *other)
{
	for (int i = 0; i < H; i++)
		for (int j = 0; j < H; j++) {
			double v = i == j ? NAN : 0.0358 * (1 + 0.01 * ((i * 7 + j * 3) % 5 - 2));
			v *= i == 0 ? 0.69 : i == 3 ? 0.65 : 1; /* the stream's sender, the fault */
			double o = i == j ? NAN : i == 0 || j == 1 ? 0.0105 : 0;
			measured[i * H + j] = v;
			room[i * H + j] = v + (o > 0 ? o : 0);
			other[i * H + j] = o;
		}
}

Test(traffic, a_host_the_room_names_link_by_link_on_quiet_cells_stays_named)
{
	double measured[H * H], room[H * H], other[H * H];
	stream_beside_a_slow_sender(measured, room, other);
	struct detect_params p;
	detect_params_default(&p);
	for (int c = 0; c < 3; c++) {
		struct detect_result r;
		detect_result_init(&r);
		cr_assert_eq(classify_hosts(measured, H, &p, false, &r, NULL), 0);
		cr_assert_eq(count_kind(&r, DETECT_HOST, false), 2, "h0 and h3, slow to send");
		struct detect_result again;
		detect_result_init(&again);
		cr_assert_eq(classify_hosts(room, H, &p, false, &again, NULL), 0);
		cr_assert_eq(count_kind(&again, DETECT_HOST, false), 0, "no host in the room");
		cr_assert_eq(count_kind(&again, DETECT_LINK, false), 3, "h3's other links");
		detect_result_release(&again);
		int h3 = r.suspects[0].host == 3 ? 0 : 1;
		/* traffic_clear: h0's stream explains it; h3's pairs' median met nothing */
		r.suspects[1 - h3].traffic_cleared = true;
		r.suspects[h3].confirmed = true;
		r.suspects[h3].other_traffic_gbps = 0;
		r.suspects[h3].other_traffic_most_gbps = 0.0105;
		if (c == 1)
			for (int j = 0; j < H; j++)
				other[3 * H + j] = j == 3 ? NAN : 0.004; /* h3's NIC sent besides */
		int cleared = traffic_clear_cells(&r, room, c == 2 ? NULL : other, H, false, &p);
		cr_assert_eq(cleared, c == 0 ? 0 : 1, "case %d: cleared %d", c, cleared);
		cr_assert_eq(r.suspects[h3].confirmed, c == 0);
		detect_result_release(&r);
		stream_beside_a_slow_sender(measured, room, other);
	}
}

/*
 * The same at 10 % of the rate: as measured the classifier names the rack's
 * hosts and four links, and no segment; once they are cleared, the segment
 * the room names is confirmed in their place.
 */
Test(traffic, a_segment_the_stream_hid_is_named_once_its_hosts_are_cleared)
{
	double measured[H * H], room[H * H];
	uplink_and_stream(measured, room);
	for (int i = 0; i < H * H; i++)
		if (isfinite(measured[i]) && rack_a(i / H) != rack_a(i % H)) {
			room[i] += 0.1 / 0.3 * measured[i] - measured[i];
			measured[i] *= 0.1 / 0.3;
		}
	struct detect_params p;
	detect_params_default(&p);
	struct detect_result r;
	detect_result_init(&r);
	cr_assert_eq(classify_hosts(measured, H, &p, false, &r, NULL), 0);
	cr_assert_eq(count_kind(&r, DETECT_SEGMENT, false), 0);
	int named = r.nsuspects;
	confirm_all(&r, 0.3);
	cr_assert_eq(traffic_clear_cells(&r, room, NULL, H, false, &p), named);
	cr_assert_eq(r.nsuspects, named + 1);
	const struct detect_suspect *s = &r.suspects[named];
	cr_assert(s->kind == DETECT_SEGMENT && s->confirmed && !s->traffic_cleared);
	const signed char *sides = detect_sides(&r, s);
	cr_assert(sides && sides[0] == sides[1] && sides[1] == sides[2] && sides[3] == sides[4] &&
	          sides[0] != sides[3]);
	cr_assert_float_eq(s->ratio, 0.1, 0.02, "the uplink's figure: %g", s->ratio);
	/* cleared again: nothing more, and the segment is not added twice */
	cr_assert_eq(traffic_clear_cells(&r, room, NULL, H, false, &p), 0);
	cr_assert_eq(r.nsuspects, named + 1);
	detect_result_release(&r);
}

/* The shift pattern's verdicts are judged on the shift's room, the isolated pairs' on theirs. */
Test(traffic, each_pattern_on_its_own_room)
{
	double measured[H * H], room[H * H];
	struct detect_params p;
	struct detect_result r;
	classified(measured, room, true, &p, &r);
	confirm_all(&r, 0.3);
	cr_assert_eq(traffic_clear_cells(&r, room, NULL, H, false, &p), 0, "no isolated pair's verdict");
	cr_assert_eq(traffic_clear_cells(&r, room, NULL, H, true, &p), r.nsuspects - 1);
	cr_assert(r.suspects[r.nsuspects - 1].loaded, "the segment adopted, of the shift");
	detect_result_release(&r);
}

/* A segment that left the stream's host out of its rack takes the room's sides. */
Test(traffic, a_segment_missing_the_streams_host_gets_its_rack_back)
{
	double measured[H * H], room[H * H];
	struct detect_params p;
	struct detect_result r;
	classified(measured, room, false, &p, &r);
	/* as measured: h0 slow to send, and a segment h1 h2 <-> h3 h4 without it */
	r.nsuspects = 1; /* h0's verdict, the worst host first */
	cr_assert_eq(r.suspects[0].kind, DETECT_HOST);
	signed char cut[H] = {-1, 0, 0, 1, 1};
	struct detect_suspect seg = r.suspects[0];
	seg.kind = DETECT_SEGMENT;
	seg.host = -1;
	seg.side = 0;
	r.sides = malloc(H);
	memcpy(r.sides, cut, H);
	r.nsides = 1;
	r.nhosts = H;
	r.suspects[r.nsuspects++] = seg;
	confirm_all(&r, 0.3);
	cr_assert_eq(traffic_clear_cells(&r, room, NULL, H, false, &p), 1);
	cr_assert_eq(r.nsuspects, 2, "no second segment");
	const signed char *sides = detect_sides(&r, &r.suspects[1]);
	cr_assert(sides[0] == sides[1] && sides[0] != -1, "h0 back in its rack");
	cr_assert_eq(r.suspects[1].links_suspect, 12);
	detect_result_release(&r);
}

/* A rail (one NIC of a host, rails.h) is not judged on the host's room: one rail does not move it. */
Test(traffic, cells_leave_a_rail_alone)
{
	double room[H * H];
	for (int i = 0; i < H * H; i++)
		room[i] = i / H == i % H ? NAN : 1.0 + 0.005 * (double)(i % 3);
	struct detect_suspect v = {.kind = DETECT_HOST,
	                           .metric = DETECT_BANDWIDTH,
	                           .locality = DETECT_CROSS_HOST,
	                           .host = 2,
	                           .rail = true,
	                           .rail_rank = 5,
	                           .a = -1,
	                           .b = -1,
	                           .side = -1,
	                           .confirmed = true,
	                           .other_traffic_gbps = 0.3,
	                           .other_traffic_most_gbps = 0.3};
	struct detect_result r = {.nsuspects = 1, .suspects = &v, .nhosts = H};
	struct detect_params p;
	detect_params_default(&p);
	cr_assert_eq(traffic_clear_cells(&r, room, NULL, H, false, &p), 0);
	cr_assert(v.confirmed && !v.traffic_cleared, "the room of the host says nothing of one NIC");
	v.rail = false; /* the whole host, its room fine: cleared as before */
	cr_assert_eq(traffic_clear_cells(&r, room, NULL, H, false, &p), 1);
	cr_assert(!v.confirmed && v.traffic_cleared);
}
