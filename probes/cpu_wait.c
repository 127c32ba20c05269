/* See cpu_wait.h. No MPI. */
#include "probes/cpu_wait.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

bool probe_cpu_wait_parse(const char *text, uint64_t *wait_ns)
{
	uint64_t run, wait, slices;
	char extra;
	if (sscanf(text, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %c", &run, &wait, &slices, &extra) !=
	    3)
		return false;
	*wait_ns = wait;
	return true;
}

bool probe_cpu_wait_ns(uint64_t *wait_ns)
{
	char line[128];
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	if (!f)
		f = fopen("/proc/self/schedstat", "r"); /* kernels before 3.17: the main thread */
	if (!f)
		return false;
	bool ok = fgets(line, sizeof line, f) && probe_cpu_wait_parse(line, wait_ns);
	fclose(f);
	return ok;
}

double probe_cpu_wait_share(uint64_t wait_ns, double wall_s)
{
	if (!(wall_s > 0))
		return NAN;
	double share = (double)wait_ns / 1e9 / wall_s;
	return share > 1 ? 1 : share;
}
