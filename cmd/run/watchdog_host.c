/* See watchdog_host.h. */
#include <mpi.h>

#include "cmd/run/watchdog_host.h"
#include "cmd/run/run.h"

#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cmd/run/watchdog_plan.h"

enum { SHM_NAME_BYTES = 64 };

void wd_host_release(struct wd_host *h)
{
	if (h->slots)
		munmap(h->slots, h->bytes);
	free(h->ranks);
	free(h->leader_of);
	*h = (struct wd_host){.leaders = h->leaders};
}

void wd_host_leaders_free(struct wd_host *h)
{
	if (h->leaders != MPI_COMM_NULL)
		MPI_Comm_free(&h->leaders);
	h->leaders = MPI_COMM_NULL;
}

/* The host's communicator: the ranks that share memory, cut by COLLSCOPE_WATCHDOG_HOST_RANKS. */
static int host_comm(const struct cmd_ctx *ctx, MPI_Comm *host, char *why, size_t len)
{
	MPI_Comm node = MPI_COMM_NULL;
	int k = 0, nrank = 0, rc = 0;
	if (wd_host_ranks_parse(getenv("COLLSCOPE_WATCHDOG_HOST_RANKS"), &k) != 0) {
		snprintf(why, len, "bad COLLSCOPE_WATCHDOG_HOST_RANKS '%s'",
		         getenv("COLLSCOPE_WATCHDOG_HOST_RANKS"));
		rc = -1; /* the environment is every rank's: all see it */
		k = 0;
	}
	if (MPI_Comm_split_type(ctx->comm, MPI_COMM_TYPE_SHARED, ctx->rank, MPI_INFO_NULL, &node) !=
	    MPI_SUCCESS) {
		snprintf(why, len, "cannot find the ranks of this host (MPI_Comm_split_type)");
		*host = MPI_COMM_NULL;
		return -1;
	}
	if (k == 0) {
		*host = node;
		return rc;
	}
	MPI_Comm_rank(node, &nrank);
	if (MPI_Comm_split(node, nrank / k, ctx->rank, host) != MPI_SUCCESS) {
		*host = MPI_COMM_NULL;
		rc = -1;
	}
	MPI_Comm_free(&node);
	return rc;
}

/* The leader: a fresh segment of nlocal slots, its name in name. NULL on failure (why says). */
static struct wd_slot *shm_create(char *name, size_t bytes, char *why, size_t len)
{
	unsigned char r[8];
	randombytes_buf(r, sizeof r);
	snprintf(name, SHM_NAME_BYTES, "/collscope-wd-%ld-%02x%02x%02x%02x%02x%02x%02x%02x",
	         (long)getpid(), r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]);
	int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
	void *p = MAP_FAILED;
	if (fd >= 0 && ftruncate(fd, (off_t)bytes) == 0)
		p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		snprintf(why, len,
		         "cannot share %zu bytes of memory with this host's ranks (%s): %s", bytes,
		         name, strerror(errno));
	if (fd >= 0)
		close(fd);
	if (fd >= 0 && p == MAP_FAILED)
		shm_unlink(name);
	return p == MAP_FAILED ? NULL : p;
}

static struct wd_slot *shm_attach(const char *name, size_t bytes, char *why, size_t len)
{
	int fd = shm_open(name, O_RDWR | O_CLOEXEC, 0);
	void *p = MAP_FAILED;
	if (fd >= 0)
		p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		snprintf(why, len, "cannot map the host's heartbeats (%s): %s", name,
		         strerror(errno));
	if (fd >= 0)
		close(fd);
	return p == MAP_FAILED ? NULL : p;
}

/* Every rank of host maps the leader's segment; the name is gone from /dev/shm afterwards. */
static int share_slots(MPI_Comm host, struct wd_host *h, char *why, size_t len)
{
	char name[SHM_NAME_BYTES] = "";
	int ok = 1, all = 0;
	h->bytes = (size_t)h->nlocal * sizeof *h->slots;
	if (h->local == 0 && !(h->slots = shm_create(name, h->bytes, why, len)))
		ok = 0;
	if (MPI_Bcast(name, sizeof name, MPI_CHAR, 0, host) != MPI_SUCCESS)
		ok = 0;
	if (h->local != 0 && ok && name[0] && !(h->slots = shm_attach(name, h->bytes, why, len)))
		ok = 0;
	if (h->local != 0 && !name[0])
		ok = 0; /* the leader failed: it says why */
	if (MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, host) != MPI_SUCCESS)
		all = 0;
	if (h->local == 0 && name[0])
		shm_unlink(name);
	return all ? 0 : -1;
}

/* Who leads whom: every rank its leader; the leader its ranks; rank 0 everyone's leader. */
static int map_ranks(const struct cmd_ctx *ctx, MPI_Comm host, struct wd_host *h)
{
	int ok = 1;
	MPI_Comm_rank(host, &h->local);
	MPI_Comm_size(host, &h->nlocal);
	h->leader = ctx->rank;
	if (MPI_Bcast(&h->leader, 1, MPI_INT, 0, host) != MPI_SUCCESS)
		ok = 0;
	if (h->local == 0 && !(h->ranks = calloc((size_t)h->nlocal, sizeof *h->ranks)))
		ok = 0;
	if (ctx->rank == 0 && !(h->leader_of = calloc((size_t)ctx->nranks, sizeof *h->leader_of)))
		ok = 0;
	if (MPI_Gather(&ctx->rank, 1, MPI_INT, h->ranks, 1, MPI_INT, 0, host) != MPI_SUCCESS ||
	    MPI_Gather(&h->leader, 1, MPI_INT, h->leader_of, 1, MPI_INT, 0, ctx->comm) !=
	        MPI_SUCCESS)
		ok = 0;
	return ok ? 0 : -1;
}

int wd_host_setup(const struct cmd_ctx *ctx, struct wd_host *h, char *why, size_t len)
{
	MPI_Comm host = MPI_COMM_NULL;
	*h = (struct wd_host){.leaders = MPI_COMM_NULL};
	int ok = host_comm(ctx, &host, why, len) == 0;
	if (host != MPI_COMM_NULL) {
		if (map_ranks(ctx, host, h) != 0) {
			snprintf(why, len, "out of memory for the host's ranks");
			ok = 0;
		}
		if (share_slots(host, h, why, len) != 0)
			ok = 0;
		MPI_Comm_free(&host);
	}
	/* rank 0 leads its host: it is the lowest rank of it */
	if (MPI_Comm_split(ctx->comm, h->local == 0 ? 0 : MPI_UNDEFINED, ctx->rank, &h->leaders) !=
	    MPI_SUCCESS)
		ok = 0;
	if (!run_any(ctx, !ok))
		return 0;
	wd_host_leaders_free(h);
	wd_host_release(h);
	return -1;
}
