/*
 * The MPICH selection file (reports/tune/rules_mpich.h) against MPICH 4.0.2's
 * grammar (src/mpi/coll/src/csel.c: the keys parse_json_tree accepts, the
 * failure paths validate_tree demands; csel_container.c: a leaf object holds
 * its algorithm alone). The walker below checks every key of the file
 * against that grammar, and the evaluator searches the tree as
 * MPIR_Csel_search does: the keys of an object in order, the first that
 * holds taken, no way back. Round trip: for a sweep of communicator sizes,
 * message sizes, ops and hierarchies, the algorithm the file selects is the
 * choice measured there, behind MPICH's restrictions, or MPICH 4.0's own.
 */
#include "reports/tune/rules_mpich.h"

#include <criterion/criterion.h>
#include <limits.h>
#include <regex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define RD    "MPIR_Allreduce_intra_recursive_doubling"
#define RSA   "MPIR_Allreduce_intra_reduce_scatter_allgather"
#define SMP   "MPIR_Allreduce_intra_smp"
#define NB    "MPIR_Allreduce_allcomm_nb"
#define INTER "MPIR_Allreduce_inter_reduce_exchange_bcast"

/* Every key csel.c (MPICH 4.0.2) accepts in the MPIR-level file. */
static const char key_grammar[] =
    "^(collective=[a-z_]+|comm_type=(intra|inter)"
    "|comm_size(=pow2|=node_comm_size|=any|<=[0-9]+|<[0-9]+)"
    "|(avg_msg_size|total_msg_size)(=any|<=[0-9]+|<[0-9]+)|count(<=[0-9]+|<pow2|=any)"
    "|is_(multi_threaded|commutative|sendbuf_inplace|op_built_in|block_regular|node_consecutive)"
    "=(yes|no)"
    "|comm_avg_ppn<=[0-9]+|comm_hierarchy=(parent|node_roots|node|flat|any)"
    "|algorithm=MPIR_[A-Za-z0-9_]+)$";

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);
	return n >= k && strcmp(s + n - k, tail) == 0;
}

/* validate_tree: an "any" has no failure path (it is last); these need one (not last). */
static bool is_any(const char *k)
{
	return ends_with(k, "=any") && strncmp(k, "comm_hierarchy", 14) != 0;
}
static bool needs_failure(const char *k)
{
	return strstr(k, "<") || strcmp(k, "comm_size=pow2") == 0 ||
	       strcmp(k, "comm_size=node_comm_size") == 0;
}

static const char *fail_at(const char **why, const char *what, const char *key)
{
	*why = what;
	return key;
}

/* Walks o; NULL, or the first key that breaks the grammar (with why in *why). */
static const char *walk(const cJSON *o, const regex_t *re, const char **why)
{
	for (const cJSON *m = o->child; m; m = m->next) {
		const char *k = m->string;
		const char *num = strpbrk(k, "0123456789");
		if (regexec(re, k, 0, NULL, 0) != 0)
			return fail_at(why, "not in the grammar", k);
		if (!cJSON_IsObject(m))
			return fail_at(why, "its value is not an object", k);
		if (num && strchr(k, '<') && strtoull(num, NULL, 10) > INT_MAX)
			return fail_at(why, "past atoi's int", k);
		if (is_any(k) && m->next)
			return fail_at(why, "an =any key that is not last", k);
		if (needs_failure(k) && !m->next)
			return fail_at(why, "no key after it (validate_tree wants a failure path)",
			               k);
		if (strncmp(k, "algorithm=", 10) == 0) {
			if (m->child || m != o->child || m->next)
				return fail_at(
				    why, "an algorithm not alone in its object, or not a {}", k);
			continue;
		}
		const char *bad = walk(m, re, why);
		if (bad)
			return bad;
	}
	return NULL;
}

static void check_grammar(const cJSON *root)
{
	regex_t re;
	const char *why = NULL;

	cr_assert_eq(regcomp(&re, key_grammar, REG_EXTENDED | REG_NOSUB), 0);
	for (const cJSON *m = root->child; m; m = m->next)
		cr_assert(strncmp(m->string, "collective=", 11) == 0, "top-level key '%s'",
		          m->string);
	const char *bad = walk(root, &re, &why);
	regfree(&re);
	cr_assert_null(bad, "key '%s': %s", bad, why);
}

/* What MPIR_Csel_search sees of an MPI_Allreduce call. */
struct sig {
	int size;
	unsigned long long bytes, count;
	bool commutative, builtin, parent;
};

