/*
 * int8: the all-reduce of a float32 buffer quantised to int8 on the wire,
 * a power-of-two scale per block of 256 values (QSGD-style, deterministic
 * or, with --stochastic-rounding, unbiased).
 *
 * What it does
 *   direct's schedule (ar_direct.c) through the int8 codec (codec.h,
 *   exec_codec.h): every rank sends chunk c of its input to rank c as int8
 *   blocks, each with its scale; the owner dequantises and adds in float32,
 *   quantises the sum once, and the all-gather sends that. Blocks start at
 *   every message's start.
 *
 * Cost (S = message bytes, n ranks)
 *   2(n-1) steps (x segments), (n-1)/n x S x 257/1024 bytes sent per rank:
 *   3.98x less than the exact variants' 2(n-1)/n x S; a pass for the block
 *   maxima and one to quantise per byte sent.
 *
 * Accuracy
 *   Each value's block of largest magnitude M gets the scale s = 2^e just
 *   above M / 127; rounding costs at most s/2 < M/127 (stochastically, s),
 *   once on the way to the owner and once back, whatever n. Over the ring
 *   schedule every hop would quantise a partial sum again. Power-of-two
 *   scales cost up to 2x in resolution against M / 127 exactly, but decode
 *   exactly, so every rank ends with the same bits.
 *
 * Restrictions
 *   float32 and sum only (others are skipped with the reason); selected by
 *   name, never by 'all'. Any rank count; one rank copies its input.
 *
 * Reference
 *   Alistarh et al., "QSGD: communication-efficient SGD via gradient
 *   quantization and encoding", NeurIPS 2017; Dettmers et al., "8-bit
 *   optimizers via block-wise quantization", ICLR 2022.
 *
 * Trace, 3 ranks: as direct's, every message a quarter of its bytes plus
 * one per block; each rank quantises its own chunk before the all-gather.
 */
#include "algorithms/variant.h"

const struct ar_variant ar_variant_int8 = {
    .name = "int8",
    .summary = "compressed: direct's pairwise exchange with int8 blocks of 256 on the wire, "
               "each value rounded twice whatever n (the ring would round at every hop)",
    .algorithm = "2(n-1) steps, (n-1)/n x S x 257/1024 bytes sent per rank (3.98x less); "
                 "|err| <= (sum_j M_j + M_sum) / 127, M the blocks' largest magnitudes "
                 "(twice that with --stochastic-rounding)",
    .restrictions = AR_NEEDS_COMMUTATIVE | AR_NEEDS_FLOAT32_SUM,
    .build = sched_build_direct,
    .codec = &codec_int8,
};
