/*
 * The scale model (reports/model/scale_model.h) on synthetic measurements: times made
 * from known alpha and beta on the ring's own schedule terms are fitted back,
 * predictions appear at the extrapolated counts and are marked, and the
 * step model finds the sweet spot where the measurements put it.
 */
#include "reports/io/ar_report.h"
#include "algorithms/cost.h"
#include "cmd/exit_codes.h"
#include "cmd/scale_opts.h"
#include "reports/model/scale_model.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const double ALPHA_US = 2.0, BETA_US_PER_BYTE = 1e-3; /* 2 us a message, 1 GB/s */

/* The options of `scale -a ring -b 8 -e 1M --ranks 2,4,8 [--compute-ms MS]`, checked. */
static void options(struct scale_opts *o, const char *compute_ms)
{
	char cmd[] = "scale", a[] = "-a", ring[] = "ring", b[] = "-b", eight[] = "8", e[] = "-e",
	     mib[] = "1M", r[] = "--ranks", counts[] = "2,4,8", x[] = "--extrapolate",
	     big[] = "64,1024", c[] = "--compute-ms", ms[32];
	char *argv[16] = {cmd, a, ring, b, eight, e, mib, r, counts, x, big};
	int argc = 11;
	char err[256];
	if (compute_ms) {
		snprintf(ms, sizeof ms, "%s", compute_ms);
		argv[argc++] = c;
		argv[argc++] = ms;
	}
	cr_assert_eq(opts_parse(&scale_spec, argc, argv, o, err, sizeof err), OPTS_RUN, "%s", err);
	cr_assert_eq(scale_spec.check_world(o, 8, err, sizeof err), EXIT_OK, "%s", err);
}

/* The models on the options' view, as cmd/scale.c runs them. */
static int run_model(const struct scale_opts *o, int world, struct scale_results *res, cJSON *root)
{
	struct scale_model_in in = scale_model_input(o);
	return scale_model_run(&in, world, res, root);
}

/* One measured row per (size, ranks), timed exactly by the model. */
static void measure(const struct scale_opts *o, struct scale_results *res, cJSON *results)
{
	int ring = ar_variant_index(ar_variant_find("ring"));
	for (int k = 0; k < o->nranks; k++)
		for (int i = 0; i < o->sweep.nsizes; i++) {
			uint64_t bytes = o->sweep.sizes[i];
			struct cost_path p;
			cr_assert_eq(cost_walk(ar_variants[ring], o->ranks[k], bytes / 4, 4,
			                       o->sweep.segment_bytes, 0, &p),
			             0);
			double t =
			    ALPHA_US * (double)p.messages + BETA_US_PER_BYTE * (double)p.bytes;
			struct scale_entry e = {.variant = ring, .count = bytes / 4};
			e.row = (struct scale_row){.algorithm = "ring",
			                           .bytes = bytes,
			                           .ranks = o->ranks[k],
			                           .hosts = 1,
			                           .p50_us = t,
			                           .p99_us = t,
			                           .busbw_gbps = ar_algbw_gbps(bytes, t) *
			                                         ar_busbw_factor(o->ranks[k])};
			e.rec = cJSON_CreateObject();
			cJSON_AddItemToArray(results, e.rec);
			cr_assert(scale_results_add(res, &e));
			res->measured[ring]++;
		}
}

/*
 * `scale -a ring -b 8 -e 1M --ranks 2,4,8 --compute-ms 1 --compress-ratio R --cast-gbps 10
 * --extrapolate 64` (the default's larger counts cost seconds of schedules here)
 */
static void options_compressed(struct scale_opts *o, const char *ratio)
{
	char cmd[] = "scale", a[] = "-a", ring[] = "ring", b[] = "-b", eight[] = "8", e[] = "-e",
	     mib[] = "1M", r[] = "--ranks", counts[] = "2,4,8", c[] = "--compute-ms", ms[] = "1",
	     cr[] = "--compress-ratio", rv[16], cg[] = "--cast-gbps", gv[] = "10",
	     x[] = "--extrapolate", sixty_four[] = "64";
	snprintf(rv, sizeof rv, "%s", ratio);
	char *argv[] = {cmd, a, ring, b, eight, e, mib, r, counts, c, ms, cr, rv, cg, gv, x, sixty_four};
	char err[256];
	cr_assert_eq(opts_parse(&scale_spec, 17, argv, o, err, sizeof err), OPTS_RUN, "%s", err);
	cr_assert_eq(scale_spec.check_world(o, 8, err, sizeof err), EXIT_OK, "%s", err);
}

