/*
 * Options of `collscope links`, their defaults, their validation and their
 * echo into the report's config.
 */
#include <mpi.h>

#include "links_cmd.h"
#include "parse.h"
#include "report_io.h"
#include "watchdog.h"

#include <getopt.h>
#include <string.h>

const char cmd_links_usage[] =
    "usage: mpirun -np N collscope links [options]\n\n"
    "Measures latency and bandwidth between every pair of ranks, in both directions,\n"
    "and names slow links and slow hosts. Pairs are scheduled as the rounds of a\n"
    "round-robin tournament: each round is a perfect matching (odd rank counts give\n"
    "one rank a bye) and, by default, all of its pairs run at once.\n"
    "  latency:   ping-pong; every round trip is a sample; one-way = round trip / 2\n"
    "  bandwidth: a window of non-blocking sends, acknowledged by the receiver, each\n"
    "             direction alone, then both at once (bidirectional)\n"
    "Links are compared within their locality class (same NUMA node, same host,\n"
    "different hosts). A link is suspect when its p50 bandwidth is below\n"
    "(1 - tolerance) x the class median AND its robust z-score (from the median and\n"
    "MAD of the logarithms) is below -Z; latency the mirror image (above median /\n"
    "(1 - tolerance), z above Z). When most links of a host are suspect, the host is\n"
    "named instead. Across hosts the host x host matrix is judged: a host slow to\n"
    "send, to receive or both (its NIC), a link between two hosts slow one way or\n"
    "both, or a segment (the cells between two groups of hosts: a rack's uplink).\n"
    "Suspects are measured again, one pair at a time (at most 4 pairs of a host, link\n"
    "or segment; the shift pattern whole), and only those that stay suspect are\n"
    "reported; with none, the smallest slowdown of each class that would have been\n"
    "named is printed. Links of an oversubscribed host (more ranks than cores) are\n"
    "measured and reported but not judged: their times are the scheduler's as much\n"
    "as the link's.\n\n"
    "  -n, --iters N          timed ping-pongs per direction, at most (default 1000)\n"
    "  -w, --warmup N         untimed ping-pongs first, at most (default 100)\n"
    "      --lat-time SECONDS time budget of one direction's ping-pongs: after at least\n"
    "                         3, as many more as fit (default 0.2; 0: the counts alone)\n"
    "      --bw-iters N       timed windows per direction, at most (default 10)\n"
    "      --bw-warmup N      untimed windows first, at most (default 2)\n"
    "      --bw-time SECONDS  time budget of one direction's windows: after at least\n"
    "                         3 timed windows, as many more as fit (default 1;\n"
    "                         0: the counts alone). With a budget, two windows of one\n"
    "                         message first size the others, so that a slow link gets\n"
    "                         windows of fewer messages (times scaled to a full\n"
    "                         window) and still fits 3 in the budget\n"
    "      --lat-bytes SIZE   ping-pong message (default 8; suffixes K M G)\n"
    "      --bw-bytes SIZE    one message of a window (default 4M)\n"
    "      --window N         messages in flight per window (default 16)\n"
    "      --mode MODE        concurrent: all pairs of a round at once (default);\n"
    "                         isolated: one pair at a time\n"
    "      --pattern P        pairs: the tournament's pairs (default); shift:\n"
    "                         mpiGraph's shift, in step d every rank sends to rank+d\n"
    "                         and receives from rank-d at once, loading every link\n"
    "                         as an all-reduce does (a shared segment shows there);\n"
    "                         both: pairs, then shift\n"
    "      --tolerance F      fraction below the class median that may be accused,\n"
    "                         0 < F < 1 (default 0.3)\n"
    "      --z-threshold Z    robust z-score a suspect must pass (default 3.5)\n"
    "      --judge-oversubscribed  judge the links of oversubscribed hosts too\n"
    "      --fail-on-suspect  exit 1 when a suspect is confirmed\n"
    "      --test-slow-link A:B:F  testing only: multiply the measured window times of\n"
    "                         the pair A-B by F, to exercise the detector\n"
    "  -o, --output FILE      write the JSON report (atomically)\n"
    "      --force            overwrite an existing output file\n"
    "  -q, --quiet            no progress lines on stderr\n"
    "      --timeout SECONDS  watchdog: no progress for this long is a hang, exit 4\n"
    "                         naming the ranks (default 600; 0 disables)\n"
    "  -h, --help             this text\n\n"
    "exit codes: 0 ok (suspects are reported but do not fail the run unless\n"
    "            --fail-on-suspect), 1 a suspect confirmed with --fail-on-suspect,\n"
    "            2 bad usage, 4 hang or dead rank, 5 MPI, memory or I/O error\n";

