/*
 * collscope tune's decision as an MPICH collective selection file
 * (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE), written for MPICH 4.0 (Debian
 * ships 4.0.2). Pure: builds a cJSON tree and prints it to a FILE * or a
 * string.
 *
 * The grammar, from MPICH 4.0.2's src/mpi/coll/src/csel.c (parse_json_tree,
 * validate_tree, MPIR_Csel_search) and csel_container.c: every value is an
 * object; a key is an operator ("collective=allreduce", "comm_type=intra",
 * "comm_size<=N", "avg_msg_size<=S", "count<pow2", "is_commutative=yes", ...)
 * whose object is the subtree taken when it holds, and the next key of the
 * same object is taken when it does not: the keys of an object are tried in
 * order, the first that holds wins. A leaf is an object holding one key,
 * "algorithm=MPIR_Allreduce_intra_<name>": {} (the container parser reads
 * every key of that object as an algorithm). An "=any" key holds always and
 * must come last; after a "<=" key another must follow (validate_tree
 * aborts otherwise). N and S are read with atoi: at most INT_MAX. The
 * message size is the datatype's size x count, as in collscope's bytes. An
 * unknown key or algorithm aborts MPI_Init, and a call whose collective has
 * no entry aborts in MPIR_<Coll>_allcomm_auto (MPIR_Assert(cnt)): the file
 * replaces MPICH's whole built-in tree, for every collective.
 *
 * The allreduce entry written:
 *   "collective=allreduce": {
 *     "comm_type=intra": {
 *       "comm_size<=R1-1":  DEFAULT                 (below the smallest count, when R1 > 1)
 *       "comm_size<=R2-1":  { the ranges of R1 },   a count measured applies up to the next
 *       ...
 *       "comm_size=any":    { the ranges of Rk } },
 *     "comm_type=inter": { "algorithm=MPIR_Allreduce_inter_reduce_exchange_bcast": {} } }
 * and the ranges of one count (tune_ranges):
 *   "avg_msg_size<=S2-1": CHOICE of [0, S2), ..., "avg_msg_size=any": CHOICE of the last.
 * Only "<=" operators: MPICH 4.0's search tests "comm_size<N" as <= N (its
 * prune as < N), so "<" would depend on which of the two runs.
 *
 * The grammar has no "keep the default": alg 0 is written as MPICH 4.0's
 * own decision for an intra-communicator allreduce, copied from its built-in
 * tree (maint/tuning/coll/mpir/generic.json): avg_msg_size <= 0: smp if the op
 * is commutative, else recursive_doubling; <= 8: recursive_doubling; larger:
 * reduce_scatter_allgather for a built-in op with count >= the largest power
 * of two <= ranks, else recursive_doubling. MPICH 4.1 and later decide
 * otherwise in places; there alg 0 still means 4.0's decision.
 *
 * A chosen algorithm whose use MPICH restricts is written behind the same
 * test MPICH applies when the algorithm is forced by
 * MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM (src/mpi/coll/coll_algorithms.txt),
 * with DEFAULT where it fails, which is also what the forced measurement ran
 * (MPICH falls back to its own decision): smp needs a commutative op and a
 * parent communicator; reduce_scatter_allgather a built-in op and count >=
 * that power of two. The algorithms MPICH 4.0 knows: recursive_doubling,
 * reduce_scatter_allgather, smp and nb (MPIR_Allreduce_allcomm_nb); the
 * names of MPICH 4.1 (tree, recexch, ring, k_reduce_scatter_allgather) abort
 * 4.0's MPI_Init, and are refused.
 */
#ifndef COLLSCOPE_RULES_MPICH_H
#define COLLSCOPE_RULES_MPICH_H

#include "reports/tune/tune_decide.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>

/*
 * The MPICH container of a MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM value
 * ("ring" -> NULL in 4.0; "recursive_doubling" ->
 * "MPIR_Allreduce_intra_recursive_doubling"); static, or NULL when MPICH 4.0
 * has no such all-reduce algorithm.
 */
const char *rules_mpich_container(const char *cvar_name);

/*
 * Adds to root (an empty object the caller created and deletes) the
 * "collective=allreduce" entry for the choices c[0..n) (tune_decide's
 * output, any order; alg_name is the MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM
 * value of every alg != 0), then a copy of every other collective of base,
 * in base's order. base is MPICH's built-in tree for the MPICH that will
 * read the file (rules_mpich_find_default finds it in the library), or NULL:
 * then the file holds allreduce alone, and every other blocking collective
 * aborts under it (for tests and inspection only). Returns 0, or -1 with err
 * naming the problem: no choice, ranks < 1, an algorithm MPICH 4.0 does not
 * know, a size past INT_MAX, two choices at one point, a base that is not an
 * object of "collective=" keys, or out of memory; root then holds a partial
 * tree, to be deleted.
 */
int rules_mpich_build(cJSON *root, const struct tune_choice *c, size_t n, const cJSON *base,
                      char *err, size_t errlen);

/*
 * root printed for MPICH, with a final newline, in a string the caller
 * frees with free(); NULL when out of memory. MPICH 4.0 maps the file and
 * parses it as a C string (MPIR_Csel_create_from_file: mmap, then
 * json_tokener_parse), so a file whose length is a multiple of the page
 * size has no terminating NUL in the mapping (json-c's strlen then reads
 * past it; not seen to fail on Debian's 4.0.2, where the next page happened
 * to be readable): such a text gets a second newline.
 */
char *rules_mpich_text(const cJSON *root);

/* rules_mpich_text to f. Returns 0, or -1 with err naming the problem. */
int rules_mpich_write(FILE *f, const cJSON *root, char *err, size_t errlen);

/*
 * MPICH's built-in tree, found in the bytes of its library (libmpich.so,
 * read whole by the caller): the NUL-terminated JSON text whose keys are all
 * "collective=" and whose leaves are all "algorithm=MPIR_" (the library
 * also holds its ch4 tree, of "composition=" leaves, and its POSIX one, of
 * "algorithm=MPIDI_POSIX_"). *out receives the parsed tree, which the caller
 * deletes. Returns 0, or -1 with err saying none or two different were
 * found, or out of memory.
 */
int rules_mpich_find_default(const char *image, size_t len, cJSON **out, char *err, size_t errlen);

#endif
