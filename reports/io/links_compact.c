/*
 * The compact form of a links report: see links_compact.h. The writer puts
 * each array together as text (a cJSON raw item) in one pass over the
 * pairs; the reader checks every entry of every array and names the bad one.
 */
#include "reports/io/links_compact.h"

#include "reports/io/report_read.h"
#include "reports/io/report_schema.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const pair_sample_why_names[PAIR_SAMPLE_WHYS + 1] = {"suspect", "sampled", NULL};

/* ---- writing ---------------------------------------------------------------------------- */

/* A JSON array being put together as text: "[" item "," item ... "]". */
struct jtext {
	char *p;
	size_t len, cap;
	bool failed;
};

static void jt_put(struct jtext *t, const char *s, size_t n)
{
	if (t->failed)
		return;
	if (t->len + n + 2 > t->cap) {
		size_t cap = t->cap ? t->cap : 256;
		while (t->len + n + 2 > cap)
			cap *= 2;
		char *p = realloc(t->p, cap);
		if (!p) {
			t->failed = true;
			return;
		}
		t->p = p;
		t->cap = cap;
	}
	memcpy(t->p + t->len, s, n);
	t->len += n;
	t->p[t->len] = '\0';
}

static void jt_item(struct jtext *t, const char *s)
{
	jt_put(t, t->len > 1 ? "," : "", t->len > 1 ? 1 : 0);
	jt_put(t, s, strlen(s));
}

/* 4 significant digits (a rate or a time measured to better than 0.01 % is noise), or null. */
static void jt_num(struct jtext *t, double x)
{
	char s[32];
	if (!isfinite(x))
		snprintf(s, sizeof s, "null");
	else
		snprintf(s, sizeof s, "%.4g", x);
	jt_item(t, s);
}

static void jt_int(struct jtext *t, long long x)
{
	char s[24];
	snprintf(s, sizeof s, "%lld", x);
	jt_item(t, s);
}

/* The arrays of "pairs", in the order they are written. */
enum pair_col {
	COL_A,
	COL_B,
	COL_LOCALITY,
	COL_LAT_P50,
	COL_LAT_P99,
	COL_LAT_COUNT,
	COL_BW_P50,
	COL_BW_P99,
	COL_BW_COUNT,
	COL_BW_MSGS,
	COL_BW_STOPPED,
	COL_BIDIR_P50,
	COL_CPU_WAIT,
	COL_REMEASURED,
	COLS
};

static const char *const col_keys[COLS] = {
    SK_PAIRS_A,           SK_PAIRS_B,           SK_PAIRS_LOCALITY,
    SK_PAIRS_LAT_P50_US,  SK_PAIRS_LAT_P99_US,  SK_PAIRS_LAT_COUNT,
    SK_PAIRS_BW_P50_GBPS, SK_PAIRS_BW_P99_GBPS, SK_PAIRS_BW_COUNT,
    SK_PAIRS_BW_WINDOW_MESSAGES, SK_PAIRS_BW_STOPPED_BY_TIME,
    SK_PAIRS_BIDIR_P50_GBPS, SK_PAIRS_CPU_WAIT_FRACTION, SK_PAIRS_REMEASURED,
};

static double gbps(double bytes, double t_us)
{
	return t_us > 0 ? bytes / (t_us * 1e3) : NAN;
}

/* The larger of both ends' shares; without a dense view (a list), this end's alone. */
static double cpu_wait(const struct links_view *v, const struct link_record *r)
{
	return v->records || v->table ? link_cpu_wait(v, r->a, r->b) : r->cpu_wait_share;
}

