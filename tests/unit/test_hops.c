/*
 * Slow-hop attribution on synthetic traces: a ring all-reduce played on one
 * clock with the executor's dependencies (a message moves once both ends
 * have started their step; a step ends when its receive is reduced and its
 * send delivered), so waiting propagates as it does on a real machine. A
 * clean ring names nothing; one slow hop is named alone although the ranks
 * downstream wait as long; a rank slow both ways is named as a rank; a rank
 * slow at its own reductions is named as such and none of its hops;
 * messages of two sizes, and hosts whose links differ, accuse nobody.
 */
#include "reports/diagnose/hops.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_RANKS = 16 };

struct ring_model {
	int nranks, iterations;
	double xfer_us[MAX_RANKS];   /* per message, hop r -> r+1 */
	double reduce_us[MAX_RANKS]; /* per reduce step, on rank r */
	double post_us;
	double jitter;     /* +- fraction, deterministic */
	bool uneven;       /* odd steps carry half the bytes in half the time */
	int drop_first;    /* rank 1 loses its first drop_first steps (a ring that wrapped) */
	int late_receiver; /* > 0: this rank always starts its steps after its data arrived */
	double preempt_us[MAX_RANKS]; /* per reduce step, rank r's core away: wall time only */
	bool busy_known;              /* reduce_busy_us set: the reduction's time on the core */
};

static unsigned lcg = 12345;

static double jittered(double v, double j)
{
	lcg = lcg * 1103515245u + 12345u;
	double u = (double)((lcg >> 8) & 0xffff) / 65535.0; /* 0 .. 1 */
	return v * (1 + j * (2 * u - 1));
}

static void model_default(struct ring_model *m, int n)
{
	*m = (struct ring_model){.nranks = n, .iterations = 20, .post_us = 2, .jitter = 0.1};
	for (int r = 0; r < n; r++) {
		m->xfer_us[r] = 100;
		m->reduce_us[r] = 30;
	}
	lcg = 12345;
}

/*
 * The ring's 2(n-1) steps per iteration, one segment each, for every rank.
 * Returns the steps (caller frees) and their count.
 */
static struct hops_step *play(const struct ring_model *m, size_t *count)
{
	int n = m->nranks, nsteps = 2 * (n - 1);
	struct hops_step *out = calloc((size_t)(n * nsteps * m->iterations), sizeof *out);
	double end[MAX_RANKS] = {0}, start[MAX_RANKS], arrive[MAX_RANKS], done[MAX_RANKS];
	size_t k = 0;
	cr_assert_not_null(out);
	for (int it = 0; it < m->iterations; it++) {
		double t0 = 0;
		for (int r = 0; r < n; r++)
			t0 = fmax(t0, end[r]); /* the barrier */
		for (int r = 0; r < n; r++)
			end[r] = t0 + jittered(1, 1);
		for (int s = 0; s < nsteps; s++) {
			bool reduce = s < n - 1;
			double scale = m->uneven && (s & 1) ? 0.5 : 1;
			for (int r = 0; r < n; r++)
				start[r] = end[r];
			for (int r = 0; r < n; r++) {
				int to = (r + 1) % n;
				/* r's message to its right: moves once both have started */
				arrive[to] = fmax(start[r], start[to]) + m->post_us +
				             jittered(m->xfer_us[r] * scale, m->jitter);
			}
			for (int r = 0; r < n; r++) {
				int from = (r + n - 1) % n, to = (r + 1) % n;
				double recv_done = fmax(start[r] + m->post_us, arrive[r]);
				double busy =
				    reduce ? jittered(m->reduce_us[r] * scale, m->jitter) : 0;
				done[r] = recv_done + busy + (reduce ? m->preempt_us[r] : 0);
				out[k++] =
				    (struct hops_step){.rank = r,
				                       .iteration = it,
				                       .step = s,
				                       .send_peer = to,
				                       .recv_peer = from,
				                       .send_bytes = (uint64_t)(262144 * scale),
				                       .recv_bytes = (uint64_t)(262144 * scale),
				                       .start_us = start[r],
				                       .recv_done_us = recv_done,
				                       .reduced_us = done[r],
				                       .reduce_busy_us = m->busy_known ? busy : 0};
			}
			for (int r = 0; r < n; r++) {
				end[r] =
				    fmax(done[r], arrive[(r + 1) % n]); /* its send delivered too */
				out[k - (size_t)n + (size_t)r].end_us = end[r];
			}
		}
	}
	for (size_t i = 0; m->late_receiver && i < k; i++)
		if (out[i].rank == m->late_receiver)
			out[i].start_us = out[i].recv_done_us - 0.5;
	if (m->drop_first) {
		/* rank 1's oldest steps fell out of its ring */
		size_t kept = 0, dropped = 0;
		for (size_t i = 0; i < k; i++) {
			if (out[i].rank == 1 && dropped < (size_t)m->drop_first) {
				dropped++;
				continue;
			}
			out[kept++] = out[i];
		}
		k = kept;
	}
	*count = k;
	return out;
}

static void run(const struct ring_model *m, const int *hosts, struct hops_result *r)
{
	struct hops_params p;
	size_t n;
	struct hops_step *steps = play(m, &n);
	hops_params_default(&p);
	cr_assert_eq(hops_analyse(steps, n, m->nranks, hosts, &p, r), 0);
	free(steps);
}

static const struct hops_hop *hop(const struct hops_result *r, int a, int b)
{
	for (size_t i = 0; i < r->nhops; i++)
		if (r->hops[i].from_rank == a && r->hops[i].to_rank == b)
			return &r->hops[i];
	cr_assert_fail("no hop %d -> %d", a, b);
	return NULL;
}