static int pof2(int n)
{
	int p = 1;
	while (p * 2 <= n)
		p *= 2;
	return p;
}

static bool holds(const char *k, const struct sig *s)
{
	unsigned long long v;

	if (strcmp(k, "collective=allreduce") == 0 || strcmp(k, "comm_type=intra") == 0)
		return true;
	if (strncmp(k, "collective=", 11) == 0 || strcmp(k, "comm_type=inter") == 0)
		return false;
	if (ends_with(k, "=any"))
		return true; /* comm_size, avg_msg_size, count, comm_hierarchy */
	if (sscanf(k, "comm_size<=%llu", &v) == 1)
		return (unsigned long long)s->size <= v;
	if (sscanf(k, "avg_msg_size<=%llu", &v) == 1)
		return s->bytes <= v;
	if (strcmp(k, "count<pow2") == 0)
		return s->count < (unsigned long long)pof2(s->size);
	if (strncmp(k, "is_commutative=", 15) == 0)
		return s->commutative == (strcmp(k + 15, "yes") == 0);
	if (strncmp(k, "is_op_built_in=", 15) == 0)
		return s->builtin == (strcmp(k + 15, "yes") == 0);
	if (strcmp(k, "comm_hierarchy=parent") == 0)
		return s->parent;
	cr_assert_fail("the evaluator does not know key '%s'", k);
	return false;
}

/* As MPIR_Csel_search: the first key that holds, then its subtree; NULL when none does. */
static const char *search(const cJSON *o, const struct sig *s)
{
	for (const cJSON *m = o->child; m; m = m->next) {
		if (strncmp(m->string, "algorithm=", 10) == 0)
			return m->string + 10;
		if (holds(m->string, s))
			return search(m, s);
	}
	return NULL;
}

/* MPICH 4.0.2's own decision (maint/tuning/coll/mpir/generic.json), written out by hand. */
static const char *mpich_default(const struct sig *s)
{
	if (s->bytes == 0)
		return s->commutative ? SMP : RD;
	if (s->bytes <= 8 || !s->builtin)
		return RD;
	return s->count < (unsigned long long)pof2(s->size) ? RD : RSA;
}

#define CH(r, b, a, name)                                                                          \
	{                                                                                          \
		.ranks = (r), .bytes = (b), .alg = (a), .alg_name = (name)                         \
	}

/* 4 and 8 ranks measured (8 all default); the MPIR_CVAR names. */
static const struct tune_choice sample[] = {
    CH(4, 8, 0, "auto"),
    CH(4, 1024, 2, "reduce_scatter_allgather"),
    CH(4, 65536, 3, "nb"),
    CH(4, 1 << 20, 4, "smp"),
    CH(4, 4 << 20, 1, "recursive_doubling"),
    CH(8, 8, 0, "auto"),
    CH(8, 65536, 0, "auto"),
    CH(2, 16, 3, "nb"),
};
#define NSAMPLE (sizeof(sample) / sizeof(sample[0]))

/* The choice measured at the largest rank count and size <= s, as the file means it. */
static const char *intended(const struct tune_choice *c, size_t n, const struct sig *s)
{
	const struct tune_choice *best = NULL, *largest = NULL;
	int ranks = 0;

	for (size_t i = 0; i < n; i++)
		if (c[i].ranks <= s->size && c[i].ranks > ranks)
			ranks = c[i].ranks;
	if (ranks == 0)
		return mpich_default(s); /* below the smallest rank count measured */
	for (size_t i = 0; i < n; i++) {
		if (c[i].ranks != ranks)
			continue;
		if (!largest || c[i].bytes > largest->bytes)
			largest = &c[i];
		if (c[i].bytes <= s->bytes && (!best || c[i].bytes > best->bytes))
			best = &c[i];
	}
	/* below the smallest size measured and above the largest: MPICH's own */
	if (!best || s->bytes > largest->bytes || best->alg == 0)
		return mpich_default(s);
	const char *name = rules_mpich_container(best->alg_name);
	if (strcmp(name, RSA) == 0 &&
	    !(s->builtin && s->count >= (unsigned long long)pof2(s->size)))
		return mpich_default(s);
	if (strcmp(name, SMP) == 0 && !(s->commutative && s->parent))
		return mpich_default(s);
	return name;
}

