/*
 * collscope watch: a soak mode that finds fail-slow episodes as they happen
 * (issue 34). Parse (watch_opts.c), run (cmd/run/watch_run.c), print (here):
 * one line a change, as it is found.
 */
#include <mpi.h>

#include "cmd/run/run.h"
#include "cmd/watch_opts.h"
#include "reports/watch/watch_state.h"

#include <stdio.h>
#include <time.h>

static void print_event(const struct watch_state *s, const struct watch_event *e, double start_s)
{
	const struct watch_series *x = &s->series[e->series];
	const char *unit = x->kind == WATCH_LATENCY ? "us" : "GB/s";
	char when[32];
	time_t t = (time_t)e->t_s;
	struct tm tm;
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
	printf("# change: %s (+%.1f s) %s %s %.2fx (%.4g -> %.4g %s), p %.3g, confirmed after %zu "
	       "samples",
	       when, e->t_s - start_s, x->name, e->slower ? "slower" : "faster", e->step, e->before,
	       e->after, unit, e->p_value, e->delay_samples);
	if (e->attributed)
		printf("; %s %s (%s, %s)", detect_kind_name(e->attribution.kind),
		       e->attribution.who,
		       detect_direction_name(e->attribution.kind, e->attribution.direction),
		       e->attribution.by_classifier ? "classifier" : "its own link");
	printf("\n");
	fflush(stdout);
}

int cmd_watch(void *opts, struct cmd_ctx *ctx)
{
	return watch_measure(ctx, opts, print_event);
}
