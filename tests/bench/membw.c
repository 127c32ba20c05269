/*
 * Single-core memory bandwidth, the physical limit of all-reduce on one host:
 * memcpy and float32 a += b at the given sizes, median of several passes over
 * buffers touched beforehand. Prints one JSON object on stdout.
 * Bandwidth counts the bytes the kernel moves: memcpy reads S and writes S
 * (reported as S / time, the convention of STREAM-like copy figures quoted in
 * BASELINES.md); a += b reads 2S and writes S (reported as S / time too).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { PASSES = 9 };

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void add_f32(float *a, const float *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		a[i] += b[i];
}

/* Median GB/s of PASSES runs of one kernel over bytes. */
static double measure(int kernel, char *dst, char *src, size_t bytes)
{
	double gbps[PASSES];
	for (int p = 0; p < PASSES; p++) {
		double t0 = now_s();
		if (kernel == 0)
			memcpy(dst, src, bytes);
		else
			add_f32((float *)dst, (const float *)src, bytes / sizeof(float));
		double t = now_s() - t0;
		gbps[p] = (double)bytes / t / 1e9;
	}
	qsort(gbps, PASSES, sizeof gbps[0], cmp_double);
	return gbps[PASSES / 2];
}

int main(int argc, char **argv)
{
	printf("{");
	for (int i = 1; i < argc; i++) {
		size_t bytes = strtoull(argv[i], NULL, 10);
		char *a = malloc(bytes), *b = malloc(bytes);
		if (!a || !b || bytes == 0) {
			fprintf(stderr, "membw: cannot allocate 2 x %zu bytes\n", bytes);
			return 5;
		}
		memset(a, 0, bytes);
		memset(b, 1, bytes);
		printf("%s\"%zu\": {\"memcpy_gbps\": %.3f, \"add_f32_gbps\": %.3f}", i > 1 ? ", " : "",
		       bytes, measure(0, a, b, bytes), measure(1, a, b, bytes));
		free(a);
		free(b);
	}
	printf("}\n");
	return 0;
}