static cJSON *build(const struct tune_choice *c, size_t n, const cJSON *base)
{
	cJSON *root = cJSON_CreateObject();
	char err[256] = "";

	cr_assert_eq(rules_mpich_build(root, c, n, base, err, sizeof(err)), 0, "%s", err);
	return root;
}

Test(rules_mpich, grammar_and_round_trip)
{
	static const unsigned long long sizes[] = {0,
	                                           1,
	                                           7,
	                                           8,
	                                           9,
	                                           15,
	                                           16,
	                                           17,
	                                           1023,
	                                           1024,
	                                           1025,
	                                           65535,
	                                           65536,
	                                           65537,
	                                           (1 << 20) - 1,
	                                           1 << 20,
	                                           (4 << 20) - 1,
	                                           4 << 20,
	                                           1ULL << 30};
	cJSON *root = build(sample, NSAMPLE, NULL);
	int checked = 0;

	check_grammar(root);
	cr_assert_str_eq(root->child->string, "collective=allreduce");
	for (int size = 1; size <= 17; size++)
		for (size_t b = 0; b < sizeof(sizes) / sizeof(sizes[0]); b++)
			for (int flags = 0; flags < 8; flags++) {
				struct sig s = {.size = size,
				                .bytes = sizes[b],
				                .count = sizes[b] / 4,
				                .commutative = flags & 1,
				                .builtin = flags & 2,
				                .parent = flags & 4};
				const char *got = search(root, &s);
				const char *want = intended(sample, NSAMPLE, &s);
				cr_assert_not_null(got, "no algorithm at %d ranks, %llu bytes",
				                   size, s.bytes);
				cr_assert_str_eq(got, want, "%d ranks, %llu bytes, flags %d", size,
				                 s.bytes, flags);
				checked++;
			}
	cr_assert_eq(checked, 17 * 19 * 8);
	cJSON_Delete(root);
}

/* The spot checks behind the sweep, for a reader of the test. */
Test(rules_mpich, chosen_where_measured)
{
	cJSON *root = build(sample, NSAMPLE, NULL);
	struct sig s = {.size = 4,
	                .bytes = 65536,
	                .count = 16384,
	                .commutative = true,
	                .builtin = true,
	                .parent = true};

	cr_assert_str_eq(search(root, &s), NB);
	s.bytes = 1024;
	s.count = 256;
	cr_assert_str_eq(search(root, &s), RSA);
	s.builtin = false; /* reduce_scatter_allgather needs a built-in op: MPICH's own */
	cr_assert_str_eq(search(root, &s), RD);
	s.builtin = true;
	s.bytes = 2 << 20;
	s.count = 1 << 19;
	cr_assert_str_eq(search(root, &s), SMP);
	s.parent = false; /* smp needs a parent communicator */
	cr_assert_str_eq(search(root, &s), RSA);
	s.size = 3; /* 2 ranks' table: nb where it was measured, 16 bytes */
	s.bytes = 16;
	s.count = 4;
	cr_assert_str_eq(search(root, &s), NB);
	s.bytes = 2 << 20; /* MPICH's own above it */
	s.count = 1 << 19;
	cr_assert_str_eq(search(root, &s), mpich_default(&s));
	s.bytes = 15; /* and below it */
	s.count = 3;
	cr_assert_str_eq(search(root, &s), mpich_default(&s));
	s.size = 1; /* below 2 ranks: MPICH's */
	s.bytes = 16;
	s.count = 4;
	cr_assert_str_eq(search(root, &s), mpich_default(&s));
	cJSON_Delete(root);
}

Test(rules_mpich, inter_communicators_keep_mpich_s_algorithm)
{
	cJSON *root = build(sample, NSAMPLE, NULL);
	const cJSON *inter = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(root, "collective=allreduce"), "comm_type=inter");

	cr_assert_not_null(inter);
	cr_assert_str_eq(inter->child->string, "algorithm=" INTER);
	cJSON_Delete(root);
}

/* One rank count measured from 1 rank: no "below" entry; MPICH's below and above the size. */
Test(rules_mpich, single_count_from_one_rank)
{
	const struct tune_choice one[] = {CH(1, 8, 1, "recursive_doubling")};
	cJSON *root = build(one, 1, NULL);
	const cJSON *intra = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(root, "collective=allreduce"), "comm_type=intra");

	check_grammar(root);
	cr_assert_eq(cJSON_GetArraySize(intra), 1);
	cr_assert_str_eq(intra->child->string, "comm_size=any");
	cr_assert_eq(cJSON_GetArraySize(intra->child), 3);
	cr_assert_str_eq(intra->child->child->string, "avg_msg_size<=7");
	cr_assert_str_eq(intra->child->child->next->string, "avg_msg_size<=8");
	cr_assert_str_eq(intra->child->child->next->next->string, "avg_msg_size=any");
	cJSON_Delete(root);
}

