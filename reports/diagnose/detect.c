/*
 * The slow-link and slow-host detector: see detect.h for the rules. Model:
 * hyperfine's outlier detection (modified z-scores of Iglewicz and Hoaglin),
 * applied per locality class, with a ratio test beside it so that a tight
 * class does not turn tiny differences into accusations.
 */
#include "reports/diagnose/detect.h"
#include "reports/render/fixed.h"

#include "reports/stats/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing list of suspects, private to one detect_run. */
struct suspect_list {
	struct detect_suspect *v;
	int n, cap;
};

/* Where a sample is centred and how far it spreads (see spread_of). */
struct spread {
	double median;     /* of the values */
	double log_median; /* of their logs */
	double log_mad;    /* MAD of the logs, floored */
};

/* Scratch of one detect_run: n links, nhosts hosts. */
struct scratch {
	struct spread class_spread; /* of the class being judged */
	double *vals;               /* n */
	bool *flagged;              /* n: link suspects of the class being judged */
	double *host_med;           /* nhosts: median of each host's links in the class */
	int *host_total;            /* nhosts */
	int *host_flagged;          /* nhosts */
	int *host_out, *host_in;    /* nhosts: flagged links from it, to it */
	bool *host_named;           /* nhosts */
	size_t *first;              /* nhosts + 1: host h's links are by_host[first[h] .. first[h+1]) */
	size_t *by_host;            /* 2n: the class's links, grouped by the hosts they touch */
	size_t *cursor;             /* nhosts: filling by_host */
};

void detect_params_default(struct detect_params *p)
{
	*p = (struct detect_params){
	    .tolerance = 0.1,
	    .latency_tolerance = 0.3,
	    .z_threshold = 3.5,
	    .min_class_links = 6,
	    .min_hosts = 3,
	    /* a host seen through one pair (2 links) is that pair: one noisy
	       pair must not accuse a host */
	    .min_host_links = 4,
	    .host_majority = 0.5,
	    .mad_floor_fraction = 0.02,
	    .latency_floor_us = 0.05,
	};
}

void detect_result_init(struct detect_result *r)
{
	memset(r, 0, sizeof *r);
	for (int m = 0; m < DETECT_METRICS; m++)
		for (int l = 0; l < DETECT_LOCALITIES; l++)
			r->classes[m][l].median = r->classes[m][l].mad = NAN;
}

void detect_result_release(struct detect_result *r)
{
	free(r->suspects);
	free(r->sides);
	detect_result_init(r);
}

int detect_confirmed_count(const struct detect_result *r)
{
	int n = 0;
	for (int i = 0; i < r->nsuspects; i++)
		n += r->suspects[i].confirmed;
	return n;
}

const char *const detect_locality_names[DETECT_LOCALITIES + 1] = {"same_numa", "same_host",
                                                                  "cross_host", NULL};
const char *const detect_metric_names[DETECT_METRICS + 1] = {"bandwidth", "latency", NULL};
const char *const detect_kind_names[DETECT_KINDS + 1] = {"link", "host", "segment", NULL};

const char *detect_locality_name(enum detect_locality l)
{
	return l >= 0 && l < DETECT_LOCALITIES ? detect_locality_names[l] : "unknown";
}

const char *detect_metric_name(enum detect_metric m)
{
	return m >= 0 && m < DETECT_METRICS ? detect_metric_names[m] : "unknown";
}

const char *detect_kind_name(enum detect_kind k)
{
	return k == DETECT_HOST || k == DETECT_SEGMENT ? detect_kind_names[k] : "link";
}

/* The index of name in names (NULL-terminated), or -1. */
static int name_index(const char *const *names, const char *name)
{
	for (int i = 0; name && names[i]; i++)
		if (strcmp(names[i], name) == 0)
			return i;
	return -1;
}

int detect_locality_parse(const char *name, enum detect_locality *out)
{
	int i = name_index(detect_locality_names, name);
	if (i >= 0)
		*out = (enum detect_locality)i;
	return i >= 0 ? 0 : -1;
}

int detect_metric_parse(const char *name, enum detect_metric *out)
{
	int i = name_index(detect_metric_names, name);
	if (i >= 0)
		*out = (enum detect_metric)i;
	return i >= 0 ? 0 : -1;
}

int detect_kind_parse(const char *name, enum detect_kind *out)
{
	int i = name_index(detect_kind_names, name);
	if (i >= 0)
		*out = (enum detect_kind)i;
	return i >= 0 ? 0 : -1;
}

