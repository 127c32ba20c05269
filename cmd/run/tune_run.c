/* See tune_run.h. */
#include <mpi.h>

#include "cmd/run/run.h"
#include "cmd/tune_opts.h"
#include "reports/io/report_schema.h"
#include "reports/io/scale_report.h"
#include "reports/tune/rules_mpich.h"


#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

static bool heap_held;       /* --heap steady took effect */
static const char *heap_env; /* or the environment's variable that rules instead */

/* Whether the file at path is JSON (its first character '{'); false when unreadable. */
static bool file_is_json(const char *path)
{
	FILE *f = fopen(path, "r");
	int c = ' ';
	while (f && (c = fgetc(f)) != EOF && isspace(c))
		;
	if (f)
		fclose(f);
	return c == '{';
}

int tune_prepare(const void *opts, char *err, size_t len)
{
	const struct tune_opts *o = opts;
	/* MPICH aborts MPI_Init on a file it cannot parse, Open MPI ignores one quietly */
	bool json = o->prove && file_is_json(o->prove);
	if (o->prove && json != lib_algs_rules_json()) {
		snprintf(err, len, "tune: --prove '%s' is %s, and this build's library reads %s",
		         o->prove, json ? "MPICH's JSON" : "not JSON",
		         lib_algs_rules_json() ? "MPICH's selection JSON"
		                               : "Open MPI's classic rules");
		return EXIT_USAGE;
	}
	lib_algs_prepare(o->prove);
	heap_env = NULL;
	heap_held = o->heap == TUNE_HEAP_STEADY && heap_hold_steady(&heap_env);
	return EXIT_OK;
}

int tune_library_tree(cJSON **tree, char *err, size_t len)
{
	Dl_info info;
	struct stat st;
	*tree = NULL;
	if (!dladdr((void *)MPI_Init, &info) || !info.dli_fname) {
		snprintf(err, len, "cannot find the MPI library's file");
		return -1;
	}
	int fd = open(info.dli_fname, O_RDONLY);
	void *image = fd < 0 || fstat(fd, &st) != 0 ? MAP_FAILED
	              : mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (fd >= 0)
		close(fd);
	if (image == MAP_FAILED) {
		snprintf(err, len, "cannot read '%s': %s", info.dli_fname, strerror(errno));
		return -1;
	}
	/* the built-in tree is a string in the library's data: read in place, never copied */
	int rc = rules_mpich_find_default(image, (size_t)st.st_size, tree, err, len);
	munmap(image, (size_t)st.st_size);
	return rc;
}

bool tune_heap_state(const char **env_name)
{
	*env_name = heap_env;
	return heap_held;
}

/* sweep_point_fn (rank 0): the point's samples kept, its record named and marked. */
static int on_point(void *arg, int v, const struct ar_record *r, const struct bench_result *br,
                    cJSON *rec)
{
	struct tune_run *t = arg;
	if (t->nsets == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		struct tune_kept *more = realloc(t->sets, cap * sizeof *more);
		if (!more)
			return -1;
		t->sets = more;
		t->cap = cap;
	}
	struct tune_kept *set = &t->sets[t->nsets];
	*set = (struct tune_kept){.consistency = t->consistency,
	                          .confirmation = t->confirmation,
	                          .variant = v,
	                          .ranks = r->ranks,
	                         .bytes = r->bytes,
	                         .alg = t->current,
	                         .alg_name = t->lib.name[t->current],
	                         .skipped = !br || r->skipped};
	if (br && br->iterations > 0) {
		set->samples_us = malloc((size_t)br->iterations * sizeof *set->samples_us);
		if (!set->samples_us)
			return -1;
		memcpy(set->samples_us, t->sweep.bufs.max_us,
		       (size_t)br->iterations * sizeof *set->samples_us);
		set->nsamples = (size_t)br->iterations;
		set->wrong = br->wrong;
		t->wrong += br->wrong;
	}
	t->nsets++;
	/* the yardstick burst before the point; compare reads the one after it too */
	if (rec && t->yard.nsamples &&
	    !cJSON_AddNumberToObject(rec, SK_AR_YARDSTICK_BURST, (double)(t->yard.nsamples - 1)))
		return -1;
	if (t->consistency)
		return 0;
	return cJSON_AddStringToObject(rec, SK_TUNE_LIBRARY_ALGORITHM, set->alg_name) &&
	               cJSON_AddNumberToObject(rec, SK_TUNE_LIBRARY_VALUE,
	                                       t->lib.value[t->current]) &&
	               cJSON_AddBoolToObject(rec, SK_TUNE_CONFIRMATION, t->confirmation)
	           ? 0
	           : -1;
}

