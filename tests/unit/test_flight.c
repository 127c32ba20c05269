/*
 * The flight recorder's verdict: a stopped rank inside a ring and the peers
 * that wait on it, a rank that never entered the operation the others are
 * stuck in, a deadlock among ranks that all answer, idle and unwatched
 * ranks, and the hang's JSON.
 */
#include "reports/diagnose/flight.h"

#include <criterion/criterion.h>
#include <string.h>

#define WHERE "ring, 4194304 bytes, timed iteration 17"

static struct flight_rank inside(uint64_t ticks, enum flight_wait w, int peer, int step)
{
	return (struct flight_rank){.known = true,
	                            .answering = true,
	                            .ticks = ticks,
	                            .where = WHERE,
	                            .algorithm = "ring",
	                            .bytes = 4194304,
	                            .iteration = 17,
	                            .step = step,
	                            .peer = peer,
	                            .wait = w};
}

/* Rank 2 of a ring of 4 stopped: 3 waits to receive from it, 1 to send to it, 0 on 3. */
Test(flight, stopped_rank_and_the_peers_that_wait_on_it)
{
	struct flight_rank r[4] = {
	    inside(40, FLIGHT_WAIT_RECV, 3, 6), inside(40, FLIGHT_WAIT_SEND, 2, 5),
	    inside(40, FLIGHT_WAIT_RECV, 1, 5), inside(40, FLIGHT_WAIT_RECV, 2, 5)};
	struct flight_verdict v;
	char buf[2048];
	r[2].answering = false;
	r[2].silent_s = 4;
	cr_assert_eq(flight_judge(r, 4, &v), 0);
	cr_assert_eq(v.state[2], FLIGHT_SILENT);
	cr_assert_eq(v.state[3], FLIGHT_WAITING);
	cr_assert_eq(v.entered[2], 1, "its last heartbeat was inside the operation");
	cr_assert_eq(v.never_entered, 0);
	cr_assert_eq(v.not_answering, 1);
	cr_assert_eq(v.blocked_by[3], 2);
	cr_assert_eq(v.blocked_by[1], 2);
	cr_assert_eq(v.blocked_by[0], 2, "0 waits on 3, which waits on 2");
	cr_assert_eq(v.blocked_by[2], -1);
	cr_assert_eq(v.cycles, 0);
	flight_describe(r, &v, 32, buf, sizeof buf);
	cr_assert(strstr(buf, "the others are in " WHERE), "%s", buf);
	cr_assert(strstr(buf, "every rank that answers entered it"), "%s", buf);
	cr_assert(strstr(buf, "not answering: rank 2 (for 4 s; last heard at " WHERE ")"), "%s",
	          buf);
	cr_assert(strstr(buf, "rank 3 waits to receive from rank 2 at step 5"), "%s", buf);
	cr_assert(strstr(buf, "rank 1 waits to send to rank 2 at step 5"), "%s", buf);
	cr_assert(strstr(buf, "rank 0 waits to receive from rank 3 at step 6 (its chain of waits "
	                      "ends at rank 2)"),
	          "%s", buf);
	cr_assert(strstr(buf, "the waits lead to rank 2 (not answering)"), "%s", buf);
	flight_verdict_release(&v);
}

/* Rank 1 stalls before an iteration: it never entered it, and the others wait between calls. */
Test(flight, rank_that_never_entered)
{
	struct flight_rank r[3] = {inside(41, FLIGHT_WAIT_NONE, -1, -1),
	                           inside(40, FLIGHT_WAIT_NONE, -1, -1),
	                           inside(41, FLIGHT_WAIT_RECV, 1, 0)};
	struct flight_verdict v;
	char buf[2048];
	r[1].where = "ring, 4194304 bytes, timed iteration 16";
	cr_assert_eq(flight_judge(r, 3, &v), 0);
	cr_assert_eq(v.state[1], FLIGHT_NOT_ENTERED);
	cr_assert_eq(v.entered[1], 0);
	cr_assert_eq(v.state[0], FLIGHT_OUTSIDE);
	cr_assert_eq(v.never_entered, 1);
	cr_assert_eq(v.blocked_by[2], 1, "2 waits on 1, which never entered");
	cr_assert_eq(v.op_rank, 0);
	flight_describe(r, &v, 32, buf, sizeof buf);
	cr_assert(
	    strstr(buf, "never entered it: rank 1 (at ring, 4194304 bytes, timed iteration 16)"),
	    "%s", buf);
	cr_assert(strstr(buf, "rank 2 waits to receive from rank 1 at step 0"), "%s", buf);
	cr_assert(strstr(buf, "the waits lead to rank 1 (never entered)"), "%s", buf);
	cr_assert_null(strstr(buf, "rank 0 waits"), "rank 0 waits on no one: %s", buf);
	cr_assert(strstr(buf, "between calls (in a barrier of the harness): rank 0"), "%s", buf);
	flight_verdict_release(&v);
}

