/*
 * The shm variant's small-message path, with threads as ranks (more threads
 * than cores here, so the waits are real): the slot layout, and call after
 * call of every size up to the capacity, in place and out of place, every
 * rank's result exact and the same bits on every rank, and a rank's bad
 * buffers seen by all.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/shm_small.h"

enum { MAX_RANKS = 8, CALLS = 600, CAPACITY = 1000 };

Test(shm_small, a_slot_is_whole_lines_of_56_bytes_of_data)
{
	cr_assert_eq(shm_small_lines(0), 1, "a call of 0 B still sets a flag");
	cr_assert_eq(shm_small_lines(1), 1);
	cr_assert_eq(shm_small_lines(56), 1);
	cr_assert_eq(shm_small_lines(57), 2);
	cr_assert_eq(shm_small_lines(112), 2);
	cr_assert_eq(shm_small_lines(4096), 74);
	cr_assert_eq(shm_small_rank_bytes(4096), 2 * 74 * 64, "two slots of whole lines");
	cr_assert_eq(shm_small_rank_bytes(0), 2 * 64);
	for (int t = 0; t < AR_DTYPE_COUNT; t++)
		cr_assert_eq(SHM_LINE_DATA_BYTES % ar_dtype_bytes(t), 0,
		             "%s elements straddle two lines", ar_dtype_name(t));
}

struct host {
	void *region[MAX_RANKS];
	int nranks;
	bool crowded, in_place;
	enum ar_dtype dtype;
	_Atomic int wrong;  /* elements off their exact sum */
	_Atomic int bad_ok; /* calls whose verdict on the buffers was wrong */
};

struct rank {
	struct host *h;
	int me;
};

/* Elements of call c: every size from 0 to the capacity, the line boundaries among them. */
static size_t count_of(int c, size_t w)
{
	static const size_t bytes[] = {0, 8, 48, 56, 64, 112, 120, 392, 1000, 4, 560};
	size_t b = bytes[(size_t)c % (sizeof bytes / sizeof bytes[0])];
	return (b > CAPACITY ? CAPACITY : b) / w;
}

/* Rank r's element i of call c: small integers, so every sum is exact. */
static double value(int c, int r, size_t i)
{
	return (double)((c + 3 * r + (int)i) % 17);
}

static void fill(void *buf, enum ar_dtype t, int c, int r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double v = value(c, r, i);
		if (t == AR_FLOAT32)
			((float *)buf)[i] = (float)v;
		else if (t == AR_INT64)
			((int64_t *)buf)[i] = (int64_t)v;
		else
			((double *)buf)[i] = v;
	}
}

static double get(const void *buf, enum ar_dtype t, size_t i)
{
	return t == AR_FLOAT32 ? ((const float *)buf)[i]
	       : t == AR_INT64 ? (double)((const int64_t *)buf)[i]
	                       : ((const double *)buf)[i];
}

static void *play(void *arg)
{
	struct rank *r = arg;
	struct host *h = r->h;
	const size_t w = ar_dtype_bytes(h->dtype);
	struct shm_small s = {.region = h->region,
	                      .count = h->nranks,
	                      .me = r->me,
	                      .capacity_bytes = CAPACITY,
	                      .crowded = h->crowded};
	char in[CAPACITY], out[CAPACITY];
	for (int c = 0; c < CALLS; c++) {
		size_t n = count_of(c, w);
		/* every 7th call, rank (c / 7) % nranks says its buffers are bad */
		bool mine_ok = c % 7 != 0 || (c / 7) % h->nranks != r->me;
		fill(in, h->dtype, c, r->me, n);
		memset(out, 0xA5, sizeof out);
		void *result = h->in_place ? in : out;
		bool ok = shm_small_allreduce(&s, (uint64_t)c + 1, mine_ok, in, result, n, h->dtype,
		                              AR_SUM);
		if (ok != (c % 7 != 0))
			atomic_fetch_add(&h->bad_ok, 1);
		if (!ok)
			continue;
		for (size_t i = 0; i < n; i++) {
			double want = 0;
			for (int p = 0; p < h->nranks; p++)
				want += value(c, p, i);
			if (get(result, h->dtype, i) != want)
				atomic_fetch_add(&h->wrong, 1);
		}
	}
	return NULL;
}