struct tune_set *tune_run_sets(const struct tune_run *t, bool confirmation, int ranks, size_t *n)
{
	struct tune_set *sets = calloc(t->nsets + 1, sizeof *sets);
	*n = 0;
	for (size_t i = 0; sets && i < t->nsets; i++) {
		const struct tune_kept *k = &t->sets[i];
		if (!k->consistency && k->confirmation == confirmation &&
		    (ranks <= 0 || k->ranks == ranks))
			sets[(*n)++] = (struct tune_set){.ranks = k->ranks,
			                                 .bytes = k->bytes,
			                                 .alg = t->lib.value[k->alg],
			                                 .alg_name = k->alg_name,
			                                 .samples_us = k->samples_us,
			                                 .nsamples = k->skipped ? 0 : k->nsamples,
			                                 .wrong = k->wrong > 0};
	}
	return sets;
}

/* The positions to measure: the library's decision, then every one asked for. */
static int pick_algorithms(struct tune_run *t)
{
	const struct tune_opts *o = t->o;
	t->nalgs = 0;
	t->algs[t->nalgs++] = 0;
	for (int k = 1; o->nnames == 0 && !o->prove && k < t->lib.n; k++)
		t->algs[t->nalgs++] = k;
	for (int i = 0; i < o->nnames; i++) {
		int k = lib_algs_find(&t->lib, o->names[i]);
		if (k < 0) {
			char list[LIB_ALGS_MAX * LIB_ALG_NAME_BYTES] = "";
			size_t used = 0;
			for (int j = 1; j < t->lib.n && used < sizeof list; j++)
				used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
				                         j > 1 ? ", " : "", t->lib.name[j]);
			cmd_error(t->sweep.ctx,
			          "tune: unknown --library-algorithms '%s' (this library offers: %s)",
			          o->names[i], t->lib.n > 1 ? list : "none");
			return EXIT_USAGE;
		}
		if (k > 0)
			t->algs[t->nalgs++] = k;
	}
	for (int k = 0; k < t->lib.n; k++) {
		snprintf(t->labels[k], sizeof t->labels[k], "mpi/%s", t->lib.name[k]);
		snprintf(t->confirm_labels[k], sizeof t->confirm_labels[k], "mpi/%s/confirm",
		         t->lib.name[k]);
	}
	return EXIT_OK;
}

