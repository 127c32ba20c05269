/* See compute.h. */
#include "algorithms/compute.h"
#include "algorithms/clock_id.h"

#include <stdlib.h>

enum {
	GEMM_N = 48,
	STREAM_LEN = (32 << 20) / 8, /* 32 MiB of doubles each */
	STREAM_UNIT = (16 << 10) / 8,
};

const char *const compute_kind_names[] = {"gemm", "stream", NULL};

double compute_now_us(void)
{
	return 1e6 * clock_local_s();
}

int compute_init(struct compute *k, enum compute_kind kind)
{
	*k = (struct compute){.kind = kind};
	k->len = kind == COMPUTE_GEMM ? (size_t)GEMM_N * GEMM_N : (size_t)STREAM_LEN;
	k->a = malloc(k->len * sizeof *k->a);
	k->b = malloc(k->len * sizeof *k->b);
	k->c = malloc(k->len * sizeof *k->c);
	if (!k->a || !k->b || !k->c) {
		compute_release(k);
		return -1;
	}
	for (size_t i = 0; i < k->len; i++) {
		k->a[i] = 0;
		k->b[i] = (double)(i % 7) * 0.25;
		k->c[i] = (double)(i % 5) * 0.5;
	}
	return 0;
}

void compute_release(struct compute *k)
{
	free(k->a);
	free(k->b);
	free(k->c);
	k->a = k->b = k->c = NULL;
}

static void gemm(struct compute *k)
{
	for (int i = 0; i < GEMM_N; i++)
		for (int p = 0; p < GEMM_N; p++) {
			double bip = k->b[i * GEMM_N + p];
			for (int j = 0; j < GEMM_N; j++)
				k->a[i * GEMM_N + j] += bip * k->c[p * GEMM_N + j];
		}
	k->sink += k->a[k->at++ % k->len];
}

static void triad(struct compute *k)
{
	size_t from = k->at, to = from + STREAM_UNIT;
	for (size_t i = from; i < to; i++)
		k->a[i] = k->b[i] + 1.5 * k->c[i];
	k->sink += k->a[from];
	k->at = to >= k->len ? 0 : to;
}

void compute_unit(struct compute *k)
{
	if (k->kind == COMPUTE_GEMM)
		gemm(k);
	else
		triad(k);
}

int compute_for(struct compute *k, double duration_us, double interval_us, int (*test)(void *arg),
                void *arg, struct compute_run *out)
{
	*out = (struct compute_run){0};
	const double t0 = compute_now_us();
	double now = t0, last_test = t0;
	int rc = 0;
	do {
		compute_unit(k);
		out->units++;
		now = compute_now_us();
		if (test && rc == 0 && now - last_test >= interval_us) {
			rc = test(arg);
			last_test = compute_now_us();
			out->test_us += last_test - now;
			out->tests++;
			now = last_test;
		}
	} while (now - t0 < duration_us);
	out->wall_us = now - t0;
	return rc;
}
