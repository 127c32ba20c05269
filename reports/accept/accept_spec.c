/*
 * The accept spec: parsing with every bad field named by its JSON path, and
 * writing it back (see accept_spec.h and README.md, "collscope accept").
 */
#include "reports/accept/accept_spec.h"

#include "reports/accept/accept_point_set.h"
#include "reports/accept/accept_util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A point's largest message: 1 TiB. No host all-reduces more; a spec asking
 * for 2^53 bytes is a typo to refuse, not a point to try (and fail at run time). */
#define ACCEPT_MAX_POINT_BYTES 1099511627776.0

static const char *const kind_names[ACCEPT_KINDS] = {"topology", "verify", "links", "allreduce"};

const char *accept_kind_name(enum accept_kind k)
{
	return k >= 0 && k < ACCEPT_KINDS ? kind_names[k] : "unknown";
}

void accept_spec_init(struct accept_spec *s)
{
	memset(s, 0, sizeof *s);
	s->topology = (struct accept_topology_spec){-1, -1, -1, -1, false};
	for (int l = 0; l < DETECT_LOCALITIES; l++)
		s->links.min_bandwidth_gbps[l] = s->links.max_latency_us[l] = NAN;
	snprintf(s->allreduce.dtype, sizeof s->allreduce.dtype, "float32");
	snprintf(s->allreduce.op, sizeof s->allreduce.op, "sum");
}

void accept_spec_release(struct accept_spec *s)
{
	free(s->verify.variants);
	free(s->allreduce.points);
	accept_spec_init(s);
}

void accept_spec_path_links(char *buf, size_t len, bool bandwidth, enum detect_locality l)
{
	snprintf(buf, len, "checks.links.%s.%s",
	         bandwidth ? "min_bandwidth_gbps" : "max_latency_us", detect_locality_name(l));
}

void accept_spec_path_point(char *buf, size_t len, size_t point, bool busbw)
{
	snprintf(buf, len, "checks.allreduce.points[%zu].%s", point,
	         busbw ? "min_busbw_gbps" : "max_p99_us");
}

const char *accept_collective_prefix(enum ar_collective c)
{
	static const char *const prefix[AR_COLLECTIVES] = {"", "reduce_scatter ", "allgather "};
	return c > AR_ALLREDUCE && c < AR_COLLECTIVES ? prefix[c] : "";
}

/* The state of one parse: where we are, what is wrong so far, what names are known. */
struct reader {
	struct accept_errs errs;
	struct accept_path path;
	const struct accept_names *names;
};

__attribute__((format(printf, 2, 3))) static void bad(struct reader *r, const char *fmt, ...)
{
	char why[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	accept_errs_add(&r->errs, "%s: %s", r->path.len ? r->path.s : "the top level", why);
}

/* Levenshtein distance of two short names, for "did you mean"; large when either is long. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[ACCEPT_NAME_BYTES + 1];

	if (la > ACCEPT_NAME_BYTES || lb > ACCEPT_NAME_BYTES)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

/*
 * "a, b or c" into buf; and into *near (or NULL) the closest name within 2
 * edits, or one that starts like given.
 */
static void name_list(const char *given, const char *const *names, size_t n, char *buf, size_t len,
                      const char **near)
{
	size_t used = 0, best = 3;

	buf[0] = '\0';
	*near = NULL;
	for (size_t i = 0; i < n && used < len; i++) {
		size_t d = given ? distance(given, names[i]) : (size_t)-1;
		size_t lg = given ? strlen(given) : 0, ln = strlen(names[i]);
		/* "min_busbw" for "min_busbw_gbps": a unit left off is a near miss too */
		if (lg >= 3 && strncmp(given, names[i], lg < ln ? lg : ln) == 0 && d > 1)
			d = 2;
		if (d < best) {
			best = d;
			*near = names[i];
		}
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
		                         i == 0       ? ""
		                         : i + 1 == n ? " or "
		                                      : ", ",
		                         names[i]);
	}
}

