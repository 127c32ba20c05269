/*
 * Tables of the HTML report: any JSON value as a cell, objects and arrays
 * of objects as tables, and the context block of a report.
 */
#include "reports/render/html_sections.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CELL_ITEMS_MAX  24 /* array items shown in one cell */
#define CELL_TEXT_BYTES 400
#define COLUMNS_MAX     32

static void number(struct html_buf *b, double v)
{
	if (floor(v) == v && fabs(v) < 1e15)
		html_rawf(b, "%.0f", v);
	else
		html_rawf(b, "%.4g", v);
}

void html_value(struct html_buf *b, const cJSON *v, int depth)
{
	int i = 0;

	if (cJSON_IsString(v)) {
		html_text(b, v->valuestring, CELL_TEXT_BYTES);
	} else if (cJSON_IsNumber(v)) {
		number(b, v->valuedouble);
	} else if (cJSON_IsBool(v)) {
		html_raw(b, cJSON_IsTrue(v) ? "yes" : "no");
	} else if (cJSON_IsNull(v) || !v) {
		html_raw(b, "&#8212;");
	} else if (depth > 1) {
		html_rawf(b, "%s%d item%s%s", cJSON_IsArray(v) ? "[" : "{", cJSON_GetArraySize(v),
		          cJSON_GetArraySize(v) == 1 ? "" : "s", cJSON_IsArray(v) ? "]" : "}");
	} else if (cJSON_IsArray(v)) {
		for (const cJSON *c = v->child; c && i < CELL_ITEMS_MAX; c = c->next, i++) {
			html_raw(b, i ? ", " : "");
			html_value(b, c, depth + 1);
		}
		if (cJSON_GetArraySize(v) > CELL_ITEMS_MAX)
			html_rawf(b, ", &#8230; (%d in all)", cJSON_GetArraySize(v));
	} else {
		for (const cJSON *c = v->child; c && i < CELL_ITEMS_MAX; c = c->next, i++) {
			html_raw(b, i ? "; " : "");
			html_text(b, c->string, 64);
			html_raw(b, ": ");
			html_value(b, c, depth + 1);
		}
	}
}

static void cell_open(struct html_buf *b, const cJSON *v)
{
	html_raw(b, cJSON_IsNumber(v) ? "<td class=\"num\">" : "<td>");
}

void html_object_table(struct html_buf *b, const cJSON *obj)
{
	if (!cJSON_IsObject(obj) || !obj->child)
		return;
	html_raw(b, "<table class=\"kv\">\n");
	for (const cJSON *c = obj->child; c; c = c->next) {
		html_raw(b, "<tr><th>");
		html_text(b, c->string, 80);
		html_raw(b, "</th>");
		cell_open(b, c);
		html_value(b, c, 0);
		html_raw(b, "</td></tr>\n");
	}
	html_raw(b, "</table>\n");
}

/* The columns: those given that some row has, or every key in order of first appearance. */
static size_t columns_of(const cJSON *array, const char *const *given, const char **cols)
{
	size_t n = 0;

	for (size_t g = 0; given && given[g] && n < COLUMNS_MAX; g++)
		for (const cJSON *row = array->child; row; row = row->next)
			if (cJSON_GetObjectItemCaseSensitive(row, given[g])) {
				cols[n++] = given[g];
				break;
			}
	if (given)
		return n;
	for (const cJSON *row = array->child; row; row = row->next)
		for (const cJSON *c = cJSON_IsObject(row) ? row->child : NULL; c; c = c->next) {
			size_t k = 0;
			while (k < n && strcmp(cols[k], c->string) != 0)
				k++;
			if (k == n && n < COLUMNS_MAX)
				cols[n++] = c->string;
		}
	return n;
}

