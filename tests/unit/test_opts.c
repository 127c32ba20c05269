/*
 * The option tables (cmd/opts.h) and every command's: parsing in every
 * accepted form, every refusal named, defaults that agree with the modules
 * they configure, --help that lists every option with its default, the
 * config echo, and the checks that relate options to each other and to N.
 */
#include "reports/accept/accept_derive.h"
#include "cmd/accept_opts.h"
#include "cmd/allreduce_opts.h"
#include "reports/compare/compare_points.h"
#include "reports/diagnose/detect.h"
#include "cmd/links_opts.h"
#include "cmd/opts.h"
#include "cmd/scale_opts.h"
#include "algorithms/schedule.h"
#include "cmd/small_opts.h"
#include "cmd/verify_opts.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct cmd_spec *const specs[] = {
    &allreduce_spec, &scale_spec,   &links_spec,  &verify_spec, &topo_spec,
    &list_spec,      &compare_spec, &trend_spec,  &report_spec, &accept_cmd_spec};
enum { NSPECS = sizeof specs / sizeof specs[0] };

/* argv from a string of words (no quoting needed here); argv[0] is the command. */
struct argv {
	char buf[1024];
	char *v[64];
	int c;
};

static void split(struct argv *a, const char *cmd, const char *words)
{
	snprintf(a->buf, sizeof a->buf, "%s %s", cmd, words);
	a->c = 0;
	for (char *t = strtok(a->buf, " "); t && a->c < 63; t = strtok(NULL, " "))
		a->v[a->c++] = t;
	a->v[a->c] = NULL;
}

/* The options borrow from argv: it outlives the call (the next call replaces it). */
static enum opts_outcome parse(const struct cmd_spec *spec, const char *words, void *opts,
                               char *err, size_t len)
{
	static struct argv a;
	split(&a, spec->name, words);
	return opts_parse(spec, a.c, a.v, opts, err, len);
}

Test(opts, every_table_has_valid_defaults_and_help)
{
	char err[512];
	for (int i = 0; i < NSPECS; i++) {
		void *o = calloc(1, specs[i]->size);
		cr_assert(o);
		cr_expect_eq(opts_defaults(specs[i], o, err, sizeof err), EXIT_OK, "%s: %s",
		             specs[i]->name, err);
		char *help = opts_usage(specs[i]);
		cr_assert(help);
		cr_expect(strstr(help, "usage: "), "%s", specs[i]->name);
		cr_expect(strstr(help, "  -h, --help"), "%s", specs[i]->name);
		cr_expect(strstr(help, "exit codes"), "%s", specs[i]->name);
		/* every option is listed, and with its default when it has one */
		for (const struct opt_group *g = specs[i]->groups; g->opts; g++)
			for (size_t k = 0; k < g->count; k++) {
				char name[64], deflt[160];
				const struct opt *op = &g->opts[k];
				snprintf(name, sizeof name, "--%s", op->name);
				cr_expect(strstr(help, name), "%s --help lacks %s", specs[i]->name,
				          name);
				const char *shown = op->def_text ? op->def_text : op->def;
				if (!shown || !*shown)
					continue;
				snprintf(deflt, sizeof deflt, "default %s", shown);
				cr_expect(strstr(help, deflt), "%s --help lacks '%s'",
				          specs[i]->name, deflt);
			}
		free(help);
		free(o);
	}
}

Test(opts, no_two_options_share_a_name_or_letter)
{
	for (int i = 0; i < NSPECS; i++) {
		const struct opt *all[128];
		int n = 0;
		for (const struct opt_group *g = specs[i]->groups; g->opts; g++)
			for (size_t k = 0; k < g->count; k++)
				all[n++] = &g->opts[k];
		for (int a = 0; a < n; a++)
			for (int b = a + 1; b < n; b++) {
				cr_expect(strcmp(all[a]->name, all[b]->name) != 0, "%s: --%s twice",
				          specs[i]->name, all[a]->name);
				cr_expect(!all[a]->letter || all[a]->letter != all[b]->letter,
				          "%s: -%c twice", specs[i]->name, all[a]->letter);
				cr_expect(all[a]->letter != 'h', "%s: -h is --help",
				          specs[i]->name);
			}
	}
}

