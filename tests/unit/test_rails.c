/* A slow rail, one NIC of a host with a NIC per rank: reports/diagnose/rails.c. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "reports/diagnose/classify.h"
#include "reports/diagnose/rails.h"

enum { H = 6, MAXR = 8 };

/* H hosts x nrails ranks, rank h * nrails + k at position k of host h. */
struct rails {
	int nrails;
	double cells[MAXR][H * H];
	int rank_at[H * MAXR];
};

/* rails_cells_fn: rail k of a struct rails. */
static int cells_of(void *arg, int rail, double *out)
{
	const struct rails *x = arg;
	for (int c = 0; c < H * H; c++)
		out[c] = x->cells[rail][c];
	return 0;
}

/* Every cell 1.0 give or take 3% (a fixed pattern), the diagonal not measured. */
static void rails_init(struct rails *x, int nrails)
{
	x->nrails = nrails;
	for (int k = 0; k < nrails; k++) {
		for (int c = 0; c < H * H; c++)
			x->cells[k][c] =
			    c / H == c % H ? NAN : 1.0 + 0.03 * (((c * 7 + k * 3) % 5) - 2) / 2;
	}
	for (int h = 0; h < H; h++)
		for (int k = 0; k < nrails; k++)
			x->rank_at[h * nrails + k] = h * nrails + k;
}

/* Host h's rail k sends (row) and/or receives (column) at factor f. */
static void slow_rail(struct rails *x, int h, int k, bool send, bool receive, double f)
{
	for (int o = 0; o < H; o++) {
		if (o == h)
			continue;
		if (send)
			x->cells[k][h * H + o] *= f;
		if (receive)
			x->cells[k][o * H + h] *= f;
	}
}

/* What links_judge has before rails_classify: the classifier on the median over the rails. */
static void judge_whole(const struct rails *x, const struct detect_params *p,
                        struct detect_result *r)
{
	double m[H * H], v[MAXR];
	for (int c = 0; c < H * H; c++) {
		for (int k = 0; k < x->nrails; k++)
			v[k] = x->cells[x->nrails > 0 ? k : 0][c];
		/* the median of nrails values, as links_host_matrix takes it */
		for (int i = 1; i < x->nrails; i++)
			for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
				double t = v[j];
				v[j] = v[j - 1];
				v[j - 1] = t;
			}
		int n = x->nrails;
		m[c] = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	detect_result_init(r);
	cr_assert_eq(classify_hosts(m, H, p, false, r, NULL), 0);
}

static int count_kind(const struct detect_result *r, enum detect_kind kind, bool rail)
{
	int n = 0;
	for (int i = 0; i < r->nsuspects; i++)
		n += r->suspects[i].kind == kind && r->suspects[i].rail == rail;
	return n;
}

/* One rail of two at half its rate to send: the whole host read 0.75x, now its NIC. */
Test(rails, one_of_two_rails_slow_names_the_rail_not_the_host)
{
	struct rails x;
	struct detect_params p;
	struct detect_result r;
	detect_params_default(&p);
	rails_init(&x, 2);
	slow_rail(&x, 3, 1, true, false, 0.5);
	judge_whole(&x, &p, &r);
	cr_assert_eq(count_kind(&r, DETECT_HOST, false), 1, "the median over 2 rails names host 3");
	cr_assert_eq(rails_classify(cells_of, &x, 2, H, x.rank_at, &p, &r), 1);
	cr_assert_eq(r.nsuspects, 1, "the host's verdict replaced");
	const struct detect_suspect *s = &r.suspects[0];
	cr_assert(s->kind == DETECT_HOST && s->host == 3 && s->rail && s->rail_rank == 3 * 2 + 1);
	cr_assert_eq(s->direction, DETECT_DIR_AB, "slow to send");
	cr_assert(s->ratio > 0.45 && s->ratio < 0.55, "its own rail's figure: %g", s->ratio);
	detect_result_release(&r);
}

/* One rail of eight: the median does not move; the rank's links were named one by one. */
Test(rails, one_of_eight_rails_slow_both_ways_replaces_its_rank_links)
{
	struct rails x;
	struct detect_params p;
	struct detect_result r;
	detect_params_default(&p);
	rails_init(&x, 8);
	slow_rail(&x, 0, 5, true, true, 0.3);
	judge_whole(&x, &p, &r);
	cr_assert_eq(r.nsuspects, 0, "the host's median is not moved");
	/* the detector's rank links of rank 5 to the others' rank 5 */
	struct detect_suspect links[2 * (H - 1)];
	for (int o = 1; o < H; o++)
		for (int w = 0; w < 2; w++)
			links[2 * (o - 1) + w] =
			    (struct detect_suspect){.kind = DETECT_LINK,
			                            .metric = DETECT_BANDWIDTH,
			                            .locality = DETECT_CROSS_HOST,
			                            .a = w ? o * 8 + 5 : 5,
			                            .b = w ? 5 : o * 8 + 5,
			                            .host = -1,
			                            .host_a = w ? o : 0,
			                            .host_b = w ? 0 : o};
	r.suspects = malloc(sizeof links);
	cr_assert_not_null(r.suspects);
	for (int i = 0; i < 2 * (H - 1); i++)
		r.suspects[i] = links[i];
	r.nsuspects = 2 * (H - 1);
	cr_assert_eq(rails_classify(cells_of, &x, 8, H, x.rank_at, &p, &r), 1);
	cr_assert_eq(r.nsuspects, 1, "its rank links dropped, %d left", r.nsuspects);
	cr_assert(r.suspects[0].host == 0 && r.suspects[0].rail_rank == 5);
	cr_assert_eq(r.suspects[0].direction, DETECT_DIR_BOTH);
	detect_result_release(&r);
}

