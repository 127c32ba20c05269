/*
 * collscope scale, rank 0 after the sweep: the alpha-beta-gamma fit of every
 * variant (terms counted on its own schedule, algorithms/cost.h), the
 * predicted rows, the data-parallel step model and its sweet spots, and the
 * report's summary.
 *
 * The mpi variant has no schedule: it is modelled with Rabenseifner's
 * shape (the latency of recursive doubling and the bandwidth of the ring,
 * between which MPI libraries choose by size), marked shape_borrowed.
 * Pure (see scale_model.h).
 */
#include "reports/model/scale_model.h"

#include "reports/io/ar_report.h"
#include "algorithms/cost.h"
#include "cmd/exit_codes.h"
#include "reports/io/report_io.h"
#include "reports/io/report_schema.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cost_entry {
	int shape, nranks;
	uint64_t count;
	int rc;
	struct cost_path path;
};

struct model_run {
	const struct scale_model_in *o;
	int world;
	struct scale_results *res;
	struct scale_step_cfg step;
	struct cost_entry *cache; /* every walk done, so none is done twice */
	size_t ncache, capcache;
};

/*
 * The terms of shape at (nranks, count), walked once and remembered; -1 when
 * the walk failed. *sampled (may be NULL): only a sample of ranks was walked.
 */
static int terms_of(struct model_run *m, int shape, int nranks, uint64_t count,
                    struct model_terms *out, bool *sampled)
{
	struct cost_entry *e = NULL;
	for (size_t i = 0; i < m->ncache && !e; i++)
		if (m->cache[i].shape == shape && m->cache[i].nranks == nranks &&
		    m->cache[i].count == count)
			e = &m->cache[i];
	if (!e) {
		if (m->ncache == m->capcache) {
			size_t cap = m->capcache ? 2 * m->capcache : 64;
			struct cost_entry *grown = realloc(m->cache, cap * sizeof *grown);
			if (!grown)
				return -1;
			m->cache = grown;
			m->capcache = cap;
		}
		e = &m->cache[m->ncache++];
		*e = (struct cost_entry){.shape = shape, .nranks = nranks, .count = count};
		e->rc = cost_walk_collective(ar_variants[shape], m->o->collective, nranks, count,
		                             ar_dtype_bytes(m->o->dtype), m->o->segment_bytes,
		                             COST_EXACT_MAX_STEPS, &e->path);
	}
	if (e->rc != 0 && !m->res->warning[0])
		snprintf(m->res->warning, sizeof m->res->warning,
		         "cannot walk the schedule of %s at %d ranks, %llu elements "
		         "(out of memory): that prediction is left out",
		         ar_variants[shape]->name, nranks, (unsigned long long)count);
	*out = (struct model_terms){(double)e->path.messages, (double)e->path.bytes,
	                            (double)e->path.reduced_bytes};
	if (sampled)
		*sampled = e->path.sampled;
	return e->rc;
}

/* v can run collective o->collective on n ranks with o->op (hosts are not modelled). */
static bool runs(const struct scale_model_in *o, int v, int n)
{
	return !ar_collective_unsupported(ar_variants[v], o->collective, n, 1, o->op);
}

/*
 * The shape a variant without a schedule (mpi) borrows, one that runs at any
 * rank count (the fit spans them all): Rabenseifner's, else the first
 * schedule of the collective that can (for the halves, whose Rabenseifner
 * form needs a power of two: the ring's); -1 when none can.
 */
static int borrowed_shape(const struct scale_model_in *o)
{
	for (int i = 0; ar_variants[i]; i++)
		if (strcmp(ar_variants[i]->name, SCALE_MPI_SHAPE) == 0 && runs(o, i, 2) &&
		    runs(o, i, 3))
			return i;
	for (int i = 0; ar_variants[i]; i++)
		if (ar_collective_build(ar_variants[i], o->collective) && runs(o, i, 2) &&
		    runs(o, i, 3))
			return i;
	return -1;
}

