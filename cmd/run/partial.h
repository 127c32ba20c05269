/*
 * A report that rank 0 writes as it grows: "events": [] and "complete": false
 * from the start, rewritten atomically as it grows (after every step, or at
 * most once a second: run_partial_flush_every), so a job killed halfway leaves
 * what it finished on disk as valid JSON; the watchdog's hang
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
	double written_s;     /* when it was last written (clock_local_s) */
	pthread_mutex_t lock; /* the root, between the main thread and the hang hook */
};

/*
 * A sweep of short points rewrites its report at most this often: each write
 * prints the whole report, every point's samples, and 192 writes of the
 * default sweep's report (1.2 MB at its end) cost it 5.7 of its 21 s.
 */
#define PARTIAL_MIN_INTERVAL_S 1.0

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
 * The same when the last write is at least min_interval_s old (or there was
 * none); else nothing yet: the next write, the hang hook's or the last one,
 * carries it. Returns an exit code.
 */
int run_partial_flush_every(struct run_partial *p, double min_interval_s);
/*
 * With the lock held: the context's "finished_utc", "complete": true, then
 * the last write. Returns an exit code.
 */
int run_partial_complete_locked(struct run_partial *p, const char *finished_utc);

/* watchdog_hang_fn: arg is a struct run_partial. */
void run_partial_on_hang(void *arg, const char *event);

#endif
