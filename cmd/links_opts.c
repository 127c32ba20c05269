/*
 * Options of `collscope links`: one table (cmd/opts.h) gives their parsing,
 * help, defaults and config echo. The detector's other parameters come from
 * detect_params_default (reports/diagnose/detect.h).
 */
#include "cmd/links_opts.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/parse.h"
#include "probes/plan.h"
#include "probes/tournament.h"
#include "reports/diagnose/classify.h"
#include "reports/diagnose/retest.h"

enum {
	LINKS_MAX_ITERS = 10000000,
	LINKS_MAX_WINDOW = 1024,
};

/* A macro's value as a string literal, for --help: the number is written once. */
#define TEXT_OF_(x) #x
#define TEXT_OF(x)  TEXT_OF_(x)

_Static_assert(sizeof(size_t) == sizeof(uint64_t), "OPT_BYTES fills the size_t byte counts");

static const char *const modes[] = {"concurrent", "isolated", NULL};

const char *links_pattern_name(enum links_pattern p)
{
	if (p & LINKS_AUTO)
		return "auto";
	if (p & LINKS_SCREEN)
		return "screen";
	return p == LINKS_SHIFT ? "shift" : p == LINKS_BOTH ? "both" : "pairs";
}

/*
 * Why half: a round costs about the same whatever its pairs (each phase
 * runs to its time budget: 2.6 s a round at 8 ranks, 5.8 s on 6 namespace
 * hosts, issue 28), so time goes with rounds. Up to about 8 hosts the
 * screening plan is the host tournament plus the intra-host rounds, as long
 * as all pairs or nearly: all pairs then costs little more and measures
 * every pair. From 16 hosts on, screening's log2 H + 2 rounds are at most
 * half of N - 1, and at 24 hosts a third.
 */
enum links_pattern links_pattern_for(enum links_pattern p, int nranks, int nhosts,
                                     const int *host_of_rank)
{
	if (!(p & LINKS_AUTO))
		return p;
	struct probe_plan plan;
	if (probe_plan_build(&plan, PROBE_PLAN_SCREEN, nranks, nhosts, host_of_rank) != 0)
		return LINKS_PAIRS; /* out of memory: the plan that needs none */
	bool screen = nhosts > 1 && 2 * probe_plan_rounds(&plan) <= probe_tournament_rounds(nranks);
	probe_plan_release(&plan);
	return screen ? LINKS_PAIRS | LINKS_SCREEN : LINKS_PAIRS;
}

bool links_needs_mpi(const void *opts)
{
	const struct links_opts *o = opts;
	return !(o->planning.only && o->planning.hosts > 0);
}

static int parse_pattern(const char *arg, void *base, const struct opt *o, char *why, size_t len)
{
	enum links_pattern *p = (enum links_pattern *)((char *)base + o->offset);
	if (strcmp(arg, "auto") == 0)
		*p = LINKS_AUTO | LINKS_PAIRS;
	else if (strcmp(arg, "screen") == 0)
		*p = LINKS_PAIRS | LINKS_SCREEN;
	else if (strcmp(arg, "pairs") == 0)
		*p = LINKS_PAIRS;
	else if (strcmp(arg, "shift") == 0)
		*p = LINKS_SHIFT;
	else if (strcmp(arg, "both") == 0)
		*p = LINKS_BOTH;
	else {
		snprintf(why, len, "must be auto, screen, pairs, shift or both");
		return -1;
	}
	return 0;
}

static bool echo_pattern(cJSON *cfg, const char *key, const void *base, const struct opt *o)
{
	enum links_pattern p = *(const enum links_pattern *)((const char *)base + o->offset);
	return cJSON_AddStringToObject(cfg, key, links_pattern_name(p)) != NULL;
}

/* A:B:F, two distinct ranks and a factor from 1 to 1000; the ranks are checked against N later. */
int links_parse_test_slow(const char *arg, void *base, const struct opt *o, char *why, size_t len)
{
	struct links_test_slow *l = (struct links_test_slow *)((char *)base + o->offset);
	char buf[128], *items[3];
	const char *reason = NULL;
	uint64_t a, b = 0;
	snprintf(buf, sizeof buf, "%s", arg);
	for (char *c = buf; *c; c++)
		if (*c == ':')
			*c = ',';
	if (strlen(arg) >= sizeof buf || parse_list(buf, items, 3, &reason) != 3 ||
	    parse_u64(items[0], 0, INT32_MAX, &a, &reason) != 0 ||
	    (strcmp(items[1], "*") != 0 && parse_u64(items[1], 0, INT32_MAX, &b, &reason) != 0) ||
	    (strcmp(items[1], "*") != 0 && a == b) ||
	    parse_double(items[2], 1, 1e6, &l->factor, &reason) != 0) {
		snprintf(why, len,
		         "must be A:B:F, two different ranks of the job (B '*': every rank "
		         "on another host) and a factor from 1 to 1000000");
		return -1;
	}
	l->a = (int)a;
	l->b = strcmp(items[1], "*") == 0 ? -1 : (int)b; /* -1: every rank of another host */
	return 0;
}