/* The variant whose schedule models v: v itself, or the borrowed shape. */
static int shape_of(const struct scale_model_in *o, int v)
{
	return ar_collective_build(ar_variants[v], o->collective) ? v : borrowed_shape(o);
}

/* Terms of every measured row of v, then the fit over those of 2 ranks or more. */
static int fit_variant(struct model_run *m, int v)
{
	struct scale_results *res = m->res;
	struct model_terms *x = calloc(res->n + 1, sizeof *x);
	double *t = calloc(res->n + 1, sizeof *t);
	size_t k = 0;
	int shape = res->shape[v] = shape_of(m->o, v), rc = -1;
	if (!x || !t)
		goto out;
	for (size_t i = 0; shape >= 0 && i < res->n; i++) {
		struct scale_entry *e = &res->e[i];
		if (e->variant != v || e->row.predicted || e->row.skipped ||
		    terms_of(m, shape, e->row.ranks, e->count, &e->row.terms, &e->row.sampled) != 0)
			continue;
		e->row.has_model = true;
		e->row.shape = ar_variants[shape]->name;
		e->row.shape_borrowed = shape != v;
		if (e->row.ranks < 2)
			continue; /* one rank only copies: no term of the model describes that */
		x[k] = e->row.terms;
		t[k++] = e->row.p50_us;
	}
	res->fitted[v] = k > 0 && model_fit_abg(x, t, k, &res->fit[v]) == 0;
	for (size_t i = 0; i < res->n; i++)
		if (res->e[i].variant == v && res->e[i].row.has_model)
			res->e[i].row.model_us =
			    res->fitted[v] ? model_time_us(&res->fit[v], &res->e[i].row.terms)
			                   : NAN;
	rc = 0;
out:
	free(x);
	free(t);
	return rc;
}

/* The measured row with the fewest ranks, at least min_ranks, of v at bytes, or NULL. */
static const struct scale_entry *reference(const struct scale_results *res, int v, uint64_t bytes,
                                           int min_ranks)
{
	const struct scale_entry *ref = NULL;
	for (size_t i = 0; i < res->n; i++) {
		const struct scale_entry *e = &res->e[i];
		if (e->variant == v && !e->row.predicted && !e->row.skipped &&
		    e->row.bytes == bytes && e->row.ranks >= min_ranks &&
		    (!ref || e->row.ranks < ref->row.ranks))
			ref = e;
	}
	return ref;
}

/* One predicted row of v at (n, size), unless the model cannot say. */
static int predict(struct model_run *m, int v, uint64_t size, int n)
{
	struct scale_results *res = m->res;
	const struct scale_entry *ref = reference(res, v, size, 1);
	const struct scale_entry *bw_ref = reference(res, v, size, 2);
	size_t w = ar_dtype_bytes(m->o->dtype);
	struct scale_entry e = {.variant = v, .count = size / w};
	struct scale_row *r = &e.row;
	if (!ref || !runs(m->o, v, n) ||
	    terms_of(m, res->shape[v], n, e.count, &r->terms, &r->sampled) != 0)
		return 0;
	r->algorithm = ar_variants[v]->name;
	r->bytes = size;
	r->ranks = n;
	r->hosts = -1;
	r->predicted = true;
	r->has_model = true;
	r->shape = ar_variants[res->shape[v]]->name;
	r->shape_borrowed = res->shape[v] != v;
	r->model_us = r->p50_us = model_time_us(&res->fit[v], &r->terms);
	r->p99_us = NAN;
	r->busbw_gbps =
	    ar_algbw_gbps(size, r->p50_us) * ar_collective_bus_factor(m->o->collective, n);
	/* relative to the model at the smallest measured count, so the fit's error there cancels */
	r->ref_p50_us = ref->row.model_us;
	r->ref_busbw_gbps =
	    bw_ref ? ar_algbw_gbps(size, bw_ref->row.model_us) *
	                 ar_collective_bus_factor(m->o->collective, bw_ref->row.ranks)
	           : NAN;
	return scale_results_add(res, &e) ? 0 : -1;
}

