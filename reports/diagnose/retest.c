/* See retest.h. No MPI, no I/O. */
#include "reports/diagnose/retest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The suspect as the next round matches it: the first pass's figures, not yet confirmed. */
static struct detect_suspect standing(const struct detect_suspect *s)
{
	struct detect_suspect k = *s;
	if (isfinite(s->first_measured)) {
		k.measured = s->first_measured;
		k.ratio = s->first_ratio;
		k.score = s->first_score;
	}
	k.confirmed = false;
	return k;
}

int retest_keep_confirmed(const struct detect_result *r, struct detect_result *out)
{
	int kept = 0;
	size_t sides_bytes = (size_t)r->nsides * (size_t)r->nhosts;

	detect_result_init(out);
	memcpy(out->classes, r->classes, sizeof out->classes);
	out->nhosts = r->nhosts;
	for (int i = 0; i < r->nsuspects; i++)
		kept += r->suspects[i].confirmed;
	out->suspects = malloc(((size_t)kept + 1) * sizeof *out->suspects);
	out->sides = r->sides && sides_bytes ? malloc(sides_bytes) : NULL;
	if (!out->suspects || (r->sides && sides_bytes && !out->sides)) {
		detect_result_release(out);
		return -1;
	}
	if (out->sides) {
		memcpy(out->sides, r->sides, sides_bytes);
		out->nsides = r->nsides;
	}
	for (int i = 0; i < r->nsuspects; i++)
		if (r->suspects[i].confirmed)
			out->suspects[out->nsuspects++] = standing(&r->suspects[i]);
	return kept;
}
