/*
 * The follow-up search after screening: see screen_search.h.
 *
 * Trace, 24 hosts, a segment between hosts 0-11 and 12-23, screening gave
 * host 5 partners 13, 17, 20 only: its cells are all slow, it is alone in its
 * group, and groups {0-4, 6-11} and {12-23} are flagged. Round 1 asks host 5
 * against the group of 0 (fine: 5 joins it) and nothing else: the sides are
 * whole, every cell between them measured is slow, and the classifier names
 * the segment.
 */
#include "reports/diagnose/screen_search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/diagnose/classify.h"
#include "reports/stats/stats.h"

struct search {
	int n;
	const double *cells;
	bool *slow; /* n x n */
	int *group; /* n: index of its group, 0 .. ngroups - 1 */
	int ngroups;
	int *size;     /* ngroups */
	bool *flagged; /* ngroups: a host of it has a slow cell */
	bool *touched; /* ngroups x ngroups: a pair between them is measured */
	int *members;  /* n: hosts sorted by group */
	int *start;    /* ngroups + 1 */
	int *partners; /* n: hosts measured with it */
	bool *busy;    /* n: in a pair of this round */
};

static bool cell_known(const struct search *s, int i, int j)
{
	double v = s->cells[(size_t)i * (size_t)s->n + (size_t)j];
	return i != j && isfinite(v) && v >= 0;
}

static bool measured(const struct search *s, int i, int j)
{
	return cell_known(s, i, j) || cell_known(s, j, i);
}

static double log_of(double v)
{
	return log(v > 1e-12 ? v : 1e-12);
}

/* Step 1: the classifier's reference and its two tests, cell by cell. */
static int judge(struct search *s, const struct detect_params *p, struct screen_search_info *out)
{
	struct detect_result scratch;
	struct classify_info info;
	detect_result_init(&scratch);
	int rc = classify_hosts(s->cells, s->n, p, false, &scratch, &info);
	detect_result_release(&scratch);
	if (rc != 0)
		return -1;
	out->judged = info.judged;
	for (int i = 0; info.judged && i < s->n; i++)
		for (int j = 0; j < s->n; j++) {
			if (!cell_known(s, i, j))
				continue;
			double v = s->cells[(size_t)i * (size_t)s->n + (size_t)j];
			double z = STATS_MAD_TO_Z * (log_of(v) - log(info.expected)) / info.log_mad;
			bool slow = v / info.expected < 1 - p->tolerance && z < -p->z_threshold;
			s->slow[(size_t)i * (size_t)s->n + (size_t)j] = slow;
			out->slow_cells += slow;
		}
	return 0;
}

static int root(int *parent, int x)
{
	while (parent[x] != x)
		x = parent[x] = parent[parent[x]];
	return x;
}

static bool fine_pair(const struct search *s, int i, int j)
{
	size_t ij = (size_t)i * (size_t)s->n + (size_t)j, ji = (size_t)j * (size_t)s->n + (size_t)i;
	return cell_known(s, i, j) && cell_known(s, j, i) && !s->slow[ij] && !s->slow[ji];
}

/* Step 2: the groups, numbered by their lowest host; members listed group by group. */
static void groups(struct search *s)
{
	int *parent = s->members; /* scratch until the members are listed */
	for (int h = 0; h < s->n; h++)
		parent[h] = h;
	for (int i = 0; i < s->n; i++)
		for (int j = i + 1; j < s->n; j++)
			if (fine_pair(s, i, j)) {
				int a = root(parent, i), b = root(parent, j);
				if (a != b)
					parent[a > b ? a : b] = a < b ? a : b;
			}
	s->ngroups = 0;
	for (int h = 0; h < s->n; h++)
		s->group[h] = root(parent, h) == h ? s->ngroups++ : -1;
	for (int h = 0; h < s->n; h++)
		if (s->group[h] < 0)
			s->group[h] = s->group[root(parent, h)];
	memset(s->size, 0, (size_t)s->ngroups * sizeof *s->size);
	for (int h = 0; h < s->n; h++)
		s->size[s->group[h]]++;
	s->start[0] = 0;
	for (int g = 0; g < s->ngroups; g++)
		s->start[g + 1] = s->start[g] + s->size[g];
	int *fill = s->partners; /* scratch: next free slot of each group */
	memcpy(fill, s->start, (size_t)s->ngroups * sizeof *fill);
	for (int h = 0; h < s->n; h++)
		s->members[fill[s->group[h]]++] = h;
}