static void table_row(struct html_buf *b, const cJSON *row, const char **cols, size_t ncols,
                      const char *flag_key, const char *flag_value)
{
	const cJSON *flag = flag_key ? cJSON_GetObjectItemCaseSensitive(row, flag_key) : NULL;
	bool flagged = cJSON_IsString(flag) && strcmp(flag->valuestring, flag_value) == 0;

	html_raw(b, flagged ? "<tr class=\"flag\">" : "<tr>");
	for (size_t k = 0; k < ncols; k++) {
		const cJSON *v =
		    cJSON_IsObject(row) ? cJSON_GetObjectItemCaseSensitive(row, cols[k]) : NULL;
		cell_open(b, v);
		if (!cJSON_IsObject(row) && k == 0)
			html_value(b, row, 0);
		else if (v)
			html_value(b, v, 0);
		html_raw(b, "</td>");
	}
	html_raw(b, "</tr>\n");
}

void html_array_table(struct html_buf *b, const cJSON *array, const char *const *columns,
                      const char *flag_key, const char *flag_value)
{
	const char *cols[COLUMNS_MAX];
	size_t ncols, rows = 0;

	if (!cJSON_IsArray(array) || !array->child)
		return;
	ncols = columns_of(array, columns, cols);
	if (ncols == 0)
		cols[ncols++] = "value";
	html_raw(b, "<table>\n<tr>");
	for (size_t k = 0; k < ncols; k++) {
		html_raw(b, "<th>");
		html_text(b, cols[k], 80);
		html_raw(b, "</th>");
	}
	html_raw(b, "</tr>\n");
	for (const cJSON *row = array->child; row && rows < HTML_TABLE_MAX_ROWS;
	     row = row->next, rows++)
		table_row(b, row, cols, ncols, flag_key, flag_value);
	html_raw(b, "</table>\n");
	if (cJSON_GetArraySize(array) > HTML_TABLE_MAX_ROWS)
		html_rawf(b, "<p class=\"note\">The first %d rows of %d.</p>\n",
		          HTML_TABLE_MAX_ROWS, cJSON_GetArraySize(array));
}

static bool is_table(const cJSON *v)
{
	return cJSON_IsArray(v) && cJSON_IsObject(v->child);
}

void html_summary(struct html_buf *b, const cJSON *obj)
{
	bool scalars = false;

	if (!cJSON_IsObject(obj))
		return;
	for (const cJSON *c = obj->child; c; c = c->next)
		scalars |= !is_table(c);
	if (scalars) {
		html_raw(b, "<table class=\"kv\">\n");
		for (const cJSON *c = obj->child; c; c = c->next) {
			if (is_table(c))
				continue;
			html_raw(b, "<tr><th>");
			html_text(b, c->string, 80);
			html_raw(b, "</th>");
			cell_open(b, c);
			html_value(b, c, 0);
			html_raw(b, "</td></tr>\n");
		}
		html_raw(b, "</table>\n");
	}
	for (const cJSON *c = obj->child; c; c = c->next) {
		if (!is_table(c))
			continue;
		html_raw(b, "<h4>");
		html_text(b, c->string, 80);
		html_raw(b, "</h4>\n");
		html_array_table(b, c, NULL, NULL, NULL);
	}
}

void html_para(struct html_buf *b, const char *cls, const char *text)
{
	html_rawf(b, "<p class=\"%s\">", cls);
	html_text(b, text, 0);
	html_raw(b, "</p>\n");
}

/* context.argv as one line; every element must be a string. */
static int argv_row(struct html_section *s, const cJSON *ctx)
{
	const cJSON *argv;
	size_t i = 0;

	if (report_get_array(&s->at, ctx, "argv", false, &argv) != 0)
		return -1;
	if (!argv)
		return 0;
	html_raw(s->b, "<tr><th>command line</th><td><code>");
	for (const cJSON *a = argv->child; a; a = a->next, i++) {
		if (!cJSON_IsString(a)) {
			snprintf(s->at.err, s->at.errlen,
			         "report '%s': context.argv[%zu] is not a string", s->path, i);
			return -1;
		}
		html_raw(s->b, i ? " " : "");
		html_text(s->b, a->valuestring, 0);
	}
	html_raw(s->b, "</code></td></tr>\n");
	return 0;
}

static void text_row(struct html_buf *b, const char *name, const char *a, const char *sep,
                     const char *c)
{
	if (!a && !c)
		return;
	html_rawf(b, "<tr><th>%s</th><td>", name);
	html_text(b, a ? a : "?", 0);
	if (c) {
		html_raw(b, sep);
		html_text(b, c, 0);
	}
	html_raw(b, "</td></tr>\n");
}