enum {
	LINKS_MAX_ITERS = 10000000,
	LINKS_MAX_WINDOW = 1024,
};

static const struct option longopts[] = {
    {"iters", required_argument, NULL, 'n'},
    {"warmup", required_argument, NULL, 'w'},
    {"bw-iters", required_argument, NULL, 'N'},
    {"bw-warmup", required_argument, NULL, 'W'},
    {"bw-time", required_argument, NULL, 'B'},
    {"lat-time", required_argument, NULL, 'L'},
    {"lat-bytes", required_argument, NULL, 'l'},
    {"bw-bytes", required_argument, NULL, 'b'},
    {"window", required_argument, NULL, 'x'},
    {"mode", required_argument, NULL, 'm'},
    {"pattern", required_argument, NULL, 'P'},
    {"tolerance", required_argument, NULL, 't'},
    {"z-threshold", required_argument, NULL, 'z'},
    {"judge-oversubscribed", no_argument, NULL, 'J'},
    {"fail-on-suspect", no_argument, NULL, 'f'},
    {"output", required_argument, NULL, 'o'},
    {"force", no_argument, NULL, 'F'},
    {"quiet", no_argument, NULL, 'q'},
    {"test-slow-link", required_argument, NULL, 'T'},
    {"timeout", required_argument, NULL, 'D'},
    {0},
};

static void defaults(struct links_opts *o)
{
	memset(o, 0, sizeof *o);
	o->timeout_s = WATCHDOG_DEFAULT_TIMEOUT_S;
	o->probe = (struct probe_link_opts){
	    .lat_bytes = 8,
	    .bw_bytes = (size_t)4 << 20,
	    .window = 16,
	    .lat_iters = 1000,
	    .lat_warmup = 100,
	    .bw_iters = 10,
	    .bw_warmup = 2,
	    .bw_time_s = 1.0,
	    .lat_time_s = 0.2,
	};
	o->mode = PROBE_CONCURRENT;
	o->pattern = LINKS_PAIRS;
	detect_params_default(&o->detect);
}

static int bad(const struct cmd_ctx *ctx, const char *opt, const char *value, const char *why)
{
	cmd_error(ctx, "links: bad value '%s' for %s: %s", value, opt, why);
	return EXIT_USAGE;
}

/* A count option into *out, from min to max; 0 or an exit code. */
static int count(const struct cmd_ctx *ctx, const char *opt, const char *arg, int min, int max,
                 int *out)
{
	const char *why = NULL;
	uint64_t u;
	if (parse_u64(arg, (uint64_t)min, (uint64_t)max, &u, &why) != 0) {
		char range[96];
		snprintf(range, sizeof range, "%s (a whole number from %d to %d)", why, min, max);
		return bad(ctx, opt, arg, range);
	}
	*out = (int)u;
	return 0;
}

/* A message size into *out, from min to max bytes. */
static int bytes(const struct cmd_ctx *ctx, const char *opt, const char *arg, uint64_t min,
                 uint64_t max, size_t *out)
{
	const char *why = NULL;
	uint64_t u;
	if (parse_bytes(arg, &u, &why) != 0)
		return bad(ctx, opt, arg, why);
	if (u < min || u > max)
		return bad(ctx, opt, arg, min ? "must be from 1 byte to 1G" : "must be at most 1G");
	*out = (size_t)u;
	return 0;
}

