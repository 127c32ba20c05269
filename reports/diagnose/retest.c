/* See retest.h. No MPI, no I/O. */
#include "reports/diagnose/retest.h"
#include "reports/stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The suspect as the next round matches it: the first pass's figures, not yet confirmed. */
static struct detect_suspect standing(const struct detect_suspect *s)
{
	struct detect_suspect k = *s;
	if (isfinite(s->first_measured)) {
		k.measured = s->first_measured;
		k.ratio = s->first_ratio;
		k.score = s->first_score;
	}
	k.confirmed = false;
	return k;
}

/* Was f, a suspect of before, found again by a confirmed suspect of now? */
static bool found_again(const struct detect_result *now, const struct detect_result *before,
                        const struct detect_suspect *f)
{
	for (int i = 0; i < now->nsuspects; i++)
		if (now->suspects[i].confirmed &&
		    detect_accused_before(now, &now->suspects[i], before) == f)
			return true;
	return false;
}

/* Appends s to out; a segment with its sides row from r (out->sides has room). */
static void keep(struct detect_result *out, const struct detect_result *r,
                 const struct detect_suspect *s)
{
	struct detect_suspect k = standing(s);
	const signed char *sides = k.kind == DETECT_SEGMENT ? detect_sides(r, s) : NULL;
	if (sides) {
		memcpy(out->sides + (size_t)out->nsides * (size_t)out->nhosts, sides,
		       (size_t)out->nhosts);
		k.side = out->nsides++;
	}
	out->suspects[out->nsuspects++] = k;
}

int retest_keep_standing(const struct detect_result *now, const struct detect_result *before,
                         int max_misses, struct detect_result *out)
{
	int nb = before ? before->nsuspects : 0;
	size_t rows = (size_t)now->nsuspects + (size_t)nb + 1;

	detect_result_init(out);
	memcpy(out->classes, now->classes, sizeof out->classes);
	out->nhosts = now->nhosts;
	out->suspects = malloc(rows * sizeof *out->suspects);
	out->sides = now->nhosts > 0 ? malloc(rows * (size_t)now->nhosts) : NULL;
	if (!out->suspects || (now->nhosts > 0 && !out->sides)) {
		detect_result_release(out);
		return -1;
	}
	for (int i = 0; i < now->nsuspects; i++)
		if (now->suspects[i].confirmed)
			keep(out, now, &now->suspects[i]);
	for (int i = 0; i < nb; i++) {
		const struct detect_suspect *f = &before->suspects[i];
		if (f->retest_misses < max_misses && !found_again(now, before, f)) {
			keep(out, before, f);
			out->suspects[out->nsuspects - 1].retest_misses++;
		}
	}
	return out->nsuspects;
}

/* A re-test round's list being built (retest_plan). */
struct plan {
	const struct detect_link *links;
	size_t n;
	int nranks;
	struct pair_set *pairs;
	struct retest_pair *list;
	int count, steps;
	bool *busy; /* nhosts: a host already in the step being filled */
	int nhosts;
	bool failed; /* out of memory */
};


/* Can k join the step being filled (a pair not yet listed, its hosts free)? */
static bool fits(const struct plan *p, const struct detect_link *k, enum detect_locality loc)
{
	return k->a < k->b && k->b < p->nranks && detect_link_usable(k, loc) &&
	       k->host_a >= 0 && k->host_a < p->nhosts && k->host_b >= 0 &&
	       k->host_b < p->nhosts && k->host_a != k->host_b && !p->busy[k->host_a] &&
	       !p->busy[k->host_b] && !pair_set_has(p->pairs, k->a, k->b);
}

static void take(struct plan *p, const struct detect_link *k, int suspect, int across)
{
	if (pair_set_add(p->pairs, k->a, k->b) < 0) {
		p->failed = true;
		return;
	}
	p->busy[k->host_a] = p->busy[k->host_b] = true;
	p->list[p->count++] = (struct retest_pair){
	    .a = k->a, .b = k->b, .step = p->steps, .suspect = suspect, .across = across};
}

/* Ends the step being filled from pairs from on: counts it when it has any. */
static int close_step(struct plan *p, int from)
{
	memset(p->busy, 0, (size_t)p->nhosts * sizeof *p->busy);
	p->steps += p->count > from;
	return p->count - from;
}