/*
 * A stopped rank's last heartbeat is up to a second older than its stop:
 * fewer ticks there do not prove that it never entered.
 */
Test(flight, a_silent_rank_behind_is_not_said_to_have_never_entered)
{
	struct flight_rank r[3] = {inside(41, FLIGHT_WAIT_RECV, 1, 3),
	                           inside(38, FLIGHT_WAIT_RECV, 0, 1),
	                           inside(41, FLIGHT_WAIT_SEND, 1, 3)};
	struct flight_verdict v;
	char buf[2048];
	r[1].answering = false;
	r[1].silent_s = 3.2;
	cr_assert_eq(flight_judge(r, 3, &v), 0);
	cr_assert_eq(v.state[1], FLIGHT_SILENT);
	cr_assert_eq(v.entered[1], -1, "unknown");
	cr_assert_eq(v.never_entered, 0);
	cr_assert_eq(v.blocked_by[0], 1);
	flight_describe(r, &v, 32, buf, sizeof buf);
	cr_assert_null(strstr(buf, "never entered"), "%s", buf);
	cr_assert(strstr(buf, "not answering: rank 1 (for 3 s; last heard at "), "%s", buf);
	cJSON *root = cJSON_CreateObject();
	cr_assert_not_null(flight_to_json(root, r, &v, NULL));
	cJSON *r1 =
	    cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "hang"), "ranks"), 1);
	cr_assert(cJSON_IsNull(cJSON_GetObjectItem(r1, "entered")));
	cr_assert(cJSON_IsNull(cJSON_GetObjectItem(r1, "host")));
	cJSON_Delete(root);
	flight_verdict_release(&v);
}

/*
 * Rank 5 of 8 stopped in iteration 12; its neighbours wait on it there, the
 * others went on to the barrier of iteration 13 and wait without a peer.
 */
Test(flight, ranks_behind_may_wait_on_the_stopped_one)
{
	struct flight_rank r[8];
	struct flight_verdict v;
	char buf[4096];
	for (int i = 0; i < 8; i++)
		r[i] = inside(60, FLIGHT_WAIT_NONE, -1, -1);
	r[4] = inside(59, FLIGHT_WAIT_SEND, 5, 9);
	r[6] = inside(59, FLIGHT_WAIT_RECV, 5, 9);
	r[5] = inside(59, FLIGHT_WAIT_RECV, 4, 8);
	r[5].answering = false;
	r[4].where = r[5].where = r[6].where = "ring, 1048576 bytes, timed iteration 12";
	cr_assert_eq(flight_judge(r, 8, &v), 0);
	cr_assert_eq(v.state[4], FLIGHT_NOT_ENTERED);
	cr_assert_eq(v.blocked_by[4], 5);
	cr_assert_eq(v.blocked_by[6], 5);
	cr_assert_eq(v.blocked_by[0], -1, "in the barrier: waits on no one known");
	flight_describe(r, &v, 32, buf, sizeof buf);
	cr_assert(
	    strstr(
	        buf,
	        "never entered it: rank 4 (at ring, 1048576 bytes, timed iteration 12), rank 6 "),
	    "%s", buf);
	cr_assert(
	    strstr(buf, "rank 6 waits to receive from rank 5 at step 9 of the operation before"),
	    "%s", buf);
	cr_assert(strstr(buf, "the waits lead to rank 5 (not answering)"), "%s", buf);
	cJSON *root = cJSON_CreateObject();
	cJSON *h = flight_to_json(root, r, &v, NULL);
	cJSON *r6 = cJSON_GetArrayItem(cJSON_GetObjectItem(h, "ranks"), 6);
	cr_assert_eq(cJSON_GetObjectItem(r6, "waits_on")->valueint, 5);
	cr_assert_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(h, "blocked_by"), 0)->valueint, 5);
	cJSON_Delete(root);
	flight_verdict_release(&v);
}

Test(flight, deadlock_among_answering_ranks_is_a_cycle)
{
	struct flight_rank r[3] = {inside(9, FLIGHT_WAIT_RECV, 1, 2),
	                           inside(9, FLIGHT_WAIT_RECV, 2, 2),
	                           inside(9, FLIGHT_WAIT_RECV, 0, 2)};
	struct flight_verdict v;
	char buf[2048];
	cr_assert_eq(flight_judge(r, 3, &v), 0);
	cr_assert_eq(v.cycles, 3);
	for (int i = 0; i < 3; i++) {
		cr_assert(v.in_cycle[i]);
		cr_assert_eq(v.blocked_by[i], -1);
	}
	flight_describe(r, &v, 32, buf, sizeof buf);
	cr_assert(strstr(buf, "3 ranks wait on each other in a cycle (a deadlock)"), "%s", buf);
	flight_verdict_release(&v);
}