struct case_ {
	int nranks;
	bool crowded, in_place;
	enum ar_dtype dtype;
};

ParameterizedTestParameters(shm_small, every_rank_gets_the_sum_call_after_call)
{
	static struct case_ cases[] = {
	    {1, false, false, AR_FLOAT32}, {2, false, false, AR_FLOAT32},
	    {2, true, true, AR_INT64},     {3, true, false, AR_FLOAT64},
	    {4, true, true, AR_FLOAT32},   {5, true, false, AR_INT64},
	    {7, true, true, AR_FLOAT64},   {8, true, false, AR_FLOAT32},
	};
	return cr_make_param_array(struct case_, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct case_ *c, shm_small, every_rank_gets_the_sum_call_after_call)
{
	struct host *h = calloc(1, sizeof *h);
	pthread_t t[MAX_RANKS];
	struct rank r[MAX_RANKS];
	cr_assert(h);
	*h = (struct host){
	    .nranks = c->nranks, .crowded = c->crowded, .in_place = c->in_place, .dtype = c->dtype};
	for (int i = 0; i < c->nranks; i++) {
		h->region[i] = aligned_alloc(SHM_LINE_BYTES, shm_small_rank_bytes(CAPACITY));
		cr_assert(h->region[i]);
		memset(h->region[i], 0, shm_small_rank_bytes(CAPACITY));
	}
	for (int i = 0; i < c->nranks; i++) {
		r[i] = (struct rank){.h = h, .me = i};
		cr_assert_eq(pthread_create(&t[i], NULL, play, &r[i]), 0);
	}
	for (int i = 0; i < c->nranks; i++)
		pthread_join(t[i], NULL);
	cr_assert_eq(atomic_load(&h->wrong), 0, "%d elements wrong, %d ranks",
	             atomic_load(&h->wrong), c->nranks);
	cr_assert_eq(atomic_load(&h->bad_ok), 0, "%d calls misjudged a rank's buffers",
	             atomic_load(&h->bad_ok));
	for (int i = 0; i < c->nranks; i++)
		free(h->region[i]);
	free(h);
}

/* Sums whose value depends on their order: every rank adds in the same one. */
struct order_rank {
	void **region;
	int nranks, me;
	float result[CALLS];
};

static void *play_order(void *arg)
{
	struct order_rank *r = arg;
	struct shm_small s = {.region = r->region,
	                      .count = r->nranks,
	                      .me = r->me,
	                      .capacity_bytes = CAPACITY,
	                      .crowded = true};
	for (int c = 0; c < CALLS; c++) {
		/* 1e8, then 1s and -1e8: float32 sums of these differ by order */
		float in = r->me == 0 ? 1e8f : r->me == 1 ? -1e8f : 1.0f + (float)c;
		shm_small_allreduce(&s, (uint64_t)c + 1, true, &in, &r->result[c], 1, AR_FLOAT32,
		                    AR_SUM);
	}
	return NULL;
}

Test(shm_small, every_rank_gets_the_same_bits)
{
	enum { N = 5 };
	void *region[N];
	struct order_rank *r = calloc(N, sizeof *r);
	pthread_t t[N];
	cr_assert(r);
	for (int i = 0; i < N; i++) {
		region[i] = aligned_alloc(SHM_LINE_BYTES, shm_small_rank_bytes(CAPACITY));
		cr_assert(region[i]);
		memset(region[i], 0, shm_small_rank_bytes(CAPACITY));
		r[i] = (struct order_rank){.region = region, .nranks = N, .me = i};
	}
	for (int i = 0; i < N; i++)
		cr_assert_eq(pthread_create(&t[i], NULL, play_order, &r[i]), 0);
	for (int i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	for (int c = 0; c < CALLS; c++)
		for (int i = 1; i < N; i++)
			cr_assert_eq(memcmp(&r[i].result[c], &r[0].result[c], sizeof(float)), 0,
			             "call %d: rank %d got %g, rank 0 %g", c, i, r[i].result[c],
			             r[0].result[c]);
	for (int i = 0; i < N; i++)
		free(region[i]);
	free(r);
}
