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

/* Was f, a suspect of before, found again by a confirmed suspect of now? */
static bool found_again(const struct detect_result *now, const struct detect_result *before,
                        const struct detect_suspect *f)
{
	for (int i = 0; i < now->nsuspects; i++)
		if (now->suspects[i].confirmed &&
		    detect_accused_before(now, &now->suspects[i], before) == f)
			return true;
	return false;
}

/* Appends s to out; a segment with its sides row from r (out->sides has room). */
static void keep(struct detect_result *out, const struct detect_result *r,
                 const struct detect_suspect *s)
{
	struct detect_suspect k = standing(s);
	const signed char *sides = k.kind == DETECT_SEGMENT ? detect_sides(r, s) : NULL;
	if (sides) {
		memcpy(out->sides + (size_t)out->nsides * (size_t)out->nhosts, sides,
		       (size_t)out->nhosts);
		k.side = out->nsides++;
	}
	out->suspects[out->nsuspects++] = k;
}

int retest_keep_standing(const struct detect_result *now, const struct detect_result *before,
                         int max_misses, struct detect_result *out)
{
	int nb = before ? before->nsuspects : 0;
	size_t rows = (size_t)now->nsuspects + (size_t)nb + 1;

	detect_result_init(out);
	memcpy(out->classes, now->classes, sizeof out->classes);
	out->nhosts = now->nhosts;
	out->suspects = malloc(rows * sizeof *out->suspects);
	out->sides = now->nhosts > 0 ? malloc(rows * (size_t)now->nhosts) : NULL;
	if (!out->suspects || (now->nhosts > 0 && !out->sides)) {
		detect_result_release(out);
		return -1;
	}
	for (int i = 0; i < now->nsuspects; i++)
		if (now->suspects[i].confirmed)
			keep(out, now, &now->suspects[i]);
	for (int i = 0; i < nb; i++) {
		const struct detect_suspect *f = &before->suspects[i];
		if (f->retest_misses < max_misses && !found_again(now, before, f)) {
			keep(out, before, f);
			out->suspects[out->nsuspects - 1].retest_misses++;
		}
	}
	return out->nsuspects;
}
