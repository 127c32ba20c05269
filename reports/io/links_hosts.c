/*
 * The host-level figures of a links view: the host x host matrices and each
 * host's aggregates per class (see links_report.h and links_hosts.h), each in
 * one pass over the pairs and one sort, O(ranks^2 log ranks) whatever the
 * hosts: passes over every pair per host or per host cell cost hosts x
 * ranks^2 and hosts^2 x ranks^2 (10^12 steps at 1,024 hosts).
 */
#include "reports/io/links_hosts.h"

#include <math.h>
#include <stdlib.h>

static const struct link_record *record(const struct links_view *v, int a, int b)
{
	return links_view_record(v, a, b);
}

/* A value of the host cell it falls in, for sorting the cells' values together. */
struct cell_value {
	size_t cell;
	double value;
};

static int cell_value_order(const void *pa, const void *pb)
{
	const struct cell_value *x = pa, *y = pb;
	if (x->cell != y->cell)
		return x->cell < y->cell ? -1 : 1;
	return (x->value > y->value) - (x->value < y->value);
}

/*
 * out[i * nhosts + j]: the median of the typical bandwidths of the pairs from
 * host i to host j, in one pass over the pairs and one sort: a pass over every
 * pair for every host cell cost hosts^2 x ranks^2 (10^12 steps at 1,024
 * hosts). judged: NAN on the diagonal and for hosts not judged; shift: the
 * shift pattern's receives; room: each pair's bandwidth plus what its NICs
 * carried besides it that way when it was measured alone; other: that
 * traffic alone (the pairs measured again alone, NAN where none was).
 */
enum cell_kind {
	CELLS_ALL,
	CELLS_JUDGED,
	CELLS_SHIFT,
	CELLS_ROOM,
	CELLS_SHIFT_ROOM,
	CELLS_OTHER,
	CELLS_BIDIR
};

/* The median of each run of equal cells of cv[0..k) (sorted) into out[cell]. */
static void cell_medians(const struct cell_value *cv, size_t k, double *out)
{
	for (size_t x = 0, y; x < k; x = y) {
		for (y = x; y < k && cv[y].cell == cv[x].cell; y++)
			;
		size_t n = y - x, mid = x + n / 2;
		/* type 7 at 0.5, as stats_median: the middle value, or the two middle ones' lerp */
		double lo = cv[mid - (n % 2 ? 0 : 1)].value, hi = cv[mid].value;
		out[cv[x].cell] = n % 2 ? hi : hi - (hi - lo) * 0.5;
	}
}

/*
 * Each host's other traffic out (ways[2h]) and in (ways[2h + 1]) while its
 * pairs across hosts were measured again alone: the medians over them, NAN
 * where none was. The shift's pairs run at once, so its room is the hosts'.
 */
static int host_other_ways(const struct links_view *v, double *ways)
{
	size_t cap = 2 * links_count_measured(v), k = 0, at = 0;
	struct cell_value *cv = malloc((cap ? cap : 1) * sizeof *cv);
	int a, b;
	if (!cv)
		return -1;
	for (int h = 0; h < 2 * v->nhosts; h++)
		ways[h] = NAN;
	for (const struct link_record *r; (r = links_next_measured(v, &at, &a, &b));) {
		size_t h = (size_t)v->host_of_rank[a];
		if (!r->remeasured || h == (size_t)v->host_of_rank[b])
			continue;
		double out = r->nic_other_sent_gbps, in = r->nic_other_received_gbps;
		if (isfinite(out))
			cv[k++] = (struct cell_value){2 * h, out};
		if (isfinite(in))
			cv[k++] = (struct cell_value){2 * h + 1, in};
	}
	qsort(cv, k, sizeof *cv, cell_value_order);
	cell_medians(cv, k, ways);
	free(cv);
	return 0;
}

/*
 * The next pair of host_cells' pass: every pair of the shift pattern (dense:
 * all of them ran), else the measured records alone. False at the end.
 */
static bool next_pair(const struct links_view *v, bool shift, size_t *at, int *a, int *b)
{
	size_t n = (size_t)v->nranks;
	if (!shift)
		return links_next_measured(v, at, a, b) != NULL;
	for (; *at < n * n; (*at)++)
		if (*at / n != *at % n) {
			*a = (int)(*at / n);
			*b = (int)(*at % n);
			(*at)++;
			return true;
		}
	return false;
}

/*
 * pos (NULL: every pair): a rank's position on its host; only the pairs of
 * two ranks at position rail count (a rail: links --rails).
 */
