/* The plans of probes/plan.c: every round a matching, screening in O(log N) rounds. */
#include "probes/plan.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "probes/tournament.h"

static int *hosts_of(int nhosts, int per_host)
{
	int *h = malloc((size_t)nhosts * (size_t)per_host * sizeof *h);
	cr_assert(h);
	for (int r = 0; r < nhosts * per_host; r++)
		h[r] = r % nhosts; /* ranks dealt round robin: a host's ranks are not adjacent */
	return h;
}

static int ceil_log2(int n)
{
	int b = 0;
	while ((1 << b) < n)
		b++;
	return b;
}

/* Every round a matching; returns how often each unordered pair met (n x n, owned). */
static int *check_matchings(const struct probe_plan *p)
{
	const int n = p->nranks;
	int *seen = calloc((size_t)n * (size_t)n, sizeof *seen);
	cr_assert(seen);
	for (int r = 0; r < probe_plan_rounds(p); r++) {
		int64_t pairs = 0;
		for (int a = 0; a < n; a++) {
			int b = probe_plan_partner(p, r, a);
			if (b < 0)
				continue;
			cr_assert(b != a && b < n, "round %d: %d meets %d", r, a, b);
			cr_assert_eq(probe_plan_partner(p, r, b), a, "round %d: %d-%d one-sided", r,
			             a, b);
			bool cross = p->host_of_rank[a] != p->host_of_rank[b];
			bool intra_round = probe_plan_kind(p, r) == PROBE_ROUND_INTRA;
			if (p->pattern == PROBE_PLAN_SCREEN)
				cr_assert_eq(cross, !intra_round, "round %d: %d-%d", r, a, b);
			if (a < b) {
				seen[a * n + b]++;
				pairs++;
			}
		}
		cr_assert_eq(pairs, probe_plan_round_pairs(p, r), "round %d pairs", r);
	}
	return seen;
}

Test(plan, screen_gives_every_host_three_partners_in_log_rounds)
{
	static const int counts[] = {2,  3,  4,  5,  6,  7,  8,   9,   12,
	                             16, 17, 24, 31, 33, 64, 100, 255, 1024};
	for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
		int nh = counts[i];
		for (int per = 1; per <= (nh <= 64 ? 3 : 1); per++) {
			int *host = hosts_of(nh, per), n = nh * per;
			struct probe_plan p;
			cr_assert_eq(probe_plan_build(&p, PROBE_PLAN_SCREEN, n, nh, host), 0);
			int bound = ceil_log2(nh) + PROBE_PLAN_MATCHINGS;
			cr_assert(p.cross_rounds <= bound, "%d hosts: %d rounds, more than %d", nh,
			          p.cross_rounds, bound);
			cr_assert_eq(p.intra_rounds, probe_tournament_rounds(per));
			int want =
			    nh - 1 < PROBE_PLAN_MIN_PARTNERS ? nh - 1 : PROBE_PLAN_MIN_PARTNERS;
			int *seen = n <= 256 ? check_matchings(&p) : NULL;
			for (int h = 0; h < nh; h++) {
				int k = probe_plan_host_partners(&p, h);
				cr_assert(k >= want, "%d hosts x %d: host %d meets %d partners", nh,
				          per, h, k);
			}
			/* every intra-host pair once, every cross pair through the first ranks */
			for (int a = 0; seen && a < n; a++)
				for (int b = a + 1; b < n; b++) {
					bool same = host[a] == host[b];
					bool firsts = a < nh && b < nh;
					if (same)
						cr_assert_eq(seen[a * n + b], 1, "%d-%d met %d", a,
						             b, seen[a * n + b]);
					else if (!firsts)
						cr_assert_eq(seen[a * n + b], 0, "%d-%d", a, b);
				}
			free(seen);
			probe_plan_release(&p);
			free(host);
		}
	}
}

