/*
 * compare: reading the records of two reports, matching them by key, the
 * change of each metric and the significance verdict (see compare.h).
 */
#include "reports/compare/compare_points.h"

#include "reports/io/links_compact.h"
#include "reports/io/report_read.h"
#include "reports/io/report_schema.h"
#include "reports/render/report_text.h"
#include "reports/stats/stats.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RANKS_MAX 2147483647.0
#define BYTES_MAX 9007199254740992.0 /* 2^53: exact in a double */

void cmp_options_init(struct cmp_options *o)
{
	o->threshold_pct = CMP_DEFAULT_THRESHOLD_PCT;
	o->alpha = CMP_DEFAULT_ALPHA;
	o->gate = CMP_P50;
	o->untested_fails = false;
	o->untestable_fails = false;
	o->correction = CMP_CORRECT_BH;
}

/* rec.name.p50 (and rec.name.p99 when p99 is not NULL); all optional. */
static int load_stats(const struct report_at *at, const cJSON *rec, const char *name, double *p50,
                      double *p99)
{
	char where[REPORT_WHERE_BYTES];
	struct report_at in = *at;
	const cJSON *o;

	if (report_get_object(at, rec, name, false, &o) != 0)
		return -1;
	snprintf(where, sizeof where, "%s.%s", at->where, name);
	in.where = where;
	if (report_get_number(&in, o, SK_TIME_P50, false, 0, DBL_MAX, p50) != 0)
		return -1;
	return p99 ? report_get_number(&in, o, SK_TIME_P99, false, 0, DBL_MAX, p99) : 0;
}

static int load_collective(const struct report_at *at, const cJSON *rec, struct cmp_point *p)
{
	if (report_get_string(at, rec, SK_AR_ALGORITHM, true, &p->algorithm) != 0 ||
	    report_get_string(at, rec, SK_AR_DTYPE, true, &p->dtype) != 0 ||
	    report_get_string(at, rec, SK_AR_OP, true, &p->op) != 0 ||
	    report_get_string(at, rec, SK_AR_COLLECTIVE, false, &p->collective) != 0 ||
	    report_get_integer(at, rec, SK_AR_BYTES, true, 0, BYTES_MAX, &p->bytes) != 0 ||
	    report_get_integer(at, rec, SK_AR_RANKS, true, 1, RANKS_MAX, &p->ranks) != 0 ||
	    report_get_bool(at, rec, SK_AR_IN_PLACE, false, &p->in_place) != 0 ||
	    report_get_string(at, rec, SK_AR_SKIPPED, false, &p->skipped) != 0 ||
	    report_get_integer(at, rec, SK_AR_YARDSTICK_BURST, false, 0, RANKS_MAX,
	                       &p->yardstick_burst) != 0)
		return -1;
	if (!p->collective) /* reports before the halves: every point an all-reduce */
		p->collective = "allreduce";
	if (p->skipped)
		return 0;
	if (load_stats(at, rec, SK_AR_TIME_US, &p->value[CMP_P50], &p->value[CMP_P99]) != 0 ||
	    report_get_number(at, rec, SK_AR_BUSBW_GBPS, false, 0, DBL_MAX, &p->value[CMP_BW]) != 0)
		return -1;
	return report_get_numbers(at, rec, SK_AR_SAMPLES_US, false, 0, DBL_MAX, &p->samples_us,
	                          &p->nsamples);
}

