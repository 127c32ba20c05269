/*
 * Where and how a run happened: the `context` block of every report.
 * Pure data; probes/topology.c fills the placement from hwloc and the host names,
 * cmd/ fills the rest. report_context_to_json writes it (reports/io/context.c).
 */
#ifndef COLLSCOPE_CONTEXT_H
#define COLLSCOPE_CONTEXT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#define CTX_NAME_BYTES 256

struct ctx_rank {
	int rank;
	int pid;
	char host[CTX_NAME_BYTES];
	char cpuset[CTX_NAME_BYTES]; /* the cores it is bound to, as a list "0-3,8" */
	int numa_node;               /* -1 when unknown or spanning several */
	int package;                 /* -1 when unknown or spanning several */
	bool bound;                  /* bound to fewer PUs than its host has */
};

struct ctx_host {
	char name[CTX_NAME_BYTES];
	char cpu_model[CTX_NAME_BYTES]; /* "" when unknown (probes/mpit.c) */
	char kernel[CTX_NAME_BYTES];    /* "Linux 6.1.0-18-amd64 x86_64"; "" when unknown */
	int cores, pus, numa_nodes, packages;
	int nranks;
	int *ranks; /* owned: nranks entries */
	bool oversubscribed; /* more ranks than cores */
};

/*
 * A control variable of the MPI library (MPI_T) in force, as the library
 * reports it: one that decides how collectives run (report_cvar_wanted).
 */
enum ctx_cvar_kind { CTX_CVAR_NUMBER, CTX_CVAR_BOOL, CTX_CVAR_STRING };

struct ctx_cvar {
	char name[128];
	enum ctx_cvar_kind kind;
	double number;
	bool flag;
	char text[256];
};

/*
 * The clock synchronisation of a sweep (algorithms/clock_sync.h): every
 * rank's clock against rank 0's, from ping-pongs, redone as the sweep goes.
 * The figures are the worst over the ranks and over every sync so far.
 */
struct ctx_clock_sync {
	bool done;            /* at least one sync: the block is written */
	double error_us;      /* after a sync, a check's largest gap from the model (clock_residual) */
	double bound_us;      /* the largest half round trip (the error if a path were one-sided) */
	double max_offset_us; /* the largest |offset| of a rank to rank 0 */
	double max_drift_ppm; /* the largest |drift| */
	double max_jump_us;   /* the largest error a model had accrued by its resync; NAN: none yet */
	int syncs;            /* the first and every resync */
	double interval_s;    /* a sync older than this is redone before the next point */
	double last_duration_us;
	int shared_clock_ranks; /* ranks reading rank 0's own clock, rank 0 included */
	int measured_ranks;     /* ranks measured by ping-pong: one per other clock */
};

struct report_context {
	const char *tool_name, *tool_version, *tool_git; /* static strings */
	int argc;
	char **argv;                       /* borrowed */
	char started_utc[32], finished_utc[32]; /* ISO 8601, "2026-11-29T11:18:21Z" */
	char mpi_library[512];
	int nranks;
	struct ctx_rank *ranks; /* owned: nranks entries (rank 0 only) */
	int nhosts;
	struct ctx_host *hosts; /* owned */
	bool oversubscribed;    /* any host */
	double timer_resolution_us;
	double timer_overhead_us; /* cost of one timer read, measured; -1 unknown */
	/* allow-listed environment (report_context_capture_env): owned "NAME=value" strings */
	int nenv;
	char **env;
	/* the library's control variables in force (rank 0, probes/mpit.c): owned */
	int ncvars;
	struct ctx_cvar *cvars;
	struct ctx_clock_sync clock; /* rank 0 */
};

void report_context_init(struct report_context *c);
void report_context_release(struct report_context *c);
/* Current UTC time as ISO 8601 into buf (at least 32 bytes). */
void report_utc_now(char *buf, size_t len);
/*
 * Keep only OMPI_*, MPIR_CVAR_* (MPICH's control variables), SLURM_*,
 * COLLSCOPE_* variables of envp; never the whole environment. A variable
 * whose name says it holds a secret (report_env_is_secret) keeps its name
 * with the value REPORT_ENV_REDACTED.
 */
int report_context_capture_env(struct report_context *c, char **envp);
#define REPORT_ENV_REDACTED "<redacted>"
/*
 * True when the name (len bytes, not terminated) contains, in any case,
 * password, passwd, secret, token, key or cred (credential), or is Open MPI's
 * per-job transport key (precondition_transports).
 */
bool report_env_is_secret(const char *name, size_t len);
/*
 * Sets "clock_sync" in the context object ctx (replacing what was there)
 * when c->done; false on allocation failure.
 */
bool report_clock_sync_to_json(cJSON *ctx, const struct ctx_clock_sync *c);
/* Add "context": {...} to root; returns the object or NULL on allocation failure. */
cJSON *report_context_to_json(cJSON *root, const struct report_context *c);
/*
 * Whether the MPI_T control variable name decides how an all-reduce runs, so
 * the report keeps it: the component selections ("coll", "pml", "btl",
 * "mtl"), every coll_*_priority, and every variable whose name says
 * allreduce or dynamic rules (Open MPI's coll_tuned_allreduce_algorithm,
 * coll_tuned_use_dynamic_rules; MPICH's MPIR_CVAR_ALLREDUCE_*), case
 * insensitive. Never a name that looks like a secret (password, secret,
 * token, key, credential).
 */
bool report_cvar_wanted(const char *name);
/* Appends a control variable to c->cvars; -1 when out of memory. */
int report_context_add_cvar(struct report_context *c, const struct ctx_cvar *v);
/*
 * This machine's CPU model (the first "model name", "Processor", "cpu
 * model" or "uarch" line of cpuinfo_text, /proc/cpuinfo's format) into buf;
 * "" when none. Pure.
 */
void report_cpu_model(const char *cpuinfo_text, char *buf, size_t len);
/* Reads /proc/cpuinfo and uname(2): the CPU model and "sysname release machine", "" unknown. */
void report_read_system(char *cpu_model, size_t cpu_len, char *kernel, size_t kernel_len);
/* The host index of every rank by name, for locality (hosts must be filled). */
int report_context_host_of(const struct report_context *c, int rank);

#endif
