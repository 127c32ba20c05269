/* See watchdog_plan.h. */
#include "cmd/run/watchdog_plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

void wd_hosts_release(struct wd_hosts *h)
{
	free(h->leader_of);
	free(h->host_of);
	free(h->leaders);
	free(h->count);
	*h = (struct wd_hosts){0};
}

static bool valid(const int *leader_of, int n)
{
	if (n < 1 || leader_of[0] != 0)
		return false;
	for (int r = 0; r < n; r++) {
		int l = leader_of[r];
		/* a leader is its host's lowest rank, and leads itself */
		if (l < 0 || l > r || leader_of[l] != l)
			return false;
	}
	return true;
}

int wd_hosts_plan(const int *leader_of, int nranks, struct wd_hosts *h)
{
	*h = (struct wd_hosts){0};
	if (!valid(leader_of, nranks))
		return -1;
	size_t n = (size_t)nranks;
	h->leader_of = malloc(n * sizeof *h->leader_of);
	h->host_of = malloc(n * sizeof *h->host_of);
	h->leaders = malloc(n * sizeof *h->leaders);
	h->count = calloc(n, sizeof *h->count);
	if (!h->leader_of || !h->host_of || !h->leaders || !h->count) {
		wd_hosts_release(h);
		return -1;
	}
	h->nranks = nranks;
	/* ranks in increasing order meet each leader before its other ranks */
	for (int r = 0; r < nranks; r++) {
		h->leader_of[r] = leader_of[r];
		if (leader_of[r] == r) {
			h->host_of[r] = h->nhosts;
			h->leaders[h->nhosts++] = r;
		} else {
			h->host_of[r] = h->host_of[leader_of[r]];
		}
		h->count[h->host_of[r]]++;
	}
	return 0;
}

int wd_host_ranks_parse(const char *s, int *k)
{
	*k = 0;
	if (!s || !*s)
		return 0;
	char *end = NULL;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < 1 || v > 1000000)
		return -1;
	*k = (int)v;
	return 0;
}

int wd_hosts_missing(char *buf, size_t len, const struct wd_hosts *h, const bool *arrived)
{
	size_t used = 0;
	int missing = 0, ranks = 0;
	if (len)
		buf[0] = '\0';
	for (int i = 1; i < h->nhosts; i++) {
		if (arrived[i])
			continue;
		ranks += h->count[i];
		if (missing++ < 16 && used < len)
			used +=
			    (size_t)snprintf(buf + used, len - used, "%s rank %d",
			                     missing > 1 ? "," : "host(s) led by", h->leaders[i]);
	}
	if (missing > 16 && used < len)
		used += (size_t)snprintf(buf + used, len - used, " and %d more", missing - 16);
	if (missing && used < len)
		snprintf(buf + used, len - used, " (%d rank%s)", ranks, ranks == 1 ? "" : "s");
	return missing;
}
