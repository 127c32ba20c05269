/*
 * collscope accept: the spec, a JSON document listing the checks a cluster
 * must pass and their thresholds (README.md, "collscope accept"). Pure:
 * libc, libm and cJSON; no MPI, no I/O (the command reads the file with
 * report_read, whose envelope the spec carries: "schema_version": 1 and
 * "command": "accept-spec").
 *
 * The parser judges the whole document and names every bad field with its
 * JSON path, one line each ("checks.links.min_bandwidth_gbps.cross_host:
 * expected a number > 0, got \"fast\""): wrong types, values out of range,
 * unknown fields (a typo must not turn a check off), duplicate points,
 * empty sections.
 */
#ifndef COLLSCOPE_ACCEPT_SPEC_H
#define COLLSCOPE_ACCEPT_SPEC_H

#include "algorithms/variant.h"
#include "reports/diagnose/detect.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ACCEPT_SPEC_VERSION 1
#define ACCEPT_SPEC_COMMAND "accept-spec"
#define ACCEPT_NAME_BYTES   64

/* The kinds of check, in the order they run and are printed. */
enum accept_kind { ACCEPT_TOPOLOGY, ACCEPT_VERIFY, ACCEPT_LINKS, ACCEPT_ALLREDUCE, ACCEPT_KINDS };

/* "topology", "verify", "links", "allreduce". */
const char *accept_kind_name(enum accept_kind k);

/* -1 where the spec does not check the figure. */
struct accept_topology_spec {
	int64_t hosts;               /* exactly this many hosts */
	int64_t ranks_per_host;      /* exactly, on every host */
	int64_t cores_per_host;      /* exactly, on every host */
	int64_t numa_nodes_per_host; /* exactly, on every host */
	bool allow_oversubscribed;   /* false: a host with more ranks than cores fails */
};

struct accept_verify_spec {
	bool all; /* "all": every variant the command has (names expanded when known) */
	char (*variants)[ACCEPT_NAME_BYTES]; /* owned */
	size_t nvariants;
};

/* NAN where the spec has no threshold for the class. */
struct accept_links_spec {
	double min_bandwidth_gbps[DETECT_LOCALITIES];
	double max_latency_us[DETECT_LOCALITIES];
	bool allow_suspects; /* false: any suspect link or host of `links` fails */
};

/*
 * One point of the allreduce check. collective: the all-reduce, or one of its
 * halves (allreduce --collective); a spec without the field means the
 * all-reduce, as every spec did before the halves.
 */
struct accept_ar_point {
	enum ar_collective collective;
	char variant[ACCEPT_NAME_BYTES];
	uint64_t bytes;
	double min_busbw_gbps, max_p99_us; /* NAN: not checked (at least one is set) */
};

struct accept_allreduce_spec {
	char dtype[ACCEPT_NAME_BYTES], op[ACCEPT_NAME_BYTES]; /* default float32, sum */
	bool in_place;
	struct accept_ar_point *points; /* owned, in the spec's order */
	size_t npoints;
};

struct accept_spec {
	char name[256]; /* "" when the spec has none */
	bool fragile;   /* derived.fragile: a threshold came from one run, no measured spread */
	bool has[ACCEPT_KINDS];
	struct accept_topology_spec topology;
	struct accept_verify_spec verify;
	struct accept_links_spec links;
	struct accept_allreduce_spec allreduce;
};

/*
 * The names the command knows, to check the spec's against: any list may be
 * NULL (not checked). With variants given, "variants": "all" is expanded:
 * to every one, or with in_all to those whose in_all[i] is set (the registry
 * leaves its guideline mock-ups out of "all": algorithms/variant.h).
 */
struct accept_names {
	const char *const *variants;
	size_t nvariants;
	const char *const *dtypes;
	size_t ndtypes;
	const char *const *ops;
	size_t nops;
	const bool *in_all; /* NULL, or nvariants of them */
};

void accept_spec_init(struct accept_spec *s);
void accept_spec_release(struct accept_spec *s);

/*
 * Reads root into *out (initialised here). Returns 0, or -1 with every
 * problem in err, one "PATH: what is wrong" line each ("\n"-separated, at
 * most len bytes, "... and N more errors" when they do not fit); *out is then
 * released. names may be NULL.
 */
int accept_spec_parse_names(const cJSON *root, const struct accept_names *names,
                            struct accept_spec *out, char *err, size_t len);
int accept_spec_parse(const cJSON *root, struct accept_spec *out, char *err, size_t len);

/*
 * Adds "spec_version", "name" (when set) and "checks" to root, in the form the
 * parser reads; the caller adds the envelope. Returns root, or NULL when out
 * of memory.
 */
cJSON *accept_spec_to_json(cJSON *root, const struct accept_spec *s);

/* The spec path of a threshold, for results and provenance:
 * "checks.links.max_latency_us.same_host". */
void accept_spec_path_links(char *buf, size_t len, bool bandwidth, enum detect_locality l);
void accept_spec_path_point(char *buf, size_t len, size_t point, bool busbw);

/* What names a point's collective before its variant in messages: "reduce_scatter ",
 * "allgather ", and "" for the all-reduce (whose messages read as they always did). */
const char *accept_collective_prefix(enum ar_collective c);

#endif
