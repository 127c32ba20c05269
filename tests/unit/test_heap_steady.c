/* glibc's heap held steady (algorithms/heap_steady.h). Each test runs in a fresh process. */
#include <criterion/criterion.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/heap_steady.h"

/* A scratch buffer of `bytes` allocated and freed as a library's call does: mapped or not. */
static bool scratch_mapped(size_t bytes)
{
	struct mallinfo2 before = mallinfo2();
	char *p = malloc(bytes);
	cr_assert_not_null(p);
	memset(p, 1, bytes);
	bool mapped = mallinfo2().hblks > before.hblks;
	free(p);
	return mapped;
}

Test(heap_steady, scratch_comes_from_the_heap)
{
	const char *env = "unset";
#ifdef __SANITIZE_ADDRESS__
	cr_skip_test("AddressSanitizer's allocator is not glibc's");
#endif
	unsetenv("MALLOC_MMAP_THRESHOLD_");
	unsetenv("MALLOC_TRIM_THRESHOLD_");
	cr_assert(scratch_mapped(4 << 20), "a fresh process maps 4 MiB");
	cr_assert(heap_hold_steady(&env));
	cr_assert_null(env);
	cr_assert_not(scratch_mapped(4 << 20));
	cr_assert_not(scratch_mapped(HEAP_STEADY_MMAP_BYTES - 4096));
	/* and freeing it trims nothing: the next call finds it in place */
	struct mallinfo2 held = mallinfo2();
	cr_assert_geq(held.arena, (size_t)(4 << 20));
	cr_assert(scratch_mapped(HEAP_STEADY_MMAP_BYTES + (1 << 20)), "past the threshold");
}

Test(heap_steady, the_environment_rules)
{
	const char *env = NULL;
	setenv("MALLOC_TRIM_THRESHOLD_", "131072", 1);
	cr_assert_not(heap_hold_steady(&env));
	cr_assert_str_eq(env, "MALLOC_TRIM_THRESHOLD_");
}

Test(heap_steady, settings_named_for_a_job)
{
	cr_assert_str_eq(heap_steady_env,
	                 "MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_TRIM_THRESHOLD_=1073741824");
}