const char *detect_direction_name(enum detect_kind k, enum detect_direction d)
{
	if (d == DETECT_DIR_AB)
		return k == DETECT_HOST ? "send" : "a->b";
	if (d == DETECT_DIR_BA)
		return k == DETECT_HOST ? "receive" : "b->a";
	return "both";
}

double detect_tolerance(const struct detect_params *p, enum detect_metric m,
                        enum detect_locality loc)
{
	if (m == DETECT_LATENCY)
		return p->latency_tolerance;
	if (loc != DETECT_CROSS_HOST && p->tolerance < DETECT_INTRA_HOST_TOLERANCE)
		return DETECT_INTRA_HOST_TOLERANCE;
	return p->tolerance;
}

double detect_sensitivity(const struct detect_class *cls, enum detect_metric m,
                          const struct detect_params *p)
{
	if (!cls->judged || !(cls->log_mad > 0))
		return NAN;
	/* z < -Z needs log(ratio) < -Z x MAD' / 0.6745 */
	double by_z = p->z_threshold * cls->log_mad / STATS_MAD_TO_Z;
	double t = detect_tolerance(p, m, cls->locality);
	if (m == DETECT_BANDWIDTH) {
		double s = 1 - exp(-by_z);
		return s > t ? s : t;
	}
	double s = expm1(by_z), by_ratio = 1 / (1 - t) - 1;
	return s > by_ratio ? s : by_ratio;
}

const signed char *detect_sides(const struct detect_result *r, const struct detect_suspect *s)
{
	if (s->kind != DETECT_SEGMENT || s->side < 0 || s->side >= r->nsides || !r->sides)
		return NULL;
	return r->sides + (size_t)s->side * (size_t)r->nhosts;
}

static int push(struct suspect_list *l, const struct detect_suspect *s)
{
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 8;
		struct detect_suspect *v = realloc(l->v, (size_t)cap * sizeof *v);
		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = *s;
	return 0;
}

/* log of a value, with 0 (a dead link) kept finite but far below everything. */
static double log_of(double v)
{
	return log(v > 1e-12 ? v : 1e-12);
}

/*
 * The centre and spread of a sample: median of the values (for the ratio),
 * median and floored MAD of their logs (for the z-score). vals is
 * overwritten with the logs. raw_mad, when not NULL, gets the MAD of the
 * values. Returns -1 when out of memory.
 */
static int spread_of(double *vals, size_t k, enum detect_metric m, const struct detect_params *p,
                     struct spread *out, double *raw_mad)
{
	out->median = stats_median(vals, k);
	if (raw_mad && isnan(*raw_mad = stats_mad(vals, k)))
		return -1;
	for (size_t i = 0; i < k; i++)
		vals[i] = log_of(vals[i]);
	out->log_median = stats_median(vals, k);
	double mad = stats_mad(vals, k);
	if (isnan(out->median) || isnan(out->log_median) || isnan(mad))
		return -1;
	double floor = log1p(p->mad_floor_fraction);
	if (m == DETECT_LATENCY && out->median > 0 &&
	    log1p(p->latency_floor_us / out->median) > floor)
		floor = log1p(p->latency_floor_us / out->median);
	out->log_mad = mad > floor ? mad : floor;
	return 0;
}

/* The ratio and z tests of detect.h; *z and *ratio are set whatever the verdict. */
static bool deviant(double v, const struct spread *sp, enum detect_metric m,
                    enum detect_locality loc, const struct detect_params *p, double *z,
                    double *ratio)
{
	*ratio = sp->median > 0 ? v / sp->median : NAN;
	*z = sp->log_mad > 0 ? STATS_MAD_TO_Z * (log_of(v) - sp->log_median) / sp->log_mad : NAN;
	if (!(sp->median > 0) || !(sp->log_mad > 0) || !isfinite(v))
		return false;
	double t = detect_tolerance(p, m, loc);
	if (m == DETECT_BANDWIDTH)
		return *ratio < 1 - t && *z < -p->z_threshold;
	return *ratio > 1 / (1 - t) && *z > p->z_threshold;
}

bool detect_sides_cross(const signed char *sides, int nhosts, int ha, int hb)
{
	return sides && ha >= 0 && ha < nhosts && hb >= 0 && hb < nhosts && sides[ha] >= 0 &&
	       sides[hb] >= 0 && sides[ha] != sides[hb];
}