Test(hops, clean_ring_names_nothing)
{
	struct ring_model m;
	struct hops_result r;
	model_default(&m, 8);
	run(&m, NULL, &r);
	cr_assert_eq(r.nhops, 8, "every hop of the ring");
	cr_assert_eq(r.messages, 8 * 14 * 20);
	cr_assert_eq(r.unmatched, 0);
	cr_assert_eq(r.iterations, 20);
	cr_assert_eq(r.nnamed, 0, "a clean ring names no hop");
	cr_assert_eq(r.nranks, 0, "and no rank");
	for (size_t i = 0; i < r.nhops; i++) {
		cr_assert(r.hops[i].judged);
		cr_assert_lt(r.hops[i].ratio, 1.3);
		cr_assert_float_eq(r.hops[i].hop_time_us, 100, 15,
		                   "the transfer, posting included");
	}
	hops_result_release(&r);
}

Test(hops, one_slow_hop_is_named_alone)
{
	struct ring_model m;
	struct hops_result r;
	model_default(&m, 8);
	m.xfer_us[2] = 600; /* 2 -> 3 */
	run(&m, NULL, &r);
	cr_assert_eq(r.nnamed, 1, "one hop named");
	const struct hops_hop *h = &r.hops[r.named[0]];
	cr_assert_eq(h->from_rank, 2);
	cr_assert_eq(h->to_rank, 3);
	cr_assert_gt(h->ratio, 4);
	cr_assert_gt(h->score, 3.5);
	cr_assert_float_eq(h->hop_time_us, 600, 60);
	cr_assert_float_eq(h->median_hop_us, 100, 15);
	/* the ranks downstream wait about as long, but their hops are not to blame */
	const struct hops_hop *next = hop(&r, 3, 4);
	cr_assert_gt(next->wait_us, 300, "waiting propagates: 3 -> 4 waits %.0f us", next->wait_us);
	cr_assert_lt(next->ratio, 1.5);
	cr_assert_not(next->slow);
	cr_assert_eq(r.nranks, 0);
	hops_result_release(&r);
}

/*
 * A link at 60% of its bandwidth: the hop 1.6x its peers, far past their
 * spread. Its score names it; a fixed 2x bar on the ratio used to throw that
 * evidence away (issue 39: the slowed hop had the top score of the report's
 * own trace and went unnamed). Jitter of 20% (1.2x between hops) does not.
 */
Test(hops, a_hop_under_2x_past_a_quiet_class_is_named)
{
	struct ring_model m;
	struct hops_result r;
	model_default(&m, 6);
	m.xfer_us[2] = 160; /* 2 -> 3 */
	run(&m, NULL, &r);
	cr_assert_eq(r.nnamed, 1, "one hop named");
	const struct hops_hop *h = &r.hops[r.named[0]];
	cr_assert_eq(h->from_rank, 2);
	cr_assert_lt(h->ratio, 2, "ratio %.2f", h->ratio);
	cr_assert_gt(h->score, 3.5);
	hops_result_release(&r);

	model_default(&m, 6);
	m.jitter = 0.2;
	run(&m, NULL, &r);
	cr_assert_eq(r.nnamed, 0, "a noisier clean ring names nothing");
	hops_result_release(&r);
}

/*
 * Hops that differ among themselves (100, 130, 70 us: hosts of a busy
 * machine) make a yardstick too loose for a hop 1.6x its peers' median: its
 * score stays low and it is not 2x past the slowest other. But it is the
 * slowest of the ring in every iteration, which chance does not do: named.
 */
Test(hops, a_hop_slowest_in_every_iteration_is_named_in_a_loose_class)
{
	struct ring_model m;
	struct hops_result r;
	model_default(&m, 6);
	m.xfer_us[1] = 130;
	m.xfer_us[4] = 70;
	m.xfer_us[3] = 160; /* 3 -> 4 */
	run(&m, NULL, &r);
	const struct hops_hop *h = hop(&r, 3, 4);
	cr_assert_lt(h->score, 3.5, "z %.2f", h->score);
	cr_assert_lt(h->consistency_p, 1e-3, "p %.2g", h->consistency_p);
	cr_assert(h->slow);
	cr_assert_eq(r.nnamed, 1);
	cr_assert_eq(r.hops[r.named[0]].from_rank, 3);
	cr_assert_gt(hop(&r, 1, 2)->consistency_p, 1e-3, "the second slowest is not named");
	hops_result_release(&r);

	/* the same class without it: nobody is the slowest more often than chance allows */
	model_default(&m, 6);
	m.xfer_us[4] = 70;
	m.xfer_us[1] = 110;
	m.jitter = 0.3;
	run(&m, NULL, &r);
	cr_assert_eq(r.nnamed, 0);
	hops_result_release(&r);
}

/*
 * Rank 3's interface (or its progress) is slow both ways: its incoming and
 * outgoing hops are both slow, and the rank is named instead of the two.
 */
Test(hops, rank_slow_both_ways_is_named_as_the_rank)
{
	struct ring_model m;
	struct hops_result r;
	model_default(&m, 8);
	m.xfer_us[2] = 500; /* 2 -> 3 */
	m.xfer_us[3] = 500; /* 3 -> 4 */
	run(&m, NULL, &r);
	cr_assert(hop(&r, 2, 3)->slow);
	cr_assert(hop(&r, 3, 4)->slow);
	cr_assert_eq(r.nnamed, 0, "its hops are not listed apart");
	cr_assert_eq(r.nranks, 1);
	cr_assert_eq(r.ranks[0].rank, 3);
	cr_assert_eq(r.ranks[0].reason, HOPS_RANK_HOPS);
	cr_assert_eq(r.ranks[0].hops_slow, 2);
	cr_assert_eq(r.ranks[0].hops_total, 2);
	hops_result_release(&r);
}

/*
 * Rank 5 reduces 8x slower (a starved core): its sends leave late and its
 * successor waits, yet no hop is named; the rank is, by its reduction rate.
 */
