/* MPICH 4.0's collective selection file (reports/tune/rules_mpich.h). Pure. */
#include "reports/tune/rules_mpich.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define RD              "MPIR_Allreduce_intra_recursive_doubling"
#define RSA             "MPIR_Allreduce_intra_reduce_scatter_allgather"
#define SMP             "MPIR_Allreduce_intra_smp"
#define INTER           "MPIR_Allreduce_inter_reduce_exchange_bcast"
#define PAGE_SIZE_BYTES 4096 /* the smallest; larger pages are multiples of it */

/* MPICH's restriction on a forced algorithm (coll_algorithms.txt), as a csel test. */
enum guard {
	GUARD_NONE,
	GUARD_COMMUTATIVE_PARENT, /* "commutative, parent-comm" */
	GUARD_BUILTIN_POF2,       /* "size-ge-pof2, builtin-op": count >= pof2 */
};

/* MPICH 4.0.2's allreduce-intra algorithms (src/mpi/coll/coll_algorithms.txt). */
static const struct mpich_alg {
	const char *cvar;
	const char *container;
	enum guard guard;
} algs[] = {
    {"recursive_doubling", RD, GUARD_NONE},
    {"reduce_scatter_allgather", RSA, GUARD_BUILTIN_POF2},
    {"smp", SMP, GUARD_COMMUTATIVE_PARENT},
    {"nb", "MPIR_Allreduce_allcomm_nb", GUARD_NONE},
};
#define NALGS (sizeof(algs) / sizeof(algs[0]))

static const struct mpich_alg *find_alg(const char *cvar)
{
	for (size_t i = 0; cvar && i < NALGS; i++)
		if (strcmp(algs[i].cvar, cvar) == 0)
			return &algs[i];
	return NULL;
}

const char *rules_mpich_container(const char *cvar_name)
{
	const struct mpich_alg *a = find_alg(cvar_name);
	return a ? a->container : NULL;
}

/* parent[key] = { "algorithm=<container>": {} }; the new object, or NULL. */
static cJSON *leaf(cJSON *parent, const char *key, const char *container)
{
	char alg_key[128];
	cJSON *o = cJSON_AddObjectToObject(parent, key);

	snprintf(alg_key, sizeof(alg_key), "algorithm=%s", container);
	return o && cJSON_AddObjectToObject(o, alg_key) ? o : NULL;
}

/* MPICH 4.0.2's own intra decision (maint/tuning/coll/mpir/generic.json), into obj. */
static int add_default(cJSON *obj)
{
	cJSON *zero = cJSON_AddObjectToObject(obj, "avg_msg_size<=0");
	if (!zero || !leaf(zero, "is_commutative=yes", SMP) ||
	    !leaf(zero, "is_commutative=no", RD) || !leaf(obj, "avg_msg_size<=8", RD))
		return -1;
	cJSON *any = cJSON_AddObjectToObject(obj, "avg_msg_size=any");
	if (!any || !leaf(any, "is_op_built_in=no", RD))
		return -1;
	cJSON *builtin = cJSON_AddObjectToObject(any, "is_op_built_in=yes");
	if (!builtin || !leaf(builtin, "count<pow2", RD) || !leaf(builtin, "count=any", RSA))
		return -1;
	return 0;
}

/* The algorithm behind MPICH's test of its restriction, the default where it fails. */
static int add_guarded(cJSON *obj, const struct mpich_alg *a)
{
	cJSON *yes, *no, *fails;
	char alg_key[128];

	snprintf(alg_key, sizeof(alg_key), "algorithm=%s", a->container);
	switch (a->guard) {
	case GUARD_NONE: return cJSON_AddObjectToObject(obj, alg_key) ? 0 : -1;
	case GUARD_COMMUTATIVE_PARENT:
		yes = cJSON_AddObjectToObject(obj, "is_commutative=yes");
		if (!yes || !leaf(yes, "comm_hierarchy=parent", a->container))
			return -1;
		fails = cJSON_AddObjectToObject(yes, "comm_hierarchy=any");
		no = cJSON_AddObjectToObject(obj, "is_commutative=no");
		break;
	case GUARD_BUILTIN_POF2:
		yes = cJSON_AddObjectToObject(obj, "is_op_built_in=yes");
		fails = yes ? cJSON_AddObjectToObject(yes, "count<pow2") : NULL;
		if (!fails || !leaf(yes, "count=any", a->container))
			return -1;
		no = cJSON_AddObjectToObject(obj, "is_op_built_in=no");
		break;
	default: return -1;
	}
	return fails && no && add_default(fails) == 0 && add_default(no) == 0 ? 0 : -1;
}

