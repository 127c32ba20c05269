/*
 * Internal to the page renderers (reports/html_*.c): the state of one
 * section and the helpers they share. Not for use outside reports/html*.c.
 */
#ifndef COLLSCOPE_HTML_SECTIONS_H
#define COLLSCOPE_HTML_SECTIONS_H

#include "reports/render/html.h"
#include "reports/io/report_read.h"

#include <cjson/cJSON.h>

/* Rows of one generic table are cut here, with a note. */
#define HTML_TABLE_MAX_ROWS 500

/* One report being rendered; at names the file for the getters' messages. */
struct html_section {
	struct html_buf *b;
	const char *path;
	const cJSON *root;
	struct report_at at; /* where = "" */
};

/*
 * Member key of o as a number; NAN when absent, null or of another type (that
 * last counted in *bad: the page says how many values it could not draw).
 */
double html_number(const cJSON *o, const char *key, size_t *bad);
/* Member key of o as a string, or fallback when it is not one. */
const char *html_string(const cJSON *o, const char *key, const char *fallback);

/* A JSON value as a table cell's content (escaped; nested values summarised). */
void html_value(struct html_buf *b, const cJSON *v, int depth);
/* The scalar members of an object as a two-column table (nested ones summarised). */
void html_object_table(struct html_buf *b, const cJSON *obj);
/*
 * An array of objects as a table: columns in the given order (NULL-terminated;
 * those no row has are dropped), or when columns is NULL every key in order of
 * first appearance. Rows whose flag_key member is the string flag_value are
 * highlighted (flag_key may be NULL).
 */
void html_array_table(struct html_buf *b, const cJSON *array, const char *const *columns,
                      const char *flag_key, const char *flag_value);
/*
 * A summary object: its other members as a two-column table, then each member
 * that is an array of objects as a table of its own under a heading.
 */
void html_summary(struct html_buf *b, const cJSON *obj);
/* A paragraph of escaped text with a class ("note", "warn"). */
void html_para(struct html_buf *b, const char *cls, const char *text);

/* The context block as tables (tool, times, MPI, argv, hosts); -1 on a wrong type. */
int html_context(struct html_section *s);

/* The sections by command; each returns 0 or -1 with s->at.err set. */
int html_allreduce(struct html_section *s);
/*
 * " (reduce-scatter)", " (all-reduce, all-gather)": the collectives an
 * allreduce report's records measured, for its headings; nothing for
 * another command or the all-reduce alone.
 */
void html_collectives(struct html_buf *b, const cJSON *root);
/* A traced all-reduce's halves (results[].trace.halves) as a table; nothing without. */
int html_halves(struct html_section *s);
/* The compressed variants' points, speed beside error (issue 40); -1 when out of memory. */
int html_compressed(struct html_buf *b, const cJSON *root);
int html_scale(struct html_section *s);
int html_congestion(struct html_section *s);
int html_overlap(struct html_section *s);
/* collscope watch: each series with its changes marked, then the changes (issue 34). */
int html_watch(struct html_section *s);
int html_links(struct html_section *s);
struct cmp_run;
/*
 * The host level of the links section: a host x host heatmap (blocks of
 * hosts past 128) and every suspect opening to its pairs. 0, or -1 (err set).
 */
int html_links_hosts(struct html_section *s, const struct cmp_run *run, const cJSON *suspects);
int html_compare(struct html_section *s);
int html_trend(struct html_section *s);
/* A fault-injection campaign's figures (tests/cluster/campaign_run.py). */
int html_campaign(struct html_section *s);
/* The trace of an allreduce or scale report (--trace): slow hops, per-hop charts; nothing without. */
int html_trace(struct html_section *s);

#endif