bool detect_link_usable(const struct detect_link *k, enum detect_locality loc)
{
	return k->judged && k->locality == loc && isfinite(k->value) && k->value >= 0;
}

static bool touches(const struct detect_link *k, int h)
{
	return k->host_a == h || k->host_b == h;
}

/* Median and MAD of the class; flags its suspect links when it is judged. */
static int judge_links(const struct detect_link *links, size_t n, enum detect_locality loc,
                       enum detect_metric m, const struct detect_params *p,
                       struct detect_class *cls, struct scratch *s)
{
	size_t k = 0;
	double z, ratio;
	for (size_t i = 0; i < n; i++) {
		s->flagged[i] = false;
		if (detect_link_usable(&links[i], loc))
			s->vals[k++] = links[i].value;
	}
	*cls = (struct detect_class){
	    .locality = loc, .links = (int)k, .median = NAN, .mad = NAN, .log_mad = NAN};
	s->class_spread = (struct spread){NAN, NAN, NAN};
	if (k == 0)
		return 0;
	if (spread_of(s->vals, k, m, p, &s->class_spread, &cls->mad) != 0)
		return -1;
	cls->median = s->class_spread.median;
	cls->log_mad = s->class_spread.log_mad;
	cls->judged = (int)k >= p->min_class_links && cls->median > 0;
	for (size_t i = 0; cls->judged && i < n; i++)
		s->flagged[i] = detect_link_usable(&links[i], loc) &&
		                deviant(links[i].value, &s->class_spread, m, loc, p, &z, &ratio);
	return 0;
}

/*
 * The usable links of the class grouped by host (each under both its ends, or
 * once within a host), so that each host visits its own links only: a pass
 * over every link per host made the detector O(hosts x links).
 */
static void group_by_host(const struct detect_link *links, size_t n, int nhosts,
                          enum detect_locality loc, struct scratch *s)
{
	memset(s->first, 0, ((size_t)nhosts + 1) * sizeof *s->first);
	for (size_t i = 0; i < n; i++)
		if (detect_link_usable(&links[i], loc)) {
			s->first[links[i].host_a + 1]++;
			if (links[i].host_b != links[i].host_a)
				s->first[links[i].host_b + 1]++;
		}
	for (int h = 0; h < nhosts; h++) {
		s->first[h + 1] += s->first[h];
		s->cursor[h] = s->first[h];
	}
	for (size_t i = 0; i < n; i++)
		if (detect_link_usable(&links[i], loc)) {
			s->by_host[s->cursor[links[i].host_a]++] = i;
			if (links[i].host_b != links[i].host_a)
				s->by_host[s->cursor[links[i].host_b]++] = i;
		}
}

/* Each host's median, judged links and suspect links in the class. */
static int host_medians(const struct detect_link *links, size_t n, int nhosts,
                        enum detect_locality loc, struct scratch *s, int *hosts_with_links)
{
	*hosts_with_links = 0;
	group_by_host(links, n, nhosts, loc, s);
	for (int h = 0; h < nhosts; h++) {
		size_t k = 0;
		s->host_flagged[h] = s->host_out[h] = s->host_in[h] = 0;
		for (size_t x = s->first[h]; x < s->first[h + 1]; x++) {
			size_t i = s->by_host[x];
			s->vals[k++] = links[i].value;
			s->host_flagged[h] += s->flagged[i];
			s->host_out[h] += s->flagged[i] && links[i].host_a == h;
			s->host_in[h] += s->flagged[i] && links[i].host_b == h;
		}
		s->host_total[h] = (int)k;
		s->host_med[h] = k ? stats_median(s->vals, k) : NAN;
		if (k && isnan(s->host_med[h]))
			return -1;
		*hosts_with_links += k > 0;
	}
	return 0;
}

/*
 * Rule (b): the spread of the hosts' medians. Raised to at least what the
 * links' own spread implies for a median of the fewest links a judged host
 * has (sqrt(pi / 2k) of one link's, normal noise): the MAD of a handful of
 * host medians can come out near zero by chance, and then a host 10 % off
 * would look 4 MADs away.
 */
