/*
 * A slow rail: one NIC of a host wired with a NIC per rank (rails.h).
 */
#include "reports/diagnose/rails.h"

#include <math.h>
#include <stdlib.h>

#include "reports/diagnose/classify.h"
#include "reports/stats/stats.h"

/* Rail k's verdict naming host h (kind host), or NULL. */
static const struct detect_suspect *host_verdict(const struct detect_result *r, int h)
{
	for (int i = 0; i < r->nsuspects; i++)
		if (r->suspects[i].kind == DETECT_HOST && r->suspects[i].host == h)
			return &r->suspects[i];
	return NULL;
}

/* The median of host h's row (out) or column (in) of one rail's cells over expected; NAN: none. */
static double way_ratio(const double *cells, int nhosts, int h, bool out, double expected,
                        double *scratch)
{
	size_t k = 0;
	for (int o = 0; o < nhosts; o++) {
		double x = out ? cells[(size_t)h * nhosts + o] : cells[(size_t)o * nhosts + h];
		if (o != h && isfinite(x))
			scratch[k++] = x;
	}
	return k && expected > 0 ? stats_median(scratch, k) / expected : NAN;
}

struct host_rails {
	int named, judged;
	bool send, receive; /* the ways the named rails are slow */
	double named_ratio; /* the mildest ratio of the named rails */
	bool others_fine;   /* every other judged rail fine (fine_floor), those ways */
};

/*
 * The ratio a host's other rails must reach for its named ones to be rails:
 * within the tolerance, or (when the named rails are much slower) a third of
 * their way down in logs. On a busy host a healthy rail reads 0.66x beside a
 * NIC at 0.22x (8 ranks on 2 cores); a host 30% slow on every rail, named on
 * one (0.6x) and not the other (0.8x), is below 0.6^(1/3) = 0.84 and stays a host.
 */
static double fine_floor(double named_ratio, double tolerance)
{
	return fmin(1 - tolerance, cbrt(named_ratio));
}

/*
 * How host h's rails judge it: per[k], rail k's verdicts; ways[(k * nhosts +
 * h) * 2 + 0 or 1], h's row (sends) and column (receives) of rail k against
 * its reference (NAN: not judged, or not measured that way).
 */
static struct host_rails judge_host(int nrails, int nhosts, const int *rank_at,
                                    const struct detect_result *per, const double *ways, int h,
                                    double tolerance)
{
	struct host_rails j = {.others_fine = true, .named_ratio = 0};
	for (int k = 0; k < nrails; k++) {
		const struct detect_suspect *v = host_verdict(&per[k], h);
		if (!v || rank_at[(size_t)h * nrails + k] < 0)
			continue;
		j.named++;
		j.named_ratio = fmax(j.named_ratio, v->ratio);
		j.send |= v->direction != DETECT_DIR_BA;
		j.receive |= v->direction != DETECT_DIR_AB;
	}
	for (int k = 0; j.named && k < nrails; k++) {
		if (host_verdict(&per[k], h) || rank_at[(size_t)h * nrails + k] < 0)
			continue;
		const double *w = &ways[((size_t)k * nhosts + h) * 2];
		double out = j.send ? w[0] : 1, in = j.receive ? w[1] : 1;
		if (!isfinite(out) || !isfinite(in))
			continue; /* not judged, or not measured that way: no evidence either way */
		j.judged++;
		double floor = fine_floor(j.named_ratio, tolerance);
		j.others_fine &= out >= floor && in >= floor;
	}
	return j;
}

/* Whether s is explained by host h's slow rails (rank_at's row of h, named[k]). */
static bool explained(const struct detect_suspect *s, int h, const int *ranks, const bool *named,
                      int nrails)
{
	if (s->metric != DETECT_BANDWIDTH || s->locality != DETECT_CROSS_HOST || s->loaded ||
	    s->rail)
		return false;
	if (s->kind == DETECT_HOST)
		return s->host == h;
	if (s->kind != DETECT_LINK || s->between_hosts)
		return false;
	for (int k = 0; k < nrails; k++)
		if (named[k] && (s->a == ranks[k] || s->b == ranks[k]))
			return true;
	return false;
}

