/* See crossover.h. Sorted by size, then walked down from the largest common size. */
#include "reports/model/crossover.h"

#include <stdlib.h>

static int by_bytes(const void *a, const void *b)
{
	const struct crossover_point *x = a, *y = b;
	return (x->bytes > y->bytes) - (x->bytes < y->bytes);
}

/* The points of variant v with a time, sorted by size, the last of a size kept; -1: no memory. */
static long of_variant(const struct crossover_point *p, size_t n, int v,
                       struct crossover_point **out)
{
	struct crossover_point *q = malloc((n ? n : 1) * sizeof *q);
	size_t k = 0;
	if (!q)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (p[i].variant == v && p[i].p50_us > 0)
			q[k++] = p[i];
	/* stable for equal sizes: the later point wins below */
	for (size_t i = 0; i < k; i++)
		q[i].variant = (int)i;
	qsort(q, k, sizeof *q, by_bytes);
	size_t m = 0;
	for (size_t i = 0; i < k; i++) {
		if (m && q[m - 1].bytes == q[i].bytes) {
			if (q[i].variant > q[m - 1].variant)
				q[m - 1] = q[i];
			continue;
		}
		q[m++] = q[i];
	}
	*out = q;
	return (long)m;
}

int crossover_find(const struct crossover_point *p, size_t n, int v, int ref, struct crossover *out)
{
	struct crossover_point *a = NULL, *b = NULL;
	long na = of_variant(p, n, v, &a), nb = na < 0 ? -1 : of_variant(p, n, ref, &b);
	*out = (struct crossover){0};
	if (na < 0 || nb < 0) {
		free(a);
		free(b);
		return -1;
	}
	/* the common sizes, largest first: faster while the run lasts */
	bool faster = true;
	for (long i = na - 1, j = nb - 1; i >= 0 && j >= 0;) {
		if (a[i].bytes > b[j].bytes) {
			i--;
			continue;
		}
		if (a[i].bytes < b[j].bytes) {
			j--;
			continue;
		}
		if (out->sizes++ == 0) {
			out->max_bytes = a[i].bytes;
			out->speedup_at_max = b[j].p50_us / a[i].p50_us;
		}
		faster = faster && a[i].p50_us < b[j].p50_us;
		if (faster)
			out->from_bytes = a[i].bytes;
		i--;
		j--;
	}
	free(a);
	free(b);
	return 0;
}