static int load_link(const struct report_at *at, const cJSON *rec, struct cmp_point *p)
{
	p->algorithm = p->dtype = p->op = "";
	if (report_get_integer(at, rec, SK_LINK_A, true, 0, RANKS_MAX, &p->a) != 0 ||
	    report_get_integer(at, rec, SK_LINK_B, true, 0, RANKS_MAX, &p->b) != 0 ||
	    report_get_string(at, rec, SK_LINK_HOST_A, false, &p->host_a) != 0 ||
	    report_get_string(at, rec, SK_LINK_HOST_B, false, &p->host_b) != 0 ||
	    report_get_string(at, rec, SK_LINK_SKIPPED, false, &p->skipped) != 0 ||
	    load_stats(at, rec, SK_LINK_LATENCY_US, &p->value[CMP_P50], &p->value[CMP_P99]) != 0 ||
	    load_stats(at, rec, SK_LINK_BANDWIDTH_GBPS, &p->value[CMP_BW], NULL) != 0)
		return -1;
	return report_get_numbers(at, rec, SK_LINK_SAMPLES_US, false, 0, DBL_MAX, &p->samples_us,
	                          &p->nsamples) != 0 ||
	               report_get_numbers(at, rec, SK_LINK_WINDOW_SAMPLES_US, false, 0, DBL_MAX,
	                                  &p->window_samples_us, &p->nwindow_samples) != 0
	           ? -1
	           : 0;
}