/* Fields of obj that are not in known (typos), and known fields given twice; false if any. */
static bool check_fields(struct reader *r, const cJSON *obj, const char *const *known, size_t n)
{
	char list[400], shown[80];
	const char *near;
	bool ok = true;

	for (const cJSON *c = obj->child; c; c = c->next) {
		size_t at = accept_path_key(&r->path, c->string ? c->string : "");
		size_t i = 0;
		while (i < n && strcmp(c->string ? c->string : "", known[i]) != 0)
			i++;
		if (i == n) {
			name_list(c->string, known, n, list, sizeof list, &near);
			if (near)
				bad(r, "unknown field (did you mean '%s'? expected %s)", near,
				    list);
			else
				bad(r, "unknown field (expected %s)", list);
			ok = false;
		} else {
			for (const cJSON *d = c->next; d; d = d->next)
				if (d->string && strcmp(d->string, known[i]) == 0) {
					accept_describe_value(d, shown, sizeof shown);
					bad(r, "given twice (again with %s)", shown);
					ok = false;
					break;
				}
		}
		accept_path_cut(&r->path, at);
	}
	return ok;
}

static bool expect_object(struct reader *r, const cJSON *v)
{
	char shown[80];

	if (cJSON_IsObject(v))
		return true;
	accept_describe_value(v, shown, sizeof shown);
	bad(r, "expected an object, got %s", shown);
	return false;
}

/* A number > 0 at obj.key into *out, when present. */
static void get_positive(struct reader *r, const cJSON *obj, const char *key, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	char shown[80];
	size_t at;

	if (!v)
		return;
	at = accept_path_key(&r->path, key);
	if (cJSON_IsNumber(v) && isfinite(v->valuedouble) && v->valuedouble > 0)
		*out = v->valuedouble;
	else {
		accept_describe_value(v, shown, sizeof shown);
		bad(r, "expected a number > 0, got %s", shown);
	}
	accept_path_cut(&r->path, at);
}

/* A whole number in [min, max] at obj.key into *out, when present; what names it in messages. */
static void get_whole(struct reader *r, const cJSON *obj, const char *key, double min, double max,
                      const char *what, int64_t *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	char shown[80];
	double x;
	size_t at;

	if (!v)
		return;
	at = accept_path_key(&r->path, key);
	x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
	if (isfinite(x) && x >= min && x <= max && floor(x) == x)
		*out = (int64_t)x;
	else {
		accept_describe_value(v, shown, sizeof shown);
		bad(r, "expected a whole number of %s from %.17g to %.17g, got %s", what, min, max,
		    shown);
	}
	accept_path_cut(&r->path, at);
}

static void get_bool(struct reader *r, const cJSON *obj, const char *key, bool *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	char shown[80];
	size_t at;

	if (!v)
		return;
	at = accept_path_key(&r->path, key);
	if (cJSON_IsBool(v))
		*out = cJSON_IsTrue(v);
	else {
		accept_describe_value(v, shown, sizeof shown);
		bad(r, "expected true or false, got %s", shown);
	}
	accept_path_cut(&r->path, at);
}

/*
 * A name (non-empty string of printable ASCII, shorter than ACCEPT_NAME_BYTES)
 * from v into out, checked against known when known is not NULL. The path
 * already names v. what: "a variant name".
 */
static bool read_name(struct reader *r, const cJSON *v, const char *what, const char *kind,
                      const char *const *known, size_t nknown, char *out)
{
	char shown[80], list[600];
	const char *near, *s = cJSON_IsString(v) ? v->valuestring : NULL;
	bool printable = s && *s && strlen(s) < ACCEPT_NAME_BYTES;

	for (const char *c = s; printable && *c; c++)
		printable = *c > 0x20 && *c < 0x7f;
	if (!printable) {
		accept_describe_value(v, shown, sizeof shown);
		bad(r, "expected %s (a short string without spaces), got %s", what, shown);
		return false;
	}
	if (known) {
		size_t i = 0;
		while (i < nknown && strcmp(s, known[i]) != 0)
			i++;
		if (i == nknown) {
			name_list(s, known, nknown, list, sizeof list, &near);
			accept_describe_value(v, shown, sizeof shown);
			if (near)
				bad(r, "unknown %s %s (did you mean '%s'? known: %s)", kind, shown,
				    near, list);
			else
				bad(r, "unknown %s %s (known: %s)", kind, shown, list);
			return false;
		}
	}
	snprintf(out, ACCEPT_NAME_BYTES, "%s", s);
	return true;
}