Test(opts, defaults_agree_with_the_modules)
{
	struct ar_opts a;
	struct links_opts l;
	struct compare_opts c;
	struct cmp_options cmp;
	struct detect_params d;
	char err[256];
	cr_assert_eq(parse(&allreduce_spec, "", &a, err, sizeof err), OPTS_RUN);
	cr_expect_eq(a.sweep.segment_bytes, SCHED_DEFAULT_SEGMENT_BYTES);
	cr_expect_eq(a.sweep.iters, 0);
	cr_expect(isnan(a.min_busbw_gbps));
	cr_expect_eq(a.timeout_s, 600);
	cr_assert_eq(parse(&links_spec, "", &l, err, sizeof err), OPTS_RUN);
	detect_params_default(&d);
	cr_expect_eq(memcmp(&l.detect, &d, sizeof d), 0, "the links table and detect disagree");
	cr_assert_eq(parse(&compare_spec, "a b", &c, err, sizeof err), OPTS_RUN);
	cmp_options_init(&cmp);
	cr_expect_eq(c.cmp.threshold_pct, cmp.threshold_pct);
	cr_expect_eq(c.cmp.alpha, cmp.alpha);
	cr_expect_eq(c.cmp.gate, cmp.gate);
	cr_expect_eq(c.cmp.untested_fails, cmp.untested_fails);
	cr_expect_eq(c.cmp.correction, cmp.correction);
	struct accept_opts ac;
	cr_assert_eq(parse(&accept_cmd_spec, "--check-spec s.json", &ac, err, sizeof err), OPTS_RUN,
	             "%s", err);
	cr_expect_eq(ac.tolerance_pct, ACCEPT_DEFAULT_TOLERANCE_PCT);
	struct trend_opts t;
	struct trend_options topt;
	cr_assert_eq(parse(&trend_spec, "a b c", &t, err, sizeof err), OPTS_RUN, "%s", err);
	trend_options_init(&topt);
	cr_expect_eq(memcmp(&t.trend, &topt, sizeof topt), 0, "the trend table and trend.c disagree");
}

Test(opts, every_form_of_a_value)
{
	struct ar_opts o;
	char err[256];
	const char *forms[] = {"--max-bytes 1M", "--max-bytes=1M", "-e 1M", "-e1M",
	                       "-q -e 1M",       "-qe 1M",         "-qe1M"};
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		cr_assert_eq(parse(&allreduce_spec, forms[i], &o, err, sizeof err), OPTS_RUN,
		             "%s: %s", forms[i], err);
		cr_expect_eq(o.sweep.max_bytes, 1u << 20, "%s", forms[i]);
	}
	cr_assert_eq(parse(&allreduce_spec, "-qe 1M", &o, err, sizeof err), OPTS_RUN);
	cr_expect(o.out.quiet);
}

Test(opts, the_last_of_a_repeated_option_wins)
{
	struct ar_opts o;
	char err[256];
	cr_assert_eq(parse(&allreduce_spec, "-a ring -a tree,mpi", &o, err, sizeof err), OPTS_RUN);
	cr_expect(!o.sweep.variants[ar_variant_index(ar_variant_find("ring"))]);
	cr_expect(o.sweep.variants[ar_variant_index(ar_variant_find("tree"))]);
	cr_expect(o.sweep.variants[ar_variant_index(ar_variant_find("mpi"))]);
}