static void put_pair(struct jtext *col, const struct links_view *v, const struct link_record *r)
{
	const double wb = v->window_bytes;
	jt_int(&col[COL_A], r->a);
	jt_int(&col[COL_B], r->b);
	jt_int(&col[COL_LOCALITY], links_locality(v, r->a, r->b));
	jt_num(&col[COL_LAT_P50], link_latency_us(r));
	jt_num(&col[COL_LAT_P99], r->latency_us.n ? r->latency_us.p99_us : NAN);
	jt_int(&col[COL_LAT_COUNT], (long long)r->latency_us.n);
	jt_num(&col[COL_BW_P50], link_bandwidth_gbps(r, wb));
	jt_num(&col[COL_BW_P99], r->window_us.n ? gbps(wb, r->window_us.p99_us) : NAN);
	jt_int(&col[COL_BW_COUNT], (long long)r->window_us.n);
	jt_int(&col[COL_BW_MSGS], r->window_msgs);
	jt_int(&col[COL_BW_STOPPED], r->stopped_by_time);
	jt_num(&col[COL_BIDIR_P50], link_bidir_gbps(r, wb));
	jt_num(&col[COL_CPU_WAIT], cpu_wait(v, r));
	jt_int(&col[COL_REMEASURED], r->remeasured);
}

static double round4(double x)
{
	char s[32];
	snprintf(s, sizeof s, "%.4g", x);
	return strtod(s, NULL);
}

/* At most LINKS_REPORT_SAMPLES of x[0..n), evenly spaced, 4 digits each. */
static bool add_samples(cJSON *o, const char *name, const double *x, int n)
{
	cJSON *a = cJSON_AddArrayToObject(o, name);
	int k = n < LINKS_REPORT_SAMPLES ? n : LINKS_REPORT_SAMPLES;
	for (int i = 0; a && i < k; i++)
		if (!report_add_number_item(a, round4(x[(size_t)i * (size_t)n / (size_t)k])))
			return false;
	return a != NULL;
}

static bool add_pair_samples(cJSON *array, const struct link_record *r, enum pair_sample_why why)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_AddItemToArray(array, o)) {
		cJSON_Delete(o);
		return false;
	}
	return cJSON_AddNumberToObject(o, SK_PSAMP_A, r->a) &&
	       cJSON_AddNumberToObject(o, SK_PSAMP_B, r->b) &&
	       cJSON_AddStringToObject(o, SK_PSAMP_WHY, pair_sample_why_names[why]) &&
	       add_samples(o, SK_PSAMP_SAMPLES_US, r->latency_samples_us, r->nlatency_samples) &&
	       add_samples(o, SK_PSAMP_WINDOW_SAMPLES_US, r->window_samples_us,
	                   r->nwindow_samples);
}

/*
 * The re-tested pairs keep their samples, and every step-th of the others, at
 * most LINKS_SAMPLED_MAX (all of them with keep_all_samples).
 */
static bool add_all_samples(cJSON *root, const struct links_view *v,
                            const struct link_record *const *recs, size_t n, size_t others)
{
	cJSON *array = cJSON_AddArrayToObject(root, SK_REPORT_PAIR_SAMPLES);
	size_t step = (others + LINKS_SAMPLED_MAX - 1) / LINKS_SAMPLED_MAX, seen = 0;
	if (step < LINKS_SAMPLED_EVERY)
		step = LINKS_SAMPLED_EVERY;
	for (size_t i = 0; array && i < n; i++) {
		const struct link_record *r = recs[i];
		bool sampled = !r->remeasured && (v->keep_all_samples || seen++ % step == 0);
		if ((r->remeasured || sampled) &&
		    !add_pair_samples(array, r,
		                      r->remeasured ? PAIR_SAMPLE_SUSPECT : PAIR_SAMPLE_SAMPLED))
			return false;
	}
	return array != NULL;
}

/* The envelope says which form this is: replaced in place, so it stays first. */
static bool set_version(cJSON *root)
{
	if (!cJSON_GetObjectItemCaseSensitive(root, SK_REPORT_SCHEMA_VERSION))
		return cJSON_AddNumberToObject(root, SK_REPORT_SCHEMA_VERSION,
		                               LINKS_COMPACT_SCHEMA_VERSION) != NULL;
	cJSON *version = cJSON_CreateNumber(LINKS_COMPACT_SCHEMA_VERSION);
	return version &&
	       cJSON_ReplaceItemInObjectCaseSensitive(root, SK_REPORT_SCHEMA_VERSION, version);
}

