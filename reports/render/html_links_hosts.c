/*
 * The host level of the links section (issue 28): past the ranks a rank x
 * rank heatmap can show, a host x host heatmap of p50 bandwidth, each cell
 * the median of the pairs between two hosts, and past HOST_BLOCKS_MAX hosts
 * blocks of consecutive hosts, each block cell the worst host pair in it
 * (a slow host stays dark in its block; a median would hide it among the
 * block's healthy hosts). Suspect hosts' blocks and suspect links' cells are
 * marked. Then every suspect can be opened (<details>) to its own pairs,
 * worst first: the page stays a few MB at 1,024 hosts and the evidence of a
 * verdict is one click away. Costs O(pairs log pairs + hosts), never hosts^2.
 */
#include "reports/render/html_sections.h"

#include "reports/compare/compare_points.h"
#include "reports/diagnose/detect.h"
#include "reports/render/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOST_BLOCKS_MAX     128 /* cells a side of the host heatmap */
#define SUSPECTS_DRILL_MAX  50  /* suspects that open to their pairs */
#define SUSPECT_PAIRS_SHOWN 40  /* pairs listed under one suspect */

struct host_key {
	const char *name;
	size_t index;
};

/* The hosts of the report, in the context's order, and each point's two hosts' indices. */
struct host_view {
	size_t nh, block, nb;
	const char **names;   /* nh, borrowed */
	struct host_key *keys; /* nh, sorted by name */
	size_t *ha, *hb;       /* per point; SIZE_MAX when unknown */
	double *cell;          /* nb x nb: the worst host pair's median in the block */
	size_t *worst_a, *worst_b; /* nb x nb: that host pair */
	bool *marked, *marked_blocks;
	const char **tips;     /* nb x nb: the reason of a suspect link, borrowed */
};

static int key_order(const void *pa, const void *pb)
{
	return strcmp(((const struct host_key *)pa)->name, ((const struct host_key *)pb)->name);
}