static int host_level_spread(int nhosts, enum detect_metric m, const struct detect_params *p,
                             struct scratch *s, struct spread *out)
{
	size_t k = 0;
	int fewest = 0;
	for (int h = 0; h < nhosts; h++)
		if (s->host_total[h] >= p->min_host_links) {
			s->vals[k++] = s->host_med[h];
			if (fewest == 0 || s->host_total[h] < fewest)
				fewest = s->host_total[h];
		}
	if (spread_of(s->vals, k, m, p, out, NULL) != 0)
		return -1;
	double implied = s->class_spread.log_mad * sqrt(M_PI / (2.0 * fewest));
	if (fewest > 0 && implied > out->log_mad)
		out->log_mad = implied;
	return 0;
}

/* Rules (a) and (b) for every host of the class; named hosts are pushed. */
static int judge_hosts(const struct detect_link *links, size_t n, int nhosts,
                       enum detect_locality loc, enum detect_metric m,
                       const struct detect_params *p, struct detect_class *cls, struct scratch *s,
                       struct suspect_list *out)
{
	struct spread hosts = {NAN, NAN, NAN};
	double z, ratio;
	if (host_medians(links, n, nhosts, loc, s, &cls->hosts) != 0)
		return -1;
	int big_enough = 0; /* hosts that rule (b) may judge */
	for (int h = 0; h < nhosts; h++)
		big_enough += s->host_total[h] >= p->min_host_links;
	cls->hosts_judged = big_enough >= p->min_hosts;
	if (cls->hosts_judged && host_level_spread(nhosts, m, p, s, &hosts) != 0)
		return -1;
	for (int h = 0; h < nhosts; h++) {
		s->host_named[h] = false;
		if (s->host_total[h] == 0)
			continue;
		struct detect_suspect sus = {
		    .kind = DETECT_HOST,
		    .metric = m,
		    .locality = loc,
		    .a = -1,
		    .b = -1,
		    .host_a = -1,
		    .host_b = -1,
		    .host = h,
		    .measured = s->host_med[h],
		    .links_suspect = s->host_flagged[h],
		    .links_total = s->host_total[h],
		    .direction = s->host_in[h] == 0 && s->host_out[h] > 0   ? DETECT_DIR_AB
		                 : s->host_out[h] == 0 && s->host_in[h] > 0 ? DETECT_DIR_BA
		                                                            : DETECT_DIR_BOTH,
		    .side = -1,
		    .first_measured = NAN,
		    .cpu_wait_fraction = NAN,
		    .other_traffic_gbps = NAN,
		    .other_traffic_most_gbps = NAN,
		    .first_ratio = NAN,
		    .first_score = NAN,
		};
		bool majority = s->host_flagged[h] >= 2 && s->host_total[h] >= p->min_host_links &&
		                s->host_flagged[h] > p->host_majority * s->host_total[h];
		if (majority) {
			deviant(s->host_med[h], &s->class_spread, m, loc, p, &z, &ratio);
			sus.expected = s->class_spread.median;
			sus.by_majority = true;
		} else if (cls->hosts_judged && s->host_total[h] >= p->min_host_links &&
		           deviant(s->host_med[h], &hosts, m, loc, p, &z, &ratio)) {
			sus.expected = hosts.median;
		} else {
			continue;
		}
		sus.ratio = ratio;
		sus.score = z;
		s->host_named[h] = true;
		if (push(out, &sus) != 0)
			return -1;
	}
	return 0;
}

/* The flagged links of the class that no named host explains. */
static int push_links(const struct detect_link *links, size_t n, enum detect_locality loc,
                      enum detect_metric m, const struct detect_params *p, const struct scratch *s,
                      struct suspect_list *out)
{
	for (size_t i = 0; i < n; i++) {
		const struct detect_link *k = &links[i];
		if (!s->flagged[i] || s->host_named[k->host_a] || s->host_named[k->host_b])
			continue;
		struct detect_suspect sus = {
		    .kind = DETECT_LINK,
		    .metric = m,
		    .locality = loc,
		    .a = k->a,
		    .b = k->b,
		    .host_a = k->host_a,
		    .host_b = k->host_b,
		    .host = -1,
		    .measured = k->value,
		    .expected = s->class_spread.median,
		    .direction = DETECT_DIR_AB,
		    .side = -1,
		    .first_measured = NAN,
		    .cpu_wait_fraction = NAN,
		    .other_traffic_gbps = NAN,
		    .other_traffic_most_gbps = NAN,
		    .first_ratio = NAN,
		    .first_score = NAN,
		};
		deviant(k->value, &s->class_spread, m, loc, p, &sus.score, &sus.ratio);
		if (push(out, &sus) != 0)
			return -1;
	}
	return 0;
}

