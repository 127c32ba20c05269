/* See clock_sync.h. */
#include <mpi.h>

#include "algorithms/clock_sync.h"
#include "algorithms/clock_id.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { TAG_GO = 0x7c10, TAG_PING, TAG_PONG };

/* What each rank sends rank 0 after its turn. */
struct rank_stats {
	double residual_s, rtt_s, offset_s, drift, jump_s;
	int shared;   /* reads rank 0's clock */
	int measured; /* measured its clock by ping-pongs (a clock's first rank) */
};

/*
 * Completes req (rc: how starting it went), napping between polls, so that
 * a rank waiting for others leaves the cores to the pair that measures.
 */
static int nap_until(int rc, MPI_Request *req)
{
	const struct timespec nap = {0, 50000L}; /* 50 us */
	int done = 0;
	while (rc == MPI_SUCCESS && !done) {
		rc = MPI_Test(req, &done, MPI_STATUS_IGNORE);
		if (rc == MPI_SUCCESS && !done)
			nanosleep(&nap, NULL);
	}
	return rc;
}

/* Waits for rank 0's go. */
static int wait_turn(MPI_Comm comm)
{
	MPI_Request req;
	int go;
	return nap_until(MPI_Irecv(&go, 1, MPI_INT, 0, TAG_GO, comm, &req), &req);
}

/* Rank 0: answers every ping of rank r with its clock. */
static int serve(MPI_Comm comm, int r, int pings)
{
	int go = 1, rc = MPI_Send(&go, 1, MPI_INT, r, TAG_GO, comm);
	for (int i = 0; i < pings && rc == MPI_SUCCESS; i++) {
		double x;
		rc = MPI_Recv(&x, 1, MPI_DOUBLE, r, TAG_PING, comm, MPI_STATUS_IGNORE);
		double t = clock_local_s();
		if (rc == MPI_SUCCESS)
			rc = MPI_Send(&t, 1, MPI_DOUBLE, r, TAG_PONG, comm);
	}
	return rc;
}

/* One round: CLOCK_SYNC_PINGS ping-pongs with rank 0, the shortest kept. */
static int round_best(MPI_Comm comm, struct clock_point *best)
{
	struct clock_pingpong p[CLOCK_SYNC_PINGS];
	int rc = MPI_SUCCESS;
	for (int i = 0; i < CLOCK_SYNC_PINGS && rc == MPI_SUCCESS; i++) {
		double x = 0;
		p[i].send_s = clock_local_s();
		rc = MPI_Send(&x, 1, MPI_DOUBLE, 0, TAG_PING, comm);
		if (rc == MPI_SUCCESS)
			rc = MPI_Recv(&p[i].ref_s, 1, MPI_DOUBLE, 0, TAG_PONG, comm, MPI_STATUS_IGNORE);
		p[i].recv_s = clock_local_s();
	}
	if (rc == MPI_SUCCESS && clock_best(p, CLOCK_SYNC_PINGS, best) != 0)
		rc = MPI_ERR_INTERN;
	return rc;
}

/*
 * A rank that reads rank 0's clock: its model stays the identity, and the
 * ping-pongs only confirm it. On one clock a ping-pong's offset is within
 * half its round trip of 0 by construction, so any excess is an error the
 * identity leaves (clock_id was wrong), and is reported as such. As many
 * rounds as a measured sync, though the checks' would do: with only those,
 * the library's 8 B calls measured after the sync ran 20% slower (pipelined
 * mean 0.73 against 0.60 us, 6 runs each way alternating, 2 ranks on shared
 * memory, Open MPI 4.1), for a reason not found.
 */
static int check_shared(MPI_Comm comm, struct clock_model *m, struct rank_stats *s)
{
	struct clock_point check;
	int rc = wait_turn(comm);
	*s = (struct rank_stats){.jump_s = m->syncs ? 0 : NAN, .shared = 1};
	m->syncs++;
	for (int i = 0; i < CLOCK_SYNC_ROUNDS + CLOCK_SYNC_CHECKS && rc == MPI_SUCCESS; i++) {
		rc = round_best(comm, &check);
		s->residual_s = fmax(s->residual_s, clock_residual(m, &check)); /* m: the identity */
	}
	return rc;
}