Test(plan, rounds_grow_with_log_n)
{
	int *host = hosts_of(8192, 1);
	struct probe_plan p;
	cr_assert_eq(probe_plan_build(&p, PROBE_PLAN_SCREEN, 8192, 8192, host), 0);
	cr_assert_eq(probe_plan_rounds(&p), 13 + PROBE_PLAN_MATCHINGS);
	struct probe_plan_cost c;
	struct probe_link_opts o = {
	    .window = 16, .bw_bytes = 1, .bw_iters = 10, .lat_time_s = 0.2, .bw_time_s = 1};
	probe_plan_cost(&p, &o, &c);
	cr_assert_eq(c.pairs, (int64_t)4096 * c.rounds);
	cr_assert_eq(c.all_pairs, (int64_t)8192 * 8191 / 2);
	cr_assert(c.min_partners >= 13, "%d", c.min_partners);
	cr_assert_float_eq(c.seconds, c.rounds * (0.4 + 3 + PROBE_PLAN_ROUND_OVERHEAD_S), 1e-9);
	probe_plan_release(&p);
	free(host);
}

Test(plan, small_host_counts_measure_every_host_pair)
{
	int *host = hosts_of(6, 2);
	struct probe_plan p;
	cr_assert_eq(probe_plan_build(&p, PROBE_PLAN_SCREEN, 12, 6, host), 0);
	cr_assert_eq(p.cross_rounds, 5);
	cr_assert_eq(probe_plan_kind(&p, 0), PROBE_ROUND_HOSTS);
	cr_assert_eq(probe_plan_kind(&p, 5), PROBE_ROUND_INTRA);
	struct probe_plan_cost c;
	struct probe_link_opts o = {.window = 1, .bw_bytes = 1};
	probe_plan_cost(&p, &o, &c);
	cr_assert_eq(c.host_pairs, 15);
	cr_assert(isnan(c.seconds), "no time budgets: no estimate");
	probe_plan_release(&p);
	free(host);
}

Test(plan, pairs_is_the_tournament)
{
	int *host = hosts_of(3, 3);
	struct probe_plan p;
	cr_assert_eq(probe_plan_build(&p, PROBE_PLAN_PAIRS, 9, 3, host), 0);
	cr_assert_eq(probe_plan_rounds(&p), 9);
	int *seen = check_matchings(&p);
	for (int a = 0; a < 9; a++)
		for (int b = a + 1; b < 9; b++)
			cr_assert_eq(seen[a * 9 + b], 1);
	free(seen);
	cr_assert_eq(probe_plan_add_followup(&p, (int[]){-1, -1, -1}), -1);
	probe_plan_release(&p);
	free(host);
}

Test(plan, follow_up_rounds_go_before_the_intra_host_ones)
{
	int *host = hosts_of(12, 2);
	struct probe_plan p, again;
	cr_assert_eq(probe_plan_build(&p, PROBE_PLAN_SCREEN, 24, 12, host), 0);
	cr_assert_eq(probe_plan_build(&again, PROBE_PLAN_SCREEN, 24, 12, host), 0);
	for (int r = 0; r < p.cross_rounds; r++)
		for (int h = 0; h < 12; h++)
			cr_assert_eq(p.host_partner[r * 12 + h], again.host_partner[r * 12 + h],
			             "the seed is fixed");
	int before = probe_plan_rounds(&p), cross = p.cross_rounds;
	int pairing[12] = {5, -1, -1, -1, -1, 0, -1, -1, -1, -1, -1, -1};
	cr_assert_eq(probe_plan_add_followup(&p, pairing), 0);
	cr_assert_eq(probe_plan_rounds(&p), before + 1);
	cr_assert_eq(probe_plan_kind(&p, cross), PROBE_ROUND_FOLLOWUP);
	cr_assert_eq(probe_plan_partner(&p, cross, 0), 5);
	cr_assert_eq(probe_plan_partner(&p, cross, 12), -1, "host 0's second rank waits");
	cr_assert_eq(probe_plan_kind(&p, cross + 1), PROBE_ROUND_INTRA);
	int lopsided[12] = {5, -1, -1, -1, -1, 1, -1, -1, -1, -1, -1, -1};
	cr_assert_eq(probe_plan_add_followup(&p, lopsided), -1);
	probe_plan_release(&p);
	probe_plan_release(&again);
	free(host);
}

/*
 * By rail: every cross-host round pairs each host's rank k with its partner's
 * rank k, all at once (a host of 3 ranks beside hosts of 4: its fourth rail
 * waits), still a matching; the host pairs and partners are the same.
 */
