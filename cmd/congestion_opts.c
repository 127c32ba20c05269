/*
 * Options of `collscope congestion`: one table (cmd/opts.h) gives their
 * parsing, help, defaults and config echo.
 */
#include "cmd/congestion_opts.h"
#include "cmd/opts_memory.h"

#include <stdio.h>
#include <string.h>

#include "probes/congestor_kind.h"
#include "probes/groups.h"

static const char *const where_names[] = {"auto", "always", "never", NULL};

/* --split: a method by name, or a list of group indices (checked once the hosts are known). */
static int parse_split(const char *arg, void *base, const struct opt *o, char *why, size_t len)
{
	struct congestion_opts *c = base;
	(void)o;
	for (int i = 0; groups_split_names[i]; i++)
		if (i != GROUPS_GIVEN && strcmp(arg, groups_split_names[i]) == 0) {
			c->split = i;
			c->split_list = NULL;
			return 0;
		}
	if (!*arg || strspn(arg, "0123456789,") != strlen(arg)) {
		snprintf(why, len, "must be packed, strided, random or a list of group indices");
		return -1;
	}
	c->split = GROUPS_GIVEN;
	c->split_list = arg;
	return 0;
}

static bool echo_split(cJSON *cfg, const char *key, const void *base, const struct opt *o)
{
	const struct congestion_opts *c = base;
	(void)o;
	return cJSON_AddStringToObject(cfg, key, congestion_split_name(c)) != NULL;
}

static const struct opt variants_opt[] = {
    {.name = "algo",
     .letter = 'a',
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct sweep_opts, variants),
     .metavar = "LIST",
     .def = "ring",
     .key = "algorithms",
     .parse = opts_parse_variants,
     .echo = opts_echo_variants,
     .help = "the victims' variants, comma-separated, or 'all'\n"
             "(not shm: its buffers are the job's, not a group's;\n"
             "and the guideline mock-ups go by name: see 'list')"},
};

static const struct opt congestion_only[] = {
    {.name = "groups",
     .kind = OPT_INT,
     .offset = offsetof(struct congestion_opts, groups),
     .metavar = "K",
     .def_text = "2, or the --split list's",
     .min = 2,
     .max = GROUPS_MAX,
     .key = "groups",
     .help = "split the job into K groups that run at once: by host\n"
             "on 2 hosts or more (a group owns whole hosts), by rank\n"
             "on one ({default})"},
    {.name = "split",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct congestion_opts, split),
     .metavar = "HOW",
     .def = "packed",
     .key = "split",
     .parse = parse_split,
     .echo = echo_split,
     .help = "packed: consecutive hosts (a rack each, when racks\n"
             "are dealt in order); strided: host i to group i mod K;\n"
             "random: shuffled from --seed; or a list, one group\n"
             "index per host (per rank on one host), e.g. 0,1,0,1\n"
             "({default})"},
    {.name = "seed",
     .kind = OPT_U64,
     .offset = offsetof(struct congestion_opts, seed),
     .metavar = "N",
     .def = "1",
     .min = 0,
     .max = 1.8e19,
     .key = "seed",
     .help = "the shuffle of --split random"},
    {.name = "aggressors",
     .kind = OPT_INT,
     .offset = offsetof(struct congestion_opts, aggressors),
     .metavar = "N",
     .def = "0",
     .min = 0,
     .max = GROUPS_MAX - 1,
     .key = "aggressors",
     .help = "the last N groups run --congestor instead of the\n"
             "all-reduce: victims and aggressors, as GPCNeT ({default}:\n"
             "every group a victim, all running the all-reduce)"},
    {.name = "congestor",
     .kind = OPT_CHOICE,
     .offset = offsetof(struct congestion_opts, congestor),
     .metavar = "KIND",
     .def = "alltoall",
     .choices = congestor_names,
     .key = "congestor",
     .help = "the aggressors' traffic ({default}): alltoall (every\n"
             "rank to every other), incast (every rank to the group's\n"
             "first) or shift (rank to rank + d, d changing every round)"},
    {.name = "congestor-bytes",
     .kind = OPT_BYTES,
     .offset = offsetof(struct congestion_opts, congestor_bytes),
     .metavar = "SIZE",
     .def = "1M",
     .min = 1,
     .max = 64 << 20,
     .key = "congestor_bytes",
     .help = "bytes each aggressor sends each partner per round\n"
             "({default})"},
    {.name = "tolerance",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct congestion_opts, tolerance),
     .metavar = "F",
     .def = "0.25",
     .min = 0,
     .max = 100,
     .flags = OPT_MIN_OPEN,
     .key = "tolerance",
     .help = "a victim is degraded at a point when its p50 or mean\n"
             "time together is at least (1 + F) x alone ({default})"},
    {.name = "where",
     .kind = OPT_CHOICE,
     .offset = offsetof(struct congestion_opts, where),
     .metavar = "WHEN",
     .def = "auto",
     .choices = where_names,
     .key = "where",
     .help = "measure a victim's host x host bandwidth under the load\n"
             "and alone, and name the slow segment, host or link:\n"
             "auto (only a degraded victim), always or never\n"
             "({default}; needs a group of 3 hosts or more)"},
    {.name = "where-hosts",
     .kind = OPT_INT,
     .offset = offsetof(struct congestion_opts, where_hosts),
     .metavar = "N",
     .def = "8",
     .min = 3,
     .max = 64,
     .key = "where_hosts",
     .help = "that matrix measures at most N of a victim's hosts,\n"
             "evenly spread over them: its N(N-1)/2 pairs are measured\n"
             "one at a time, twice ({default})"},
    {.name = "where-time",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct congestion_opts, where_time_s),
     .metavar = "SECONDS",
     .def = "0.2",
     .min = 0.01,
     .max = 60,
     .key = "where_time_s",
     .range = "must be seconds from 0.01 to 60",
     .help = "time budget of one direction of one host pair in that\n"
             "matrix ({default})"},
};

