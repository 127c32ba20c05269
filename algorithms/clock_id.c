/* See clock_id.h. */
#include "algorithms/clock_id.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

void clock_id(char id[CLOCK_ID_BYTES])
{
	char boot[40] = "", line[96];
	long long sec = 0, nsec = 0;
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	memset(id, 0, CLOCK_ID_BYTES);
	if (!f)
		return;
	bool ok = fscanf(f, "%39s", boot) == 1;
	fclose(f);
	if ((f = fopen("/proc/self/timens_offsets", "r"))) {
		while (fgets(line, sizeof line, f))
			if (sscanf(line, "monotonic %lld %lld", &sec, &nsec) == 2)
				break;
		fclose(f);
	}
	if (ok)
		snprintf(id, CLOCK_ID_BYTES, "%s %lld %lld", boot, sec, nsec);
}

double clock_local_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