/* The base's other collectives follow, in its order; its allreduce is replaced. */
Test(rules_mpich, base_collectives_kept)
{
	cJSON *base = cJSON_Parse(
	    "{\"collective=bcast\": {\"comm_type=intra\": "
	    "{\"algorithm=MPIR_Bcast_intra_binomial\": {}}},"
	    " \"collective = allreduce\": {\"comm_type=intra\": {\"algorithm=" RD "\": {}}},"
	    " \"collective=barrier\": {\"comm_type=intra\": {\"comm_size=any\":"
	    " {\"algorithm=MPIR_Barrier_intra_dissemination\": {}}}}}");
	cJSON *root = build(sample, NSAMPLE, base);
	const char *want[] = {"collective=allreduce", "collective=bcast", "collective=barrier"};
	size_t i = 0;

	check_grammar(root);
	for (const cJSON *m = root->child; m; m = m->next, i++) {
		cr_assert_lt(i, 3);
		cr_assert_str_eq(m->string, want[i]);
	}
	cr_assert_eq(i, 3);
	cr_assert(cJSON_Compare(cJSON_GetObjectItemCaseSensitive(root, "collective=bcast"),
	                        cJSON_GetObjectItemCaseSensitive(base, "collective=bcast"), true));
	cr_assert(cJSON_Compare(cJSON_GetObjectItemCaseSensitive(root, "collective=barrier"),
	                        cJSON_GetObjectItemCaseSensitive(base, "collective=barrier"),
	                        true));
	cJSON_Delete(root);
	cJSON_Delete(base);
}

static void expect_error(const struct tune_choice *c, size_t n, const char *base_text,
                         const char *want)
{
	cJSON *base = base_text ? cJSON_Parse(base_text) : NULL;
	cJSON *root = cJSON_CreateObject();
	char err[256] = "";

	cr_assert(!base_text || base);
	cr_assert_eq(rules_mpich_build(root, c, n, base, err, sizeof(err)), -1);
	cr_assert(strstr(err, want), "error '%s' lacks '%s'", err, want);
	cJSON_Delete(root);
	cJSON_Delete(base);
}

Test(rules_mpich, errors_named)
{
	const struct tune_choice ring[] = {CH(4, 8, 7, "ring")};
	const struct tune_choice huge[] = {CH(4, 8, 1, "recursive_doubling"),
	                                   CH(4, 1ULL << 31, 3, "nb"),
	                                   CH(4, (1ULL << 31) + 1, 1, "recursive_doubling")};
	const struct tune_choice fits[] = {CH(4, 8, 1, "recursive_doubling"),
	                                   CH(4, (1ULL << 31) - 1, 3, "nb")};
	const struct tune_choice dup[] = {CH(4, 8, 1, "recursive_doubling"), CH(4, 8, 3, "nb")};
	cJSON *root = cJSON_CreateObject();
	char err[256];

	expect_error(ring, 1, NULL, "algorithm 'ring' is not one MPICH 4.0 knows");
	expect_error(huge, 3, NULL, "message size 2147483649 bytes is past MPICH's int");
	expect_error(dup, 2, NULL, "two choices at 4 ranks, 8 bytes");
	expect_error(sample, 0, NULL, "no choice");
	expect_error(sample, NSAMPLE, "{\"bcast\": {}}",
	             "the base's key 'bcast' is not a collective=");
	expect_error(sample, NSAMPLE, "{\"collective=bcast\": 1}",
	             "'collective=bcast' is not an object");
	expect_error(sample, NSAMPLE, "[1]", "the base is not a JSON object");
	/* 2^31 - 1 is the largest bound atoi reads: a choice measured there fits. */
	cr_assert_eq(rules_mpich_build(root, fits, 2, NULL, err, sizeof(err)), 0, "%s", err);
	cJSON_Delete(root);
}