/* Hosts first, bandwidth before latency, then the worst first. */
static int cmp_suspect(const void *pa, const void *pb)
{
	const struct detect_suspect *a = pa, *b = pb;
	if (a->kind != b->kind)
		return a->kind == DETECT_HOST ? -1 : 1;
	if (a->metric != b->metric)
		return a->metric < b->metric ? -1 : 1;
	double ra = a->metric == DETECT_BANDWIDTH ? a->ratio : -a->ratio;
	double rb = b->metric == DETECT_BANDWIDTH ? b->ratio : -b->ratio;
	if (ra != rb)
		return ra < rb ? -1 : 1;
	if (a->host != b->host)
		return a->host < b->host ? -1 : 1;
	return a->a != b->a ? (a->a < b->a ? -1 : 1) : (a->b > b->b) - (a->b < b->b);
}

static void scratch_free(struct scratch *s)
{
	free(s->vals);
	free(s->flagged);
	free(s->host_med);
	free(s->host_total);
	free(s->host_flagged);
	free(s->host_named);
	free(s->host_out);
	free(s->host_in);
	free(s->first);
	free(s->by_host);
	free(s->cursor);
}

static int scratch_alloc(struct scratch *s, size_t n, int nhosts)
{
	size_t nh = nhosts > 0 ? (size_t)nhosts : 1;
	memset(s, 0, sizeof *s);
	s->vals = malloc((n ? n : 1) * sizeof *s->vals);
	s->flagged = calloc(n ? n : 1, sizeof *s->flagged);
	s->host_med = malloc(nh * sizeof *s->host_med);
	s->host_total = calloc(nh, sizeof *s->host_total);
	s->host_flagged = calloc(nh, sizeof *s->host_flagged);
	s->host_named = calloc(nh, sizeof *s->host_named);
	s->host_out = calloc(nh, sizeof *s->host_out);
	s->host_in = calloc(nh, sizeof *s->host_in);
	s->first = calloc(nh + 1, sizeof *s->first);
	s->by_host = malloc(2 * (n ? n : 1) * sizeof *s->by_host);
	s->cursor = calloc(nh, sizeof *s->cursor);
	if (!s->vals || !s->flagged || !s->host_med || !s->host_total || !s->host_flagged ||
	    !s->host_named || !s->host_out || !s->host_in || !s->first || !s->by_host || !s->cursor)
		return -1;
	return 0;
}

static bool links_valid(const struct detect_link *links, size_t n, int nhosts)
{
	for (size_t i = 0; i < n; i++)
		if (links[i].host_a < 0 || links[i].host_a >= nhosts || links[i].host_b < 0 ||
		    links[i].host_b >= nhosts || links[i].locality < 0 ||
		    links[i].locality >= DETECT_LOCALITIES)
			return false;
	return true;
}

/* Moves the new suspects to the end of r's list, sorted. */
static int append(struct detect_result *r, struct suspect_list *l)
{
	if (l->n == 0)
		return 0;
	qsort(l->v, (size_t)l->n, sizeof *l->v, cmp_suspect);
	struct detect_suspect *v = realloc(r->suspects, (size_t)(r->nsuspects + l->n) * sizeof *v);
	if (!v)
		return -1;
	memcpy(v + r->nsuspects, l->v, (size_t)l->n * sizeof *v);
	r->suspects = v;
	r->nsuspects += l->n;
	return 0;
}

int detect_run(const struct detect_link *links, size_t n, int nhosts, enum detect_metric metric,
               const struct detect_params *p, struct detect_result *r)
{
	struct scratch s;
	struct suspect_list found = {0};
	struct detect_class classes[DETECT_LOCALITIES];
	int rc = -1;
	if (!p || !r || (n && !links) || nhosts < 0 || (n && nhosts == 0) || metric < 0 ||
	    metric >= DETECT_METRICS || !(p->tolerance > 0 && p->tolerance < 1) ||
	    !(p->latency_tolerance > 0 && p->latency_tolerance < 1) ||
	    !(p->z_threshold > 0) || !links_valid(links, n, nhosts))
		return -1;
	if (scratch_alloc(&s, n, nhosts) != 0)
		goto out;
	for (int l = 0; l < DETECT_LOCALITIES; l++) {
		enum detect_locality loc = (enum detect_locality)l;
		if (judge_links(links, n, loc, metric, p, &classes[l], &s) != 0 ||
		    judge_hosts(links, n, nhosts, loc, metric, p, &classes[l], &s, &found) != 0 ||
		    push_links(links, n, loc, metric, p, &s, &found) != 0)
			goto out;
	}
	if (append(r, &found) != 0)
		goto out;
	memcpy(r->classes[metric], classes, sizeof classes);
	rc = 0;
out:
	scratch_free(&s);
	free(found.v);
	return rc;
}