static cJSON *add_pairs(cJSON *root, const struct links_view *v,
                        const struct link_record *const *recs, size_t n)
{
	struct jtext col[COLS] = {0};
	size_t others = 0;
	for (int c = 0; c < COLS; c++)
		jt_put(&col[c], "[", 1);
	for (size_t i = 0; i < n; i++) {
		put_pair(col, v, recs[i]);
		others += !recs[i]->remeasured;
	}
	cJSON *pairs = cJSON_AddObjectToObject(root, SK_REPORT_PAIRS);
	bool ok = pairs && cJSON_AddNumberToObject(pairs, SK_PAIRS_COUNT, (double)n) &&
	          cJSON_AddNumberToObject(pairs, SK_PAIRS_WINDOW_BYTES, v->window_bytes);
	for (int c = 0; c < COLS; c++) {
		jt_put(&col[c], "]", 1);
		ok = ok && !col[c].failed && cJSON_AddRawToObject(pairs, col_keys[c], col[c].p);
		free(col[c].p);
	}
	ok = ok && add_all_samples(root, v, recs, n, others) && set_version(root);
	return ok ? pairs : NULL;
}

cJSON *links_report_add_pairs(cJSON *root, const struct links_view *v)
{
	const struct link_record **recs = NULL;
	long n = links_view_measured(v, &recs);
	cJSON *pairs = n < 0 ? NULL : add_pairs(root, v, recs, (size_t)n);
	free(recs);
	return pairs;
}

cJSON *links_report_add_pair_list(cJSON *root, const struct links_view *v,
                                  const struct link_record *list, size_t n)
{
	const struct link_record **recs = malloc((n ? n : 1) * sizeof *recs);
	if (!recs)
		return NULL;
	for (size_t i = 0; i < n; i++)
		recs[i] = &list[i];
	cJSON *pairs = add_pairs(root, v, recs, n);
	free(recs);
	return pairs;
}

/* ---- reading ---------------------------------------------------------------------------- */

#define RANK_MAX 2147483647.0

bool links_report_is_compact(const cJSON *root)
{
	return cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, SK_REPORT_PAIRS));
}

void links_pairs_release(struct links_pairs *p)
{
	free(p->a);
	free(p->b);
	free(p->lat_count);
	free(p->bw_count);
	free(p->locality);
	free(p->lat_p50_us);
	free(p->lat_p99_us);
	free(p->bw_p50_gbps);
	free(p->bw_p99_gbps);
	free(p->bidir_p50_gbps);
	free(p->cpu_wait_fraction);
	free(p->remeasured);
	for (size_t i = 0; p->samples && i < p->nsamples; i++) {
		free(p->samples[i].latency_us);
		free(p->samples[i].window_us);
	}
	free(p->samples);
	free((void *)p->host_of_rank);
	memset(p, 0, sizeof *p);
}

/* pairs.<name>: an array of exactly n entries, or an error naming it. */
static const cJSON *column(const struct report_at *at, const cJSON *pairs, const char *name,
                           size_t n)
{
	const cJSON *array = NULL;
	if (report_get_array(at, pairs, name, true, &array) != 0)
		return NULL;
	if ((size_t)cJSON_GetArraySize(array) != n) {
		snprintf(at->err, at->errlen, "report '%s': pairs.%s has %d entries, not count %zu",
		         at->path, name, cJSON_GetArraySize(array), n);
		return NULL;
	}
	return array;
}