/* A whole host slow: every rail names it; it stays a host. */
Test(rails, every_rail_slow_keeps_the_host)
{
	struct rails x;
	struct detect_params p;
	struct detect_result r;
	detect_params_default(&p);
	rails_init(&x, 4);
	for (int k = 0; k < 4; k++)
		slow_rail(&x, 2, k, false, true, 0.4);
	judge_whole(&x, &p, &r);
	cr_assert_eq(rails_classify(cells_of, &x, 4, H, x.rank_at, &p, &r), 0);
	cr_assert_eq(count_kind(&r, DETECT_HOST, false), 1);
	cr_assert_eq(count_kind(&r, DETECT_HOST, true), 0);
	cr_assert_eq(r.suspects[0].host, 2);
	detect_result_release(&r);
}

/*
 * A host 25% slow that noise lets one rail name and not the other: the other
 * rail is at 0.75x too, not within the tolerance, so the host stays a host.
 */
Test(rails, a_host_slow_on_every_rail_named_by_one_stays_a_host)
{
	struct rails x;
	struct detect_params p;
	struct detect_result r;
	detect_params_default(&p);
	rails_init(&x, 2);
	slow_rail(&x, 4, 0, true, false, 0.6);
	slow_rail(&x, 4, 1, true, false, 0.8);
	judge_whole(&x, &p, &r);
	int before = r.nsuspects;
	cr_assert_eq(rails_classify(cells_of, &x, 2, H, x.rank_at, &p, &r), 0);
	cr_assert_eq(r.nsuspects, before);
	cr_assert_eq(count_kind(&r, DETECT_HOST, true), 0);
	detect_result_release(&r);
}

/* Two slow rails of one host among four: both named, each with its rank. */
Test(rails, two_slow_rails_of_four)
{
	struct rails x;
	struct detect_params p;
	struct detect_result r;
	detect_params_default(&p);
	rails_init(&x, 4);
	slow_rail(&x, 1, 0, true, false, 0.4);
	slow_rail(&x, 1, 3, true, false, 0.4);
	judge_whole(&x, &p, &r);
	cr_assert_eq(rails_classify(cells_of, &x, 4, H, x.rank_at, &p, &r), 2);
	cr_assert_eq(count_kind(&r, DETECT_HOST, false), 0, "the host's own verdict dropped");
	cr_assert_eq(count_kind(&r, DETECT_HOST, true), 2);
	cr_assert(r.suspects[r.nsuspects - 2].rail_rank == 4 &&
	          r.suspects[r.nsuspects - 1].rail_rank == 7);
	detect_result_release(&r);
}

/* Nothing slow; one rail; a host without rank 1; bad arguments. */
Test(rails, clean_and_edges)
{
	struct rails x;
	struct detect_params p;
	struct detect_result r;
	detect_params_default(&p);
	rails_init(&x, 2);
	detect_result_init(&r);
	cr_assert_eq(rails_classify(cells_of, &x, 2, H, x.rank_at, &p, &r), 0);
	cr_assert_eq(r.nsuspects, 0);
	slow_rail(&x, 3, 1, true, false, 0.5);
	cr_assert_eq(rails_classify(cells_of, &x, 1, H, x.rank_at, &p, &r), 0,
	             "one rail: nothing to tell");
	x.rank_at[3 * 2 + 1] = -1; /* host 3 has no rank at position 1 */
	cr_assert_eq(rails_classify(cells_of, &x, 2, H, x.rank_at, &p, &r), 0);
	cr_assert_eq(rails_classify(NULL, &x, 2, H, x.rank_at, &p, &r), -1);
	detect_result_release(&r);
}

/* The re-test may narrow a host to one of its rails, or widen a rail to its host: both confirm. */
Test(rails, a_rail_confirms_its_host_and_no_other)
{
	struct detect_suspect host = {.kind = DETECT_HOST,
	                              .metric = DETECT_BANDWIDTH,
	                              .locality = DETECT_CROSS_HOST,
	                              .host = 1,
	                              .a = -1,
	                              .b = -1,
	                              .side = -1};
	struct detect_suspect first[] = {host}, second[] = {host, host, host};
	second[0].rail = second[1].rail = true;
	second[0].rail_rank = 5; /* a rail of host 1 */
	second[1].host = 2;      /* a rail of another host */
	second[1].rail_rank = 6;
	struct detect_result f = {.nsuspects = 1, .suspects = first, .nhosts = H};
	struct detect_result s = {.nsuspects = 3, .suspects = second, .nhosts = H};
	cr_assert_eq(detect_confirm(&s, &f, NULL), 2);
	cr_assert(second[0].confirmed && !second[1].confirmed && second[2].confirmed);
	/* the rail first, the host again: confirmed; another rail of it not */
	first[0].rail = true;
	first[0].rail_rank = 5;
	second[1] = host;
	second[1].rail = true;
	second[1].rail_rank = 7;
	cr_assert_eq(detect_confirm(&s, &f, NULL), 2);
	cr_assert(second[0].confirmed && !second[1].confirmed && second[2].confirmed);
}