/* Tool, times and MPI: typed, so a wrong type is named. */
static int summary_rows(struct html_section *s, const cJSON *ctx)
{
	struct report_at tool_at = s->at, mpi_at = s->at;
	const cJSON *tool, *mpi;
	const char *name = NULL, *version = NULL, *git = NULL, *start = NULL, *end = NULL,
	           *lib = NULL;
	int64_t ranks = -1;
	bool over = false;

	tool_at.where = "context.tool";
	mpi_at.where = "context.mpi";
	if (report_get_object(&s->at, ctx, "tool", false, &tool) ||
	    report_get_object(&s->at, ctx, "mpi", false, &mpi) ||
	    report_get_string(&tool_at, tool, "name", false, &name) ||
	    report_get_string(&tool_at, tool, "version", false, &version) ||
	    report_get_string(&tool_at, tool, "git", false, &git) ||
	    report_get_string(&s->at, ctx, "started_utc", false, &start) ||
	    report_get_string(&s->at, ctx, "finished_utc", false, &end) ||
	    report_get_string(&mpi_at, mpi, "library", false, &lib) ||
	    report_get_integer(&mpi_at, mpi, "ranks", false, 0, 2147483647.0, &ranks) ||
	    report_get_bool(&s->at, ctx, "oversubscribed", false, &over))
		return -1;
	text_row(s->b, "tool", name, " ", version);
	text_row(s->b, "git", git, "", NULL);
	text_row(s->b, "run (UTC)", start, " to ", end);
	text_row(s->b, "MPI library", lib, "", NULL);
	if (ranks >= 0)
		html_rawf(s->b, "<tr><th>ranks</th><td class=\"num\">%lld</td></tr>\n",
		          (long long)ranks);
	if (over)
		html_raw(s->b, "<tr class=\"flag\"><th>oversubscribed</th><td>yes: more ranks than "
		               "cores on a host</td></tr>\n");
	return 0;
}

static const char *const host_columns[] = {
    "name",     "ranks",          "cores",     "pus",    "numa_nodes",
    "packages", "oversubscribed", "cpu_model", "kernel", NULL,
};

int html_context(struct html_section *s)
{
	const cJSON *ctx, *hosts, *env, *mpi, *cvars = NULL;

	s->at.where = "";
	if (report_get_object(&s->at, s->root, "context", false, &ctx) != 0)
		return -1;
	if (!ctx) {
		html_para(s->b, "note", "This report records no context.");
		return 0;
	}
	s->at.where = "context";
	html_raw(s->b, "<h3>Context</h3>\n<table class=\"kv\">\n");
	if (summary_rows(s, ctx) != 0 || argv_row(s, ctx) != 0 ||
	    report_get_array(&s->at, ctx, "hosts", false, &hosts) != 0 ||
	    report_get_object(&s->at, ctx, "environment", false, &env) != 0 ||
	    report_get_object(&s->at, ctx, "mpi", false, &mpi) != 0)
		return -1;
	s->at.where = "context.mpi";
	if (report_get_object(&s->at, mpi, "cvars", false, &cvars) != 0)
		return -1;
	html_raw(s->b, "</table>\n");
	if (cvars && cvars->child) {
		html_raw(s->b, "<details><summary>MPI library settings in force (MPI_T control "
		               "variables)</summary>\n");
		html_object_table(s->b, cvars);
		html_raw(s->b, "</details>\n");
	}
	if (hosts && hosts->child) {
		html_raw(s->b, "<h3>Hosts</h3>\n");
		html_array_table(s->b, hosts, host_columns, NULL, NULL);
	}
	if (env && env->child) {
		html_raw(s->b, "<details><summary>Environment (allow-listed)</summary>\n");
		html_object_table(s->b, env);
		html_raw(s->b, "</details>\n");
	}
	s->at.where = "";
	return 0;
}

double html_number(const cJSON *o, const char *key, size_t *bad)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (cJSON_IsNumber(v))
		return v->valuedouble;
	*bad += v && !cJSON_IsNull(v);
	return NAN;
}

const char *html_string(const cJSON *o, const char *key, const char *fallback)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : fallback;
}