/* pairs.<name>[i] out of range or of the wrong type: named. */
static int bad_entry(const struct report_at *at, const char *name, size_t i, const char *what)
{
	snprintf(at->err, at->errlen, "report '%s': pairs.%s[%zu] %s", at->path, name, i, what);
	return -1;
}

/* Numbers >= 0 or null (NAN) into out[n]. */
static int read_numbers(const struct report_at *at, const cJSON *pairs, const char *name,
                        size_t n, double *out)
{
	const cJSON *array = column(at, pairs, name, n);
	size_t i = 0;
	if (!array)
		return -1;
	for (const cJSON *x = array->child; x; x = x->next, i++) {
		if (cJSON_IsNull(x))
			out[i] = NAN;
		else if (!cJSON_IsNumber(x))
			return bad_entry(at, name, i, "is not a number");
		else if (!(x->valuedouble >= 0) || x->valuedouble > DBL_MAX)
			return bad_entry(at, name, i, "is out of range");
		else
			out[i] = x->valuedouble;
	}
	return 0;
}

/* Whole numbers in [0, max] into out[n]. */
static int read_integers(const struct report_at *at, const cJSON *pairs, const char *name,
                         size_t n, double max, int64_t *out)
{
	const cJSON *array = column(at, pairs, name, n);
	size_t i = 0;
	if (!array)
		return -1;
	for (const cJSON *x = array->child; x; x = x->next, i++) {
		double d = x->valuedouble;
		if (!cJSON_IsNumber(x) || floor(d) != d)
			return bad_entry(at, name, i, "is not an integer");
		if (d < 0 || d > max)
			return bad_entry(at, name, i, "is out of range");
		out[i] = (int64_t)d;
	}
	return 0;
}

/*
 * context.ranks[]: the host of every rank (borrowed). Ranks are 0 .. N-1 for
 * the N entries; an entry past that names no host (and sizes nothing).
 */
static int read_hosts(const struct report_at *at, const cJSON *root, struct links_pairs *p)
{
	const cJSON *ctx = cJSON_GetObjectItemCaseSensitive(root, SK_REPORT_CONTEXT);
	const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(ctx, SK_CTX_RANKS);
	p->nranks = cJSON_IsArray(ranks) ? cJSON_GetArraySize(ranks) : 0;
	p->host_of_rank = calloc((size_t)p->nranks + 1, sizeof *p->host_of_rank);
	if (!p->host_of_rank) {
		snprintf(at->err, at->errlen, "report '%s': out of memory", at->path);
		return -1;
	}
	for (const cJSON *x = p->nranks ? ranks->child : NULL; x; x = x->next) {
		const cJSON *r = cJSON_GetObjectItemCaseSensitive(x, SK_CRANK_RANK);
		const cJSON *h = cJSON_GetObjectItemCaseSensitive(x, SK_CRANK_HOST);
		if (cJSON_IsNumber(r) && r->valuedouble >= 0 && r->valuedouble < (double)p->nranks &&
		    cJSON_IsString(h))
			p->host_of_rank[(int64_t)r->valuedouble] = h->valuestring;
	}
	return 0;
}

const char *links_pairs_host(const struct links_pairs *p, int64_t rank)
{
	return rank >= 0 && rank < p->nranks ? p->host_of_rank[rank] : NULL;
}

static int alloc_columns(struct links_pairs *p, size_t n)
{
	size_t k = n ? n : 1;
	p->a = malloc(k * sizeof *p->a);
	p->b = malloc(k * sizeof *p->b);
	p->lat_count = malloc(k * sizeof *p->lat_count);
	p->bw_count = malloc(k * sizeof *p->bw_count);
	p->locality = malloc(k * sizeof *p->locality);
	p->lat_p50_us = malloc(k * sizeof *p->lat_p50_us);
	p->lat_p99_us = malloc(k * sizeof *p->lat_p99_us);
	p->bw_p50_gbps = malloc(k * sizeof *p->bw_p50_gbps);
	p->bw_p99_gbps = malloc(k * sizeof *p->bw_p99_gbps);
	p->bidir_p50_gbps = malloc(k * sizeof *p->bidir_p50_gbps);
	p->cpu_wait_fraction = malloc(k * sizeof *p->cpu_wait_fraction);
	p->remeasured = malloc(k * sizeof *p->remeasured);
	return p->a && p->b && p->lat_count && p->bw_count && p->locality && p->lat_p50_us &&
	               p->lat_p99_us && p->bw_p50_gbps && p->bw_p99_gbps && p->bidir_p50_gbps &&
	               p->cpu_wait_fraction && p->remeasured
	           ? 0
	           : -1;
}

