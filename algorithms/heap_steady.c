/* See heap_steady.h. */
#include "algorithms/heap_steady.h"

#include <malloc.h>
#include <stdlib.h>

#define STR_(x) #x
#define STR(x) STR_(x)

const char heap_steady_env[] = "MALLOC_MMAP_THRESHOLD_=" STR(HEAP_STEADY_MMAP_BYTES)
                               " MALLOC_TRIM_THRESHOLD_=" STR(HEAP_STEADY_TRIM_BYTES);

bool heap_hold_steady(const char **env_name)
{
	static const char *const names[] = {"MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_"};
	*env_name = NULL;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (getenv(names[i])) {
			*env_name = names[i];
			return false;
		}
	/* a fixed threshold also turns glibc's adaptive ones off */
	return mallopt(M_MMAP_THRESHOLD, HEAP_STEADY_MMAP_BYTES) == 1 &&
	       mallopt(M_TRIM_THRESHOLD, HEAP_STEADY_TRIM_BYTES) == 1;
}
