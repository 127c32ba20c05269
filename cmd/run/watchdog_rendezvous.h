/*
 * How the hosts' leaders find rank 0 (cmd/run/watchdog_rendezvous.c): a
 * collective over ctx->comm, the leaders' communicator (cmd/run/watchdog_host.h;
 * rank 0 is its rank 0), that leaves rank 0 with one authenticated
 * connection per other leader (peer_fds[l], -1 for one that did not arrive)
 * and every other leader with its connection to rank 0 (*fd). world_rank
 * names this rank in its errors; token goes in every frame. Returns 0, or
 * less (agreed among the leaders) when it failed: the watchdog then cannot
 * watch. Rank 0 gets -2 when it failed after rank 0 had accepted whom it
 * could (the caller names the hosts missing from peer_fds), -1 when it said
 * why itself.
 */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_WATCHDOG_RENDEZVOUS_H
#define COLLSCOPE_CMD_WATCHDOG_RENDEZVOUS_H

#include <stdint.h>

#include "cmd/cmd.h"

int wd_rendezvous(const struct cmd_ctx *ctx, int world_rank, int *peer_fds, int *fd,
                  uint64_t *token);

#endif