/* A segment's pairs across its cut, at once: at most want (0: all that fit); the number taken. */
static int across(struct plan *p, const struct detect_suspect *s, int index,
                  const signed char *sides, int want)
{
	int from = p->count;
	for (size_t j = 0; !p->failed && j < p->n && (want == 0 || p->count - from < want); j++) {
		const struct detect_link *k = &p->links[j];
		if (fits(p, k, s->locality) &&
		    detect_sides_cross(sides, p->nhosts, k->host_a, k->host_b))
			take(p, k, index, 1);
	}
	return close_step(p, from);
}

/* Then want pairs within its sides, at once: half on each side, the rest from either. */
static void within(struct plan *p, const struct detect_suspect *s, int index,
                   const signed char *sides, int want)
{
	int from = p->count, quota[2] = {want - want / 2, want / 2};
	for (int pass = 0; pass < 2; pass++)
		for (size_t j = 0; !p->failed && j < p->n && p->count - from < want; j++) {
			const struct detect_link *k = &p->links[j];
			int side = fits(p, k, s->locality) ? sides[k->host_a] : -1;
			if (side < 0 || sides[k->host_b] != side || (pass == 0 && quota[side] == 0))
				continue;
			quota[side] -= pass == 0;
			take(p, k, index, 0);
		}
	close_step(p, from);
}

/* Is s a host or a link that retest_judge_alone judges on its pairs alone? */
static bool judged_alone(const struct detect_suspect *s)
{
	return (s->kind == DETECT_HOST || s->kind == DETECT_LINK) && !s->rail && !s->loaded &&
	       s->metric == DETECT_BANDWIDTH && s->locality == DETECT_CROSS_HOST;
}

/*
 * Marks in touched (nhosts) the hosts of r's host and link suspects; false when
 * none of them is judged alone (no controls wanted).
 */
static bool suspect_hosts(const struct detect_result *r, bool *touched)
{
	bool any = false;
	for (int i = 0; i < r->nsuspects; i++) {
		const struct detect_suspect *s = &r->suspects[i];
		int h[3] = {s->host, s->host_a, s->host_b};
		if (s->kind == DETECT_SEGMENT)
			continue;
		any |= judged_alone(s);
		for (int j = 0; j < 3; j++)
			if (h[j] >= 0 && h[j] < r->nhosts)
				touched[h[j]] = true;
	}
	return any;
}

/*
 * The controls, one a step: pairs between hosts none of r's host or link
 * suspects touches, each time the pair whose hosts are in the fewest controls
 * so far (the first in links' order on a tie).
 */
static void controls(struct plan *p, const struct detect_result *r)
{
	bool *touched = calloc((size_t)p->nhosts + 1, sizeof *touched);
	int *used = calloc((size_t)p->nhosts + 1, sizeof *used);
	if (!touched || !used)
		p->failed = true;
	else if (suspect_hosts(r, touched))
		for (int c = 0; c < RETEST_CONTROL_PAIRS; c++) {
			const struct detect_link *best = NULL;
			for (size_t j = 0; j < p->n; j++) {
				const struct detect_link *k = &p->links[j];
				if (fits(p, k, DETECT_CROSS_HOST) && !touched[k->host_a] &&
				    !touched[k->host_b] &&
				    (!best || used[k->host_a] + used[k->host_b] <
				                  used[best->host_a] + used[best->host_b]))
					best = k;
			}
			if (!best)
				break;
			used[best->host_a]++;
			used[best->host_b]++;
			int from = p->count;
			take(p, best, RETEST_CONTROL, 0);
			close_step(p, from);
		}
	free(touched);
	free(used);
}