Test(hops, rank_slow_at_its_own_work_is_named_not_its_hops)
{
	struct ring_model m;
	struct hops_result r;
	model_default(&m, 8);
	m.reduce_us[5] = 240;
	run(&m, NULL, &r);
	cr_assert_gt(hop(&r, 5, 6)->wait_us, 150, "its successor waits on it");
	cr_assert_eq(r.nnamed, 0, "no hop is named");
	cr_assert_eq(r.nranks, 1);
	cr_assert_eq(r.ranks[0].rank, 5);
	cr_assert_eq(r.ranks[0].reason, HOPS_RANK_REDUCE);
	cr_assert_float_eq(r.ranks[0].ratio, 8, 1.5);
	cr_assert_gt(r.ranks[0].score, 3.5);
	cr_assert_float_eq(r.ranks[0].median_reduce_gbps, 262144 / 30.0 * 1e-3, 1.0);
	hops_result_release(&r);
}

/*
 * 5 ranks on a slow network (300 Mbit/s for 1 MiB / 5), rank 2 reducing in
 * reduce2 us a step, every time within +-jitter of it.
 */
static void slow_network_jitter(struct ring_model *m, double reduce2, double jitter,
                                struct hops_result *r)
{
	model_default(m, 5);
	for (int q = 0; q < 5; q++)
		m->xfer_us[q] = 20000;
	m->jitter = jitter;
	m->reduce_us[2] = reduce2;
	run(m, NULL, r);
}

/* The same with the model's 10% jitter. */
static void slow_network(struct ring_model *m, double reduce2, struct hops_result *r)
{
	slow_network_jitter(m, reduce2, 0.1, r);
}

/*
 * A core 1.5x slower at its reductions (issue 39's rank-compute) where the
 * network is slow: its reductions are a sliver of the iteration, yet it is a
 * suspect by its rate, the slowest reducer of every iteration; measured again
 * twice and found each time, it is named.
 */
Test(hops, a_rank_slow_at_its_reductions_is_named_whatever_its_share)
{
	struct ring_model m;
	struct hops_result r;
	struct hops_params p;
	hops_params_default(&p);
	slow_network(&m, 45, &r);
	cr_assert_eq(r.nranks, 0, "a suspect first");
	cr_assert_eq(r.nrank_suspects, 1);
	cr_assert_eq(r.nsuspects, 1);
	cr_assert_eq(r.nreducers, 5, "every rank judged on its reductions");
	const struct hops_rank *k = &r.rank_suspects[0];
	cr_assert_eq(k->rank, 2);
	cr_assert_eq(k->reason, HOPS_RANK_REDUCE);
	cr_assert_float_eq(k->ratio, 1.5, 0.15);
	cr_assert_lt(k->share, 0.01, "share %.4f", k->share);
	cr_assert_eq(k->wins, 20);
	cr_assert_eq(k->ranked, 20);
	cr_assert_lt(k->consistency_p, 1e-3);
	for (int i = 0; i < 2; i++) {
		struct hops_result again;
		run(&m, NULL, &again);
		cr_assert_eq(hops_retest(&r, &again, &p), 1);
		hops_result_release(&again);
	}
	cr_assert_eq(hops_name_confirmed(&r, 2), 1);
	cr_assert_eq(r.nranks, 1);
	cr_assert_eq(r.nsuspects, 0);
	cr_assert_eq(r.ranks[0].rank, 2);
	cr_assert_eq(r.ranks[0].retests_confirmed, 2);
	hops_result_release(&r);
}

/* A re-measurement tests the one rank: 1.25x or more, 20 us an iteration, score or wins at 0.05. */
Test(hops, a_reducer_suspect_is_found_again_by_the_one_rank_test)
{
	struct ring_model m;
	struct hops_result r, again;
	struct hops_params p;
	hops_params_default(&p);
	struct hops_rank one = {.rank = 2, .reason = HOPS_RANK_REDUCE, .ratio = 1.3, .score = 1.0,
	                        .wins_p = 0.01, .consistency_p = 0.05, .share = 0.05};
	struct hops_result by_hand;
	hops_result_init(&by_hand);
	by_hand.reducers = &one;
	by_hand.nreducers = 1;
	by_hand.iteration_us = 1000; /* its excess: 50 us an iteration */
	const struct {
		double ratio, score, wins_p, share;
		size_t left;
		const char *why;
	} cases[] = {{1.3, 1.0, 0.01, 0.05, 1, "no suspect, yet slow by the one test"},
	             {1.3, 1.0, 0.2, 0.05, 0, "its wins are chance"},
	             {1.2, 1.0, 0.01, 0.05, 0, "not slow enough"},
	             {1.3, 3.6, 0.2, 0.05, 1, "its score stands out"},
	             {1.3, 3.6, 0.01, 0.01, 0, "10 us an iteration: the caches' and the clock's"}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		one.ratio = cases[i].ratio;
		one.score = cases[i].score;
		one.wins_p = cases[i].wins_p;
		one.share = cases[i].share;
		slow_network(&m, 45, &r);
		cr_assert_eq(hops_retest(&r, &by_hand, &p), cases[i].left, "%s", cases[i].why);
		hops_result_release(&r);
	}
	/* found once, then not: dropped */
	slow_network(&m, 45, &r);
	run(&m, NULL, &again);
	cr_assert_eq(hops_retest(&r, &again, &p), 1);
	hops_result_release(&again);
	m.reduce_us[2] = 30;
	run(&m, NULL, &again);
	cr_assert_eq(hops_retest(&r, &again, &p), 0);
	hops_result_release(&again);
	cr_assert_eq(hops_name_confirmed(&r, 2), 0);
	cr_assert_eq(r.nranks + r.nrank_suspects, 0);
	hops_result_release(&r);
}

