/* All-reduce records: formulas, the field table, text and JSON. See ar_report.h. */
#include "reports/io/ar_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "reports/io/report_io.h"
#include "reports/io/report_schema.h"
#include "reports/render/fixed.h"

double ar_algbw_gbps(uint64_t bytes, double time_us)
{
	if (!(time_us > 0))
		return NAN;
	return (double)bytes / (time_us * 1e-6) / 1e9;
}

double ar_busbw_factor(int nranks)
{
	return nranks > 0 ? 2.0 * (nranks - 1) / nranks : 0;
}

bool ar_record_has_time(const struct ar_record *r)
{
	return !r->skipped && r->nsamples > 0 && isfinite(r->time.p50_us);
}

bool ar_is_cliff(uint64_t bytes_a, double time_a_us, uint64_t bytes_b, double time_b_us)
{
	if (bytes_b <= bytes_a || bytes_b < AR_CLIFF_MIN_BYTES || !(time_a_us > 0) ||
	    !(time_b_us > 0))
		return false;
	double growth = (time_b_us / time_a_us) / ((double)bytes_b / (double)bytes_a);
	return growth > AR_CLIFF_FACTOR;
}

int ar_record_compute(struct ar_record *r)
{
	if (r->nsamples == 0)
		r->time = (struct stats_summary){NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0};
	else if (stats_summarize(r->samples_us, r->nsamples, &r->time) != 0)
		return -1;
	double f = ar_collective_bus_factor(r->collective, r->ranks);
	r->algbw_gbps = ar_algbw_gbps(r->bytes, r->time.p50_us);
	r->busbw_gbps = r->algbw_gbps * f;
	r->algbw_mean_gbps = ar_algbw_gbps(r->bytes, r->time.mean_us);
	r->busbw_mean_gbps = r->algbw_mean_gbps * f;
	if (r->straggler_rank >= 0)
		return 0;
	for (int i = 0; r->rank_mean_us && i < r->ranks; i++)
		if (r->straggler_rank < 0 ||
		    r->rank_mean_us[i] < r->rank_mean_us[r->straggler_rank])
			r->straggler_rank = i;
	return 0;
}

/*
 * The columns of the text table. JSON carries every one of them under the
 * same name (and more: the whole time summary, samples, per-rank means).
 */
enum field_kind { F_U64, F_STR, F_US, F_GBPS, F_WRONG };
struct ar_field {
	const char *header; /* text and CSV column */
	int width;
	enum field_kind kind;
	size_t offset; /* into struct ar_record, or of the stats field for F_US */
	bool in_time;  /* F_US: offset is into r->time */
};

#define REC(m)  offsetof(struct ar_record, m)
#define TIME(m) offsetof(struct stats_summary, m)
static const struct ar_field fields[] = {
    {"size_bytes", 12, F_U64, REC(bytes), false},
    {"count", 12, F_U64, REC(count), false},
    {"type", 9, F_STR, REC(dtype), false},
    {"redop", 6, F_STR, REC(op), false},
    {"algorithm", 19, F_STR, REC(algorithm), false},
    {"p50_us", 11, F_US, TIME(p50_us), true},
    {"p99_us", 11, F_US, TIME(p99_us), true},
    {"algbw_gbps", 11, F_GBPS, REC(algbw_gbps), false},
    {"busbw_gbps", 11, F_GBPS, REC(busbw_gbps), false},
    {"wrong", 7, F_WRONG, REC(wrong), false},
};
#define NFIELDS (sizeof fields / sizeof fields[0])

static int format_cell(char *buf, size_t len, const struct ar_field *f, const struct ar_record *r)
{
	const char *base = f->in_time ? (const char *)&r->time : (const char *)r;
	const void *p = base + f->offset;
	double d;
	switch (f->kind) {
	case F_U64: return snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)p);
	case F_STR: return snprintf(buf, len, "%s", *(const char *const *)p);
	case F_US:
	case F_GBPS:
		d = *(const double *)p;
		if (r->skipped || !isfinite(d))
			return snprintf(buf, len, "-");
		/* fixed notation with 3 significant digits at least: 0.0003 GB/s is no "0.000" */
		return f->kind == F_US ? snprintf(buf, len, "%.2f", d)
		                       : report_fixed(buf, len, d, 3, 3);
	case F_WRONG:
		if (r->skipped)
			return snprintf(buf, len, "skip");
		if (r->wrong < 0)
			return snprintf(buf, len, "n/a");
		return snprintf(buf, len, "%lld", (long long)r->wrong);
	}
	return 0;
}

