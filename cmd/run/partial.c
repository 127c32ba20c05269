/* See partial.h. */
#include <mpi.h>

#include "cmd/run/partial.h"
#include "reports/io/report_schema.h"
#include "cmd/run/run.h"
#include "reports/diagnose/flight.h"
#include "cmd/run/watchdog.h"
#include "algorithms/clock_id.h"

#include <stdlib.h>
#include <time.h>

void run_partial_init(struct run_partial *p, const struct cmd_ctx *ctx)
{
	*p = (struct run_partial){.ctx = ctx};
	pthread_mutex_init(&p->lock, NULL);
}

int run_partial_start(struct run_partial *p, cJSON *root, const char *path, bool force)
{
	pthread_mutex_lock(&p->lock);
	p->root = root;
	p->path = path;
	p->force = force;
	bool ok = cJSON_AddArrayToObject(root, SK_REPORT_EVENTS) &&
	          cJSON_AddBoolToObject(root, SK_REPORT_COMPLETE, false);
	pthread_mutex_unlock(&p->lock);
	return ok ? 0 : -1;
}

void run_partial_release(struct run_partial *p) { pthread_mutex_destroy(&p->lock); }

void run_partial_lock(struct run_partial *p) { pthread_mutex_lock(&p->lock); }

void run_partial_unlock(struct run_partial *p) { pthread_mutex_unlock(&p->lock); }

static int write_locked(struct run_partial *p)
{
	if (!p->path || !p->root)
		return EXIT_OK;
	int status = run_report_write(p->ctx, p->path, p->root, p->written || p->force);
	p->written = p->written || status == EXIT_OK;
	p->written_s = clock_local_s();
	return status;
}

int run_partial_flush_every(struct run_partial *p, double min_interval_s)
{
	pthread_mutex_lock(&p->lock);
	bool due = !p->written || clock_local_s() - p->written_s >= min_interval_s;
	int status = due ? write_locked(p) : EXIT_OK;
	pthread_mutex_unlock(&p->lock);
	return status;
}

int run_partial_flush(struct run_partial *p)
{
	pthread_mutex_lock(&p->lock);
	int status = write_locked(p);
	pthread_mutex_unlock(&p->lock);
	return status;
}

int run_partial_complete_locked(struct run_partial *p, const char *finished_utc)
{
	cJSON *context = cJSON_GetObjectItemCaseSensitive(p->root, "context");
	cJSON_DeleteItemFromObjectCaseSensitive(p->root, "complete");
	if (!cJSON_ReplaceItemInObjectCaseSensitive(context, "finished_utc",
	                                            cJSON_CreateString(finished_utc)) ||
	    !cJSON_AddBoolToObject(p->root, SK_REPORT_COMPLETE, true)) {
		cmd_error(p->ctx, "out of memory for the report");
		return EXIT_RUNTIME;
	}
	return write_locked(p);
}

/* The watchdog's flight record of the hang as "hang" (reports/diagnose/flight.h), hosts from the context. */
static void add_flight(cJSON *root)
{
	const struct flight_verdict *v;
	int n;
	const struct flight_rank *ranks = watchdog_flight(&v, &n);
	const char **hosts = ranks ? calloc((size_t)n, sizeof *hosts) : NULL;
	const cJSON *context = cJSON_GetObjectItemCaseSensitive(root, "context");
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(context, "ranks");
	if (!ranks)
		return;
	for (const cJSON *e = cJSON_IsArray(list) ? list->child : NULL; e; e = e->next) {
		const cJSON *rank = cJSON_GetObjectItemCaseSensitive(e, "rank");
		const cJSON *host = cJSON_GetObjectItemCaseSensitive(e, "host");
		if (hosts && cJSON_IsNumber(rank) && rank->valueint >= 0 && rank->valueint < n &&
		    cJSON_IsString(host))
			hosts[rank->valueint] = host->valuestring;
	}
	flight_to_json(root, ranks, v, hosts);
	free(hosts);
}

void run_partial_on_hang(void *arg, const char *event)
{
	struct run_partial *p = arg;
	struct timespec deadline;
	char at[32];
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += 2; /* the main thread never holds the lock inside MPI; be safe anyway */
	if (!p->root || pthread_mutex_timedlock(&p->lock, &deadline) != 0)
		return;
	report_utc_now(at, sizeof at);
	cJSON *events = cJSON_GetObjectItemCaseSensitive(p->root, "events");
	cJSON *e = cJSON_CreateObject();
	if (e && cJSON_AddItemToArray(events, e)) {
		cJSON_AddStringToObject(e, SK_EVENT_KIND, "hang");
		cJSON_AddStringToObject(e, SK_EVENT_AT_UTC, at);
		cJSON_AddStringToObject(e, SK_EVENT_MESSAGE, event);
		cJSON_AddNumberToObject(e, SK_EVENT_EXIT_CODE, EXIT_HANG);
		add_flight(p->root);
		write_locked(p);
	} else {
		cJSON_Delete(e);
	}
	pthread_mutex_unlock(&p->lock);
}
