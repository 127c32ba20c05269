/*
 * compare: the text table, the markdown table and the JSON of a result. One
 * table of fields drives all three, so they cannot drift apart.
 */
#include "reports/compare/compare_points.h"

#include "reports/io/report_io.h"
#include "reports/render/report_text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum field_kind {
	F_VERDICT,
	F_POINT,
	F_BASE,
	F_CUR,
	F_RATIO,
	F_PCT,
	F_NBASE,
	F_NCUR,
	F_SAMPLES,
	F_U,
	F_PAIRS,
	F_T,
	F_P,
	F_Q,
	F_MDE,
	F_NEEDED,
	F_SPREAD,
	F_YARD,
	F_NOISE,
	F_BAR,
	F_NOTE
};

/* Where a field appears. */
enum { IN_TABLE = 1, IN_JSON = 2, IN_BOTH = 3 };

struct cmp_field {
	const char *name; /* JSON key and column header; %s is the metric's key */
	int width;        /* text column, widened to the header; negative: left-aligned */
	enum field_kind kind;
	enum cmp_metric metric;
	unsigned where; /* IN_TABLE: the text and markdown tables; IN_JSON: the JSON rows */
};

static const struct cmp_field fields[] = {
    {"verdict", -15, F_VERDICT, 0, IN_BOTH},
    {"point", -44, F_POINT, 0, IN_BOTH},
    {"baseline_%s", 10, F_BASE, CMP_P50, IN_BOTH},
    {"current_%s", 10, F_CUR, CMP_P50, IN_BOTH},
    {"%s_ratio", 0, F_RATIO, CMP_P50, IN_JSON},
    {"%s_change_pct", 9, F_PCT, CMP_P50, IN_BOTH},
    {"baseline_%s", 0, F_BASE, CMP_P99, IN_JSON},
    {"current_%s", 0, F_CUR, CMP_P99, IN_JSON},
    {"%s_ratio", 0, F_RATIO, CMP_P99, IN_JSON},
    {"%s_change_pct", 9, F_PCT, CMP_P99, IN_BOTH},
    {"baseline_%s", 0, F_BASE, CMP_BW, IN_JSON},
    {"current_%s", 0, F_CUR, CMP_BW, IN_JSON},
    {"%s_ratio", 0, F_RATIO, CMP_BW, IN_JSON},
    {"%s_change_pct", 9, F_PCT, CMP_BW, IN_BOTH},
    {"baseline_samples", 0, F_NBASE, 0, IN_JSON},
    {"current_samples", 0, F_NCUR, 0, IN_JSON},
    {"samples", 9, F_SAMPLES, 0, IN_TABLE},
    {"mann_whitney_u", 0, F_U, 0, IN_JSON},
    {"pairs", 0, F_PAIRS, 0, IN_JSON},
    {"paired_t", 0, F_T, 0, IN_JSON},
    {"p_value", 9, F_P, 0, IN_BOTH},
    {"q_value", 9, F_Q, 0, IN_BOTH},
    {"mde_pct", 7, F_MDE, 0, IN_BOTH},
    {"samples_needed", 0, F_NEEDED, 0, IN_JSON},
    {"spread_pct", 0, F_SPREAD, 0, IN_JSON},
    {"yardstick_pct", 0, F_YARD, 0, IN_JSON},
    {"noise_pct", 6, F_NOISE, 0, IN_BOTH},
    {"bar_pct", 0, F_BAR, 0, IN_JSON},
    {"note", -1, F_NOTE, 0, IN_BOTH},
};
#define NFIELDS          (sizeof fields / sizeof fields[0])
#define FIELD_NAME_BYTES 128

/* "p50_us", "busbw_gbps", "latency_p50_us", "bandwidth_gbps": the metric with its unit. */
static void metric_key(enum cmp_metric m, enum cmp_kind kind, char *buf, size_t len)
{
	snprintf(buf, len, "%s_%s", cmp_metric_name(m, kind), m == CMP_BW ? "gbps" : "us");
}

static void field_name(const struct cmp_field *f, enum cmp_kind kind, char *buf, size_t len)
{
	char key[40];
	const char *pct = strstr(f->name, "%s");

	if (!pct) {
		snprintf(buf, len, "%s", f->name);
		return;
	}
	if (f->kind == F_BASE || f->kind == F_CUR)
		metric_key(f->metric, kind, key, sizeof key);
	else
		snprintf(key, sizeof key, "%s", cmp_metric_name(f->metric, kind));
	snprintf(buf, len, "%.*s%s%s", (int)(pct - f->name), f->name, key, pct + 2);
}

