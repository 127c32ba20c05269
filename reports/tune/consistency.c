/* The library against its performance guidelines: see consistency.h. */
#include "reports/tune/consistency.h"

#include "reports/io/report_schema.h"

#include "reports/stats/compare_stats.h"
#include "reports/stats/stats.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tune_consistency_opts tune_consistency_defaults(void)
{
	return (struct tune_consistency_opts){TUNE_DEFAULT_ALPHA, TUNE_DEFAULT_MIN_RATIO,
	                                      TUNE_CORRECT_HOLM};
}

static const char *const kind_names[TUNE_VIOLATION_KINDS] = {
    "slower_than_reduce_bcast", "slower_than_rs_allgather", "slower_than_own_variant",
    "not_monotonic"};

const char *tune_violation_kind_name(enum tune_violation_kind k)
{
	return (unsigned)k < TUNE_VIOLATION_KINDS ? kind_names[k] : NULL;
}

/* Every check made: a candidate violation, with `mpi_slower` for the rank test's direction. */
struct checks {
	struct tune_violation *v;
	bool *mpi_slower;
	size_t n, cap;
	size_t untested;
};

static int checks_grow(struct checks *c)
{
	size_t cap = c->cap ? 2 * c->cap : 16;
	struct tune_violation *v = realloc(c->v, cap * sizeof *v);
	if (v)
		c->v = v;
	bool *s = v ? realloc(c->mpi_slower, cap * sizeof *s) : NULL;
	if (!s)
		return -1;
	c->mpi_slower = s;
	c->cap = cap;
	return 0;
}

/*
 * mpi at bytes against other at other_bytes: one check when both are measured,
 * tested when both have 2 samples or more. 0, or -1 when out of memory.
 */
static int add_check(struct checks *c, enum tune_violation_kind kind, uint64_t bytes,
                     const struct tune_series *mpi, uint64_t other_bytes,
                     const struct tune_series *other)
{
	double u = NAN, p = NAN;
	if (mpi->n == 0 || other->n == 0)
		return 0;
	if (mpi->n < 2 || other->n < 2) {
		c->untested++; /* the rank test needs 2 a side */
		return 0;
	}
	if (!mpi->samples_us || !other->samples_us || (c->n == c->cap && checks_grow(c) != 0) ||
	    stats_mann_whitney(mpi->samples_us, mpi->n, other->samples_us, other->n, &u, &p) != 0)
		return -1;
	struct tune_violation *v = &c->v[c->n];
	*v = (struct tune_violation){.kind = kind,
	                             .bytes = bytes,
	                             .other_bytes = other_bytes,
	                             .other = other->name,
	                             .mpi_p50_us = stats_median(mpi->samples_us, mpi->n),
	                             .other_p50_us = stats_median(other->samples_us, other->n),
	                             .p_value = p,
	                             .q_value = NAN,
	                             .mpi_samples = mpi->n,
	                             .other_samples = other->n};
	v->ratio = v->mpi_p50_us / v->other_p50_us;
	if (isnan(v->mpi_p50_us) || isnan(v->other_p50_us))
		return -1; /* the medians' copies found no memory */
	/* U of mpi counts the pairs where mpi is the slower: above half of them, mpi is */
	c->mpi_slower[c->n++] = u > 0.5 * (double)mpi->n * (double)other->n;
	return 0;
}

/* The checks at one size: the two mock-ups and every own variant. */
static int point_checks(struct checks *c, const struct tune_point *pt)
{
	int rc = add_check(c, TUNE_SLOWER_THAN_REDUCE_BCAST, pt->bytes, &pt->mpi, pt->bytes,
	                   &pt->reduce_bcast);
	if (rc == 0)
		rc = add_check(c, TUNE_SLOWER_THAN_RS_ALLGATHER, pt->bytes, &pt->mpi, pt->bytes,
		               &pt->rs_allgather);
	for (size_t i = 0; rc == 0 && i < pt->nown; i++)
		rc = add_check(c, TUNE_SLOWER_THAN_OWN_VARIANT, pt->bytes, &pt->mpi, pt->bytes,
		               &pt->own[i]);
	return rc;
}

static int by_bytes(const void *a, const void *b)
{
	const struct tune_point *x = a, *y = b;
	return (x->bytes > y->bytes) - (x->bytes < y->bytes);
}

/*
 * Every check of the run, sizes ascending: each size's, then mpi at each
 * measured size against mpi at the next. -1 for a repeated size or no memory.
 */
