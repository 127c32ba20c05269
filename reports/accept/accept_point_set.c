/* See accept_point_set.h. */
#include "reports/accept/accept_point_set.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a over the collective, the variant's name, then the size's bytes. */
static uint64_t hash(const struct accept_ar_point *p)
{
	uint64_t h = (1469598103934665603ull ^ (unsigned)p->collective) * 1099511628211ull;
	for (const unsigned char *c = (const unsigned char *)p->variant; *c; c++)
		h = (h ^ *c) * 1099511628211ull;
	for (int k = 0; k < 8; k++)
		h = (h ^ ((p->bytes >> (8 * k)) & 0xff)) * 1099511628211ull;
	return h;
}

int accept_point_set_init(struct accept_point_set *s, const struct accept_ar_point *points,
                          size_t n)
{
	size_t cap = 16;
	while (cap < 2 * n)
		cap *= 2;
	*s = (struct accept_point_set){.points = points, .mask = cap - 1};
	s->slots = calloc(cap, sizeof *s->slots);
	return s->slots ? 0 : -1;
}

void accept_point_set_release(struct accept_point_set *s)
{
	free(s->slots);
	s->slots = NULL;
}

long accept_point_set_add(struct accept_point_set *s, const struct accept_ar_point *p, size_t i)
{
	for (size_t k = (size_t)hash(p) & s->mask;; k = (k + 1) & s->mask) {
		if (!s->slots[k]) {
			s->slots[k] = i + 1;
			return -1;
		}
		const struct accept_ar_point *q = &s->points[s->slots[k] - 1];
		if (q->bytes == p->bytes && q->collective == p->collective &&
		    strcmp(q->variant, p->variant) == 0)
			return (long)(s->slots[k] - 1);
	}
}