/* The text column's width: the field's, widened to its header; negative is left-aligned. */
static int width(const struct cmp_field *f, enum cmp_kind kind)
{
	char name[FIELD_NAME_BYTES];
	int w;

	field_name(f, kind, name, sizeof name);
	w = (int)strlen(name);
	if (f->width < 0)
		return -w < f->width ? -w : f->width;
	return w > f->width ? w : f->width;
}

/* The number a numeric field shows, or NAN. */
static double field_number(const struct cmp_field *f, const struct cmp_row *r)
{
	switch (f->kind) {
	case F_BASE: return r->base_value[f->metric];
	case F_CUR: return r->cur_value[f->metric];
	case F_RATIO: return r->ratio[f->metric];
	case F_PCT: return r->change_pct[f->metric];
	/* both sides: the samples the test was given (window times for a link's bandwidth) */
	case F_NBASE: return !r->base ? NAN : r->cur ? (double)r->tested_base : (double)r->base->nsamples;
	case F_NCUR: return !r->cur ? NAN : r->base ? (double)r->tested_cur : (double)r->cur->nsamples;
	case F_U: return r->u;
	case F_PAIRS: return r->pairs ? (double)r->pairs : NAN;
	case F_T: return r->t;
	case F_P: return r->p_value;
	case F_Q: return r->q_value;
	case F_MDE: return r->mde_pct;
	case F_NEEDED: return r->samples_needed ? (double)r->samples_needed : NAN;
	case F_SPREAD: return r->spread_pct;
	case F_YARD: return r->yardstick_pct;
	/* the wider of the two: what the untestable rule holds against the threshold */
	case F_NOISE: return isnan(r->spread_pct) ? r->yardstick_pct
	                     : isnan(r->yardstick_pct) ? r->spread_pct
	                                               : fmax(r->spread_pct, r->yardstick_pct);
	case F_BAR: return r->bar_pct;
	default: return NAN;
	}
}

/* The text of a cell (the strings unescaped: the caller escapes for its format). */
static const char *samples_text(const struct cmp_point *p, char *buf, size_t len)
{
	if (!p)
		return "-";
	snprintf(buf, len, "%zu", p->nsamples);
	return buf;
}

static void cell(const struct cmp_field *f, const struct cmp_row *r, char *buf, size_t len)
{
	char nb[24], nc[24];
	double v = field_number(f, r);

	if (f->kind == F_VERDICT)
		snprintf(buf, len, "%s", cmp_verdict_name(r->verdict));
	else if (f->kind == F_POINT)
		snprintf(buf, len, "%s", r->label);
	else if (f->kind == F_NOTE)
		cmp_row_note(r, buf, len);
	else if (f->kind == F_SAMPLES && r->base && r->cur)
		snprintf(buf, len, "%zu/%zu", r->tested_base, r->tested_cur);
	else if (f->kind == F_SAMPLES)
		snprintf(buf, len, "%s/%s", samples_text(r->base, nb, sizeof nb),
		         samples_text(r->cur, nc, sizeof nc));
	else if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (f->kind == F_PCT)
		snprintf(buf, len, "%+.1f%%", v);
	else if (f->kind == F_P || f->kind == F_Q)
		snprintf(buf, len, "%.2g", v);
	else if (f->kind == F_MDE && isinf(v))
		snprintf(buf, len, "inf");
	else if (f->kind == F_MDE)
		snprintf(buf, len, "%.1f%%", v);
	else if (f->kind == F_NOISE)
		snprintf(buf, len, "%.0f%%", v);
	else if (f->kind == F_NBASE || f->kind == F_NCUR)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, f->metric == CMP_BW ? "%.3f" : "%.2f", v);
}

/* Markdown table cells: no pipe, no HTML, no line break from a report's strings. */
static void md_put(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '\\' || *s == '`' || *s == '*' || *s == '_' || *s == '[' ||
		    *s == ']')
			fputc('\\', f);
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
	}
}

/* A path as text: what a terminal would act on is written escaped ("\x1b"). */
static void put(FILE *f, bool md, const char *s)
{
	char escaped[4 * CMP_LABEL_BYTES];

	if (!md) {
		report_fput_escaped(f, s);
		return;
	}
	report_escape_text(escaped, sizeof escaped, s);
	md_put(f, escaped);
}