static int all_checks(struct checks *c, const struct tune_point *points, size_t npoints)
{
	/* a sorted copy of the descriptors: the caller's order is the caller's */
	struct tune_point *sorted = malloc((npoints ? npoints : 1) * sizeof *sorted);
	const struct tune_point *prev = NULL;
	int rc = sorted ? 0 : -1;
	if (rc == 0 && npoints > 0) {
		memcpy(sorted, points, npoints * sizeof *sorted);
		qsort(sorted, npoints, sizeof *sorted, by_bytes);
	}
	for (size_t i = 0; rc == 0 && i < npoints; i++) {
		const struct tune_point *pt = &sorted[i];
		if (i > 0 && pt->bytes == sorted[i - 1].bytes)
			rc = -1;
		if (rc == 0)
			rc = point_checks(c, pt);
		/* mpi not measured here: the next size is checked against the last measured */
		if (rc != 0 || pt->mpi.n == 0)
			continue;
		if (prev)
			rc = add_check(c, TUNE_NOT_MONOTONIC, prev->bytes, &prev->mpi, pt->bytes,
			               &pt->mpi);
		prev = pt;
	}
	free(sorted);
	return rc;
}

static bool is_violation(const struct checks *c, size_t i, const struct tune_consistency_opts *o)
{
	const struct tune_violation *v = &c->v[i];
	return c->mpi_slower[i] && v->q_value < o->alpha && v->ratio > o->min_ratio;
}

/*
 * An own-variant violation that another own variant's at the same size
 * outdoes: that one is faster (or as fast and given first). A size keeps
 * one, against the fastest own variant that mpi is found slower than.
 */
static bool outdone(const struct checks *c, size_t i, const struct tune_consistency_opts *o)
{
	const struct tune_violation *v = &c->v[i];
	if (v->kind != TUNE_SLOWER_THAN_OWN_VARIANT)
		return false;
	for (size_t j = 0; j < c->n; j++) {
		const struct tune_violation *w = &c->v[j];
		if (j != i && w->kind == v->kind && w->bytes == v->bytes && is_violation(c, j, o) &&
		    (w->other_p50_us < v->other_p50_us ||
		     (w->other_p50_us == v->other_p50_us && j < i)))
			return true;
	}
	return false;
}

static int by_size_then_kind(const void *a, const void *b)
{
	const struct tune_violation *x = a, *y = b;
	if (x->bytes != y->bytes)
		return (x->bytes > y->bytes) - (x->bytes < y->bytes);
	return (x->kind > y->kind) - (x->kind < y->kind);
}

static bool opts_ok(const struct tune_consistency_opts *o)
{
	return o->alpha > 0 && o->alpha < 1 && isfinite(o->min_ratio) && o->min_ratio >= 1 &&
	       (o->correction == TUNE_CORRECT_HOLM || o->correction == TUNE_CORRECT_BH);
}

/* The q values of every check, adjusted together; -1 when out of memory. */
static int adjust(struct checks *c, enum tune_correction correction)
{
	double *p = malloc((c->n ? c->n : 1) * sizeof *p);
	int rc = p ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < c->n; i++)
		p[i] = c->v[i].p_value;
	if (rc == 0)
		rc = correction == TUNE_CORRECT_BH ? stats_adjust_bh(p, c->n, p)
		                                   : stats_adjust_holm(p, c->n, p);
	for (size_t i = 0; rc == 0 && i < c->n; i++)
		c->v[i].q_value = p[i];
	free(p);
	return rc;
}

/* The checks that are violations into out, by size then kind. 0, or -1 when out of memory. */
static int collect(const struct checks *c, const struct tune_consistency_opts *o,
                   struct tune_consistency *out)
{
	size_t kept = 0;
	for (size_t i = 0; i < c->n; i++)
		kept += is_violation(c, i, o) && !outdone(c, i, o);
	out->violations = kept ? malloc(kept * sizeof *out->violations) : NULL;
	if (kept && !out->violations)
		return -1;
	for (size_t i = 0; i < c->n; i++)
		if (is_violation(c, i, o) && !outdone(c, i, o))
			out->violations[out->nviolations++] = c->v[i];
	if (kept)
		qsort(out->violations, kept, sizeof *out->violations, by_size_then_kind);
	out->nchecks = c->n;
	out->nuntested = c->untested;
	return 0;
}

