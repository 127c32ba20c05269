/* See scale_report.h. */
#include "reports/io/scale_report.h"

#include "reports/io/ar_report.h"
#include "reports/io/report_io.h"
#include "reports/io/report_schema.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int scale_placement_order(const int *host_of_rank, int nranks, int nhosts, bool spread, int *order)
{
	int *next = NULL, *hosts = NULL, nh = 0, k = 0, rc = -1;
	if (nranks < 1 || nhosts < 1)
		return -1;
	next = calloc((size_t)nhosts, sizeof *next);   /* per host: the next rank to take */
	hosts = calloc((size_t)nhosts, sizeof *hosts); /* hosts in order of their lowest rank */
	if (!next || !hosts)
		goto out;
	for (int r = nranks - 1; r >= 0; r--) {
		if (host_of_rank[r] < 0 || host_of_rank[r] >= nhosts)
			goto out;
		next[host_of_rank[r]] = r; /* ends at the lowest rank of the host */
	}
	for (int r = 0; r < nranks; r++)
		if (next[host_of_rank[r]] == r)
			hosts[nh++] = host_of_rank[r];
	while (k < nranks) {
		for (int i = 0; i < nh && k < nranks; i++) {
			int h = hosts[i];
			/* packed: drain this host; spread: one rank, then the next host */
			while (next[h] < nranks && k < nranks) {
				order[k++] = next[h];
				do
					next[h]++;
				while (next[h] < nranks && host_of_rank[next[h]] != h);
				if (spread)
					break;
			}
		}
	}
	rc = 0;
out:
	free(next);
	free(hosts);
	return rc;
}

int scale_hosts_spanned(const int *host_of_rank, const int *order, int n)
{
	int hosts = 0;
	for (int i = 0; i < n; i++) {
		bool seen = false;
		for (int j = 0; j < i && !seen; j++)
			seen = host_of_rank[order[j]] == host_of_rank[order[i]];
		hosts += !seen;
	}
	return hosts;
}

static bool same_group(const struct scale_row *a, const struct scale_row *b)
{
	return a->bytes == b->bytes && strcmp(a->algorithm, b->algorithm) == 0;
}

/*
 * The reference row of r: the fewest ranks among the measured rows of its
 * group; with at_least_2, among those of 2 ranks or more (one rank has no
 * bus bandwidth: its factor 2(n-1)/n is 0).
 */
static const struct scale_row *reference(const struct scale_row *rows, size_t n,
                                         const struct scale_row *r, bool at_least_2)
{
	const struct scale_row *ref = NULL;
	for (size_t j = 0; j < n; j++) {
		const struct scale_row *c = &rows[j];
		if (c->predicted || c->skipped || !same_group(r, c) || (at_least_2 && c->ranks < 2))
			continue;
		if (!ref || c->ranks < ref->ranks)
			ref = c;
	}
	return ref;
}

void scale_rows_reference(struct scale_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct scale_row *r = &rows[i];
		if (r->predicted || r->skipped)
			continue;
		const struct scale_row *t = reference(rows, n, r, false);
		const struct scale_row *b = reference(rows, n, r, true);
		r->ref_p50_us = t->p50_us;
		r->ref_busbw_gbps = b ? b->busbw_gbps : NAN;
	}
}

/* a / b, or NAN when it is not a finite number. */
static double ratio(double a, double b)
{
	double q = a / b;
	return isfinite(q) ? q : NAN;
}

void scale_step_at(int ranks, double tar_us, double compute_us, double overlap,
                   struct scale_step *out)
{
	out->efficiency = model_weak_efficiency(compute_us, tar_us, overlap);
	out->speedup = model_weak_speedup(ranks, compute_us, tar_us, overlap);
	out->strong_speedup = model_strong_speedup(ranks, compute_us, tar_us, overlap);
}

void scale_row_derive(struct scale_row *r, const struct scale_step_cfg *cfg)
{
	r->bw_efficiency = ratio(r->busbw_gbps, r->ref_busbw_gbps);
	r->latency_growth = ratio(r->p50_us, r->ref_p50_us);
	r->has_step = !r->skipped && cfg->on && r->bytes == cfg->grad_bytes;
	if (!r->has_step)
		return;
	r->overlap = r->overlap_measured ? r->measured_overlap : cfg->overlap;
	scale_step_at(r->ranks, r->p50_us, cfg->compute_us, 0, &r->step);
	scale_step_at(r->ranks, r->p50_us, cfg->compute_us, r->overlap, &r->overlapped);
	r->has_compressed = cfg->compress_ratio > 0 && isfinite(r->compressed_tar_us);
	if (r->has_compressed)
		scale_step_at(r->ranks, r->compressed_tar_us, cfg->compute_us, 0, &r->compressed);
	r->predicted_step_us =
	    cfg->compute_us + model_exposed_us(r->p50_us, r->overlap, cfg->compute_us);
}

