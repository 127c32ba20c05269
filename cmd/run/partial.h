/*
 * A report that rank 0 writes as it grows: "events": [] and "complete": false
 * from the start, rewritten atomically after every step, so a job killed
 * halfway leaves what it finished on disk as valid JSON; the watchdog's hang
 * hook (run_partial_on_hang, on its own thread) adds the hang and writes it
 * once more before the job ends. The first write honours --force; later ones
 * replace our own file.
 */
#ifndef COLLSCOPE_CMD_PARTIAL_H
#define COLLSCOPE_CMD_PARTIAL_H

#include <pthread.h>
#include <stdbool.h>

#include <cjson/cJSON.h>

struct cmd_ctx;

struct run_partial {
	const struct cmd_ctx *ctx;
	cJSON *root;      /* rank 0; the caller owns it */
	const char *path; /* NULL: nothing is written */
	bool force, written;
	pthread_mutex_t lock; /* the root, between the main thread and the hang hook */
};

void run_partial_init(struct run_partial *p, const struct cmd_ctx *ctx);
/* Rank 0: adopt root (still the caller's), adding "events" and "complete": false; -1 when out of memory. */
int run_partial_start(struct run_partial *p, cJSON *root, const char *path, bool force);
void run_partial_release(struct run_partial *p);

/* Hold the lock while changing the root from the main thread. */
void run_partial_lock(struct run_partial *p);
void run_partial_unlock(struct run_partial *p);

/* Write the root as it stands (takes the lock). Returns an exit code. */
int run_partial_flush(struct run_partial *p);
/*
 * With the lock held: the context's "finished_utc", "complete": true, then
 * the last write. Returns an exit code.
 */
int run_partial_complete_locked(struct run_partial *p, const char *finished_utc);

/* watchdog_hang_fn: arg is a struct run_partial. */
void run_partial_on_hang(void *arg, const char *event);

#endif
