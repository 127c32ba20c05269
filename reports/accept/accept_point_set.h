/*
 * A set of a spec's all-reduce points by (collective, variant, bytes), for the spec
 * reader's duplicate check: open addressing, so n points cost n lookups of
 * constant time, not n^2 comparisons (100k points took 15 s). Pure: libc only.
 */
#ifndef COLLSCOPE_ACCEPT_POINT_SET_H
#define COLLSCOPE_ACCEPT_POINT_SET_H

#include "reports/accept/accept_spec.h"

#include <stddef.h>

struct accept_point_set {
	const struct accept_ar_point *points; /* borrowed: the indices refer to it */
	size_t *slots;                        /* index + 1; 0 is empty */
	size_t mask;
};

/* Room for up to n points of the array points. 0, or -1 when out of memory. */
int accept_point_set_init(struct accept_point_set *s, const struct accept_ar_point *points,
                          size_t n);
void accept_point_set_release(struct accept_point_set *s);
/* The index of the point equal to p already in the set, or -1 after adding p's index i. */
long accept_point_set_add(struct accept_point_set *s, const struct accept_ar_point *p, size_t i);

#endif
