/*
 * compare: what differs between the contexts of two reports, so that a
 * regression arrives with its likely cause (see compare.h). Reads the
 * context leniently: a member of an unexpected type is shown as its JSON
 * text, and an absent one as "(unset)".
 */
#include "reports/compare/compare_points.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define REDACTED "<redacted>"

struct diffs {
	struct cmp_diff *v;
	size_t n, cap;
	bool failed;
};

/* Names that look like a secret: their values are never shown. */
static bool secret_name(const char *name)
{
	static const char *const words[] = {"password", "secret", "token", "key", "credential"};

	for (const char *s = name; *s; s++)
		for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
			if (strncasecmp(s, words[i], strlen(words[i])) == 0)
				return true;
	return false;
}

static void sanitize(char *s)
{
	for (unsigned char *p = (unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			*p = '?';
}

/* The value as text: strings as they are, numbers in the shortest exact form, the rest as JSON. */
static void value_text(const char *name, const cJSON *v, char *buf, size_t len)
{
	char *json;

	if (secret_name(name) || (cJSON_IsString(v) && strcmp(v->valuestring, REDACTED) == 0)) {
		snprintf(buf, len, "(redacted)");
	} else if (cJSON_IsString(v)) {
		snprintf(buf, len, "%s", v->valuestring[0] ? v->valuestring : "\"\"");
	} else if (cJSON_IsNumber(v)) {
		snprintf(buf, len, "%.17g", v->valuedouble);
		if (strtod(buf, NULL) == v->valuedouble)
			for (int digits = 1; digits < 17; digits++) {
				char shorter[40];
				snprintf(shorter, sizeof shorter, "%.*g", digits, v->valuedouble);
				if (strtod(shorter, NULL) == v->valuedouble) {
					snprintf(buf, len, "%s", shorter);
					break;
				}
			}
	} else if (cJSON_IsBool(v)) {
		snprintf(buf, len, "%s", cJSON_IsTrue(v) ? "true" : "false");
	} else if ((json = cJSON_PrintUnformatted(v)) != NULL) {
		snprintf(buf, len, "%s", json);
		free(json);
	} else {
		snprintf(buf, len, "?");
	}
	sanitize(buf);
}

static struct cmp_diff *push(struct diffs *d)
{
	if (d->failed)
		return NULL;
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 16;
		struct cmp_diff *grown = realloc(d->v, cap * sizeof *grown);
		if (!grown) {
			d->failed = true;
			return NULL;
		}
		d->v = grown;
		d->cap = cap;
	}
	memset(&d->v[d->n], 0, sizeof d->v[d->n]);
	return &d->v[d->n++];
}

/* Records name when a and b (either may be NULL: absent, as is JSON null) differ. */
static void compare_value(struct diffs *d, const char *name, const cJSON *a, const cJSON *b)
{
	char ta[CMP_DIFF_VALUE_BYTES] = "", tb[CMP_DIFF_VALUE_BYTES] = "";
	bool na = !a || cJSON_IsNull(a), nb = !b || cJSON_IsNull(b);
	struct cmp_diff *x;

	if (na && nb)
		return;
	if (!na)
		value_text(name, a, ta, sizeof ta);
	if (!nb)
		value_text(name, b, tb, sizeof tb);
	/* by their text: a secret's "(redacted)" on both sides is no difference shown */
	if (na == nb && strcmp(ta, tb) == 0)
		return;
	if (!(x = push(d)))
		return;
	snprintf(x->name, sizeof x->name, "%s", name);
	sanitize(x->name);
	snprintf(x->baseline, sizeof x->baseline, "%s", ta);
	snprintf(x->current, sizeof x->current, "%s", tb);
	x->base_absent = na;
	x->cur_absent = nb;
}

static const cJSON *member(const cJSON *o, const char *name)
{
	return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, name) : NULL;
}

/*
 * A name index over an object's members, or an array's elements by their
 * member "name": sorted (name, then order), so each lookup is a binary
 * search and a diff of n names costs n log n, not n^2 (30k control variables
 * or 20k hosts took tens of seconds).
 */
struct named {
	const char *name;
	const cJSON *item;
	size_t order;
};

static int by_name(const void *x, const void *y)
{
	const struct named *a = x, *b = y;
	int c = strcmp(a->name, b->name);
	return c ? c : (a->order > b->order) - (a->order < b->order);
}