static int append(char *buf, size_t len, size_t *used, const char *fmt, int width, const char *s)
{
	int n = snprintf(buf + *used, *used < len ? len - *used : 0, fmt, width, s);
	if (n < 0)
		return -1;
	*used += (size_t)n;
	return 0;
}

int ar_format_header(char *buf, size_t len, bool csv)
{
	size_t used = 0;
	for (size_t i = 0; i < NFIELDS; i++) {
		const char *fmt = csv ? (i ? ",%.*s" : "%.*s") : (i ? " %*s" : "#%*s");
		int width = csv ? 64 : fields[i].width - (i == 0);
		if (append(buf, len, &used, fmt, width, fields[i].header) != 0)
			return -1;
	}
	return used < len ? 0 : -1;
}

int ar_format_row(char *buf, size_t len, const struct ar_record *r, bool csv)
{
	size_t used = 0;
	for (size_t i = 0; i < NFIELDS; i++) {
		char cell[128];
		format_cell(cell, sizeof cell, &fields[i], r);
		const char *fmt = csv ? (i ? ",%.*s" : "%.*s") : (i ? " %*s" : "%*s");
		if (append(buf, len, &used, fmt, csv ? 127 : fields[i].width, cell) != 0)
			return -1;
	}
	if (r->skipped && !csv) {
		int n = snprintf(buf + used, used < len ? len - used : 0, "  (skipped: %s)",
		                 r->skipped);
		used += n > 0 ? (size_t)n : 0;
	}
	return used < len ? 0 : -1;
}

static bool add_time(cJSON *rec, const struct stats_summary *t)
{
	cJSON *o = cJSON_AddObjectToObject(rec, SK_AR_TIME_US);
	return o && report_add_number(o, SK_TIME_MIN, t->min_us) &&
	       report_add_number(o, SK_TIME_MEAN, t->mean_us) &&
	       report_add_number(o, SK_TIME_STDDEV, t->stddev_us) &&
	       report_add_number(o, SK_TIME_P50, t->p50_us) &&
	       report_add_number(o, SK_TIME_P90, t->p90_us) &&
	       report_add_number(o, SK_TIME_P99, t->p99_us) &&
	       report_add_number(o, SK_TIME_P999, t->p999_us) &&
	       report_add_number(o, SK_TIME_MAX, t->max_us);
}

static bool add_array(cJSON *rec, const char *name, const double *x, size_t n)
{
	cJSON *a = cJSON_AddArrayToObject(rec, name);
	for (size_t i = 0; a && i < n; i++)
		if (!report_add_number_item(a, x[i]))
			return false;
	return a != NULL;
}

/* Window: what the samples were timed from; left out when not known. */
static bool add_from(cJSON *o, enum timing_from f)
{
	const char *name = timing_from_name(f);
	return !name || cJSON_AddStringToObject(o, SK_AR_TIMED_FROM, name) != NULL;
}

/* How the point was timed, and who it waited for (algorithms/README.md, timing methods). */
static bool add_timing(cJSON *o, const struct ar_record *r)
{
	if (r->timing_known &&
	    !cJSON_AddStringToObject(o, SK_AR_TIMING, timing_method_name(r->timing)))
		return false;
	if (r->timing_known && r->timing == TIMING_WINDOW &&
	    !(cJSON_AddNumberToObject(o, SK_AR_LATE_STARTS, r->late_starts) &&
	      add_from(o, r->timed_from) &&
	      cJSON_AddNumberToObject(o, SK_AR_LATE_STARTS_RETIMED, r->late_starts_retimed) &&
	      report_add_number(o, SK_AR_WINDOW_LEAD_US, r->window_lead_us) &&
	      report_add_number(o, SK_AR_START_ERROR_US, r->start_error_us)))
		return false;
	if (r->stop && !(report_add_number(o, SK_AR_P50_CI_LOW_US, r->p50_ci_lo_us) &&
	                 report_add_number(o, SK_AR_P50_CI_HIGH_US, r->p50_ci_hi_us) &&
	                 cJSON_AddStringToObject(o, SK_AR_STOP, r->stop)))
		return false;
	if (r->timing_known && r->timing == TIMING_PIPELINED &&
	    !cJSON_AddNumberToObject(o, SK_AR_CALLS_PER_SAMPLE, r->calls_per_sample))
		return false;
	const char *cause = timing_cause_name(r->straggler_cause);
	return (cause ? cJSON_AddStringToObject(o, SK_AR_STRAGGLER_CAUSE, cause)
	              : cJSON_AddNullToObject(o, SK_AR_STRAGGLER_CAUSE)) &&
	       report_add_number(o, SK_AR_STRAGGLER_US, r->straggler_us) &&
	       (!r->timing_known ||
	        (cJSON_AddNumberToObject(o, SK_AR_STRAGGLER_COUNT, r->straggler_count) &&
	         report_add_number(o, SK_AR_STRAGGLER_P_VALUE, r->straggler_p_value) &&
	         cJSON_AddBoolToObject(o, SK_AR_STRAGGLER_PERSISTENT, r->straggler_persistent))) &&
	       (!r->rank_late_us ||
	        add_array(o, SK_AR_RANK_LATE_US, r->rank_late_us, (size_t)r->ranks)) &&
	       (!r->rank_learnt_late_us ||
	        add_array(o, SK_AR_RANK_LEARNT_LATE_US, r->rank_learnt_late_us, (size_t)r->ranks));
}