/* Another job's stream through its host, or its wait for a core, explains a slow reducer. */
Test(hops, a_reducer_on_a_busy_host_or_off_its_core_is_cleared)
{
	struct ring_model m;
	struct hops_result r;
	struct hops_params p;
	hops_params_default(&p);
	static const int hosts[5] = {0, 1, 2, 3, 4};
	const double own[5] = {4e6, 4e6, 4e6, 4e6, 4e6}, quiet[5] = {0, 0, 0, 0, 0};
	double other[5] = {0, 0, 0.0003, 0, 0}; /* GB/s; its own 4 MB in 1 s: 0.004 */
	slow_network(&m, 45, &r);
	cr_assert_eq(hops_clear_busy_reducers(&r, hosts, quiet, own, 5, 1.0, &p), 0, "quiet");
	cr_assert_eq(hops_clear_busy_reducers(&r, hosts, other, own, 5, 1.0, &p), 0, "a tenth");
	other[2] = 0.012;
	cr_assert_eq(hops_clear_busy_reducers(&r, hosts, other, own, 5, 1.0, &p), 1);
	cr_assert_eq(r.nrank_suspects + r.nsuspects, 0);
	hops_result_release(&r);

	slow_network(&m, 45, &r);
	double wait[5] = {0.1, 0.1, 0.15, 0.1, NAN};
	cr_assert_eq(hops_clear_waiting_reducers(&r, wait, 5, &p), 4, "4 waits known");
	cr_assert_eq(r.nrank_suspects, 1, "about 1.5 x 0.85 / 0.9 = 1.42: still slow");
	wait[2] = 0.3;
	cr_assert_eq(hops_clear_waiting_reducers(&r, wait, 5, &p), 4);
	cr_assert_eq(r.nrank_suspects + r.nsuspects, 0, "about 1.17: the wait explains it");
	hops_result_release(&r);
	slow_network(&m, 45, &r);
	const double alike[5] = {0.75, 0.75, 0.75, 0.75, 0.75};
	cr_assert_eq(hops_clear_waiting_reducers(&r, alike, 5, &p), 5);
	cr_assert_eq(r.nrank_suspects, 1, "a wait every rank shares explains no one");
	hops_result_release(&r);
}

/*
 * A rank whose core is taken away in every reduction (its wall time 3x the
 * others') is no slower at its work: judged on its time on the core it is no
 * suspect, where its wall time made it one; and a rank 1.5x slower at its
 * work is still found beside it (reduce_timed.h).
 */
Test(hops, a_reducer_is_judged_on_its_time_on_the_core)
{
	struct ring_model m;
	struct hops_result r;
	model_default(&m, 5);
	for (int q = 0; q < 5; q++)
		m.xfer_us[q] = 20000;
	m.preempt_us[1] = 60;
	run(&m, NULL, &r);
	cr_assert_eq(r.nrank_suspects, 1, "by wall time: the rank off its core");
	cr_assert_eq(r.rank_suspects[0].rank, 1);
	hops_result_release(&r);
	m.busy_known = true;
	lcg = 12345;
	run(&m, NULL, &r);
	cr_assert_eq(r.nranks + r.nrank_suspects, 0, "on the core: nobody");
	hops_result_release(&r);
	m.reduce_us[2] = 45;
	lcg = 12345;
	run(&m, NULL, &r);
	cr_assert_eq(r.nrank_suspects, 1, "the slow worker");
	cr_assert_eq(r.rank_suspects[0].rank, 2);
	cr_assert_float_eq(r.rank_suspects[0].ratio, 1.5, 0.15);
	hops_result_release(&r);
}

/* A core 1.15x slower (under reduce_min_ratio), or a clean ring with 10% jitter: no suspect. */
Test(hops, a_reducer_a_little_slower_or_jitter_is_no_suspect)
{
	struct ring_model m;
	struct hops_result r;
	slow_network_jitter(&m, 34.5, 0.02, &r); /* the slowest every time, but not by enough */
	cr_assert_eq(r.nranks + r.nrank_suspects, 0);
	hops_result_release(&r);
	slow_network(&m, 30, &r);
	cr_assert_eq(r.nranks + r.nrank_suspects, 0, "10%% jitter suspects no reducer");
	hops_result_release(&r);
}

Test(hops, messages_of_two_sizes_accuse_nobody)
{
	struct ring_model m;
	struct hops_result r;
	model_default(&m, 8);
	m.uneven = true;
	run(&m, NULL, &r);
	cr_assert_eq(r.nnamed, 0);
	cr_assert_eq(r.nranks, 0);
	for (size_t i = 0; i < r.nhops; i++)
		cr_assert_float_eq(r.hops[i].value, 1, 0.2, "each message against its own size");
	hops_result_release(&r);
	m.xfer_us[6] = 500;
	run(&m, NULL, &r);
	cr_assert_eq(r.nnamed, 1);
	cr_assert_eq(r.hops[r.named[0]].from_rank, 6);
	hops_result_release(&r);
}

/* 4 hosts of 2 ranks: the cross-host hops are 3x slower, which is their class, not a fault. */
Test(hops, hops_are_judged_within_their_locality)
{
	static const int hosts[8] = {0, 0, 1, 1, 2, 2, 3, 3};
	struct ring_model m;
	struct hops_result r;
	model_default(&m, 8);
	for (int a = 1; a < 8; a += 2)
		m.xfer_us[a] = 300; /* 1->2, 3->4, 5->6, 7->0 cross hosts */
	run(&m, hosts, &r);
	cr_assert_eq(r.nnamed, 0, "cross-host hops are compared with cross-host hops");
	cr_assert_eq(hop(&r, 1, 2)->locality, HOPS_CROSS_HOST);
	cr_assert_eq(hop(&r, 2, 3)->locality, HOPS_SAME_HOST);
	hops_result_release(&r);
	m.xfer_us[3] = 3000; /* 3 -> 4 */
	run(&m, hosts, &r);
	cr_assert_eq(r.nnamed, 1);
	cr_assert_eq(r.hops[r.named[0]].from_rank, 3);
	cr_assert_eq(r.hops[r.named[0]].to_rank, 4);
	cr_assert_float_eq(r.hops[r.named[0]].median_hop_us, 300, 50, "against cross-host hops");
	double with_hosts = r.hops[r.named[0]].score;
	hops_result_release(&r);
	/* without hosts all 8 hops are one class, half of it 3x the other half: a loose class */
	run(&m, NULL, &r);
	cr_assert_lt(hop(&r, 3, 4)->score, with_hosts / 4);
	cr_assert_not(hop(&r, 1, 2)->slow, "the cross-host hops are still not accused");
	hops_result_release(&r);
}

