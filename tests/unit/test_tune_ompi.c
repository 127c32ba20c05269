/*
 * The Open MPI rules file (reports/tune/rules_ompi.h) against the classic
 * grammar as Open MPI 4.1 reads it (ompi/mca/coll/tuned/
 * coll_tuned_dynamic_file.c and ompi_coll_base_file_getnext_long in
 * coll_base_util.c, v4.1.0-v4.1.8): the reader below takes numbers the way
 * Open MPI does, with fscanf("%li") and a '#' skipped to the end of its line,
 * checks what Open MPI checks and what its look-up assumes, then looks rules
 * up as ompi_coll_tuned_get_com_rule_ptr and
 * ompi_coll_tuned_get_target_method_params do. Round trip: every choice comes
 * back from the file.
 */
#include "reports/tune/rules_ompi.h"

#include <criterion/criterion.h>
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COMM  16
#define MAX_RULES 32

struct msg_rule {
	long bytes, alg, topo, segsize;
};
struct comm_rule {
	long size;
	long n;
	struct msg_rule rule[MAX_RULES];
};
struct table {
	long ncomm;
	struct comm_rule comm[MAX_COMM];
};

/* As ompi_coll_base_file_getnext_long: a number, or skip a char ('#': its line). */
static int getnext(FILE *f, long *v)
{
	for (;;) {
		int rc = fscanf(f, "%li", v);
		if (rc == EOF)
			return -1;
		if (rc == 1)
			return 0;
		int ch = fgetc(f);
		if (ch == EOF)
			return -1;
		if (ch == '#')
			while ((ch = fgetc(f)) != EOF && ch != '\n')
				;
	}
}

static const char *read_rules(struct comm_rule *cr, FILE *f)
{
	for (long m = 0; m < cr->n; m++) {
		struct msg_rule *r = &cr->rule[m];
		if (getnext(f, &r->bytes) || getnext(f, &r->alg) || getnext(f, &r->topo) ||
		    getnext(f, &r->segsize))
			return "a rule lacks one of its 4 numbers";
		if (r->bytes < 0 || r->alg < 0 || r->topo != 0 || r->segsize != 0)
			return "a rule has a negative size or alg, or a topo or segsize not 0";
		if (m == 0 && r->bytes != 0)
			return "the first rule is not at message size 0";
		if (m > 0 && r->bytes <= cr->rule[m - 1].bytes)
			return "message sizes are not ascending";
	}
	return NULL;
}

/* Parses text as Open MPI 4.1 does; NULL, or what is wrong. */
static const char *parse(const char *text, struct table *t)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	unsigned version = 0;
	long ncoll, id, extra;
	const char *bad = NULL;

	cr_assert_not_null(f);
	/* v4.1.8 looks for a version line first; a file without one is version 1. */
	if (fscanf(f, "rule-file-version-%u", &version) != 0)
		bad = "a rule-file-version line (Open MPI before 5.0.7 cannot read it)";
	else if (getnext(f, &ncoll) || ncoll != 1 || getnext(f, &id) || id != 2)
		bad = "not 1 collective of id 2 (allreduce)";
	else if (getnext(f, &t->ncomm) || t->ncomm < 1 || t->ncomm > MAX_COMM)
		bad = "no count of communicator sizes";
	for (long i = 0; !bad && i < t->ncomm; i++) {
		struct comm_rule *cr = &t->comm[i];
		if (getnext(f, &cr->size) || getnext(f, &cr->n) || cr->n < 1 || cr->n > MAX_RULES)
			bad = "a communicator size without its count of rules";
		else if (i > 0 && cr->size <= t->comm[i - 1].size)
			bad = "communicator sizes are not ascending";
		else
			bad = read_rules(cr, f);
	}
	if (!bad && getnext(f, &extra) == 0)
		bad = "numbers after the last rule";
	fclose(f);
	return bad;
}

/* Outside comments only plain decimal numbers: no sign, no 0x, no octal 010. */
static const char *lexical(const char *text)
{
	for (const char *p = text; *p;) {
		if (*p == '#') {
			p += strcspn(p, "\n");
		} else if (isspace((unsigned char)*p)) {
			p++;
		} else {
			size_t k = strspn(p, "0123456789");
			if (k == 0 || (k > 1 && *p == '0') ||
			    (p[k] && !isspace((unsigned char)p[k])))
				return p;
			p += k;
		}
	}
	return NULL;
}

/* As Open MPI looks up: the last comm size <= size (the first one when none is), then the
 * last rule at <= bytes. */
static long lookup(const struct table *t, long size, long bytes)
{
	const struct comm_rule *c = &t->comm[0];
	for (long i = 0; i < t->ncomm && t->comm[i].size <= size; i++)
		c = &t->comm[i];
	const struct msg_rule *r = &c->rule[0];
	for (long m = 0; m < c->n && c->rule[m].bytes <= bytes; m++)
		r = &c->rule[m];
	return r->alg;
}

