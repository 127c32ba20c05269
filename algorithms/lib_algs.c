/* See lib_algs.h. */
#include <mpi.h>

#include "algorithms/lib_algs.h"
#include "algorithms/lib_alg_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OMPI_VARIABLE   "coll_tuned_allreduce_algorithm"
#define OMPI_DYNAMIC    "coll_tuned_use_dynamic_rules"
#define OMPI_DYNAMIC_ENV "OMPI_MCA_" OMPI_DYNAMIC
#define MPICH_VARIABLE  "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM"
/* on (MPICH's default), the device's own all-reduce runs and ignores MPICH_VARIABLE */
#define MPICH_DEVICE    "MPIR_CVAR_ALLREDUCE_DEVICE_COLLECTIVE"
#define MPICH_RULES_ENV "MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE"

void lib_algs_prepare(const char *rules)
{
#ifdef MPICH_VERSION
	/* MPICH's own selection reads the file; the device's all-reduce stays on, as in
	 * a job (Debian's 4.0 with ch4:ucx hands its all-reduce to that selection) */
	if (rules)
		setenv(MPICH_RULES_ENV, rules, 1);
#else
	/* the user's own setting wins: tune then reports that nothing can be forced */
	setenv(OMPI_DYNAMIC_ENV, "1", rules != NULL);
	if (rules)
		setenv("OMPI_MCA_coll_tuned_dynamic_rules_filename", rules, 1);
#endif
}

bool lib_algs_rules_json(void)
{
#ifdef MPICH_VERSION
	return true;
#else
	return false;
#endif
}

/* The MPI_T index of control variable name, or -1; desc (len bytes) its description. */
static int find_cvar_desc(const char *name, MPI_T_enum *e, char *desc, int len)
{
	int n = 0;
	if (MPI_T_cvar_get_num(&n) != MPI_SUCCESS)
		return -1;
	for (int i = 0; i < n; i++) {
		char got[256];
		int got_len = sizeof got, desc_len = len, verbosity, bind, scope;
		MPI_Datatype type;
		if (MPI_T_cvar_get_info(i, got, &got_len, &verbosity, &type, e, desc, &desc_len, &bind,
		                        &scope) == MPI_SUCCESS &&
		    strcmp(got, name) == 0)
			return i;
	}
	return -1;
}

static int find_cvar(const char *name, MPI_T_enum *e)
{
	char desc[8];
	return find_cvar_desc(name, e, desc, sizeof desc);
}

/* An int control variable's value (0 when it cannot be read). */
static int read_int(int index)
{
	MPI_T_cvar_handle h;
	int count = 0, value = 0;
	if (MPI_T_cvar_handle_alloc(index, NULL, &h, &count) != MPI_SUCCESS)
		return 0;
	if (count != 1 || MPI_T_cvar_read(h, &value) != MPI_SUCCESS)
		value = 0;
	MPI_T_cvar_handle_free(&h);
	return value;
}

/* The enum's items: value 0 is the library's decision, "default" here. */
static void add_items(struct lib_algs *l, MPI_T_enum e)
{
	int items = 0;
	char enum_name[64];
	int enum_len = sizeof enum_name;
	l->n = 1;
	l->value[0] = 0;
	snprintf(l->name[0], sizeof l->name[0], "default");
	if (MPI_T_enum_get_info(e, &items, enum_name, &enum_len) != MPI_SUCCESS)
		return;
	for (int k = 0; k < items && l->n < LIB_ALGS_MAX; k++) {
		char item[LIB_ALG_NAME_BYTES];
		int value, len = sizeof item;
		if (MPI_T_enum_get_item(e, k, &value, item, &len) != MPI_SUCCESS || value == 0)
			continue;
		l->value[l->n] = value;
		snprintf(l->name[l->n++], LIB_ALG_NAME_BYTES, "%s", item);
	}
}

/* A handle on control variable index (one int); MPI error code. */
static int handle_of(int index, MPI_T_cvar_handle *h)
{
	int count = 0;
	int rc = MPI_T_cvar_handle_alloc(index, NULL, h, &count);
	if (rc == MPI_SUCCESS && count != 1) {
		MPI_T_cvar_handle_free(h);
		return MPI_ERR_OTHER;
	}
	return rc;
}

/*
 * MPICH: the algorithms named in MPICH_VARIABLE's description, value k the
 * k-th (lib_alg_names.h); forced with the device's all-reduce turned off.
 */
