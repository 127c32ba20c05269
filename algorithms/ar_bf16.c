/*
 * bf16: the all-reduce of a float32 buffer with bfloat16 on the wire
 * (PyTorch DDP's bf16_compress_hook, without its bfloat16 arithmetic).
 *
 * What it does
 *   direct's schedule (ar_direct.c) through the bf16 codec (codec.h,
 *   exec_codec.h): reduce-scatter by pairwise exchange, every rank sending
 *   chunk c of its input to rank c as bfloat16, rounded to nearest even; the
 *   owner adds what it receives to its own chunk in float32; it rounds the
 *   sum to bfloat16 once, and the all-gather sends that to every rank.
 *
 * Cost (S = message bytes, n ranks)
 *   2(n-1) steps (x segments), (n-1)/n x S bytes sent per rank: half the
 *   exact variants' 2(n-1)/n x S; a cast per byte sent, a decode per byte
 *   received.
 *
 * Accuracy
 *   Every input is rounded once and the sum once: |err| <= 2^-8 (sum |x_j| +
 *   |sum|) plus float32's accumulation, whatever n. A ring would round every
 *   partial sum at every hop instead, an error growing with n.
 *
 * Restrictions
 *   float32 and sum only (others are skipped with the reason); selected by
 *   name, never by 'all'. Any rank count: chunks may be empty, and one rank
 *   copies its input, exactly.
 *
 * Reference
 *   PyTorch torch.distributed.algorithms.ddp_comm_hooks.default_hooks
 *   (bf16_compress_hook); Kalamkar et al., "A study of BFLOAT16 for deep
 *   learning training", 2019.
 *
 * Trace, 3 ranks: as direct's, every message half its bytes; before the
 * all-gather each rank rounds its own chunk, so all three end bit-identical.
 */
#include "algorithms/variant.h"

const struct ar_variant ar_variant_bf16 = {
    .name = "bf16",
    .summary = "compressed: direct's pairwise exchange with bfloat16 on the wire, sums in float32",
    .algorithm =
        "2(n-1) steps, (n-1)/n x S bytes sent per rank (2x less); |err| <= 2^-8 x (sum|x| + |sum|)",
    .restrictions = AR_NEEDS_COMMUTATIVE | AR_NEEDS_FLOAT32_SUM,
    .build = sched_build_direct,
    .codec = &codec_bf16,
};