static char *format(const struct tune_choice *c, size_t n, const char *const *lines)
{
	char err[256] = "";
	long len = rules_ompi_format(NULL, 0, c, n, lines, err, sizeof(err));
	cr_assert_geq(len, 0, "%s", err);
	char *buf = malloc((size_t)len + 1);
	cr_assert_eq(rules_ompi_format(buf, (size_t)len + 1, c, n, lines, err, sizeof(err)), len);
	cr_assert_eq(strlen(buf), (size_t)len);
	return buf;
}

static struct tune_choice ch(int ranks, uint64_t bytes, int alg, const char *name)
{
	return (struct tune_choice){.ranks = ranks, .bytes = bytes, .alg = alg, .alg_name = name};
}

#define CH(r, b, a, name)                                                                          \
	{                                                                                          \
		.ranks = (r), .bytes = (b), .alg = (a), .alg_name = (name)                         \
	}

/* Three rank counts, four sizes, in no order; 8 ranks all default. */
static const struct tune_choice sample[] = {
    CH(4, 1024, 3, "recursive_doubling"),
    CH(2, 8, 0, "ignore"),
    CH(8, 8, 0, "ignore"),
    CH(2, 1024, 4, "ring"),
    CH(4, 8, 3, "recursive_doubling"),
    CH(2, 65536, 4, "ring"),
    CH(4, 65536, 6, "rabenseifner"),
    CH(2, 1 << 20, 0, "ignore"),
    CH(4, 1 << 20, 6, "rabenseifner"),
    CH(8, 1 << 20, 0, "ignore"),
};
#define NSAMPLE (sizeof(sample) / sizeof(sample[0]))

Test(rules_ompi, grammar_and_round_trip)
{
	char *text = format(sample, NSAMPLE, NULL);
	struct table t;
	const char *bad = parse(text, &t);

	cr_assert_null(bad, "%s in:\n%s", bad, text);
	cr_assert_null(lexical(text), "not a plain number at '%.20s'", lexical(text));
	/* The guard at 0, then 2, 4 and 8 ranks. */
	cr_assert_eq(t.ncomm, 4);
	cr_assert(t.comm[0].size == 0 && t.comm[0].n == 1 && t.comm[0].rule[0].alg == 0);
	cr_assert(t.comm[1].size == 2 && t.comm[2].size == 4 && t.comm[3].size == 8);
	/* 2 ranks: 0 | ring from 1024 | 0 from 1 MiB. */
	cr_assert_eq(t.comm[1].n, 3);
	cr_assert(t.comm[1].rule[1].bytes == 1024 && t.comm[1].rule[1].alg == 4);
	cr_assert(t.comm[1].rule[2].bytes == 1 << 20 && t.comm[1].rule[2].alg == 0);
	/* 4 ranks: 0 | rd from 8 | rabenseifner from 65536 | 0 past 1 MiB; 8 ranks: one rule. */
	cr_assert(t.comm[2].n == 4 && t.comm[2].rule[0].alg == 0 &&
	          t.comm[2].rule[1].bytes == 8 && t.comm[2].rule[1].alg == 3 &&
	          t.comm[2].rule[2].bytes == 65536 && t.comm[2].rule[2].alg == 6 &&
	          t.comm[2].rule[3].bytes == (1 << 20) + 1 && t.comm[2].rule[3].alg == 0);
	cr_assert_eq(t.comm[3].n, 1);

	for (size_t i = 0; i < NSAMPLE; i++) {
		const struct tune_choice *c = &sample[i];
		cr_assert_eq(lookup(&t, c->ranks, (long)c->bytes), c->alg, "%d ranks, %lu bytes",
		             c->ranks, (unsigned long)c->bytes);
		/* Up to the next size measured (the largest: itself alone), and up to
		 * the next rank count. */
		if (c->bytes < 1 << 20)
			cr_assert_eq(lookup(&t, c->ranks, (long)c->bytes + 1), c->alg);
		cr_assert_eq(lookup(&t, c->ranks + 1, (long)c->bytes), c->alg);
	}
	cr_assert_eq(lookup(&t, 4, 0), 0, "below the smallest size: the library's");
	cr_assert_eq(lookup(&t, 4, 7), 0);
	cr_assert_eq(lookup(&t, 4, (1 << 20) + 1), 0, "past the largest size: the library's");
	cr_assert_eq(lookup(&t, 4, 1023), 3);
	cr_assert_eq(lookup(&t, 2, 1023), 0);
	cr_assert_eq(lookup(&t, 1, 1024), 0, "below the smallest rank count: the library's");
	cr_assert_eq(lookup(&t, 1000, 1024), 0, "past the largest: the largest's");
	free(text);
}

