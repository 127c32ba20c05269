/* Options of `collscope verify`: one table (cmd/opts.h); the default counts depend on N. */
#include "cmd/verify_opts.h"
#include "cmd/opts_memory.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/parse.h"

static int parse_counts(const char *arg, void *base, const struct opt *o, char *why, size_t len)
{
	struct verify_opts *v = base;
	char *copy = strdup(arg), *items[VERIFY_MAX_COUNTS];
	const char *reason = NULL;
	int rc = -1;
	(void)o;
	int n = copy ? parse_list(copy, items, VERIFY_MAX_COUNTS, &reason) : -1;
	if (!copy)
		snprintf(why, len, "out of memory");
	else if (n < 0)
		snprintf(why, len, "%s (at most %d counts)", reason, VERIFY_MAX_COUNTS);
	for (int i = 0; n > 0 && i < n; i++) {
		uint64_t c;
		if (parse_u64(items[i], 0, (uint64_t)1 << 40, &c, &reason) != 0) {
			snprintf(why, len, "count '%s': %s (0 to 2^40 elements)", items[i], reason);
			n = -1;
			break;
		}
		v->counts[i] = (size_t)c;
	}
	if (n > 0) {
		v->ncounts = n;
		v->explicit_counts = true;
		rc = 0;
	}
	free(copy);
	return rc;
}

static bool echo_set(cJSON *cfg, const char *key, const bool *sel, int n,
                     const char *(*name)(int i))
{
	cJSON *a = cJSON_AddArrayToObject(cfg, key);
	for (int i = 0; a && i < n; i++)
		if (sel[i] && !cJSON_AddItemToArray(a, cJSON_CreateString(name(i))))
			return false;
	return a != NULL;
}

static const char *dtype_name(int i)
{
	return ar_dtype_name((enum ar_dtype)i);
}
static const char *op_name(int i)
{
	return ar_op_name((enum ar_op)i);
}

static bool echo_dtypes(cJSON *cfg, const char *key, const void *base, const struct opt *o)
{
	return echo_set(cfg, key, (const bool *)((const char *)base + o->offset), AR_DTYPE_COUNT,
	                dtype_name);
}

static bool echo_ops(cJSON *cfg, const char *key, const void *base, const struct opt *o)
{
	return echo_set(cfg, key, (const bool *)((const char *)base + o->offset), AR_OP_COUNT,
	                op_name);
}

static const struct opt verify_only[] = {
    {.name = "algo",
     .letter = 'a',
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct verify_opts, variants),
     .metavar = "LIST",
     .def = "all",
     .key = "algorithms",
     .parse = opts_parse_variants,
     .echo = opts_echo_variants,
     .help = "variants to check, comma-separated, or 'all'\n"
             "({default}); 'all' is every variant but the guideline\n"
             "mock-ups, which go by name (see 'list')"},
    {.name = "dtype",
     .letter = 'd',
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct verify_opts, dtypes),
     .metavar = "LIST",
     .def = "all",
     .key = "dtypes",
     .parse = opts_parse_dtypes,
     .echo = echo_dtypes,
     .help = "float32,float64,int32,int64,bfloat16 or 'all'"},
    {.name = "op",
     .letter = 'r',
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct verify_opts, ops),
     .metavar = "LIST",
     .def = "all",
     .key = "ops",
     .parse = opts_parse_ops,
     .echo = echo_ops,
     .help = "sum,prod,min,max or 'all'"},
    {.name = "counts",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct verify_opts, counts),
     .metavar = "LIST",
     .def_text = "0,1,n-1,n,n+1,1031,65539,1048583",
     .parse = parse_counts,
     .help = "element counts, comma-separated (n: the rank count;\n{default})"},
    {.name = "mpi-max-count",
     .kind = OPT_U64,
     .offset = offsetof(struct verify_opts, mpi_max_count),
     .metavar = "N",
     .def_text = "INT_MAX",
     .min = 1,
     .max = INT32_MAX,
     .key = "mpi_max_count",
     .help = "elements per MPI_Allreduce call of the 'mpi' variant\n"
             "({default}; testing only: exercises the >2 GiB chunking\n"
             "at small sizes)"},
};

static const struct opt_group groups[] = {
    OPT_GROUP(verify_only, 0),
    OPT_GROUP(opts_segment, offsetof(struct verify_opts, segment_bytes)),
    OPT_GROUP(opts_timeout, offsetof(struct verify_opts, timeout_s)),
    {NULL, 0, 0},
};

/* The schedule of the largest count, in the widest dtype (opts_memory.h). */
static int check_memory(const struct verify_opts *o, int nranks, char *err, size_t len)
{
	uint64_t max_count = 0;
	for (int i = 0; i < o->ncounts; i++)
		max_count = o->counts[i] > max_count ? o->counts[i] : max_count;
	return opts_memory_check_segments("verify", max_count * sizeof(double), o->segment_bytes,
	                                  nranks, err, len);
}

/* The default matrix: 0, 1, n-1, n, n+1, 1031, 65539 and 1048583, without repeats. */
static int check_world(void *opts, int nranks, char *err, size_t len)
{
	struct verify_opts *o = opts;
	const size_t n = (size_t)nranks;
	const size_t want[] = {0, 1, n - 1, n, n + 1, 1031, 65539, VERIFY_BIG_COUNT};
	if (o->explicit_counts)
		return check_memory(o, nranks, err, len);
	o->ncounts = 0;
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		bool dup = false;
		for (int j = 0; j < o->ncounts; j++)
			dup |= o->counts[j] == want[i];
		if (!dup)
			o->counts[o->ncounts++] = want[i];
	}
	return check_memory(o, nranks, err, len);
}

const struct cmd_spec verify_spec = {
    .name = "verify",
    .synopsis = "mpirun -np N collscope verify [options]",
    .description =
        "Runs every selected variant over a matrix of element counts (0, 1, n-1, n, n+1,\n"
        "1031, 65539 and 1048583, where n is the rank count), every dtype and op, in place\n"
        "and out of place, and compares every element with its exact expected value.\n"
        "Prints one line per variant; exits 3 on any wrong element, naming the variant,\n"
        "dtype, op, count, rank and first bad index.\n",
    .exit_codes = "exit codes: 0 all correct, 2 bad usage, 3 wrong results, 4 hang or dead rank,\n"
                  "            5 MPI or runtime error\n",
    .groups = groups,
    .size = sizeof(struct verify_opts),
    .check_world = check_world,
};
