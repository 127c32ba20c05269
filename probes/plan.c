/*
 * The pairs of every round (see plan.h). Host rounds are rows of
 * host_partner; the pairs pattern and the intra-host rounds are computed
 * from tournament.h when asked, so a plan for 8,192 ranks holds a few rows
 * of host partners, not N^2 pairs.
 *
 * Trace, 6 hosts, one rank each: the host tournament (5 rounds) is not
 * longer than doubling (3) plus 2 random matchings, so it is used. 24 hosts:
 * doubling rounds 0-4 (k = 4 pairs 0-16 .. 7-23; hosts 8-15 have no
 * h XOR 16 and are paired among themselves: 8-9, 10-11, ...), then 2 random
 * matchings: 7 rounds against 23 for all pairs.
 */
#include "probes/plan.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/tournament.h"

void probe_plan_release(struct probe_plan *p)
{
	free(p->host_of_rank);
	free(p->local);
	free(p->host_size);
	free(p->host_start);
	free(p->by_host);
	free(p->host_partner);
	free(p->kind);
	memset(p, 0, sizeof *p);
}

/* splitmix64: a fixed seed gives the same matchings on every machine */
static uint64_t next_random(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int *row(const struct probe_plan *p, int r)
{
	return p->host_partner + (size_t)r * (size_t)p->nhosts;
}

static bool met(const struct probe_plan *p, int a, int b)
{
	for (int r = 0; r < p->cross_rounds; r++)
		if (row(p, r)[a] == b)
			return true;
	return false;
}

/* A new row of host partners, all -1; NULL when out of room. */
static int *new_row(struct probe_plan *p, enum probe_round_kind k)
{
	if (p->cross_rounds >= p->cap) {
		int cap = p->cap * 2 + 8;
		int *hp = realloc(p->host_partner, (size_t)cap * (size_t)p->nhosts * sizeof *hp);
		if (!hp)
			return NULL;
		p->host_partner = hp;
		enum probe_round_kind *kind = realloc(p->kind, (size_t)cap * sizeof *kind);
		if (!kind)
			return NULL;
		p->kind = kind;
		p->cap = cap;
	}
	int *out = row(p, p->cross_rounds);
	for (int h = 0; h < p->nhosts; h++)
		out[h] = -1;
	p->kind[p->cross_rounds] = k;
	return out;
}

/* Hosts left without a partner in out are paired among themselves, new partners first. */
static void fill(const struct probe_plan *p, int *out)
{
	for (int pass = 0; pass < 2; pass++)
		for (int a = 0; a < p->nhosts; a++)
			for (int b = a + 1; out[a] < 0 && b < p->nhosts; b++)
				if (out[b] < 0 && (pass == 1 || !met(p, a, b))) {
					out[a] = b;
					out[b] = a;
				}
}

static int doubling(struct probe_plan *p)
{
	for (int bit = 1; bit < p->nhosts; bit <<= 1) {
		int *out = new_row(p, PROBE_ROUND_DOUBLING);
		if (!out)
			return -1;
		for (int h = 0; h < p->nhosts; h++)
			out[h] = (h ^ bit) < p->nhosts ? h ^ bit : -1;
		fill(p, out);
		p->cross_rounds++;
	}
	return 0;
}

/* How many consecutive pairs of the shuffled order have met already. */
static int repeats(const struct probe_plan *p, const int *order)
{
	int k = 0;
	for (int i = 0; i + 1 < p->nhosts; i += 2)
		k += met(p, order[i], order[i + 1]);
	return k;
}

static int random_matchings(struct probe_plan *p, uint64_t *seed, int *order, int *best)
{
	for (int m = 0; m < PROBE_PLAN_MATCHINGS; m++) {
		int fewest = -1;
		for (int attempt = 0; attempt < 16 && fewest != 0; attempt++) {
			for (int h = 0; h < p->nhosts; h++)
				order[h] = h;
			for (int i = p->nhosts - 1; i > 0; i--) { /* Fisher-Yates */
				int j = (int)(next_random(seed) % (uint64_t)(i + 1)), t = order[i];
				order[i] = order[j];
				order[j] = t;
			}
			int k = repeats(p, order);
			if (fewest < 0 || k < fewest) {
				fewest = k;
				memcpy(best, order, (size_t)p->nhosts * sizeof *best);
			}
		}
		int *out = new_row(p, PROBE_ROUND_RANDOM);
		if (!out)
			return -1;
		for (int i = 0; i + 1 < p->nhosts; i += 2) {
			out[best[i]] = best[i + 1];
			out[best[i + 1]] = best[i];
		}
		p->cross_rounds++;
	}
	return 0;
}

static int host_tournament(struct probe_plan *p)
{
	for (int r = 0; r < probe_tournament_rounds(p->nhosts); r++) {
		int *out = new_row(p, PROBE_ROUND_HOSTS);
		if (!out)
			return -1;
		for (int h = 0; h < p->nhosts; h++)
			out[h] = probe_tournament_partner(p->nhosts, r, h);
		p->cross_rounds++;
	}
	return 0;
}

static int screen(struct probe_plan *p)
{
	int bits = 0;
	while ((1 << bits) < p->nhosts)
		bits++;
	if (probe_tournament_rounds(p->nhosts) <= bits + PROBE_PLAN_MATCHINGS)
		return host_tournament(p);
	uint64_t seed = PROBE_PLAN_SEED;
	int *order = malloc((size_t)p->nhosts * sizeof *order);
	int *best = calloc((size_t)p->nhosts, sizeof *best);
	int rc = order && best && doubling(p) == 0 ? random_matchings(p, &seed, order, best) : -1;
	free(order);
	free(best);
	return rc;
}

/* Who is where: host sizes, each rank's place on its host, the ranks by host. */
static int place(struct probe_plan *p, const int *host_of_rank)
{
	const int n = p->nranks, nh = p->nhosts;
	p->host_of_rank = malloc((size_t)n * sizeof *p->host_of_rank);
	p->local = malloc((size_t)n * sizeof *p->local);
	p->host_size = calloc((size_t)nh, sizeof *p->host_size);
	p->host_start = calloc((size_t)nh + 1, sizeof *p->host_start);
	p->by_host = malloc((size_t)n * sizeof *p->by_host);
	if (!p->host_of_rank || !p->local || !p->host_size || !p->host_start || !p->by_host)
		return -1;
	for (int r = 0; r < n; r++) {
		int h = host_of_rank[r];
		if (h < 0 || h >= nh)
			return -1;
		p->host_of_rank[r] = h;
		p->local[r] = p->host_size[h]++;
	}
	for (int h = 0; h < nh; h++) {
		if (p->host_size[h] == 0)
			return -1;
		p->host_start[h + 1] = p->host_start[h] + p->host_size[h];
		if (p->host_size[h] > p->max_host_ranks)
			p->max_host_ranks = p->host_size[h];
	}
	for (int r = 0; r < n; r++)
		p->by_host[p->host_start[host_of_rank[r]] + p->local[r]] = r;
	return 0;
}

int probe_plan_build(struct probe_plan *p, enum probe_plan_pattern pattern, int nranks, int nhosts,
                     const int *host_of_rank)
{
	memset(p, 0, sizeof *p);
	p->pattern = pattern;
	p->nranks = nranks;
	p->nhosts = nhosts;
	if (nranks < 1 || nhosts < 1 || nhosts > nranks || !host_of_rank ||
	    (pattern != PROBE_PLAN_PAIRS && pattern != PROBE_PLAN_SCREEN) ||
	    place(p, host_of_rank) != 0) {
		probe_plan_release(p);
		return -1;
	}
	if (pattern == PROBE_PLAN_SCREEN) {
		if (nhosts > 1 && screen(p) != 0) {
			probe_plan_release(p);
			return -1;
		}
		p->screen_rounds = p->cross_rounds;
		p->intra_rounds = probe_tournament_rounds(p->max_host_ranks);
	}
	return 0;
}

int probe_plan_rounds(const struct probe_plan *p)
{
	if (p->pattern == PROBE_PLAN_PAIRS)
		return probe_tournament_rounds(p->nranks);
	return p->cross_rounds + p->intra_rounds;
}

enum probe_round_kind probe_plan_kind(const struct probe_plan *p, int round)
{
	if (p->pattern == PROBE_PLAN_PAIRS)
		return PROBE_ROUND_PAIRS;
	return round < p->cross_rounds ? p->kind[round] : PROBE_ROUND_INTRA;
}

const char *probe_round_kind_name(enum probe_round_kind k)
{
	static const char *const names[PROBE_ROUND_KINDS] = {"pairs",  "hosts",     "doubling",
	                                                     "random", "follow-up", "intra-host"};
	return k >= 0 && k < PROBE_ROUND_KINDS ? names[k] : "?";
}

int probe_plan_host_rank(const struct probe_plan *p, int h)
{
	return h >= 0 && h < p->nhosts ? p->by_host[p->host_start[h]] : -1;
}

int probe_plan_partner(const struct probe_plan *p, int round, int rank)
{
	if (round < 0 || round >= probe_plan_rounds(p) || rank < 0 || rank >= p->nranks)
		return -1;
	if (p->pattern == PROBE_PLAN_PAIRS)
		return probe_tournament_partner(p->nranks, round, rank);
	int h = p->host_of_rank[rank];
	if (round < p->cross_rounds) {
		int q = row(p, round)[h], k = p->local[rank];
		if (q < 0 || k >= (p->rails ? p->host_size[q] : 1))
			return -1;
		return p->by_host[p->host_start[q] + k]; /* rank k of q: its rail, or its first */
	}
	int mate =
	    probe_tournament_partner(p->host_size[h], round - p->cross_rounds, p->local[rank]);
	return mate >= 0 ? p->by_host[p->host_start[h] + mate] : -1;
}

int probe_plan_add_followup(struct probe_plan *p, const int *host_partner)
{
	if (p->pattern != PROBE_PLAN_SCREEN)
		return -1;
	for (int h = 0; h < p->nhosts; h++) {
		int q = host_partner[h];
		if (q >= p->nhosts || q == h || (q >= 0 && host_partner[q] != h))
			return -1;
	}
	int *out = new_row(p, PROBE_ROUND_FOLLOWUP);
	if (!out)
		return -1;
	memcpy(out, host_partner, (size_t)p->nhosts * sizeof *out);
	p->cross_rounds++;
	return 0;
}

int64_t probe_plan_round_pairs(const struct probe_plan *p, int round)
{
	if (round < 0 || round >= probe_plan_rounds(p))
		return 0;
	if (p->pattern == PROBE_PLAN_PAIRS)
		return probe_tournament_pairs_per_round(p->nranks);
	int64_t k = 0;
	if (round < p->cross_rounds) {
		for (int h = 0; h < p->nhosts; h++) {
			int q = row(p, round)[h];
			if (q > h)
				k += !p->rails ? 1
				     : p->host_size[h] < p->host_size[q] ? p->host_size[h]
				                                         : p->host_size[q];
		}
		return k;
	}
	for (int h = 0; h < p->nhosts; h++)
		if (round - p->cross_rounds < probe_tournament_rounds(p->host_size[h]))
			k += probe_tournament_pairs_per_round(p->host_size[h]);
	return k;
}

int probe_plan_host_partners(const struct probe_plan *p, int h)
{
	int k = 0;
	for (int r = 0; r < p->cross_rounds; r++) {
		int q = row(p, r)[h];
		bool before = false;
		for (int s = 0; q >= 0 && s < r && !before; s++)
			before = row(p, s)[h] == q;
		k += q >= 0 && !before;
	}
	return k;
}

double probe_plan_round_seconds(const struct probe_link_opts *o)
{
	if (!(o->lat_time_s > 0) || !(o->bw_time_s > 0))
		return NAN;
	return 2 * o->lat_time_s + 3 * o->bw_time_s + PROBE_PLAN_ROUND_OVERHEAD_S;
}

static int64_t host_pairs(const struct probe_plan *p)
{
	if (p->pattern == PROBE_PLAN_PAIRS)
		return (int64_t)p->nhosts * (p->nhosts - 1) / 2;
	int64_t k = 0;
	for (int h = 0; h < p->nhosts; h++)
		k += probe_plan_host_partners(p, h);
	return k / 2;
}

void probe_plan_cost(const struct probe_plan *p, const struct probe_link_opts *o,
                     struct probe_plan_cost *out)
{
	*out = (struct probe_plan_cost){.rounds = probe_plan_rounds(p)};
	out->all_pairs = (int64_t)p->nranks * (p->nranks - 1) / 2;
	for (int r = 0; r < out->rounds; r++)
		out->pairs += probe_plan_round_pairs(p, r);
	out->host_pairs = host_pairs(p);
	out->min_partners = p->nhosts > 1 ? p->nhosts - 1 : 0;
	for (int h = 0; p->pattern == PROBE_PLAN_SCREEN && h < p->nhosts && p->nhosts > 1; h++) {
		int k = probe_plan_host_partners(p, h);
		out->min_partners = k < out->min_partners ? k : out->min_partners;
	}
	/* each pair: two one-way phases and the bidirectional one, which moves both ways */
	double window = (double)o->window * (double)o->bw_bytes;
	out->bytes = (double)out->pairs * 4.0 * (double)(o->bw_warmup + o->bw_iters) * window;
	out->round_s = probe_plan_round_seconds(o);
	out->seconds = out->round_s * out->rounds;
}

int probe_plan_fit(int rounds, int reserve_rounds, double budget_s, struct probe_link_opts *o)
{
	int total = rounds + (reserve_rounds > 0 ? reserve_rounds : 0);
	if (!(budget_s > 0) || total < 1)
		return rounds;
	double each = budget_s / total - PROBE_PLAN_ROUND_OVERHEAD_S;
	double now = probe_plan_round_seconds(o) - PROBE_PLAN_ROUND_OVERHEAD_S;
	/* without time budgets the phases get them: the budget must bound every phase */
	if (isnan(now) || each < now) {
		double f = isnan(now) ? 1 : each / now;
		double lat = isnan(now) ? each / 8 : o->lat_time_s * f;
		double bw = isnan(now) ? each / 4 : o->bw_time_s * f;
		o->lat_time_s = lat > PROBE_PLAN_MIN_PHASE_S ? lat : PROBE_PLAN_MIN_PHASE_S;
		o->bw_time_s = bw > PROBE_PLAN_MIN_PHASE_S ? bw : PROBE_PLAN_MIN_PHASE_S;
	}
	double per = probe_plan_round_seconds(o);
	int fit = (int)floor(budget_s / per) - (reserve_rounds > 0 ? reserve_rounds : 0);
	return fit < 1 ? 1 : fit < rounds ? fit : rounds;
}

/* "12.3 GB", "850 MB": decimal units, as the bandwidths are */
static void bytes_text(double b, char *buf, size_t len)
{
	static const char *const units[] = {"B", "kB", "MB", "GB", "TB", "PB"};
	int u = 0;
	while (b >= 1000 && u < 5) {
		b /= 1000;
		u++;
	}
	snprintf(buf, len, "%.*f %s", b < 10 && u > 0 ? 1 : 0, b, units[u]);
}

/* "45 s", "12.5 min", "6.3 h", "unknown" */
static void time_text(double s, char *buf, size_t len)
{
	if (!isfinite(s))
		snprintf(buf, len, "unknown (a phase without a time budget)");
	else if (s < 120)
		snprintf(buf, len, "%.0f s", s);
	else if (s < 7200)
		snprintf(buf, len, "%.1f min", s / 60);
	else
		snprintf(buf, len, "%.1f h", s / 3600);
}

struct text {
	char *buf;
	size_t len, at;
	int wanted;
};

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(t->buf + t->at, t->len > t->at ? t->len - t->at : 0, fmt, ap);
	va_end(ap);
	if (k > 0) {
		t->wanted += k;
		t->at = t->at + (size_t)k < t->len ? t->at + (size_t)k : (t->len ? t->len - 1 : 0);
	}
}