static int host_cells(const struct links_view *v, enum cell_kind kind, const int *pos, int rail,
                      double *out)
{
	bool shift = kind == CELLS_SHIFT || kind == CELLS_SHIFT_ROOM;
	size_t nh = (size_t)v->nhosts, n = (size_t)v->nranks, k = 0, at = 0;
	size_t cap = shift ? n * n : links_count_measured(v);
	struct cell_value *cv = malloc((cap ? cap : 1) * sizeof *cv);
	double *ways = kind == CELLS_SHIFT_ROOM ? malloc((2 * nh + 1) * sizeof *ways) : NULL;
	if (!cv || (kind == CELLS_SHIFT_ROOM && (!ways || host_other_ways(v, ways) != 0))) {
		free(cv);
		free(ways);
		return -1;
	}
	for (size_t c = 0; c < nh * nh; c++)
		out[c] = NAN;
	for (int a, b; next_pair(v, shift, &at, &a, &b);) {
		int i = v->host_of_rank[a], j = v->host_of_rank[b];
		if (kind != CELLS_ALL &&
		    (i == j || (v->host_judged && (!v->host_judged[i] || !v->host_judged[j]))))
			continue;
		if (pos && (pos[a] != rail || pos[b] != rail))
			continue;
		double g = kind == CELLS_OTHER   ? link_other_way(v, a, b)
		           : kind == CELLS_BIDIR ? link_bidir_gbps(record(v, a, b), v->window_bytes)
		           : shift               ? shift_bandwidth_gbps(v, a, b, false)
		                                 : link_bandwidth_gbps(record(v, a, b), v->window_bytes);
		double other = NAN;
		if (kind == CELLS_ROOM)
			other = link_other_way(v, a, b);
		else if (kind == CELLS_SHIFT_ROOM) /* i's out, j's in; fmax skips a NAN */
			other = fmax(ways[2 * (size_t)i], ways[2 * (size_t)j + 1]);
		if (other > 0)
			g += other;
		if (isfinite(g))
			cv[k++] = (struct cell_value){(size_t)i * nh + (size_t)j, g};
	}
	qsort(cv, k, sizeof *cv, cell_value_order);
	cell_medians(cv, k, out);
	free(cv);
	free(ways);
	return 0;
}

int links_host_matrix(const struct links_view *v, double *out)
{
	return host_cells(v, CELLS_ALL, NULL, -1, out);
}

int links_judged_host_matrix(const struct links_view *v, bool shift, double *out)
{
	return host_cells(v, shift ? CELLS_SHIFT : CELLS_JUDGED, NULL, -1, out);
}

int links_room_host_matrix(const struct links_view *v, bool shift, double *out)
{
	return host_cells(v, shift ? CELLS_SHIFT_ROOM : CELLS_ROOM, NULL, -1, out);
}

int links_bidir_host_matrix(const struct links_view *v, double *out)
{
	return host_cells(v, CELLS_BIDIR, NULL, -1, out);
}

int links_other_host_matrix(const struct links_view *v, double *out)
{
	return host_cells(v, CELLS_OTHER, NULL, -1, out);
}

int links_rail_host_matrix(const struct links_view *v, const int *pos, int rail, double *out)
{
	return host_cells(v, CELLS_JUDGED, pos, rail, out);
}

/*
 * Every host's aggregate of every class, agg[h * DETECT_LOCALITIES + l], in
 * one pass over the pairs (each under both its hosts) and one sort: a pass
 * over every pair for every host and class cost hosts x ranks^2.
 */
int links_host_classes(const struct links_view *v, struct host_class_agg *agg)
{
	size_t cap = 2 * DETECT_METRICS * links_count_measured(v), k = 0, at = 0;
	struct cell_value *cv = malloc((cap ? cap : 1) * sizeof *cv);
	int a, b;
	if (!cv)
		return -1;
	for (const struct link_record *r; (r = links_next_measured(v, &at, &a, &b));) {
		size_t loc = (size_t)links_locality(v, a, b);
		int ha = v->host_of_rank[a], hb = v->host_of_rank[b];
		for (int m = 0; m < DETECT_METRICS; m++) {
			double x = m == DETECT_BANDWIDTH ? link_bandwidth_gbps(r, v->window_bytes)
			                                 : link_latency_us(r);
			if (!isfinite(x))
				continue;
			/* the key: host, class, metric */
			cv[k++] = (struct cell_value){
			    ((size_t)ha * DETECT_LOCALITIES + loc) * DETECT_METRICS + (size_t)m, x};
			if (hb != ha)
				cv[k++] = (struct cell_value){
				    ((size_t)hb * DETECT_LOCALITIES + loc) * DETECT_METRICS + (size_t)m, x};
		}
	}
	qsort(cv, k, sizeof *cv, cell_value_order);
	for (size_t x = 0, y; x < k; x = y) {
		for (y = x; y < k && cv[y].cell == cv[x].cell; y++)
			;
		size_t n = y - x, mid = x + n / 2;
		double lo = cv[mid - (n % 2 ? 0 : 1)].value, hi = cv[mid].value;
		double med = n % 2 ? hi : hi - (hi - lo) * 0.5;
		struct host_class_agg *g = &agg[cv[x].cell / DETECT_METRICS];
		if (cv[x].cell % DETECT_METRICS == DETECT_BANDWIDTH) {
			g->bw_median_gbps = med;
			g->bw_min_gbps = cv[x].value;
		} else {
			g->lat_median_us = med;
			g->lat_max_us = cv[y - 1].value;
		}
		if ((int)n > g->links)
			g->links = (int)n;
	}
	free(cv);
	return 0;
}