/* A:B:F, two distinct ranks of the job and a factor from 1 to 1000. */
static int slow_link(const struct cmd_ctx *ctx, const char *arg, struct links_opts *o)
{
	char buf[128], *items[3];
	const char *why = NULL;
	uint64_t a, b;
	snprintf(buf, sizeof buf, "%s", arg);
	for (char *c = buf; *c; c++)
		if (*c == ':')
			*c = ',';
	if (parse_list(buf, items, 3, &why) != 3 ||
	    parse_u64(items[0], 0, (uint64_t)ctx->nranks - 1, &a, &why) != 0 ||
	    parse_u64(items[1], 0, (uint64_t)ctx->nranks - 1, &b, &why) != 0 || a == b ||
	    parse_double(items[2], 1, 1000, &o->slow_factor, &why) != 0)
		return bad(
		    ctx, "--test-slow-link", arg,
		    "must be A:B:F, two different ranks of the job and a factor from 1 to 1000");
	o->slow_a = (int)a;
	o->slow_b = (int)b;
	return 0;
}

static int parse_one(const struct cmd_ctx *ctx, int c, const char *arg, struct links_opts *o)
{
	const char *why = NULL;
	struct probe_link_opts *p = &o->probe;
	switch (c) {
	case 'n': return count(ctx, "--iters", arg, 1, LINKS_MAX_ITERS, &p->lat_iters);
	case 'w': return count(ctx, "--warmup", arg, 0, LINKS_MAX_ITERS, &p->lat_warmup);
	case 'N': return count(ctx, "--bw-iters", arg, 1, LINKS_MAX_ITERS, &p->bw_iters);
	case 'W': return count(ctx, "--bw-warmup", arg, 0, LINKS_MAX_ITERS, &p->bw_warmup);
	case 'x': return count(ctx, "--window", arg, 1, LINKS_MAX_WINDOW, &p->window);
	case 'L':
		if (parse_double(arg, 0, 3600, &p->lat_time_s, &why) != 0)
			return bad(ctx, "--lat-time", arg, "must be a number of seconds from 0 to 3600");
		return 0;
	case 'B':
		if (parse_double(arg, 0, 3600, &p->bw_time_s, &why) != 0)
			return bad(ctx, "--bw-time", arg, "must be a number of seconds from 0 to 3600");
		return 0;
	case 'l': return bytes(ctx, "--lat-bytes", arg, 0, (uint64_t)1 << 30, &p->lat_bytes);
	case 'b': return bytes(ctx, "--bw-bytes", arg, 1, (uint64_t)1 << 30, &p->bw_bytes);
	case 'm':
		if (strcmp(arg, "concurrent") != 0 && strcmp(arg, "isolated") != 0)
			return bad(ctx, "--mode", arg, "must be concurrent or isolated");
		o->mode = arg[0] == 'c' ? PROBE_CONCURRENT : PROBE_ISOLATED;
		return 0;
	case 'P':
		if (strcmp(arg, "pairs") == 0)
			o->pattern = LINKS_PAIRS;
		else if (strcmp(arg, "shift") == 0)
			o->pattern = LINKS_SHIFT;
		else if (strcmp(arg, "both") == 0)
			o->pattern = LINKS_BOTH;
		else
			return bad(ctx, "--pattern", arg, "must be pairs, shift or both");
		return 0;
	case 't':
		if (parse_double(arg, 0, 1, &o->detect.tolerance, &why) != 0 ||
		    !(o->detect.tolerance > 0 && o->detect.tolerance < 1))
			return bad(ctx, "--tolerance", arg,
			           "must be a fraction between 0 and 1, exclusive");
		return 0;
	case 'z':
		if (parse_double(arg, 0, 1e6, &o->detect.z_threshold, &why) != 0 ||
		    !(o->detect.z_threshold > 0))
			return bad(ctx, "--z-threshold", arg, "must be a number greater than 0");
		return 0;
	case 'J': o->judge_oversubscribed = true; return 0;
	case 'T': return slow_link(ctx, arg, o);
	case 'f': o->fail_on_suspect = true; return 0;
	case 'o': o->output = arg; return 0;
	case 'F': o->force = true; return 0;
	case 'q': o->quiet = true; return 0;
	case 'D': return watchdog_parse_timeout(ctx, "links", arg, &o->timeout_s) ? EXIT_USAGE : 0;
	default: return -1;
	}
}