static int predict_all(struct model_run *m)
{
	const struct scale_model_in *o = m->o;
	for (int v = 0; ar_variants[v]; v++)
		for (int i = 0; o->variants[v] && m->res->fitted[v] && i < o->nsizes; i++)
			for (int k = 0; k < o->nextrapolate; k++)
				if (predict(m, v, o->sizes[i], o->extrapolate[k]) != 0)
					return -1;
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/*
 * The rank counts the model's sweet spot is looked for at: 1, the powers of
 * two up to the largest of --extrapolate and the job, the extrapolated and
 * the measured counts. Owned by the caller; NULL when out of memory.
 */
static int *model_grid(const struct scale_model_in *o, int world, int *n)
{
	int top = world, k = 0;
	for (int i = 0; i < o->nextrapolate; i++)
		top = o->extrapolate[i] > top ? o->extrapolate[i] : top;
	int *g = calloc(32 + (size_t)o->nextrapolate + (size_t)o->nranks, sizeof *g);
	if (!g)
		return NULL;
	g[k++] = 1;
	for (int p = 2; p > 0 && p <= top; p *= 2)
		g[k++] = p;
	for (int i = 0; i < o->nextrapolate; i++)
		g[k++] = o->extrapolate[i];
	for (int i = 0; i < o->nranks; i++)
		g[k++] = o->ranks[i];
	qsort(g, (size_t)k, sizeof *g, cmp_int);
	*n = 0;
	for (int i = 0; i < k; i++)
		if (*n == 0 || g[*n - 1] != g[i])
			g[(*n)++] = g[i];
	return g;
}

static void set_sweet(struct scale_sweet *s, const int *ranks, const double *speedup, int n)
{
	long best = model_sweet_spot(speedup, (size_t)n, &s->at_edge);
	s->found = best >= 0;
	s->ranks = s->found ? ranks[best] : 0;
	s->speedup = s->found ? speedup[best] : NAN;
	s->max_ranks = n > 0 ? ranks[n - 1] : 0;
}

/* The strong-scaling sweet spot of v: over the measured rows, and over the model's grid. */
static int sweet_spots(struct model_run *m, int v, const int *grid, int ngrid)
{
	struct scale_results *res = m->res;
	double *s[2] = {calloc((size_t)ngrid + res->n + 1, sizeof(double)),
	                calloc((size_t)ngrid + res->n + 1, sizeof(double))};
	int *ranks = calloc((size_t)ngrid + res->n + 1, sizeof *ranks), k = 0, rc = -1;
	double f[2] = {0, m->step.overlap};
	if (m->o->overlap_measured) /* the model's: at the largest rank count measured */
		f[1] = isnan(res->step_overlap[v]) ? 0 : res->step_overlap[v];
	struct model_terms x;
	if (!s[0] || !s[1] || !ranks)
		goto out;
	for (size_t i = 0; i < res->n; i++) { /* measured rows come in ascending rank order */
		const struct scale_entry *e = &res->e[i];
		if (e->variant != v || e->row.predicted || !e->row.has_step)
			continue;
		ranks[k] = e->row.ranks;
		s[0][k] = e->row.step.strong_speedup;
		s[1][k++] = e->row.overlapped.strong_speedup;
	}
	for (int j = 0; j < 2; j++)
		set_sweet(&res->sweet_measured[v][j], ranks, s[j], k);
	k = 0;
	for (int i = 0; res->fitted[v] && i < ngrid; i++) {
		if (!runs(m->o, v, grid[i]) ||
		    terms_of(m, res->shape[v], grid[i],
		             m->step.grad_bytes / ar_dtype_bytes(m->o->dtype), &x, NULL) != 0)
			continue;
		ranks[k] = grid[i];
		for (int j = 0; j < 2; j++)
			s[j][k] = model_strong_speedup(grid[i], m->step.compute_us,
			                               model_time_us(&res->fit[v], &x), f[j]);
		k++;
	}
	for (int j = 0; j < 2; j++)
		set_sweet(&res->sweet_model[v][j], ranks, s[j], k);
	rc = 0;
out:
	free(s[0]);
	free(s[1]);
	free(ranks);
	return rc;
}

static cJSON *add_sweet(cJSON *parent, const char *name, const struct scale_sweet *s,
                        bool predicted)
{
	cJSON *o;
	if (!s->found)
		return cJSON_AddNullToObject(parent, name);
	o = cJSON_AddObjectToObject(parent, name);
	bool ok = o && cJSON_AddNumberToObject(o, SK_SWEET_RANKS, s->ranks) &&
	          report_add_number(o, SK_SWEET_SPEEDUP, s->speedup) &&
	          report_add_number(o, SK_SWEET_EFFICIENCY, s->speedup / s->ranks) &&
	          cJSON_AddBoolToObject(o, SK_SWEET_PREDICTED, predicted) &&
	          cJSON_AddBoolToObject(o, SK_SWEET_AT_EDGE, s->at_edge) &&
	          cJSON_AddNumberToObject(o, SK_SWEET_MAX_RANKS, s->max_ranks);
	return ok ? o : NULL;
}

static cJSON *add_sweets(cJSON *parent, const char *name, const struct scale_sweet *measured,
                         const struct scale_sweet *model)
{
	cJSON *o = cJSON_AddObjectToObject(parent, name);
	return o && add_sweet(o, SK_SWEETS_MEASURED, measured, false) &&
	               add_sweet(o, SK_SWEETS_PREDICTED, model, true)
	           ? o
	           : NULL;
}

/* summary.step_model's overlap: the one given, or null and the buckets when measured. */
static bool step_overlap_to_json(cJSON *step, const struct scale_model_in *o)
{
	if (!o->overlap_measured)
		return cJSON_AddNumberToObject(step, SK_STEP_OVERLAP, o->overlap) != NULL;
	return cJSON_AddNullToObject(step, SK_STEP_OVERLAP) &&
	       cJSON_AddNumberToObject(step, SK_STEP_BUCKET_BYTES, (double)o->bucket_bytes);
}

/* summary.variants[]: counts, the fit and the sweet spots of each variant. */
static int summary_variants(struct model_run *m, cJSON *sum)
{
	const struct scale_results *res = m->res;
	cJSON *vars = cJSON_AddArrayToObject(sum, SK_SSUM_VARIANTS);
	for (int v = 0; vars && ar_variants[v]; v++) {
		cJSON *e = NULL;
		if (!m->o->variants[v])
			continue;
		bool ok = (e = cJSON_CreateObject()) && cJSON_AddItemToArray(vars, e) &&
		          cJSON_AddStringToObject(e, SK_SVAR_ALGORITHM, ar_variants[v]->name) &&
		          cJSON_AddNumberToObject(e, SK_SVAR_POINTS, res->measured[v]) &&
		          cJSON_AddNumberToObject(e, SK_SVAR_SKIPPED, res->skipped[v]) &&
		          cJSON_AddNumberToObject(e, SK_SVAR_WRONG, (double)res->wrong[v]) &&
		          (res->fitted[v] ? scale_fit_to_json(e, &res->fit[v],
		                                              ar_variants[res->shape[v]]->name,
		                                              res->shape[v] != v) != NULL
		                          : cJSON_AddNullToObject(e, SK_SVAR_FIT) != NULL);
		if (ok && m->step.on)
			ok = add_sweets(e, SK_SVAR_SWEET_SPOT, &res->sweet_measured[v][0],
			                &res->sweet_model[v][0]) &&
			     add_sweets(e, SK_SVAR_SWEET_SPOT_OVERLAPPED,
			                &res->sweet_measured[v][1], &res->sweet_model[v][1]);
		if (!ok)
			return -1;
	}
	return vars ? 0 : -1;
}

static int summary(struct model_run *m, cJSON *root, uint64_t wrong)
{
	const struct scale_model_in *o = m->o;
	cJSON *sum = cJSON_AddObjectToObject(root, SK_REPORT_SUMMARY), *cost = NULL, *step = NULL;
	bool ok =
	    sum && (cost = cJSON_AddObjectToObject(sum, SK_SSUM_COST_MODEL)) &&
	    cJSON_AddStringToObject(cost, SK_COST_TIME,
	                            "alpha x messages + beta x bytes + gamma x reduced_bytes") &&
	    cJSON_AddStringToObject(cost, SK_COST_TERMS,
	                            "per rank sums over its schedule's steps (bytes: per step "
	                            "the larger of sent and received); the maximum over ranks") &&
	    cJSON_AddStringToObject(cost, SK_COST_FIT,
	                            "non-negative least squares of the relative error of the "
	                            "p50 time, over the points of 2 ranks or more") &&
	    (borrowed_shape(o) < 0
	         ? cJSON_AddNullToObject(cost, SK_COST_DIRECT_VARIANT_SHAPE)
	         : cJSON_AddStringToObject(cost, SK_COST_DIRECT_VARIANT_SHAPE,
	                                   ar_variants[borrowed_shape(o)]->name));
	if (ok && m->step.on)
		ok = (step = cJSON_AddObjectToObject(sum, SK_SSUM_STEP_MODEL)) &&
		     cJSON_AddNumberToObject(step, SK_STEP_COMPUTE_MS, o->compute_ms) &&
		     cJSON_AddNumberToObject(step, SK_STEP_GRAD_BYTES, (double)o->grad_bytes) &&
		     step_overlap_to_json(step, o) &&
		     (!(o->compress_ratio > 0) ||
		      (cJSON_AddNumberToObject(step, SK_STEP_COMPRESS_RATIO, o->compress_ratio) &&
		       cJSON_AddNumberToObject(step, SK_STEP_CAST_GBPS, o->cast_gbps))) &&
		     cJSON_AddStringToObject(
		         step, "tar", "measured at grad_bytes (p50); predicted rows from the fit");
	else if (ok)
		ok = cJSON_AddNullToObject(sum, SK_SSUM_STEP_MODEL) != NULL;
	return ok && summary_variants(m, sum) == 0 &&
	               cJSON_AddNumberToObject(sum, SK_SSUM_WRONG_TOTAL, (double)wrong) &&
	               cJSON_AddStringToObject(sum, SK_SSUM_VERDICT, wrong ? "wrong results" : "ok")
	           ? 0
	           : -1;
}

/* Derived fields into every measured record; a record for every predicted row. */
static int fill_results(struct model_run *m, cJSON *root)
{
	const struct scale_model_in *o = m->o;
	cJSON *results = cJSON_GetObjectItemCaseSensitive(root, SK_REPORT_RESULTS);
	for (size_t i = 0; i < m->res->n; i++) {
		const struct scale_entry *e = &m->res->e[i];
		cJSON *ok = e->row.predicted
		                ? scale_prediction_to_json(results, &e->row, e->count,
		                                           ar_collective_names[o->collective],
		                                           ar_dtype_name(o->dtype), ar_op_name(o->op),
		                                           false)
		                             : scale_row_add_json(e->rec, &e->row);
		if (!ok)
			return -1;
	}
	return 0;
}

/*
 * --compress-ratio: the all-reduce of the gradient compressed. The row's
 * Tar (measured, or the fit's) scaled by what the fit of its variant says
 * of the same schedule with its bytes divided by the ratio (its messages
 * and reductions as they are), plus every rank encoding and decoding the
 * whole gradient at --cast-gbps. NAN without a fit, and for a compressed
 * variant.
 */
static double compressed_tar_us(const struct model_run *m, const struct scale_entry *e)
{
	const struct scale_model_in *o = m->o;
	/* a compressed variant's own figures are compressed already */
	if (!(o->compress_ratio > 0) || !e->row.has_model || !m->res->fitted[e->variant] ||
	    ar_variants[e->variant]->codec)
		return NAN;
	struct model_terms x = e->row.terms;
	double whole = model_time_us(&m->res->fit[e->variant], &x);
	x.bytes /= o->compress_ratio;
	double part = model_time_us(&m->res->fit[e->variant], &x);
	if (!(whole > 0))
		return NAN;
	return e->row.p50_us * part / whole + 2.0 * (double)e->row.bytes / (o->cast_gbps * 1e3);
}

/* References and derived fields of every row (the pure code wants the rows side by side). */
static int derive_all(struct model_run *m)
{
	struct scale_results *res = m->res;
	struct scale_row *rows = calloc(res->n + 1, sizeof *rows);
	if (!rows)
		return -1;
	for (size_t i = 0; i < res->n; i++)
		rows[i] = res->e[i].row;
	scale_rows_reference(rows, res->n);
	for (size_t i = 0; i < res->n; i++) {
		struct scale_entry *e = &res->e[i];
		e->row = rows[i];
		/* --overlap measured: a prediction takes the largest measured rank count's */
		if (e->row.predicted && m->o->overlap_measured &&
		    !isnan(res->step_overlap[e->variant])) {
			e->row.overlap_measured = true;
			e->row.measured_overlap = res->step_overlap[e->variant];
			e->row.measured_step_us = NAN;
		}
		e->row.compressed_tar_us = compressed_tar_us(m, e);
		scale_row_derive(&e->row, &m->step);
	}
	free(rows);
	return 0;
}

/* Fits, predictions, derived rows and sweet spots; -1 when out of memory. */
static int model_all(struct model_run *m)
{
	const struct scale_model_in *o = m->o;
	int ngrid = 0, rc = -1;
	int *grid = model_grid(o, m->world, &ngrid);
	if (!grid)
		return -1;
	for (int v = 0; ar_variants[v]; v++)
		if (o->variants[v] && fit_variant(m, v) != 0)
			goto out;
	if (predict_all(m) != 0 || derive_all(m) != 0)
		goto out;
	for (int v = 0; m->step.on && ar_variants[v]; v++)
		if (o->variants[v] && sweet_spots(m, v, grid, ngrid) != 0)
			goto out;
	rc = 0;
out:
	free(grid);
	return rc;
}

struct scale_entry *scale_results_add(struct scale_results *res, const struct scale_entry *e)
{
	if (res->n == res->cap) {
		size_t cap = res->cap ? 2 * res->cap : 64;
		struct scale_entry *grown = realloc(res->e, cap * sizeof *grown);
		if (!grown)
			return NULL;
		res->e = grown;
		res->cap = cap;
	}
	res->e[res->n] = *e;
	return &res->e[res->n++];
}

void scale_results_release(struct scale_results *res)
{
	free(res->e);
	memset(res, 0, sizeof *res);
}

int scale_model_run(const struct scale_model_in *o, int world, struct scale_results *res,
                    cJSON *root)
{
	struct model_run m = {.o = o, .world = world, .res = res};
	uint64_t wrong = 0;
	int status;
	m.step = (struct scale_step_cfg){.on = !isnan(o->compute_ms),
	                                 .compute_us = o->compute_ms * 1e3,
	                                 .grad_bytes = o->grad_bytes,
	                                 .overlap = o->overlap,
	                                 .compress_ratio = o->compress_ratio};
	for (int v = 0; v < AR_MAX_VARIANTS; v++)
		wrong += res->wrong[v];
	if (model_all(&m) != 0 || fill_results(&m, root) != 0 || summary(&m, root, wrong) != 0)
		status = EXIT_RUNTIME;
	else
		status = wrong ? EXIT_WRONG : EXIT_OK;
	free(m.cache);
	return status;
}
