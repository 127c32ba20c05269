/* See memory.h. */
#include "probes/memory.h"
#include "probes/proc_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool probe_memory_parse_pss(const char *text, uint64_t *bytes)
{
	/* lines "Name:   value kB"; "Pss:" itself, not "Pss_Anon:" and the like */
	for (const char *line = text; line;) {
		if (strncmp(line, "Pss:", 4) == 0) {
			char *end;
			unsigned long long kib = strtoull(line + 4, &end, 10);
			while (*end == ' ' || *end == '\t')
				end++;
			if (end == line + 4 || strncmp(end, "kB", 2) != 0)
				return false;
			*bytes = (uint64_t)kib * 1024u;
			return true;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return false;
}

bool probe_memory_pss_bytes(uint64_t *bytes)
{
	char text[4096];
	return probe_read_file("/proc/self/smaps_rollup", text, sizeof text) &&
	       probe_memory_parse_pss(text, bytes);
}

bool probe_memory_rss_bytes(uint64_t *bytes)
{
	unsigned long long size = 0, resident = 0;
	long page = sysconf(_SC_PAGESIZE);
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f)
		return false;
	int k = fscanf(f, "%llu %llu", &size, &resident);
	fclose(f);
	if (k != 2 || page <= 0)
		return false;
	*bytes = (uint64_t)resident * (uint64_t)page;
	return true;
}