/* issue 33: the guideline mock-ups are named, never implied by 'all' (the default) */
Test(opts, all_leaves_out_the_guideline_mock_ups)
{
	struct ar_opts o;
	struct verify_opts vo;
	char err[256];
	int guide = ar_variant_index(ar_variant_find("mpi-rs-allgather"));
	int bcast = ar_variant_index(ar_variant_find("mpi-reduce-bcast"));
	cr_assert(guide >= 0 && bcast >= 0);
	cr_assert_eq(parse(&allreduce_spec, "", &o, err, sizeof err), OPTS_RUN, "%s", err);
	cr_assert_eq(parse(&verify_spec, "", &vo, err, sizeof err), OPTS_RUN, "%s", err);
	/* nor the compressed variants (issue 40): inexact, they go by name too */
	for (int i = 0; ar_variants[i]; i++) {
		bool in_all = !ar_variants[i]->guideline && !ar_variants[i]->codec;
		cr_expect_eq(o.sweep.variants[i], in_all, "%s", ar_variants[i]->name);
		cr_expect_eq(vo.variants[i], in_all, "%s", ar_variants[i]->name);
	}
	cr_expect(!o.sweep.variants[guide] && !o.sweep.variants[bcast]);
	cr_expect(o.sweep.variants[ar_variant_index(ar_variant_find("mpi"))]);
	/* named, alone or beside 'all' in either order */
	cr_assert_eq(parse(&allreduce_spec, "-a mpi-rs-allgather,all", &o, err, sizeof err),
	             OPTS_RUN);
	cr_expect(o.sweep.variants[guide] && !o.sweep.variants[bcast]);
	cr_expect(o.sweep.variants[ar_variant_index(ar_variant_find("ring"))]);
	cr_assert_eq(parse(&verify_spec, "-a all,mpi-reduce-bcast", &vo, err, sizeof err),
	             OPTS_RUN);
	cr_expect(vo.variants[bcast] && !vo.variants[guide]);
	cr_assert_eq(parse(&allreduce_spec, "-a mpi-reduce-bcast", &o, err, sizeof err), OPTS_RUN);
	for (int i = 0; ar_variants[i]; i++)
		cr_expect_eq(o.sweep.variants[i], i == bcast, "%s", ar_variants[i]->name);
}

struct refusal {
	const struct cmd_spec *spec;
	const char *words;
	const char *says; /* must be in the message */
};