static int add_choice(cJSON *obj, const struct tune_range *r)
{
	return r->alg == 0 ? add_default(obj) : add_guarded(obj, find_alg(r->alg_name));
}

static int add_ranges(cJSON *obj, const struct tune_range *r, size_t n, char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		char key[64];
		if (i + 1 == n) {
			snprintf(key, sizeof(key), "avg_msg_size=any");
		} else if (r[i].to_bytes - 1 > (uint64_t)INT_MAX) {
			/* MPICH reads the bound with atoi. */
			snprintf(err, errlen, "message size %" PRIu64 " bytes is past MPICH's int",
			         r[i].to_bytes);
			return -1;
		} else {
			snprintf(key, sizeof(key), "avg_msg_size<=%" PRIu64, r[i].to_bytes - 1);
		}
		cJSON *range = cJSON_AddObjectToObject(obj, key);
		if (!range || add_choice(range, &r[i])) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	return 0;
}

static int check_choices(const struct tune_choice *c, size_t n, char *err, size_t errlen)
{
	if (tune_choices_check(c, n, err, errlen) != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (c[i].alg != 0 && !find_alg(c[i].alg_name)) {
			snprintf(err, errlen,
			         "algorithm '%s' is not one MPICH 4.0 knows (recursive_doubling, "
			         "reduce_scatter_allgather, smp, nb)",
			         c[i].alg_name ? c[i].alg_name : "(no name)");
			return -1;
		}
	}
	return 0;
}

/* Comm sizes: below the smallest measured the default, each measured up to the next. */
static int add_intra(cJSON *intra, const struct tune_choice *c, size_t n, int *ranks,
                     struct tune_range *r, char *err, size_t errlen)
{
	size_t nranks = tune_ranks(c, n, ranks);
	char key[64];

