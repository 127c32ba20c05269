/*
 * fp16: the all-reduce of a float32 buffer with IEEE binary16 on the wire
 * (PyTorch DDP's fp16_compress_hook, Horovod's fp16 compression, without
 * their float16 arithmetic).
 *
 * What it does
 *   direct's schedule (ar_direct.c) through the fp16 codec (codec.h,
 *   exec_codec.h): reduce-scatter by pairwise exchange, every rank sending
 *   chunk c of its input to rank c as binary16, rounded to nearest even; the
 *   owner adds what it receives to its own chunk in float32; it rounds the
 *   sum to binary16 once, and the all-gather sends that to every rank.
 *
 * Cost (S = message bytes, n ranks)
 *   2(n-1) steps (x segments), (n-1)/n x S bytes sent per rank: half the
 *   exact variants' 2(n-1)/n x S; a cast per byte sent, a decode per byte
 *   received.
 *
 * Accuracy
 *   Every input is rounded once and the sum once: |err| <= 2^-11 (sum |x_j| +
 *   |sum|) + 2^-25 plus float32's accumulation, whatever n, for values up
 *   to 65504: binary16 overflows to infinity beyond (there is no loss
 *   scaling here). A ring would round every partial sum at every hop
 *   instead, an error growing with n.
 *
 * Restrictions
 *   float32 and sum only (others are skipped with the reason); selected by
 *   name, never by 'all'. Any rank count: chunks may be empty, and one rank
 *   copies its input, exactly.
 *
 * Reference
 *   PyTorch torch.distributed.algorithms.ddp_comm_hooks.default_hooks
 *   (fp16_compress_hook); IEEE 754-2008 binary16; Micikevicius et al.,
 *   "Mixed precision training", ICLR 2018.
 *
 * Trace, 3 ranks: as direct's, every message half its bytes; before the
 * all-gather each rank rounds its own chunk, so all three end bit-identical.
 */
#include "algorithms/variant.h"

const struct ar_variant ar_variant_fp16 = {
    .name = "fp16",
    .summary =
        "compressed: direct's pairwise exchange with IEEE binary16 on the wire, sums in float32",
    .algorithm = "2(n-1) steps, (n-1)/n x S bytes sent per rank (2x less); |err| <= 2^-11 x "
                 "(sum|x| + |sum|)",
    .restrictions = AR_NEEDS_COMMUTATIVE | AR_NEEDS_FLOAT32_SUM,
    .build = sched_build_direct,
    .codec = &codec_fp16,
};