/* 1 when {a, b} is new to pairs, 0 when not or out of range, -1 out of memory. */
static int mark(struct pair_set *pairs, int nranks, int a, int b)
{
	return a < nranks && b < nranks ? pair_set_add(pairs, a, b) : 0;
}

/* Does link k belong to suspect s (its host, its hosts' pair, across its segment)? */
static bool covers(const struct detect_result *r, const struct detect_suspect *s,
                   const struct detect_link *k)
{
	const signed char *sides = detect_sides(r, s);
	if (!detect_link_usable(k, s->locality))
		return false;
	if (s->kind == DETECT_HOST && s->rail) /* a rail: its rank's links */
		return k->a == s->rail_rank || k->b == s->rail_rank;
	if (s->kind == DETECT_HOST)
		return touches(k, s->host);
	if (s->kind == DETECT_SEGMENT)
		return detect_sides_cross(sides, r->nhosts, k->host_a, k->host_b);
	return s->between_hosts && ((k->host_a == s->host_a && k->host_b == s->host_b) ||
	                            (k->host_a == s->host_b && k->host_b == s->host_a));
}

static bool same_pair(const struct detect_link *x, const struct detect_link *y)
{
	return (x->a == y->a && x->b == y->b) || (x->a == y->b && x->b == y->a);
}

/*
 * The slowest link of a host suspect in its direction (its rail's, for a
 * rail), or NULL. A host may be named for one slow link among others a little
 * slow: screening read h10 -> h9 at 50 Mbit/s (whose htb slowed h10's other
 * sends 0.57x under load) into "h10 is slow to send, 0.58x"; its re-test
 * measured four other pairs of h10 alone, which passed, and the link was never
 * measured again (issue 28). Only its own cell measured again tells a slow NIC
 * from that link. The lowest value is the slowest:
 * the links given are bandwidths (links_retest.c), for a latency suspect too.
 */
static const struct detect_link *worst_cell(const struct detect_result *r,
                                            const struct detect_suspect *s,
                                            const struct detect_link *links, size_t n)
{
	const struct detect_link *w = NULL;
	if (s->kind != DETECT_HOST)
		return NULL; /* a link between hosts: all its pairs are its cells */
	for (size_t j = 0; j < n; j++) {
		const struct detect_link *k = &links[j];
		if (detect_link_in_way(s, k) && covers(r, s, k) && (!w || k->value < w->value))
			w = k;
	}
	return w;
}

bool detect_link_in_way(const struct detect_suspect *s, const struct detect_link *k)
{
	bool from, to;
	if (s->kind == DETECT_HOST) {
		from = s->rail ? k->a == s->rail_rank : k->host_a == s->host;
		to = s->rail ? k->b == s->rail_rank : k->host_b == s->host;
	} else if (s->kind == DETECT_LINK) {
		/* its way a -> b is from host_a (rank a) to host_b (rank b) */
		bool ab = s->between_hosts ? k->host_a == s->host_a && k->host_b == s->host_b
		                           : k->a == s->a && k->b == s->b;
		bool ba = s->between_hosts ? k->host_a == s->host_b && k->host_b == s->host_a
		                           : k->a == s->b && k->b == s->a;
		return (ab && s->direction != DETECT_DIR_BA) || (ba && s->direction != DETECT_DIR_AB);
	} else {
		return false;
	}
	return s->direction == DETECT_DIR_AB   ? from
	       : s->direction == DETECT_DIR_BA ? to
	                                       : from || to;
}

/* A pair of s other than its worst cell w (w may be NULL), counted once: as a -> b with a < b. */
static bool other_cell(const struct detect_result *r, const struct detect_suspect *s,
                       const struct detect_link *w, const struct detect_link *k)
{
	return k->a < k->b && covers(r, s, k) && !(w && same_pair(w, k));
}