/* Each measured row's compressed Tar with the ratio given, checked against its p50 and bytes. */
static void check_compressed_tar(const char *ratio)
{
	struct scale_opts o;
	struct scale_results res = {0};
	options_compressed(&o, ratio);
	cJSON *root = cJSON_CreateObject();
	measure(&o, &res, cJSON_AddArrayToObject(root, "results"));
	cr_assert_eq(run_model(&o, 8, &res, root), EXIT_OK);
	int rows = 0;
	for (size_t i = 0; i < res.n; i++) {
		const struct scale_row *w = &res.e[i].row;
		cJSON *c = cJSON_GetObjectItem(res.e[i].rec, "compressed");
		if (w->predicted || w->ranks < 2 || w->bytes != 1 << 20)
			continue; /* the step is the gradient's: 1 MiB here */
		cr_assert(c, "%d ranks: no compressed step", w->ranks);
		double tar = cJSON_GetObjectItem(c, "tar_us")->valuedouble;
		double cast = 2.0 * (double)w->bytes / 10e3; /* encode and decode at 10 GB/s */
		if (strcmp(ratio, "1") == 0) /* nothing saved: the row's own Tar plus the casts */
			cr_expect_float_eq(tar, w->p50_us + cast, 1e-9 * tar, "%g vs %g", tar,
			                   w->p50_us + cast);
		else /* between every byte a quarter (messages free) and nothing saved */
			cr_expect(tar >= w->p50_us / 4 + cast - 1e-9 && tar <= w->p50_us + cast + 1e-9,
			          "%d ranks, %llu bytes: %g outside [%g, %g]", w->ranks,
			          (unsigned long long)w->bytes, tar, w->p50_us / 4 + cast,
			          w->p50_us + cast);
		rows++;
	}
	cr_expect_eq(rows, 3, "the gradient's row at 2, 4 and 8 ranks");
	cJSON_Delete(root);
	scale_results_release(&res);
}

Test(scale_model, a_compressed_step_scales_the_rows_tar_and_adds_the_casts)
{
	check_compressed_tar("1");
	check_compressed_tar("4");
}

Test(scale_model, fits_back_the_times_it_was_given)
{
	struct scale_opts o;
	struct scale_results res = {0};
	int ring = ar_variant_index(ar_variant_find("ring"));
	options(&o, NULL);
	cJSON *root = cJSON_CreateObject();
	measure(&o, &res, cJSON_AddArrayToObject(root, "results"));
	cr_assert_eq(run_model(&o, 8, &res, root), EXIT_OK);
	cr_assert(res.fitted[ring]);
	cr_expect_float_eq(res.fit[ring].alpha_us, ALPHA_US, 1e-6);
	/* ring: reduced bytes are half its bytes; gamma folds into beta (degenerate) */
	double beta = res.fit[ring].beta_us_per_byte + 0.5 * res.fit[ring].gamma_us_per_byte;
	cr_expect_float_eq(beta, BETA_US_PER_BYTE, 1e-9);
	cr_expect_lt(res.fit[ring].max_error, 1e-6);
	cr_expect_eq(res.warning[0], '\0');
	/* every measured row is kept; a prediction for each size at 64 and 1024 ranks */
	int predicted = 0;
	for (size_t i = 0; i < res.n; i++)
		if (res.e[i].row.predicted) {
			predicted++;
			cr_expect(res.e[i].row.ranks == 64 || res.e[i].row.ranks == 1024);
			cr_expect_eq(res.e[i].row.hosts, -1);
			cr_expect(isnan(res.e[i].row.p99_us), "a prediction has no p99");
		}
	cr_expect_eq(predicted, 2 * 2);
	cJSON *sum = cJSON_GetObjectItem(root, "summary");
	cr_assert(sum);
	cr_expect_str_eq(cJSON_GetObjectItem(sum, "verdict")->valuestring, "ok");
	cr_expect(cJSON_IsNull(cJSON_GetObjectItem(sum, "step_model")));
	cJSON_Delete(root);
	scale_results_release(&res);
}

Test(scale_model, the_sweet_spot_of_a_step)
{
	struct scale_opts o;
	struct scale_results res = {0};
	int ring = ar_variant_index(ar_variant_find("ring"));
	/* 1 ms of compute against a 1 MiB gradient: strong scaling peaks at a few ranks */
	options(&o, "1");
	cJSON *root = cJSON_CreateObject();
	measure(&o, &res, cJSON_AddArrayToObject(root, "results"));
	cr_assert_eq(run_model(&o, 8, &res, root), EXIT_OK);
	const struct scale_sweet *m = &res.sweet_measured[ring][0], *p = &res.sweet_model[ring][0];
	cr_assert(m->found && p->found);
	/* speedup Tc / (Tc/n + Tar(n)) with Tar(n) ~ 2 MiB x 1 ns: the peak is at 2 ranks of 2, 4,
	 * 8 */
	cr_expect_eq(m->ranks, 2, "measured sweet spot at %d", m->ranks);
	cr_expect(!p->at_edge, "the model's peak is inside its grid");
	cr_expect_lt(p->speedup, 2.0);
	cJSON *step = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "summary"), "step_model");
	cr_expect_eq(cJSON_GetObjectItem(step, "grad_bytes")->valuedouble, 1 << 20);
	cJSON_Delete(root);
	scale_results_release(&res);
}

