/* Synthetic reports for the unit tests (see report_fixtures.h). */
#include "report_fixtures.h"

#include "reports/stats/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

cJSON *fx_report(const char *command, int ranks, int hosts)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *ctx = cJSON_AddObjectToObject(root, "context");
	cJSON *mpi = cJSON_AddObjectToObject(ctx, "mpi");
	cJSON *list = cJSON_AddArrayToObject(ctx, "hosts");
	cJSON *argv = cJSON_AddArrayToObject(ctx, "argv");
	char name[32];

	cJSON_AddNumberToObject(root, "schema_version", 1);
	cJSON_AddStringToObject(root, "command", command);
	cJSON_AddStringToObject(mpi, "library", "Test MPI 1.0");
	cJSON_AddNumberToObject(mpi, "ranks", ranks);
	cJSON_AddItemToArray(argv, cJSON_CreateString("collscope"));
	cJSON_AddItemToArray(argv, cJSON_CreateString(command));
	for (int h = 0; h < hosts; h++) {
		cJSON *o = cJSON_CreateObject();
		snprintf(name, sizeof name, "node%d", h);
		cJSON_AddStringToObject(o, "name", name);
		cJSON_AddItemToArray(list, o);
	}
	cJSON_AddArrayToObject(root, "results");
	cJSON_AddBoolToObject(root, "complete", 1);
	return root;
}

cJSON *fx_point(cJSON *report, const char *algorithm, double bytes, const char *dtype,
                const char *op, int ranks)
{
	cJSON *rec = cJSON_CreateObject();

	cJSON_AddStringToObject(rec, "algorithm", algorithm);
	cJSON_AddNumberToObject(rec, "bytes", bytes);
	cJSON_AddNumberToObject(rec, "count", bytes / 4);
	cJSON_AddStringToObject(rec, "dtype", dtype);
	cJSON_AddStringToObject(rec, "op", op);
	cJSON_AddNumberToObject(rec, "ranks", ranks);
	cJSON_AddBoolToObject(rec, "in_place", 0);
	cJSON_AddItemToArray(cJSON_GetObjectItem(report, "results"), rec);
	return rec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void fx_samples(cJSON *rec, double bytes, int ranks, double center_us, double spread, int n,
                unsigned seed)
{
	double *x = malloc((size_t)n * sizeof *x), p50;
	cJSON *samples = cJSON_AddArrayToObject(rec, "samples_us");
	cJSON *time = cJSON_AddObjectToObject(rec, "time_us");
	unsigned long state = seed * 2654435761ul + 1;

	for (int i = 0; i < n; i++) {
		state = state * 6364136223846793005ul + 1442695040888963407ul;
		double u = (double)(state >> 11) / 9007199254740992.0; /* [0, 1) */
		x[i] = center_us * (1 + spread * (2 * u - 1));
		cJSON_AddItemToArray(samples, cJSON_CreateNumber(x[i]));
	}
	qsort(x, (size_t)n, sizeof *x, cmp_double);
	p50 = stats_percentile(x, (size_t)n, 0.5);
	cJSON_AddNumberToObject(time, "p50", p50);
	if (n >= 100)
		cJSON_AddNumberToObject(time, "p99", stats_percentile(x, (size_t)n, 0.99));
	else
		cJSON_AddNullToObject(time, "p99");
	cJSON_AddNumberToObject(rec, "iterations", n);
	cJSON_AddNumberToObject(rec, "busbw_gbps",
	                        bytes / (p50 * 1e-6) / 1e9 * 2.0 * (ranks - 1) / ranks);
	free(x);
}

cJSON *fx_measured(cJSON *report, const char *algorithm, double bytes, double center_us,
                   double spread, int n, unsigned seed)
{
	cJSON *ranks = cJSON_GetObjectItem(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(report, "context"), "mpi"), "ranks");
	cJSON *rec = fx_point(report, algorithm, bytes, "float32", "sum", ranks->valueint);

	fx_samples(rec, bytes, ranks->valueint, center_us, spread, n, seed);
	return rec;
}

cJSON *fx_link(cJSON *report, int a, int b, const char *host_a, const char *host_b,
               double latency_us, double bandwidth_gbps)
{
	cJSON *rec = cJSON_CreateObject();
	cJSON *lat = cJSON_AddObjectToObject(rec, "latency_us");
	cJSON *bw = cJSON_AddObjectToObject(rec, "bandwidth_gbps");

	cJSON_AddNumberToObject(rec, "a", a);
	cJSON_AddNumberToObject(rec, "b", b);
	cJSON_AddStringToObject(rec, "host_a", host_a);
	cJSON_AddStringToObject(rec, "host_b", host_b);
	cJSON_AddStringToObject(rec, "locality", "inter_host");
	cJSON_AddNumberToObject(lat, "p50", latency_us);
	cJSON_AddNumberToObject(lat, "p99", latency_us * 2);
	cJSON_AddNumberToObject(bw, "p50", bandwidth_gbps);
	cJSON_AddItemToArray(cJSON_GetObjectItem(report, "results"), rec);
	return rec;
}
