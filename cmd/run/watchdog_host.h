/*
 * The watchdog's hosts (cmd/run/watchdog_plan.h says who watches whom): a
 * collective over ctx->comm that splits the ranks by host
 * (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), cut further with
 * COLLSCOPE_WATCHDOG_HOST_RANKS for tests), maps one shared-memory segment
 * of heartbeat slots per host (POSIX shm, unlinked once every rank of the
 * host has it mapped: nothing is left in /dev/shm, and no descriptor stays
 * open), and leaves the leaders a communicator of their own for the TCP
 * rendezvous with rank 0.
 */
#include <mpi.h>

#ifndef COLLSCOPE_CMD_WATCHDOG_HOST_H
#define COLLSCOPE_CMD_WATCHDOG_HOST_H

#include <stddef.h>

#include "cmd/cmd.h"
#include "cmd/run/watchdog_slot.h"

struct wd_host {
	int leader;            /* the rank of this rank's host's leader */
	int local, nlocal;     /* this rank's slot, the host's ranks */
	int *ranks;            /* leaders: the rank of each slot (nlocal) */
	int *leader_of;        /* rank 0: every rank's leader (ctx->nranks) */
	struct wd_slot *slots; /* nlocal, shared by the host's ranks */
	size_t bytes;          /* of the mapping */
	MPI_Comm leaders;      /* leaders: the leaders, rank 0 first; MPI_COMM_NULL elsewhere */
};

/*
 * Collective over ctx->comm. 0, or -1 on every rank (agreed) with *why set
 * on the ranks that saw the problem; nothing is then left allocated.
 */
int wd_host_setup(const struct cmd_ctx *ctx, struct wd_host *h, char *why, size_t len);
/* Collective over h->leaders (the leaders only): frees it. */
void wd_host_leaders_free(struct wd_host *h);
/* Not collective: unmaps and frees. */
void wd_host_release(struct wd_host *h);

#endif
