/*
 * The measured figures of accept (see accept_figures.h): filled from the
 * structures of the measuring commands. Loading them from reports on disk
 * is in accept_load.c.
 */
#include "reports/accept/accept_figures.h"

#include "reports/accept/accept_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void accept_figures_init(struct accept_figures *f)
{
	memset(f, 0, sizeof *f);
}

void accept_figures_release(struct accept_figures *f)
{
	free(f->hosts);
	free(f->verify);
	free(f->links);
	free(f->suspects);
	free(f->points);
	if (f->links_again) {
		accept_figures_release(f->links_again);
		free(f->links_again);
	}
	accept_figures_init(f);
}

bool accept_figures_segment(const struct accept_figures *f)
{
	for (size_t i = 0; i < f->nsuspects; i++)
		if (f->suspects[i].host < 0 && f->suspects[i].host_a < 0 && f->suspects[i].host_b < 0)
			return true;
	return false;
}

int accept_figures_set_hosts(struct accept_figures *f, const struct report_context *c)
{
	if (f->hosts || c->nhosts < 1)
		return -1;
	f->hosts = calloc((size_t)c->nhosts, sizeof *f->hosts);
	if (!f->hosts)
		return -1;
	for (int h = 0; h < c->nhosts; h++) {
		const struct ctx_host *in = &c->hosts[h];
		struct accept_host_figures *out = &f->hosts[h];
		accept_copy_name(out->name, sizeof out->name, in->name);
		out->ranks = in->nranks;
		out->cores = in->cores;
		out->numa_nodes = in->numa_nodes;
		out->oversubscribed = in->oversubscribed;
	}
	f->nhosts = c->nhosts;
	f->has[ACCEPT_TOPOLOGY] = true;
	return 0;
}

int accept_figures_host(const struct accept_figures *f, const char *name)
{
	char clean[CTX_NAME_BYTES];

	accept_copy_name(clean, sizeof clean, name);
	for (int h = 0; h < f->nhosts; h++)
		if (strcmp(f->hosts[h].name, clean) == 0)
			return h;
	return -1;
}

void accept_figures_mark(struct accept_figures *f, enum accept_kind k)
{
	if (k >= 0 && k < ACCEPT_KINDS)
		f->has[k] = true;
}

int accept_figures_add_verify(struct accept_figures *f, const struct accept_verify_figures *v)
{
	if (accept_grow((void **)&f->verify, &f->cap_verify, f->nverify, sizeof *f->verify) != 0)
		return -1;
	f->verify[f->nverify++] = *v;
	f->has[ACCEPT_VERIFY] = true;
	return 0;
}

int accept_figures_add_link(struct accept_figures *f, const struct accept_link_figures *l)
{
	if (l->host_a < 0 || l->host_a >= f->nhosts || l->host_b < 0 || l->host_b >= f->nhosts)
		return -1;
	if (accept_grow((void **)&f->links, &f->cap_links, f->nlinks, sizeof *f->links) != 0)
		return -1;
	f->links[f->nlinks++] = *l;
	f->has[ACCEPT_LINKS] = true;
	return 0;
}

int accept_figures_add_suspect(struct accept_figures *f, const struct accept_suspect_figures *s)
{
	bool host_ok = s->host >= 0 && s->host < f->nhosts;
	bool link_ok = s->host < 0 && s->host_a >= 0 && s->host_a < f->nhosts && s->host_b >= 0 &&
	               s->host_b < f->nhosts;
	bool segment = s->host < 0 && s->host_a < 0 && s->host_b < 0;

	if (!host_ok && !link_ok && !segment)
		return -1;
	if (accept_grow((void **)&f->suspects, &f->cap_suspects, f->nsuspects,
	                sizeof *f->suspects) != 0)
		return -1;
	f->suspects[f->nsuspects++] = *s;
	f->has[ACCEPT_LINKS] = true;
	return 0;
}

int accept_figures_add_point(struct accept_figures *f, const struct accept_point_figures *p)
{
	if (accept_grow((void **)&f->points, &f->cap_points, f->npoints, sizeof *f->points) != 0)
		return -1;
	f->points[f->npoints++] = *p;
	f->has[ACCEPT_ALLREDUCE] = true;
	return 0;
}

/* The figures' host of v's host h, or -1. */
static int view_host(const struct accept_figures *f, const struct links_view *v, int h)
{
	return h >= 0 && h < v->nhosts ? accept_figures_host(f, v->host_names[h]) : -1;
}

static int add_view_suspect(struct accept_figures *f, const struct links_view *v,
                            const struct detect_suspect *s)
{
	struct accept_suspect_figures out = {
	    .host = -1, .a = -1, .b = -1, .host_a = -1, .host_b = -1};

	if (s->kind == DETECT_HOST) {
		out.host = view_host(f, v, s->host);
		if (out.host < 0)
			return -1;
	} else if (s->kind == DETECT_SEGMENT) {
		/* sets of hosts: the job's suspect, no single host's */
	} else {
		out.a = s->a;
		out.b = s->b;
		out.host_a = view_host(f, v, s->host_a);
		out.host_b = view_host(f, v, s->host_b);
	}
	detect_describe(s, v->host_names, out.reason, sizeof out.reason);
	accept_copy_name(out.reason, sizeof out.reason, out.reason);
	return accept_figures_add_suspect(f, &out);
}