int tune_run_begin(struct tune_run *t, struct cmd_ctx *ctx, const struct tune_opts *o)
{
	char msg[MPI_MAX_ERROR_STRING];
	*t = (struct tune_run){.o = o};
	sweep_init(&t->sweep, ctx, "tune", &o->sweep, false, o->out.quiet);
	sweep_yardstick_init(&t->yard);
	t->sweep.yard = &t->yard;
	t->sweep.on_point = on_point;
	t->sweep.on_point_arg = t;
	int rc = lib_algs_open(&t->lib);
	if (run_any(ctx, rc != MPI_SUCCESS)) {
		cmd_error(ctx, "tune: %s: %s", t->lib.why ? t->lib.why : "MPI_T",
		          run_mpi_error_text(rc, msg, sizeof msg));
		return EXIT_RUNTIME;
	}
	int status = run_check_output(ctx, "tune", &o->out);
	/* --rules is written after the whole sweep: a file in its way is found now */
	struct cmd_out rules = {.output = o->rules, .force = o->out.force};
	if (status == EXIT_OK && o->rules)
		status = run_check_output(ctx, "tune: --rules", &rules);
	if (status == EXIT_OK)
		status = pick_algorithms(t);
	if (status == EXIT_OK && t->lib.n <= 1 && o->rules) {
		cmd_error(ctx, "tune: --rules '%s' not written: nothing was forced (%s)", o->rules,
		          t->lib.why);
		return EXIT_USAGE;
	}
	if (status == EXIT_OK && t->lib.n <= 1 && !o->prove)
		cmd_error(ctx, "tune: nothing to force: %s; measuring the library's own decision",
		          t->lib.why);
	int mpi = ar_variant_index(ar_variant_find("mpi")), ncons = 0;
	t->lib_variants[mpi] = true;
	for (int v = 0; ar_variants[v]; v++)
		ncons += t->cons_variants[v] = o->sweep.variants[v] && !o->prove;
	int points = (o->nranks * t->nalgs + ncons) * o->sweep.nsizes;
	if (status == EXIT_OK)
		status = sweep_setup(&t->sweep, points);
	if (status == EXIT_OK)
		status = sweep_begin(&t->sweep, &tune_spec, o, &o->out, o->timeout_s);
	if (status != EXIT_OK)
		return status;
	bool failed = !(t->order = calloc((size_t)ctx->nranks, sizeof *t->order)) ||
	              scale_placement_order(t->sweep.map.host_of_rank, ctx->nranks,
	                                    t->sweep.map.nhosts, false, t->order) != 0;
	if (run_any(ctx, failed)) {
		cmd_error(ctx, "tune: out of memory for the placement order");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/* Position k forced on every rank, then measured on the first n ranks; an exit code. */
static int measure_alg(struct tune_run *t, int k, int n, int hosts)
{
	char msg[MPI_MAX_ERROR_STRING];
	t->current = k;
	/* forced on every rank before the communicator is made: it reads it then */
	int rc = lib_algs_force(&t->lib, k);
	if (run_any(t->sweep.ctx, rc != MPI_SUCCESS)) {
		cmd_error(t->sweep.ctx, "tune: cannot force %s: %s", t->labels[k],
		          run_mpi_error_text(rc, msg, sizeof msg));
		return EXIT_RUNTIME;
	}
	t->sweep.label = t->confirmation ? t->confirm_labels[k] : t->labels[k];
	return sweep_on_first_ranks_of(&t->sweep, t->order, n, hosts, t->lib_variants);
}

/*
 * Rank 0's decision at n ranks so far, as the positions in lib it chose
 * anywhere (bit k), agreed by every rank; -1 on rank 0 when it could not decide.
 */
static int chosen_positions(struct tune_run *t, int n, unsigned *mask)
{
	*mask = 0;
	int failed = 0;
	if (t->sweep.ctx->rank == 0) {
		char err[256];
		size_t nsets = 0, nc = 0;
		struct tune_set *sets = tune_run_sets(t, false, n, &nsets);
		struct tune_choice *c = calloc(nsets + 1, sizeof *c);
		failed = !sets || !c || tune_decide(sets, nsets, NULL, c, &nc, err, sizeof err) != 0;
		for (size_t i = 0; !failed && i < nc; i++)
			for (int k = 1; c[i].changed && k < t->lib.n; k++)
				if (t->lib.value[k] == c[i].alg)
					*mask |= 1u << k;
		free(sets);
		free(c);
	}
	unsigned word[2] = {*mask, (unsigned)failed};
	int rc = MPI_Bcast(word, 2, MPI_UNSIGNED, 0, t->sweep.ctx->comm);
	*mask = word[0];
	return rc == MPI_SUCCESS && !word[1] ? 0 : -1;
}

/* The choices at n ranks measured again, beside the library's decision (tune_confirm). */
static int confirm_choices(struct tune_run *t, int n, int hosts)
{
	unsigned mask;
	if (chosen_positions(t, n, &mask) != 0) {
		cmd_error(t->sweep.ctx, "tune: cannot decide at %d ranks (out of memory)", n);
		return EXIT_RUNTIME;
	}
	int status = EXIT_OK;
	t->confirmation = true;
	/* in the reverse order of the first measurement (the default last): a drift of the
	 * machine's speed through the run then favours neither side twice */
	for (int k = t->lib.n - 1; mask && k >= 0 && status == EXIT_OK; k--)
		if (k == 0 || (mask & (1u << k)))
			status = measure_alg(t, k, n, hosts);
	t->confirmation = false;
	return status;
}

int tune_run_measure(struct tune_run *t)
{
	char msg[MPI_MAX_ERROR_STRING];
	int status = EXIT_OK;
	for (int i = 0; i < t->o->nranks && status == EXIT_OK; i++) {
		int n = t->o->ranks[i];
		int hosts = scale_hosts_spanned(t->sweep.map.host_of_rank, t->order, n);
		for (int a = 0; a < t->nalgs && status == EXIT_OK; a++)
			status = measure_alg(t, t->algs[a], n, hosts);
		if (status == EXIT_OK && !t->o->prove)
			status = confirm_choices(t, n, hosts);
	}
	t->sweep.label = NULL;
	t->current = 0;
	int rc = lib_algs_force(&t->lib, 0);
	if (status == EXIT_OK && run_any(t->sweep.ctx, rc != MPI_SUCCESS)) {
		cmd_error(t->sweep.ctx, "tune: cannot restore the library's decision: %s",
		          run_mpi_error_text(rc, msg, sizeof msg));
		return EXIT_RUNTIME;
	}
	/* the self-consistency: the whole job, the library's decision beside its guidelines */
	int world = t->sweep.ctx->nranks;
	t->consistency = true;
	if (status == EXIT_OK && !t->o->prove)
		status = sweep_on_first_ranks_of(
		    &t->sweep, t->order, world,
		    scale_hosts_spanned(t->sweep.map.host_of_rank, t->order, world), t->cons_variants);
	t->consistency = false;
	const struct sweep_comm whole = sweep_comm_whole(&t->sweep);
	if (status == EXIT_OK) /* the burst after the last point */
		status = sweep_yardstick_measure(&t->sweep, &t->yard, &whole);
	return status;
}

void tune_run_release(struct tune_run *t)
{
	lib_algs_force(&t->lib, 0);
	lib_algs_close(&t->lib);
	sweep_yardstick_release(&t->yard);
	sweep_release(&t->sweep);
	for (size_t i = 0; i < t->nsets; i++)
		free(t->sets[i].samples_us);
	free(t->sets);
	free(t->order);
	t->sets = NULL;
	t->order = NULL;
}
