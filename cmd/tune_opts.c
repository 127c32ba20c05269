/* Options of `collscope tune`: one table (cmd/opts.h). */
#include "cmd/tune_opts.h"
#include "cmd/opts_memory.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/variant.h"
#include "cmd/exit_codes.h"
#include "cmd/parse.h"

static int parse_ranks(const char *arg, void *base, const struct opt *o, char *why, size_t len)
{
	struct tune_opts *t = base;
	int scratch[TUNE_MAX_RANK_COUNTS], n;
	/* the values are checked once N is known; the list's shape now */
	int rc = opts_parse_int_list(arg, o->name, 2, INT32_MAX, scratch, TUNE_MAX_RANK_COUNTS, &n,
	                             why, len);
	if (rc == 0)
		t->ranks_arg = arg;
	return rc;
}

static bool echo_ranks(cJSON *cfg, const char *key, const void *base, const struct opt *o)
{
	const struct tune_opts *t = base;
	(void)o;
	return opts_echo_ints(cfg, key, t->ranks, t->nranks);
}

static int parse_names(const char *arg, void *base, const struct opt *o, char *why, size_t len)
{
	struct tune_opts *t = base;
	char *copy = strdup(arg), *items[TUNE_MAX_NAMES + 1];
	const char *reason = NULL;
	int k = copy ? parse_list(copy, items, TUNE_MAX_NAMES + 1, &reason) : -1;
	(void)o;
	if (k <= 0 || k > TUNE_MAX_NAMES) {
		snprintf(why, len, "%s", !copy ? "out of memory"
		                         : k > TUNE_MAX_NAMES ? "more than 16 names"
		                                              : reason);
		free(copy);
		return -1;
	}
	t->nnames = 0;
	for (int i = 0; i < k; i++) {
		if (strlen(items[i]) >= TUNE_NAME_BYTES) {
			snprintf(why, len, "'%s' is longer than %d characters", items[i],
			         TUNE_NAME_BYTES - 1);
			free(copy);
			return -1;
		}
		snprintf(t->names[t->nnames++], TUNE_NAME_BYTES, "%s", items[i]);
	}
	free(copy);
	return 0;
}

static bool echo_names(cJSON *cfg, const char *key, const void *base, const struct opt *o)
{
	const struct tune_opts *t = base;
	(void)o;
	if (t->nnames == 0)
		return cJSON_AddStringToObject(cfg, key, "all") != NULL;
	cJSON *a = cJSON_AddArrayToObject(cfg, key);
	for (int i = 0; a && i < t->nnames; i++)
		if (!cJSON_AddItemToArray(a, cJSON_CreateString(t->names[i])))
			return false;
	return a != NULL;
}

static const struct opt step_opt[] = {
    {.name = "step-factor",
     .letter = 'f',
     .kind = OPT_NUMBER,
     .offset = offsetof(struct sweep_opts, step_factor),
     .metavar = "X",
     .def = "4",
     .min = 1,
     .max = 1e6,
     .flags = OPT_MIN_OPEN,
     .key = "step_factor",
     .help = "size multiplier between points, > 1 ({default})"},
};

static const char *const heap_modes[] = {"steady", "as-is", NULL};

static const struct opt tune_only[] = {
    {.name = "ranks",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct tune_opts, ranks),
     .metavar = "LIST",
     .def_text = "2, 4, 8, ... below N, and N",
     .key = "ranks",
     .parse = parse_ranks,
     .echo = echo_ranks,
     .help = "rank counts, comma-separated, each from 2 to N: the\n"
             "library decides per communicator size"},
    {.name = "library-algorithms",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct tune_opts, names),
     .metavar = "LIST",
     .def = "all",
     .key = "library_algorithms",
     .parse = parse_names,
     .echo = echo_names,
     .help = "the library's algorithms to force, by its names (Open\n"
             "MPI: basic_linear, nonoverlapping, recursive_doubling,\n"
             "ring, segmented_ring, rabenseifner), or 'all'; its own\n"
             "decision is always measured beside them"},
    {.name = "rules",
     .kind = OPT_STRING,
     .offset = offsetof(struct tune_opts, rules),
     .metavar = "FILE",
     .key = "rules",
     .help = "write the decision for the library to FILE (atomically;\n"
             "--force replaces one): Open MPI's dynamic rules or MPICH's\n"
             "selection JSON (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE), the\n"
             "fastest algorithm per rank count and size range where it\n"
             "is significantly faster, the library's own elsewhere and\n"
             "outside the sizes measured"},
    {.name = "prove",
     .kind = OPT_STRING,
     .offset = offsetof(struct tune_opts, prove),
     .metavar = "RULES",
     .key = "prove",
     .help = "the library reads the rules file RULES at MPI_Init (tune's\n"
             "--rules wrote it; its format is refused unless this build's\n"
             "library reads it), and only its decision is measured,\n"
             "named mpi/default: `collscope compare` of the run without\n"
             "against this one proves the file (exit 1 on a regression)"},
    {.name = "heap",
     .kind = OPT_CHOICE,
     .offset = offsetof(struct tune_opts, heap),
     .metavar = "steady|as-is",
     .def = "steady",
     .choices = heap_modes,
     .key = "heap",
     .help = "steady: glibc's malloc thresholds fixed before MPI_Init\n"
             "(MALLOC_MMAP_THRESHOLD_=33554432, MALLOC_TRIM_THRESHOLD_=\n"
             "1073741824, unless the environment sets either), so the\n"
             "library's per-call scratch stays in the heap whatever ran\n"
             "before: each forced algorithm, the proof and a job that\n"
             "exports the same see the same allocator; as-is: glibc's\n"
             "adaptive thresholds, which depend on what the process freed"},
};