bool links_echo_test_slow(cJSON *cfg, const char *key, const void *base, const struct opt *o)
{
	const struct links_test_slow *l =
	    (const struct links_test_slow *)((const char *)base + o->offset);
	if (!(l->factor > 0))
		return true; /* absent unless given */
	cJSON *t = cJSON_AddObjectToObject(cfg, key);
	return t && cJSON_AddNumberToObject(t, "a", l->a) && cJSON_AddNumberToObject(t, "b", l->b) &&
	       cJSON_AddNumberToObject(t, "factor", l->factor);
}

/* The measurement of every link: links' and accept's (links_opts.h). */
const struct opt links_probe_opts[LINKS_PROBE_OPTS] = {
    {.name = "iters",
     .letter = 'n',
     .kind = OPT_INT,
     .offset = offsetof(struct probe_link_opts, lat_iters),
     .metavar = "N",
     .def = "1000",
     .min = 1,
     .max = LINKS_MAX_ITERS,
     .key = "iters",
     .help = "timed ping-pongs per direction, at most"},
    {.name = "warmup",
     .letter = 'w',
     .kind = OPT_INT,
     .offset = offsetof(struct probe_link_opts, lat_warmup),
     .metavar = "N",
     .def = "100",
     .min = 0,
     .max = LINKS_MAX_ITERS,
     .key = "warmup",
     .help = "untimed ping-pongs first, at most"},
    {.name = "lat-time",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct probe_link_opts, lat_time_s),
     .metavar = "SECONDS",
     .def = "0.2",
     .min = 0,
     .max = 3600,
     .key = "lat_time_s",
     .range = "must be seconds from 0 (the counts alone) to 3600",
     .help = "time budget of one direction's ping-pongs: after at least\n"
             "3, as many more as fit ({default}; 0: the counts alone)"},
    {.name = "bw-iters",
     .kind = OPT_INT,
     .offset = offsetof(struct probe_link_opts, bw_iters),
     .metavar = "N",
     .def = "10",
     .min = 1,
     .max = LINKS_MAX_ITERS,
     .key = "bw_iters",
     .help = "timed windows per direction, at most"},
    {.name = "bw-warmup",
     .kind = OPT_INT,
     .offset = offsetof(struct probe_link_opts, bw_warmup),
     .metavar = "N",
     .def = "2",
     .min = 0,
     .max = LINKS_MAX_ITERS,
     .key = "bw_warmup",
     .help = "untimed windows first, at most"},
    {.name = "bw-time",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct probe_link_opts, bw_time_s),
     .metavar = "SECONDS",
     .def = "1",
     .min = 0,
     .max = 3600,
     .key = "bw_time_s",
     .range = "must be seconds from 0 (the counts alone) to 3600",
     .help = "time budget of one direction's windows: after at least\n"
             "3 timed windows, as many more as fit ({default};\n"
             "0: the counts alone). With a budget, two windows of one\n"
             "message first size the others, so that a slow link gets\n"
             "windows of fewer messages (times scaled to a full\n"
             "window) and still fits 3 in the budget"},
    {.name = "lat-bytes",
     .kind = OPT_BYTES,
     .offset = offsetof(struct probe_link_opts, lat_bytes),
     .metavar = "SIZE",
     .def = "8",
     .min = 0,
     .max = 1 << 30,
     .key = "lat_bytes",
     .help = "ping-pong message ({default}; suffixes K M G)"},
    {.name = "bw-bytes",
     .kind = OPT_BYTES,
     .offset = offsetof(struct probe_link_opts, bw_bytes),
     .metavar = "SIZE",
     .def = "4M",
     .min = 1,
     .max = 1 << 30,
     .key = "bw_bytes",
     .help = "one message of a window"},
    {.name = "window",
     .kind = OPT_INT,
     .offset = offsetof(struct probe_link_opts, window),
     .metavar = "N",
     .def = "16",
     .min = 1,
     .max = LINKS_MAX_WINDOW,
     .key = "window",
     .help = "messages in flight per window"},
};

