/* See watch_ring.h. */
#include "reports/watch/watch_ring.h"

#include <stdint.h>
#include <stdlib.h>

int watch_ring_init(struct watch_ring *r, size_t cap, size_t elem_bytes)
{
	*r = (struct watch_ring){0};
	if (cap < 1 || elem_bytes < 1 || cap > SIZE_MAX / elem_bytes)
		return -1;
	r->items = calloc(cap, elem_bytes);
	if (!r->items)
		return -1;
	r->cap = cap;
	r->elem_bytes = elem_bytes;
	return 0;
}

void watch_ring_release(struct watch_ring *r)
{
	free(r->items);
	*r = (struct watch_ring){0};
}

void *watch_ring_push(struct watch_ring *r)
{
	size_t at;
	if (r->n == r->cap) {
		at = r->start;
		r->start = (r->start + 1) % r->cap;
		r->dropped++;
	} else {
		at = (r->start + r->n++) % r->cap;
	}
	return r->items + at * r->elem_bytes;
}

void *watch_ring_at(const struct watch_ring *r, size_t i)
{
	if (i >= r->n)
		return NULL;
	return r->items + ((r->start + i) % r->cap) * r->elem_bytes;
}

void watch_ring_drop(struct watch_ring *r, size_t k)
{
	if (k > r->n)
		k = r->n;
	r->start = (r->start + k) % r->cap;
	r->n -= k;
}
