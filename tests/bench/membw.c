/*
 * Memory bandwidth, the physical limit of all-reduce on one host: on one core,
 * memcpy and float32 a += b at the given sizes; then memcpy on every core at
 * once, each copying buffers of its own of the largest size (the whole
 * machine's copy bandwidth, which the ranks of one host share). Medians of
 * several passes over buffers touched beforehand; one JSON object on stdout.
 * Bandwidth counts the bytes the kernel moves: memcpy reads S and writes S
 * (reported as S / time, the convention of STREAM-like copy figures; on every core, the sum over cores); a += b reads 2S and
 * writes S (reported as S / time too).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

struct copier {
	char *dst, *src;
	size_t bytes;
	pthread_barrier_t *go;
	double seconds[PASSES]; /* filled by copier 0: the slowest copy of each pass */
	int first;
};

/* Every pass starts together and ends when the last copy ends. */
static void *copy_passes(void *arg)
{
	struct copier *c = arg;
	for (int p = 0; p < PASSES; p++) {
		pthread_barrier_wait(c->go);
		double t0 = now_s();
		memcpy(c->dst, c->src, c->bytes);
		pthread_barrier_wait(c->go);
		if (c->first)
			c->seconds[p] = now_s() - t0;
	}
	return NULL;
}

/* memcpy of bytes on each of `threads` cores at once: median GB/s summed over them, or -1. */
static double all_cores(int threads, size_t bytes)
{
	struct copier *c = calloc((size_t)threads, sizeof *c);
	pthread_t *t = calloc((size_t)threads, sizeof *t);
	pthread_barrier_t go;
	double gbps = -1;
	int made = 0;
	if (!c || !t || pthread_barrier_init(&go, NULL, (unsigned)threads) != 0)
		goto out;
	for (int i = 0; i < threads; i++) {
		c[i] = (struct copier){.dst = malloc(bytes), .src = malloc(bytes), .bytes = bytes,
		                       .go = &go, .first = i == 0};
		if (!c[i].dst || !c[i].src)
			goto out;
		memset(c[i].dst, 0, bytes);
		memset(c[i].src, 1, bytes);
	}
	for (; made < threads; made++)
		if (pthread_create(&t[made], NULL, copy_passes, &c[made]) != 0)
			break;
	for (int i = 0; i < made; i++)
		pthread_join(t[i], NULL);
	if (made == threads) {
		qsort(c[0].seconds, PASSES, sizeof c[0].seconds[0], cmp_double);
		gbps = (double)threads * (double)bytes / c[0].seconds[PASSES / 2] / 1e9;
	}
	pthread_barrier_destroy(&go);
out:
	for (int i = 0; c && i < threads; i++) {
		free(c[i].dst);
		free(c[i].src);
	}
	free(c);
	free(t);
	return gbps;
}

int main(int argc, char **argv)
{
	size_t largest = 0;
	printf("{");
	for (int i = 1; i < argc; i++) {
		size_t bytes = strtoull(argv[i], NULL, 10);
		char *a = malloc(bytes), *b = malloc(bytes);
		if (!a || !b || bytes == 0) {
			fprintf(stderr, "membw: cannot allocate 2 x %zu bytes\n", bytes);
			return 5;
		}
		if (bytes > largest)
			largest = bytes;
		memset(a, 0, bytes);
		memset(b, 1, bytes);
		printf("%s\"%zu\": {\"memcpy_gbps\": %.3f, \"add_f32_gbps\": %.3f}", i > 1 ? ", " : "",
		       bytes, measure(0, a, b, bytes), measure(1, a, b, bytes));
		free(a);
		free(b);
	}
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	if (largest && cores > 0)
		printf("%s\"all_cores\": {\"threads\": %ld, \"bytes_per_thread\": %zu, \"memcpy_gbps\": %.3f}",
		       argc > 1 ? ", " : "", cores, largest, all_cores((int)cores, largest));
	printf("}\n");
	return 0;
}