/*
 * As on the virtual cluster with one link slowed: the receiver of the hop
 * before the slow one is held up by its own send and finds its data there
 * whenever it looks, so that hop is charged 0. With 4 hops across hosts, a
 * spread taken over all of them (0, 1, 1, 4) hides the slow one; the test
 * against the others, spread from above, does not.
 */
Test(hops, a_hop_charged_nothing_does_not_hide_the_slow_one)
{
	static const int hosts[8] = {0, 0, 1, 1, 2, 2, 3, 3};
	struct ring_model m;
	struct hops_result r;
	model_default(&m, 8);
	for (int a = 1; a < 8; a += 2)
		m.xfer_us[a] = 300;
	m.xfer_us[3] = 1200; /* 3 -> 4, 4x */
	m.late_receiver = 2; /* 1 -> 2 charged nothing */
	run(&m, hosts, &r);
	cr_assert_lt(hop(&r, 1, 2)->hop_time_us, 5);
	cr_assert_eq(r.nnamed, 1);
	cr_assert_eq(r.hops[r.named[0]].from_rank, 3);
	cr_assert_eq(r.hops[r.named[0]].to_rank, 4);
	cr_assert_float_eq(r.hops[r.named[0]].ratio, 4, 0.6, "against the others' median");
	cr_assert_float_eq(r.hops[r.named[0]].median_hop_us, 300, 40);
	cr_assert_eq(r.nranks, 0);
	hops_result_release(&r);
}

/*
 * As on the virtual cluster with a link slowed 50x: the receiver of the slow
 * link is slower to push its own send to its neighbour on the same host, 12x
 * that hop's peers, but that costs the all-reduce a few percent of an
 * iteration where the slow link costs nearly all of it: only the link is named.
 */
Test(hops, a_hop_that_costs_little_is_not_named)
{
	static const int hosts[8] = {0, 0, 1, 1, 2, 2, 3, 3};
	struct ring_model m;
	struct hops_result r;
	model_default(&m, 8);
	for (int a = 1; a < 8; a += 2)
		m.xfer_us[a] = 300;
	m.xfer_us[3] = 15000; /* 3 -> 4 */
	m.xfer_us[4] = 2000;  /* 4 -> 5, same host */
	run(&m, hosts, &r);
	const struct hops_hop *h = hop(&r, 4, 5);
	cr_assert_gt(h->ratio, 5);
	cr_assert_gt(h->score, 3.5);
	cr_assert_lt(h->share, 0.25, "share %.3f", h->share);
	cr_assert_not(h->slow);
	cr_assert_gt(hop(&r, 3, 4)->share, 0.8);
	cr_assert_float_eq(r.iteration_us, 14 * 15000, 14 * 15000 * 0.15);
	cr_assert_eq(r.nnamed, 1);
	cr_assert_eq(r.hops[r.named[0]].from_rank, 3);
	cr_assert_eq(r.nranks, 0, "rank 4 has one slow hop of two");
	hops_result_release(&r);
}

/*
 * A link 25% slower in a ring (issue 39): the hop 1.25x its peers holds up
 * every step, about a fifth of an iteration, under the quarter asked of one
 * run. Its score singles it out, so it is a suspect: named once two more
 * runs of the point find it again, never when one of them does not (a
 * core's stall moves; a slow link stays).
 */
Test(hops, a_suspect_is_named_only_when_every_re_measurement_finds_it)
{
	struct ring_model m;
	struct hops_result first, again;
	struct hops_params p;
	hops_params_default(&p);
	model_default(&m, 6);
	m.jitter = 0.04;
	m.xfer_us[2] = 125; /* 2 -> 3 */
	run(&m, NULL, &first);
	const struct hops_hop *h = hop(&first, 2, 3);
	cr_assert_not(h->slow, "share %.3f is under the bar of one run", h->share);
	cr_assert(h->suspect, "z %.2f, p %.2g, share %.3f", h->score, h->consistency_p, h->share);
	cr_assert_geq(h->share, 0.1);
	cr_assert_eq(first.nnamed, 0);
	cr_assert_eq(first.nsuspects, 1, "the others are not suspects");
	cr_assert_eq(hops_name_confirmed(&first, 2), 0, "not re-measured yet: not named");

	for (int k = 1; k <= 2; k++) { /* the same link, new noise */
		run(&m, NULL, &again);
		cr_assert_eq(hops_retest(&first, &again, &p), 1, "re-measurement %d finds it", k);
		hops_result_release(&again);
	}
	cr_assert_eq(hops_name_confirmed(&first, 2), 1);
	cr_assert_eq(first.nnamed, 1);
	h = &first.hops[first.named[0]];
	cr_assert_eq(h->from_rank, 2);
	cr_assert(h->slow);
	cr_assert_not(h->suspect);
	cr_assert_eq(h->retests, 2);
	cr_assert_eq(h->retests_confirmed, 2);
	hops_result_release(&first);

	/*
	 * A short re-measurement on a busier machine: the other hops differ
	 * among themselves, so the score no longer singles the link out, and 4
	 * wins of 4 iterations among 6 hops (p 6 x 6^-4) is no search's
	 * evidence; for the one hop under test it is (6^-4): found again.
	 */
	run(&m, NULL, &first);
	model_default(&m, 6);
	m.jitter = 0.04;
	m.iterations = 4;
	m.xfer_us[0] = 112;
	m.xfer_us[4] = 80;
	m.xfer_us[2] = 125;
	run(&m, NULL, &again);
	h = hop(&again, 2, 3);
	cr_assert_not(h->slow || h->suspect, "z %.2f, p %.2g, share %.3f", h->score, h->consistency_p, h->share);
	cr_assert_eq(hops_retest(&first, &again, &p), 1, "wins p %.2g", h->consistency_p);
	hops_result_release(&again);
	hops_result_release(&first);

	/* a re-measurement without it: cleared, and never named */
	model_default(&m, 6);
	m.jitter = 0.04;
	m.xfer_us[2] = 125;
	run(&m, NULL, &first);
	model_default(&m, 6);
	m.jitter = 0.04;
	run(&m, NULL, &again);
	cr_assert_eq(hops_retest(&first, &again, &p), 0);
	hops_result_release(&again);
	h = hop(&first, 2, 3);
	cr_assert_not(h->suspect);
	cr_assert_eq(h->retests, 1);
	cr_assert_eq(h->retests_confirmed, 0);
	cr_assert_eq(hops_name_confirmed(&first, 1), 0);
	cr_assert_eq(first.nnamed, 0);
	hops_result_release(&first);
}