static void read_topology(struct reader *r, const cJSON *obj, struct accept_spec *s)
{
	static const char *const known[] = {"hosts", "ranks_per_host", "cores_per_host",
	                                    "numa_nodes_per_host", "allow_oversubscribed"};
	struct accept_topology_spec *t = &s->topology;

	if (!expect_object(r, obj))
		return;
	if (!obj->child)
		bad(r, "empty: expected at least one of hosts, ranks_per_host, cores_per_host, "
		       "numa_nodes_per_host, allow_oversubscribed");
	check_fields(r, obj, known, sizeof known / sizeof known[0]);
	get_whole(r, obj, "hosts", 1, 1e9, "hosts", &t->hosts);
	get_whole(r, obj, "ranks_per_host", 1, 1e9, "ranks", &t->ranks_per_host);
	get_whole(r, obj, "cores_per_host", 1, 1e9, "cores", &t->cores_per_host);
	get_whole(r, obj, "numa_nodes_per_host", 1, 1e9, "NUMA nodes", &t->numa_nodes_per_host);
	get_bool(r, obj, "allow_oversubscribed", &t->allow_oversubscribed);
}

/* "all", expanded when the variants are known. */
static void verify_all(struct reader *r, struct accept_verify_spec *v)
{
	size_t n = r->names && r->names->variants ? r->names->nvariants : 0;

	v->all = true;
	if (n == 0)
		return;
	v->variants = calloc(n, sizeof *v->variants);
	if (!v->variants) {
		bad(r, "out of memory");
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (!r->names->in_all || r->names->in_all[i])
			snprintf(v->variants[v->nvariants++], ACCEPT_NAME_BYTES, "%s",
			         r->names->variants[i]);
}

static void verify_list(struct reader *r, const cJSON *list, struct accept_verify_spec *v)
{
	size_t n = (size_t)cJSON_GetArraySize(list), i = 0;
	const struct accept_names *names = r->names;

	if (n == 0) {
		bad(r, "empty: expected at least one variant, or \"all\"");
		return;
	}
	v->variants = calloc(n, sizeof *v->variants);
	if (!v->variants) {
		bad(r, "out of memory");
		return;
	}
	for (const cJSON *c = list->child; c; c = c->next, i++) {
		size_t at = accept_path_index(&r->path, i);
		char name[ACCEPT_NAME_BYTES];
		if (read_name(r, c, "a variant name", "variant", names ? names->variants : NULL,
		              names ? names->nvariants : 0, name)) {
			size_t j = 0;
			while (j < v->nvariants && strcmp(v->variants[j], name) != 0)
				j++;
			if (j < v->nvariants)
				bad(r, "variant '%s' listed twice", name);
			else
				memcpy(v->variants[v->nvariants++], name, sizeof name);
		}
		accept_path_cut(&r->path, at);
	}
}

static void read_verify(struct reader *r, const cJSON *obj, struct accept_spec *s)
{
	static const char *const known[] = {"variants"};
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(obj, "variants");
	char shown[80];
	size_t at;

	if (!expect_object(r, obj))
		return;
	check_fields(r, obj, known, 1);
	at = accept_path_key(&r->path, "variants");
	if (!list)
		bad(r, "missing: expected a list of variants, or \"all\"");
	else if (cJSON_IsString(list) && strcmp(list->valuestring, "all") == 0)
		verify_all(r, &s->verify);
	else if (cJSON_IsArray(list))
		verify_list(r, list, &s->verify);
	else {
		accept_describe_value(list, shown, sizeof shown);
		bad(r, "expected a list of variants, or \"all\", got %s", shown);
	}
	accept_path_cut(&r->path, at);
}

/* One of min_bandwidth_gbps and max_latency_us: a threshold per locality class. */
static void read_classes(struct reader *r, const cJSON *obj, const char *key, double *out)
{
	static const char *const known[DETECT_LOCALITIES] = {"same_numa", "same_host",
	                                                     "cross_host"};
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	size_t at;

	if (!v)
		return;
	at = accept_path_key(&r->path, key);
	if (expect_object(r, v)) {
		if (!v->child)
			bad(r, "empty: expected at least one of same_numa, same_host, cross_host");
		check_fields(r, v, known, DETECT_LOCALITIES);
		for (int l = 0; l < DETECT_LOCALITIES; l++)
			get_positive(r, v, known[l], &out[l]);
	}
	accept_path_cut(&r->path, at);
}

static void read_links(struct reader *r, const cJSON *obj, struct accept_spec *s)
{
	static const char *const known[] = {"min_bandwidth_gbps", "max_latency_us",
	                                    "allow_suspects"};

	if (!expect_object(r, obj))
		return;
	if (!obj->child)
		bad(r, "empty: expected at least one of min_bandwidth_gbps, max_latency_us, "
		       "allow_suspects");
	check_fields(r, obj, known, sizeof known / sizeof known[0]);
	read_classes(r, obj, "min_bandwidth_gbps", s->links.min_bandwidth_gbps);
	read_classes(r, obj, "max_latency_us", s->links.max_latency_us);
	get_bool(r, obj, "allow_suspects", &s->links.allow_suspects);
}

/*
 * A point's "collective", when present: a name of ar_collective_names,
 * always checked (the names are data of their own, not the command's).
 */
static void read_collective(struct reader *r, const cJSON *obj, enum ar_collective *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "collective");
	char name[ACCEPT_NAME_BYTES];
	size_t at;

	if (!v)
		return;
	at = accept_path_key(&r->path, "collective");
	if (read_name(r, v, "a collective name", "collective", ar_collective_names, AR_COLLECTIVES,
	              name))
		for (int c = 0; c < AR_COLLECTIVES; c++)
			if (strcmp(name, ar_collective_names[c]) == 0)
				*out = (enum ar_collective)c;
	accept_path_cut(&r->path, at);
}