/* scale: ranks outside the sub-communicator, a rank never heard from, a direct call. */
Test(flight, idle_unknown_and_direct_calls)
{
	struct flight_rank r[4] = {inside(7, FLIGHT_WAIT_CALL, -1, -1),
	                           inside(7, FLIGHT_WAIT_CALL, -1, -1),
	                           inside(3, FLIGHT_WAIT_NONE, -1, -1),
	                           {0}};
	struct flight_verdict v;
	char buf[2048];
	r[2].idle = true;
	cr_assert_eq(flight_judge(r, 4, &v), 0);
	cr_assert_eq(v.state[2], FLIGHT_IDLE);
	cr_assert_eq(v.state[3], FLIGHT_UNKNOWN);
	cr_assert_eq(v.never_entered, 0, "an idle rank is not behind, an unwatched one unknown");
	cr_assert_eq(v.state[0], FLIGHT_WAITING);
	cr_assert_eq(v.blocked_by[0], -1);
	flight_describe(r, &v, 32, buf, sizeof buf);
	cr_assert(strstr(buf, "rank 0 is inside the call (no steps to tell whom it waits on)"),
	          "%s", buf);
	flight_verdict_release(&v);
}

Test(flight, long_lists_are_cut)
{
	struct flight_rank r[64];
	struct flight_verdict v;
	char buf[8192];
	for (int i = 0; i < 64; i++)
		r[i] = inside(5, FLIGHT_WAIT_RECV, (i + 63) % 64, 1);
	r[0].answering = false;
	cr_assert_eq(flight_judge(r, 64, &v), 0);
	flight_describe(r, &v, 4, buf, sizeof buf);
	cr_assert(strstr(buf, "; and 59 more waiting"), "%s", buf);
	cr_assert_eq(v.blocked_by[63], 0);
	char tiny[16];
	cr_assert_gt(flight_describe(r, &v, 4, tiny, sizeof tiny), 15, "the length it would need");
	cr_assert_eq(strlen(tiny), 15);
	flight_verdict_release(&v);
}

Test(flight, hang_json)
{
	struct flight_entry e[2] = {{.algorithm = "ring",
	                             .bytes = 4194304,
	                             .iteration = 17,
	                             .phase = 2,
	                             .step = 3,
	                             .send_peer = 3,
	                             .recv_peer = 1,
	                             .send_bytes = 262144,
	                             .recv_bytes = 262144,
	                             .duration_us = 900,
	                             .recv_wait_us = 700,
	                             .ended_before_us = 5e6},
	                            {.algorithm = "ring", .step = 4}};
	struct flight_rank r[4] = {
	    inside(40, FLIGHT_WAIT_RECV, 3, 6), inside(40, FLIGHT_WAIT_SEND, 2, 5),
	    inside(40, FLIGHT_WAIT_RECV, 1, 5), inside(40, FLIGHT_WAIT_RECV, 2, 5)};
	static const char *const hosts[4] = {"h1", "h1", "h2", "h2"};
	struct flight_verdict v;
	r[2].answering = false;
	r[2].entries = e;
	r[2].nentries = 2;
	cr_assert_eq(flight_judge(r, 4, &v), 0);
	cJSON *root = cJSON_CreateObject();
	cJSON *h = flight_to_json(root, r, &v, hosts);
	cr_assert_not_null(h);
	cr_assert_str_eq(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(h, "operation"), "algorithm")->valuestring,
	    "ring");
	cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(h, "never_entered")), 0);
	cr_assert_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(h, "not_answering"), 0)->valueint, 2);
	cr_assert_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(h, "blocked_by"), 0)->valueint, 2);
	cJSON *ranks = cJSON_GetObjectItem(h, "ranks");
	cr_assert_eq(cJSON_GetArraySize(ranks), 4);
	cJSON *r3 = cJSON_GetArrayItem(ranks, 3), *r2 = cJSON_GetArrayItem(ranks, 2);
	cr_assert_eq(cJSON_GetObjectItem(r3, "waits_on")->valueint, 2);
	cr_assert_str_eq(cJSON_GetObjectItem(r3, "wait")->valuestring, "receive");
	cr_assert_str_eq(cJSON_GetObjectItem(r3, "state")->valuestring, "waiting");
	cr_assert_str_eq(cJSON_GetObjectItem(r3, "host")->valuestring, "h2");
	cr_assert_str_eq(cJSON_GetObjectItem(r2, "state")->valuestring, "not_answering");
	cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(r2, "answering")));
	cJSON *last = cJSON_GetObjectItem(r2, "last_entries");
	cr_assert_eq(cJSON_GetArraySize(last), 2);
	cr_assert_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(last, 0), "recv_wait_us")->valuedouble,
	             700);
	cJSON_Delete(root);
	flight_verdict_release(&v);
}

Test(flight, bad_arguments)
{
	struct flight_verdict v;
	cr_assert_eq(flight_judge(NULL, 3, &v), -1);
	struct flight_rank r = {0};
	cr_assert_eq(flight_judge(&r, 0, &v), -1);
	cr_assert_str_eq(flight_state_name(FLIGHT_OUTSIDE), "between_calls");
	cr_assert_null(flight_wait_name(FLIGHT_WAIT_NONE));
}