Test(opts, refusals_name_what_is_wrong)
{
	const struct refusal cases[] = {
	    {&allreduce_spec, "--bogus", "unknown option '--bogus'"},
	    {&allreduce_spec, "--bogus=3", "unknown option '--bogus'"},
	    {&allreduce_spec, "-Z", "unknown option '-Z'"},
	    {&allreduce_spec, "--iter 5", "unknown option '--iter'"}, /* no abbreviations */
	    {&allreduce_spec, "--max-bytes", "'--max-bytes' needs a value (SIZE)"},
	    {&allreduce_spec, "-e", "'-e' (--max-bytes) needs a value"},
	    {&allreduce_spec, "--force=yes", "'--force' takes no value"},
	    {&allreduce_spec, "stray", "unexpected argument 'stray'"},
	    {&allreduce_spec, "-e 8Gx", "bad value '8Gx' for --max-bytes: unknown suffix"},
	    {&allreduce_spec, "-n 0",
	     "bad value '0' for --iters: must be a whole number from 1 to 100000"},
	    {&allreduce_spec, "-f 1",
	     "bad value '1' for --step-factor: must be a number greater than 1"},
	    {&allreduce_spec, "--format xml", "bad value 'xml' for --format: must be table or csv"},
	    {&allreduce_spec, "-c 2", "bad value '2' for --check: must be 0 or 1"},
	    {&allreduce_spec, "--segment-bytes 2G", "must be from 1 to 1G bytes"},
	    {&allreduce_spec, "--sizes 8,8", "'8': given twice"},
	    {&allreduce_spec, "--sizes 8,,16", "empty item"},
	    {&allreduce_spec, "-b 1M -e 1K", "--min-bytes 1048576 is larger than --max-bytes 1024"},
	    {&allreduce_spec, "-b 1 -e 1T -f 1.001", "more than 1024 message sizes"},
	    {&allreduce_spec, "-d half", "unknown dtype 'half'"},
	    {&allreduce_spec, "-a ring,nosuch", "unknown algorithm 'nosuch'"},
	    {&allreduce_spec, "--timeout -1", "bad value '-1' for --timeout"},
	    {&scale_spec, "--grad-bytes 1M", "--grad-bytes needs --compute-ms"},
	    {&scale_spec, "--overlap 0.5", "--overlap needs --compute-ms"},
	    {&scale_spec, "--compute-ms 10 --overlap 1.5", "must be a fraction from 0 to 1"},
	    {&scale_spec, "-b 2", "--min-bytes 2 is less than one float32 element"},
	    {&scale_spec, "--ranks 1,,2", "empty item"},
	    {&scale_spec, "--sizes 2,8", "the size 2 is less than one float32 element"},
	    {&scale_spec, "--sizes 8,6", "the size 6 is not a whole number of float32 elements (4 bytes): give 4 or 8"},
	    {&scale_spec, "--extrapolate 1",
	     "bad value '1' in --extrapolate '1': each must be a whole number from 2 to 65536"},
	    {&scale_spec, "--ranks 1,x", "bad value 'x' in --ranks '1,x'"},
	    {&links_spec, "--tolerance 1", "between 0 and 1, exclusive"},
	    {&links_spec, "--test-slow-link 0:0:2", "bad value '0:0:2' for --test-slow-link"},
	    {&links_spec, "--mode sideways", "must be concurrent or isolated"},
	    {&verify_spec, "--counts 1e30", "bad value '1e30' for --counts"},
	    {&compare_spec, "a.json", "expected at least 2 reports (BASELINE and CURRENT; --paired"},
	    {&compare_spec, "a b c", "3 reports given: BASELINE and CURRENT, or with --paired"},
	    {&compare_spec, "--paired a b c d e", "5 reports given, an odd count"},
	    {&compare_spec, "--metric speed a b", "expected p50, p99, busbw"},
	    {&compare_spec, "--untested maybe a b", "expected pass or fail"},
	    {&report_spec, "a.json", "-o FILE is required"},
	    {&report_spec, "-o x.html", "expected at least 1 report to render, got 0"},
	    {&list_spec, "extra", "unexpected argument 'extra'"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char err[512];
		void *o = calloc(1, cases[i].spec->size);
		cr_assert(o);
		cr_expect_eq(parse(cases[i].spec, cases[i].words, o, err, sizeof err), OPTS_ERROR,
		             "%s %s was accepted", cases[i].spec->name, cases[i].words);
		cr_expect(strstr(err, cases[i].says), "%s %s: '%s' lacks '%s'", cases[i].spec->name,
		          cases[i].words, err, cases[i].says);
		cr_expect_eq(strncmp(err, cases[i].spec->name, strlen(cases[i].spec->name)), 0,
		             "'%s' does not start with the command", err);
		free(o);
	}
}

Test(opts, help_wins_and_double_dash_ends_options)
{
	struct compare_opts o;
	char err[256];
	cr_expect_eq(parse(&compare_spec, "--bogus --help", &o, err, sizeof err), OPTS_HELP);
	cr_expect_eq(parse(&compare_spec, "-h", &o, err, sizeof err), OPTS_HELP);
	cr_assert_eq(parse(&compare_spec, "-- -a.json --help", &o, err, sizeof err), OPTS_RUN, "%s",
	             err);
	cr_expect_str_eq(o.files.items[0], "-a.json");
	cr_expect_str_eq(o.files.items[1], "--help");
}

Test(opts, options_and_arguments_interleave)
{
	struct compare_opts o;
	char err[256];
	cr_assert_eq(parse(&compare_spec, "a.json --threshold 5 b.json -q", &o, err, sizeof err),
	             OPTS_RUN, "%s", err);
	cr_expect_str_eq(o.files.items[0], "a.json");
	cr_expect_str_eq(o.files.items[1], "b.json");
	cr_expect_eq(o.cmp.threshold_pct, 5);
	cr_expect(o.out.quiet);
}

/* The report records the command line as given: a list option must not be cut at its commas. */
Test(opts, argv_is_left_whole)
{
	char a0[] = "allreduce", a1[] = "-a", a2[] = "ring,tree", a3[] = "--sizes", a4[] = "8,1K";
	char *argv[] = {a0, a1, a2, a3, a4, NULL};
	struct ar_opts o;
	char err[256];
	cr_assert_eq(opts_parse(&allreduce_spec, 5, argv, &o, err, sizeof err), OPTS_RUN, "%s",
	             err);
	cr_expect_str_eq(argv[2], "ring,tree");
	cr_expect_str_eq(argv[4], "8,1K");
}

Test(opts, sweep_sizes)
{
	struct ar_opts o;
	char err[256];
	cr_assert_eq(parse(&allreduce_spec, "-b 8 -e 64", &o, err, sizeof err), OPTS_RUN);
	cr_assert_eq(o.sweep.nsizes, 4);
	cr_expect_eq(o.sweep.sizes[3], 64);
	cr_assert_eq(parse(&allreduce_spec, "-b 8 -e 30 -f 1.5", &o, err, sizeof err), OPTS_RUN);
	uint64_t want[] = {8, 12, 18, 27};
	cr_assert_eq(o.sweep.nsizes, 4);
	for (int i = 0; i < 4; i++)
		cr_expect_eq(o.sweep.sizes[i], want[i]);
	cr_assert_eq(parse(&allreduce_spec, "--sizes 1M,8,64K", &o, err, sizeof err), OPTS_RUN);
	cr_assert_eq(o.sweep.nsizes, 3);
	cr_expect_eq(o.sweep.sizes[0], 8);
	cr_expect_eq(o.sweep.sizes[2], 1u << 20);
	cr_expect_eq(o.sweep.min_bytes, 8);
	cr_expect_eq(o.sweep.max_bytes, 1u << 20);
	cr_assert_eq(parse(&allreduce_spec, "", &o, err, sizeof err), OPTS_RUN);
	cr_expect_eq(o.sweep.nsizes, 24); /* 8 B .. 64 MiB by 2 */
	/* up to the largest byte count: 2^3 .. 2^63, no wrap past 2^64 */
	cr_assert_eq(parse(&allreduce_spec, "-e 18446744073709551615", &o, err, sizeof err), OPTS_RUN,
	             "%s", err);
	cr_expect_eq(o.sweep.nsizes, 61);
	cr_expect_eq(o.sweep.sizes[60], (uint64_t)1 << 63);
}

Test(opts, scale_sizes_are_whole_elements_with_the_gradient)
{
	struct scale_opts o;
	char err[256];
	cr_assert_eq(parse(&scale_spec, "-b 10 -e 1K", &o, err, sizeof err), OPTS_RUN, "%s", err);
	cr_assert_eq(o.sweep.nsizes, 2);
	cr_expect_eq(o.sweep.sizes[0], 8);
	cr_expect_eq(o.sweep.sizes[1], 1024);
	cr_expect_eq(o.overlap, 0);
	cr_assert_eq(
	    parse(&scale_spec, "-b 8 -e 1K --compute-ms 5 --grad-bytes 100", &o, err, sizeof err),
	    OPTS_RUN, "%s", err);
	cr_assert_eq(o.sweep.nsizes, 3);
	cr_expect_eq(o.sweep.sizes[1], 100);
	cr_expect_eq(o.grad_bytes, 100);
	cr_assert_eq(parse(&scale_spec, "--compute-ms 5", &o, err, sizeof err), OPTS_RUN);
	cr_expect_eq(o.grad_bytes, 64u << 20, "the gradient defaults to -e");
}

Test(opts, checks_that_need_the_rank_count)
{
	struct scale_opts s;
	struct links_opts l;
	struct verify_opts v;
	char err[256];
	cr_assert_eq(parse(&scale_spec, "", &s, err, sizeof err), OPTS_RUN);
	cr_assert_eq(scale_spec.check_world(&s, 5, err, sizeof err), EXIT_OK);
	cr_assert_eq(s.nranks, 3);
	cr_expect_eq(s.ranks[0], 2);
	cr_expect_eq(s.ranks[1], 4);
	cr_expect_eq(s.ranks[2], 5);
	cr_assert_eq(parse(&scale_spec, "--ranks 4,2,4", &s, err, sizeof err), OPTS_RUN);
	cr_assert_eq(scale_spec.check_world(&s, 4, err, sizeof err), EXIT_OK);
	cr_expect_eq(s.nranks, 2);
	cr_expect_eq(scale_spec.check_world(&s, 3, err, sizeof err), EXIT_USAGE);
	cr_expect(strstr(err, "bad value '4' in --ranks '4,2,4'") && strstr(err, "3 ranks"), "%s",
	          err);
	cr_assert_eq(parse(&links_spec, "--test-slow-link 0:3:2", &l, err, sizeof err), OPTS_RUN);
	cr_expect_eq(links_spec.check_world(&l, 4, err, sizeof err), EXIT_OK);
	cr_expect_eq(links_spec.check_world(&l, 3, err, sizeof err), EXIT_USAGE);
	cr_assert_eq(parse(&verify_spec, "", &v, err, sizeof err), OPTS_RUN);
	cr_assert_eq(verify_spec.check_world(&v, 1, err, sizeof err), EXIT_OK);
	size_t want[] = {0, 1, 2, 1031, 65539, VERIFY_BIG_COUNT}; /* n-1 and n repeat 0 and 1 */
	cr_assert_eq(v.ncounts, 6);
	for (int i = 0; i < 6; i++)
		cr_expect_eq(v.counts[i], want[i]);
}

Test(opts, config_echo)
{
	struct ar_opts o;
	char err[256];
	cr_assert_eq(parse(&allreduce_spec, "-a ring,mpi -n 20 -o r.json", &o, err, sizeof err),
	             OPTS_RUN, "%s", err);
	cJSON *root = cJSON_CreateObject();
	cJSON *cfg = opts_to_json(root, &allreduce_spec, &o);
	cr_assert(cfg);
	cJSON *algos = cJSON_GetObjectItem(cfg, "algorithms");
	cr_assert_eq(cJSON_GetArraySize(algos), 2);
	cr_expect_str_eq(cJSON_GetArrayItem(algos, 0)->valuestring, "ring");
	cr_expect_eq(cJSON_GetObjectItem(cfg, "iters")->valuedouble, 20);
	cr_expect_eq(cJSON_GetObjectItem(cfg, "max_bytes")->valuedouble, 64 << 20);
	cr_expect_str_eq(cJSON_GetObjectItem(cfg, "dtype")->valuestring, "float32");
	cr_expect_str_eq(cJSON_GetObjectItem(cfg, "format")->valuestring, "table");
	cr_expect(cJSON_IsNull(cJSON_GetObjectItem(cfg, "min_busbw_gbps")));
	cr_expect_str_eq(cJSON_GetObjectItem(cfg, "output")->valuestring, "r.json");
	cr_expect(cJSON_IsFalse(cJSON_GetObjectItem(cfg, "force")));
	cr_expect_eq(cJSON_GetObjectItem(cfg, "timeout_s")->valuedouble, 600);
	cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(cfg, "sizes_bytes")), 24);
	cr_expect_eq(cJSON_GetObjectItem(cfg, "adaptive_max_iters")->valuedouble, 1000);
	cJSON_Delete(root);
	cr_assert_eq(parse(&allreduce_spec, "", &o, err, sizeof err), OPTS_RUN);
	root = cJSON_CreateObject();
	cfg = opts_to_json(root, &allreduce_spec, &o);
	cr_expect_str_eq(cJSON_GetObjectItem(cfg, "iters")->valuestring, "adaptive");
	cr_expect(cJSON_IsNull(cJSON_GetObjectItem(cfg, "output")));
	cJSON_Delete(root);
}

