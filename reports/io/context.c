/* The context block of a report: see context.h. */
#include "reports/io/context.h"
#include "reports/io/report_io.h"
#include "reports/io/report_schema.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/utsname.h>
#include <time.h>

void report_context_init(struct report_context *c)
{
	memset(c, 0, sizeof *c);
	c->tool_name = "collscope";
	c->timer_resolution_us = -1;
	c->timer_overhead_us = -1;
	c->clock.max_jump_us = NAN;
}

void report_context_release(struct report_context *c)
{
	for (int h = 0; h < c->nhosts; h++)
		free(c->hosts[h].ranks);
	free(c->hosts);
	free(c->ranks);
	for (int i = 0; i < c->nenv; i++)
		free(c->env[i]);
	free(c->env);
	free(c->cvars);
	memset(c, 0, sizeof *c);
}

void report_utc_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static bool allowed_env(const char *kv)
{
	static const char *const prefixes[] = {"OMPI_", "MPIR_CVAR_", "SLURM_", "COLLSCOPE_"};
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (strncmp(kv, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

/*
 * Names that say they hold a secret, in any case and whatever the prefix
 * (OMPI_MCA_btl_tcp_password, SLURM_JOB_PASSWORD, COLLSCOPE_API_KEY), and
 * Open MPI's per-job transport key (OMPI_MCA_orte_precondition_transports),
 * whose name does not.
 */
bool report_env_is_secret(const char *name, size_t len)
{
	static const char *const words[] = {"password", "passwd", "secret", "token", "key",
	                                    "cred",     "precondition_transports"};

	for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
		size_t n = strlen(words[w]);
		for (size_t i = 0; i + n <= len; i++)
			if (strncasecmp(name + i, words[w], n) == 0)
				return true;
	}
	return false;
}

/* "NAME=value", or "NAME=<redacted>" for a secret; NULL when out of memory. */
static char *env_entry(const char *kv)
{
	const char *eq = strchr(kv, '=');
	size_t name_len = eq ? (size_t)(eq - kv) : strlen(kv);
	char *out;

	if (!report_env_is_secret(kv, name_len))
		return strdup(kv);
	if (asprintf(&out, "%.*s=%s", (int)name_len, kv, REPORT_ENV_REDACTED) < 0)
		return NULL;
	return out;
}

int report_context_capture_env(struct report_context *c, char **envp)
{
	int n = 0;
	for (char **e = envp; e && *e; e++)
		n += allowed_env(*e);
	char **env = calloc((size_t)n + 1, sizeof *env);
	if (!env)
		return -1;
	int k = 0;
	for (char **e = envp; e && *e && k < n; e++)
		if (allowed_env(*e) && !(env[k++] = env_entry(*e)))
			goto fail;
	c->env = env;
	c->nenv = n;
	return 0;
fail:
	for (int i = 0; i < k; i++)
		free(env[i]);
	free(env);
	return -1;
}

static bool contains_nocase(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (; *s; s++)
		if (strncasecmp(s, word, n) == 0)
			return true;
	return false;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && strcmp(s + n - t, tail) == 0;
}

bool report_cvar_wanted(const char *name)
{
	static const char *const selections[] = {"coll", "pml", "btl", "mtl"};
	static const char *const secrets[] = {"password", "secret", "token", "key", "credential"};

	for (size_t i = 0; i < sizeof secrets / sizeof secrets[0]; i++)
		if (contains_nocase(name, secrets[i]))
			return false;
	for (size_t i = 0; i < sizeof selections / sizeof selections[0]; i++)
		if (strcmp(name, selections[i]) == 0)
			return true;
	return (strncmp(name, "coll_", 5) == 0 && ends_with(name, "_priority")) ||
	       contains_nocase(name, "allreduce") || contains_nocase(name, "dynamic_rules");
}

int report_context_add_cvar(struct report_context *c, const struct ctx_cvar *v)
{
	struct ctx_cvar *grown = realloc(c->cvars, ((size_t)c->ncvars + 1) * sizeof *grown);

	if (!grown)
		return -1;
	c->cvars = grown;
	c->cvars[c->ncvars++] = *v;
	return 0;
}

/* The value of a "key : value" line of /proc/cpuinfo whose key is one of keys, trimmed. */
static bool cpuinfo_value(const char *line, size_t n, char *buf, size_t len)
{
	static const char *const keys[] = {"model name", "Processor", "cpu model", "uarch"};
	const char *colon = memchr(line, ':', n);
	size_t k;

	if (!colon)
		return false;
	k = (size_t)(colon - line);
	while (k > 0 && isspace((unsigned char)line[k - 1]))
		k--;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		if (strlen(keys[i]) != k || strncmp(line, keys[i], k) != 0)
			continue;
		const char *v = colon + 1, *end = line + n;
		while (v < end && isspace((unsigned char)*v))
			v++;
		while (end > v && isspace((unsigned char)end[-1]))
			end--;
		if (end == v)
			return false;
		snprintf(buf, len, "%.*s", (int)(end - v), v);
		return true;
	}
	return false;
}

void report_cpu_model(const char *cpuinfo_text, char *buf, size_t len)
{
	const char *line = cpuinfo_text ? cpuinfo_text : "";

	buf[0] = '\0';
	while (*line) {
		size_t n = strcspn(line, "\n");
		if (cpuinfo_value(line, n, buf, len))
			return;
		line += n + (line[n] == '\n');
	}
}

void report_read_system(char *cpu_model, size_t cpu_len, char *kernel, size_t kernel_len)
{
	char text[16384];
	struct utsname u;
	FILE *f = fopen("/proc/cpuinfo", "r");
	size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;

	if (f)
		fclose(f);
	text[n] = '\0';
	report_cpu_model(text, cpu_model, cpu_len);
	kernel[0] = '\0';
	if (uname(&u) == 0)
		snprintf(kernel, kernel_len, "%s %s %s", u.sysname, u.release, u.machine);
}

int report_context_host_of(const struct report_context *c, int rank)
{
	for (int h = 0; h < c->nhosts; h++)
		for (int i = 0; i < c->hosts[h].nranks; i++)
			if (c->hosts[h].ranks[i] == rank)
				return h;
	return -1;
}

static bool add_hosts(cJSON *ctx, const struct report_context *c)
{
	cJSON *hosts = cJSON_AddArrayToObject(ctx, SK_CTX_HOSTS);
	for (int h = 0; hosts && h < c->nhosts; h++) {
		const struct ctx_host *ho = &c->hosts[h];
		cJSON *o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(hosts, o))
			return false;
		cJSON *ranks = cJSON_AddArrayToObject(o, SK_CHOST_RANKS);
		for (int i = 0; ranks && i < ho->nranks; i++)
			cJSON_AddItemToArray(ranks, cJSON_CreateNumber(ho->ranks[i]));
		if (!cJSON_AddStringToObject(o, SK_CHOST_NAME, ho->name) ||
		    !cJSON_AddNumberToObject(o, SK_CHOST_CORES, ho->cores) ||
		    !cJSON_AddNumberToObject(o, SK_CHOST_PUS, ho->pus) ||
		    !cJSON_AddNumberToObject(o, SK_CHOST_NUMA_NODES, ho->numa_nodes) ||
		    !cJSON_AddNumberToObject(o, SK_CHOST_PACKAGES, ho->packages) ||
		    !cJSON_AddBoolToObject(o, SK_CHOST_OVERSUBSCRIBED, ho->oversubscribed) ||
		    (ho->cpu_model[0] &&
		     !cJSON_AddStringToObject(o, SK_CHOST_CPU_MODEL, ho->cpu_model)) ||
		    (ho->kernel[0] && !cJSON_AddStringToObject(o, SK_CHOST_KERNEL, ho->kernel)))
			return false;
	}
	return hosts != NULL;
}