/*
 * A busy machine: the 3 other cross-host hops differ 3x among themselves, a
 * yardstick too loose for the z-score alone; a hop 4x past the slowest of
 * them is still named.
 */
Test(hops, a_hop_past_every_other_is_named_in_a_loose_class)
{
	static const int hosts[8] = {0, 0, 1, 1, 2, 2, 3, 3};
	struct ring_model m;
	struct hops_result r;
	model_default(&m, 8);
	m.xfer_us[1] = 300;
	m.xfer_us[5] = 900;
	m.xfer_us[7] = 400;
	m.xfer_us[3] = 4000;
	run(&m, hosts, &r);
	const struct hops_hop *h = hop(&r, 3, 4);
	cr_assert_lt(h->score, 3.5, "z %.2f: the spread of 300, 400, 900 is wide", h->score);
	cr_assert(h->slow);
	cr_assert_eq(r.nnamed, 1);
	cr_assert_not(hop(&r, 5, 6)->slow, "900 is not 2x past 400");
	hops_result_release(&r);
}

/* Half of a class 3x the other half (hosts unknown): a loose class accuses nobody. */
Test(hops, a_bimodal_class_accuses_nobody)
{
	struct ring_model m;
	struct hops_result r;
	model_default(&m, 8);
	for (int a = 1; a < 8; a += 2)
		m.xfer_us[a] = 300;
	run(&m, NULL, &r);
	cr_assert_eq(r.nnamed, 0);
	cr_assert_eq(r.nranks, 0);
	hops_result_release(&r);
}

Test(hops, a_ring_that_wrapped_still_pairs_what_remains)
{
	struct ring_model m;
	struct hops_result r;
	model_default(&m, 8);
	m.xfer_us[4] = 700;
	m.drop_first = 5;
	run(&m, NULL, &r);
	cr_assert_eq(r.unmatched, 5 * 2, "the dropped steps' two ends have no partner");
	cr_assert_eq(r.nnamed, 1);
	cr_assert_eq(r.hops[r.named[0]].from_rank, 4);
	hops_result_release(&r);
}

/* Two ranks: two hops, too few to judge (the median of two is no reference). */
Test(hops, too_few_hops_are_not_judged)
{
	struct ring_model m;
	struct hops_result r;
	model_default(&m, 2);
	m.xfer_us[0] = 1000;
	run(&m, NULL, &r);
	cr_assert_eq(r.nhops, 2);
	cr_assert_not(r.hops[0].judged);
	cr_assert(isnan(r.hops[0].ratio));
	cr_assert_eq(r.nnamed, 0);
	hops_result_release(&r);
}

/* Microseconds apart at tiny sizes: the ratio is large but the excess is noise. */
Test(hops, tiny_differences_accuse_nobody)
{
	struct ring_model m;
	struct hops_result r;
	model_default(&m, 8);
	for (int a = 0; a < 8; a++)
		m.xfer_us[a] = 2;
	m.xfer_us[3] = 12;
	m.post_us = 0;
	run(&m, NULL, &r);
	cr_assert_gt(hop(&r, 3, 4)->ratio, 2);
	cr_assert_eq(r.nnamed, 0, "10 us over the median is below min_excess_us");
	hops_result_release(&r);
}

Test(hops, bad_arguments)
{
	struct hops_params p;
	struct hops_result r;
	struct hops_step s = {.rank = 0, .send_peer = 2, .recv_peer = -1};
	hops_params_default(&p);
	cr_assert_eq(hops_analyse(&s, 1, 2, NULL, &p, &r), -1, "peer out of range");
	s.send_peer = 1;
	s.start_us = NAN;
	cr_assert_eq(hops_analyse(&s, 1, 2, NULL, &p, &r), -1, "a time that is not a number");
	cr_assert_eq(hops_analyse(NULL, 0, 2, NULL, &p, &r), 0, "nothing traced");
	cr_assert_eq(r.nhops, 0);
	hops_result_release(&r);
	cr_assert_eq(hops_analyse(NULL, 0, 0, NULL, &p, &r), -1);
	cr_assert_str_eq(hops_locality_name(HOPS_CROSS_HOST), "cross_host");
	cr_assert_str_eq(hops_rank_reason_name(HOPS_RANK_REDUCE), "reduce");
}

/* The report: the point's hops, the findings in the summary and their lines, in the report's ranks.
 */