/* Whether confirmed suspect s (a segment or a link, not a host) covers the ranks' link a -> b. */
static bool explains(const struct detect_result *final, const struct detect_suspect *s,
                     const struct links_view *v, int a, int b)
{
	int ha = v->host_of_rank[a], hb = v->host_of_rank[b];
	if (!s->confirmed)
		return false;
	if (s->kind == DETECT_SEGMENT)
		return detect_sides_cross(detect_sides(final, s), final->nhosts, ha, hb);
	if (s->kind != DETECT_LINK)
		return false;
	if (s->between_hosts)
		return (ha == s->host_a && hb == s->host_b) || (ha == s->host_b && hb == s->host_a);
	return (a == s->a && b == s->b) || (a == s->b && b == s->a);
}

int accept_figures_add_links_view(struct accept_figures *f, const struct links_view *v,
                                  const struct detect_result *final)
{
	size_t at = 0;
	int a, b;
	for (const struct link_record *r; (r = links_next_measured(v, &at, &a, &b));) {
		struct accept_link_figures l = {
		    .a = a,
		    .b = b,
		    .host_a = view_host(f, v, v->host_of_rank[a]),
		    .host_b = view_host(f, v, v->host_of_rank[b]),
		    .locality = links_locality(v, a, b),
		    .bandwidth_gbps = link_bandwidth_gbps(r, v->window_bytes),
		    .latency_us = link_latency_us(r),
		    .unjudged_lat = !link_latency_judged(v, a, b),
		    .other_gbps = link_other_way_any(v, a, b),
		};
		for (int i = 0; final && i < final->nsuspects; i++)
			if (explains(final, &final->suspects[i], v, a, b)) {
				l.explained_bw |= final->suspects[i].metric == DETECT_BANDWIDTH;
				l.explained_lat |= final->suspects[i].metric == DETECT_LATENCY;
			}
		if (accept_figures_add_link(f, &l) != 0)
			return -1;
	}
	for (int i = 0; final && i < final->nsuspects; i++)
		if (final->suspects[i].confirmed &&
		    add_view_suspect(f, v, &final->suspects[i]) != 0)
			return -1;
	for (int i = 0; final && i < final->nsuspects; i++) {
		const struct detect_suspect *s = &final->suspects[i];
		int ends[3] = {s->kind == DETECT_HOST ? s->host : -1,
		               s->kind == DETECT_LINK ? s->host_a : -1,
		               s->kind == DETECT_LINK ? s->host_b : -1};
		for (int k = 0; s->traffic_cleared && k < 3; k++) {
			int h = view_host(f, v, ends[k]);
			if (h >= 0)
				f->hosts[h].traffic_cleared = true;
		}
	}
	accept_figures_mark(f, ACCEPT_LINKS);
	return 0;
}

int accept_figures_add_ar_record(struct accept_figures *f, const struct ar_record *r)
{
	struct accept_point_figures p = {
	    .collective = r->collective,
	    .in_place = r->in_place,
	    .bytes = r->bytes,
	    .ranks = r->ranks,
	    .busbw_gbps = r->skipped ? NAN : r->busbw_gbps,
	    .p99_us = r->skipped ? NAN : r->time.p99_us,
	    .wrong = r->skipped ? -1 : r->wrong,
	};

	accept_copy_name(p.variant, sizeof p.variant, r->algorithm);
	accept_copy_name(p.dtype, sizeof p.dtype, r->dtype);
	accept_copy_name(p.op, sizeof p.op, r->op);
	if (r->skipped)
		accept_copy_name(p.skipped, sizeof p.skipped,
		                 r->skipped[0] ? r->skipped : "skipped");
	return accept_figures_add_point(f, &p);
}

int accept_link_index_build(struct accept_link_index *x, const struct accept_figures *f)
{
	size_t nh = f->nhosts > 0 ? (size_t)f->nhosts : 0, *cursor = NULL;
	x->first = calloc(nh + 1, sizeof *x->first);
	x->by_host = malloc((2 * f->nlinks + 1) * sizeof *x->by_host);
	cursor = malloc((nh + 1) * sizeof *cursor);
	if (!x->first || !x->by_host || !cursor) {
		free(cursor);
		accept_link_index_release(x);
		return -1;
	}
	for (size_t i = 0; i < f->nlinks; i++) {
		const struct accept_link_figures *k = &f->links[i];
		if (k->host_a >= 0 && (size_t)k->host_a < nh)
			x->first[k->host_a + 1]++;
		if (k->host_b >= 0 && (size_t)k->host_b < nh && k->host_b != k->host_a)
			x->first[k->host_b + 1]++;
	}
	for (size_t h = 0; h < nh; h++) {
		x->first[h + 1] += x->first[h];
		cursor[h] = x->first[h];
	}
	for (size_t i = 0; i < f->nlinks; i++) {
		const struct accept_link_figures *k = &f->links[i];
		if (k->host_a >= 0 && (size_t)k->host_a < nh)
			x->by_host[cursor[k->host_a]++] = i;
		if (k->host_b >= 0 && (size_t)k->host_b < nh && k->host_b != k->host_a)
			x->by_host[cursor[k->host_b]++] = i;
	}
	free(cursor);
	return 0;
}

void accept_link_index_release(struct accept_link_index *x)
{
	free(x->first);
	free(x->by_host);
	x->first = x->by_host = NULL;
}