static bool add_ranks(cJSON *ctx, const struct report_context *c)
{
	cJSON *ranks = cJSON_AddArrayToObject(ctx, SK_CTX_RANKS);
	for (int r = 0; ranks && c->ranks && r < c->nranks; r++) {
		const struct ctx_rank *cr = &c->ranks[r];
		cJSON *o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(ranks, o))
			return false;
		if (!cJSON_AddNumberToObject(o, SK_CRANK_RANK, cr->rank) ||
		    !cJSON_AddStringToObject(o, SK_CRANK_HOST, cr->host) ||
		    !cJSON_AddNumberToObject(o, SK_CRANK_PID, cr->pid) ||
		    !cJSON_AddStringToObject(o, SK_CRANK_CPUSET, cr->cpuset) ||
		    !(cr->numa_node >= 0 ? cJSON_AddNumberToObject(o, SK_CRANK_NUMA, cr->numa_node)
		                         : cJSON_AddNullToObject(o, SK_CRANK_NUMA)) ||
		    !(cr->package >= 0 ? cJSON_AddNumberToObject(o, SK_CRANK_PACKAGE, cr->package)
		                       : cJSON_AddNullToObject(o, SK_CRANK_PACKAGE)) ||
		    !cJSON_AddBoolToObject(o, SK_CRANK_BOUND, cr->bound))
			return false;
	}
	return ranks != NULL;
}