Test(rules_ompi, comments_header_and_names)
{
	const char *lines[] = {"measured 2025-01-01 on node[1-4], Open MPI 4.1.4",
	                       "p50 of 100 iterations", NULL};
	char *text = format(sample, NSAMPLE, lines);
	struct table t;

	cr_assert_null(parse(text, &t));
	cr_assert(strncmp(text, "# Open MPI coll_tuned dynamic rules", 35) == 0);
	cr_assert_not_null(strstr(text, "\n# measured 2025-01-01 on node[1-4], Open MPI 4.1.4\n"));
	cr_assert_not_null(strstr(text, "\n# p50 of 100 iterations\n"));
	cr_assert_not_null(strstr(text, "\n1024 4 0 0 # ring\n"));
	cr_assert_not_null(strstr(text, "\n0 0 0 0 # the library decides\n"));
	cr_assert_null(strstr(text, "rule-file-version"));
	free(text);
}

/* The FILE * writer writes what the buffer one formats. */
Test(rules_ompi, file_equals_buffer)
{
	char *text = format(sample, NSAMPLE, NULL);
	char *mem = NULL;
	size_t memlen = 0;
	FILE *f = open_memstream(&mem, &memlen);
	char err[128];

	cr_assert_eq(rules_ompi_write(f, sample, NSAMPLE, NULL, err, sizeof(err)), 0, "%s", err);
	fclose(f);
	cr_assert_str_eq(mem, text);
	free(mem);
	free(text);
}

Test(rules_ompi, short_buffer_cut_and_terminated)
{
	char small[40];
	char err[128];
	long len = rules_ompi_format(small, sizeof(small), sample, NSAMPLE, NULL, err, sizeof(err));

	cr_assert_gt(len, (long)sizeof(small));
	cr_assert_eq(strlen(small), sizeof(small) - 1);
}

/* One rank count, one size: the guard, and the choice at that size alone. */
Test(rules_ompi, single_point)
{
	struct tune_choice one[] = {ch(16, 4096, 5, "segmented_ring")};
	char *text = format(one, 1, NULL);
	struct table t;

	cr_assert_null(parse(text, &t));
	cr_assert(t.ncomm == 2 && t.comm[1].size == 16 && t.comm[1].n == 3);
	cr_assert(t.comm[1].rule[0].bytes == 0 && t.comm[1].rule[0].alg == 0);
	cr_assert(t.comm[1].rule[1].bytes == 4096 && t.comm[1].rule[1].alg == 5);
	cr_assert(t.comm[1].rule[2].bytes == 4097 && t.comm[1].rule[2].alg == 0);
	free(text);
}

static void expect_error(const struct tune_choice *c, size_t n, const char *const *lines,
                         const char *want)
{
	char buf[64];
	char err[256] = "";

	cr_assert_eq(rules_ompi_format(buf, sizeof(buf), c, n, lines, err, sizeof(err)), -1);
	cr_assert(strstr(err, want), "error '%s' lacks '%s'", err, want);
}

Test(rules_ompi, errors_named)
{
	struct tune_choice huge[] = {ch(2, (uint64_t)LONG_MAX + 1, 4, "ring")};
	struct tune_choice dup[] = {ch(2, 8, 4, "ring"), ch(2, 8, 0, "ignore")};
	struct tune_choice bad[] = {ch(0, 8, 4, "ring")};
	struct tune_choice nl[] = {ch(2, 8, 4, "ri\nng")};
	const char *lines[] = {"two\nlines", NULL};

	expect_error(sample, 0, NULL, "no choice");
	expect_error(huge, 1, NULL, "9223372036854775808 bytes is past Open MPI's long");
	expect_error(dup, 2, NULL, "two choices at 2 ranks, 8 bytes");
	expect_error(bad, 1, NULL, "choice 0 has 0 ranks");
	expect_error(nl, 1, NULL, "holds a newline");
	expect_error(sample, NSAMPLE, lines, "comment line 0 holds a newline");
}

/* The reader is strict enough to fail what Open MPI 4.1 would refuse or misread. */
Test(rules_ompi, reader_refuses_what_open_mpi_would)
{
	struct table t;

	cr_assert_not_null(parse("rule-file-version-2\n1 2 1 4 1 0 4 0 0 0\n", &t));
	cr_assert_not_null(parse("1 2 1 4 1 8 4 0 0\n", &t));             /* first rule not at 0 */
	cr_assert_not_null(parse("1 2 1 4 2 0 4 0 0 64 3 0\n", &t));      /* a rule cut short */
	cr_assert_not_null(parse("1 2 2 4 1 0 4 0 0 2 1 0 4 0 0\n", &t)); /* sizes descending */
	cr_assert_null(parse("# c\n1 # n\n2\n1\n4 1 0 4 0 0 # ring\n", &t));
	cr_assert_not_null(lexical("1 2 010\n"));
}
