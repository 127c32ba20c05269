/* See progress.h. */
#include "algorithms/progress.h"

#include <stdio.h>

#include "algorithms/variant.h"

struct progress ar_progress = {.variant = -1};

void progress_point(int variant, uint64_t bytes)
{
	atomic_store_explicit(&ar_progress.variant, variant, memory_order_relaxed);
	atomic_store_explicit(&ar_progress.bytes, bytes, memory_order_relaxed);
}

void progress_step(enum progress_phase phase, int64_t iteration)
{
	atomic_store_explicit(&ar_progress.phase, (int)phase, memory_order_relaxed);
	atomic_store_explicit(&ar_progress.iteration, iteration, memory_order_relaxed);
	atomic_fetch_add_explicit(&ar_progress.ticks, 1, memory_order_release);
}

void progress_describe(char *buf, size_t len, int variant, uint64_t bytes, int phase,
                       int64_t iteration)
{
	static const char *const phases[] = {"starting", "warm-up iteration", "timed iteration",
	                                     "verifying", "finishing", "check",
	                                     "waiting outside the sub-communicator of"};
	static const char *const activities[] = {"", "", "links round", "links re-measure of suspect",
	                                         "scale: forming the communicator of"};
	if (variant <= PROGRESS_LINKS_ROUND && variant >= PROGRESS_SCALE_GROUP) {
		snprintf(buf, len, "%s %lld", activities[-variant], (long long)iteration);
		return;
	}
	const char *name = variant >= 0 && (size_t)variant < ar_variant_count()
	                           ? ar_variants[variant]->name
	                           : NULL;
	const char *what = phase >= 0 && phase <= PROGRESS_IDLE ? phases[phase] : "unknown";
	if (phase == PROGRESS_IDLE)
		snprintf(buf, len, "%s %lld ranks", what, (long long)iteration);
	else if (!name || phase == PROGRESS_START || phase == PROGRESS_DONE)
		snprintf(buf, len, "%s", what);
	else if (phase == PROGRESS_VERIFY)
		snprintf(buf, len, "%s, %llu bytes, %s", name, (unsigned long long)bytes, what);
	else
		snprintf(buf, len, "%s, %llu bytes, %s %lld", name, (unsigned long long)bytes, what,
		         (long long)iteration);
}

void progress_where_unpack(uint64_t where, int *step, int *peer, enum progress_wait *kind)
{
	*kind = (enum progress_wait)(where >> 56);
	*peer = (int)((where >> 32) & 0xffffffu) - 1;
	*step = (int32_t)(uint32_t)where;
}

void progress_describe_where(char *buf, size_t len, uint64_t where)
{
	int step, peer;
	enum progress_wait kind;
	progress_where_unpack(where, &step, &peer, &kind);
	if (kind == PROGRESS_WAIT_CALL)
		snprintf(buf, len, "inside the call (no steps)");
	else if ((kind == PROGRESS_WAIT_RECV || kind == PROGRESS_WAIT_SEND) && peer >= 0)
		snprintf(buf, len, "step %d, waiting to %s rank %d", step,
		         kind == PROGRESS_WAIT_RECV ? "receive from" : "send to", peer);
	else if (kind == PROGRESS_WAIT_RECV || kind == PROGRESS_WAIT_SEND)
		snprintf(buf, len, "step %d", step);
	else
		snprintf(buf, len, "%s", "");
}