static const struct opt links_only[] = {
    {.name = "mode",
     .kind = OPT_CHOICE,
     .offset = offsetof(struct links_opts, mode),
     .metavar = "MODE",
     .def = "concurrent",
     .def_text = "",
     .choices = modes,
     .key = "mode",
     .help = "concurrent: all pairs of a round at once (default);\n"
             "isolated: one pair at a time"},
    {.name = "pattern",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct links_opts, pattern),
     .metavar = "P",
     .def = "auto",
     .def_text = "",
     .key = "pattern",
     .parse = parse_pattern,
     .echo = echo_pattern,
     .help = "auto (default): screen when it takes at most half the\n"
             "rounds of pairs (from about 16 hosts), else pairs;\n"
             "screen: hosts against a few partners each (recursive\n"
             "doubling, 2 seeded random matchings: log2 H + 2 rounds),\n"
             "intra-host pairs per host, then follow-up rounds only\n"
             "where something is flagged; pairs: every pair of ranks\n"
             "(N - 1 rounds); shift: mpiGraph's shift, in step d\n"
             "every rank sends to rank+d and receives from rank-d at\n"
             "once, loading every link as an all-reduce does (a\n"
             "shared segment shows there); both: pairs, then shift"},
    {.name = "rails",
     .kind = OPT_FLAG,
     .offset = offsetof(struct links_opts, rails),
     .key = "rails",
     .help = "screen: each cross-host round pairs every rank with the\n"
             "rank of its position on the partner host, all at once\n"
             "(a NIC per rank, as rail-optimised clusters are wired:\n"
             "every rail measured); without it a host's first rank\n"
             "stands for the host. Any pattern: each rail is judged on\n"
             "its own too, so one slow NIC is named as its rail (a host\n"
             "suspect with rail_rank), not as its host or its links"},
    {.name = "budget",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct links_opts, budget_s),
     .metavar = "DURATION",
     .def = "0",
     .def_text = "",
     .key = "budget_s",
     .parse = opts_parse_duration,
     .echo = opts_echo_duration,
     .help = "bound the whole run (90, 90s, 15m, 2h): the phases'\n"
             "time budgets shrink so the plan fits, and no round\n"
             "starts that would end past it (default none)"},
    {.name = "tolerance",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct links_opts, detect.tolerance),
     .metavar = "F",
     .def = "0.1",
     .min = 0,
     .max = 1,
     .flags = OPT_MIN_OPEN | OPT_MAX_OPEN,
     .key = "tolerance",
     .range = "must be a fraction between 0 and 1, exclusive",
     .help = "fraction of bandwidth below the class median that may be\n"
             "accused, 0 < F < 1 ({default}); inside a host 0.3 at least\n"
             "(memory paths between cores differ by design)"},
    {.name = "latency-tolerance",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct links_opts, detect.latency_tolerance),
     .metavar = "F",
     .def = "0.3",
     .min = 0,
     .max = 1,
     .flags = OPT_MIN_OPEN | OPT_MAX_OPEN,
     .key = "latency_tolerance",
     .range = "must be a fraction between 0 and 1, exclusive",
     .help = "latency's: above median / (1 - F) may be accused; wider,\n"
             "since paths through more switches take legitimately longer\n"
             "({default})"},
    {.name = "z-threshold",
     .kind = OPT_NUMBER,
     .offset = offsetof(struct links_opts, detect.z_threshold),
     .metavar = "Z",
     .def = "3.5",
     .min = 0,
     .max = 1e6,
     .flags = OPT_MIN_OPEN,
     .key = "z_threshold",
     .range = "must be a number greater than 0",
     .help = "robust z-score a suspect must pass"},
    {.name = "judge-oversubscribed",
     .kind = OPT_FLAG,
     .offset = offsetof(struct links_opts, judge_oversubscribed),
     .key = "judge_oversubscribed",
     .help = "judge the links of oversubscribed hosts too, and pairs\n"
             "whose ranks waited for a core half the time or more\n"
             "(their latency; inside a host, their bandwidth)"},
    {.name = "fail-on-suspect",
     .kind = OPT_FLAG,
     .offset = offsetof(struct links_opts, fail_on_suspect),
     .key = "fail_on_suspect",
     .help = "exit 1 when a suspect is confirmed"},
    {.name = "keep-samples",
     .kind = OPT_FLAG,
     .offset = offsetof(struct links_opts, keep_samples),
     .key = "keep_samples",
     .help = "write every pair's raw samples (about 220 bytes more a\n"
             "pair), so that compare tests every pair; by default every\n"
             "pair's up to 1,056 pairs (33 ranks), above that only the\n"
             "re-tested pairs' and one in 16 of the others"},
    {.name = "test-slow-link",
     .kind = OPT_CUSTOM,
     .offset = offsetof(struct links_opts, slow),
     .metavar = "A:B:F",
     .key = "test_slow_link",
     .parse = links_parse_test_slow,
     .echo = links_echo_test_slow,
     .help = "testing only: multiply the measured window times of\n"
             "the pair A-B by F, to exercise the detector (B '*': A's\n"
             "pairs with every rank on another host, a slow NIC)"},
};