/* The rounds of each kind: "5 doubling, 2 random, 1 intra-host". */
static void kinds(const struct probe_plan *p, struct text *t)
{
	int count[PROBE_ROUND_KINDS] = {0}, shown = 0;
	for (int r = 0; r < probe_plan_rounds(p); r++)
		count[probe_plan_kind(p, r)]++;
	for (int k = 0; k < PROBE_ROUND_KINDS; k++)
		if (count[k] > 0 && k != PROBE_ROUND_PAIRS)
			put(t, "%s%d %s", shown++ ? ", " : " (", count[k],
			    probe_round_kind_name(k));
	if (shown)
		put(t, ")");
}

int probe_plan_describe(const struct probe_plan *p, const struct probe_link_opts *o,
                        double budget_s, int reserve_rounds, char *buf, size_t len)
{
	struct text t = {.buf = buf, .len = len};
	struct probe_plan_cost c;
	char bytes[32], time[64], all_time[64];
	if (len > 0)
		buf[0] = 0;
	probe_plan_cost(p, o, &c);
	bytes_text(c.bytes, bytes, sizeof bytes);
	time_text(c.seconds, time, sizeof time);
	put(&t, "# plan: %s, %d host%s, %d rank%s: %d round%s",
	    p->pattern != PROBE_PLAN_SCREEN ? "pairs" : p->rails ? "screen by rail" : "screen",
	    p->nhosts,
	    p->nhosts == 1 ? "" : "s", p->nranks, p->nranks == 1 ? "" : "s", c.rounds,
	    c.rounds == 1 ? "" : "s");
	kinds(p, &t);
	put(&t, ", %lld rank pairs of %lld, host pairs %lld of %lld", (long long)c.pairs,
	    (long long)c.all_pairs, (long long)c.host_pairs,
	    (long long)p->nhosts * (p->nhosts - 1) / 2);
	if (p->pattern == PROBE_PLAN_SCREEN && p->nhosts > 1)
		put(&t, ", every host against %d partners or more", c.min_partners);
	put(&t,
	    "\n# plan: at most %s moved; about %s (%.1f s a round: 2 x %.3g s latency, "
	    "3 x %.3g s bandwidth per pair)\n",
	    bytes, time, c.round_s, o->lat_time_s, o->bw_time_s);
	if (reserve_rounds > 0)
		put(&t, "# plan: then up to %d rounds of %s, only for what is flagged\n",
		    reserve_rounds,
		    p->pattern == PROBE_PLAN_SCREEN ? "follow-up and re-tests" : "re-tests");
	if (budget_s > 0)
		put(&t,
		    "# plan: budget %g s for the whole run: phases of %.3g s (latency) and %.3g s "
		    "(bandwidth)\n",
		    budget_s, o->lat_time_s, o->bw_time_s);
	if (p->pattern == PROBE_PLAN_SCREEN) {
		int all = probe_tournament_rounds(p->nranks);
		time_text(all * c.round_s, all_time, sizeof all_time);
		put(&t,
		    "# plan: all pairs (--pattern pairs) would be %d round%s, %lld pairs, about "
		    "%s\n",
		    all, all == 1 ? "" : "s", (long long)c.all_pairs, all_time);
	}
	return t.wanted;
}