Test(plan, rails_pair_each_rank_with_its_partners_of_the_same_position)
{
	enum { H = 10, R = 4 };
	int host[H * R - 1];
	for (int r = 0; r < H * R - 1; r++)
		host[r] = r % H; /* host 9 has 3 ranks */
	struct probe_plan first, rails;
	cr_assert_eq(probe_plan_build(&first, PROBE_PLAN_SCREEN, H * R - 1, H, host), 0);
	cr_assert_eq(probe_plan_build(&rails, PROBE_PLAN_SCREEN, H * R - 1, H, host), 0);
	rails.rails = true;
	free(check_matchings(&rails));
	cr_assert_eq(probe_plan_rounds(&rails), probe_plan_rounds(&first));
	for (int r = 0; r < rails.cross_rounds; r++) {
		int64_t want = 0;
		for (int h = 0; h < H; h++) {
			int q = rails.host_partner[r * H + h];
			want += q > h ? (h == 9 || q == 9 ? R - 1 : R) : 0;
			int a = probe_plan_host_rank(&rails, h);
			cr_assert_eq(probe_plan_partner(&first, r, a), probe_plan_partner(&rails, r, a),
			             "the first ranks meet as before");
			for (int k = 0; k < rails.host_size[h]; k++) {
				int x = rails.by_host[rails.host_start[h] + k];
				int y = probe_plan_partner(&rails, r, x);
				if (q < 0 || k >= rails.host_size[q]) {
					cr_assert_eq(y, -1, "round %d: rank %d has no rail on host %d", r, x, q);
					continue;
				}
				cr_assert_eq(rails.host_of_rank[y], q);
				cr_assert_eq(rails.local[y], k, "rail %d meets rail %d", k, rails.local[y]);
				if (k > 0)
					cr_assert_eq(probe_plan_partner(&first, r, x), -1, "first ranks only");
			}
		}
		cr_assert_eq(probe_plan_round_pairs(&rails, r), want, "round %d", r);
		cr_assert_lt(probe_plan_round_pairs(&first, r), want);
	}
	for (int h = 0; h < H; h++)
		cr_assert_eq(probe_plan_host_partners(&rails, h), probe_plan_host_partners(&first, h));
	probe_plan_release(&first);
	probe_plan_release(&rails);
}

Test(plan, bad_arguments)
{
	struct probe_plan p;
	cr_assert_eq(probe_plan_build(&p, PROBE_PLAN_SCREEN, 2, 2, (int[]){0, 2}), -1);
	cr_assert_eq(probe_plan_build(&p, PROBE_PLAN_SCREEN, 2, 3, (int[]){0, 1}), -1);
	cr_assert_eq(probe_plan_build(&p, PROBE_PLAN_SCREEN, 3, 3, (int[]){0, 1, 1}), -1,
	             "host 2 has no rank");
	cr_assert_eq(probe_plan_build(&p, PROBE_PLAN_SCREEN, 1, 1, (int[]){0}), 0);
	cr_assert_eq(probe_plan_rounds(&p), 0);
	cr_assert_eq(probe_plan_partner(&p, 0, 0), -1);
	probe_plan_release(&p);
}

Test(plan, budget_scales_the_phases_down_never_up)
{
	struct probe_link_opts o = {.lat_time_s = 0.2, .bw_time_s = 1};
	cr_assert_eq(probe_plan_fit(10, 0, 1000, &o), 10);
	cr_assert_float_eq(o.bw_time_s, 1, 1e-12, "a loose budget changes nothing");
	cr_assert_eq(
	    probe_plan_fit(10, 2, 12 * (0.4 / 2 + 3 * 0.5 + PROBE_PLAN_ROUND_OVERHEAD_S), &o), 10);
	cr_assert_float_eq(o.bw_time_s, 0.5, 1e-9);
	cr_assert_float_eq(o.lat_time_s, 0.1, 1e-9);
	struct probe_link_opts tiny = {.lat_time_s = 0.2, .bw_time_s = 1};
	int fit = probe_plan_fit(1000, 0, 10, &tiny);
	cr_assert_float_eq(tiny.bw_time_s, PROBE_PLAN_MIN_PHASE_S, 1e-12);
	cr_assert(fit >= 1 && fit < 1000, "only some rounds fit: %d", fit);
	struct probe_link_opts counts = {0};
	probe_plan_fit(4, 0, 8, &counts);
	cr_assert(counts.bw_time_s > 0 && counts.lat_time_s > 0, "a budget bounds every phase");
}
