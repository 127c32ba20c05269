/* See opts_memory.h. */
#include "cmd/opts_memory.h"

#include "algorithms/schedule.h"
#include "algorithms/trace.h"
#include "cmd/exit_codes.h"

#include <math.h>
#include <stdio.h>
#include <unistd.h>

double opts_memory_schedule_bytes(uint64_t max_bytes, uint64_t segment_bytes, int nranks)
{
	/*
	 * Every variant moves each byte at most twice per rank (reduce-scatter,
	 * then all-gather), one step per segment, plus a few steps per peer
	 * where chunks do not fill a segment: 4 x the segments and 8 per rank
	 * bounds them all, with room to spare.
	 */
	double segments = ceil((double)max_bytes / (double)(segment_bytes ? segment_bytes : 1));
	return (4.0 * segments + 8.0 * nranks) * (double)sizeof(struct sched_step);
}

double opts_memory_trace_bytes(uint64_t entries, int nranks)
{
	/* each rank's ring and its copy; rank 0 the gathered words, entries and their analysis */
	double own = (double)(sizeof(struct trace_slot) + sizeof(struct trace_entry));
	double gathered = (double)(TRACE_WORDS * 8 + sizeof(struct trace_entry) + sizeof(int) + 64);
	return (double)entries * (own + gathered * nranks);
}

double opts_memory_samples_bytes(int iters, int nranks)
{
	/* arrival and end of every iteration of every rank, gathered, and the per-rank copies */
	return (double)iters * (2.0 * nranks + 8.0) * (double)sizeof(double);
}

static int over(const char *cmd, const char *option, const char *value, double need,
                const char *limit, char *err, size_t len)
{
	snprintf(err, len,
	         "%s: %s %s would take %.0f bytes (%.1f MiB) of memory a rank, over the budget of "
	         "%.0f MiB for what is not the message itself; %s",
	         cmd, option, value, need, need / 1048576.0, OPTS_MEMORY_BUDGET_BYTES / 1048576.0,
	         limit);
	return EXIT_USAGE;
}

int opts_memory_check_segments(const char *cmd, uint64_t max_bytes, uint64_t segment_bytes,
                               int nranks, char *err, size_t len)
{
	char value[64], limit[160];
	double need = opts_memory_schedule_bytes(max_bytes, segment_bytes, nranks);
	double phys = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
	/* a message no host here could hold is the sweep's to refuse, naming the message */
	if (need <= OPTS_MEMORY_BUDGET_BYTES || 2.0 * (double)max_bytes > phys)
		return EXIT_OK;
	/* the smallest segment whose schedule fits, rounded up to a KiB */
	double steps = OPTS_MEMORY_BUDGET_BYTES / (double)sizeof(struct sched_step) - 8.0 * nranks;
	double min_seg = steps > 4 ? ceil(4.0 * (double)max_bytes / steps / 1024.0) * 1024.0 : NAN;
	snprintf(value, sizeof value, "%llu", (unsigned long long)segment_bytes);
	snprintf(limit, sizeof limit,
	         "the limit for a largest message of %llu bytes is --segment-bytes %.0f or more",
	         (unsigned long long)max_bytes, min_seg);
	return over(cmd, "--segment-bytes", value, need, limit, err, len);
}

int opts_memory_check_sweep(const char *cmd, const struct sweep_opts *o, int nranks, char *err,
                            size_t len)
{
	char value[64], limit[160];
	uint64_t largest = o->nsizes > 0 ? o->sizes[o->nsizes - 1] : o->max_bytes;
	int status = opts_memory_check_segments(cmd, largest, o->segment_bytes, nranks, err, len);
	if (status != EXIT_OK)
		return status;
	double need = opts_memory_trace_bytes(o->trace_entries, nranks);
	if (o->trace && need > OPTS_MEMORY_BUDGET_BYTES) {
		double per = opts_memory_trace_bytes(1, nranks);
		snprintf(value, sizeof value, "%llu", (unsigned long long)o->trace_entries);
		snprintf(limit, sizeof limit, "the limit at %d ranks is --trace-entries %.0f", nranks,
		         floor(OPTS_MEMORY_BUDGET_BYTES / per));
		return over(cmd, "--trace-entries", value, need, limit, err, len);
	}
	need = opts_memory_samples_bytes(o->iters, nranks);
	if (need > OPTS_MEMORY_BUDGET_BYTES) {
		double per = opts_memory_samples_bytes(1, nranks);
		snprintf(value, sizeof value, "%d", o->iters);
		snprintf(limit, sizeof limit, "the limit at %d ranks is -n %.0f", nranks,
		         floor(OPTS_MEMORY_BUDGET_BYTES / per));
		return over(cmd, "-n", value, need, limit, err, len);
	}
	return EXIT_OK;
}