Test(hops, findings_in_the_report_and_the_text)
{
	static const int world[8] = {10, 11, 12, 13, 14, 15, 16, 17};
	static const char *const host[8] = {"a", "a", "b", "b", "c", "c", "d", "d"};
	struct hops_names nm = {.report_rank = world, .host = host};
	struct ring_model m;
	struct hops_result r;
	struct hops_finding f[4];
	char line[512];
	model_default(&m, 8);
	m.xfer_us[2] = 600;
	m.reduce_us[6] = 600;
	run(&m, NULL, &r);
	size_t n = hops_findings(&r, "ring", 1048576, 8, &nm, f, 4);
	cr_assert_eq(n, 2, "one hop and one rank");
	cr_assert_not(f[0].is_rank);
	cr_assert_eq(f[0].hop.from_rank, 12);
	cr_assert_eq(f[0].hop.to_rank, 13);
	cr_assert_str_eq(f[0].host_a, "b");
	cr_assert(f[1].is_rank);
	cr_assert_eq(f[1].rank.rank, 16);
	hops_finding_describe(&f[0], line, sizeof line);
	cr_assert(strstr(line, "slow hop: ring, 1048576 bytes: 12->13 (b -> b) ") == line, "%s",
	          line);
	cr_assert(strstr(line, "x the median hop "), "%s", line);
	hops_finding_describe(&f[1], line, sizeof line);
	cr_assert(strstr(line, "slow rank: ring, 1048576 bytes: rank 16 (d) reduces at "), "%s",
	          line);
	cr_assert(strstr(line, "iterations): its core is slow at its own work"), "%s", line);

	cJSON *root = cJSON_CreateObject(), *rec = cJSON_AddObjectToObject(root, "rec");
	cJSON *sum = cJSON_AddObjectToObject(root, "summary");
	cr_assert_not_null(hops_point_to_json(rec, &r, &nm, 1.5, 0));
	cr_assert_eq(hops_findings_to_json(sum, f, n), 0);
	cJSON *hops = cJSON_GetObjectItem(cJSON_GetObjectItem(rec, "trace"), "hops");
	cr_assert_eq(cJSON_GetArraySize(hops), 8);
	int slow = 0;
	cJSON *h;
	cJSON_ArrayForEach(h, hops) slow += cJSON_IsTrue(cJSON_GetObjectItem(h, "slow"));
	cr_assert_eq(slow, 1);
	cJSON *sh = cJSON_GetArrayItem(cJSON_GetObjectItem(sum, "slow_hops"), 0);
	cr_assert_eq(cJSON_GetObjectItem(sh, "from_rank")->valueint, 12);
	cr_assert_str_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(sh, "hosts"), 1)->valuestring, "b");
	cr_assert_str_eq(cJSON_GetObjectItem(sh, "algorithm")->valuestring, "ring");
	cr_assert_gt(cJSON_GetObjectItem(sh, "ratio")->valuedouble, 4);
	cJSON *sr = cJSON_GetArrayItem(cJSON_GetObjectItem(sum, "slow_ranks"), 0);
	cr_assert_str_eq(cJSON_GetObjectItem(sr, "reason")->valuestring, "reduce");
	cr_assert_str_eq(cJSON_GetObjectItem(sr, "host")->valuestring, "d");
	cr_assert_lt(cJSON_GetObjectItem(sr, "consistency_p")->valuedouble, 1e-3);
	cJSON_Delete(root);
	hops_result_release(&r);
}

Test(hops, a_clean_summary_has_empty_lists)
{
	cJSON *sum = cJSON_CreateObject();
	cr_assert_eq(hops_findings_to_json(sum, NULL, 0), 0);
	cr_assert(cJSON_IsArray(cJSON_GetObjectItem(sum, "slow_hops")));
	cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(sum, "slow_ranks")), 0);
	cJSON_Delete(sum);
}

/*
 * A re-measurement's one hop under test is found again by its wins only on
 * their own chance (wins_p), not by the search's consistency_p divided back
 * by its k peers: capped at 1, that gave 1/k, under confirm_alpha from 20
 * peers on, for a hop that won no more often than chance.
 */
Test(hops, a_re_measurement_finds_a_hop_by_its_own_wins_only)
{
	enum { PEERS = 32 };
	struct hops_params p;
	struct hops_hop first_hop = {.from_rank = 5, .to_rank = 6, .judged = true, .suspect = true};
	struct hops_hop peers[PEERS];
	hops_params_default(&p);
	for (int i = 0; i < PEERS; i++)
		peers[i] = (struct hops_hop){.from_rank = i,
		                             .to_rank = (i + 1) % PEERS,
		                             .judged = true,
		                             .locality = HOPS_ANY,
		                             .hop_time_us = 100,
		                             .median_hop_us = 100,
		                             .share = 0,
		                             .wins_p = 0.9,
		                             .consistency_p = 1};
	/* hop 5 -> 6: a suspect's excess and share, and no more wins than chance */
	peers[5].hop_time_us = 100 + 2 * p.min_excess_us;
	peers[5].share = p.retest_share + 0.05;
	peers[5].wins_p = 0.5;
	struct hops_result again = {.hops = peers, .nhops = PEERS};
	struct hops_result first = {.hops = &first_hop, .nhops = 1};
	cr_assert_eq(hops_retest(&first, &again, &p), 0, "no evidence of wins: not found again");
	/* the same with wins beyond chance for the one hop tested: found again */
	first_hop.suspect = true;
	peers[5].wins_p = p.confirm_alpha / 2;
	cr_assert_eq(hops_retest(&first, &again, &p), 1);
}

/*
 * Another job's traffic (issue 39). A NIC carries the collective's bytes times one factor on
 * every host (the calls not traced, the frames); what one host carried past that is someone
 * else's.
 */