static int open_mpich(struct lib_algs *l, int index, const char *desc)
{
	char names[LIB_ALGS_MAX][48];
	MPI_T_enum e;
	int n = lib_alg_names_parse(desc, names, LIB_ALGS_MAX);
	if (n < 2) {
		l->why = MPICH_VARIABLE "'s description lists no algorithms collscope can read";
		return MPI_SUCCESS;
	}
	if (read_int(index) != 0) {
		l->why = MPICH_VARIABLE " is set already (the environment's choice stands)";
		return MPI_SUCCESS;
	}
	int device = find_cvar(MPICH_DEVICE, &e);
	int rc = handle_of(index, &l->handle);
	if (rc == MPI_SUCCESS && device >= 0) {
		l->device_on = read_int(device);
		rc = handle_of(device, &l->device);
		if (rc != MPI_SUCCESS)
			MPI_T_cvar_handle_free(&l->handle);
	}
	if (rc != MPI_SUCCESS) {
		l->why = "cannot write " MPICH_VARIABLE;
		return rc;
	}
	l->has_device = device >= 0;
	l->mpich = true;
	snprintf(l->variable, sizeof l->variable, "%s", MPICH_VARIABLE);
	for (int k = 1; k < n; k++) {
		l->value[l->n] = k;
		snprintf(l->name[l->n++], LIB_ALG_NAME_BYTES, "%s", names[k]);
	}
	return MPI_SUCCESS;
}

int lib_algs_open(struct lib_algs *l)
{
	int provided;
	MPI_T_enum e = MPI_T_ENUM_NULL, ignored;
	*l = (struct lib_algs){.n = 1, .index = -1, .value = {0}};
	snprintf(l->name[0], sizeof l->name[0], "default");
	int rc = MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
	if (rc != MPI_SUCCESS) {
		l->why = "the MPI tool interface (MPI_T) did not start";
		return rc;
	}
	l->mpi_t = true;
	l->index = find_cvar(OMPI_VARIABLE, &e);
	if (l->index < 0) {
		char desc[4096]; /* its values' names: found with it in one pass over the variables */
		l->index = find_cvar_desc(MPICH_VARIABLE, &ignored, desc, sizeof desc);
		if (l->index >= 0)
			return open_mpich(l, l->index, desc);
		l->why = "this MPI library has no control variable that forces its all-reduce "
		         "algorithm (Open MPI's " OMPI_VARIABLE ", MPICH's " MPICH_VARIABLE ")";
		return MPI_SUCCESS;
	}
	int dynamic = find_cvar(OMPI_DYNAMIC, &ignored);
	if (dynamic < 0 || !read_int(dynamic)) {
		l->why = OMPI_DYNAMIC " is off (" OMPI_DYNAMIC_ENV "=0?): Open MPI ignores a "
		         "forced algorithm without it";
		return MPI_SUCCESS;
	}
	if (e == MPI_T_ENUM_NULL) {
		l->why = OMPI_VARIABLE " names no algorithms";
		return MPI_SUCCESS;
	}
	int count = 0;
	rc = MPI_T_cvar_handle_alloc(l->index, NULL, &l->handle, &count);
	if (rc != MPI_SUCCESS || count != 1) {
		l->why = "cannot write " OMPI_VARIABLE;
		return rc != MPI_SUCCESS ? rc : MPI_ERR_OTHER;
	}
	snprintf(l->variable, sizeof l->variable, "%s", OMPI_VARIABLE);
	add_items(l, e);
	if (l->n <= 1)
		l->why = OMPI_VARIABLE " names no algorithms";
	return MPI_SUCCESS;
}

int lib_algs_force(struct lib_algs *l, int k)
{
	if (k < 0 || k >= l->n)
		return MPI_ERR_ARG;
	if (!l->variable[0])
		return k == 0 ? MPI_SUCCESS : MPI_ERR_ARG;
	int value = l->value[k];
	if (l->has_device) {
		/* the library's decision is the device's; a forced algorithm is MPICH's own */
		int device = k == 0 ? l->device_on : 0;
		int rc = MPI_T_cvar_write(l->device, &device);
		if (rc != MPI_SUCCESS)
			return rc;
	}
	return MPI_T_cvar_write(l->handle, &value);
}

int lib_algs_find(const struct lib_algs *l, const char *name)
{
	for (int k = 0; k < l->n; k++)
		if (strcmp(l->name[k], name) == 0)
			return k;
	return -1;
}

void lib_algs_close(struct lib_algs *l)
{
	if (l->variable[0])
		MPI_T_cvar_handle_free(&l->handle);
	if (l->has_device)
		MPI_T_cvar_handle_free(&l->device);
	l->has_device = false;
	l->variable[0] = '\0';
	if (l->mpi_t)
		MPI_T_finalize();
	l->mpi_t = false;
}