static void print_header(FILE *f, enum cmp_format fmt, const struct cmp_run *cur)
{
	char name[FIELD_NAME_BYTES];
	bool md = fmt == CMP_FORMAT_MARKDOWN;

	fputs(md ? "|" : "#", f);
	for (size_t i = 0; i < NFIELDS; i++) {
		if (!(fields[i].where & IN_TABLE))
			continue;
		field_name(&fields[i], cur->kind, name, sizeof name);
		if (md)
			fprintf(f, " %s |", name);
		else if (fields[i].kind == F_NOTE)
			fprintf(f, " %s", name);
		else
			fprintf(f, "%s%*s", i ? " " : "", width(&fields[i], cur->kind) + (i == 0),
			        name);
	}
	fputc('\n', f);
	if (!md)
		return;
	fputc('|', f);
	for (size_t i = 0; i < NFIELDS; i++)
		if ((fields[i].where & IN_TABLE))
			fputs(fields[i].width < 0 ? " :--- |" : " ---: |", f);
	fputc('\n', f);
}

static void print_row(FILE *f, enum cmp_format fmt, enum cmp_kind kind, const struct cmp_row *r)
{
	char text[CMP_LABEL_BYTES + 200];
	bool md = fmt == CMP_FORMAT_MARKDOWN;

	if (md)
		fputc('|', f);
	for (size_t i = 0; i < NFIELDS; i++) {
		if (!(fields[i].where & IN_TABLE))
			continue;
		cell(&fields[i], r, text, sizeof text);
		if (md && fields[i].kind == F_VERDICT && r->verdict == CMP_REGRESSION) {
			fprintf(f, " **%s** |", text);
		} else if (md) {
			fputc(' ', f);
			md_put(f, text);
			fputs(" |", f);
		} else if (fields[i].kind == F_NOTE) {
			fprintf(f, "%s%s", text[0] ? " " : "", text);
		} else {
			fprintf(f, "%s%*s", i ? " " : "", width(&fields[i], kind), text);
		}
	}
	fputc('\n', f);
}

static const char *const correction_text[CMP_CORRECTIONS] = {
    [CMP_CORRECT_BH] = "after the Benjamini-Hochberg adjustment (false discovery rate) over",
    [CMP_CORRECT_HOLM] = "after Holm's adjustment (family-wise error) over",
    [CMP_CORRECT_NONE] = "with no adjustment for multiple comparisons (q = p) over",
};

static void print_rule(FILE *f, enum cmp_format fmt, const struct cmp_run *base,
                       const struct cmp_run *cur, const struct cmp_result *r,
                       const struct cmp_options *o)
{
	char key[64];
	bool md = fmt == CMP_FORMAT_MARKDOWN;

	fputs(md ? "Baseline '" : "# collscope compare: baseline '", f);
	put(f, md, base->path);
	fputs("', current '", f);
	put(f, md, cur->path);
	metric_key(o->gate, cur->kind, key, sizeof key);
	fprintf(f, "' (%s reports).%s", cur->command, md ? "\n" : "\n# ");
	if (o->pairs) {
		fprintf(f,
		        "Paired: %zu pairs of a baseline and a current run measured one after the "
		        "other (the first pair named above). A point regresses when %s, the median "
		        "over the pairs of current / baseline, is worse by more than %g%% and "
		        "Student's paired t of the pairs' log ratios (%zu degrees of freedom) finds a "
		        "shift that way at q < %g, %s the %zu tested points; the pairs' spread is "
		        "the noise, so no point is untestable.\n",
		        o->pairs, key, o->threshold_pct, o->pairs - 1, o->alpha,
		        correction_text[o->correction], r->tested);
		if (md)
			fputc('\n', f);
		return;
	}
	fprintf(f,
	        "A point regresses when %s is worse by more than %g%% and the two-sided "
	        "Mann-Whitney U test of the raw samples finds a shift that way at q < %g, %s "
	        "the %zu tested points (at least %d samples a side; %s).\n",
	        key, o->threshold_pct, o->alpha, correction_text[o->correction], r->tested,
	        CMP_MIN_SAMPLES,
	        o->untested_fails ? "with fewer, the threshold alone decides"
	                          : "with fewer, no verdict and no failure");
	fprintf(f,
	        "%sA point whose noise (noise_pct: the middle half of its samples, or the "
	        "yardstick around it) is wider than %g%% is untestable unless its change clears "
	        "the threshold and both noises added (bar_pct); below that the yardstick's "
	        "figure widens the threshold; untestable points %s.\n",
	        md ? "\n" : "# ", o->threshold_pct,
	        o->untestable_fails ? "fail (--untestable fail)" : "are counted and do not fail");
	if (md)
		fputc('\n', f);
}

