/*
 * topk: the all-reduce of a float32 buffer sparsified: only the k values
 * of largest magnitude of each message travel, with their indices (Aji and
 * Heafield's gradient dropping; with --error-feedback what was dropped is
 * added to the next call's input, as Deep Gradient Compression does).
 *
 * What it does
 *   direct's schedule (ar_direct.c) through the topk codec (codec.h,
 *   exec_codec.h): every rank sends, of chunk c of its input, the
 *   ceil(ratio x count) values of largest magnitude with their uint32
 *   indices to rank c, per segment; the owner adds them into its own chunk
 *   in float32, keeps the top k of the sum and the all-gather sends that.
 *   --topk-ratio sets the ratio (default 0.01, at most 0.5).
 *
 * Cost (S = message bytes, n ranks, r = ratio)
 *   2(n-1) steps (x segments), (n-1)/n x S x 2r bytes sent per rank: at
 *   r = 0.01 50x less than the exact variants' 2(n-1)/n x S; a selection
 *   (quickselect, O(count)) per message sent.
 *
 * Accuracy
 *   A value sent arrives exactly; one dropped is lost (|err| = its
 *   magnitude, at most the k-th largest of its message), on the way to the
 *   owner and on the way back. Without error feedback nothing is bounded
 *   relative to the sum; with it, the sum of the results over many calls
 *   trails the sum of the inputs by the residuals alone, which stay bounded
 *   (tests/unit/test_codec.c).
 *
 * Restrictions
 *   float32 and sum only (others are skipped with the reason); selected by
 *   name, never by 'all'. Any rank count; one rank copies its input.
 *
 * Reference
 *   A. F. Aji, K. Heafield, "Sparse communication for distributed gradient
 *   descent", EMNLP 2017; Lin et al., "Deep gradient compression", ICLR 2018.
 *
 * Trace, 3 ranks: as direct's, every message 8 bytes per kept value; each
 * rank keeps the top k of its own chunk's sum before the all-gather.
 */
#include "algorithms/variant.h"

const struct ar_variant ar_variant_topk = {
    .name = "topk",
    .summary = "compressed: direct's pairwise exchange sending the top k magnitudes and indices",
    .algorithm = "2(n-1) steps, (n-1)/n x S x 2 ratio bytes sent per rank (50x less at 0.01); "
                 "a dropped value is lost (--error-feedback carries it on)",
    .restrictions = AR_NEEDS_COMMUTATIVE | AR_NEEDS_FLOAT32_SUM,
    .build = sched_build_direct,
    .codec = &codec_topk,
};