static size_t host_index(const struct host_view *v, const char *name)
{
	size_t lo = 0, hi = v->nh;
	if (!name)
		return SIZE_MAX;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(v->keys[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < v->nh && strcmp(v->keys[lo].name, name) == 0 ? v->keys[lo].index : SIZE_MAX;
}

static void view_release(struct host_view *v)
{
	free(v->names);
	free(v->keys);
	free(v->ha);
	free(v->hb);
	free(v->cell);
	free(v->worst_a);
	free(v->worst_b);
	free(v->marked);
	free(v->marked_blocks);
	free(v->tips);
}

/* context.hosts[].name, in order (hosts named twice count once). */
static int view_hosts(struct host_view *v, const cJSON *root)
{
	const cJSON *ctx = cJSON_GetObjectItemCaseSensitive(root, "context");
	const cJSON *hosts = cJSON_GetObjectItemCaseSensitive(ctx, "hosts");
	size_t n = cJSON_IsArray(hosts) ? (size_t)cJSON_GetArraySize(hosts) : 0;
	v->names = calloc(n + 1, sizeof *v->names);
	v->keys = calloc(n + 1, sizeof *v->keys);
	if (!v->names || !v->keys)
		return -1;
	for (const cJSON *h = n ? hosts->child : NULL; h; h = h->next) {
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(h, "name");
		if (cJSON_IsString(name) && name->valuestring) {
			v->names[v->nh] = name->valuestring;
			v->keys[v->nh] = (struct host_key){name->valuestring, v->nh};
			v->nh++;
		}
	}
	qsort(v->keys, v->nh, sizeof *v->keys, key_order);
	return 0;
}

/* A point's host pair and bandwidth, for sorting into host cells. */
struct cell_value {
	size_t ha, hb;
	double bw;
};

static int cell_order(const void *pa, const void *pb)
{
	const struct cell_value *x = pa, *y = pb;
	if (x->ha != y->ha)
		return x->ha < y->ha ? -1 : 1;
	if (x->hb != y->hb)
		return x->hb < y->hb ? -1 : 1;
	return (x->bw > y->bw) - (x->bw < y->bw);
}

/* Each host pair's median, folded into its block's worst. */
static int view_cells(struct host_view *v, const struct cmp_run *run)
{
	struct cell_value *cv = malloc((run->npoints + 1) * sizeof *cv);
	size_t n = 0, cells;
	v->block = (v->nh + HOST_BLOCKS_MAX - 1) / HOST_BLOCKS_MAX;
	v->block = v->block ? v->block : 1;
	v->nb = (v->nh + v->block - 1) / v->block;
	cells = v->nb * v->nb;
	v->ha = malloc((run->npoints + 1) * sizeof *v->ha);
	v->hb = malloc((run->npoints + 1) * sizeof *v->hb);
	v->cell = malloc((cells + 1) * sizeof *v->cell);
	v->worst_a = calloc(cells + 1, sizeof *v->worst_a);
	v->worst_b = calloc(cells + 1, sizeof *v->worst_b);
	v->marked = calloc(cells + 1, sizeof *v->marked);
	v->marked_blocks = calloc(v->nb + 1, sizeof *v->marked_blocks);
	v->tips = calloc(cells + 1, sizeof *v->tips);
	if (!cv || !v->ha || !v->hb || !v->cell || !v->worst_a || !v->worst_b || !v->marked ||
	    !v->marked_blocks || !v->tips) {
		free(cv);
		return -1;
	}
	for (size_t c = 0; c < cells; c++)
		v->cell[c] = NAN;
	for (size_t i = 0; i < run->npoints; i++) {
		const struct cmp_point *p = &run->points[i];
		v->ha[i] = host_index(v, p->host_a);
		v->hb[i] = host_index(v, p->host_b);
		if (v->ha[i] != SIZE_MAX && v->hb[i] != SIZE_MAX && !p->skipped &&
		    isfinite(p->value[CMP_BW]))
			cv[n++] = (struct cell_value){v->ha[i], v->hb[i], p->value[CMP_BW]};
	}
	qsort(cv, n, sizeof *cv, cell_order);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && cv[j].ha == cv[i].ha && cv[j].hb == cv[i].hb; j++)
			;
		double med = (j - i) % 2 ? cv[i + (j - i) / 2].bw
		                         : (cv[i + (j - i) / 2 - 1].bw + cv[i + (j - i) / 2].bw) / 2;
		size_t c = cv[i].ha / v->block * v->nb + cv[i].hb / v->block;
		if (isnan(v->cell[c]) || med < v->cell[c]) {
			v->cell[c] = med;
			v->worst_a[c] = cv[i].ha;
			v->worst_b[c] = cv[i].hb;
		}
	}
	free(cv);
	return 0;
}

/* Suspect hosts' blocks and suspect links' cells (links between hosts by their names). */
static void view_marks(struct host_view *v, const cJSON *suspects)
{
	for (const cJSON *x = suspects ? suspects->child : NULL; x; x = x->next) {
		const cJSON *kind = cJSON_GetObjectItemCaseSensitive(x, "kind");
		const cJSON *reason = cJSON_GetObjectItemCaseSensitive(x, "line");
		enum detect_kind k = DETECT_SEGMENT;
		if (!cJSON_IsString(kind) || detect_kind_parse(kind->valuestring, &k) != 0)
			continue;
		if (k == DETECT_HOST) {
			const cJSON *h = cJSON_GetObjectItemCaseSensitive(x, "host");
			size_t hi = host_index(v, cJSON_IsString(h) ? h->valuestring : NULL);
			if (hi != SIZE_MAX)
				v->marked_blocks[hi / v->block] = true;
		} else if (k == DETECT_LINK) {
			const cJSON *a = cJSON_GetObjectItemCaseSensitive(x, "host_a");
			const cJSON *b = cJSON_GetObjectItemCaseSensitive(x, "host_b");
			size_t ha = host_index(v, cJSON_IsString(a) ? a->valuestring : NULL);
			size_t hb = host_index(v, cJSON_IsString(b) ? b->valuestring : NULL);
			if (ha == SIZE_MAX || hb == SIZE_MAX)
				continue;
			for (int both = 0; both < 2; both++) {
				size_t c = (both ? hb : ha) / v->block * v->nb + (both ? ha : hb) / v->block;
				v->marked[c] = true;
				v->tips[c] = cJSON_IsString(reason) ? reason->valuestring : NULL;
			}
		}
	}
}