/* One point; the path names it. false when it is not usable. */
static bool read_point(struct reader *r, const cJSON *obj, struct accept_ar_point *p)
{
	static const char *const known[] = {"collective", "variant", "bytes", "min_busbw_gbps",
	                                    "max_p99_us"};
	const struct accept_names *names = r->names;
	const cJSON *v;
	int before = r->errs.count;
	int64_t bytes = -1;
	size_t at;

	*p = (struct accept_ar_point){.min_busbw_gbps = NAN, .max_p99_us = NAN};
	if (!expect_object(r, obj))
		return false;
	check_fields(r, obj, known, sizeof known / sizeof known[0]);
	read_collective(r, obj, &p->collective);
	v = cJSON_GetObjectItemCaseSensitive(obj, "variant");
	at = accept_path_key(&r->path, "variant");
	if (!v)
		bad(r, "missing: expected a variant name");
	else
		read_name(r, v, "a variant name", "variant", names ? names->variants : NULL,
		          names ? names->nvariants : 0, p->variant);
	accept_path_cut(&r->path, at);
	if (!cJSON_GetObjectItemCaseSensitive(obj, "bytes")) {
		at = accept_path_key(&r->path, "bytes");
		bad(r, "missing: expected the message size in bytes");
		accept_path_cut(&r->path, at);
	}
	get_whole(r, obj, "bytes", 1, ACCEPT_MAX_POINT_BYTES, "bytes", &bytes);
	p->bytes = bytes > 0 ? (uint64_t)bytes : 0;
	get_positive(r, obj, "min_busbw_gbps", &p->min_busbw_gbps);
	get_positive(r, obj, "max_p99_us", &p->max_p99_us);
	if (!cJSON_GetObjectItemCaseSensitive(obj, "min_busbw_gbps") &&
	    !cJSON_GetObjectItemCaseSensitive(obj, "max_p99_us"))
		bad(r, "no threshold: expected min_busbw_gbps, max_p99_us or both");
	return r->errs.count == before;
}

