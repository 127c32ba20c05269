/*
 * The names of MPICH's all-reduce algorithms, read from the description of
 * its control variable MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM. MPICH exposes the
 * variable through MPI_T as a plain integer, without an enum; its values are
 * the entries of the description's list in their order (both are generated
 * from one list in MPICH's sources: 0 auto, 1 nb, 2 smp, ... in 4.0, checked
 * here by the functions each value runs). MPI_T joins the description's lines
 * without a separator, so an entry's name follows the previous entry's text:
 * "...allreduce algorithmauto - Internal algorithm selection (...)nb    - Force
 * nonblocking algorithmsmp   - Force smp algorithm...". Each entry's text ends
 * with "algorithm" or ")", which is cut from the name that follows it. Pure.
 */
#ifndef COLLSCOPE_LIB_ALG_NAMES_H
#define COLLSCOPE_LIB_ALG_NAMES_H

#include <stddef.h>

/*
 * The names of desc's list, value 0 first, into names[0..max) of
 * name_bytes each. Returns their number, or -1 when the list is not one
 * (no entry, the first not "auto", an empty or too long name, more than max).
 */
int lib_alg_names_parse(const char *desc, char (*names)[48], int max);

#endif