/* A compressed variant's bytes and accuracy (issue 40). */
static bool add_compressed(cJSON *o, const struct ar_record *r)
{
	return !r->compressed ||
	       (report_add_number(o, SK_AR_SENT_BYTES, r->sent_bytes) &&
	        report_add_number(o, SK_AR_COMPRESSION_RATIO, r->compression_ratio) &&
	        report_add_number(o, SK_AR_WIRE_BUSBW_GBPS, r->wire_busbw_gbps) &&
	        report_add_number(o, SK_AR_MAX_ABS_ERROR, r->max_abs_error) &&
	        report_add_number(o, SK_AR_REL_L2_ERROR, r->rel_l2_error) &&
	        report_add_number(o, SK_AR_BEYOND_BOUND_SHARE, r->beyond_bound_share) &&
	        cJSON_AddNumberToObject(o, SK_AR_FEEDBACK_CALLS, r->feedback_calls) &&
	        report_add_number(o, SK_AR_FEEDBACK_REL_L2_ERROR, r->feedback_rel_l2_error));
}

static bool add_measured(cJSON *o, const struct ar_record *r)
{
	return cJSON_AddNumberToObject(o, SK_AR_ITERATIONS, r->iterations) &&
	       (r->wrong >= 0 ? cJSON_AddNumberToObject(o, SK_AR_WRONG, (double)r->wrong)
	                      : cJSON_AddNullToObject(o, SK_AR_WRONG)) &&
	       add_time(o, &r->time) && report_add_number(o, SK_AR_ALGBW_GBPS, r->algbw_gbps) &&
	       report_add_number(o, SK_AR_BUSBW_GBPS, r->busbw_gbps) &&
	       report_add_number(o, SK_AR_ALGBW_MEAN_GBPS, r->algbw_mean_gbps) &&
	       report_add_number(o, SK_AR_BUSBW_MEAN_GBPS, r->busbw_mean_gbps) &&
	       (r->straggler_rank >= 0
	            ? cJSON_AddNumberToObject(o, SK_AR_STRAGGLER_RANK, r->straggler_rank)
	            : cJSON_AddNullToObject(o, SK_AR_STRAGGLER_RANK)) &&
	       add_array(o, SK_AR_RANK_MEAN_US, r->rank_mean_us,
	                 r->rank_mean_us ? (size_t)r->ranks : 0) &&
	       add_timing(o, r) && add_compressed(o, r) &&
	       add_array(o, SK_AR_SAMPLES_US, r->samples_us, r->nsamples);
}

cJSON *ar_record_to_json(cJSON *results, const struct ar_record *r)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_AddItemToArray(results, o)) {
		cJSON_Delete(o);
		return NULL;
	}
	bool ok = cJSON_AddStringToObject(o, SK_AR_ALGORITHM, r->algorithm) &&
	          cJSON_AddNumberToObject(o, SK_AR_BYTES, (double)r->bytes) &&
	          cJSON_AddNumberToObject(o, SK_AR_COUNT, (double)r->count) &&
	          cJSON_AddStringToObject(o, SK_AR_DTYPE, r->dtype) &&
	          cJSON_AddStringToObject(o, SK_AR_OP, r->op) &&
	          cJSON_AddNumberToObject(o, SK_AR_RANKS, r->ranks) &&
	          cJSON_AddBoolToObject(o, SK_AR_IN_PLACE, r->in_place) &&
	          cJSON_AddStringToObject(o, SK_AR_COLLECTIVE, ar_collective_names[r->collective]);
	if (ok && r->skipped)
		ok = cJSON_AddStringToObject(o, SK_AR_SKIPPED, r->skipped) != NULL;
	else if (ok)
		ok = add_measured(o, r);
	return ok ? o : NULL;
}
