/*
 * The library's control variables through the MPI tool information
 * interface, and the hosts' CPU model and kernel (see mpit.h).
 *
 * MPI_T may be initialised and finalised any number of times, also after
 * MPI_Init: this module opens its own session and closes it again, so
 * nothing else in the process sees it.
 */
#include <mpi.h>

#include "probes/mpit.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CVAR_VALUE_BYTES 4096 /* Open MPI reports its strings as 2048 chars */

/* One variable's value into v; false when it has a type or binding not kept here. */
static bool read_value(int index, MPI_Datatype type, int bind, struct ctx_cvar *v)
{
	union {
		int i;
		unsigned u;
		unsigned long ul;
		unsigned long long ull;
		MPI_Count count;
		double d;
		bool b;
		char text[CVAR_VALUE_BYTES];
	} buf;
	MPI_T_cvar_handle handle;
	int count = 0;
	bool ok;

	/* every variable an all-reduce's choice depends on is global; per-object ones are skipped
	 */
	if (bind != MPI_T_BIND_NO_OBJECT ||
	    MPI_T_cvar_handle_alloc(index, NULL, &handle, &count) != MPI_SUCCESS)
		return false;
	memset(&buf, 0, sizeof buf);
	ok = (type == MPI_CHAR ? count < CVAR_VALUE_BYTES : count == 1) &&
	     MPI_T_cvar_read(handle, &buf) == MPI_SUCCESS;
	MPI_T_cvar_handle_free(&handle);
	if (!ok)
		return false;
	v->kind = CTX_CVAR_NUMBER;
	if (type == MPI_CHAR) {
		v->kind = CTX_CVAR_STRING;
		/* a longer value is cut: a component list that long is still told apart */
		size_t len = strnlen(buf.text, sizeof v->text - 1);
		memcpy(v->text, buf.text, len);
		v->text[len] = '\0';
	} else if (type == MPI_C_BOOL) {
		v->kind = CTX_CVAR_BOOL;
		v->flag = buf.b;
	} else if (type == MPI_INT) {
		v->number = buf.i;
	} else if (type == MPI_UNSIGNED) {
		v->number = buf.u;
	} else if (type == MPI_UNSIGNED_LONG) {
		v->number = (double)buf.ul;
	} else if (type == MPI_UNSIGNED_LONG_LONG) {
		v->number = (double)buf.ull;
	} else if (type == MPI_COUNT) {
		v->number = (double)buf.count;
	} else if (type == MPI_DOUBLE) {
		v->number = buf.d;
	} else {
		return false;
	}
	return true;
}

/*
 * The tool interface, opened on the first capture and left open: MPICH 4.0
 * crashed in MPI_T_cvar_get_num when it was opened again after
 * MPI_T_finalize within MPI_Init's lifetime, which a second capture in one
 * process does (watch captures once, then its every links round again).
 */
static bool mpit_open(void)
{
	static int state; /* 0 not tried, 1 open, -1 unavailable */
	int provided;
	if (state == 0)
		state = MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS ? 1 : -1;
	return state == 1;
}

/* Rank 0: every wanted control variable in force; MPI_ERR_NO_MEM, else MPI_SUCCESS. */
static int read_cvars(struct report_context *c)
{
	int n = 0, rc = MPI_SUCCESS;

	if (!mpit_open())
		return MPI_SUCCESS; /* no tool interface: nothing to record */
	if (MPI_T_cvar_get_num(&n) != MPI_SUCCESS)
		n = 0;
	for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
		struct ctx_cvar v;
		char desc[8];
		int name_len = (int)sizeof v.name, desc_len = (int)sizeof desc;
		int verbosity, bind, scope;
		MPI_Datatype type;
		MPI_T_enum enumtype;

		memset(&v, 0, sizeof v);
		if (MPI_T_cvar_get_info(i, v.name, &name_len, &verbosity, &type, &enumtype, desc,
		                        &desc_len, &bind, &scope) != MPI_SUCCESS)
			continue;
		v.name[sizeof v.name - 1] = '\0';
		if (!report_cvar_wanted(v.name) || !read_value(i, type, bind, &v))
			continue;
		if (report_context_add_cvar(c, &v) != 0)
			rc = MPI_ERR_NO_MEM;
	}
	return rc;
}

struct host_facts {
	char cpu_model[CTX_NAME_BYTES];
	char kernel[CTX_NAME_BYTES];
};

/* Rank 0: each host's facts from the first of its ranks. */
static void fill_hosts(struct report_context *c, const struct host_facts *all)
{
	for (int h = 0; h < c->nhosts; h++) {
		struct ctx_host *ho = &c->hosts[h];
		if (ho->nranks < 1 || ho->ranks[0] < 0 || ho->ranks[0] >= c->nranks)
			continue;
		snprintf(ho->cpu_model, sizeof ho->cpu_model, "%s", all[ho->ranks[0]].cpu_model);
		snprintf(ho->kernel, sizeof ho->kernel, "%s", all[ho->ranks[0]].kernel);
	}
}

/* Every rank returns the worst code of any rank, so that none is left waiting. */
static int agree(MPI_Comm comm, int rc)
{
	int bad = rc != MPI_SUCCESS, any = bad;

	if (MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS)
		return rc != MPI_SUCCESS ? rc : MPI_ERR_OTHER;
	return any ? (rc != MPI_SUCCESS ? rc : MPI_ERR_OTHER) : MPI_SUCCESS;
}

int probe_mpit_fill_context(MPI_Comm comm, struct report_context *c)
{
	struct host_facts me, *all = NULL;
	int rank = 0, n = 1, rc;

	rc = MPI_Comm_rank(comm, &rank);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_size(comm, &n);
	if (rc != MPI_SUCCESS)
		return rc;
	memset(&me, 0, sizeof me);
	report_read_system(me.cpu_model, sizeof me.cpu_model, me.kernel, sizeof me.kernel);
	if (rank == 0 && !(all = calloc((size_t)n, sizeof *all)))
		rc = MPI_ERR_NO_MEM;
	rc = agree(comm, rc);
	if (rc == MPI_SUCCESS)
		rc = agree(comm, MPI_Gather(&me, (int)sizeof me, MPI_BYTE, all, (int)sizeof me,
		                            MPI_BYTE, 0, comm));
	if (rc == MPI_SUCCESS && rank == 0) {
		if (c->hosts)
			fill_hosts(c, all);
		rc = read_cvars(c);
	}
	rc = agree(comm, rc);
	free(all);
	return rc;
}
