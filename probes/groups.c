/* The splits of a job into groups (probes/groups.h). Pure. */
#include "probes/groups.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const groups_split_names[] = {"packed", "strided", "random", "given", NULL};

/* splitmix64: a small, well-mixed generator; the split must not depend on libc's rand */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int groups_split_units(enum groups_split how, int k, int nunits, uint64_t seed, int *unit_group)
{
	if (k < 1 || nunits < k || !unit_group || how == GROUPS_GIVEN)
		return -1;
	int *order = malloc((size_t)nunits * sizeof *order);
	if (!order)
		return -1;
	for (int u = 0; u < nunits; u++)
		order[u] = u;
	if (how == GROUPS_RANDOM) /* Fisher-Yates */
		for (int u = nunits - 1; u > 0; u--) {
			int j = (int)(next_random(&seed) % (uint64_t)(u + 1));
			int t = order[u];
			order[u] = order[j];
			order[j] = t;
		}
	for (int pos = 0; pos < nunits; pos++)
		unit_group[order[pos]] =
		    how == GROUPS_STRIDED ? pos % k : (int)((int64_t)pos * k / nunits);
	free(order);
	return 0;
}

/* One item of a given split: a whole number 0 .. GROUPS_MAX - 1, or -1. */
static int parse_index(const char *s)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (*s < '0' || *s > '9' || *end || errno || v >= GROUPS_MAX)
		return -1;
	return (int)v;
}

int groups_parse_given(const char *list, int nunits, const char *unit_name, int *unit_group, int *k,
                       char *why, size_t len)
{
	char *copy = strdup(list), *save = NULL;
	int n = 0, largest = -1, rc = -1;
	bool *used = calloc(GROUPS_MAX, sizeof *used);
	if (!copy || !used) {
		snprintf(why, len, "out of memory");
		goto out;
	}
	for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		int g = parse_index(item);
		if (g < 0) {
			snprintf(why, len, "item %d '%s' is not a group index (0 to %d)", n + 1,
			         item, GROUPS_MAX - 1);
			goto out;
		}
		if (n < nunits)
			unit_group[n] = g;
		n++;
		used[g] = true;
		largest = g > largest ? g : largest;
	}
	if (n != nunits) {
		snprintf(why, len, "%d group indices for %d %ss: one per %s", n, nunits, unit_name,
		         unit_name);
		goto out;
	}
	for (int g = 0; g <= largest; g++)
		if (!used[g]) {
			snprintf(why, len, "group %d has no %s (the indices must run 0 to %d)", g,
			         unit_name, largest);
			goto out;
		}
	*k = largest + 1;
	rc = 0;
out:
	free(copy);
	free(used);
	return rc;
}

int groups_of_ranks(const int *unit_group, bool by_host, const int *host_of_rank, int nranks, int k,
                    int *group_of_rank)
{
	int smallest = nranks;
	int *size = calloc((size_t)k, sizeof *size);
	if (!size)
		return -1;
	for (int r = 0; r < nranks; r++) {
		group_of_rank[r] = unit_group[by_host ? host_of_rank[r] : r];
		size[group_of_rank[r]]++;
	}
	for (int g = 0; g < k; g++)
		smallest = size[g] < smallest ? size[g] : smallest;
	free(size);
	return smallest;
}