/* snprintf that reports truncation as -1. */
static int fit_in(int written, size_t len)
{
	return written < 0 || (size_t)written >= len ? -1 : 0;
}

int scale_format_header(char *buf, size_t len)
{
	return fit_in(snprintf(buf, len, "# %-18s %12s %6s %5s %12s %12s %10s %7s %7s  %s",
	                       "algorithm", "bytes", "ranks", "hosts", "p50_us", "p99_us",
	                       "busbw_gbps", "bw_eff", "lat_x", "source"),
	              len);
}

/* A number in a fixed width, or "-" when it is not finite. */
static void num(char *out, size_t len, const char *fmt, double v)
{
	if (isfinite(v))
		snprintf(out, len, fmt, v);
	else
		snprintf(out, len, "-");
}

int scale_format_row(char *buf, size_t len, const struct scale_row *r)
{
	char p50[32], p99[32], bw[32], eff[32], lat[32], hosts[16];
	if (r->skipped)
		return fit_in(snprintf(buf, len, "  %-18s %12llu %6d %5s %12s  skipped: %s",
		                       r->algorithm, (unsigned long long)r->bytes, r->ranks, "-",
		                       "-", r->skipped),
		              len);
	num(p50, sizeof p50, "%.2f", r->p50_us);
	num(p99, sizeof p99, "%.2f", r->p99_us);
	num(bw, sizeof bw, "%.3f", r->busbw_gbps);
	num(eff, sizeof eff, "%.3f", r->bw_efficiency);
	num(lat, sizeof lat, "%.3f", r->latency_growth);
	if (r->hosts >= 0)
		snprintf(hosts, sizeof hosts, "%d", r->hosts);
	else
		snprintf(hosts, sizeof hosts, "-");
	return fit_in(snprintf(buf, len, "  %-18s %12llu %6d %5s %12s %12s %10s %7s %7s  %s",
	                       r->algorithm, (unsigned long long)r->bytes, r->ranks, hosts, p50,
	                       p99, bw, eff, lat,
	                       r->predicted ? r->sampled ? "PREDICTED (ranks sampled)" : "PREDICTED"
	                                    : "measured"),
	              len);
}

int scale_format_speedup(char *buf, size_t len, int ranks, double speedup)
{
	char x[32];
	if (!isfinite(speedup))
		return fit_in(snprintf(buf, len, "%d ranks: -", ranks), len);
	snprintf(x, sizeof x, speedup < 99.5 ? "%.3g" : "%.0f", speedup);
	return fit_in(snprintf(buf, len, "%d ranks: %sx of %d ideal (%.0f%%)", ranks, x, ranks,
	                       100 * speedup / ranks),
	              len);
}

static cJSON *add_step(cJSON *o, const struct scale_step *s, int ranks)
{
	bool ok = report_add_number(o, SK_SCALE_EFFICIENCY, s->efficiency) &&
	          report_add_number(o, SK_SCALE_SPEEDUP, s->speedup) &&
	          report_add_number(o, SK_SCALE_STRONG_SPEEDUP, s->strong_speedup) &&
	          report_add_number(o, SK_SCALE_STRONG_EFFICIENCY, s->strong_speedup / ranks);
	return ok ? o : NULL;
}

static cJSON *add_model(cJSON *rec, const struct scale_row *r)
{
	cJSON *m = cJSON_AddObjectToObject(rec, SK_SCALE_MODEL);
	bool ok = m && cJSON_AddStringToObject(m, SK_MODEL_SHAPE, r->shape) &&
	          cJSON_AddBoolToObject(m, SK_MODEL_SHAPE_BORROWED, r->shape_borrowed) &&
	          cJSON_AddNumberToObject(m, SK_MODEL_MESSAGES, r->terms.messages) &&
	          cJSON_AddNumberToObject(m, SK_MODEL_BYTES, r->terms.bytes) &&
	          cJSON_AddNumberToObject(m, SK_MODEL_REDUCED_BYTES, r->terms.reduced_bytes) &&
	          cJSON_AddBoolToObject(m, SK_MODEL_SAMPLED, r->sampled) &&
	          report_add_number(m, SK_MODEL_TIME_US, r->model_us);
	return ok ? m : NULL;
}

