/*
 * collscope tune's decision as an Open MPI coll_tuned dynamic rules file, in
 * the classic format that Open MPI 4.1 reads (version 1). Pure: writes to a
 * caller's FILE * or buffer.
 *
 * Open MPI reads it with
 *   --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename FILE
 * (ompi/mca/coll/tuned/coll_tuned_dynamic_file.c, v4.1.0-v4.1.8): a stream of
 * integers, '#' to the end of a line a comment (ompi_coll_base_file_getnext_long
 * skips it wherever a number is expected; 4.1.8 first tries
 * "rule-file-version-%u", which a leading '#' fails harmlessly):
 *
 *   1                      number of collectives
 *   2                      collective id: ALLREDUCE in COLLTYPE_T
 *   K                      number of communicator sizes, then for each, ascending:
 *     comm_size            the entry of the largest comm_size <= the communicator's size
 *     M                    number of message-size rules, then M lines, ascending,
 *       msg_bytes alg topo segsize   the rule of the largest msg_bytes <= the call's
 *                                    bytes (datatype size x count); the first at 0
 *
 * No "rule-file-version" line and no fifth (max requests) number: Open MPI
 * before 5.0.7 does not know them. alg is the coll_tuned_allreduce_algorithm
 * id (1 basic_linear ... 6 rabenseifner); 0 sends the call to the fixed
 * decision (or to a forced coll_tuned_allreduce_algorithm). topo and segsize
 * are 0: the values a forced run used, as coll_tuned_allreduce_algorithm_
 * segmentsize defaults to 0, so the file reproduces what was measured.
 *
 * Open MPI gives a communicator smaller than the first comm_size the first
 * entry all the same (ompi_coll_tuned_get_com_rule_ptr starts from it), so
 * the file opens with a comm_size 0 entry whose one rule is 0 0 0 0: below
 * the smallest rank count measured, the library decides, as without a file.
 * A rank count measured applies up to the next one measured; the last to
 * every larger communicator.
 */
#ifndef COLLSCOPE_RULES_OMPI_H
#define COLLSCOPE_RULES_OMPI_H

#include "reports/tune/tune_decide.h"

#include <stddef.h>
#include <stdio.h>

/* COLLTYPE_T's ALLREDUCE (ompi/mca/coll/base/coll_base_functions.h). */
#define RULES_OMPI_ALLREDUCE_ID 2

/*
 * Writes the rules for the choices c[0..n) (tune_decide's output, any
 * order) to f. comment_lines (NULL-terminated, or NULL) go after the file's
 * own header, each as "# line": what collscope measured, where and when.
 * Returns 0, or -1 with err naming the problem: no choice, ranks < 1, alg <
 * 0, a size past Open MPI's long, a comment line holding a newline, two
 * choices at one point, a failed write, or out of memory.
 */
int rules_ompi_write(FILE *f, const struct tune_choice *c, size_t n,
                     const char *const *comment_lines, char *err, size_t errlen);

/*
 * The same text into buf (len bytes, NUL-terminated when len > 0), as
 * snprintf: returns the length of the whole text, which was cut short when
 * it is >= len, or -1 as rules_ompi_write. buf may be NULL when len is 0.
 */
long rules_ompi_format(char *buf, size_t len, const struct tune_choice *c, size_t n,
                       const char *const *comment_lines, char *err, size_t errlen);

#endif