static const struct opt_group groups[] = {
    OPT_GROUP(variants_opt, offsetof(struct congestion_opts, sweep)),
    OPT_GROUP(congestion_only, 0),
    OPT_GROUP(opts_sweep_points, offsetof(struct congestion_opts, sweep)),
    OPT_GROUP(opts_sweep_data, offsetof(struct congestion_opts, sweep)),
    OPT_GROUP(opts_sweep_timing, offsetof(struct congestion_opts, sweep)),
    OPT_GROUP(opts_segment, offsetof(struct congestion_opts, sweep.segment_bytes)),
    OPT_GROUP(opts_output, offsetof(struct congestion_opts, out)),
    OPT_GROUP(opts_quiet, offsetof(struct congestion_opts, out.quiet)),
    OPT_GROUP(opts_timeout, offsetof(struct congestion_opts, timeout_s)),
    {NULL, 0, 0},
};

static int check(void *opts, char *err, size_t len)
{
	struct congestion_opts *o = opts;
	for (int v = 0; ar_variants[v]; v++)
		if (o->sweep.variants[v] && ar_variants[v]->shared_buffers) {
			snprintf(
			    err, len,
			    "congestion: variant '%s' works on the job's shared buffers: groups "
			    "cannot run it at once (choose others with -a)",
			    ar_variants[v]->name);
			return EXIT_USAGE;
		}
	if (!o->sweep.explicit_sizes) { /* a latency test and a bandwidth test */
		o->sweep.min_bytes = 8;
		o->sweep.max_bytes = 1 << 20;
	}
	int status = sweep_sizes("congestion", &o->sweep, err, len);
	size_t w = ar_dtype_bytes(o->sweep.dtype);
	for (int i = 0; status == EXIT_OK && i < o->sweep.nsizes; i++)
		o->sweep.sizes[i] = o->sweep.sizes[i] < w ? w : o->sweep.sizes[i] / w * w;
	return status;
}

static int check_world(void *opts, int nranks, char *err, size_t len)
{
	struct congestion_opts *o = opts;
	int k = o->groups ? o->groups : 2;
	if (!o->split_list && k > nranks / 2) {
		snprintf(
		    err, len,
		    "congestion: --groups %d needs at least %d ranks (2 a group); the job has %d",
		    k, 2 * k, nranks);
		return EXIT_USAGE;
	}
	if (!o->split_list && o->aggressors >= k) {
		snprintf(err, len, "congestion: --aggressors %d leaves no victim among %d groups",
		         o->aggressors, k);
		return EXIT_USAGE;
	}
	return opts_memory_check_sweep("congestion", &o->sweep, nranks, err, len);
}

static bool echo(cJSON *cfg, const void *opts)
{
	const struct congestion_opts *o = opts;
	return sweep_echo(cfg, &o->sweep) && cJSON_AddBoolToObject(cfg, "in_place", false);
}

const struct cmd_spec congestion_spec = {
    .name = "congestion",
    .synopsis = "mpirun -np N collscope congestion [options]",
    .description =
        "Splits the job into groups that share the network, as jobs share a cluster, and\n"
        "measures how much each group's all-reduce suffers from the others. Every point\n"
        "(variant x size; default sizes 8 bytes and 1 MiB) is measured with each victim\n"
        "group alone (the others idle), then with every group at once (each keeps running\n"
        "until all have finished, so the load holds). Per victim: busbw and percentiles\n"
        "alone and together, and the interference factors: alone / together for busbw,\n"
        "together / alone for the mean, p50 and p99 time (1 is no interference; the mean\n"
        "and p99 factors are GPCNeT's congestion impact factor). With --aggressors N the\n"
        "last N groups run a congestor instead (alltoall, incast, shift). For a degraded\n"
        "victim spanning 3 hosts or more, its host x host bandwidth is measured under the\n"
        "load and alone, and the classifier names where it slows: a segment (the cells\n"
        "between two sets of hosts, e.g. a rack's uplink), a host or a link.\n",
    .exit_codes = "exit codes: 0 measured (degraded victims are findings, not failures),\n"
                  "            2 bad usage, 3 wrong results, 4 hang or dead rank,\n"
                  "            5 MPI, memory or I/O error\n",
    .groups = groups,
    .size = sizeof(struct congestion_opts),
    .check = check,
    .check_world = check_world,
    .echo = echo,
};

const char *congestion_split_name(const struct congestion_opts *o)
{
	return o->split_list ? o->split_list : groups_split_names[o->split];
}

const char *congestion_congestor_name(const struct congestion_opts *o)
{
	return congestor_names[o->congestor];
}
