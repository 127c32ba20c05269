/*
 * The analysis of links on synthetic jobs (reports/diagnose/synth.c): the
 * detector, then the classifier on the host x host matrix, as links judges a
 * pass, find each fault class with its culprit and direction, and nothing on
 * a healthy job; with every pair measured and with the screening's pairs
 * only. Small jobs here; tests/bench/scale_analysis.c runs 1,024 and 4,096 hosts.
 */
#include "reports/diagnose/classify.h"
#include "reports/diagnose/synth.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdlib.h>

/* detect_run on both metrics, classify_hosts on the bandwidth matrix, classify_reconcile. */
static void analyze(const struct synth_job *j, struct detect_result *r)
{
	struct detect_params p;
	detect_params_default(&p);
	detect_result_init(r);
	struct detect_link *bw = NULL, *lat = NULL;
	size_t nbw = 0, nlat = 0;
	cr_assert_eq(synth_links(j, DETECT_BANDWIDTH, &bw, &nbw), 0);
	cr_assert_eq(synth_links(j, DETECT_LATENCY, &lat, &nlat), 0);
	cr_assert_eq(nbw, nlat);
	cr_assert_eq(detect_run(bw, nbw, j->nhosts, DETECT_BANDWIDTH, &p, r), 0);
	cr_assert_eq(detect_run(lat, nlat, j->nhosts, DETECT_LATENCY, &p, r), 0);
	double *cells = malloc((size_t)j->nhosts * (size_t)j->nhosts * sizeof *cells);
	cr_assert(cells);
	synth_host_matrix(bw, nbw, j->nhosts, cells);
	int from = r->nsuspects;
	cr_assert_eq(classify_hosts(cells, j->nhosts, &p, false, r, NULL), 0);
	classify_reconcile(r, from);
	free(cells);
	free(bw);
	free(lat);
}

struct synth_case {
	enum synth_fault fault;
	bool all_pairs;
};

ParameterizedTestParameters(synth, each_class_is_found)
{
	static struct synth_case cases[2 * SYNTH_FAULTS];
	for (int f = 0; f < SYNTH_FAULTS; f++) {
		cases[2 * f] = (struct synth_case){(enum synth_fault)f, true};
		cases[2 * f + 1] = (struct synth_case){(enum synth_fault)f, false};
	}
	return cr_make_param_array(struct synth_case, cases, 2 * SYNTH_FAULTS);
}

ParameterizedTest(struct synth_case *c, synth, each_class_is_found)
{
	struct synth_job j = {.nhosts = 24,
	                      .fault = c->fault,
	                      .culprit = 5,
	                      .slow_factor = 0.2,
	                      .all_pairs = c->all_pairs,
	                      .seed = 3};
	struct detect_result r;
	analyze(&j, &r);
	const char *what = synth_fault_names[c->fault];
	if (c->fault == SYNTH_HEALTHY) {
		cr_assert_eq(r.nsuspects, 0, "healthy (%s): %d suspects", c->all_pairs ? "all" : "screening",
		             r.nsuspects);
		detect_result_release(&r);
		return;
	}
	cr_assert_eq(r.nsuspects, 1, "%s (%s pairs): %d suspects, the first a %s", what,
	             c->all_pairs ? "all" : "screening", r.nsuspects,
	             r.nsuspects ? detect_kind_name(r.suspects[0].kind) : "-");
	const struct detect_suspect *s = &r.suspects[0];
	switch (c->fault) {
	case SYNTH_HOST_SEND:
	case SYNTH_HOST_RECEIVE:
		cr_assert_eq(s->kind, DETECT_HOST, "%s", what);
		cr_assert_eq(s->host, 5);
		cr_assert_eq(s->direction, c->fault == SYNTH_HOST_SEND ? DETECT_DIR_AB : DETECT_DIR_BA);
		break;
	case SYNTH_LINK_ONE_WAY:
		/* 5 -> 4: host_a is the lower host, so the slow way is b -> a */
		cr_assert_eq(s->kind, DETECT_LINK);
		cr_assert(s->between_hosts);
		cr_assert_eq(s->host_a, 4);
		cr_assert_eq(s->host_b, 5);
		cr_assert_eq(s->direction, DETECT_DIR_BA);
		break;
	case SYNTH_SEGMENT: {
		cr_assert_eq(s->kind, DETECT_SEGMENT);
		cr_assert_eq(s->direction, DETECT_DIR_BOTH);
		const signed char *sides = detect_sides(&r, s);
		cr_assert(sides);
		for (int h = 0; h < 24; h++)
			cr_assert_eq(sides[h], h < 12 ? 0 : 1, "host %d on side %d", h, sides[h]);
		break;
	}
	default:
		break;
	}
	cr_assert(s->ratio < 0.5, "%s: ratio %.2f", what, s->ratio);
	detect_result_release(&r);
}

Test(synth, screening_measures_n_log_n_pairs_both_ways)
{
	struct synth_job j = {.nhosts = 1000, .culprit = 0, .slow_factor = 1, .seed = 1};
	struct detect_link *v = NULL;
	size_t n = 0;
	cr_assert_eq(synth_links(&j, DETECT_BANDWIDTH, &v, &n), 0);
	/* 10 doubling rounds (some partners past 999) and 3 shifts: at most 13 partners a host */
	cr_assert(n <= 1000 * 13 * 2 && n >= 1000 * 6, "%zu pairs", n);
	int *out = calloc(1000, sizeof *out);
	for (size_t i = 0; i < n; i++) {
		out[v[i].a]++;
		cr_assert(i == 0 || v[i - 1].a < v[i].a || v[i - 1].b < v[i].b, "sorted, unique");
	}
	for (int h = 0; h < 1000; h++)
		cr_assert(out[h] >= 3, "host %d has %d partners", h, out[h]);
	free(out);
	free(v);
	j.culprit = 1000;
	cr_assert_eq(synth_links(&j, DETECT_BANDWIDTH, &v, &n), -1, "a culprit out of range");
}