cJSON *scale_row_add_json(cJSON *rec, const struct scale_row *r)
{
	bool ok = cJSON_AddBoolToObject(rec, SK_SCALE_PREDICTED, r->predicted) != NULL;
	if (ok && !r->predicted)
		ok = cJSON_AddNumberToObject(rec, SK_SCALE_HOSTS, r->hosts) != NULL;
	if (!ok || r->skipped)
		return ok ? rec : NULL;
	ok = report_add_number(rec, SK_SCALE_BANDWIDTH_EFFICIENCY, r->bw_efficiency) &&
	     report_add_number(rec, SK_SCALE_LATENCY_GROWTH, r->latency_growth);
	if (ok && r->has_step) {
		cJSON *ov = NULL;
		ok = add_step(rec, &r->step, r->ranks) &&
		     (ov = cJSON_AddObjectToObject(rec, SK_SCALE_OVERLAPPED)) &&
		     report_add_number(ov, SK_OVERLAP_OVERLAP, r->overlap) &&
		     cJSON_AddBoolToObject(ov, SK_OVERLAP_MEASURED, r->overlap_measured) &&
		     report_add_number(ov, SK_OVERLAP_PREDICTED_STEP_US, r->predicted_step_us) &&
		     (!r->overlap_measured || r->predicted ||
		      report_add_number(ov, SK_OVERLAP_MEASURED_STEP_US, r->measured_step_us)) &&
		     add_step(ov, &r->overlapped, r->ranks);
	}
	if (ok && r->has_step && r->has_compressed) {
		cJSON *c = cJSON_AddObjectToObject(rec, SK_SCALE_COMPRESSED);
		ok = c && report_add_number(c, SK_SCOMP_TAR_US, r->compressed_tar_us) &&
		     add_step(c, &r->compressed, r->ranks);
	}
	if (ok && r->has_model)
		ok = add_model(rec, r) != NULL;
	return ok ? rec : NULL;
}

cJSON *scale_prediction_to_json(cJSON *results, const struct scale_row *r, uint64_t count,
                                const char *collective, const char *dtype, const char *op,
                                bool in_place)
{
	cJSON *o = cJSON_CreateObject(), *t = NULL;
	double algbw = ar_algbw_gbps(r->bytes, r->p50_us);
	if (!o || !cJSON_AddItemToArray(results, o)) {
		cJSON_Delete(o);
		return NULL;
	}
	bool ok = cJSON_AddStringToObject(o, SK_AR_ALGORITHM, r->algorithm) &&
	          cJSON_AddStringToObject(o, SK_AR_COLLECTIVE, collective) &&
	          cJSON_AddNumberToObject(o, SK_AR_BYTES, (double)r->bytes) &&
	          cJSON_AddNumberToObject(o, SK_AR_COUNT, (double)count) &&
	          cJSON_AddStringToObject(o, SK_AR_DTYPE, dtype) &&
	          cJSON_AddStringToObject(o, SK_AR_OP, op) &&
	          cJSON_AddNumberToObject(o, SK_AR_RANKS, r->ranks) &&
	          cJSON_AddBoolToObject(o, SK_AR_IN_PLACE, in_place) &&
	          (t = cJSON_AddObjectToObject(o, SK_AR_TIME_US)) &&
	          report_add_number(t, SK_TIME_P50, r->p50_us) &&
	          report_add_number(o, SK_AR_ALGBW_GBPS, algbw) &&
	          report_add_number(o, SK_AR_BUSBW_GBPS, r->busbw_gbps);
	return ok ? scale_row_add_json(o, r) : NULL;
}

cJSON *scale_fit_to_json(cJSON *parent, const struct model_fit *f, const char *shape, bool borrowed)
{
	cJSON *o = cJSON_AddObjectToObject(parent, SK_SVAR_FIT);
	double gbps = f->beta_us_per_byte > 0 ? 1e-3 / f->beta_us_per_byte : NAN;
	double reduce_gbps = f->gamma_us_per_byte > 0 ? 1e-3 / f->gamma_us_per_byte : NAN;
	bool ok = o && cJSON_AddStringToObject(o, SK_FIT_SHAPE, shape) &&
	          cJSON_AddBoolToObject(o, SK_FIT_SHAPE_BORROWED, borrowed) &&
	          report_add_number(o, SK_FIT_ALPHA_US, f->alpha_us) &&
	          report_add_number(o, SK_FIT_BETA_US_PER_BYTE, f->beta_us_per_byte) &&
	          report_add_number(o, SK_FIT_GAMMA_US_PER_BYTE, f->gamma_us_per_byte) &&
	          report_add_number(o, SK_FIT_BANDWIDTH_GBPS, gbps) &&
	          report_add_number(o, SK_FIT_REDUCE_GBPS, reduce_gbps) &&
	          report_add_number(o, SK_FIT_RMS_ERROR, f->rms_error) &&
	          report_add_number(o, SK_FIT_MAX_ERROR, f->max_error) &&
	          cJSON_AddNumberToObject(o, SK_FIT_POINTS, (double)f->npoints) &&
	          cJSON_AddBoolToObject(o, SK_FIT_DEGENERATE, f->degenerate);
	return ok ? o : NULL;
}
