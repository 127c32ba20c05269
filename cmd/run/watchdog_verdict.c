/* See watchdog_verdict.h. */
#include "cmd/run/watchdog_verdict.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "algorithms/progress.h"

bool wd_silent(const struct wd_view *v, double now, double timeout_s)
{
	return v->connected && now - v->heard_s > timeout_s;
}

bool wd_hung(const struct wd_view *v, int n, double now, double timeout_s)
{
	for (int r = 0; r < n; r++) {
		if (!v[r].seen)
			continue;
		bool stuck = now - v[r].moved_s > timeout_s && v[r].phase != PROGRESS_IDLE;
		if (stuck || wd_silent(&v[r], now, timeout_s))
			return true;
	}
	return false;
}

/* Appends to buf at *used, never past len. */
static void add(char *buf, size_t len, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(*used < len ? buf + *used : NULL, *used < len ? len - *used : 0, fmt, ap);
	va_end(ap);
	if (k > 0)
		*used += (size_t)k;
}

static void where(char *out, size_t len, const struct wd_view *v)
{
	progress_describe(out, len, v->variant, v->bytes, v->phase, v->iteration);
}

int wd_describe(char *buf, size_t len, const char *command, double timeout_s,
                const struct wd_view *v, int n, double now)
{
	char at[160];
	size_t used = 0;
	uint64_t most = 0;
	int late = 0;
	if (len)
		buf[0] = '\0';
	for (int r = 0; r < n; r++)
		if (v[r].seen && v[r].ticks > most)
			most = v[r].ticks;
	add(buf, len, &used,
	    "hang in %s: no progress within the %.0f s timeout; ranks that had not arrived:",
	    command, timeout_s);
	/* the hang waited the timeout; who is not answering is judged by missed heartbeats */
	double quiet_s = fmin(timeout_s, WD_SILENT_S);
	for (int r = 0; r < n; r++) {
		bool silent = wd_silent(&v[r], now, quiet_s);
		if (!v[r].seen || (!silent && (v[r].ticks == most || v[r].phase == PROGRESS_IDLE)))
			continue;
		where(at, sizeof at, &v[r]);
		if (silent)
			add(buf, len, &used,
			    "%s rank %d (not answering for %.0f s: stopped, stuck or dead; last at "
			    "%s)",
			    late++ ? ";" : "", r, now - v[r].heard_s, at);
		else
			add(buf, len, &used,
			    "%s rank %d (answering but making no progress; last at %s)",
			    late++ ? ";" : "", r, at);
	}
	if (!late)
		add(buf, len, &used,
		    " none: every rank is inside the same operation (a deadlock or a lost "
		    "message)");
	for (int r = 0; r < n; r++)
		if (v[r].seen && v[r].ticks == most && !wd_silent(&v[r], now, quiet_s)) {
			where(at, sizeof at, &v[r]);
			add(buf, len, &used, "; rank %d waits at %s", r, at);
			break; /* one example of where the others wait */
		}
	return (int)used;
}