/* "cvars": {name: value} when the library reported any (MPI_T). */
static bool add_cvars(cJSON *mpi, const struct report_context *c)
{
	cJSON *o;

	if (c->ncvars == 0)
		return true;
	o = cJSON_AddObjectToObject(mpi, SK_MPI_CVARS);
	for (int i = 0; o && i < c->ncvars; i++) {
		const struct ctx_cvar *v = &c->cvars[i];
		if (cJSON_GetObjectItemCaseSensitive(o, v->name))
			continue; /* a name twice would make the report unreadable */
		if (!(v->kind == CTX_CVAR_STRING ? cJSON_AddStringToObject(o, v->name, v->text)
		      : v->kind == CTX_CVAR_BOOL ? cJSON_AddBoolToObject(o, v->name, v->flag)
		                                 : cJSON_AddNumberToObject(o, v->name, v->number)))
			return false;
	}
	return o != NULL;
}

static bool add_tool_and_mpi(cJSON *ctx, const struct report_context *c)
{
	cJSON *tool = cJSON_AddObjectToObject(ctx, SK_CTX_TOOL);
	cJSON *mpi = cJSON_AddObjectToObject(ctx, SK_CTX_MPI);
	cJSON *argv = cJSON_AddArrayToObject(ctx, SK_CTX_ARGV);
	if (!tool || !mpi || !argv)
		return false;
	for (int i = 0; i < c->argc; i++)
		if (!cJSON_AddItemToArray(argv, cJSON_CreateString(c->argv[i])))
			return false;
	return cJSON_AddStringToObject(tool, SK_TOOL_NAME,
	                               c->tool_name ? c->tool_name : "collscope") &&
	       cJSON_AddStringToObject(tool, SK_TOOL_VERSION,
	                               c->tool_version ? c->tool_version : "") &&
	       cJSON_AddStringToObject(tool, SK_TOOL_GIT, c->tool_git ? c->tool_git : "") &&
	       cJSON_AddStringToObject(mpi, SK_MPI_LIBRARY, c->mpi_library) &&
	       cJSON_AddNumberToObject(mpi, SK_MPI_RANKS, c->nranks) && add_cvars(mpi, c);
}