Test(rules_mpich, text_parses_back)
{
	cJSON *root = build(sample, NSAMPLE, NULL);
	char *text = rules_mpich_text(root);
	cJSON *back = cJSON_Parse(text);
	char *mem = NULL;
	size_t memlen = 0;
	FILE *f = open_memstream(&mem, &memlen);
	char err[128];

	cr_assert(ends_with(text, "}\n"));
	cr_assert(cJSON_Compare(root, back, true));
	cr_assert_eq(rules_mpich_write(f, root, err, sizeof(err)), 0, "%s", err);
	fclose(f);
	cr_assert_str_eq(mem, text);
	free(mem);
	cJSON_Delete(back);
	free(text);
	cJSON_Delete(root);
}

/* A text of exactly a page gets a second newline: MPICH would find no NUL in its mapping. */
Test(rules_mpich, never_a_whole_page)
{
	cJSON *root = cJSON_CreateObject();
	cr_assert_not_null(cJSON_AddObjectToObject(root, "k"));
	char *text = rules_mpich_text(root);
	size_t other = strlen(text) - 1; /* all but the key's one character */
	char key[8192];

	free(text);
	cJSON_Delete(root);
	memset(key, 'k', 4096 - other);
	key[4096 - other] = '\0';
	root = cJSON_CreateObject();
	cr_assert_not_null(cJSON_AddObjectToObject(root, key));
	text = rules_mpich_text(root);
	cr_assert_eq(strlen(text), 4097);
	cr_assert(ends_with(text, "}\n\n"));
	free(text);
	cJSON_Delete(root);
}

Test(rules_mpich, containers_of_mpich_4_0)
{
	cr_assert_str_eq(rules_mpich_container("recursive_doubling"), RD);
	cr_assert_str_eq(rules_mpich_container("reduce_scatter_allgather"), RSA);
	cr_assert_str_eq(rules_mpich_container("smp"), SMP);
	cr_assert_str_eq(rules_mpich_container("nb"), NB);
	cr_assert_null(rules_mpich_container("ring"));
	cr_assert_null(rules_mpich_container("auto"));
	cr_assert_null(rules_mpich_container(NULL));
}

/* A library image: junk, the ch4 tree, the MPIR tree, the POSIX tree, NUL-separated. */
static const char mpir_tree[] =
    "{\n    \"collective=bcast\": {\"comm_type=intra\": {\"algorithm=MPIR_Bcast_intra_binomial\": "
    "{}}},"
    "\"collective=allreduce\": {\"comm_type=intra\": {\"algorithm=" RD "\": {}}}}";
static const char ch4_tree[] =
    "{ \"collective=bcast\": {\"composition=MPIDI_Bcast_intra_composition_alpha\": {}}}";
static const char posix_tree[] =
    "{\"collective=bcast\": {\"algorithm=MPIDI_POSIX_mpi_bcast_release_gather\": {}}}";

static size_t image(char *buf, const char *const *parts, size_t n)
{
	size_t len = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = strlen(parts[i]) + 1;
		memcpy(buf + len, parts[i], k);
		len += k;
	}
	return len;
}

Test(rules_mpich, default_found_in_the_library)
{
	const char *parts[] = {"\x7f"
	                       "ELF junk \"collective=x",
	                       ch4_tree,
	                       mpir_tree,
	                       "more",
	                       posix_tree,
	                       mpir_tree};
	char buf[2048];
	size_t len = image(buf, parts, 6);
	cJSON *found = NULL, *want = cJSON_Parse(mpir_tree);
	char err[128];

	cr_assert_eq(rules_mpich_find_default(buf, len, &found, err, sizeof(err)), 0, "%s", err);
	cr_assert(cJSON_Compare(found, want, true));
	cJSON_Delete(found);
	cJSON_Delete(want);
}

Test(rules_mpich, default_missing_or_ambiguous)
{
	const char *none[] = {ch4_tree, posix_tree};
	const char *two[] = {
	    mpir_tree,
	    "{\"collective=barrier\": {\"algorithm=MPIR_Barrier_intra_k_dissemination\": {}}}"};
	char buf[2048];
	cJSON *found = NULL;
	char err[128];

	cr_assert_eq(rules_mpich_find_default(buf, image(buf, none, 2), &found, err, sizeof(err)),
	             -1);
	cr_assert_str_eq(err, "no MPIR selection tree in the library");
	cr_assert_null(found);
	cr_assert_eq(rules_mpich_find_default(buf, image(buf, two, 2), &found, err, sizeof(err)),
	             -1);
	cr_assert_str_eq(err, "two different MPIR selection trees in the library");
	cr_assert_null(found);
}
