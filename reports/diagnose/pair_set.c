/* See pair_set.h. */
#include "reports/diagnose/pair_set.h"

#include <stdlib.h>
#include <string.h>

enum { FIRST_CAP = 64 };

static uint64_t key_of(int a, int b)
{
	uint64_t lo = (uint64_t)(a < b ? a : b), hi = (uint64_t)(a < b ? b : a);
	return (lo << 32 | hi) + 1;
}

/* A 64-bit mix (splitmix64's finaliser): consecutive ranks spread over the slots. */
static size_t home(uint64_t key, size_t cap)
{
	key ^= key >> 30;
	key *= 0xbf58476d1ce4e5b9ULL;
	key ^= key >> 27;
	key *= 0x94d049bb133111ebULL;
	key ^= key >> 31;
	return (size_t)key & (cap - 1);
}

/* The slot holding key, or the free one where it would go. */
static size_t find(const struct pair_set *s, uint64_t key)
{
	size_t i = home(key, s->cap);
	while (s->slots[i] && s->slots[i] != key)
		i = (i + 1) & (s->cap - 1);
	return i;
}

void pair_set_init(struct pair_set *s)
{
	*s = (struct pair_set){0};
}

void pair_set_release(struct pair_set *s)
{
	free(s->slots);
	pair_set_init(s);
}

void pair_set_clear(struct pair_set *s)
{
	if (s->slots)
		memset(s->slots, 0, s->cap * sizeof *s->slots);
	s->count = 0;
}

/* Doubles the slots (at most half full after); false when out of memory. */
static bool grow(struct pair_set *s)
{
	size_t cap = s->cap ? 2 * s->cap : FIRST_CAP;
	uint64_t *slots = calloc(cap, sizeof *slots), *old = s->slots;
	if (!slots)
		return false;
	size_t old_cap = s->cap;
	s->slots = slots;
	s->cap = cap;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i])
			s->slots[find(s, old[i])] = old[i];
	free(old);
	return true;
}

int pair_set_add(struct pair_set *s, int a, int b)
{
	if (a < 0 || b < 0 || a == b)
		return 0;
	if (4 * (s->count + 1) > 3 * s->cap && !grow(s)) /* at most 3/4 full */
		return -1;
	uint64_t key = key_of(a, b);
	size_t i = find(s, key);
	if (s->slots[i])
		return 0;
	s->slots[i] = key;
	s->count++;
	return 1;
}

bool pair_set_has(const struct pair_set *s, int a, int b)
{
	if (a < 0 || b < 0 || a == b || !s->cap)
		return false;
	return s->slots[find(s, key_of(a, b))] != 0;
}

bool pair_set_remove(struct pair_set *s, int a, int b)
{
	if (a < 0 || b < 0 || a == b || !s->cap)
		return false;
	size_t i = find(s, key_of(a, b)), mask = s->cap - 1;
	if (!s->slots[i])
		return false;
	/* backward shift: a later key of the run moves up unless its home lies in (i, j] */
	for (size_t j = (i + 1) & mask; s->slots[j]; j = (j + 1) & mask) {
		size_t k = home(s->slots[j], s->cap);
		bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
		if (!stays) {
			s->slots[i] = s->slots[j];
			i = j;
		}
	}
	s->slots[i] = 0;
	s->count--;
	return true;
}

static int cmp_pair(const void *pa, const void *pb)
{
	const int *x = pa, *y = pb;
	return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

size_t pair_set_sorted(const struct pair_set *s, int (*out)[2])
{
	size_t n = 0;
	for (size_t i = 0; i < s->cap; i++)
		if (s->slots[i]) {
			uint64_t k = s->slots[i] - 1;
			out[n][0] = (int)(k >> 32);
			out[n++][1] = (int)(k & 0xffffffffu);
		}
	qsort(out, n, sizeof *out, cmp_pair);
	return n;
}
