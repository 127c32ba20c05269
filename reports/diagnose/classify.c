/*
 * The fault classes of a host x host bandwidth matrix: see classify.h.
 */
#include "reports/diagnose/classify.h"
#include "reports/render/fixed.h"

#include "reports/stats/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Scratch of one classify_hosts: nhosts hosts, n x n cells. */
struct work {
	int n;
	const double *cells;
	double *vals;      /* n x n */
	bool *slow;        /* n x n */
	bool *explained;   /* n x n: slow cells a verdict covers */
	int *group;        /* n: the connected part of each host */
	int *group_size;   /* n */
	size_t *list;      /* 2n: the cells of one host or link verdict */
	double *row_z;     /* n: host h's row (what it sends) as one figure: judge_rows */
	double *col_z;     /* n: its column (what it receives) */
	bool *screened;    /* 2n: line 2h + dir judged by step 2c (screen_rows) */
	bool *screen_slow; /* n x n: the cells of the lines step 2c names, apart from slow */
	bool *screen_line; /* 2n: the lines step 2c names */
	double ref_log_median, ref_log_mad, ref_median;
	size_t top_split; /* step 1's second reading's split (two_levels); 0: it has none, or no other */
	bool gap;         /* the first reading found a gap (its levels split there) */
};

static double log_of(double v)
{
	return log(v > 1e-12 ? v : 1e-12);
}