static const struct opt_group groups[] = {
    OPT_GROUP(links_probe_opts, offsetof(struct links_opts, probe)),
    OPT_GROUP(links_only, 0),
    OPT_GROUP(opts_plan, offsetof(struct links_opts, planning)),
    OPT_GROUP(opts_output, offsetof(struct links_opts, out)),
    OPT_GROUP(opts_quiet, offsetof(struct links_opts, out.quiet)),
    OPT_GROUP(opts_timeout, offsetof(struct links_opts, timeout_s)),
    {NULL, 0, 0},
};

/* The detector's parameters that are not options, around the two that are. */
static int check(void *opts, char *err, size_t len)
{
	struct links_opts *o = opts;
	double tolerance = o->detect.tolerance, z = o->detect.z_threshold;
	double latency_tolerance = o->detect.latency_tolerance;
	detect_params_default(&o->detect);
	if (opts_plan_check("links", &o->planning, err, len) != EXIT_OK)
		return EXIT_USAGE;
	o->detect.tolerance = tolerance;
	o->detect.latency_tolerance = latency_tolerance;
	o->detect.z_threshold = z;
	return EXIT_OK;
}

int links_check_test_slow(const char *command, const struct links_test_slow *s, int nranks,
                          char *err, size_t len)
{
	if (s->factor > 0 && (s->a >= nranks || s->b >= nranks)) {
		snprintf(err, len,
		         "%s: bad value '%d:%d:%g' for --test-slow-link: the job has ranks 0 to %d",
		         command, s->a, s->b, s->factor, nranks - 1);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int check_world(void *opts, int nranks, char *err, size_t len)
{
	return links_check_test_slow("links", &((struct links_opts *)opts)->slow, nranks, err, len);
}

static bool echo(cJSON *cfg, const void *opts)
{
	const struct detect_params *d = &((const struct links_opts *)opts)->detect;
	cJSON *o = cJSON_AddObjectToObject(cfg, "detector");
	return o && cJSON_AddNumberToObject(cfg, "retest_pairs_max", LINKS_RETEST_PAIRS) &&
	       cJSON_AddNumberToObject(cfg, "retests", LINKS_RETESTS) &&
	       cJSON_AddNumberToObject(cfg, "retest_misses", LINKS_RETEST_MISSES) &&
	       cJSON_AddNumberToObject(o, "min_class_links", d->min_class_links) &&
	       cJSON_AddNumberToObject(o, "min_hosts", d->min_hosts) &&
	       cJSON_AddNumberToObject(o, "min_host_links", d->min_host_links) &&
	       cJSON_AddNumberToObject(o, "host_majority", d->host_majority) &&
	       cJSON_AddNumberToObject(o, "mad_floor_fraction", d->mad_floor_fraction) &&
	       cJSON_AddNumberToObject(o, "latency_floor_us", d->latency_floor_us);
}

const struct cmd_spec links_spec = {
    .name = "links",
    .synopsis = "mpirun -np N collscope links [options]",
    .description =
        "Measures latency and bandwidth between pairs of ranks, in both directions, and\n"
        "names slow links and slow hosts. Pairs run in rounds, each a matching (no rank\n"
        "in two pairs) whose pairs, by default, run at once. --pattern pairs: the rounds\n"
        "of a round-robin tournament, every pair of ranks (N - 1 rounds). --pattern\n"
        "screen: each host's first rank against a few other hosts' (recursive doubling,\n"
        "2 seeded random matchings: log2 H + 2 rounds, 3 partners a host at least), the\n"
        "intra-host pairs of every host at once, then follow-up rounds only where the\n"
        "host x host matrix shows a slow cell, until each verdict is decided. The plan\n"
        "(rounds, pairs, bytes, time) is printed first; --plan-only prints it alone.\n"
        "  latency:   ping-pong; every round trip is a sample; one-way = round trip / 2\n"
        "  bandwidth: a window of non-blocking sends, acknowledged by the receiver, each\n"
        "             direction alone, then both at once (bidirectional)\n"
        "Links are compared within their locality class (same NUMA node, same host,\n"
        "different hosts). A link is suspect when its p50 bandwidth is below\n"
        "(1 - tolerance) x the class median AND its robust z-score (from the median and\n"
        "MAD of the logarithms) is below -Z; latency the mirror image (above median /\n"
        "(1 - latency tolerance), z above Z). When most links of a host are suspect, the\n"
        "host is named instead. Across hosts the host x host matrix is judged: a host\n"
        "slow to send, to receive or both (its NIC), a link between two hosts slow one\n"
        "way or both, or a segment (the cells between two groups of hosts: a rack's\n"
        "uplink). A host's row (what it sends) and column (what it receives) are also\n"
        "judged each as one figure, their median, whose z-score gains sqrt(2k / pi) from\n"
        "its k cells: a host 15% slow to every partner is named where no one cell is.\n"
        "The isolated pairs' first pass also takes the " TEXT_OF(CLASSIFY_SCREEN_LINES) " rows or columns past the\n"
        "tolerance with the lowest z-scores short of -Z, down to -" TEXT_OF(CLASSIFY_SCREEN_Z) ", as suspects\n"
        "to measure again: a screen, which names nothing the re-tests do not find\n"
        "again (a loaded cluster's spread hides a NIC 20-35% slow in the first pass).\n"
        "Suspects are measured again (at most 4 pairs of a host, link or segment: a host's\n"
        "or a link's one pair at a time, a segment's across its cut at once, then as many\n"
        "within its sides (the shift's too, which that may only clear); the shift pattern\n"
        "also whole, its links' pairs also alone), a host or a link between hosts judged\n"
        "on its pairs alone\n"
        "against up to " TEXT_OF(RETEST_CONTROL_PAIRS) " control pairs of untouched hosts measured alone in the\n"
        "same re-test (pairs alone outrun pairs in rounds; one named both ways is kept\n"
        "narrowed to the way that holds alone), " TEXT_OF(LINKS_RETESTS) " re-tests, and only\n"
        "what the last of them and all others but at most " TEXT_OF(LINKS_RETEST_MISSES) " found again is\n"
        "reported, a miss costing one more re-test (a burst of other work that lasts\n"
        "one re-test accuses no one, and one that hides a fault for one re-test clears\n"
        "no one); with none, the smallest slowdown of each class that would have been\n"
        "named is printed. A latency suspect\n"
        "whose ranks waited for a core (the kernel's run delay) so much longer than the\n"
        "typical pair's that, for the time they ran, it answered within the class is\n"
        "cleared as the scheduler's (cleared_by). So is a bandwidth across hosts whose\n"
        "NICs carried other traffic while it was measured again (/proc/net/dev, beyond\n"
        "the pair's own bytes), enough that with it the pair had its class's bandwidth:\n"
        "another job's, busy, not broken (cleared_by traffic, other_traffic_gbps); and a\n"
        "host or host link that the host matrix with each pair's other traffic that way\n"
        "added no longer names (a stream beside an uplink slows its rack's hosts' other\n"
        "cells), a segment that matrix names being confirmed in their place. A link\n"
        "only the shift pattern names, whose pair alone runs within its class, is\n"
        "cleared too (cleared_by alone): the pattern's load slowed it, not the link;\n"
        "and so is a host only the shift names whose pairs alone run within their class\n"
        "its slow ways and both ways at once (the bidirectional windows: a NIC that\n"
        "cannot send and receive together, the shift's reason to name a host, fails\n"
        "them). So\n"
        "is a link across a confirmed segment's cut, the segment's way, no slower than\n"
        "the segment by more than the tolerance (cleared_by segment): one of its cells,\n"
        "which a stream beside the uplink had set apart; and so is a host on a side of\n"
        "that cut, slow the segment's ways at its level, whose cells within its side run\n"
        "as the other cells within the sides do (a side of few hosts makes its hosts'\n"
        "rows and columns mostly cells across the cut; a host of the shift is read on\n"
        "the isolated pairs' segment and cells). Two confirmed segments naming\n"
        "one cut (each pattern and a segment's re-test judge it on their own) are one\n"
        "accusation: the one naming fewer hosts is cleared (cleared_by segment). Links\n"
        "of an oversubscribed host (more ranks than cores) are measured and reported but\n"
        "not judged, nor is the latency of a pair whose ranks waited for a core half of\n"
        "its ping-pongs or more: their times are the scheduler's as much as the link's.\n",
    .exit_codes = "exit codes: 0 ok (suspects are reported but do not fail the run unless\n"
                  "            --fail-on-suspect), 1 a suspect confirmed with --fail-on-suspect,\n"
                  "            2 bad usage, 4 hang or dead rank, 5 MPI, memory or I/O error\n",
    .groups = groups,
    .size = sizeof(struct links_opts),
    .check = check,
    .check_world = check_world,
    .echo = echo,
};