/* Flags, measured group pairs and partner counts. */
static void tally(struct search *s, struct screen_search_info *out)
{
	const size_t ng = (size_t)s->ngroups;
	memset(s->flagged, 0, ng * sizeof *s->flagged);
	memset(s->touched, 0, ng * ng * sizeof *s->touched);
	memset(s->partners, 0, (size_t)s->n * sizeof *s->partners);
	for (int i = 0; i < s->n; i++)
		for (int j = 0; j < s->n; j++) {
			if (!measured(s, i, j))
				continue;
			s->partners[i]++;
			s->touched[(size_t)s->group[i] * ng + (size_t)s->group[j]] = true;
			if (s->slow[(size_t)i * (size_t)s->n + (size_t)j])
				s->flagged[s->group[i]] = s->flagged[s->group[j]] = true;
		}
	for (int h = 0; h < s->n; h++) {
		bool any = false;
		for (int x = 0; x < s->n && !any; x++)
			any = s->slow[(size_t)h * (size_t)s->n + (size_t)x] ||
			      s->slow[(size_t)x * (size_t)s->n + (size_t)h];
		out->flagged_hosts += any;
	}
	out->groups = s->ngroups;
}

/* A free host of group g and a free one of g' not yet measured together; pairs them. */
static bool ask(struct search *s, int g, int g2, int *host_partner)
{
	for (int i = s->start[g]; i < s->start[g + 1]; i++) {
		int a = s->members[i];
		if (s->busy[a])
			continue;
		for (int k = s->start[g2]; k < s->start[g2 + 1]; k++) {
			int b = s->members[k];
			if (b == a || s->busy[b] || measured(s, a, b))
				continue;
			host_partner[a] = b;
			host_partner[b] = a;
			s->busy[a] = s->busy[b] = true;
			return true;
		}
	}
	return false;
}

/*
 * Step 3 and 4 for groups of the given size class (alone: size 1, else
 * larger), the other groups largest first; returns the questions seen.
 */
static int questions(struct search *s, bool alone, const int *by_size, int *host_partner,
                     struct screen_search_info *out)
{
	const size_t ng = (size_t)s->ngroups;
	int open = 0;
	for (int g = 0; g < s->ngroups; g++) {
		if (!s->flagged[g] || (s->size[g] == 1) != alone)
			continue;
		for (int k = 0; k < s->ngroups; k++) {
			int g2 = by_size[k];
			if (g2 == g || s->touched[(size_t)g * ng + (size_t)g2])
				continue;
			open++;
			if (ask(s, g, g2, host_partner)) {
				out->pairs++;
				s->touched[(size_t)g * ng + (size_t)g2] = true;
				s->touched[(size_t)g2 * ng + (size_t)g] = true;
			}
		}
		/* a host alone with every group met: more partners of any group, up to the count */
		int h = s->members[s->start[g]];
		for (int k = 0; alone && k < s->ngroups && !s->busy[h] &&
		                s->partners[h] < SCREEN_SOLO_PARTNERS;
		     k++)
			if (by_size[k] != g && ask(s, g, by_size[k], host_partner)) {
				out->pairs++;
				open++;
			}
	}
	return open;
}

/* The groups, largest first (ties: lower index), by insertion: a few groups in practice. */
static void order_by_size(const struct search *s, int *by_size)
{
	for (int g = 0; g < s->ngroups; g++) {
		int k = g;
		while (k > 0 && s->size[by_size[k - 1]] < s->size[g]) {
			by_size[k] = by_size[k - 1];
			k--;
		}
		by_size[k] = g;
	}
}

static void search_free(struct search *s)
{
	free(s->slow);
	free(s->group);
	free(s->size);
	free(s->flagged);
	free(s->touched);
	free(s->members);
	free(s->start);
	free(s->partners);
	free(s->busy);
}

int screen_followup(const double *cells, int nhosts, const struct detect_params *p,
                    int *host_partner, struct screen_search_info *info)
{
	struct screen_search_info scratch = {0};
	struct search s = {.n = nhosts, .cells = cells};
	int *by_size = NULL, rc = -1;
	if (!info)
		info = &scratch;
	*info = (struct screen_search_info){0};
	if (nhosts < 1 || !cells || !p || !host_partner)
		return -1;
	for (int h = 0; h < nhosts; h++)
		host_partner[h] = -1;
	const size_t n = (size_t)nhosts;
	s.slow = calloc(n * n, sizeof *s.slow);
	s.group = malloc(n * sizeof *s.group);
	s.size = malloc(n * sizeof *s.size);
	s.flagged = malloc(n * sizeof *s.flagged);
	s.members = malloc(n * sizeof *s.members);
	s.start = malloc((n + 1) * sizeof *s.start);
	s.partners = malloc(n * sizeof *s.partners);
	s.busy = calloc(n, sizeof *s.busy);
	by_size = calloc(n, sizeof *by_size);
	if (!s.slow || !s.group || !s.size || !s.flagged || !s.members || !s.start || !s.partners ||
	    !s.busy || !by_size || judge(&s, p, info) != 0)
		goto out;
	rc = 0;
	if (!info->judged || info->slow_cells == 0)
		goto out;
	groups(&s);
	s.touched = calloc((size_t)s.ngroups * (size_t)s.ngroups, sizeof *s.touched);
	if (!s.touched) {
		rc = -1;
		goto out;
	}
	tally(&s, info);
	order_by_size(&s, by_size);
	info->questions = questions(&s, true, by_size, host_partner, info) +
	                  questions(&s, false, by_size, host_partner, info);
	rc = info->pairs;
out:
	search_free(&s);
	free(by_size);
	return rc;
}
