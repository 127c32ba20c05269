/*
 * The compressed variants' kernels against memory (issue 40, item 5): every
 * kernel of algorithms/codec_*.c on every core at once, each core over a
 * float32 buffer of its own in segments as the executor cuts them, beside
 * memcpy on every core at once in the same run. A slow kernel must not pass
 * for a slow link: its rate should be at least half the copy's.
 *
 * Rates are float32 bytes in (encode) or out (decode-add) per second, summed
 * over the cores, medians of PASSES passes that start together and end with
 * the last core; memcpy's is bytes copied per second (membw.c's convention).
 * One JSON object on stdout.
 *   codec_rate [BYTES_PER_CORE [SEGMENT_BYTES]]   (default 16 MiB, 256 KiB)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "algorithms/codec.h"
#include "algorithms/codec_accuracy.h"

enum { PASSES = 7 };

enum kernel { MEMCPY, ENCODE, DECODE_ADD };

struct job {
	const char *name;
	enum kernel kind;
	const struct ar_codec *codec;
	struct codec_cfg cfg;
};

static const struct job jobs[] = {
    {"memcpy", MEMCPY, NULL, {.topk_ratio = 0}},
    {"bf16 encode", ENCODE, &codec_bf16, {.topk_ratio = 0}},
    {"bf16 decode-add", DECODE_ADD, &codec_bf16, {.topk_ratio = 0}},
    {"fp16 encode", ENCODE, &codec_fp16, {.topk_ratio = 0}},
    {"fp16 decode-add", DECODE_ADD, &codec_fp16, {.topk_ratio = 0}},
    {"int8 encode", ENCODE, &codec_int8, {.topk_ratio = 0}},
    {"int8 encode stochastic", ENCODE, &codec_int8, {.stochastic = true}},
    {"int8 decode-add", DECODE_ADD, &codec_int8, {.topk_ratio = 0}},
    {"topk 0.01 encode", ENCODE, &codec_topk, {.topk_ratio = 0.01}},
    {"topk 0.01 decode-add", DECODE_ADD, &codec_topk, {.topk_ratio = 0.01}},
};
enum { NJOBS = sizeof jobs / sizeof jobs[0] };

struct core {
	float *x, *y;
	char *wire; /* every segment's encoding, one after the other */
	size_t *wire_bytes;
	void *work;
	size_t count, seg;
	int first;
	pthread_barrier_t *go;
	double seconds[NJOBS][PASSES]; /* core 0: each pass's time to the last core's end */
};

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

/* One pass of job j over this core's buffer, segment by segment. */
static void run(struct core *c, const struct job *j)
{
	size_t bound = j->codec ? j->codec->wire_bound(c->seg, &j->cfg) : 0;
	for (size_t off = 0, s = 0; off < c->count; off += c->seg, s++) {
		size_t m = c->count - off < c->seg ? c->count - off : c->seg;
		char *w = c->wire + s * bound;
		if (j->kind == MEMCPY)
			memcpy(c->y + off, c->x + off, m * sizeof(float));
		else if (j->kind == ENCODE)
			c->wire_bytes[s] = j->codec->encode(w, c->x + off, m, &j->cfg, s, c->work);
		else
			j->codec->decode(c->y + off, c->y + off, w, c->wire_bytes[s], m);
	}
}

static void *passes(void *arg)
{
	struct core *c = arg;
	for (int j = 0; j < NJOBS; j++) {
		/* decode-add reads what the encode before it wrote: one untimed encode first */
		if (jobs[j].kind == DECODE_ADD) {
			struct job enc = jobs[j];
			enc.kind = ENCODE;
			run(c, &enc);
		}
		for (int p = 0; p < PASSES; p++) {
			pthread_barrier_wait(c->go);
			double t0 = now_s();
			run(c, &jobs[j]);
			pthread_barrier_wait(c->go);
			if (c->first)
				c->seconds[j][p] = now_s() - t0;
		}
	}
	return NULL;
}

static int setup(struct core *c, size_t count, size_t seg, int rank, pthread_barrier_t *go)
{
	size_t nseg = (count + seg - 1) / seg;
	*c = (struct core){.count = count, .seg = seg, .first = rank == 0, .go = go};
	c->x = malloc(count * sizeof(float));
	c->y = malloc(count * sizeof(float));
	c->wire = malloc(nseg * (4 * seg + 64));
	c->wire_bytes = calloc(nseg, sizeof(size_t));
	c->work = malloc(codec_work_bytes(seg));
	if (!c->x || !c->y || !c->wire || !c->wire_bytes || !c->work)
		return -1;
	codec_input_fill(c->x, rank, count); /* the gradient-like inputs of the measurements */
	memset(c->y, 0, count * sizeof(float));
	memset(c->wire, 0, nseg * (4 * seg + 64));
	return 0;
}

int main(int argc, char **argv)
{
	size_t bytes = argc > 1 ? strtoull(argv[1], NULL, 10) : (size_t)16 << 20;
	size_t seg = (argc > 2 ? strtoull(argv[2], NULL, 10) : (size_t)256 << 10) / sizeof(float);
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int n = cores > 0 ? (int)cores : 1, made = 0, status = 0;
	struct core *c = calloc((size_t)n, sizeof *c);
	pthread_t *t = calloc((size_t)n, sizeof *t);
	pthread_barrier_t go;
	if (!c || !t || seg == 0 || bytes < sizeof(float) ||
	    pthread_barrier_init(&go, NULL, (unsigned)n)) {
		fprintf(stderr, "codec_rate: bad arguments or out of memory\n");
		return 5;
	}
	for (int i = 0; i < n; i++)
		if (setup(&c[i], bytes / sizeof(float), seg, i, &go) != 0) {
			fprintf(stderr, "codec_rate: cannot allocate %zu bytes per core\n", bytes);
			return 5;
		}
	for (; made < n; made++)
		if (pthread_create(&t[made], NULL, passes, &c[made]) != 0)
			break;
	for (int i = 0; i < made; i++)
		pthread_join(t[i], NULL);
	if (made < n) {
		fprintf(stderr, "codec_rate: cannot start %d threads\n", n);
		return 5;
	}
	printf("{\"threads\": %d, \"bytes_per_thread\": %zu, \"segment_bytes\": %zu, \"gbps\": {",
	       n, bytes, seg * sizeof(float));
	for (int j = 0; j < NJOBS; j++) {
		qsort(c[0].seconds[j], PASSES, sizeof(double), cmp_double);
		double s = c[0].seconds[j][PASSES / 2];
		printf("%s\"%s\": %.3f", j ? ", " : "", jobs[j].name,
		       (double)n * (double)(bytes / sizeof(float) * sizeof(float)) / s / 1e9);
	}
	printf("}}\n");
	for (int i = 0; i < n; i++) {
		free(c[i].x);
		free(c[i].y);
		free(c[i].wire);
		free(c[i].wire_bytes);
		free(c[i].work);
	}
	free(c);
	free(t);
	pthread_barrier_destroy(&go);
	return status;
}