/* NULL with *n = 0 when o holds none; sets d->failed when memory runs out. */
static struct named *index_names(struct diffs *d, const cJSON *o, bool by_member_name, size_t *n)
{
	size_t count = 0;
	struct named *ix;
	*n = 0;
	if (!(by_member_name ? cJSON_IsArray(o) : cJSON_IsObject(o)))
		return NULL;
	for (const cJSON *m = o->child; m; m = m->next)
		count++;
	if (!count)
		return NULL;
	if (!(ix = malloc(count * sizeof *ix))) {
		d->failed = true;
		return NULL;
	}
	for (const cJSON *m = o->child; m; m = m->next) {
		const cJSON *key = by_member_name ? member(m, "name") : NULL;
		const char *name = by_member_name ? (cJSON_IsString(key) ? key->valuestring : NULL)
		                                  : m->string;
		if (name)
			ix[*n] = (struct named){name, m, *n}, (*n)++;
	}
	qsort(ix, *n, sizeof *ix, by_name);
	return ix;
}

/* The first item named name (as cJSON_GetObjectItem finds the first), or NULL. */
static const cJSON *lookup(const struct named *ix, size_t n, const char *name)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(ix[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && strcmp(ix[lo].name, name) == 0 ? ix[lo].item : NULL;
}

/* Every member of a and b that keep() accepts, a's order first; named prefix + member. */
static void compare_members(struct diffs *d, const char *prefix, const cJSON *a, const cJSON *b,
                            bool (*keep)(const char *name))
{
	char name[CMP_DIFF_NAME_BYTES];
	const cJSON *sides[2] = {a, b};
	size_t na, nb;
	struct named *ia = index_names(d, a, false, &na), *ib = index_names(d, b, false, &nb);

	for (int s = 0; s < 2 && !d->failed; s++) {
		if (!cJSON_IsObject(sides[s]))
			continue;
		for (const cJSON *m = sides[s]->child; m; m = m->next) {
			if (!m->string || (keep && !keep(m->string)))
				continue;
			const cJSON *in_a = lookup(ia, na, m->string);
			if (s == 1 && in_a)
				continue; /* compared with a's */
			snprintf(name, sizeof name, "%s%s", prefix, m->string);
			compare_value(d, name, in_a, lookup(ib, nb, m->string));
		}
	}
	free(ia);
	free(ib);
}

/* The environment settings that change how the library runs, not the launcher's job ids. */
static bool setting_env(const char *name)
{
	static const char *const launcher[] = {"OMPI_MCA_orte_", "OMPI_MCA_ess", "OMPI_MCA_pmix",
	                                       "OMPI_MCA_initial_wdir"};

	for (size_t i = 0; i < sizeof launcher / sizeof launcher[0]; i++)
		if (strncmp(name, launcher[i], strlen(launcher[i])) == 0)
			return false;
	return strncmp(name, "OMPI_MCA_", 9) == 0 || strncmp(name, "MPIR_CVAR_", 10) == 0 ||
	       strncmp(name, "COLLSCOPE_", 10) == 0;
}

/* The options that only say where and how the result is written. */
static bool measuring_option(const char *name)
{
	static const char *const output[] = {"output", "force", "quiet", "format", "timeout_s"};

	for (size_t i = 0; i < sizeof output / sizeof output[0]; i++)
		if (strcmp(name, output[i]) == 0)
			return false;
	return true;
}

/* The host names, comma-separated, in the report's order. */
static void host_names(const cJSON *hosts, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (const cJSON *h = cJSON_IsArray(hosts) ? hosts->child : NULL; h && used < len;
	     h = h->next) {
		const cJSON *n = member(h, "name");
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "",
		                         cJSON_IsString(n) ? n->valuestring : "?");
	}
}

static void compare_hosts(struct diffs *d, const cJSON *a, const cJSON *b)
{
	static const char *const facts[] = {"cpu_model", "kernel", "cores", "pus",
	                                    "oversubscribed"};
	char na[CMP_DIFF_VALUE_BYTES], nb[CMP_DIFF_VALUE_BYTES], name[CMP_DIFF_NAME_BYTES];
	cJSON *sa, *sb;

	host_names(a, na, sizeof na);
	host_names(b, nb, sizeof nb);
	sa = cJSON_CreateString(na);
	sb = cJSON_CreateString(nb);
	if (!sa || !sb)
		d->failed = true;
	else if (cJSON_IsArray(a) || cJSON_IsArray(b))
		compare_value(d, "hosts", a ? sa : NULL, b ? sb : NULL);
	cJSON_Delete(sa);
	cJSON_Delete(sb);
	size_t nix;
	struct named *ix = index_names(d, b, true, &nix);
	for (const cJSON *h = cJSON_IsArray(a) ? a->child : NULL; h && !d->failed; h = h->next) {
		const cJSON *n = member(h, "name"), *other;
		if (!cJSON_IsString(n) || !(other = lookup(ix, nix, n->valuestring)))
			continue;
		for (size_t f = 0; f < sizeof facts / sizeof facts[0]; f++) {
			snprintf(name, sizeof name, "host %s %s", n->valuestring, facts[f]);
			compare_value(d, name, member(h, facts[f]), member(other, facts[f]));
		}
	}
	free(ix);
}