static void read_points(struct reader *r, const cJSON *list, struct accept_allreduce_spec *a)
{
	size_t n = (size_t)cJSON_GetArraySize(list), i = 0;
	char size[32];
	struct accept_point_set seen = {0};

	if (n == 0) {
		bad(r, "empty: expected at least one point");
		return;
	}
	a->points = calloc(n, sizeof *a->points);
	if (!a->points || accept_point_set_init(&seen, a->points, n) != 0) {
		bad(r, "out of memory");
		return;
	}
	for (const cJSON *c = list->child; c; c = c->next, i++) {
		size_t at = accept_path_index(&r->path, i);
		struct accept_ar_point *p = &a->points[a->npoints];
		if (read_point(r, c, p)) {
			long j = accept_point_set_add(&seen, p, a->npoints);
			accept_format_bytes(size, sizeof size, p->bytes);
			if (j >= 0)
				bad(r,
				    "the same point as points[%ld] (%s%s, %s): give each variant "
				    "and size once per collective",
				    j, accept_collective_prefix(p->collective), p->variant, size);
			else
				a->npoints++;
		}
		accept_path_cut(&r->path, at);
	}
	accept_point_set_release(&seen);
}

static void read_allreduce(struct reader *r, const cJSON *obj, struct accept_spec *s)
{
	static const char *const known[] = {"dtype", "op", "in_place", "points"};
	const struct accept_names *names = r->names;
	struct accept_allreduce_spec *a = &s->allreduce;
	const cJSON *v;
	char shown[80];
	size_t at;

	if (!expect_object(r, obj))
		return;
	check_fields(r, obj, known, sizeof known / sizeof known[0]);
	if ((v = cJSON_GetObjectItemCaseSensitive(obj, "dtype")) != NULL) {
		at = accept_path_key(&r->path, "dtype");
		read_name(r, v, "a dtype name", "dtype", names ? names->dtypes : NULL,
		          names ? names->ndtypes : 0, a->dtype);
		accept_path_cut(&r->path, at);
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(obj, "op")) != NULL) {
		at = accept_path_key(&r->path, "op");
		read_name(r, v, "an op name", "op", names ? names->ops : NULL,
		          names ? names->nops : 0, a->op);
		accept_path_cut(&r->path, at);
	}
	get_bool(r, obj, "in_place", &a->in_place);
	v = cJSON_GetObjectItemCaseSensitive(obj, "points");
	at = accept_path_key(&r->path, "points");
	if (!v)
		bad(r, "missing: expected a list of points {collective, variant, bytes, "
		       "min_busbw_gbps, max_p99_us}");
	else if (!cJSON_IsArray(v)) {
		accept_describe_value(v, shown, sizeof shown);
		bad(r, "expected a list of points, got %s", shown);
	} else
		read_points(r, v, a);
	accept_path_cut(&r->path, at);
}

static void read_checks(struct reader *r, const cJSON *checks, struct accept_spec *s)
{
	static void (*const readers[ACCEPT_KINDS])(
	    struct reader *, const cJSON *, struct accept_spec *) = {read_topology, read_verify,
	                                                             read_links, read_allreduce};

	if (!expect_object(r, checks))
		return;
	if (!checks->child)
		bad(r, "empty: expected at least one of topology, verify, links, allreduce");
	check_fields(r, checks, kind_names, ACCEPT_KINDS);
	for (int k = 0; k < ACCEPT_KINDS; k++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(checks, kind_names[k]);
		if (!v)
			continue;
		size_t at = accept_path_key(&r->path, kind_names[k]);
		s->has[k] = true;
		readers[k](r, v, s);
		accept_path_cut(&r->path, at);
	}
}

