/*
 * The shm variant's host barrier, with threads as ranks (more threads than
 * cores here, so the waits are real): what a rank publishes in its slot
 * before a barrier, every peer reads after it, call after call.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "algorithms/shm_sync.h"

enum { MAX_RANKS = 8, CALLS = 2000 };

struct host {
	struct shm_slot slots[MAX_RANKS];
	struct shm_slot *slot[MAX_RANKS];
	int nranks;
	bool yield;
	_Atomic int bad; /* reads that found a peer's slot of another call */
};

struct rank {
	struct host *h;
	int me;
};

/* As shm_run does: publish, barrier, read every peer's, barrier. */
static void *play(void *arg)
{
	struct rank *r = arg;
	struct host *h = r->h;
	uint64_t n = 0;
	for (uint64_t call = 1; call <= CALLS; call++) {
		h->slot[r->me]->input = call * 1000 + (uint64_t)r->me;
		shm_sync_barrier(h->slot, h->nranks, r->me, ++n, h->yield);
		for (int i = 0; i < h->nranks; i++)
			if (h->slot[i]->input != call * 1000 + (uint64_t)i)
				atomic_fetch_add(&h->bad, 1);
		shm_sync_barrier(h->slot, h->nranks, r->me, ++n, h->yield);
	}
	return NULL;
}

struct case_ {
	int nranks;
	bool yield;
};

ParameterizedTestParameters(shm_sync, peers_read_what_was_published_before_the_barrier)
{
	static struct case_ cases[] = {{1, false}, {2, false}, {2, true}, {3, true},
	                               {4, true},  {7, true},  {8, true}};
	return cr_make_param_array(struct case_, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct case_ *c, shm_sync, peers_read_what_was_published_before_the_barrier)
{
	struct host *h = calloc(1, sizeof *h);
	pthread_t t[MAX_RANKS];
	struct rank r[MAX_RANKS];
	cr_assert(h);
	h->nranks = c->nranks;
	h->yield = c->yield;
	for (int i = 0; i < c->nranks; i++)
		h->slot[i] = &h->slots[i];
	for (int i = 0; i < c->nranks; i++) {
		r[i] = (struct rank){.h = h, .me = i};
		cr_assert_eq(pthread_create(&t[i], NULL, play, &r[i]), 0);
	}
	for (int i = 0; i < c->nranks; i++)
		pthread_join(t[i], NULL);
	cr_assert_eq(atomic_load(&h->bad), 0, "%d reads of a slot from another call, %d ranks",
	             atomic_load(&h->bad), c->nranks);
	for (int i = 0; i < c->nranks; i++)
		cr_assert_eq(atomic_load(&h->slots[i].reached), 2 * CALLS);
	free(h);
}

/*
 * The pipeline's wait (shm_sync_wait_long) as ar_shm uses it: a producer
 * fills segments and counts them, sometimes after a pause long enough that
 * the waiter is past spinning and yielding and naps; the waiter sees every
 * segment whole once its count shows.
 */
enum { SEGMENTS = 200, SEGMENT_WORDS = 64 };

struct pipe {
	_Atomic uint64_t count;
	uint64_t data[SEGMENTS][SEGMENT_WORDS];
};

static void *produce(void *arg)
{
	struct pipe *p = arg;
	for (uint64_t k = 0; k < SEGMENTS; k++) {
		if (k % 16 == 0) {
			struct timespec pause = {.tv_nsec = 1000 * 1000}; /* past SHM_YIELD_US */
			nanosleep(&pause, NULL);
		}
		for (int i = 0; i < SEGMENT_WORDS; i++)
			p->data[k][i] = k * 1000 + (uint64_t)i;
		atomic_store_explicit(&p->count, k + 1, memory_order_release);
	}
	return NULL;
}

Test(shm_sync, a_long_wait_sees_each_segment_whole_once_counted)
{
	struct pipe *p = calloc(1, sizeof *p);
	pthread_t t;
	int torn = 0;
	cr_assert(p);
	cr_assert_eq(pthread_create(&t, NULL, produce, p), 0);
	for (uint64_t k = 0; k < SEGMENTS; k++) {
		shm_sync_wait_long(&p->count, k + 1);
		for (int i = 0; i < SEGMENT_WORDS; i++)
			torn += p->data[k][i] != k * 1000 + (uint64_t)i;
	}
	pthread_join(t, NULL);
	cr_assert_eq(torn, 0, "%d words of a counted segment not yet written", torn);
	free(p);
}