bool report_clock_sync_to_json(cJSON *ctx, const struct ctx_clock_sync *c)
{
	if (!c->done)
		return true;
	cJSON_DeleteItemFromObjectCaseSensitive(ctx, SK_CTX_CLOCK_SYNC);
	cJSON *o = cJSON_AddObjectToObject(ctx, SK_CTX_CLOCK_SYNC);
	return o &&
	       cJSON_AddStringToObject(o, SK_CLOCK_METHOD,
	                               "CLOCK_MONOTONIC; a rank of rank 0's kernel reads its clock "
	                               "(offset 0, checked); the first rank of each other clock by "
	                               "ping-pong to rank 0, shortest round trip of each round "
	                               "(Jones/Koenig), drift from the history of syncs, and the "
	                               "other ranks of that clock take its model") &&
	       cJSON_AddNumberToObject(o, SK_CLOCK_REFERENCE_RANK, 0) &&
	       report_add_number(o, SK_CLOCK_ERROR_US, c->error_us) &&
	       report_add_number(o, SK_CLOCK_BOUND_US, c->bound_us) &&
	       report_add_number(o, SK_CLOCK_MAX_OFFSET_US, c->max_offset_us) &&
	       report_add_number(o, SK_CLOCK_MAX_DRIFT_PPM, c->max_drift_ppm) &&
	       report_add_number(o, SK_CLOCK_MAX_JUMP_US, c->max_jump_us) &&
	       cJSON_AddNumberToObject(o, SK_CLOCK_SYNCS, c->syncs) &&
	       cJSON_AddNumberToObject(o, SK_CLOCK_RESYNCS, c->syncs > 0 ? c->syncs - 1 : 0) &&
	       report_add_number(o, SK_CLOCK_INTERVAL_S, c->interval_s) &&
	       report_add_number(o, SK_CLOCK_LAST_DURATION_US, c->last_duration_us) &&
	       cJSON_AddNumberToObject(o, SK_CLOCK_SHARED_CLOCK_RANKS, c->shared_clock_ranks) &&
	       cJSON_AddNumberToObject(o, SK_CLOCK_MEASURED_RANKS, c->measured_ranks);
}

cJSON *report_context_to_json(cJSON *root, const struct report_context *c)
{
	cJSON *ctx = cJSON_AddObjectToObject(root, SK_REPORT_CONTEXT);
	if (!ctx || !add_tool_and_mpi(ctx, c) ||
	    !cJSON_AddStringToObject(ctx, SK_CTX_STARTED_UTC, c->started_utc) ||
	    !cJSON_AddStringToObject(ctx, SK_CTX_FINISHED_UTC, c->finished_utc) ||
	    !add_hosts(ctx, c) || !add_ranks(ctx, c) ||
	    !cJSON_AddBoolToObject(ctx, SK_CTX_OVERSUBSCRIBED, c->oversubscribed) ||
	    !(c->timer_resolution_us >= 0
	          ? cJSON_AddNumberToObject(ctx, SK_CTX_TIMER_RESOLUTION_US, c->timer_resolution_us)
	          : cJSON_AddNullToObject(ctx, SK_CTX_TIMER_RESOLUTION_US)) ||
	    !(c->timer_overhead_us >= 0
	          ? cJSON_AddNumberToObject(ctx, SK_CTX_TIMER_OVERHEAD_US, c->timer_overhead_us)
	          : cJSON_AddNullToObject(ctx, SK_CTX_TIMER_OVERHEAD_US)) ||
	    !report_clock_sync_to_json(ctx, &c->clock))
		return NULL;
	cJSON *env = cJSON_AddObjectToObject(ctx, SK_CTX_ENVIRONMENT);
	for (int i = 0; env && i < c->nenv; i++) {
		const char *eq = strchr(c->env[i], '=');
		if (!eq)
			continue;
		char name[256];
		size_t n = (size_t)(eq - c->env[i]) < sizeof name - 1 ? (size_t)(eq - c->env[i])
		                                                       : sizeof name - 1;
		memcpy(name, c->env[i], n);
		name[n] = '\0';
		cJSON_AddStringToObject(env, name, eq + 1);
	}
	return env ? ctx : NULL;
}
