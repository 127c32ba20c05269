/*
 * shm's reduce-scatter and all-gather (issue 35): the halves of its
 * all-reduce on one host, from each other's shared-memory buffers
 * (algorithms/shm_halves.c says how). Direct forms: they return an MPI
 * error code, as ar_variant.run does.
 */
#ifndef COLLSCOPE_SHM_HALVES_H
#define COLLSCOPE_SHM_HALVES_H

struct ar_call;

int shm_reduce_scatter(const struct ar_call *c);
int shm_allgather(const struct ar_call *c);

#endif