int detect_remeasure_pairs(const struct detect_result *r, const struct detect_link *links, size_t n,
                           int nranks, int max_per_suspect, struct pair_set *pairs)
{
	int fresh = 0;
	for (int i = 0; i < r->nsuspects; i++) {
		const struct detect_suspect *s = &r->suspects[i];
		/* the shift pattern is measured again whole; a link of it also alone (alone.h) */
		if (s->loaded && s->kind != DETECT_LINK)
			continue;
		if (s->kind == DETECT_SEGMENT)
			continue; /* measured as the rounds did: retest.h plans its pairs */
		if (s->kind == DETECT_LINK && !s->between_hosts) {
			int m = mark(pairs, nranks, s->a, s->b);
			if (m < 0)
				return -1;
			fresh += m;
			continue;
		}
		/* its worst cell first, then the others evenly spaced */
		const struct detect_link *w = worst_cell(r, s, links, n);
		if (w) {
			bool up = w->a < w->b;
			int m = mark(pairs, nranks, up ? w->a : w->b, up ? w->b : w->a);
			if (m < 0)
				return -1;
			fresh += m;
		}
		/* both directions of a pair are one pair: count a -> b with a < b */
		size_t total = 0, seen = 0;
		for (size_t j = 0; j < n; j++)
			total += other_cell(r, s, w, &links[j]);
		size_t want = max_per_suspect > 0 && (size_t)max_per_suspect < total + !!w
		                  ? (size_t)max_per_suspect - !!w
		                  : total;
		for (size_t j = 0, taken = 0; j < n && taken < want; j++) {
			if (!other_cell(r, s, w, &links[j]))
				continue;
			/* the seen-th of total, evenly spaced: take it when it starts a new share */
			if (seen++ * want / total == taken) {
				int m = mark(pairs, nranks, links[j].a, links[j].b);
				if (m < 0)
					return -1;
				fresh += m;
				taken++;
			}
		}
	}
	return fresh;
}

/*
 * Sides b the cut of sides a (detect_same_segment): no host both name on the
 * other side, in this orientation, and a host of each side in common, so at
 * least one pair of hosts crosses both.
 */
static bool same_cut(const signed char *a, const signed char *b, int nhosts, bool mirrored)
{
	bool shared[2] = {false, false};
	for (int h = 0; h < nhosts; h++) {
		if (a[h] < 0 || b[h] < 0)
			continue;
		if (b[h] != (mirrored ? 1 - a[h] : a[h]))
			return false;
		shared[a[h] != 0] = true;
	}
	return shared[0] && shared[1];
}

bool detect_same_segment(const struct detect_result *x, const struct detect_suspect *sx,
                         const struct detect_result *y, const struct detect_suspect *sy)
{
	const signed char *a = detect_sides(x, sx), *b = detect_sides(y, sy);
	if (!a || !b || x->nhosts != y->nhosts)
		return false;
	return same_cut(a, b, x->nhosts, false) || same_cut(a, b, x->nhosts, true);
}

/*
 * Does s (of second) accuse again what a host suspect of the round before,
 * host, accused? A rank link by one of its hosts; a segment by a host on one
 * of its sides: the hosts of a small rack behind a slow uplink are each slow
 * with every host of the other rack, and a round may read them so (seed 11,
 * an uplink at 35%: the first pass named the small rack's two hosts, the
 * re-tests a segment). Not a host by a segment: a host read where a segment
 * stood would name a healthy host.
 */
static bool host_names_again(const struct detect_result *second, const struct detect_suspect *s,
                             int host)
{
	if (s->kind == DETECT_LINK && !s->between_hosts)
		return host == s->host_a || host == s->host_b;
	const signed char *sides = s->kind == DETECT_SEGMENT ? detect_sides(second, s) : NULL;
	return sides && host >= 0 && host < second->nhosts && sides[host] >= 0;
}

/*
 * Does segment s (of second) cross link f, a suspect of the round before (its
 * hosts on the two sides)? Pairs across an uplink are slow together only when
 * they cross it at once: a round of two pairs across a 50%-slow uplink read
 * those two as links, and the re-test, measuring the segment's pairs at once,
 * a segment (seed 11, under CPU load). Not a link by a segment: that would
 * name one pair where the path of many is slow.
 */
static bool crosses(const struct detect_result *second, const struct detect_suspect *s,
                    const struct detect_suspect *f)
{
	const signed char *sides = s->kind == DETECT_SEGMENT ? detect_sides(second, s) : NULL;
	return detect_sides_cross(sides, second->nhosts, f->host_a, f->host_b);
}

