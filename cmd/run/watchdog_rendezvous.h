/*
 * How the watchdog's ranks find rank 0 (cmd/run/watchdog_rendezvous.c): a
 * collective over ctx->comm that leaves rank 0 with one authenticated
 * connection per rank that could reach it (peer_fds[r], -1 for those that
 * could not: they run unwatched) and every other rank with its connection
 * to rank 0 (*fd). token goes in every heartbeat. Returns 0, or -1 (agreed)
 * when the watchdog cannot start; the caller runs the job unwatched then.
 */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_WATCHDOG_RENDEZVOUS_H
#define COLLSCOPE_CMD_WATCHDOG_RENDEZVOUS_H

#include <stdint.h>

#include "cmd/cmd.h"

int wd_rendezvous(const struct cmd_ctx *ctx, int *peer_fds, int *fd, uint64_t *token);

#endif