/* A rank but 0: its turn, its model updated, its figures in *s. */
static int sync_rank(MPI_Comm comm, struct clock_model *m, struct rank_stats *s)
{
	struct clock_point pts[CLOCK_SYNC_ROUNDS], est, check;
	int rc = wait_turn(comm);
	for (int i = 0; i < CLOCK_SYNC_ROUNDS && rc == MPI_SUCCESS; i++)
		rc = round_best(comm, &pts[i]);
	if (rc == MPI_SUCCESS && clock_burst(pts, CLOCK_SYNC_ROUNDS, &est) != 0)
		rc = MPI_ERR_NO_MEM;
	if (rc != MPI_SUCCESS)
		return rc;
	clock_model_update(m, &est, CLOCK_MIN_DRIFT_SPAN_S, &s->jump_s);
	s->rtt_s = est.rtt_s;
	s->offset_s = est.offset_s;
	s->drift = m->drift;
	s->residual_s = 0;
	for (int i = 0; i < CLOCK_SYNC_CHECKS && rc == MPI_SUCCESS; i++) {
		rc = round_best(comm, &check);
		s->residual_s = fmax(s->residual_s, clock_residual(m, &check));
	}
	return rc;
}

static void summarize(const struct rank_stats *all, int nranks, double t0,
                      struct clock_sync_stats *out)
{
	*out = (struct clock_sync_stats){.jump_us = NAN};
	for (int r = 1; r < nranks; r++) {
		out->shared_ranks += all[r].shared;
		out->measured_ranks += all[r].measured;
		out->error_us = fmax(out->error_us, all[r].residual_s * 1e6);
		out->bound_us = fmax(out->bound_us, all[r].rtt_s / 2 * 1e6);
		out->max_offset_us = fmax(out->max_offset_us, fabs(all[r].offset_s) * 1e6);
		out->max_drift_ppm = fmax(out->max_drift_ppm, fabs(all[r].drift) * 1e6);
		if (!isnan(all[r].jump_s))
			out->jump_us = isnan(out->jump_us) ? all[r].jump_s * 1e6
			                                   : fmax(out->jump_us, all[r].jump_s * 1e6);
	}
	out->shared_ranks++; /* rank 0 itself */
	out->duration_us = (clock_local_s() - t0) * 1e6;
}

/*
 * Every rank: how it learns its model. The ranks are grouped by clock: a
 * group's first rank is measured (or, in rank 0's group, reads rank 0's
 * clock), and the others, which read its very clock, take its model. The
 * group's colour is a hash of the clock's id, so each member checks the id
 * itself: one that differs is measured on its own.
 */
enum clock_role { ROLE_REFERENCE, ROLE_SHARED, ROLE_MEASURED, ROLE_FOLLOWER };

static unsigned id_hash(const char *id)
{
	unsigned h = 2166136261u; /* FNV-1a */
	for (int i = 0; i < CLOCK_ID_BYTES; i++)
		h = (h ^ (unsigned char)id[i]) * 16777619u;
	return h;
}

static int clock_role(MPI_Comm comm, int rank, MPI_Comm *group, enum clock_role *role)
{
	char mine[CLOCK_ID_BYTES], ref[CLOCK_ID_BYTES], lead[CLOCK_ID_BYTES];
	clock_id(mine);
	memcpy(ref, mine, sizeof ref);
	int rc = MPI_Bcast(ref, CLOCK_ID_BYTES, MPI_CHAR, 0, comm);
	/* a clock that cannot be named is a group of its own */
	int colour = mine[0] ? (int)(id_hash(mine) & 0x3fffffff) : MPI_UNDEFINED, grank = 0;
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_split(comm, colour, rank, group);
	memcpy(lead, mine, sizeof lead);
	if (rc == MPI_SUCCESS && *group != MPI_COMM_NULL)
		rc = MPI_Comm_rank(*group, &grank);
	if (rc == MPI_SUCCESS && *group != MPI_COMM_NULL)
		rc = MPI_Bcast(lead, CLOCK_ID_BYTES, MPI_CHAR, 0, *group);
	*role = rank == 0                                                ? ROLE_REFERENCE
	        : mine[0] && memcmp(ref, mine, CLOCK_ID_BYTES) == 0      ? ROLE_SHARED
	        : grank > 0 && memcmp(lead, mine, CLOCK_ID_BYTES) == 0 ? ROLE_FOLLOWER
	                                                                 : ROLE_MEASURED;
	return rc;
}

