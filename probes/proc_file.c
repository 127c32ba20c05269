/* See proc_file.h. */
#include "probes/proc_file.h"

#include <stdio.h>

bool probe_read_file(const char *path, char *buf, size_t len)
{
	if (len == 0)
		return false;
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	size_t n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return true;
}