int retest_plan(const struct detect_result *r, const struct detect_link *links, size_t n,
                int nranks, int max_per_suspect, struct pair_set *pairs, struct retest_pair **out)
{
	*out = NULL;
	int alone = detect_remeasure_pairs(r, links, n, nranks, max_per_suspect, pairs);
	if (alone < 0)
		return -1;
	size_t segments = 0;
	for (int i = 0; i < r->nsuspects; i++)
		segments += r->suspects[i].kind == DETECT_SEGMENT;
	/* a step has at most nhosts / 2 pairs, a segment two steps */
	size_t cap = (size_t)alone + segments * ((size_t)r->nhosts + 1) + RETEST_CONTROL_PAIRS + 1;
	struct plan p = {.links = links, .n = n, .nranks = nranks, .pairs = pairs,
	                 .nhosts = r->nhosts};
	p.list = malloc(cap * sizeof *p.list);
	p.busy = calloc((size_t)r->nhosts + 1, sizeof *p.busy);
	int(*held)[2] = malloc((pairs->count + 1) * sizeof *held);
	if (!p.list || !p.busy || !held) {
		free(p.list);
		free(p.busy);
		free(held);
		return -1;
	}
	/* the pairs alone, one a step, in rank order (the set held only these so far) */
	size_t nheld = pair_set_sorted(pairs, held);
	for (size_t i = 0; i < nheld && p.count < alone; i++)
		p.list[p.count++] = (struct retest_pair){
		    .a = held[i][0], .b = held[i][1], .step = p.steps++, .suspect = -1};
	free(held);
	for (int i = 0; !p.failed && i < r->nsuspects; i++) {
		const struct detect_suspect *s = &r->suspects[i];
		const signed char *sides = s->kind == DETECT_SEGMENT ? detect_sides(r, s) : NULL;
		int crossing = sides ? across(&p, s, i, sides, max_per_suspect) : 0;
		if (crossing > 0)
			within(&p, s, i, sides, crossing);
	}
	if (!p.failed && alone > 0)
		controls(&p, r);
	free(p.busy);
	if (p.count == 0 || p.failed) {
		free(p.list);
		return p.failed ? -1 : 0;
	}
	*out = p.list;
	return p.count;
}

/* The link a -> b among links, or NULL. */
static const struct detect_link *link_of(const struct detect_link *links, size_t n, int a, int b)
{
	for (size_t j = 0; j < n; j++)
		if (links[j].a == a && links[j].b == b)
			return &links[j];
	return NULL;
}

/* What a segment's two steps measured, and whether it holds. */
struct segment_test {
	double across, within, score; /* medians in GB/s; z of across among within */
	int cells;                    /* across */
	bool holds;
};

/*
 * Segment f's cells from its steps into x (across, in its direction) and w
 * (within, both directions); each has room for 2 x count.
 */
static void cells_of(const struct retest_pair *pairs, int count, int index,
                     const struct detect_suspect *f, const signed char *sides,
                     const struct detect_link *links, size_t n, double *x, size_t *nx, double *w,
                     size_t *nw)
{
	*nx = *nw = 0;
	for (int i = 0; i < count; i++) {
		if (pairs[i].suspect != index)
			continue;
		for (int d = 0; d < 2; d++) {
			int from = d ? pairs[i].b : pairs[i].a, to = d ? pairs[i].a : pairs[i].b;
			const struct detect_link *k = link_of(links, n, from, to);
			if (!k || !detect_link_usable(k, f->locality) || !(k->value > 0))
				continue;
			double v = k->value;
			/* a -> b of a segment is side 0 to side 1 */
			bool wanted = f->direction == DETECT_DIR_BOTH ||
			              (f->direction == DETECT_DIR_AB) == (sides[k->host_a] == 0);
			if (!pairs[i].across)
				w[(*nw)++] = v;
			else if (wanted)
				x[(*nx)++] = v;
		}
	}
}

/* False when a step has no value (not measured: the budget); else the test in *t. */
static bool test_segment(double *x, size_t nx, double *w, size_t nw,
                         const struct detect_params *p, struct segment_test *t)
{
	if (nx == 0 || nw == 0)
		return false;
	double top = x[0];
	for (size_t i = 0; i < nx; i++)
		top = x[i] > top ? x[i] : top;
	t->across = stats_median(x, nx);
	t->within = stats_median(w, nw);
	t->cells = (int)nx;
	t->holds = top < t->within && t->across <= (1 - p->tolerance) * t->within;
	for (size_t i = 0; i < nw; i++)
		w[i] = log(w[i]);
	double mad = stats_mad(w, nw), floor = log1p(p->mad_floor_fraction);
	t->score = STATS_MAD_TO_Z * (log(t->across) - log(t->within)) / (mad > floor ? mad : floor);
	return isfinite(t->across) && isfinite(t->within);
}