/* The small-integer columns: locality and remeasured, through a scratch of int64. */
static int read_flags(const struct report_at *at, const cJSON *pairs, struct links_pairs *p)
{
	int64_t *tmp = malloc((p->n ? p->n : 1) * sizeof *tmp);
	int rc = -1;
	if (!tmp) {
		snprintf(at->err, at->errlen, "report '%s': out of memory", at->path);
		return -1;
	}
	if (read_integers(at, pairs, SK_PAIRS_LOCALITY, p->n, DETECT_LOCALITIES - 1, tmp) != 0)
		goto out;
	for (size_t i = 0; i < p->n; i++)
		p->locality[i] = (int)tmp[i];
	if (read_integers(at, pairs, SK_PAIRS_REMEASURED, p->n, 1, tmp) != 0)
		goto out;
	for (size_t i = 0; i < p->n; i++)
		p->remeasured[i] = tmp[i] != 0;
	rc = 0;
out:
	free(tmp);
	return rc;
}

static int read_columns(const struct report_at *at, const cJSON *pairs, struct links_pairs *p)
{
	double rank_max = p->nranks > 0 ? (double)p->nranks - 1 : RANK_MAX;
	if (read_integers(at, pairs, SK_PAIRS_A, p->n, rank_max, p->a) != 0 ||
	    read_integers(at, pairs, SK_PAIRS_B, p->n, rank_max, p->b) != 0 ||
	    read_integers(at, pairs, SK_PAIRS_LAT_COUNT, p->n, RANK_MAX, p->lat_count) != 0 ||
	    read_integers(at, pairs, SK_PAIRS_BW_COUNT, p->n, RANK_MAX, p->bw_count) != 0 ||
	    read_numbers(at, pairs, SK_PAIRS_LAT_P50_US, p->n, p->lat_p50_us) != 0 ||
	    read_numbers(at, pairs, SK_PAIRS_LAT_P99_US, p->n, p->lat_p99_us) != 0 ||
	    read_numbers(at, pairs, SK_PAIRS_BW_P50_GBPS, p->n, p->bw_p50_gbps) != 0 ||
	    read_numbers(at, pairs, SK_PAIRS_BW_P99_GBPS, p->n, p->bw_p99_gbps) != 0 ||
	    read_numbers(at, pairs, SK_PAIRS_BIDIR_P50_GBPS, p->n, p->bidir_p50_gbps) != 0 ||
	    read_numbers(at, pairs, SK_PAIRS_CPU_WAIT_FRACTION, p->n, p->cpu_wait_fraction) != 0)
		return -1;
	for (size_t i = 0; i < p->n; i++)
		if (p->a[i] == p->b[i])
			return bad_entry(at, SK_PAIRS_B, i, "is its own sender");
	return read_flags(at, pairs, p);
}

static int sample_order(const void *pa, const void *pb)
{
	const struct links_pair_samples *x = pa, *y = pb;
	if (x->a != y->a)
		return (x->a > y->a) - (x->a < y->a);
	return (x->b > y->b) - (x->b < y->b);
}

