/* Synthetic links of a healthy or faulty job: see synth.h. */
#include "reports/diagnose/synth.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

const char *const synth_fault_names[SYNTH_FAULTS + 1] = {
    "healthy", "host-send", "host-receive", "link-one-way", "segment", NULL};

/* splitmix64 of the seed and the pair: the same job gives the same values, in any order. */
static double unit_noise(unsigned seed, int a, int b, int metric)
{
	uint64_t x = ((uint64_t)seed << 40) ^ ((uint64_t)(unsigned)a << 20) ^ (uint64_t)(unsigned)b ^
	             ((uint64_t)metric << 62);
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	x ^= x >> 31;
	return (double)(x >> 11) / 9007199254740992.0; /* [0, 1) */
}

static bool slow_cell(const struct synth_job *j, int a, int b)
{
	int half = j->nhosts / 2;
	switch (j->fault) {
	case SYNTH_HOST_SEND:
		return a == j->culprit;
	case SYNTH_HOST_RECEIVE:
		return b == j->culprit;
	case SYNTH_LINK_ONE_WAY:
		return a == j->culprit && b == (j->culprit ^ 1);
	case SYNTH_SEGMENT:
		return (a < half) != (b < half);
	default:
		return false;
	}
}

static int pair_order(const void *pa, const void *pb)
{
	const struct detect_link *x = pa, *y = pb;
	if (x->a != y->a)
		return (x->a > y->a) - (x->a < y->a);
	return (x->b > y->b) - (x->b < y->b);
}

/* The partners of the screening: recursive doubling, then 3 shifts; -1 past the rounds. */
static int partner(int h, int n, int round, int doubling_rounds)
{
	static const int shifts[3] = {1, 3, 7};
	if (round < doubling_rounds) {
		int p = h ^ (1 << round);
		return p < n ? p : -1;
	}
	return (h + shifts[round - doubling_rounds] % n) % n;
}

static void add(const struct synth_job *j, enum detect_metric m, int a, int b,
                struct detect_link *out, size_t *k)
{
	double noise = 0.95 + 0.1 * unit_noise(j->seed, a, b, (int)m);
	double v = m == DETECT_BANDWIDTH ? 10 * noise : 20 * noise;
	if (m == DETECT_BANDWIDTH && slow_cell(j, a, b))
		v *= j->slow_factor;
	out[(*k)++] = (struct detect_link){.a = a,
	                                   .b = b,
	                                   .host_a = a,
	                                   .host_b = b,
	                                   .locality = DETECT_CROSS_HOST,
	                                   .value = v,
	                                   .judged = true};
}

int synth_links(const struct synth_job *j, enum detect_metric metric, struct detect_link **out,
                size_t *n)
{
	const int nh = j->nhosts;
	int doubling = 0;
	*out = NULL;
	*n = 0;
	if (nh < 2 || j->culprit < 0 || j->culprit >= nh || (j->culprit ^ 1) >= nh ||
	    (j->partner && j->rounds < 0))
		return -1;
	while ((1 << doubling) < nh)
		doubling++;
	int rounds = j->partner ? j->rounds : doubling + 3;
	size_t cap = j->all_pairs ? (size_t)nh * (size_t)(nh - 1) : (size_t)nh * (size_t)rounds * 2;
	struct detect_link *v = malloc(cap * sizeof *v);
	size_t k = 0;
	if (!v)
		return -1;
	if (j->all_pairs) {
		for (int a = 0; a < nh; a++)
			for (int b = 0; b < nh; b++)
				if (a != b)
					add(j, metric, a, b, v, &k);
	} else {
		/* each host's row of every round: both directions come from both ends */
		for (int r = 0; r < rounds; r++)
			for (int h = 0; h < nh; h++) {
				int p = j->partner ? j->partner[(size_t)r * (size_t)nh + (size_t)h]
				                   : partner(h, nh, r, doubling);
				if (p >= 0 && p < nh && p != h) {
					add(j, metric, h, p, v, &k);
					add(j, metric, p, h, v, &k);
				}
			}
		qsort(v, k, sizeof *v, pair_order);
		size_t u = 0;
		for (size_t i = 0; i < k; i++)
			if (u == 0 || pair_order(&v[u - 1], &v[i]) != 0)
				v[u++] = v[i];
		k = u;
	}
	*out = v;
	*n = k;
	return 0;
}

void synth_host_matrix(const struct detect_link *links, size_t n, int nhosts, double *cells)
{
	size_t nn = (size_t)nhosts * (size_t)nhosts;
	for (size_t c = 0; c < nn; c++)
		cells[c] = NAN;
	for (size_t i = 0; i < n; i++)
		cells[(size_t)links[i].host_a * (size_t)nhosts + (size_t)links[i].host_b] =
		    links[i].value;
}