	if (ranks[0] > 1) {
		snprintf(key, sizeof(key), "comm_size<=%d", ranks[0] - 1);
		cJSON *below = cJSON_AddObjectToObject(intra, key);
		if (!below || add_default(below)) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	for (size_t i = 0; i < nranks; i++) {
		size_t nr;
		if (i + 1 < nranks)
			snprintf(key, sizeof(key), "comm_size<=%d", ranks[i + 1] - 1);
		else
			snprintf(key, sizeof(key), "comm_size=any");
		cJSON *size = cJSON_AddObjectToObject(intra, key);
		if (!size) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		if (tune_ranges(c, n, ranks[i], r, &nr, err, errlen) ||
		    add_ranges(size, r, nr, err, errlen))
			return -1;
	}
	return 0;
}

/*
 * key past prefix, as MPICH compares keys (MPL_strdup_no_spaces drops their
 * spaces first); NULL when key does not start with prefix.
 */
static const char *skip_prefix(const char *key, const char *prefix)
{
	for (; *prefix; prefix++, key++) {
		key += strspn(key, " ");
		if (*key != *prefix)
			return NULL;
	}
	return key;
}

static bool same_key(const char *key, const char *want)
{
	const char *rest = skip_prefix(key, want);
	return rest && rest[strspn(rest, " ")] == '\0';
}

/*
 * Copies src's members into dst, but the one keyed skip (NULL: none); every
 * value of the grammar is an object.
 */
static int copy_objects(cJSON *dst, const cJSON *src, const char *skip, char *err, size_t errlen)
{
	for (const cJSON *m = src->child; m; m = m->next) {
		if (skip && same_key(m->string, skip))
			continue;
		if (!cJSON_IsObject(m)) {
			snprintf(err, errlen, "the base's '%s' is not an object", m->string);
			return -1;
		}
		cJSON *o = cJSON_AddObjectToObject(dst, m->string);
		if (!o) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		if (copy_objects(o, m, NULL, err, errlen))
			return -1;
	}
	return 0;
}

static int copy_base(cJSON *root, const cJSON *base, char *err, size_t errlen)
{
	if (!cJSON_IsObject(base)) {
		snprintf(err, errlen, "the base is not a JSON object");
		return -1;
	}
	for (const cJSON *m = base->child; m; m = m->next) {
		if (!skip_prefix(m->string, "collective=")) {
			snprintf(err, errlen,
			         "the base's key '%s' is not a collective=", m->string);
			return -1;
		}
	}
	/* every collective but the one this file decides, with its members */
	return copy_objects(root, base, "collective=allreduce", err, errlen);
}

int rules_mpich_build(cJSON *root, const struct tune_choice *c, size_t n, const cJSON *base,
                      char *err, size_t errlen)
{
	int *ranks = NULL;
	struct tune_range *r = NULL;
	int rc = -1;

	if (check_choices(c, n, err, errlen))
		goto out;
	ranks = malloc(n * sizeof(*ranks));
	r = malloc((n + 2) * sizeof(*r)); /* tune_ranges: a range below and above */
	cJSON *ar = cJSON_AddObjectToObject(root, "collective=allreduce");
	cJSON *intra = ar ? cJSON_AddObjectToObject(ar, "comm_type=intra") : NULL;
	if (!ranks || !r || !intra) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (add_intra(intra, c, n, ranks, r, err, errlen))
		goto out;
	if (!leaf(ar, "comm_type=inter", INTER)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (base && copy_base(root, base, err, errlen))
		goto out;
	rc = 0;
out:
	free(ranks);
	free(r);
	return rc;
}

char *rules_mpich_text(const cJSON *root)
{
	char *printed = cJSON_Print(root);
	if (!printed)
		return NULL;
	size_t len = strlen(printed);
	char *text = malloc(len + 3);
	if (text) {
		memcpy(text, printed, len);
		text[len++] = '\n';
		if (len % PAGE_SIZE_BYTES == 0)
			text[len++] = '\n';
		text[len] = '\0';
	}
	cJSON_free(printed);
	return text;
}

int rules_mpich_write(FILE *f, const cJSON *root, char *err, size_t errlen)
{
	char *text = rules_mpich_text(root);
	int rc = -1;

	if (!text) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	errno = 0;
	if (fputs(text, f) == EOF || ferror(f)) {
		snprintf(err, errlen, "writing the rules failed: %s",
		         strerror(errno ? errno : EIO));
		goto out;
	}
	rc = 0;
out:
	free(text);
	return rc;
}

/* Whether every key of the tree is an MPIR-level operator or algorithm. */
static bool mpir_level(const cJSON *o)
{
	for (const cJSON *m = o->child; m; m = m->next) {
		if (!cJSON_IsObject(m) || strncmp(m->string, "composition=", 12) == 0)
			return false;
		if (strncmp(m->string, "algorithm=", 10) == 0 &&
		    strncmp(m->string, "algorithm=MPIR_", 15) != 0)
			return false;
		if (!mpir_level(m))
			return false;
	}
	return true;
}

static bool is_mpir_tree(const cJSON *t)
{
	if (!cJSON_IsObject(t) || !t->child)
		return false;
	for (const cJSON *m = t->child; m; m = m->next)
		if (strncmp(m->string, "collective=", 11) != 0)
			return false;
	return mpir_level(t);
}

/*
 * The text starting at the '{' before the '"collective=' at p, parsed, when
 * it is a NUL-terminated JSON text in the image; *end receives its end.
 */
static cJSON *parse_at(const char *image, const char *p, const char *limit, const char **end)
{
	const char *start = p;
	while (start > image && isspace((unsigned char)start[-1]))
		start--;
	if (start == image || start[-1] != '{')
		return NULL;
	start--;
	const char *nul = memchr(start, '\0', (size_t)(limit - start));
	if (!nul)
		return NULL;
	*end = nul;
	return cJSON_ParseWithLength(start, (size_t)(nul - start));
}

int rules_mpich_find_default(const char *image, size_t len, cJSON **out, char *err, size_t errlen)
{
	static const char needle[] = "\"collective=";
	const char *limit = image + len;
	const char *p = image;
	cJSON *found = NULL;

	*out = NULL;
	while ((p = memmem(p, (size_t)(limit - p), needle, sizeof(needle) - 1))) {
		const char *end = p + 1;
		cJSON *t = parse_at(image, p, limit, &end);
		if (t && is_mpir_tree(t)) {
			if (found && !cJSON_Compare(found, t, true)) {
				cJSON_Delete(t);
				cJSON_Delete(found);
				snprintf(err, errlen,
				         "two different MPIR selection trees in the library");
				return -1;
			}
			if (found)
				cJSON_Delete(t);
			else
				found = t;
		} else {
			cJSON_Delete(t);
		}
		p = end;
	}
	if (!found) {
		snprintf(err, errlen, "no MPIR selection tree in the library");
		return -1;
	}
	*out = found;
	return 0;
}