int tune_consistency_check(const struct tune_point *points, size_t npoints,
                           const struct tune_consistency_opts *opts, struct tune_consistency *out)
{
	struct tune_consistency_opts o = opts ? *opts : tune_consistency_defaults();
	struct checks c = {0};
	int rc = out && (points || npoints == 0) && opts_ok(&o) ? 0 : -1;
	if (out)
		*out = (struct tune_consistency){0};
	if (rc == 0)
		rc = all_checks(&c, points, npoints);
	if (rc == 0)
		rc = adjust(&c, o.correction);
	if (rc == 0)
		rc = collect(&c, &o, out);
	if (rc != 0)
		tune_consistency_release(out);
	free(c.v);
	free(c.mpi_slower);
	return rc;
}

void tune_consistency_release(struct tune_consistency *c)
{
	if (!c)
		return;
	free(c->violations);
	*c = (struct tune_consistency){0};
}

/* A number, or null when it is not one (an undefined statistic). */
static bool add_number(cJSON *o, const char *key, double x)
{
	return isfinite(x) ? cJSON_AddNumberToObject(o, key, x) != NULL
	                   : cJSON_AddNullToObject(o, key) != NULL;
}

int tune_violations_to_json(cJSON *array, const struct tune_violation *v, size_t n)
{
	if (!array || (!v && n > 0))
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct tune_violation *x = &v[i];
		cJSON *e = cJSON_CreateObject();
		if (!e || !cJSON_AddItemToArray(array, e)) {
			cJSON_Delete(e);
			return -1;
		}
		if (!cJSON_AddStringToObject(e, SK_TVIOL_KIND, tune_violation_kind_name(x->kind)) ||
		    !cJSON_AddNumberToObject(e, SK_TVIOL_BYTES, (double)x->bytes) ||
		    !cJSON_AddNumberToObject(e, SK_TVIOL_OTHER_BYTES, (double)x->other_bytes) ||
		    !cJSON_AddStringToObject(e, SK_TVIOL_OTHER, x->other ? x->other : "") ||
		    !add_number(e, SK_TVIOL_MPI_P50_US, x->mpi_p50_us) ||
		    !add_number(e, SK_TVIOL_OTHER_P50_US, x->other_p50_us) ||
		    !add_number(e, SK_TVIOL_RATIO, x->ratio) || !add_number(e, SK_TVIOL_P_VALUE, x->p_value) ||
		    !add_number(e, SK_TVIOL_Q_VALUE, x->q_value) ||
		    !cJSON_AddNumberToObject(e, SK_TVIOL_MPI_SAMPLES, (double)x->mpi_samples) ||
		    !cJSON_AddNumberToObject(e, SK_TVIOL_OTHER_SAMPLES, (double)x->other_samples))
			return -1;
	}
	return 0;
}

/* What the violation says about the library, after its figures. */
static const char *meaning(enum tune_violation_kind k)
{
	static const char *const said[TUNE_VIOLATION_KINDS] = {
	    "MPI_Allreduce slower than MPI_Reduce + MPI_Bcast",
	    "MPI_Allreduce slower than MPI_Reduce_scatter + MPI_Allgatherv",
	    "MPI_Allreduce slower than collscope's own variant",
	    "a larger message is faster",
	};
	return said[k];
}

int tune_violation_format(const struct tune_violation *v, char *buf, size_t len)
{
	int n;
	if (!v || !buf || len == 0 || (unsigned)v->kind >= TUNE_VIOLATION_KINDS)
		return -1;
	if (v->kind == TUNE_NOT_MONOTONIC)
		n = snprintf(buf, len,
		             "%llu bytes: mpi p50 %.1f us is %.2fx its %.1f us at %llu bytes "
		             "(p %.2g, adjusted %.2g): %s",
		             (unsigned long long)v->bytes, v->mpi_p50_us, v->ratio, v->other_p50_us,
		             (unsigned long long)v->other_bytes, v->p_value, v->q_value,
		             meaning(v->kind));
	else
		n = snprintf(buf, len,
		             "%llu bytes: mpi p50 %.1f us is %.2fx %s's %.1f us (p %.2g, adjusted "
		             "%.2g): %s",
		             (unsigned long long)v->bytes, v->mpi_p50_us, v->ratio,
		             v->other ? v->other : "?", v->other_p50_us, v->p_value, v->q_value,
		             meaning(v->kind));
	return n >= 0 && (size_t)n < len ? 0 : -1;
}