static int str_order(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int num_order(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

/* Links have empty strings and zero bytes and ranks, so one order serves both kinds. */
int cmp_point_order(const struct cmp_point *x, const struct cmp_point *y)
{
	int c = str_order(x->collective, y->collective);

	if (!c)
		c = str_order(x->algorithm, y->algorithm);
	if (!c)
		c = str_order(x->dtype, y->dtype);
	if (!c)
		c = str_order(x->op, y->op);
	if (!c)
		c = num_order(x->ranks, y->ranks);
	if (!c)
		c = num_order(x->in_place, y->in_place);
	if (!c)
		c = num_order(x->bytes, y->bytes);
	if (!c)
		c = num_order(x->a, y->a);
	if (!c)
		c = num_order(x->b, y->b);
	return c;
}

static int point_order(const void *pa, const void *pb)
{
	return cmp_point_order(pa, pb);
}

/* s (in a buffer of len bytes) with what a terminal would act on escaped, cut to fit. */
static void sanitize(char *s, size_t len)
{
	char escaped[4 * CMP_LABEL_BYTES];

	report_escape_text(escaped, sizeof escaped, s);
	snprintf(s, len, "%s", escaped);
}

void cmp_point_label(const struct cmp_run *run, const struct cmp_point *p, char *buf, size_t len)
{
	if (run->kind == CMP_KIND_LINKS && p->host_a && p->host_b)
		snprintf(buf, len, "%lld->%lld (%s->%s)", (long long)p->a, (long long)p->b,
		         p->host_a, p->host_b);
	else if (run->kind == CMP_KIND_LINKS)
		snprintf(buf, len, "%lld->%lld", (long long)p->a, (long long)p->b);
	else
		snprintf(buf, len, "%s%s%s %lld B %s %s %lld ranks%s",
		         p->collective && strcmp(p->collective, "allreduce") ? p->collective : "",
		         p->collective && strcmp(p->collective, "allreduce") ? " " : "",
		         p->algorithm, (long long)p->bytes, p->dtype, p->op, (long long)p->ranks,
		         p->in_place ? " in-place" : "");
	sanitize(buf, len);
}

static int cmp_cstr(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

/* The distinct values of one string field of the points, sorted, joined by commas. */
static int distinct(const struct cmp_run *run, size_t offset, char *out, size_t len)
{
	const char **v = malloc((run->npoints ? run->npoints : 1) * sizeof *v);
	size_t used = 0;

	if (!v)
		return -1;
	for (size_t i = 0; i < run->npoints; i++)
		v[i] = *(const char *const *)((const char *)&run->points[i] + offset);
	qsort(v, run->npoints, sizeof *v, cmp_cstr);
	out[0] = '\0';
	for (size_t i = 0; i < run->npoints; i++)
		if ((i == 0 || strcmp(v[i], v[i - 1]) != 0) && used < len)
			used +=
			    (size_t)snprintf(out + used, len - used, "%s%s", used ? "," : "", v[i]);
	sanitize(out, len);
	free(v);
	return 0;
}

/* The context's rank and host counts (-1 when absent) and the completeness flag. */
static int load_context(struct cmp_run *run, const cJSON *root, char *err, size_t errlen)
{
	struct report_at at = {run->path, "", err, errlen}, in_ctx = at;
	const cJSON *ctx, *mpi, *hosts;

	run->ranks = run->hosts = -1;
	in_ctx.where = "context";
	if (report_get_bool(&at, root, SK_REPORT_COMPLETE, false, &run->complete) != 0 ||
	    report_get_object(&at, root, SK_REPORT_CONTEXT, false, &ctx) != 0 ||
	    report_get_object(&in_ctx, ctx, SK_CTX_MPI, false, &mpi) != 0 ||
	    report_get_array(&in_ctx, ctx, SK_CTX_HOSTS, false, &hosts) != 0)
		return -1;
	if (hosts)
		run->hosts = cJSON_GetArraySize(hosts);
	if (report_get_string(&in_ctx, ctx, SK_CTX_STARTED_UTC, false, &run->started_utc) != 0)
		return -1;
	in_ctx.where = "context.mpi";
	return report_get_integer(&in_ctx, mpi, SK_MPI_RANKS, false, 1, RANKS_MAX, &run->ranks);
}

static int load_points(struct cmp_run *run, const cJSON *results, char *err, size_t errlen)
{
	char where[REPORT_WHERE_BYTES];
	struct report_at at = {run->path, where, err, errlen};
	size_t i = 0;
	bool predicted;

	run->points = calloc((size_t)cJSON_GetArraySize(results) + 1, sizeof *run->points);
	if (!run->points) {
		snprintf(err, errlen, "report '%s': out of memory", run->path);
		return -1;
	}
	for (const cJSON *rec = results->child; rec; rec = rec->next, i++) {
		struct cmp_point *p = &run->points[run->npoints];
		snprintf(where, sizeof where, "results[%zu]", i);
		predicted = false;
		if (!cJSON_IsObject(rec)) {
			snprintf(err, errlen, "report '%s': %s is not an object", run->path, where);
			return -1;
		}
		if (report_get_bool(&at, rec, SK_SCALE_PREDICTED, false, &predicted) != 0)
			return -1;
		if (predicted)
			continue;
		for (int m = 0; m < CMP_METRICS; m++)
			p->value[m] = NAN;
		p->spread_pct = p->yardstick_pct = NAN;
		p->yardstick_burst = -1;
		p->index = i;
		run->npoints++;
		if ((run->kind == CMP_KIND_LINKS ? load_link(&at, rec, p)
		                                 : load_collective(&at, rec, p)) != 0)
			return -1;
	}
	return 0;
}

/* A copy of n samples (NULL when none); -1 when out of memory. */
static int copy_samples(const double *x, size_t n, double **out, size_t *nout)
{
	*out = NULL;
	*nout = 0;
	if (!x || n == 0)
		return 0;
	*out = malloc(n * sizeof **out);
	if (!*out)
		return -1;
	memcpy(*out, x, n * sizeof **out);
	*nout = n;
	return 0;
}

/*
 * A links report of schema 2: every pair of "pairs", the raw samples of
 * those pair_samples keeps (the others get no significance test).
 */
static int load_compact(struct cmp_run *run, const cJSON *root, char *err, size_t errlen)
{
	struct links_pairs lp;
	int rc = -1;
	if (links_pairs_read(run->path, root, &lp, err, errlen) != 0)
		return -1;
	run->points = calloc(lp.n + 1, sizeof *run->points);
	if (!run->points)
		goto oom;
	for (size_t i = 0; i < lp.n; i++) {
		struct cmp_point *p = &run->points[run->npoints++];
		const struct links_pair_samples *s = links_pairs_samples_of(&lp, lp.a[i], lp.b[i]);
		*p = (struct cmp_point){
		    .algorithm = "", .dtype = "", .op = "", .a = lp.a[i], .b = lp.b[i], .index = i};
		p->host_a = links_pairs_host(&lp, lp.a[i]);
		p->host_b = links_pairs_host(&lp, lp.b[i]);
		p->value[CMP_P50] = lp.lat_p50_us[i];
		p->value[CMP_P99] = lp.lat_p99_us[i];
		p->value[CMP_BW] = lp.bw_p50_gbps[i];
		if (s && (copy_samples(s->latency_us, s->nlatency, &p->samples_us, &p->nsamples) ||
		          copy_samples(s->window_us, s->nwindow, &p->window_samples_us,
		                       &p->nwindow_samples)))
			goto oom;
	}
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "report '%s': out of memory", run->path);
out:
	links_pairs_release(&lp);
	return rc;
}

/* Two records for one point would make the comparison ambiguous. */
static int check_unique(const struct cmp_run *run, char *err, size_t errlen)
{
	char label[CMP_LABEL_BYTES];

	for (size_t i = 1; i < run->npoints; i++)
		if (cmp_point_order(&run->points[i - 1], &run->points[i]) == 0) {
			cmp_point_label(run, &run->points[i], label, sizeof label);
			snprintf(
			    err, errlen,
			    "report '%s': results[%zu] and results[%zu] are the same point (%s)",
			    run->path, run->points[i - 1].index, run->points[i].index, label);
			return -1;
		}
	return 0;
}

int cmp_run_load(struct cmp_run *run, const char *path, const cJSON *root, char *err, size_t errlen)
{
	struct report_at at = {path, "", err, errlen};
	const cJSON *results;
	const char *command = NULL;
	int rc = -1;

	memset(run, 0, sizeof *run);
	run->path = path;
	run->root = root;
	if (report_get_string(&at, root, SK_REPORT_COMMAND, true, &command) != 0)
		goto out;
	run->command = command;
	enum report_command c = REPORT_COMMANDS;
	report_command_parse(command, &c);
	if (c == REPORT_CMD_LINKS) {
		run->kind = CMP_KIND_LINKS;
	} else if (c != REPORT_CMD_ALLREDUCE && c != REPORT_CMD_SCALE && c != REPORT_CMD_TUNE) {
		snprintf(err, errlen,
		         "report '%s': compare cannot compare '%.40s' reports (it compares "
		         "allreduce, scale, tune and links reports)",
		         path, command);
		goto out;
	}
	bool compact = run->kind == CMP_KIND_LINKS && links_report_is_compact(root);
	if (load_context(run, root, err, errlen) != 0 ||
	    (compact ? load_compact(run, root, err, errlen)
	             : report_get_array(&at, root, SK_REPORT_RESULTS, true, &results) ||
	                   load_points(run, results, err, errlen)) != 0)
		goto out;
	qsort(run->points, run->npoints, sizeof *run->points, point_order);
	if (check_unique(run, err, errlen) != 0 || cmp_noise_load(run, err, errlen) != 0)
		goto out;
	if (distinct(run, offsetof(struct cmp_point, dtype), run->dtypes, sizeof run->dtypes) ||
	    distinct(run, offsetof(struct cmp_point, op), run->ops, sizeof run->ops)) {
		snprintf(err, errlen, "report '%s': out of memory", path);
		goto out;
	}
	rc = 0;
out:
	if (rc != 0)
		cmp_run_release(run);
	return rc;
}

void cmp_run_release(struct cmp_run *run)
{
	for (size_t i = 0; run->points && i < run->npoints; i++) {
		free(run->points[i].samples_us);
		free(run->points[i].window_samples_us);
	}
	free(run->points);
	run->points = NULL;
	free(run->yardstick_us);
	run->yardstick_us = NULL;
	run->nyardstick = 0;
	run->npoints = 0;
}