static void heatmap(struct html_buf *b, const struct host_view *v)
{
	char title[160];
	if (v->block > 1)
		snprintf(title, sizeof title, "p50 GB/s host to host, %zu hosts in blocks of %zu: the worst",
		         v->nh, v->block);
	else
		snprintf(title, sizeof title, "p50 bandwidth, host to host (GB/s): %zu hosts", v->nh);
	struct svg_heatmap h = {
	    .title = title,
	    .unit = "GB/s",
	    .row_label = v->block > 1 ? "sending block of hosts" : "sending host",
	    .col_label = v->block > 1 ? "receiving block of hosts" : "receiving host",
	    .n = v->nb,
	    .values = v->cell,
	    .marked = v->marked,
	    .marked_ranks = v->marked_blocks,
	    .tooltips = v->tips,
	    .low_is_bad = true,
	    .marked_rank_label = v->block > 1 ? "block with a suspect host" : "suspect host",
	};
	html_raw(b, "<div class=\"charts\">\n");
	svg_heatmap(b, &h);
	html_raw(b, "</div>\n");
	html_rawf(b, "<p class=\"note\">Host k is the k-th of the context's hosts (");
	html_text(b, v->nh ? v->names[0] : "", 64);
	html_rawf(b, " is 0)%s. The slowest host pairs of each block are listed under each suspect "
	             "below.</p>\n",
	          v->block > 1 ? "; block k holds hosts k x block to k x block + block - 1" : "");
}

/* Is point i one of suspect x's pairs? side: per host, a segment's side (-1 neither). */
static bool pair_of(const struct host_view *v, size_t i, enum detect_kind k, size_t h1, size_t h2,
                    const signed char *side)
{
	size_t a = v->ha[i], b = v->hb[i];
	if (a == SIZE_MAX || b == SIZE_MAX)
		return false;
	if (k == DETECT_HOST)
		return a == h1 || b == h1;
	if (k == DETECT_LINK)
		return (a == h1 && b == h2) || (a == h2 && b == h1);
	return side[a] >= 0 && side[b] >= 0 && side[a] != side[b];
}

/* A pair of a suspect: its bandwidth (the sort key) and its point. */
struct ranked {
	double bw;
	size_t i;
};

static int by_bandwidth(const void *pa, const void *pb)
{
	double x = ((const struct ranked *)pa)->bw, y = ((const struct ranked *)pb)->bw;
	if (isnan(x) || isnan(y))
		return isnan(x) - isnan(y);
	return (x > y) - (x < y);
}

/* The hosts of a segment's side into side[] (0 or 1). */
static void mark_side(const struct host_view *v, const cJSON *hosts, signed char value,
                      signed char *side)
{
	for (const cJSON *h = cJSON_IsArray(hosts) ? hosts->child : NULL; h; h = h->next) {
		size_t hi = host_index(v, cJSON_IsString(h) ? h->valuestring : NULL);
		if (hi != SIZE_MAX)
			side[hi] = value;
	}
}