/* Is s of now a reading of segment f: the segment itself, or (when it holds) a link across it? */
static bool reading_of(const struct detect_result *now, const struct detect_suspect *s,
                       const struct detect_result *accused, const struct detect_suspect *f,
                       const signed char *sides, bool holds)
{
	if (s->metric != f->metric || s->locality != f->locality || s->loaded != f->loaded)
		return false;
	if (s->kind == DETECT_SEGMENT)
		return detect_same_segment(now, s, accused, f);
	return holds && s->kind == DETECT_LINK &&
	       detect_sides_cross(sides, accused->nhosts, s->host_a, s->host_b);
}

/*
 * Appends k to now as this round's own reading: not confirmed yet (detect_confirm
 * does that), with no first pass's figures, misses or clearings' figures. -1
 * when out of memory.
 */
static int put_fresh(struct detect_result *now, struct detect_suspect k)
{
	struct detect_suspect *s = realloc(now->suspects, (size_t)(now->nsuspects + 1) * sizeof *s);
	if (!s)
		return -1;
	now->suspects = s;
	k.confirmed = false;
	k.first_measured = k.first_ratio = k.first_score = NAN;
	k.retest_misses = 0;
	k.cpu_wait_fraction = k.other_traffic_gbps = k.other_traffic_most_gbps = NAN;
	now->suspects[now->nsuspects++] = k;
	return 0;
}

/* Appends f with the test's figures to now; -1 when out of memory. */
static int put_segment(struct detect_result *now, const struct detect_suspect *f,
                       const signed char *sides, const struct segment_test *t)
{
	size_t nh = (size_t)now->nhosts;
	signed char *rows = realloc(now->sides, (size_t)(now->nsides + 1) * nh);
	if (!rows)
		return -1;
	now->sides = rows;
	memcpy(rows + (size_t)now->nsides * nh, sides, nh);
	struct detect_suspect k = *f;
	k.side = now->nsides++;
	k.measured = t->across;
	k.expected = t->within;
	k.ratio = t->across / t->within;
	k.score = t->score;
	k.links_suspect = k.links_total = t->cells;
	return put_fresh(now, k);
}

int retest_judge_segments(struct detect_result *now, const struct detect_result *accused,
                          const struct retest_pair *pairs, int count,
                          const struct detect_link *links, size_t n,
                          const struct detect_params *p)
{
	double *x = malloc(((size_t)count * 2 + 1) * sizeof *x);
	double *w = malloc(((size_t)count * 2 + 1) * sizeof *w);
	int rc = x && w ? 0 : -1;
	for (int i = 0; rc == 0 && i < accused->nsuspects; i++) {
		const struct detect_suspect *f = &accused->suspects[i];
		const signed char *sides = f->kind == DETECT_SEGMENT ? detect_sides(accused, f) : NULL;
		size_t nx, nw;
		struct segment_test t;
		if (!sides || now->nhosts != accused->nhosts)
			continue; /* not a segment, or of another matrix: no sides to compare */
		cells_of(pairs, count, i, f, sides, links, n, x, &nx, w, &nw);
		if (!test_segment(x, nx, w, nw, p, &t))
			continue;
		/* the shift's segment: these steps may only clear it, its own reading decides */
		if (f->loaded && t.holds)
			continue;
		int kept = 0;
		for (int j = 0; j < now->nsuspects; j++)
			if (!reading_of(now, &now->suspects[j], accused, f, sides, t.holds))
				now->suspects[kept++] = now->suspects[j];
		now->nsuspects = kept;
		if (t.holds)
			rc = put_segment(now, f, sides, &t);
	}
	free(x);
	free(w);
	return rc;
}

/*
 * The cells of this round's pairs into x: the controls' (f NULL) or f's
 * measured alone (suspect -1), both ways of each pair; their count.
 */
static size_t alone_cells(const struct retest_pair *pairs, int count,
                          const struct detect_link *links, size_t n,
                          const struct detect_suspect *f, double *x)
{
	size_t nx = 0;
	for (int i = 0; i < count; i++) {
		if (pairs[i].suspect != (f ? -1 : RETEST_CONTROL))
			continue;
		for (int d = 0; d < 2; d++) {
			const struct detect_link *k =
			    link_of(links, n, d ? pairs[i].b : pairs[i].a, d ? pairs[i].a : pairs[i].b);
			if (k && detect_link_usable(k, DETECT_CROSS_HOST) && k->value > 0 &&
			    (!f || detect_link_in_way(f, k)))
				x[nx++] = k->value;
		}
	}
	return nx;
}