Test(hops, other_traffic_is_what_a_host_carried_past_the_others_factor)
{
	const int hosts[4] = {0, 1, 2, 3};
	const double own[4] = {100, 100, 100, 100};
	double counted[4] = {220, 220, 220 + 2e9, 220}, other[5];
	cr_assert_eq(hops_host_other_gbps(counted, own, hosts, 4, 5, 2.0, other), 0);
	cr_assert_float_eq(other[2], 1.0, 1e-9, "2e9 bytes more in 2 s: %g GB/s", other[2]);
	cr_assert_float_eq(other[0], 0, 1e-12);
	cr_assert(isnan(other[4]), "a host with no rank here");
	/* a missing reading: nothing known */
	counted[1] = NAN;
	cr_assert_eq(hops_host_other_gbps(counted, own, hosts, 4, 4, 2.0, other), 0);
	for (int h = 0; h < 4; h++)
		cr_assert(isnan(other[h]));
	/* two hosts: no median to stand on */
	counted[1] = 220;
	cr_assert_eq(hops_host_other_gbps(counted, own, hosts, 2, 4, 2.0, other), 0);
	cr_assert(isnan(other[0]) && isnan(other[1]));
	/* two ranks a host read the same counters; their own bytes add up */
	const int two[6] = {0, 0, 1, 1, 2, 2};
	const double own2[6] = {50, 50, 100, 0, 60, 40};
	const double counted2[6] = {330, 330, 330, 330, 330 + 4e9, 330 + 4e9};
	cr_assert_eq(hops_host_other_gbps(counted2, own2, two, 6, 3, 4.0, other), 0);
	cr_assert_float_eq(other[2], 1.0, 1e-9);
	cr_assert_float_eq(other[0], 0, 1e-12);
}

Test(hops, own_bytes_count_the_messages_across_hosts_only)
{
	struct ring_model m;
	size_t n;
	double own[4];
	const int hosts[4] = {0, 0, 1, 1};
	model_default(&m, 4);
	m.iterations = 2;
	struct hops_step *steps = play(&m, &n);
	hops_cross_host_bytes(steps, n, hosts, 4, own);
	/* rank 1 sends to rank 2 (another host), receives from rank 0 (its own): 6 steps x 2 */
	cr_assert_float_eq(own[1], 2 * 6 * 262144.0, 1e-6);
	cr_assert_float_eq(own[0], 2 * 6 * 262144.0, 1e-6, "receives from rank 3");
	free(steps);
}

static void run_hosts(struct ring_model *m, const int *hosts, struct hops_result *r,
                      struct hops_params *p)
{
	size_t n;
	struct hops_step *steps = play(m, &n);
	hops_params_default(p);
	cr_assert_eq(hops_analyse(steps, n, m->nranks, hosts, p, r), 0);
	free(steps);
}

/*
 * A hop 6x its peers (262144 bytes in 600 us against 100: 0.44 GB/s against
 * 2.6) is another job's when its host's NIC carried 2 GB/s more, and stays
 * named at 1 GB/s: the traffic must make up the difference.
 */
Test(hops, a_slow_hop_is_cleared_when_other_traffic_makes_up_its_deficit)
{
	struct ring_model m;
	struct hops_result r;
	struct hops_params p;
	const int hosts[6] = {0, 1, 2, 3, 4, 5};
	double other[6] = {0, 0, 1.0, 0, 0, 0};
	model_default(&m, 6);
	m.xfer_us[2] = 600; /* 2 -> 3 */
	run_hosts(&m, hosts, &r, &p);
	cr_assert_eq(r.nnamed, 1);
	cr_assert_float_eq(hop(&r, 2, 3)->message_bytes, 262144, 1e-9);
	cr_assert_eq(hops_clear_traffic(&r, hosts, other, &p), 0, "1 GB/s leaves 0.9 unexplained");
	cr_assert_eq(r.nnamed, 1);
	cr_assert_float_eq(hop(&r, 2, 3)->other_traffic_gbps, 1.0, 1e-12);
	cr_assert_not(hop(&r, 2, 3)->traffic_cleared);
	other[3] = 2.0; /* the receiver's NIC: the busier end counts */
	cr_assert_eq(hops_clear_traffic(&r, hosts, other, &p), 1);
	cr_assert_eq(r.nnamed, 0);
	cr_assert_not(hop(&r, 2, 3)->slow);
	cr_assert(hop(&r, 2, 3)->traffic_cleared);
	cr_assert_float_eq(hop(&r, 2, 3)->other_traffic_gbps, 2.0, 1e-12);
	cr_assert(isnan(hop(&r, 3, 4)->other_traffic_gbps), "only slow hops and suspects");
	hops_result_release(&r);
	/* unknown traffic clears nothing */
	run_hosts(&m, hosts, &r, &p);
	double unknown[6] = {NAN, NAN, NAN, NAN, NAN, NAN};
	cr_assert_eq(hops_clear_traffic(&r, hosts, unknown, &p), 0);
	cr_assert_eq(r.nnamed, 1);
	hops_result_release(&r);
}

/* A rank named for its two slow hops, one of them another job's: its other hop named apart. */
Test(hops, a_rank_named_for_hops_that_traffic_explains_is_named_no_longer)
{
	struct ring_model m;
	struct hops_result r;
	struct hops_params p;
	const int hosts[8] = {0, 1, 2, 3, 4, 5, 6, 7};
	double other[8] = {0, 0, 3.0, 0, 0, 0, 0, 0};
	model_default(&m, 8);
	m.xfer_us[2] = 500; /* 2 -> 3 */
	m.xfer_us[3] = 500; /* 3 -> 4 */
	run_hosts(&m, hosts, &r, &p);
	cr_assert_eq(r.nranks, 1);
	cr_assert_eq(hops_clear_traffic(&r, hosts, other, &p), 1, "2 -> 3: host 2 was busy");
	cr_assert_eq(r.nranks, 0, "rank 3 has one slow hop of two left");
	cr_assert_eq(r.nnamed, 1);
	cr_assert_eq(r.hops[r.named[0]].from_rank, 3);
	cr_assert_eq(r.hops[r.named[0]].to_rank, 4);
	hops_result_release(&r);
}