/* "; the yardstick of the baseline: spread 4.1% over 17 bursts" (or that it has none). */
static void print_yardstick(FILE *f, const char *side, const struct cmp_run *run)
{
	if (run->kind != CMP_KIND_POINTS)
		return;
	if (!run->nyardstick)
		fprintf(f, "; the %s has no yardstick", side);
	else if (isnan(run->yardstick_spread_pct))
		fprintf(f, "; the %s's yardstick: %zu burst%s", side, run->nyardstick,
		        run->nyardstick == 1 ? "" : "s");
	else
		fprintf(f, "; the %s's yardstick spread %.1f%% over %zu bursts", side,
		        run->yardstick_spread_pct, run->nyardstick);
}

/* --paired: the run as a whole (struct cmp_whole), each pair's figure, t and p. */
static void print_whole(FILE *f, bool md, const struct cmp_whole *w, const struct cmp_options *o)
{
	if (!w->judged)
		return;
	fprintf(f, "%sthe run as a whole, each pair's median over its %zu points: %+.1f%% (worse "
	        "positive; pairs",
	        md ? "\n" : "# ", w->points, w->change_pct);
	for (size_t i = 0; i < o->pairs; i++)
		fprintf(f, "%s%+.0f%%", i ? ", " : " ", w->pair_change_pct[i]);
	fprintf(f, "), t %.2f, p %.2g: %s\n", w->t, w->p_value, cmp_verdict_name(w->verdict));
}

static void print_summary(FILE *f, enum cmp_format fmt, const struct cmp_run *base,
                          const struct cmp_run *cur, const struct cmp_result *r,
                          const struct cmp_options *o)
{
	bool md = fmt == CMP_FORMAT_MARKDOWN;

	fputs(md ? "\n**" : "# ", f);
	fputs(cmp_status(r), f);
	fputs(md ? "**: " : ": ", f);
	for (int v = 0; v < CMP_VERDICTS; v++)
		fprintf(f, "%s%zu %s", v ? ", " : "", r->count[v],
		        cmp_verdict_name((enum cmp_verdict)v));
	fputc('\n', f);
	if (o->pairs) {
		fprintf(f, "%s%zu tested point%s over %zu pairs, correction %s\n", md ? "\n" : "# ",
		        r->tested, r->tested == 1 ? "" : "s", o->pairs,
		        cmp_correction_name(o->correction));
		print_whole(f, md, &r->whole, o);
		return;
	}
	fprintf(f,
	        "%s%zu tested point%s, correction %s; detectable effects (mde_pct) at alpha %.2g "
	        "and %.0f%% power; %zu point%s too noisy to judge %g%%\n",
	        md ? "\n" : "# ", r->tested, r->tested == 1 ? "" : "s",
	        cmp_correction_name(o->correction), r->mde_alpha, CMP_MDE_POWER * 100, r->too_noisy,
	        r->too_noisy == 1 ? "" : "s", o->threshold_pct);
	fprintf(f, "%s%zu point%s untestable (%zu by the spread of the samples, %zu by the yardstick)",
	        md ? "\n" : "# ", r->count[CMP_UNTESTABLE], r->count[CMP_UNTESTABLE] == 1 ? "" : "s",
	        r->untestable_own, r->untestable_yardstick);
	print_yardstick(f, "baseline", base);
	print_yardstick(f, "current", cur);
	fputc('\n', f);
}