/* Drops host h's explained suspects from r and appends its rail verdicts; -1: no memory. */
static int name_rails(struct detect_result *r, const struct detect_result *per, int nrails, int h,
                      const int *ranks, bool *named)
{
	int add = 0, kept = 0;
	for (int k = 0; k < nrails; k++) {
		named[k] = ranks[k] >= 0 && host_verdict(&per[k], h) != NULL;
		add += named[k];
	}
	struct detect_suspect *v = realloc(r->suspects, (size_t)(r->nsuspects + add) * sizeof *v);
	if (!v)
		return -1;
	r->suspects = v;
	for (int i = 0; i < r->nsuspects; i++)
		if (!explained(&v[i], h, ranks, named, nrails))
			v[kept++] = v[i];
	r->nsuspects = kept;
	for (int k = 0; k < nrails; k++) {
		if (!named[k])
			continue;
		struct detect_suspect s = *host_verdict(&per[k], h);
		s.rail = true;
		s.rail_rank = ranks[k];
		s.side = -1;
		r->suspects[r->nsuspects++] = s;
	}
	return add;
}

/* Rail k's verdicts into *per, and every host's two ways of it into ways (judge_host). */
static int judge_rail(rails_cells_fn cells, void *arg, int k, int nhosts,
                      const struct detect_params *p, double *m, double *scratch,
                      struct detect_result *per, double *ways)
{
	struct classify_info info;
	if (cells(arg, k, m) != 0 || classify_hosts(m, nhosts, p, false, per, &info) != 0)
		return -1;
	for (int h = 0; h < nhosts; h++) {
		double *w = &ways[((size_t)k * nhosts + h) * 2];
		w[0] = info.judged ? way_ratio(m, nhosts, h, true, info.expected, scratch) : NAN;
		w[1] = info.judged ? way_ratio(m, nhosts, h, false, info.expected, scratch) : NAN;
	}
	return 0;
}

int rails_classify(rails_cells_fn cells, void *arg, int nrails, int nhosts, const int *rank_at,
                   const struct detect_params *p, struct detect_result *r)
{
	if (!cells || !rank_at || !p || !r || nrails < 0 || nhosts < 0)
		return -1;
	if (nrails < RAILS_MIN_JUDGED || nhosts < 3)
		return 0;
	size_t nh = (size_t)nhosts;
	struct detect_result *per = calloc((size_t)nrails, sizeof *per);
	double *m = malloc(nh * nh * sizeof *m), *scratch = malloc(nh * sizeof *scratch);
	double *ways = malloc((size_t)nrails * nh * 2 * sizeof *ways);
	bool *named = malloc((size_t)nrails * sizeof *named);
	int made = 0, rails = -1;
	if (!per || !m || !scratch || !ways || !named)
		goto out;
	for (; made < nrails; made++) {
		detect_result_init(&per[made]);
		if (judge_rail(cells, arg, made, nhosts, p, m, scratch, &per[made], ways) != 0) {
			made++;
			goto out;
		}
	}
	rails = 0;
	for (int h = 0; h < nhosts; h++) {
		struct host_rails j =
		    judge_host(nrails, nhosts, rank_at, per, ways, h, p->tolerance);
		if (!j.named || !j.judged || j.named + j.judged < RAILS_MIN_JUDGED ||
		    !j.others_fine)
			continue;
		int n = name_rails(r, per, nrails, h, &rank_at[(size_t)h * nrails], named);
		if (n < 0) {
			rails = -1;
			goto out;
		}
		rails += n;
	}
out:
	for (int k = 0; per && k < made; k++)
		detect_result_release(&per[k]);
	free(per);
	free(m);
	free(scratch);
	free(ways);
	free(named);
	return rails;
}