/* links --pattern and --budget: auto screens where that halves the rounds; durations in s, m, h. */
Test(opts, links_pattern_and_budget)
{
	struct links_opts l;
	char err[256];
	int host[64];
	cr_assert_eq(parse(&links_spec, "", &l, err, sizeof err), OPTS_RUN);
	cr_expect(l.pattern & LINKS_AUTO && l.budget_s == 0 && !l.planning.only);
	for (int r = 0; r < 64; r++)
		host[r] = r / 8;
	cr_expect_eq(links_pattern_for(l.pattern, 64, 8, host), LINKS_PAIRS | LINKS_SCREEN,
	             "8 hosts x 8: 12 rounds against 63");
	cr_expect_eq(links_pattern_for(l.pattern, 8, 1, host), LINKS_PAIRS, "one host");
	for (int r = 0; r < 16; r++)
		host[r] = r;
	cr_expect_eq(links_pattern_for(l.pattern, 4, 4, host), LINKS_PAIRS,
	             "4 hosts: 3 rounds either way");
	cr_expect_eq(links_pattern_for(l.pattern, 12, 12, host), LINKS_PAIRS,
	             "12 hosts: 6 > 11 / 2");
	cr_expect_eq(links_pattern_for(l.pattern, 16, 16, host), LINKS_PAIRS | LINKS_SCREEN,
	             "16 hosts: 6 rounds against 15");
	cr_expect_eq(links_pattern_for(LINKS_PAIRS, 16, 16, host), LINKS_PAIRS, "asked: kept");
	cr_assert_eq(parse(&links_spec, "--pattern screen --budget 15m", &l, err, sizeof err),
	             OPTS_RUN);
	cr_expect_eq(l.pattern, LINKS_PAIRS | LINKS_SCREEN);
	cr_expect_str_eq(links_pattern_name(l.pattern), "screen");
	cr_expect_float_eq(l.budget_s, 900, 1e-9);
	cr_assert_eq(parse(&links_spec, "--budget 2h", &l, err, sizeof err), OPTS_RUN);
	cr_expect_float_eq(l.budget_s, 7200, 1e-9);
	cr_assert_eq(parse(&links_spec, "--budget 90", &l, err, sizeof err), OPTS_RUN);
	cr_expect_float_eq(l.budget_s, 90, 1e-9);
	cr_expect_eq(parse(&links_spec, "--budget 1d", &l, err, sizeof err), OPTS_ERROR);
	cr_expect(strstr(err, "'1d'"), "%s", err);
	cr_expect_eq(parse(&links_spec, "--budget -5", &l, err, sizeof err), OPTS_ERROR);
	cr_expect_eq(parse(&links_spec, "--hosts 4", &l, err, sizeof err), OPTS_ERROR);
	cr_expect(strstr(err, "--plan-only"), "%s", err);
	cr_assert_eq(
	    parse(&links_spec, "--plan-only --hosts 4 --ranks-per-host 2", &l, err, sizeof err),
	    OPTS_RUN);
	cr_expect(!links_needs_mpi(&l));
	cr_assert_eq(parse(&links_spec, "--plan-only", &l, err, sizeof err), OPTS_RUN);
	cr_expect(links_needs_mpi(&l), "the job's own hosts: under mpirun");
}