/* What differs between the runs' contexts, after the verdicts: the likely causes. */
static void print_diffs(FILE *f, enum cmp_format fmt, const struct cmp_result *r)
{
	char text[CMP_DIFF_NAME_BYTES + 2 * CMP_DIFF_VALUE_BYTES + 16];
	bool md = fmt == CMP_FORMAT_MARKDOWN;

	if (r->ndiffs == 0) {
		fputs(md ? "\nThe recorded context is the same in both runs (MPI library, its "
		           "settings, hosts, binding, options).\n"
		         : "# the recorded context is the same in both runs (MPI library, its "
		           "settings, hosts, binding, options)\n",
		      f);
		return;
	}
	fprintf(f,
	        md ? "\n**What differs between the runs** (baseline -> current), %zu:\n\n"
	           : "# what differs between the runs (baseline -> current), %zu:\n",
	        r->ndiffs);
	for (size_t i = 0; i < r->ndiffs; i++) {
		cmp_diff_text(&r->diffs[i], text, sizeof text);
		fputs(md ? "- " : "#   ", f);
		put(f, md, text);
		fputc('\n', f);
	}
}

int cmp_print(FILE *f, enum cmp_format fmt, const struct cmp_run *base, const struct cmp_run *cur,
              const struct cmp_result *r, const struct cmp_options *o)
{
	if (fmt == CMP_FORMAT_MARKDOWN)
		fprintf(f, "### collscope compare: %s\n\n", cmp_status(r));
	print_rule(f, fmt, base, cur, r, o);
	print_header(f, fmt, cur);
	for (size_t i = 0; i < r->nrows; i++)
		print_row(f, fmt, cur->kind, &r->rows[i]);
	print_summary(f, fmt, base, cur, r, o);
	print_diffs(f, fmt, r);
	fflush(f);
	return ferror(f) ? -1 : 0;
}

/* The key fields of the point, from whichever side has it. */
static bool add_keys(cJSON *o, const struct cmp_run *cur, const struct cmp_point *p)
{
	if (cur->kind == CMP_KIND_LINKS)
		return cJSON_AddNumberToObject(o, "a", (double)p->a) &&
		       cJSON_AddNumberToObject(o, "b", (double)p->b) &&
		       (!p->host_a || cJSON_AddStringToObject(o, "host_a", p->host_a)) &&
		       (!p->host_b || cJSON_AddStringToObject(o, "host_b", p->host_b));
	return cJSON_AddStringToObject(o, "algorithm", p->algorithm) &&
	       cJSON_AddNumberToObject(o, "bytes", (double)p->bytes) &&
	       cJSON_AddStringToObject(o, "dtype", p->dtype) &&
	       cJSON_AddStringToObject(o, "op", p->op) &&
	       cJSON_AddNumberToObject(o, "ranks", (double)p->ranks) &&
	       cJSON_AddBoolToObject(o, "in_place", p->in_place);
}

static bool add_row(cJSON *results, const struct cmp_run *cur, const struct cmp_row *r)
{
	char name[FIELD_NAME_BYTES], text[CMP_LABEL_BYTES + 200];
	cJSON *o = cJSON_CreateObject();

	if (!o || !cJSON_AddItemToArray(results, o)) {
		cJSON_Delete(o);
		return false;
	}
	for (size_t i = 0; i < NFIELDS; i++) {
		const struct cmp_field *f = &fields[i];
		if (!(f->where & IN_JSON))
			continue;
		field_name(f, cur->kind, name, sizeof name);
		cell(f, r, text, sizeof text);
		if (f->kind == F_NOTE && !r->note && !r->too_noisy)
			continue;
		if (f->kind == F_VERDICT || f->kind == F_POINT || f->kind == F_NOTE) {
			if (!cJSON_AddStringToObject(o, name, text))
				return false;
		} else if (!report_add_number(o, name, field_number(f, r))) {
			return false;
		}
	}
	return report_add_number(o, "worse_pct", r->worse_pct) &&
	       cJSON_AddBoolToObject(o, "too_noisy", r->too_noisy) &&
	       report_add_number(o, "baseline_spread_pct", r->base ? r->base->spread_pct : NAN) &&
	       report_add_number(o, "current_spread_pct", r->cur ? r->cur->spread_pct : NAN) &&
	       report_add_number(o, "baseline_yardstick_pct", r->base ? r->base->yardstick_pct : NAN) &&
	       report_add_number(o, "current_yardstick_pct", r->cur ? r->cur->yardstick_pct : NAN) &&
	       add_keys(o, cur, r->base ? r->base : r->cur);
}