/* Rank 0: every rank that pings, in turn (pings[r], gathered from all). */
static int serve_all(MPI_Comm comm, int nranks, int pinger)
{
	int *pings = malloc((size_t)nranks * sizeof *pings), ok = pings != NULL;
	int rc = MPI_Bcast(&ok, 1, MPI_INT, 0, comm); /* the others are in the gather too */
	if (rc == MPI_SUCCESS && !ok)
		return MPI_ERR_NO_MEM;
	if (rc == MPI_SUCCESS)
		rc = MPI_Gather(&pinger, 1, MPI_INT, pings, 1, MPI_INT, 0, comm);
	for (int r = 1; r < nranks && rc == MPI_SUCCESS; r++)
		if (pings[r])
			rc = serve(comm, r, (CLOCK_SYNC_ROUNDS + CLOCK_SYNC_CHECKS) * CLOCK_SYNC_PINGS);
	free(pings);
	return rc;
}

/* A rank but 0: whether it pings, to rank 0's gather. */
static int announce(MPI_Comm comm, int pinger)
{
	int ok, rc = MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
	if (rc == MPI_SUCCESS && !ok)
		return MPI_ERR_NO_MEM;
	return rc == MPI_SUCCESS ? MPI_Gather(&pinger, 1, MPI_INT, NULL, 0, MPI_INT, 0, comm) : rc;
}

/* Every rank: its model learnt as its role says; a follower's from its group's first rank. */
static int learn(MPI_Comm comm, int rank, int nranks, enum clock_role role, MPI_Comm group,
                 struct clock_model *m, struct rank_stats *mine)
{
	int pinger = role == ROLE_SHARED || role == ROLE_MEASURED;
	int rc = rank == 0 ? serve_all(comm, nranks, pinger) : announce(comm, pinger);
	if (rc == MPI_SUCCESS && role == ROLE_REFERENCE)
		m->syncs++;
	else if (rc == MPI_SUCCESS && pinger)
		rc = role == ROLE_SHARED ? check_shared(comm, m, mine) : sync_rank(comm, m, mine);
	/*
	 * The first rank of every group hands its model and figures to the rest,
	 * and its status: whatever happened, every member takes part, so none is
	 * left waiting in the group.
	 */
	struct {
		struct clock_model m;
		struct rank_stats s;
		int rc;
	} lead = {*m, *mine, rc};
	MPI_Request req;
	int brc = group != MPI_COMM_NULL
	              ? nap_until(MPI_Ibcast(&lead, sizeof lead, MPI_BYTE, 0, group, &req), &req)
	              : MPI_SUCCESS;
	if (rc == MPI_SUCCESS)
		rc = brc != MPI_SUCCESS ? brc : role == ROLE_FOLLOWER ? lead.rc : MPI_SUCCESS;
	if (rc == MPI_SUCCESS && role == ROLE_FOLLOWER) {
		*m = lead.m;
		*mine = lead.s;
	}
	mine->measured = role == ROLE_MEASURED;
	return rc;
}

int clock_sync_run(MPI_Comm comm, int rank, int nranks, struct clock_model *m,
                   struct clock_sync_stats *out)
{
	struct rank_stats mine = {.jump_s = NAN}, *all = NULL;
	double t0 = clock_local_s();
	MPI_Comm group = MPI_COMM_NULL;
	enum clock_role role;
	int rc = clock_role(comm, rank, &group, &role);
	if (rc == MPI_SUCCESS)
		rc = learn(comm, rank, nranks, role, group, m, &mine);
	if (group != MPI_COMM_NULL)
		MPI_Comm_free(&group);
	/* everyone learns of a failure before the gather */
	int failed = rc != MPI_SUCCESS, worst = failed;
	int any = MPI_Allreduce(&failed, &worst, 1, MPI_INT, MPI_MAX, comm);
	if (rc == MPI_SUCCESS && (any != MPI_SUCCESS || worst))
		rc = any != MPI_SUCCESS ? any : MPI_ERR_OTHER;
	if (rc != MPI_SUCCESS)
		return rc;
	if (rank == 0 && !(all = calloc((size_t)nranks, sizeof *all)))
		rc = MPI_ERR_NO_MEM;
	/* rank 0's failure to allocate must not leave the others in the gather alone */
	int nomem = rc != MPI_SUCCESS;
	if (MPI_Bcast(&nomem, 1, MPI_INT, 0, comm) != MPI_SUCCESS || nomem) {
		free(all);
		return rc != MPI_SUCCESS ? rc : MPI_ERR_NO_MEM;
	}
	rc = MPI_Gather(&mine, sizeof mine, MPI_BYTE, all, sizeof mine, MPI_BYTE, 0, comm);
	if (rc == MPI_SUCCESS && rank == 0)
		summarize(all, nranks, t0, out);
	free(all);
	return rc;
}