/* The member key of root, when present, must be of the type is() accepts (what names it). */
static void check_type(struct reader *r, const cJSON *root, const char *key,
                       cJSON_bool (*is)(const cJSON *), const char *what)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
	char shown[80];
	size_t at;

	if (!v || is(v))
		return;
	at = accept_path_key(&r->path, key);
	accept_describe_value(v, shown, sizeof shown);
	bad(r, "expected %s, got %s", what, shown);
	accept_path_cut(&r->path, at);
}

/* A whole number equal to want at root.key; why says what it is. */
static void check_version(struct reader *r, const cJSON *root, const char *key, int want,
                          const char *why)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
	char shown[80];
	size_t at;

	if (cJSON_IsNumber(v) && v->valuedouble == want)
		return;
	at = accept_path_key(&r->path, key);
	accept_describe_value(v, shown, sizeof shown);
	bad(r, "expected %d%s, got %s", want, why, shown);
	accept_path_cut(&r->path, at);
}

/*
 * The envelope every collscope document has, and the spec's own version.
 * false for another kind of document (a report): its fields are not listed.
 */
static bool read_top(struct reader *r, const cJSON *root, struct accept_spec *s)
{
	static const char *const known[] = {"schema_version", "command", "spec_version", "name",
	                                    "description",    "context", "derived",      "checks"};
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "command");
	char shown[80];
	size_t at;

	if (!cJSON_IsString(v) || strcmp(v->valuestring, ACCEPT_SPEC_COMMAND) != 0) {
		at = accept_path_key(&r->path, "command");
		accept_describe_value(v, shown, sizeof shown);
		bad(r, "expected \"" ACCEPT_SPEC_COMMAND "\", got %s%s", shown,
		    cJSON_IsString(v) ? ": a report, not an accept spec" : "");
		accept_path_cut(&r->path, at);
		if (cJSON_IsString(v))
			return false;
	}
	check_fields(r, root, known, sizeof known / sizeof known[0]);
	check_version(r, root, "schema_version", 1, " (collscope's document envelope)");
	check_version(r, root, "spec_version", ACCEPT_SPEC_VERSION,
	              " (the spec format this build reads)");
	check_type(r, root, "context", cJSON_IsObject, "an object");
	check_type(r, root, "derived", cJSON_IsObject, "an object");
	check_type(r, root, "name", cJSON_IsString, "a string");
	check_type(r, root, "description", cJSON_IsString, "a string");
	v = cJSON_GetObjectItemCaseSensitive(root, "name");
	if (cJSON_IsString(v))
		accept_copy_name(s->name, sizeof s->name, v->valuestring);
	/* derived is provenance, not checked; its fragility is told to whoever measures */
	v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "derived"),
	                                     "fragile");
	s->fragile = cJSON_IsTrue(v);
	return true;
}

int accept_spec_parse_names(const cJSON *root, const struct accept_names *names,
                            struct accept_spec *out, char *err, size_t len)
{
	struct reader r = {.names = names};
	const cJSON *checks;
	size_t at;

	accept_errs_init(&r.errs, err, len);
	accept_path_init(&r.path);
	accept_spec_init(out);
	if (!expect_object(&r, root) || !read_top(&r, root, out))
		goto out;
	checks = cJSON_GetObjectItemCaseSensitive(root, "checks");
	at = accept_path_key(&r.path, "checks");
	if (!checks)
		bad(&r, "missing: expected the checks to run (topology, verify, links, allreduce)");
	else
		read_checks(&r, checks, out);
	accept_path_cut(&r.path, at);
out:
	if (accept_errs_finish(&r.errs) == 0)
		return 0;
	accept_spec_release(out);
	return -1;
}

int accept_spec_parse(const cJSON *root, struct accept_spec *out, char *err, size_t len)
{
	return accept_spec_parse_names(root, NULL, out, err, len);
}
