/*
 * rabenseifner: reduce-scatter by recursive halving, all-gather by recursive
 * doubling.
 *
 * What it does
 *   Among p ranks (p a power of two), each rank starts with the window
 *   [0, count). Reduce-scatter, levels mask = 1, 2, ..., p/2: a rank and its
 *   partner (virtual rank xor mask) hold the same window; they split it with
 *   the floor split (lower half = floor(len / 2) elements), the lower-ranked
 *   partner keeps the lower half and the other the upper half; each sends the
 *   half it gives up and reduces the half it keeps. After log2(p) levels each
 *   rank holds a window of about count / p elements reduced over all p
 *   ranks. All-gather retraces the levels in reverse (mask = p/2, ..., 1):
 *   partners send the window they hold and copy the partner's, so the window
 *   doubles back to [0, count). Every transfer is cut into segments of at
 *   most segment_count elements.
 *
 * Cost (S = message bytes, p = largest power of two <= n, rem = n - p)
 *   2 log2(p) transfers (x segments); each rank sends and receives
 *   2 (p-1)/p x S bytes and reduces (p-1)/p x S bytes: the bandwidth of the
 *   ring with the latency of recursive doubling (2 log2(p) alpha). The 2 rem
 *   ranks of the fold add one whole-buffer transfer before and one after.
 *
 * Restrictions
 *   Commutative operators: partners combine their operands in opposite
 *   orders. Any rank count (see below); windows may be empty when count < p,
 *   in which case both partners agree and the transfer vanishes.
 *
 * Non-power-of-two rank counts (as Open MPI's coll/base does)
 *   Fold: in the first 2 rem ranks each even rank sends its whole input to
 *   its odd neighbour, which reduces it and plays virtual rank r / 2; ranks
 *   r >= 2 rem play virtual rank r - rem. Unfold: at the end each such odd
 *   rank sends the whole result back to its even neighbour.
 *
 * Memory
 *   Out of place without the initial copy: at the first level a rank that
 *   did not take part in the fold sends the half it gives up straight from
 *   its input and reduces the half it keeps with its input as the left
 *   operand; everything later reads windows already written to the result.
 *
 * Reference
 *   R. Rabenseifner, "Optimization of collective reduction operations",
 *   ICCS 2004; R. Thakur, R. Rabenseifner, W. Gropp, IJHPCA 19(1), 2005;
 *   Open MPI ompi_coll_base_allreduce_intra_redscat_allgather
 *   (coll_base_allreduce.c), which uses the same level order.
 *
 * Trace, 4 ranks, count 8 (no fold)
 *   RS mask 1, window [0,8): r0<->r1, r2<->r3; r0, r2 keep [0,4), r1, r3 keep [4,8)
 *   RS mask 2: r0<->r2 in [0,4): r0 keeps [0,2), r2 keeps [2,4)
 *              r1<->r3 in [4,8): r1 keeps [4,6), r3 keeps [6,8)
 *   AG mask 2: r0<->r2 swap [0,2) and [2,4); r1<->r3 swap [4,6) and [6,8)
 *   AG mask 1: r0<->r1 and r2<->r3 swap [0,4) and [4,8)
 *   Trace, 3 ranks (p = 2, rem = 1): r0 sends in0 to r1 (fold), r1 (virtual
 *   0) and r2 (virtual 1) split [0, count) at count / 2 and swap halves,
 *   reduce, swap the reduced halves back, then r1 sends the result to r0.
 */
#include "algorithms/variant.h"

enum { RAB_MAX_LEVELS = 32 }; /* log2 of the largest int power of two, plus one */

struct rab_window {
	size_t offset, count;
};

/*
 * Split w with the floor split; the lower of the two partners keeps the
 * lower half. Both partners call this with the same window and agree.
 */
static void split(struct rab_window w, bool lower, struct rab_window *keep, struct rab_window *give)
{
	struct rab_window lo = {w.offset, w.count / 2};
	struct rab_window hi = {w.offset + w.count / 2, w.count - w.count / 2};
	*keep = lower ? lo : hi;
	*give = lower ? hi : lo;
}

/*
 * Reduce-scatter; parents[level] records the window split at each level and
 * *nlevels how many levels there were (log2 p).
 */
static int reduce_scatter(struct sched *s, int p, int rem, bool result_written,
                          struct rab_window *parents, int *nlevels)
{
	int vrank = sched_fold_vrank(s->rank, rem);
	struct rab_window w = {0, s->count}, keep, give;
	for (int mask = 1, level = 0; mask < p; mask <<= 1, level++) {
		int vpeer = vrank ^ mask, peer = sched_fold_rank(vpeer, rem);
		struct sched_step tmpl = {
		    .action = SCHED_REDUCE,
		    .send_from_input = !result_written,
		    .reduce_from_input = !result_written,
		};
		split(w, vrank < vpeer, &keep, &give);
		if (sched_add_segmented(s, peer, give.offset, give.count, peer, keep.offset,
		                        keep.count, &tmpl) != 0)
			return -1;
		parents[level] = w;
		*nlevels = level + 1;
		w = keep;
		result_written = true;
	}
	return 0;
}

