/* The context block of a report: see context.h. */
#include "context.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

void report_context_init(struct report_context *c)
{
	memset(c, 0, sizeof *c);
	c->tool_name = "collscope";
	c->timer_resolution_us = -1;
	c->timer_overhead_us = -1;
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
	static const char *const prefixes[] = {"OMPI_", "SLURM_", "COLLSCOPE_"};
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
	cJSON *hosts = cJSON_AddArrayToObject(ctx, "hosts");
	for (int h = 0; hosts && h < c->nhosts; h++) {
		const struct ctx_host *ho = &c->hosts[h];
		cJSON *o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(hosts, o))
			return false;
		cJSON *ranks = cJSON_AddArrayToObject(o, "ranks");
		for (int i = 0; ranks && i < ho->nranks; i++)
			cJSON_AddItemToArray(ranks, cJSON_CreateNumber(ho->ranks[i]));
		if (!cJSON_AddStringToObject(o, "name", ho->name) ||
		    !cJSON_AddNumberToObject(o, "cores", ho->cores) ||
		    !cJSON_AddNumberToObject(o, "pus", ho->pus) ||
		    !cJSON_AddNumberToObject(o, "numa_nodes", ho->numa_nodes) ||
		    !cJSON_AddNumberToObject(o, "packages", ho->packages) ||
		    !cJSON_AddBoolToObject(o, "oversubscribed", ho->oversubscribed))
			return false;
	}
	return hosts != NULL;
}

static bool add_ranks(cJSON *ctx, const struct report_context *c)
{
	cJSON *ranks = cJSON_AddArrayToObject(ctx, "ranks");
	for (int r = 0; ranks && c->ranks && r < c->nranks; r++) {
		const struct ctx_rank *cr = &c->ranks[r];
		cJSON *o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(ranks, o))
			return false;
		if (!cJSON_AddNumberToObject(o, "rank", cr->rank) ||
		    !cJSON_AddStringToObject(o, "host", cr->host) ||
		    !cJSON_AddNumberToObject(o, "pid", cr->pid) ||
		    !cJSON_AddStringToObject(o, "cpuset", cr->cpuset) ||
		    !(cr->numa_node >= 0 ? cJSON_AddNumberToObject(o, "numa", cr->numa_node)
		                         : cJSON_AddNullToObject(o, "numa")) ||
		    !(cr->package >= 0 ? cJSON_AddNumberToObject(o, "package", cr->package)
		                       : cJSON_AddNullToObject(o, "package")) ||
		    !cJSON_AddBoolToObject(o, "bound", cr->bound))
			return false;
	}
	return ranks != NULL;
}

static bool add_tool_and_mpi(cJSON *ctx, const struct report_context *c)
{
	cJSON *tool = cJSON_AddObjectToObject(ctx, "tool");
	cJSON *mpi = cJSON_AddObjectToObject(ctx, "mpi");
	cJSON *argv = cJSON_AddArrayToObject(ctx, "argv");
	if (!tool || !mpi || !argv)
		return false;
	for (int i = 0; i < c->argc; i++)
		if (!cJSON_AddItemToArray(argv, cJSON_CreateString(c->argv[i])))
			return false;
	return cJSON_AddStringToObject(tool, "name", c->tool_name ? c->tool_name : "collscope") &&
	       cJSON_AddStringToObject(tool, "version", c->tool_version ? c->tool_version : "") &&
	       cJSON_AddStringToObject(tool, "git", c->tool_git ? c->tool_git : "") &&
	       cJSON_AddStringToObject(mpi, "library", c->mpi_library) &&
	       cJSON_AddNumberToObject(mpi, "ranks", c->nranks);
}

cJSON *report_context_to_json(cJSON *root, const struct report_context *c)
{
	cJSON *ctx = cJSON_AddObjectToObject(root, "context");
	if (!ctx || !add_tool_and_mpi(ctx, c) ||
	    !cJSON_AddStringToObject(ctx, "started_utc", c->started_utc) ||
	    !cJSON_AddStringToObject(ctx, "finished_utc", c->finished_utc) || !add_hosts(ctx, c) ||
	    !add_ranks(ctx, c) || !cJSON_AddBoolToObject(ctx, "oversubscribed", c->oversubscribed) ||
	    !(c->timer_resolution_us >= 0
	          ? cJSON_AddNumberToObject(ctx, "timer_resolution_us", c->timer_resolution_us)
	          : cJSON_AddNullToObject(ctx, "timer_resolution_us")) ||
	    !(c->timer_overhead_us >= 0
	          ? cJSON_AddNumberToObject(ctx, "timer_overhead_us", c->timer_overhead_us)
	          : cJSON_AddNullToObject(ctx, "timer_overhead_us")))
		return NULL;
	cJSON *env = cJSON_AddObjectToObject(ctx, "environment");
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
