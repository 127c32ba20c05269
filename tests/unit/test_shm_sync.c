/*
 * The shm variant's host barrier, with threads as ranks (more threads than
 * cores here, so the waits are real): what a rank publishes in its slot
 * before a barrier, every peer reads after it, call after call.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>
#include <stdlib.h>

#include "shm_sync.h"

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

struct case_ { int nranks; bool yield; };

ParameterizedTestParameters(shm_sync, peers_read_what_was_published_before_the_barrier)
{
	static struct case_ cases[] = {{1, false}, {2, false}, {2, true}, {3, true}, {4, true},
	                               {7, true}, {8, true}};
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