static int read_one_sample(const struct report_at *at, const cJSON *o,
                           struct links_pair_samples *s)
{
	const char *why = NULL;
	if (report_get_integer(at, o, SK_PSAMP_A, true, 0, RANK_MAX, &s->a) != 0 ||
	    report_get_integer(at, o, SK_PSAMP_B, true, 0, RANK_MAX, &s->b) != 0 ||
	    report_get_string(at, o, SK_PSAMP_WHY, false, &why) != 0 ||
	    report_get_numbers(at, o, SK_PSAMP_SAMPLES_US, false, 0, DBL_MAX, &s->latency_us,
	                       &s->nlatency) != 0 ||
	    report_get_numbers(at, o, SK_PSAMP_WINDOW_SAMPLES_US, false, 0, DBL_MAX,
	                       &s->window_us, &s->nwindow) != 0)
		return -1;
	s->why = why && strcmp(why, pair_sample_why_names[PAIR_SAMPLE_SUSPECT]) == 0
	             ? PAIR_SAMPLE_SUSPECT
	             : PAIR_SAMPLE_SAMPLED;
	return 0;
}

static int read_samples(const struct report_at *top, const cJSON *root, struct links_pairs *p)
{
	char where[REPORT_WHERE_BYTES];
	struct report_at at = {top->path, where, top->err, top->errlen};
	const cJSON *array = NULL;
	size_t i = 0;
	if (report_get_array(top, root, SK_REPORT_PAIR_SAMPLES, false, &array) != 0)
		return -1;
	p->samples = calloc((size_t)cJSON_GetArraySize(array) + 1, sizeof *p->samples);
	if (!p->samples) {
		snprintf(top->err, top->errlen, "report '%s': out of memory", top->path);
		return -1;
	}
	for (const cJSON *o = array ? array->child : NULL; o; o = o->next, i++) {
		snprintf(where, sizeof where, "%s[%zu]", SK_REPORT_PAIR_SAMPLES, i);
		p->nsamples++;
		if (!cJSON_IsObject(o)) {
			snprintf(top->err, top->errlen, "report '%s': %s is not an object",
			         top->path, where);
			return -1;
		}
		if (read_one_sample(&at, o, &p->samples[i]) != 0)
			return -1;
	}
	qsort(p->samples, p->nsamples, sizeof *p->samples, sample_order);
	return 0;
}

int links_pairs_read(const char *path, const cJSON *root, struct links_pairs *out, char *err,
                     size_t errlen)
{
	struct report_at at = {path, "", err, errlen}, in = {path, SK_REPORT_PAIRS, err, errlen};
	const cJSON *pairs = NULL;
	int64_t count = 0;
	memset(out, 0, sizeof *out);
	if (report_get_object(&at, root, SK_REPORT_PAIRS, true, &pairs) != 0 ||
	    report_get_integer(&in, pairs, SK_PAIRS_COUNT, true, 0, RANK_MAX * RANK_MAX,
	                       &count) != 0 ||
	    report_get_number(&in, pairs, SK_PAIRS_WINDOW_BYTES, false, 0, DBL_MAX,
	                      &out->window_bytes) != 0 ||
	    read_hosts(&at, root, out) != 0)
		goto fail;
	out->n = (size_t)count;
	/* the arrays' length is checked before count sizes any allocation */
	if (!column(&in, pairs, SK_PAIRS_A, out->n))
		goto fail;
	if (alloc_columns(out, out->n) != 0) {
		snprintf(err, errlen, "report '%s': out of memory for %zu pairs", path, out->n);
		goto fail;
	}
	if (read_columns(&in, pairs, out) != 0 || read_samples(&at, root, out) != 0)
		goto fail;
	return 0;
fail:
	links_pairs_release(out);
	return -1;
}

const struct links_pair_samples *links_pairs_samples_of(const struct links_pairs *p, int64_t a,
                                                        int64_t b)
{
	struct links_pair_samples key = {.a = a, .b = b};
	if (!p->samples || p->nsamples == 0)
		return NULL;
	return bsearch(&key, p->samples, p->nsamples, sizeof key, sample_order);
}