/* All-gather: undo the levels in reverse, each partner sending the half it kept. */
static int all_gather(struct sched *s, int rem, const struct rab_window *parents, int nlevels)
{
	int vrank = sched_fold_vrank(s->rank, rem);
	struct sched_step tmpl = {.action = SCHED_COPY};
	struct rab_window keep, give;
	for (int level = nlevels - 1; level >= 0; level--) {
		int vpeer = vrank ^ (1 << level), peer = sched_fold_rank(vpeer, rem);
		split(parents[level], vrank < vpeer, &keep, &give);
		if (sched_add_segmented(s, peer, keep.offset, keep.count, peer, give.offset,
		                        give.count, &tmpl) != 0)
			return -1;
	}
	return 0;
}

/* Halving, then doubling back through the same windows. */
static int halve_then_double(struct sched *s, int p, int rem, bool folded)
{
	struct rab_window parents[RAB_MAX_LEVELS];
	int nlevels = 0;
	if (reduce_scatter(s, p, rem, folded, parents, &nlevels) != 0)
		return -1;
	s->halves = true;
	s->ag_first_step = s->nsteps;
	return all_gather(s, rem, parents, nlevels);
}

static int build_rabenseifner(struct sched *s)
{
	return sched_build_folded(s, halve_then_double);
}

/*
 * The halves alone (issue 35), power-of-two rank counts: windows of whole
 * chunks (sched_part_offset's n chunks), so rank r ends with chunk r.
 * Reduce-scatter by recursive halving, the largest distance first: at mask
 * n/2 .. 1 a rank and rank xor mask split their window of chunks in two, the
 * one without the mask bit keeps the lower half. All-gather by recursive
 * doubling: at mask 1 .. n/2 a rank and rank xor mask swap their aligned
 * windows of mask chunks. log2(n) steps each (x segments).
 */
static size_t chunk_at(const struct sched *s, size_t chunk)
{
	return sched_part_offset(s->count, (size_t)s->nranks, chunk);
}

static int build_halving_reduce_scatter(struct sched *s)
{
	size_t n = (size_t)s->nranks, r = (size_t)s->rank, lo = 0, hi = n;
	struct sched_step tmpl = {.action = SCHED_REDUCE};
	if (n <= 1) {
		s->copy_input_first = true;
		return 0;
	}
	for (size_t mask = n / 2; s->count && mask >= 1; mask /= 2) {
		size_t mid = lo + (hi - lo) / 2, peer = r ^ mask;
		bool lower = (r & mask) == 0;
		size_t klo = lower ? lo : mid, khi = lower ? mid : hi;
		size_t glo = lower ? mid : lo, ghi = lower ? hi : mid;
		/* the first level reads the untouched input; later ones what earlier levels reduced
		 */
		tmpl.send_from_input = tmpl.reduce_from_input = hi - lo == n;
		if (sched_add_segmented(s, (int)peer, chunk_at(s, glo),
		                        chunk_at(s, ghi) - chunk_at(s, glo), (int)peer,
		                        chunk_at(s, klo), chunk_at(s, khi) - chunk_at(s, klo),
		                        &tmpl) != 0)
			return -1;
		lo = klo;
		hi = khi;
	}
	return 0;
}

static int build_doubling_allgather(struct sched *s)
{
	size_t n = (size_t)s->nranks, r = (size_t)s->rank;
	struct sched_step tmpl = {.action = SCHED_COPY};
	sched_copy_own_chunk(s); /* chunk r into the result; the others are received */
	for (size_t mask = 1; s->count && mask < n; mask *= 2) {
		size_t mine = r / mask * mask, theirs = (r ^ mask) / mask * mask;
		if (sched_add_segmented(s, (int)(r ^ mask), chunk_at(s, mine),
		                        chunk_at(s, mine + mask) - chunk_at(s, mine),
		                        (int)(r ^ mask), chunk_at(s, theirs),
		                        chunk_at(s, theirs + mask) - chunk_at(s, theirs),
		                        &tmpl) != 0)
			return -1;
	}
	return 0;
}

const struct ar_variant ar_variant_rabenseifner = {
    .name = "rabenseifner",
    .summary = "reduce-scatter by recursive halving, all-gather by recursive doubling",
    .algorithm =
        "2 log2(p) steps (+2 when n is not a power of two), 2(p-1)/p x S bytes sent per rank",
    .restrictions = AR_NEEDS_COMMUTATIVE,
    .build = build_rabenseifner,
    .build_reduce_scatter = build_halving_reduce_scatter,
    .build_allgather = build_doubling_allgather,
    .halves_restrictions = AR_NEEDS_COMMUTATIVE | AR_NEEDS_POW2,
};