/* Where every rank ran; past CMP_DIFF_RANKS_MAX differing ranks, one line counts the rest. */
static void compare_ranks(struct diffs *d, const cJSON *a, const cJSON *b)
{
	static const char *const facts[] = {"host", "cpuset", "bound"};
	char name[CMP_DIFF_NAME_BYTES];
	size_t listed = 0, more = 0;
	const cJSON *ra = cJSON_IsArray(a) ? a->child : NULL, *rb = cJSON_IsArray(b) ? b->child : NULL;

	/* both lists walked together: cJSON_GetArrayItem(r) would walk from the start each time */
	for (int r = 0; ra && rb; r++, ra = ra->next, rb = rb->next) {
		size_t before = d->n;
		for (size_t f = 0; f < sizeof facts / sizeof facts[0]; f++) {
			snprintf(name, sizeof name, "rank %d %s", r, facts[f]);
			compare_value(d, name, member(ra, facts[f]), member(rb, facts[f]));
		}
		if (d->n > before && listed >= CMP_DIFF_RANKS_MAX) {
			d->n = before;
			more++;
		} else {
			listed += d->n > before;
		}
	}
	if (more) {
		struct cmp_diff *x = push(d);
		if (!x)
			return;
		snprintf(x->name, sizeof x->name, "binding");
		snprintf(x->baseline, sizeof x->baseline, "as recorded");
		snprintf(x->current, sizeof x->current, "%zu more ranks differ", more);
	}
}

int cmp_context_diff(const cJSON *base_root, const cJSON *cur_root, struct cmp_diff **out,
                     size_t *n)
{
	const cJSON *ca = member(base_root, "context"), *cb = member(cur_root, "context");
	const cJSON *ma = member(ca, "mpi"), *mb = member(cb, "mpi");
	struct diffs d = {0};

	compare_value(&d, "collscope version", member(member(ca, "tool"), "version"),
	              member(member(cb, "tool"), "version"));
	compare_value(&d, "collscope git", member(member(ca, "tool"), "git"),
	              member(member(cb, "tool"), "git"));
	compare_value(&d, "mpi library", member(ma, "library"), member(mb, "library"));
	compare_members(&d, "", member(ma, "cvars"), member(mb, "cvars"), NULL);
	compare_members(&d, "", member(ca, "environment"), member(cb, "environment"), setting_env);
	compare_hosts(&d, member(ca, "hosts"), member(cb, "hosts"));
	compare_ranks(&d, member(ca, "ranks"), member(cb, "ranks"));
	compare_value(&d, "oversubscribed", member(ca, "oversubscribed"),
	              member(cb, "oversubscribed"));
	compare_members(&d, "config.", member(base_root, "config"), member(cur_root, "config"),
	                measuring_option);
	if (d.failed) {
		free(d.v);
		*out = NULL;
		*n = 0;
		return -1;
	}
	*out = d.v;
	*n = d.n;
	return 0;
}

void cmp_diff_text(const struct cmp_diff *d, char *buf, size_t len)
{
	snprintf(buf, len, "%s: %s -> %s", d->name, d->base_absent ? "(unset)" : d->baseline,
	         d->cur_absent ? "(unset)" : d->current);
	sanitize(buf);
}

/* "context_differences": [{name, baseline, current}], an absent side null. */
bool cmp_diffs_to_json(cJSON *root, const struct cmp_result *r)
{
	cJSON *list = cJSON_AddArrayToObject(root, "context_differences");

	for (size_t i = 0; list && i < r->ndiffs; i++) {
		const struct cmp_diff *d = &r->diffs[i];
		cJSON *o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(list, o)) {
			cJSON_Delete(o);
			return false;
		}
		if (!cJSON_AddStringToObject(o, "name", d->name) ||
		    !(d->base_absent ? cJSON_AddNullToObject(o, "baseline")
		                     : cJSON_AddStringToObject(o, "baseline", d->baseline)) ||
		    !(d->cur_absent ? cJSON_AddNullToObject(o, "current")
		                    : cJSON_AddStringToObject(o, "current", d->current)))
			return false;
	}
	return list != NULL;
}
