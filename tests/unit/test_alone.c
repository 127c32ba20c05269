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

/* The isolated pairs' matrix: every cell 1.0 but 2 -> 0 at 0.6. */
static void pairs_matrix(double *m)
{
	for (int i = 0; i < H * H; i++)
		m[i] = i / H == i % H ? NAN : 1.0;
	m[2 * H + 0] = 0.6;
}

/* The campaign's case: h4 -> h0 named by the shift at 0.84x, its pair alone at 0.94-1.00x. */
Test(alone, a_shift_link_fine_alone_is_cleared_one_slow_alone_stays)
{
	double m[H * H];
	pairs_matrix(m);
	m[3 * H + 0] = 0.94;
	struct detect_suspect v[] = {shift_link(3, 0, DETECT_DIR_AB), shift_link(0, 2, DETECT_DIR_BA),
	                             shift_link(1, 3, DETECT_DIR_BOTH)};
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
	struct detect_suspect v[] = {shift_link(3, 0, DETECT_DIR_AB), shift_link(3, 0, DETECT_DIR_AB),
	                             shift_link(3, 0, DETECT_DIR_AB), shift_link(1, 0, DETECT_DIR_AB)};
	v[0].loaded = false; /* the isolated pairs' own verdict */
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