/* The test of retest_judge_alone on f's cells x against the controls' logs; true: holds. */
static bool test_alone(const double *x, size_t nx, double reference, double log_mad,
                       const struct detect_params *p, struct detect_suspect *k)
{
	k->measured = stats_median(x, nx);
	k->expected = reference;
	k->ratio = k->measured / reference;
	/* for the reader: the median of k cells gains sqrt(2k / pi), one cell none */
	double gain = nx > 1 ? sqrt(2.0 * (double)nx / M_PI) : 1;
	k->score = STATS_MAD_TO_Z * log(k->ratio) / log_mad * gain;
	int slow = 0;
	bool top_under = true;
	for (size_t i = 0; i < nx; i++) {
		slow += x[i] <= (1 - p->tolerance) * reference;
		top_under = top_under && x[i] < reference;
	}
	k->links_suspect = slow;
	k->links_total = (int)nx;
	return isfinite(k->ratio) && k->ratio <= 1 - p->tolerance && top_under;
}

/*
 * A suspect named both ways whose cells alone do not hold together: each way
 * on its own, and the one that holds alone (not both) into *k, narrowed to it.
 * Seed 3's draw 87 (2026-12-07, 46ad59f, no load): h5, 35% slow to receive,
 * named slow both ways at 0.87x by the first pass, read its 4 cells in alone
 * at 0.0231-0.0234 GB/s and its cells out at 0.0278-0.0358, and was cleared:
 * it is slow to receive. x has room for the cells.
 */
static bool one_way_alone(const struct retest_pair *pairs, int count,
                          const struct detect_link *links, size_t n, double reference,
                          double log_mad, const struct detect_params *p,
                          struct detect_suspect *k, double *x)
{
	struct detect_suspect way[2] = {*k, *k};
	bool holds[2];
	for (int d = 0; d < 2; d++) {
		way[d].direction = d ? DETECT_DIR_BA : DETECT_DIR_AB;
		size_t nx = alone_cells(pairs, count, links, n, &way[d], x);
		holds[d] = nx > 0 && test_alone(x, nx, reference, log_mad, p, &way[d]);
	}
	if (holds[0] == holds[1])
		return false;
	*k = way[holds[0] ? 0 : 1];
	return true;
}

int retest_judge_alone(struct detect_result *now, const struct detect_result *accused,
                       const struct retest_pair *pairs, int count,
                       const struct detect_link *links, size_t n, const struct detect_params *p)
{
	double *x = malloc(((size_t)count * 2 + 1) * sizeof *x);
	double *c = malloc(((size_t)count * 2 + 1) * sizeof *c);
	int rc = x && c ? 0 : -1;
	size_t nc = rc == 0 ? alone_cells(pairs, count, links, n, NULL, c) : 0;
	double reference = nc >= 2 ? stats_median(c, nc) : NAN;
	for (size_t i = 0; i < nc; i++)
		c[i] = log(c[i]);
	double mad = nc >= 2 ? stats_mad(c, nc) : NAN, floor = log1p(p->mad_floor_fraction);
	double log_mad = mad > floor ? mad : floor;
	for (int i = 0; rc == 0 && isfinite(reference) && i < accused->nsuspects; i++) {
		const struct detect_suspect *f = &accused->suspects[i];
		size_t nx = judged_alone(f) ? alone_cells(pairs, count, links, n, f, x) : 0;
		if (nx == 0)
			continue;
		struct detect_suspect k = *f;
		bool holds = test_alone(x, nx, reference, log_mad, p, &k);
		if (!holds && f->direction == DETECT_DIR_BOTH)
			holds = one_way_alone(pairs, count, links, n, reference, log_mad, p, &k, x);
		int kept = 0;
		for (int j = 0; j < now->nsuspects; j++) {
			const struct detect_suspect *s = &now->suspects[j];
			if (s->kind != f->kind || detect_accused_before(now, s, accused) != f)
				now->suspects[kept++] = *s;
		}
		now->nsuspects = kept;
		if (holds)
			rc = put_fresh(now, k);
	}
	free(x);
	free(c);
	return rc;
}
