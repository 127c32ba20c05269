/*
 * The measured records of a links run (links_report.h, struct link_table),
 * and reading a view's records whichever form it holds them in.
 */
#include "reports/io/links_report.h"

#include <math.h>
#include <stdlib.h>

int link_table_index(struct link_table *t, const int *counts)
{
	t->row[0] = 0;
	for (int a = 0; a < t->nranks; a++)
		t->row[a + 1] = t->row[a] + (size_t)counts[a];
	for (int a = 0; a < t->nranks; a++)
		for (size_t i = t->row[a]; i < t->row[a + 1]; i++) {
			const struct link_record *r = &t->recs[i];
			if (r->a != a || r->b < 0 || r->b >= t->nranks ||
			    (i > t->row[a] && r->b <= t->recs[i - 1].b))
				return -1;
		}
	return 0;
}

void link_table_release(struct link_table *t)
{
	free(t->row);
	free(t->recs);
	t->row = NULL;
	t->recs = NULL;
}

const struct link_record *links_view_record(const struct links_view *v, int a, int b)
{
	/* what a pair not measured reads as: nothing known (the dense form's unmeasured cells) */
	static const struct link_record none = {.a = -1,
	                                        .b = -1,
	                                        .cpu_wait_share = NAN,
	                                        .cpu_wait_share_lat = NAN,
	                                        .nic_other_gbps = NAN,
	                                        .nic_other_sent_gbps = NAN,
	                                        .nic_other_received_gbps = NAN};
	const struct link_table *t = v->table;
	if (!t)
		return &v->records[(size_t)a * (size_t)v->nranks + (size_t)b];
	size_t lo = t->row[a], hi = t->row[a + 1];
	while (lo < hi) { /* the first peer at or above b */
		size_t mid = lo + (hi - lo) / 2;
		if (t->recs[mid].b < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->row[a + 1] && t->recs[lo].b == b ? &t->recs[lo] : &none;
}

long links_view_measured(const struct links_view *v, const struct link_record ***out)
{
	size_t total = links_count_measured(v), k = 0, at = 0;
	const struct link_record **recs = malloc((total ? total : 1) * sizeof *recs);
	int a, b;
	if (!(*out = recs))
		return -1;
	for (const struct link_record *r; (r = links_next_measured(v, &at, &a, &b));)
		recs[k++] = r;
	return (long)k;
}

const struct link_record *links_next_measured(const struct links_view *v, size_t *at, int *a,
                                              int *b)
{
	size_t n = (size_t)v->nranks, total = v->table ? v->table->row[n] : n * n;
	for (; *at < total; (*at)++) {
		const struct link_record *r = v->table ? &v->table->recs[*at] : &v->records[*at];
		int x = v->table ? r->a : (int)(*at / n), y = v->table ? r->b : (int)(*at % n);
		if (r->measured && x != y) {
			(*at)++;
			*a = x;
			*b = y;
			return r;
		}
	}
	return NULL;
}

size_t links_count_measured(const struct links_view *v)
{
	size_t at = 0, k = 0;
	int a, b;
	if (v->table) /* its records are the measured ones, off the diagonal */
		return v->table->row[v->nranks];
	while (links_next_measured(v, &at, &a, &b))
		k++;
	return k;
}