static const struct opt_group groups[] = {
    OPT_GROUP(opts_sweep_range, offsetof(struct tune_opts, sweep)),
    OPT_GROUP(step_opt, offsetof(struct tune_opts, sweep)),
    OPT_GROUP(tune_only, 0),
    OPT_GROUP(opts_sweep_points, offsetof(struct tune_opts, sweep)),
    OPT_GROUP(opts_sweep_data, offsetof(struct tune_opts, sweep)),
    OPT_GROUP(opts_sweep_timing, offsetof(struct tune_opts, sweep)),
    OPT_GROUP(opts_segment, offsetof(struct tune_opts, sweep.segment_bytes)),
    OPT_GROUP(opts_output, offsetof(struct tune_opts, out)),
    OPT_GROUP(opts_quiet, offsetof(struct tune_opts, out.quiet)),
    OPT_GROUP(opts_timeout, offsetof(struct tune_opts, timeout_s)),
    {NULL, 0, 0},
};

static int check(void *opts, char *err, size_t len)
{
	struct tune_opts *o = opts;
	struct sweep_opts *s = &o->sweep;
	/* "all" is the library's every algorithm, not a list of names */
	if (o->nnames == 1 && strcmp(o->names[0], "all") == 0)
		o->nnames = 0;
	if (o->prove) {
		FILE *f = fopen(o->prove, "r");
		if (!f) {
			snprintf(err, len, "tune: cannot read --prove '%s': %s", o->prove,
			         strerror(errno));
			return EXIT_USAGE;
		}
		fclose(f);
		if (o->rules) {
			snprintf(err, len, "tune: --prove measures a rules file, --rules writes one: "
			                   "give one of them");
			return EXIT_USAGE;
		}
		if (o->nnames) {
			snprintf(err, len, "tune: --prove measures the library's decision alone: "
			                   "leave out --library-algorithms");
			return EXIT_USAGE;
		}
	}
	/* mpi for the library's algorithms; beside it, for the self-consistency checks, the
	 * guideline mock-ups and every own variant (not with --prove: it measures a file) */
	for (int v = 0; ar_variants[v]; v++)
		s->variants[v] = !o->prove && (ar_variant_in_all(ar_variants[v]) ||
		                               ar_variants[v]->guideline);
	s->variants[ar_variant_index(ar_variant_find("mpi"))] = true;
	int status = sweep_sizes("tune", s, err, len);
	size_t w = ar_dtype_bytes(s->dtype);
	for (int i = 0; status == EXIT_OK && i < s->nsizes; i++)
		s->sizes[i] = s->sizes[i] < w ? w : s->sizes[i] / w * w;
	return status;
}

/* --ranks, or 2, 4, 8, ... below the world size and the world size. */
static int check_world(void *opts, int nranks, char *err, size_t len)
{
	struct tune_opts *o = opts;
	char why[512];
	if (nranks < 2) {
		snprintf(err, len, "tune: needs 2 ranks or more (the job has %d)", nranks);
		return EXIT_USAGE;
	}
	if (opts_rank_counts(o->ranks_arg, 2, nranks, o->ranks, TUNE_MAX_RANK_COUNTS, &o->nranks,
	                     why, sizeof why) != 0) {
		snprintf(err, len, "tune: %s (the job has %d ranks)", why, nranks);
		return EXIT_USAGE;
	}
	return opts_memory_check_sweep("tune", &o->sweep, nranks, err, len);
}

static bool echo(cJSON *cfg, const void *opts)
{
	const struct tune_opts *o = opts;
	return sweep_echo(cfg, &o->sweep) && cJSON_AddBoolToObject(cfg, "in_place", false);
}

const struct cmd_spec tune_spec = {
    .name = "tune",
    .synopsis = "mpirun -np N collscope tune [options]",
    .description =
        "Measures the MPI library's own all-reduce algorithms, each forced in turn through\n"
        "MPI_T (Open MPI's coll_tuned_allreduce_algorithm, read when a communicator is\n"
        "made; MPICH's MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM, with its device's all-reduce\n"
        "off), beside the library's own decision, on communicators of 2, 4, ... ranks and\n"
        "the whole job, at every size; verified as allreduce verifies. Records are named\n"
        "mpi/<algorithm> (mpi/default: the library's decision). Per rank count and size\n"
        "it keeps the decision unless a forced algorithm is faster by 1.05x or more at\n"
        "p < 0.01 (Mann-Whitney U), and faster again (p < 0.01) when the choices are\n"
        "measured a second time beside the decision, in the reverse order: a choice that\n"
        "is not reverts, named when the file would regress its point. --rules writes\n"
        "that as Open MPI's dynamic rules or\n"
        "MPICH's selection JSON, --prove measures such a file in effect. Then, on the\n"
        "whole job, MPI_Allreduce against\n"
        "MPI_Reduce + MPI_Bcast, MPI_Reduce_scatter + MPI_Allgatherv, collscope's own\n"
        "variants and itself at the next size: every guideline broken, with its figures.\n",
    .exit_codes = "exit codes: 0 ok, 2 bad usage, 3 wrong results, 4 hang or dead rank,\n"
                  "            5 MPI, memory or I/O error, or nothing the library lets force\n",
    .groups = groups,
    .size = sizeof(struct tune_opts),
    .check = check,
    .check_world = check_world,
    .echo = echo,
};