static bool add_config(cJSON *root, const struct cmp_run *base, const struct cmp_run *cur,
                       const struct cmp_options *o)
{
	char key[64];
	cJSON *c = cJSON_AddObjectToObject(root, "config");

	metric_key(o->gate, cur->kind, key, sizeof key);
	return c && cJSON_AddStringToObject(c, "baseline", base->path) &&
	       cJSON_AddStringToObject(c, "current", cur->path) &&
	       cJSON_AddStringToObject(c, "compared", cur->command) &&
	       cJSON_AddNumberToObject(c, "threshold_pct", o->threshold_pct) &&
	       cJSON_AddNumberToObject(c, "alpha", o->alpha) &&
	       cJSON_AddStringToObject(c, "metric", key) &&
	       cJSON_AddBoolToObject(c, "untested_fails", o->untested_fails) &&
	       cJSON_AddBoolToObject(c, "untestable_fails", o->untestable_fails) &&
	       cJSON_AddStringToObject(c, "correction", cmp_correction_name(o->correction)) &&
	       cJSON_AddNumberToObject(c, "mde_power", CMP_MDE_POWER) &&
	       cJSON_AddNumberToObject(c, "min_samples", CMP_MIN_SAMPLES) &&
	       cJSON_AddNumberToObject(c, "pairs", (double)o->pairs);
}

/* summary.whole_run (--paired, 2 points or more): struct cmp_whole. */
static bool add_whole(cJSON *summary, const struct cmp_whole *w, const struct cmp_options *o)
{
	if (!w->judged)
		return true;
	cJSON *x = cJSON_AddObjectToObject(summary, "whole_run"), *pairs;
	if (!x || !cJSON_AddStringToObject(x, "verdict", cmp_verdict_name(w->verdict)) ||
	    !cJSON_AddNumberToObject(x, "points", (double)w->points) ||
	    !report_add_number(x, "change_pct", w->change_pct) || !report_add_number(x, "t", w->t) ||
	    !report_add_number(x, "p_value", w->p_value) ||
	    !(pairs = cJSON_AddArrayToObject(x, "pair_change_pct")))
		return false;
	for (size_t i = 0; i < o->pairs; i++) {
		cJSON *v = isfinite(w->pair_change_pct[i]) ? cJSON_CreateNumber(w->pair_change_pct[i])
		                                           : cJSON_CreateNull();
		if (!v || !cJSON_AddItemToArray(pairs, v))
			return false;
	}
	return true;
}

cJSON *cmp_to_json(cJSON *root, const struct cmp_run *base, const struct cmp_run *cur,
                   const struct cmp_result *r, const struct cmp_options *o)
{
	cJSON *results, *summary, *counts;

	if (!add_config(root, base, cur, o))
		return NULL;
	results = cJSON_AddArrayToObject(root, "results");
	for (size_t i = 0; results && i < r->nrows; i++)
		if (!add_row(results, cur, &r->rows[i]))
			return NULL;
	summary = cJSON_AddObjectToObject(root, "summary");
	counts = summary ? cJSON_AddObjectToObject(summary, "counts") : NULL;
	if (!results || !counts)
		return NULL;
	for (int v = 0; v < CMP_VERDICTS; v++)
		if (!cJSON_AddNumberToObject(counts, cmp_verdict_name((enum cmp_verdict)v),
		                             (double)r->count[v]))
			return NULL;
	if (!cJSON_AddStringToObject(summary, "verdict", cmp_status(r)) ||
	    !cJSON_AddNumberToObject(summary, "untestable_by_spread", (double)r->untestable_own) ||
	    !cJSON_AddNumberToObject(summary, "untestable_by_yardstick",
	                             (double)r->untestable_yardstick) ||
	    !report_add_number(summary, "baseline_yardstick_spread_pct", base->yardstick_spread_pct) ||
	    !report_add_number(summary, "current_yardstick_spread_pct", cur->yardstick_spread_pct) ||
	    !cJSON_AddStringToObject(summary, "correction", cmp_correction_name(o->correction)) ||
	    !cJSON_AddNumberToObject(summary, "tested_points", (double)r->tested) ||
	    !cJSON_AddNumberToObject(summary, "too_noisy_points", (double)r->too_noisy) ||
	    !report_add_number(summary, "mde_alpha", r->mde_alpha) ||
	    !cJSON_AddNumberToObject(summary, "context_differences", (double)r->ndiffs) ||
	    !add_whole(summary, &r->whole, o) || !cmp_diffs_to_json(root, r) ||
	    !cJSON_AddBoolToObject(root, "complete", true))
		return NULL;
	return root;
}