static void drill_one(struct html_buf *b, const struct host_view *v, const struct cmp_run *run,
                      const cJSON *x, struct ranked *idx, signed char *side)
{
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(x, "kind");
	const cJSON *who = cJSON_GetObjectItemCaseSensitive(x, "who");
	const cJSON *line = cJSON_GetObjectItemCaseSensitive(x, "line");
	enum detect_kind k = DETECT_LINK;
	size_t h1 = SIZE_MAX, h2 = SIZE_MAX, n = 0;
	if (!cJSON_IsString(kind) || detect_kind_parse(kind->valuestring, &k) != 0)
		return;
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(x, k == DETECT_HOST ? "host" : "host_a");
	h1 = host_index(v, cJSON_IsString(h) ? h->valuestring : NULL);
	h = cJSON_GetObjectItemCaseSensitive(x, "host_b");
	h2 = host_index(v, cJSON_IsString(h) ? h->valuestring : NULL);
	memset(side, -1, v->nh + 1);
	mark_side(v, cJSON_GetObjectItemCaseSensitive(x, "hosts_a"), 0, side);
	mark_side(v, cJSON_GetObjectItemCaseSensitive(x, "hosts_b"), 1, side);
	for (size_t i = 0; i < run->npoints; i++)
		if (pair_of(v, i, k, h1, h2, side))
			idx[n++] = (struct ranked){run->points[i].value[CMP_BW], i};
	qsort(idx, n, sizeof *idx, by_bandwidth);
	html_raw(b, "<details class=\"suspect\"><summary>");
	html_text(b, kind->valuestring, 0);
	html_raw(b, " ");
	html_text(b, cJSON_IsString(who) ? who->valuestring : "", 200);
	html_raw(b, ": ");
	html_text(b, cJSON_IsString(line) ? line->valuestring : "", 400);
	html_rawf(b, " (%zu pairs)</summary>\n<table><tr><th>pair</th><th>hosts</th>"
	             "<th>bandwidth GB/s</th><th>latency us</th></tr>\n",
	          n);
	for (size_t j = 0; j < n && j < SUSPECT_PAIRS_SHOWN; j++) {
		const struct cmp_point *p = &run->points[idx[j].i];
		html_rawf(b, "<tr><td>%lld -&gt; %lld</td><td>", (long long)p->a, (long long)p->b);
		html_text(b, p->host_a ? p->host_a : "?", 64);
		html_raw(b, " -&gt; ");
		html_text(b, p->host_b ? p->host_b : "?", 64);
		html_rawf(b, "</td><td>%.4g</td><td>%.4g</td></tr>\n", p->value[CMP_BW],
		          p->value[CMP_P50]);
	}
	html_raw(b, "</table>\n");
	if (n > SUSPECT_PAIRS_SHOWN)
		html_rawf(b, "<p class=\"note\">and %zu more pairs, faster.</p>\n",
		          n - SUSPECT_PAIRS_SHOWN);
	html_raw(b, "</details>\n");
}

/* Each suspect opens to its pairs, the slowest first. */
static int drill(struct html_buf *b, const struct host_view *v, const struct cmp_run *run,
                 const cJSON *suspects)
{
	struct ranked *idx = malloc((run->npoints + 1) * sizeof *idx);
	size_t shown = 0;
	signed char *side = malloc(v->nh + 1);
	if (!idx || !side) {
		free(idx);
		free(side);
		return -1;
	}
	if (suspects && suspects->child)
		html_raw(b, "<h3>Suspects, pair by pair</h3>\n");
	for (const cJSON *x = suspects ? suspects->child : NULL; x && shown < SUSPECTS_DRILL_MAX;
	     x = x->next, shown++)
		drill_one(b, v, run, x, idx, side);
	if (shown == SUSPECTS_DRILL_MAX && cJSON_GetArraySize(suspects) > SUSPECTS_DRILL_MAX)
		html_rawf(b, "<p class=\"note\">The first %d suspects open to their pairs; the table "
		             "below lists them all.</p>\n",
		          SUSPECTS_DRILL_MAX);
	free(idx);
	free(side);
	return 0;
}

int html_links_hosts(struct html_section *s, const struct cmp_run *run, const cJSON *suspects)
{
	struct host_view v = {0};
	int rc = -1;
	if (view_hosts(&v, s->root) != 0 || (v.nh > 0 && view_cells(&v, run) != 0))
		goto out;
	if (v.nh > 1) {
		view_marks(&v, suspects);
		heatmap(s->b, &v);
		if (drill(s->b, &v, run, suspects) != 0)
			goto out;
	}
	rc = 0;
out:
	if (rc != 0)
		snprintf(s->at.err, s->at.errlen, "cannot render the page: out of memory");
	view_release(&v);
	return rc;
}
