/*
 * A ring buffer of fixed-size elements: the newest cap elements, the oldest
 * overwritten. What keeps watch's memory flat over days: every series, its
 * recent samples and its events live in rings sized once, at the start.
 * Pure: libc only.
 */
#ifndef COLLSCOPE_WATCH_RING_H
#define COLLSCOPE_WATCH_RING_H

#include <stddef.h>

struct watch_ring {
	unsigned char *items; /* cap x elem_bytes, owned */
	size_t cap, elem_bytes;
	size_t start;   /* index of the oldest */
	size_t n;       /* held, at most cap */
	size_t dropped; /* overwritten since init: how much history fell off */
};

/* Room for cap >= 1 elements of elem_bytes >= 1; 0, or -1 (bad sizes, no memory). */
int watch_ring_init(struct watch_ring *r, size_t cap, size_t elem_bytes);
void watch_ring_release(struct watch_ring *r);

/* The slot of a new newest element (the oldest goes when full), for the caller to fill. */
void *watch_ring_push(struct watch_ring *r);
/* Element i, 0 the oldest; NULL past the end. */
void *watch_ring_at(const struct watch_ring *r, size_t i);
/* Forgets the k oldest (all when k >= n). */
void watch_ring_drop(struct watch_ring *r, size_t k);

#endif