static bool finite_cell(const struct work *w, int i, int j)
{
	return i != j && isfinite(w->cells[i * w->n + j]) && w->cells[i * w->n + j] >= 0;
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

/*
 * Two levels with no wide gap between them (step 1): the slow cells behind an
 * uplink that a round's pairs share spread over a range (a pair alone on it,
 * or two at once), and noise on a loaded cluster fills the gap. The fast
 * level is then the cells within CLASSIFY_LEVEL_GAP of the fastest quarter's
 * median, taken when at least a quarter of the cells fall below it (a
 * segment's or a host's share; a few slow cells alone are links, and the
 * gap finds them). Not under CLASSIFY_TOP_LEVEL_CELLS cells: with 3 hosts a
 * host's 4 of 6 cells below the fastest 2 is noise of +-30 %. Returns the
 * split, or 0.
 */
static size_t two_levels(const double *v, size_t k, size_t least)
{
	size_t top = (k + 3) / 4;
	if (k < CLASSIFY_TOP_LEVEL_CELLS)
		return 0;
	double fast = stats_percentile(v + (k - top), top, 0.5);
	double cut = fast + log1p(-CLASSIFY_LEVEL_GAP);
	size_t at = 0;
	while (at < k && v[at] < cut)
		at++;
	return 4 * at >= k && at + least <= k ? at : 0;
}

/*
 * Step 1: the logs of the finite cells, sorted, into w->vals; the reference
 * is vals[from .. k), of the first reading or (top_level) the second, whose
 * split goes into w->top_split (0 when it has none or it is the first's: a
 * gap below the levels, a few cells far slower than the rest, leaves the
 * second reading its own split).
 * Returns k.
 */
static size_t reference(struct work *w, size_t *from, bool top_level)
{
	size_t k = 0;
	for (int i = 0; i < w->n; i++)
		for (int j = 0; j < w->n; j++)
			if (finite_cell(w, i, j))
				w->vals[k++] = log_of(w->cells[i * w->n + j]);
	qsort(w->vals, k, sizeof *w->vals, cmp_double);
	size_t least = (k + 3) / 4 > 2 ? (k + 3) / 4 : 2;
	double best = 0;
	*from = 0;
	for (size_t i = 1; i + least <= k; i++) {
		double gap = w->vals[i] - w->vals[i - 1];
		if (gap > best) {
			best = gap;
			*from = i;
		}
	}
	bool gap = best > -log1p(-CLASSIFY_LEVEL_GAP);
	size_t top = two_levels(w->vals, k, least);
	w->top_split = gap && top == *from ? 0 : top;
	if (!top_level)
		w->gap = gap;
	if (top_level)
		*from = w->top_split;
	else if (!gap)
		*from = 0;
	return k;
}

/*
 * The MAD of sorted x[0..n) about its median m, as stats_mad computes it,
 * without sorting again: the deviations below m (walking down) and above it
 * (walking up) are each in order, so a merge finds the middle ones in O(n).
 * (stats_median and stats_mad sort copies: on the all-pairs matrix of 4,096
 * hosts, three more sorts of 16.7 million values.)
 */
static double sorted_mad(const double *x, size_t n, double m)
{
	size_t up = 0, lo = (n - 1) / 2;
	double mid[2] = {NAN, NAN};
	while (up < n && x[up] < m)
		up++;
	size_t down = up; /* x[down - 1] is the next below */
	for (size_t k = 0; k <= lo + 1 && k < n; k++) {
		double d;
		if (down > 0 && (up >= n || m - x[down - 1] <= x[up] - m))
			d = m - x[--down];
		else
			d = x[up++] - m;
		if (k >= lo)
			mid[k - lo] = d;
	}
	return n == 1 ? mid[0] : stats_percentile(mid, 2, n % 2 ? 0.0 : 0.5);
}

/*
 * The median and the MAD, floored at log(1 + mad_floor_fraction), of the
 * sorted logs x[0 .. n): the reference's, or a host's own (step 2a).
 * Returns -1 when they are not defined.
 */
static int sorted_spread(const double *x, size_t n, const struct detect_params *p,
                         double *median_log, double *mad_log)
{
	*median_log = stats_percentile(x, n, 0.5);
	double mad = sorted_mad(x, n, *median_log), floor = log1p(p->mad_floor_fraction);
	if (isnan(*median_log) || isnan(mad))
		return -1;
	*mad_log = mad > floor ? mad : floor;
	return 0;
}

/* The k-th smallest of x[0 .. n) (0-based), x reordered: Hoare's selection, O(n) on average. */
static double select_kth(double *x, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;
	while (lo < hi) {
		double pivot = x[lo + (hi - lo) / 2];
		size_t i = lo, j = hi;
		while (i <= j) {
			while (x[i] < pivot)
				i++;
			while (x[j] > pivot)
				j--;
			if (i <= j) {
				double t = x[i];
				x[i++] = x[j];
				x[j] = t;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return x[k];
	}
	return x[k];
}

/* The median of x[0 .. n), n > 0, x reordered (a sort of every row of 4,096 hosts took 3 s). */
static double median_select(double *x, size_t n)
{
	double upper = select_kth(x, n, n / 2);
	if (n % 2)
		return upper;
	double lower = x[0]; /* after the selection x[0 .. n/2) holds the smaller half */
	for (size_t i = 1; i < n / 2; i++)
		lower = x[i] > lower ? x[i] : lower;
	return 0.5 * (lower + upper);
}

/*
 * The median of host h's row (dir 0) or column (dir 1) logs at the fast level
 * (floor_log or above: a cell of a slow segment below it would drag the
 * median of the rest to their lowest); their count in *k, in vals (reordered).
 */
static double line_median(struct work *w, int dir, int h, double floor_log, size_t *k)
{
	int n = w->n;
	*k = 0;
	for (int x = 0; x < n; x++)
		if (dir == 0 ? finite_cell(w, h, x) : finite_cell(w, x, h)) {
			double v = log_of(w->cells[dir == 0 ? h * n + x : x * n + h]);
			if (v >= floor_log)
				w->vals[(*k)++] = v;
		}
	return *k ? median_select(w->vals, *k) : NAN;
}

/*
 * Step 2a: what host h is judged against. Up to CLASSIFY_OWN_REFERENCE_HOSTS
 * hosts, the cells that do not touch it (of the fast level: at or above
 * floor_log): with 5 hosts its own row and column are 8 of the 20 cells,
 * and a host slow by a little both pulls the reference's median towards
 * itself and widens the MAD it is judged by (the namespace cluster: a host
 * 17 % slow to send, its row 3.0 MADs out against all cells, 5.6 against
 * the others'). Past that, one host's cells are a small share and the
 * reference is everyone's (a pass per host would cost n^3). Returns false
 * when too few cells remain; *median_log and *mad_log are then the
 * reference's.
 */
static bool own_reference(struct work *w, const struct detect_params *p, int h, double floor_log,
                          double *median_log, double *mad_log)
{
	*median_log = w->ref_log_median;
	*mad_log = w->ref_log_mad;
	if (w->n > CLASSIFY_OWN_REFERENCE_HOSTS)
		return true;
	size_t k = 0;
	for (int i = 0; i < w->n; i++)
		for (int j = 0; j < w->n; j++) {
			double v = finite_cell(w, i, j) ? log_of(w->cells[i * w->n + j]) : NAN;
			if (i != h && j != h && v >= floor_log)
				w->vals[k++] = v;
		}
	if ((int)k < p->min_class_links)
		return false;
	qsort(w->vals, k, sizeof *w->vals, cmp_double);
	return sorted_spread(w->vals, k, p, median_log, mad_log) == 0;
}

/*
 * Step 2b: a host whose whole row (or column) is slow by a little. One cell
 * 15 % slow is within the noise of one measurement; every cell of a host's
 * row 15 % slow is not. A median of k draws varies about sqrt(pi / 2k) times
 * as much as one (normal noise, large k; for k = 3 or 4 a little less, so
 * the gain sqrt(2k / pi) is on the cautious side). When a row's median,
 * against the host's own reference (step 2a), passes the tolerance and its
 * z-score, over that reference's MAD and with that gain, passes
 * -z_threshold, the cells of the row nearer its median than the reference
 * are slow, or all of them when three quarters are and none of the rest
 * stands clear of the row's level (one level: a host's NIC, the few above
 * the cut its noise; else two levels: a rack's cells across its uplink, not
 * those within). One slow link does not move a row's median; a slow uplink
 * moves each of its rack's rows, and the groups of step 3 still tell a
 * segment from a host. Here one line of host h: dir 0 its row, 1 its column.
 */
static bool judge_line(struct work *w, const struct detect_params *p, int dir, int h,
                       double floor_log, double ref, double mad, double z_threshold, bool *slow)
{
	int n = w->n;
	size_t k;
	double *z = dir == 0 ? &w->row_z[h] : &w->col_z[h];
	double m = line_median(w, dir, h, floor_log, &k);
	*z = NAN;
	if (k < 3)
		return false;
	double gain = sqrt(2.0 * (double)k / M_PI);
	*z = STATS_MAD_TO_Z * (m - ref) / mad * gain;
	if (!(exp(m - ref) < 1 - p->tolerance && *z < -z_threshold))
		return false;
	double cut = 0.5 * (m + ref), top = -INFINITY;
	size_t below = 0;
	for (size_t i = 0; i < k; i++) {
		below += w->vals[i] < cut;
		top = w->vals[i] > top ? w->vals[i] : top;
	}
	bool one_level = 4 * below >= 3 * k && STATS_MAD_TO_Z * (top - m) / mad < p->z_threshold;
	for (int x = 0; x < n; x++) {
		int c = dir == 0 ? h * n + x : x * n + h;
		double v = x != h && finite_cell(w, dir == 0 ? h : x, dir == 0 ? x : h)
		               ? log_of(w->cells[c])
		               : NAN;
		if (v >= floor_log && (one_level || v < cut))
			slow[c] = true;
	}
	return true;
}

double classify_host_sensitivity(const struct classify_info *info, const struct detect_params *p,
                                 int cells)
{
	if (!info->judged || cells < 3 || !(info->log_mad > 0))
		return NAN;
	double gain = sqrt(2.0 * (double)cells / M_PI);
	double by_z = 1 - exp(-p->z_threshold * info->log_mad / (STATS_MAD_TO_Z * gain));
	double t = detect_tolerance(p, DETECT_BANDWIDTH, DETECT_CROSS_HOST);
	return by_z > t ? by_z : t;
}

/* Line 2h + dir of host h (dir 0 its row): its z for step 2c's search, NAN when out of it. */
static double screen_z_of(const struct work *w, const struct detect_params *p, int line)
{
	int h = line / 2;
	double z = line % 2 == 0 ? w->row_z[h] : w->col_z[h];
	return !w->screened[line] && z < -p->screen_z && z >= -p->z_threshold ? z : NAN;
}

/*
 * Step 2c, the first pass's screen (p->screen_z > 0), after the first
 * reading: of the lines that step 2b did not name, the CLASSIFY_SCREEN_LINES
 * with the lowest z below -screen_z and past the tolerance are judged with
 * screen_z instead, their cells into w->screen_slow (not w->slow: the screen
 * changes nothing the classifier reads; a host's line marked slow there broke
 * a rack's group and hid its uplink, named as hosts the re-tests cleared).
 */
static void screen_rows(struct work *w, const struct detect_params *p, double floor_log)
{
	for (int named = 0; named < CLASSIFY_SCREEN_LINES;) {
		int worst = -1;
		for (int line = 0; line < 2 * w->n; line++) {
			double z = screen_z_of(w, p, line);
			if (z == z && (worst < 0 || z < screen_z_of(w, p, worst)))
				worst = line;
		}
		if (worst < 0)
			return;
		int h = worst / 2, dir = worst % 2;
		double ref, mad;
		w->screened[worst] = true; /* judged once: out of the search */
		bool slow = own_reference(w, p, h, floor_log, &ref, &mad) &&
		            judge_line(w, p, dir, h, floor_log, ref, mad, p->screen_z, w->screen_slow);
		w->screen_line[worst] = slow;
		named += slow;
	}
}

/* Step 2b for every host: its own reference once, then its row and its column. */
static void judge_rows(struct work *w, const struct detect_params *p, double floor_log)
{
	for (int h = 0; h < w->n; h++) {
		double ref, mad;
		if (!own_reference(w, p, h, floor_log, &ref, &mad)) {
			w->row_z[h] = w->col_z[h] = NAN;
			continue;
		}
		judge_line(w, p, 0, h, floor_log, ref, mad, p->z_threshold, w->slow);
		judge_line(w, p, 1, h, floor_log, ref, mad, p->z_threshold, w->slow);
	}
}

/* An info of nothing judged yet: its figures undefined. */
static void info_init(struct classify_info *info)
{
	memset(info, 0, sizeof *info);
	info->expected = info->log_mad = NAN;
	info->as_class.median = info->as_class.mad = info->as_class.log_mad = NAN;
}

/* Steps 1 and 2: the reference's spread, then every slow cell. */
static int judge_cells(struct work *w, const struct detect_params *p, struct classify_info *info,
                       bool top_level)
{
	size_t from = 0, k = reference(w, &from, top_level);
	info_init(info);
	memset(w->slow, 0, (size_t)w->n * (size_t)w->n * sizeof *w->slow);
	memset(w->explained, 0, (size_t)w->n * (size_t)w->n * sizeof *w->explained);
	info->cells = (int)k;
	info->judged = w->n >= 3 && (int)k >= p->min_class_links;
	if (k == 0)
		return 0;
	const double *ref = w->vals + from;
	size_t nref = k - from;
	double level = w->vals[from]; /* the lowest cell of the fast level */
	if (sorted_spread(ref, nref, p, &w->ref_log_median, &w->ref_log_mad) != 0)
		return -1;
	/* the median of the values is the exponential of the logs' median */
	w->ref_median = exp(w->ref_log_median);
	info->reference_cells = (int)nref;
	info->expected = w->ref_median;
	info->log_mad = w->ref_log_mad;
	info->as_class = (struct detect_class){
	    .locality = DETECT_CROSS_HOST,
	    .links = (int)k,
	    .median = w->ref_median,
	    .mad = NAN,
	    .log_mad = w->ref_log_mad,
	    .judged = info->judged,
	};
	for (int i = 0; info->judged && i < w->n; i++)
		for (int j = 0; j < w->n; j++) {
			double v = w->cells[i * w->n + j];
			if (!finite_cell(w, i, j))
				continue;
			double z = STATS_MAD_TO_Z * (log_of(v) - w->ref_log_median) / w->ref_log_mad;
			w->slow[i * w->n + j] = v / w->ref_median < 1 - p->tolerance &&
			                        z < -p->z_threshold;
		}
	if (info->judged)
		judge_rows(w, p, level);
	if (info->judged && !top_level && p->screen_z > 0 && p->screen_z < p->z_threshold)
		screen_rows(w, p, level);
	for (size_t c = 0; info->judged && c < (size_t)w->n * (size_t)w->n; c++)
		info->slow_cells += w->slow[c];
	return 0;
}

static int root(int *parent, int x)
{
	while (parent[x] != x)
		x = parent[x] = parent[parent[x]];
	return x;
}

/* Step 3: hosts joined by fine cells both ways; w->group[h] is the lowest host of h's part. */
static void groups(struct work *w)
{
	int *parent = w->group;
	for (int h = 0; h < w->n; h++)
		parent[h] = h;
	for (int i = 0; i < w->n; i++)
		for (int j = i + 1; j < w->n; j++) {
			bool fine = finite_cell(w, i, j) && finite_cell(w, j, i) &&
			            !w->slow[i * w->n + j] && !w->slow[j * w->n + i];
			int a = root(parent, i), b = root(parent, j);
			if (fine && a != b)
				parent[a > b ? a : b] = a < b ? a : b;
		}
	for (int h = 0; h < w->n; h++)
		w->group_size[h] = 0;
	for (int h = 0; h < w->n; h++)
		w->group_size[w->group[h] = root(parent, h)]++;
}

/* The median of the given cells' values (NAN when none), their count in *count. */
static double median_of(struct work *w, const bool *pick, int *count)
{
	size_t k = 0;
	for (int c = 0; c < w->n * w->n; c++)
		if (pick[c])
			w->vals[k++] = w->cells[c];
	*count = (int)k;
	return k ? stats_median(w->vals, k) : NAN;
}

/* A verdict with its evidence: the median of the cells in pick, against the reference. */
static struct detect_suspect verdict(struct work *w, enum detect_kind kind, const bool *pick,
                                     bool loaded)
{
	int count = 0;
	double m = pick ? median_of(w, pick, &count) : NAN;
	return (struct detect_suspect){
	    .kind = kind,
	    .metric = DETECT_BANDWIDTH,
	    .locality = DETECT_CROSS_HOST,
	    .a = -1,
	    .b = -1,
	    .host_a = -1,
	    .host_b = -1,
	    .host = -1,
	    .measured = m,
	    .expected = w->ref_median,
	    .ratio = m / w->ref_median,
	    .score = STATS_MAD_TO_Z * (log_of(m) - w->ref_log_median) / w->ref_log_mad,
	    .links_suspect = count,
	    .side = -1,
	    .loaded = loaded,
	    .first_measured = NAN,
	    .cpu_wait_fraction = NAN,
	    .other_traffic_gbps = NAN,
		    .other_traffic_most_gbps = NAN,
	    .first_ratio = NAN,
	    .first_score = NAN,
	};
}

/*
 * The same from the k cells of list: a host's or a link's verdict touches its
 * own cells only, not all n x n (which made S suspects cost S n^2).
 */
static struct detect_suspect verdict_list(struct work *w, enum detect_kind kind, size_t k,
                                          bool loaded)
{
	for (size_t i = 0; i < k; i++)
		w->vals[i] = w->cells[w->list[i]];
	double m = k ? stats_median(w->vals, k) : NAN;
	struct detect_suspect s = verdict(w, kind, NULL, loaded);
	s.measured = m;
	s.ratio = m / w->ref_median;
	s.score = STATS_MAD_TO_Z * (log_of(m) - w->ref_log_median) / w->ref_log_mad;
	s.links_suspect = (int)k;
	return s;
}

static int push(struct detect_result *r, const struct detect_suspect *s)
{
	struct detect_suspect *v = realloc(r->suspects, (size_t)(r->nsuspects + 1) * sizeof *v);
	if (!v)
		return -1;
	r->suspects = v;
	r->suspects[r->nsuspects++] = *s;
	return 0;
}

static enum detect_direction direction_of(bool ab, bool ba)
{
	return ab && ba ? DETECT_DIR_BOTH : ab ? DETECT_DIR_AB : DETECT_DIR_BA;
}

/* Slow cells of host h's row (out) and column (in), of their finite ones. */
static void host_counts(const struct work *w, int h, int *out, int *out_total, int *in,
                        int *in_total)
{
	*out = *out_total = *in = *in_total = 0;
	for (int x = 0; x < w->n; x++) {
		if (finite_cell(w, h, x)) {
			(*out_total)++;
			*out += w->slow[h * w->n + x];
		}
		if (finite_cell(w, x, h)) {
			(*in_total)++;
			*in += w->slow[x * w->n + h];
		}
	}
}

/*
 * Host h's verdict from the cells of slow in its row (send) and its column
 * (receive), as asked; those cells stay in w->list (s.links_suspect of them).
 */
static struct detect_suspect host_verdict(struct work *w, int h, bool send, bool receive,
                                          const bool *slow, bool loaded)
{
	size_t k = 0;
	for (int x = 0; x < w->n; x++) {
		if (send && slow[h * w->n + x])
			w->list[k++] = (size_t)h * (size_t)w->n + (size_t)x;
		if (receive && slow[x * w->n + h])
			w->list[k++] = (size_t)x * (size_t)w->n + (size_t)h;
	}
	struct detect_suspect s = verdict_list(w, DETECT_HOST, k, loaded);
	int out, out_total, in, in_total;
	host_counts(w, h, &out, &out_total, &in, &in_total);
	s.host = h;
	s.direction = direction_of(send, receive);
	s.links_total = (send ? out_total : 0) + (receive ? in_total : 0);
	/* the z the decision used: a row or column as one figure, where that is stronger */
	double agg = send && receive ? fmax(w->row_z[h], w->col_z[h])
	                             : send ? w->row_z[h] : w->col_z[h];
	if (agg < s.score)
		s.score = agg;
	return s;
}

/* Hosts alone in their group with most of a row or column slow. */
static int name_hosts(struct work *w, bool loaded, struct detect_result *r)
{
	for (int h = 0; h < w->n; h++) {
		int out, out_total, in, in_total;
		if (w->group_size[w->group[h]] != 1)
			continue;
		host_counts(w, h, &out, &out_total, &in, &in_total);
		bool send = 2 * out > out_total, receive = 2 * in > in_total;
		if (!send && !receive)
			continue;
		struct detect_suspect s = host_verdict(w, h, send, receive, w->slow, loaded);
		s.by_majority = true;
		for (int i = 0; i < s.links_suspect; i++)
			w->explained[w->list[i]] = true;
		if (push(r, &s) != 0)
			return -1;
	}
	return 0;
}

/* Slow cells from group ga to group gb into pick (when not NULL); their count, of total. */
static int cross(const struct work *w, int ga, int gb, bool *pick, int *total)
{
	int slow = 0;
	*total = 0;
	for (int i = 0; i < w->n; i++)
		for (int j = 0; j < w->n; j++) {
			if (w->group[i] != ga || w->group[j] != gb || !finite_cell(w, i, j))
				continue;
			(*total)++;
			slow += w->slow[i * w->n + j];
			if (pick && w->slow[i * w->n + j])
				pick[i * w->n + j] = true;
		}
	return slow;
}

static int add_sides(struct detect_result *r, int nhosts, const struct work *w, int ga, int gb)
{
	size_t row = (size_t)nhosts;
	signed char *v = realloc(r->sides, (size_t)(r->nsides + 1) * row);
	if (!v)
		return -1;
	r->sides = v;
	r->nhosts = nhosts;
	for (int h = 0; h < nhosts; h++)
		v[(size_t)r->nsides * row + (size_t)h] =
		    (signed char)(w->group[h] == ga ? 0 : w->group[h] == gb ? 1 : -1);
	return r->nsides++;
}

/* Two groups of two hosts or more with most cells one way between them slow. */
static int name_segments(struct work *w, bool loaded, bool *pick, struct detect_result *r)
{
	for (int ga = 0; ga < w->n; ga++)
		for (int gb = ga + 1; gb < w->n; gb++) {
			int tab, tba;
			if (w->group[ga] != ga || w->group[gb] != gb || w->group_size[ga] < 2 ||
			    w->group_size[gb] < 2)
				continue;
			memset(pick, 0, (size_t)w->n * (size_t)w->n * sizeof *pick);
			int sab = cross(w, ga, gb, NULL, &tab), sba = cross(w, gb, ga, NULL, &tba);
			bool ab = 2 * sab > tab, ba = 2 * sba > tba;
			if (!ab && !ba)
				continue;
			if (ab)
				cross(w, ga, gb, pick, &tab);
			if (ba)
				cross(w, gb, ga, pick, &tba);
			struct detect_suspect s = verdict(w, DETECT_SEGMENT, pick, loaded);
			s.direction = direction_of(ab, ba);
			s.links_total = (ab ? tab : 0) + (ba ? tba : 0);
			s.side = add_sides(r, w->n, w, ga, gb);
			for (int c = 0; c < w->n * w->n; c++)
				w->explained[c] = w->explained[c] || pick[c];
			if (s.side < 0 || push(r, &s) != 0)
				return -1;
		}
	return 0;
}

/* Every slow cell left: a link between its hosts, both cells of a pair in one verdict. */
static int name_links(struct work *w, bool loaded, struct detect_result *r)
{
	for (int i = 0; i < w->n; i++)
		for (int j = i + 1; j < w->n; j++) {
			size_t ij = (size_t)i * (size_t)w->n + (size_t)j;
			size_t ji = (size_t)j * (size_t)w->n + (size_t)i;
			bool ab = w->slow[ij] && !w->explained[ij];
			bool ba = w->slow[ji] && !w->explained[ji];
			size_t k = 0;
			if (!ab && !ba)
				continue;
			if (ab)
				w->list[k++] = ij;
			if (ba)
				w->list[k++] = ji;
			struct detect_suspect s = verdict_list(w, DETECT_LINK, k, loaded);
			s.between_hosts = true;
			s.host_a = i;
			s.host_b = j;
			s.direction = direction_of(ab, ba);
			s.links_total = 2;
			if (push(r, &s) != 0)
				return -1;
		}
	return 0;
}

static void work_free(struct work *w)
{
	free(w->vals);
	free(w->slow);
	free(w->explained);
	free(w->group);
	free(w->group_size);
	free(w->list);
	free(w->row_z);
	free(w->col_z);
	free(w->screened);
	free(w->screen_slow);
	free(w->screen_line);
}

/* Does r name a host or a segment from index `from` on? */
static bool names_bulk(const struct detect_result *r, int from)
{
	for (int i = from; i < r->nsuspects; i++)
		if (r->suspects[i].kind != DETECT_LINK)
			return true;
	return false;
}

static bool explains(const struct detect_result *r, const struct detect_suspect *v,
                     const struct detect_suspect *s);

/*
 * Step 2c's hosts, with the first reading's figures, into out (room for n):
 * each host with a line it named, send, receive or both by which.
 * Their count.
 */
static int screen_hosts(struct work *w, bool loaded, struct detect_suspect *out)
{
	int count = 0;
	for (int h = 0; h < w->n; h++) {
		bool send = w->screen_line[2 * h], receive = w->screen_line[2 * h + 1];
		if (!send && !receive)
			continue;
		struct detect_suspect s = host_verdict(w, h, send, receive, w->screen_slow, loaded);
		if (s.links_suspect > 0)
			out[count++] = s;
	}
	return count;
}

/* Is host h named in r from index `from` on, as a host or on a side of a segment? */
static bool host_named(const struct detect_result *r, int from, int h)
{
	for (int i = from; i < r->nsuspects; i++) {
		const struct detect_suspect *s = &r->suspects[i];
		const signed char *sides = s->kind == DETECT_SEGMENT ? detect_sides(r, s) : NULL;
		if ((s->kind == DETECT_HOST && s->host == h) || (sides && sides[h] >= 0))
			return true;
	}
	return false;
}

/*
 * Step 1 again, the fast level read from the fastest quarter (two_levels),
 * when the first reading named no host or segment and its split differs
 * (w->top_split): the cells of an uplink shared by a round's pairs, or of a
 * NIC on a loaded cluster, spread down from the fast level with no gap, or
 * under a gap of a few cells far slower still. Only its hosts and segments
 * are named (under a gap, segments only), and the links of the first reading
 * they explain dropped: its links would be the noise of a loaded cluster
 * judged against its fastest cells. info is this reading's when it names
 * anything.
 */
static int judge_top_level(struct work *w, const struct detect_params *p, bool loaded,
                           bool *pick, struct detect_result *r, int before,
                           struct classify_info *info)
{
	struct classify_info top;
	int links = r->nsuspects;
	if (judge_cells(w, p, &top, true) != 0)
		return -1;
	if (!top.judged || top.slow_cells == 0)
		return 0;
	groups(w);
	/* under a gap, segments only: the gap's links stand against hosts read in
	   the spread of a busy machine's cells (4 ranks on 2 cores named the hosts
	   of a link 100x slow and dropped it) */
	if ((!w->gap && name_hosts(w, loaded, r) != 0) || name_segments(w, loaded, pick, r) != 0)
		return -1;
	if (r->nsuspects == links)
		return 0;
	int kept = before;
	for (int i = before; i < r->nsuspects; i++) {
		bool gone = false;
		for (int k = links; i < links && !gone && k < r->nsuspects; k++)
			gone = explains(r, &r->suspects[k], &r->suspects[i]);
		if (!gone)
			r->suspects[kept++] = r->suspects[i];
	}
	r->nsuspects = kept;
	*info = top;
	return 0;
}

int classify_hosts(const double *cells, int nhosts, const struct detect_params *p, bool loaded,
                   struct detect_result *r, struct classify_info *info)
{
	struct classify_info scratch_info;
	struct work w = {.n = nhosts, .cells = cells};
	bool *pick = NULL;
	struct detect_suspect *screened = NULL;
	int rc = -1, before = r ? r->nsuspects : 0, nscreened = 0;
	if (!info)
		info = &scratch_info;
	info_init(info);
	if (!r || !p || nhosts < 0 || (nhosts > 0 && !cells) || (r->nsides > 0 && r->nhosts != nhosts))
		return -1;
	/* the matrix's hosts, segment or not: a re-test round that reads none must still
	   judge the segment it re-tests (retest_judge_segments compares the host counts;
	   a round of seed 11's draw 29 read hosts and links, and the uplink it had
	   measured again at 0.08x within its rack's 1.0x was dropped) */
	r->nhosts = nhosts;
	if (nhosts == 0)
		return 0;
	size_t nn = (size_t)nhosts * (size_t)nhosts;
	w.vals = malloc(nn * sizeof *w.vals);
	w.slow = calloc(nn, sizeof *w.slow);
	w.explained = calloc(nn, sizeof *w.explained);
	w.group = malloc((size_t)nhosts * sizeof *w.group);
	w.group_size = malloc((size_t)nhosts * sizeof *w.group_size);
	w.list = malloc(2 * (size_t)nhosts * sizeof *w.list);
	w.row_z = malloc((size_t)nhosts * sizeof *w.row_z);
	w.col_z = malloc((size_t)nhosts * sizeof *w.col_z);
	w.screened = calloc(2 * (size_t)nhosts, sizeof *w.screened);
	w.screen_slow = calloc(nn, sizeof *w.screen_slow);
	w.screen_line = calloc(2 * (size_t)nhosts, sizeof *w.screen_line);
	screened = malloc((size_t)nhosts * sizeof *screened);
	pick = calloc(nn, sizeof *pick);
	if (!w.vals || !w.slow || !w.explained || !w.group || !w.group_size || !w.list || !w.row_z ||
	    !w.col_z || !w.screened || !w.screen_slow || !w.screen_line || !screened || !pick)
		goto out;
	if (judge_cells(&w, p, info, false) != 0)
		goto out;
	rc = 0;
	if (!info->judged)
		goto out;
	nscreened = screen_hosts(&w, loaded, screened);
	if (info->slow_cells > 0) {
		groups(&w);
		rc = name_hosts(&w, loaded, r) != 0 || name_segments(&w, loaded, pick, r) != 0 ||
		             name_links(&w, loaded, r) != 0
		         ? -1
		         : 0;
	}
	/* the second reading only where it differs from the first (its split found while sorted) */
	if (rc == 0 && w.top_split && !names_bulk(r, before))
		rc = judge_top_level(&w, p, loaded, pick, r, before, info);
	/* step 2c's hosts last, where neither reading named them (nor a segment their side) */
	for (int i = 0; rc == 0 && i < nscreened; i++)
		if (!host_named(r, before, screened[i].host))
			rc = push(r, &screened[i]);
out:
	if (rc != 0 && r)
		r->nsuspects = before;
	work_free(&w);
	free(pick);
	free(screened);
	return rc;
}

/* Does verdict v (of classify_hosts) explain the rank link s? */
static bool explains(const struct detect_result *r, const struct detect_suspect *v,
                     const struct detect_suspect *s)
{
	const signed char *sides = detect_sides(r, v);
	if (v->kind == DETECT_HOST)
		return v->host == s->host_a || v->host == s->host_b;
	if (v->kind == DETECT_SEGMENT)
		return detect_sides_cross(sides, r->nhosts, s->host_a, s->host_b);
	return v->between_hosts && ((v->host_a == s->host_a && v->host_b == s->host_b) ||
	                            (v->host_a == s->host_b && v->host_b == s->host_a));
}

static bool dropped(const struct detect_result *r, int from, int i)
{
	const struct detect_suspect *s = &r->suspects[i];
	if (i >= from || s->metric != DETECT_BANDWIDTH || s->locality != DETECT_CROSS_HOST)
		return false;
	if (s->kind == DETECT_HOST)
		return true;
	for (int k = from; k < r->nsuspects; k++)
		if (explains(r, &r->suspects[k], s))
			return true;
	return false;
}

int classify_reconcile(struct detect_result *r, int from)
{
	int kept = 0, removed = 0;
	for (int i = 0; i < r->nsuspects; i++) {
		if (dropped(r, from, i)) {
			removed++;
			continue;
		}
		/* kept <= i: what dropped() reads from index `from` on is not moved yet */
		r->suspects[kept++] = r->suspects[i];
	}
	r->nsuspects = kept;
	/* a -> b and b -> a of one rank pair, same metric and class: one suspect, both ways */
	for (int i = 0; i < r->nsuspects; i++) {
		struct detect_suspect *s = &r->suspects[i];
		if (s->kind != DETECT_LINK || s->between_hosts || s->direction != DETECT_DIR_AB)
			continue;
		for (int j = i + 1; j < r->nsuspects; j++) {
			const struct detect_suspect *t = &r->suspects[j];
			if (t->kind != DETECT_LINK || t->between_hosts || t->metric != s->metric ||
			    t->locality != s->locality || t->a != s->b || t->b != s->a)
				continue;
			/* keep the worse figure, and a < b */
			bool worse = s->metric == DETECT_BANDWIDTH ? t->ratio < s->ratio
			                                           : t->ratio > s->ratio;
			struct detect_suspect both = worse ? *t : *s;
			if (both.a > both.b) {
				int x = both.a;
				both.a = both.b;
				both.b = x;
				x = both.host_a;
				both.host_a = both.host_b;
				both.host_b = x;
			}
			both.direction = DETECT_DIR_BOTH;
			*s = both;
			memmove(&r->suspects[j], &r->suspects[j + 1],
			        (size_t)(r->nsuspects - j - 1) * sizeof *r->suspects);
			r->nsuspects--;
			removed++;
			break;
		}
	}
	return removed;
}

static const char *name_of(const char *const *names, int h, char *buf, size_t len)
{
	if (names && names[h])
		return names[h];
	snprintf(buf, len, "%d", h);
	return buf;
}

/* The hosts on one side of a segment, space-separated, into buf. */
static void side_list(const struct detect_result *r, const signed char *sides, int side,
                      const char *const *names, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int h = 0; h < r->nhosts && used < len; h++) {
		char num[16];
		if (sides[h] != side)
			continue;
		int k = snprintf(buf + used, len - used, "%s%s", used ? " " : "",
		                 name_of(names, h, num, sizeof num));
		used += k > 0 ? (size_t)k : 0;
	}
}

static const char *way(enum detect_kind k, enum detect_direction d)
{
	if (d == DETECT_DIR_BOTH)
		return "both ways";
	if (k == DETECT_HOST)
		return d == DETECT_DIR_AB ? "to send" : "to receive";
	return "one way";
}

int classify_describe(const struct detect_result *r, const struct detect_suspect *s,
                      const char *const *host_names, char *buf, size_t len)
{
	char x[32], y[32], a[256], b[256], why[512], got[32], want[32];
	const char *arrow = s->direction == DETECT_DIR_BOTH ? "<->" : "->";
	const signed char *sides = detect_sides(r, s);
	const char *loc = detect_locality_name(s->locality);
	const char *unit = s->metric == DETECT_BANDWIDTH ? "GB/s" : "us";
	int n = s->links_suspect;
	report_fixed(got, sizeof got, s->measured, 0, 3); /* never "1.23e+03" */
	report_fixed(want, sizeof want, s->expected, 0, 3);
	snprintf(why, sizeof why, "%d %s cell%s at %.2fx the reference (%s against %s %s, z %+.1f)",
	         n, loc, n == 1 ? "" : "s", s->ratio, got, want, unit, s->score);
	if (s->kind == DETECT_SEGMENT && sides) {
		side_list(r, sides, s->direction == DETECT_DIR_BA ? 1 : 0, host_names, a, sizeof a);
		side_list(r, sides, s->direction == DETECT_DIR_BA ? 0 : 1, host_names, b, sizeof b);
		return snprintf(buf, len, "segment %s %s %s is slow %s: %s", a, arrow, b,
		                way(s->kind, s->direction), why);
	}
	if (s->kind == DETECT_LINK && s->between_hosts) {
		bool back = s->direction == DETECT_DIR_BA;
		return snprintf(buf, len, "link %s %s %s is slow %s: %s",
		                name_of(host_names, back ? s->host_b : s->host_a, x, sizeof x),
		                arrow,
		                name_of(host_names, back ? s->host_a : s->host_b, y, sizeof y),
		                way(s->kind, s->direction), why);
	}
	if (s->kind == DETECT_HOST && s->host >= 0 && s->rail) /* rails.h */
		return snprintf(buf, len, "rail of rank %d on host %s (its NIC) is slow %s: %s",
		                s->rail_rank, name_of(host_names, s->host, x, sizeof x),
		                way(s->kind, s->direction), why);
	if (s->kind == DETECT_HOST && s->host >= 0 && s->links_total > 0 && s->by_majority &&
	    s->side == -1 && s->locality == DETECT_CROSS_HOST && s->metric == DETECT_BANDWIDTH)
		return snprintf(buf, len, "host %s is slow %s: %s",
		                name_of(host_names, s->host, x, sizeof x),
		                way(s->kind, s->direction), why);
	detect_describe(s, host_names, why, sizeof why);
	if (s->kind == DETECT_HOST)
		return snprintf(buf, len, "%s (%s)", why, detect_direction_name(s->kind, s->direction));
	return snprintf(buf, len, "link %d%s%d (%s %s %s): %s", s->a, arrow, s->b,
	                name_of(host_names, s->host_a, x, sizeof x), arrow,
	                name_of(host_names, s->host_b, y, sizeof y), why);
}