const struct detect_suspect *detect_accused_before(const struct detect_result *second,
                                                   const struct detect_suspect *s,
                                                   const struct detect_result *first)
{
	for (int i = 0; i < first->nsuspects; i++) {
		const struct detect_suspect *f = &first->suspects[i];
		if (f->metric != s->metric || f->locality != s->locality || f->kind != s->kind ||
		    f->loaded != s->loaded)
			continue;
		/* a rail of the host named before, or the host of a rail (rails.h): the
		   re-test narrows or widens where on the host, the host is slow again */
		if (s->kind == DETECT_HOST && f->host == s->host &&
		    (!f->rail || !s->rail || f->rail_rank == s->rail_rank))
			return f;
		if (s->kind == DETECT_SEGMENT && detect_same_segment(second, s, first, f))
			return f;
		if (s->kind == DETECT_LINK && f->between_hosts == s->between_hosts &&
		    ((f->a == s->a && f->b == s->b && f->host_a == s->host_a &&
		      f->host_b == s->host_b) ||
		     (s->direction == DETECT_DIR_BOTH && f->a == s->b && f->b == s->a &&
		      f->host_a == s->host_b && f->host_b == s->host_a)))
			return f;
	}
	for (int i = 0; i < first->nsuspects; i++) {
		const struct detect_suspect *f = &first->suspects[i];
		if (f->metric != s->metric || f->locality != s->locality || f->loaded != s->loaded)
			continue;
		if (f->kind == DETECT_HOST && host_names_again(second, s, f->host))
			return f;
		if (f->kind == DETECT_LINK && crosses(second, s, f))
			return f;
	}
	return NULL;
}

int detect_confirm(struct detect_result *second, const struct detect_result *first,
                   const struct pair_set *pairs)
{
	int confirmed = 0;
	for (int i = 0; i < second->nsuspects; i++) {
		struct detect_suspect *s = &second->suspects[i];
		const struct detect_suspect *f = detect_accused_before(second, s, first);
		bool rank_link = s->kind == DETECT_LINK && !s->between_hosts;
		s->confirmed = f && (!rank_link || pair_set_has(pairs, s->a, s->b));
		if (f) {
			s->first_measured = f->measured;
			s->first_ratio = f->ratio;
			s->first_score = f->score;
			s->retest_misses = f->retest_misses;
		}
		confirmed += s->confirmed;
	}
	return confirmed;
}

static const char *unit_of(enum detect_metric m)
{
	return m == DETECT_BANDWIDTH ? "GB/s" : "us";
}

int detect_describe(const struct detect_suspect *s, const char *const *host_names, char *buf,
                    size_t len)
{
	char host[64], got[32], want[32];
	const char *metric = detect_metric_name(s->metric), *unit = unit_of(s->metric);
	const char *loc = detect_locality_name(s->locality);
	/* fixed notation: a latency of 1234 us is no "1.23e+03" */
	report_fixed(got, sizeof got, s->measured, 0, 3);
	report_fixed(want, sizeof want, s->expected, 0, 3);
	if (s->kind == DETECT_SEGMENT || (s->kind == DETECT_LINK && s->between_hosts))
		return snprintf(buf, len,
		                "%s: %d of %d %s cells at %.2fx the reference (%s %s %s, reference "
		                "%s %s, z %+.1f)",
		                detect_kind_name(s->kind), s->links_suspect, s->links_total, loc,
		                s->ratio, metric, got, unit, want, unit, s->score);
	if (s->kind == DETECT_LINK || s->host < 0)
		return snprintf(buf, len, "%s %s %s is %.2fx the %s median %s %s (z %+.1f)", metric,
		                got, unit, s->ratio, loc, want, unit, s->score);
	if (host_names && host_names[s->host])
		snprintf(host, sizeof host, "%s", host_names[s->host]);
	else
		snprintf(host, sizeof host, "%d", s->host);
	if (s->by_majority)
		return snprintf(
		    buf, len,
		    "host %s: %d of %d %s links at %.2fx the median (%s %s %s, median "
		    "%s %s)",
		    host, s->links_suspect, s->links_total, loc, s->ratio, metric, got, unit, want,
		    unit);
	return snprintf(
	    buf, len,
	    "host %s: the median %s of its %d %s links, %s %s, is %.2fx the median of "
	    "the hosts, %s %s (z %+.1f; %d of its links suspect on their own)",
	    host, metric, s->links_total, loc, got, unit, s->ratio, want, unit, s->score,
	    s->links_suspect);
}