Test(scale_model, a_wrong_point_is_the_verdict)
{
	struct scale_opts o;
	struct scale_results res = {0};
	options(&o, NULL);
	cJSON *root = cJSON_CreateObject();
	measure(&o, &res, cJSON_AddArrayToObject(root, "results"));
	res.wrong[ar_variant_index(ar_variant_find("ring"))] = 3;
	cr_expect_eq(run_model(&o, 8, &res, root), EXIT_WRONG);
	cJSON *sum = cJSON_GetObjectItem(root, "summary");
	cr_expect_str_eq(cJSON_GetObjectItem(sum, "verdict")->valuestring, "wrong results");
	cr_expect_eq(cJSON_GetObjectItem(sum, "wrong_total")->valuedouble, 3);
	cJSON_Delete(root);
	scale_results_release(&res);
}

/*
 * --collective reduce_scatter: the model walks the half's own schedule
 * (ring's reduce-scatter, half of its all-reduce), fits it back exactly,
 * predicts busbw with the half's factor (n-1)/n, and models mpi with a
 * shape that runs at any count (the ring's: Rabenseifner's halves need a
 * power of two).
 */
Test(scale_model, a_half_is_modelled_on_its_own_schedule)
{
	char cmd[] = "scale", a[] = "-a", which[] = "ring,mpi", b[] = "-b", eight[] = "8",
	     e[] = "-e", mib[] = "1M", r[] = "--ranks", counts[] = "2,4,8", x[] = "--extrapolate",
	     big[] = "64", c[] = "--collective", rs[] = "reduce_scatter";
	char *argv[] = {cmd, a, which, b, eight, e, mib, r, counts, x, big, c, rs};
	char err[256];
	struct scale_opts o;
	struct scale_results res = {0};
	cr_assert_eq(opts_parse(&scale_spec, 13, argv, &o, err, sizeof err), OPTS_RUN, "%s", err);
	cr_assert_eq(scale_spec.check_world(&o, 8, err, sizeof err), EXIT_OK, "%s", err);
	int ring = ar_variant_index(ar_variant_find("ring"));
	int mpi = ar_variant_index(ar_variant_find("mpi"));
	cJSON *root = cJSON_CreateObject(), *results = cJSON_AddArrayToObject(root, "results");
	for (int k = 0; k < o.nranks; k++)
		for (int i = 0; i < o.sweep.nsizes; i++)
			for (int v = 0; v < 2; v++) {
				uint64_t bytes = o.sweep.sizes[i];
				struct cost_path p;
				cr_assert_eq(cost_walk_collective(ar_variants[ring], AR_REDUCE_SCATTER,
				                                  o.ranks[k], bytes / 4, 4,
				                                  o.sweep.segment_bytes, 0, &p),
				             0);
				/* the half of the ring's all-reduce: half its messages and bytes */
				struct cost_path whole;
				cr_assert_eq(cost_walk(ar_variants[ring], o.ranks[k], bytes / 4, 4,
				                       o.sweep.segment_bytes, 0, &whole),
				             0);
				if (bytes / 4 >= (uint64_t)o.ranks[k]) { /* else empty chunks */
					cr_assert_eq(2 * p.messages, whole.messages, "%d ranks, %llu B",
					             o.ranks[k], (unsigned long long)bytes);
					cr_assert_eq(2 * p.bytes, whole.bytes);
				}
				double t = ALPHA_US * (double)p.messages + BETA_US_PER_BYTE * (double)p.bytes;
				struct scale_entry en = {.variant = v ? mpi : ring, .count = bytes / 4};
				en.row = (struct scale_row){.algorithm = v ? "mpi" : "ring",
				                            .bytes = bytes,
				                            .ranks = o.ranks[k],
				                            .hosts = 1,
				                            .p50_us = t,
				                            .p99_us = t};
				en.rec = cJSON_CreateObject();
				cJSON_AddItemToArray(results, en.rec);
				cr_assert(scale_results_add(&res, &en));
				res.measured[en.variant]++;
			}
	cr_assert_eq(run_model(&o, 8, &res, root), EXIT_OK);
	cr_assert(res.fitted[ring] && res.fitted[mpi]);
	cr_expect_eq(res.shape[mpi], ring, "mpi's halves borrow the ring's shape");
	cr_expect_float_eq(res.fit[ring].alpha_us, ALPHA_US, 1e-6);
	cr_expect_lt(res.fit[ring].max_error, 1e-6);
	for (size_t i = 0; i < res.n; i++) {
		const struct scale_row *row = &res.e[i].row;
		if (!row->predicted)
			continue;
		double f = (double)(row->ranks - 1) / row->ranks;
		cr_expect_float_eq(row->busbw_gbps, ar_algbw_gbps(row->bytes, row->p50_us) * f, 1e-9);
	}
	int collective_named = 0;
	const cJSON *rec;
	cJSON_ArrayForEach(rec, results)
	{
		const cJSON *cn = cJSON_GetObjectItemCaseSensitive(rec, "collective");
		collective_named += cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rec, "predicted")) &&
		                    cn && strcmp(cn->valuestring, "reduce_scatter") == 0;
	}
	int predicted = 0;
	for (size_t i = 0; i < res.n; i++)
		predicted += res.e[i].row.predicted;
	cr_expect_eq(predicted, 2 * 2, "%d", predicted);
	cr_expect_eq(collective_named, predicted, "every prediction names its collective");
	cJSON_Delete(root);
	scale_results_release(&res);
}