int links_opts_parse(int argc, char **argv, const struct cmd_ctx *ctx, struct links_opts *o)
{
	int c;
	defaults(o);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "n:w:o:q", longopts, NULL)) != -1) {
		int rc = parse_one(ctx, c, optarg, o);
		if (rc < 0)
			return cmd_usage_error(ctx, "links", argc, argv);
		if (rc)
			return rc;
	}
	if (optind < argc) {
		cmd_error(ctx, "links: unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

const char *links_pattern_name(enum links_pattern p)
{
	return p == LINKS_SHIFT ? "shift" : p == LINKS_BOTH ? "both" : "pairs";
}

static bool add_detector(cJSON *cfg, const struct detect_params *d)
{
	cJSON *o = cJSON_AddObjectToObject(cfg, "detector");
	return o && cJSON_AddNumberToObject(o, "min_class_links", d->min_class_links) &&
	       cJSON_AddNumberToObject(o, "min_hosts", d->min_hosts) &&
	       cJSON_AddNumberToObject(o, "min_host_links", d->min_host_links) &&
	       cJSON_AddNumberToObject(o, "host_majority", d->host_majority) &&
	       cJSON_AddNumberToObject(o, "mad_floor_fraction", d->mad_floor_fraction) &&
	       cJSON_AddNumberToObject(o, "latency_floor_us", d->latency_floor_us);
}

cJSON *links_opts_to_json(cJSON *root, const struct links_opts *o)
{
	const struct probe_link_opts *p = &o->probe;
	cJSON *cfg = cJSON_AddObjectToObject(root, "config");
	bool ok = cfg && cJSON_AddNumberToObject(cfg, "lat_bytes", (double)p->lat_bytes) &&
	          cJSON_AddNumberToObject(cfg, "bw_bytes", (double)p->bw_bytes) &&
	          cJSON_AddNumberToObject(cfg, "window", p->window) &&
	          cJSON_AddNumberToObject(cfg, "iters", p->lat_iters) &&
	          cJSON_AddNumberToObject(cfg, "warmup", p->lat_warmup) &&
	          cJSON_AddNumberToObject(cfg, "bw_iters", p->bw_iters) &&
	          cJSON_AddNumberToObject(cfg, "bw_warmup", p->bw_warmup) &&
	          cJSON_AddNumberToObject(cfg, "bw_time_s", p->bw_time_s) &&
	          cJSON_AddNumberToObject(cfg, "lat_time_s", p->lat_time_s) &&
	          cJSON_AddStringToObject(
	              cfg, "mode", o->mode == PROBE_CONCURRENT ? "concurrent" : "isolated") &&
	          cJSON_AddStringToObject(cfg, "pattern", links_pattern_name(o->pattern)) &&
	          cJSON_AddNumberToObject(cfg, "retest_pairs_max", LINKS_RETEST_PAIRS) &&
	          cJSON_AddNumberToObject(cfg, "tolerance", o->detect.tolerance) &&
	          cJSON_AddNumberToObject(cfg, "z_threshold", o->detect.z_threshold) &&
	          cJSON_AddBoolToObject(cfg, "judge_oversubscribed", o->judge_oversubscribed) &&
	          cJSON_AddBoolToObject(cfg, "fail_on_suspect", o->fail_on_suspect) &&
	          (o->output ? cJSON_AddStringToObject(cfg, "output", o->output)
	                     : cJSON_AddNullToObject(cfg, "output")) &&
	          cJSON_AddBoolToObject(cfg, "force", o->force) && add_detector(cfg, &o->detect) &&
	          cJSON_AddNumberToObject(cfg, "timeout_s", o->timeout_s);
	if (ok && o->slow_factor > 0) {
		cJSON *t = cJSON_AddObjectToObject(cfg, "test_slow_link");
		ok = t && cJSON_AddNumberToObject(t, "a", o->slow_a) &&
		     cJSON_AddNumberToObject(t, "b", o->slow_b) &&
		     cJSON_AddNumberToObject(t, "factor", o->slow_factor);
	}
	return ok ? cfg : NULL;
}
