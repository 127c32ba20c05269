/* See opts.h. */
#include "cmd/opts.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/parse.h"
#include "reports/io/report_io.h"
#include "reports/render/fixed.h"

enum { HELP_COLUMN = 27, HELP_WIDTH = 88 }; /* the text column, and the widest line a default may extend */

static int say(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int say(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (err && len)
		vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

static void *field_of(void *opts, const struct opt_group *g, const struct opt *o)
{
	return (char *)opts + g->base + o->offset;
}

/* "1G", "256K", "3000": a byte bound as a person writes it. */
static void format_bytes(char *buf, size_t len, double v)
{
	static const char suffix[] = "KMGT";
	uint64_t u = (uint64_t)v;
	int k = 0;
	while (k < 4 && u >= 1024 && u % 1024 == 0) {
		u /= 1024;
		k++;
	}
	if (k)
		snprintf(buf, len, "%llu%c", (unsigned long long)u, suffix[k - 1]);
	else
		snprintf(buf, len, "%llu", (unsigned long long)u);
}

void opts_range_phrase(const struct opt *o, char *buf, size_t len)
{
	char lo[32], hi[32];
	if (o->range) {
		snprintf(buf, len, "%s", o->range);
		return;
	}
	switch (o->kind) {
	case OPT_INT:
	case OPT_U64:
		snprintf(buf, len, "must be a whole number from %.0f to %.0f", o->min, o->max);
		return;
	case OPT_BYTES:
		format_bytes(lo, sizeof lo, o->min);
		format_bytes(hi, sizeof hi, o->max);
		if (o->max >= 1.8e19 && o->min <= 0) /* no bound (see parse_value) */
			snprintf(buf, len, "must be a byte count (suffixes K M G T)");
		else if (o->max >= 1.8e19)
			snprintf(buf, len, "must be at least %s bytes (suffixes K M G T)", lo);
		else
			snprintf(buf, len, "must be from %s to %s bytes (suffixes K M G T)", lo,
			         hi);
		return;
	case OPT_NUMBER:
		/* fixed notation: "at most 1000000", not "1e+06" */
		report_fixed(lo, sizeof lo, o->min, 0, 6);
		report_fixed(hi, sizeof hi, o->max, 0, 6);
		if ((o->flags & OPT_MIN_OPEN) && (o->flags & OPT_MAX_OPEN))
			snprintf(buf, len, "must be a number between %s and %s, exclusive", lo, hi);
		else if (o->flags & OPT_MIN_OPEN)
			snprintf(buf, len, "must be a number greater than %s (at most %s)", lo, hi);
		else
			snprintf(buf, len, "must be a number from %s to %s", lo, hi);
		return;
	case OPT_BOOL01: snprintf(buf, len, "must be 0 or 1"); return;
	case OPT_CHOICE: {
		size_t used = (size_t)snprintf(buf, len, "must be ");
		for (int i = 0; o->choices[i] && used < len; i++)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
			                         i == 0              ? ""
			                         : o->choices[i + 1] ? ", "
			                                             : " or ",
			                         o->choices[i]);
		return;
	}
	default: snprintf(buf, len, "not accepted"); return;
	}
}

static bool in_range(const struct opt *o, double v)
{
	bool lo = (o->flags & OPT_MIN_OPEN) ? v > o->min : v >= o->min;
	bool hi = (o->flags & OPT_MAX_OPEN) ? v < o->max : v <= o->max;
	return lo && hi;
}

/* One value into its field; 0, or -1 with the reason in why. */
static int parse_value(const struct opt *o, const char *arg, void *base, void *field, char *why,
                       size_t len)
{
	const char *reason = NULL;
	char range[160];
	uint64_t u;
	double d;
	opts_range_phrase(o, range, sizeof range);
	switch (o->kind) {
	case OPT_FLAG: *(bool *)field = true; return 0;
	case OPT_BOOL01:
		if (strcmp(arg, "0") != 0 && strcmp(arg, "1") != 0)
			return say(why, len, "%s", range);
		*(bool *)field = arg[0] == '1';
		return 0;
	case OPT_BYTES:
		if (parse_bytes(arg, &u, &reason) != 0)
			return say(why, len, "%s", reason);
		/* a bound of 2^64 or more is no bound: a double cannot hold UINT64_MAX exactly */
		if ((double)u < o->min || (o->max < 1.8e19 && (double)u > o->max))
			return say(why, len, "%s", range);
		*(uint64_t *)field = u;
		return 0;
	case OPT_INT:
	case OPT_U64:
		if (parse_u64(arg, 0, UINT64_MAX, &u, &reason) != 0)
			return say(why, len, "%s (%s)", reason, range);
		if (!in_range(o, (double)u))
			return say(why, len, "%s", range);
		if (o->kind == OPT_INT)
			*(int *)field = (int)u;
		else
			*(uint64_t *)field = u;
		return 0;
	case OPT_NUMBER:
		if (parse_double(arg, -HUGE_VAL, HUGE_VAL, &d, &reason) != 0)
			return say(why, len, "%s (%s)", reason, range);
		if (!in_range(o, d))
			return say(why, len, "%s", range);
		*(double *)field = d;
		return 0;
	case OPT_STRING:
		if (!*arg)
			return say(why, len, "empty value");
		*(const char **)field = arg;
		return 0;
	case OPT_CHOICE:
		for (int i = 0; o->choices[i]; i++)
			if (strcmp(o->choices[i], arg) == 0) {
				*(int *)field = i;
				return 0;
			}
		return say(why, len, "%s", range);
	case OPT_CUSTOM: return o->parse(arg, base, o, why, len);
	}
	return say(why, len, "unknown kind of option");
}

/* The option and its group for a long name or a letter. */
static const struct opt *find(const struct cmd_spec *spec, const char *name, size_t name_len,
                              char letter, const struct opt_group **group)
{
	for (const struct opt_group *g = spec->groups; g->opts; g++)
		for (size_t i = 0; i < g->count; i++) {
			const struct opt *o = &g->opts[i];
			bool hit = name ? strlen(o->name) == name_len &&
			                      strncmp(o->name, name, name_len) == 0
			                : letter && o->letter == letter;
			if (hit) {
				*group = g;
				return o;
			}
		}
	return NULL;
}

const struct opt *opts_find(const struct cmd_spec *spec, const char *name)
{
	const struct opt_group *g;
	return find(spec, name, strlen(name), 0, &g);
}

int opts_defaults(const struct cmd_spec *spec, void *opts, char *err, size_t len)
{
	char why[256];
	memset(opts, 0, spec->size);
	for (const struct opt_group *g = spec->groups; g->opts; g++)
		for (size_t i = 0; i < g->count; i++) {
			const struct opt *o = &g->opts[i];
			void *field = field_of(opts, g, o);
			if (o->kind == OPT_NUMBER && !o->def && (o->flags & OPT_NAN_DEFAULT))
				*(double *)field = NAN;
			if (o->def && parse_value(o, o->def, (char *)opts + g->base, field, why,
			                          sizeof why) != 0) {
				say(err, len, "%s: bad default '%s' for --%s: %s", spec->name,
				    o->def, o->name, why);
				return EXIT_USAGE;
			}
		}
	return EXIT_OK;
}

static bool wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return true;
	return false;
}

/* The options given on the command line, for their conflicts. */
enum { GIVEN_MAX = 128 };
struct given {
	const struct opt *opts[GIVEN_MAX];
	int n;
};

/* One value of option o (given as shown), into opts; EXIT_OK or EXIT_USAGE. */
static int take(const struct cmd_spec *spec, const struct opt_group *g, const struct opt *o,
                const char *shown, const char *arg, void *opts, struct given *gv, char *err,
                size_t len)
{
	char why[512];
	int rc = parse_value(o, arg, (char *)opts + g->base, field_of(opts, g, o), why, sizeof why);
	if (rc == 0 && gv->n < GIVEN_MAX)
		gv->opts[gv->n++] = o;
	if (rc == 0)
		return EXIT_OK;
	if (rc == OPT_WHOLE_MESSAGE)
		say(err, len, "%s: %s", spec->name, why);
	else
		say(err, len, "%s: bad value '%s' for %s: %s", spec->name, arg, shown, why);
	return EXIT_USAGE;
}

static int add_arg(const struct cmd_spec *spec, char *arg, void *opts, char *err, size_t len)
{
	struct opt_args *a =
	    spec->args_name ? (struct opt_args *)((char *)opts + spec->args_offset) : NULL;
	if (!a || (spec->max_args >= 0 && a->count >= spec->max_args)) {
		say(err, len, "%s: unexpected argument '%s'", spec->name, arg);
		return EXIT_USAGE;
	}
	if (a->count == OPT_MAX_ARGS) {
		say(err, len, "%s: more than %d %s", spec->name, OPT_MAX_ARGS, spec->args_name);
		return EXIT_USAGE;
	}
	a->items[a->count++] = arg;
	return EXIT_OK;
}

static int long_option(const struct cmd_spec *spec, int argc, char **argv, int *i, void *opts,
                       struct given *gv, char *err, size_t len)
{
	const char *name = argv[*i] + 2, *eq = strchr(name, '=');
	size_t name_len = eq ? (size_t)(eq - name) : strlen(name);
	const struct opt_group *g;
	const struct opt *o = find(spec, name, name_len, 0, &g);
	char shown[128];
	if (!o) {
		say(err, len, "%s: unknown option '%.*s' (see 'collscope %s --help')", spec->name,
		    (int)(name_len + 2), argv[*i], spec->name);
		return EXIT_USAGE;
	}
	snprintf(shown, sizeof shown, "--%s", o->name);
	if (o->kind == OPT_FLAG) {
		if (eq) {
			say(err, len, "%s: option '%s' takes no value (got '%s')", spec->name,
			    shown, eq + 1);
			return EXIT_USAGE;
		}
		return take(spec, g, o, shown, "", opts, gv, err, len);
	}
	if (eq)
		return take(spec, g, o, shown, eq + 1, opts, gv, err, len);
	if (*i + 1 >= argc) {
		say(err, len, "%s: option '%s' needs a value (%s)", spec->name, shown, o->metavar);
		return EXIT_USAGE;
	}
	return take(spec, g, o, shown, argv[++*i], opts, gv, err, len);
}

/* -x, -xVALUE, -x VALUE, and bundled flags -qF. */
static int short_options(const struct cmd_spec *spec, int argc, char **argv, int *i, void *opts,
                         struct given *gv, char *err, size_t len)
{
	for (const char *p = argv[*i] + 1; *p; p++) {
		const struct opt_group *g;
		const struct opt *o = find(spec, NULL, 0, *p, &g);
		char shown[128];
		if (!o) {
			say(err, len,
			    "%s: unknown option '-%c' in '%s' (see 'collscope %s --help')",
			    spec->name, *p, argv[*i], spec->name);
			return EXIT_USAGE;
		}
		/* the long name says what the option is, whichever way it was given */
		snprintf(shown, sizeof shown, "--%s", o->name);
		if (o->kind == OPT_FLAG) {
			if (take(spec, g, o, shown, "", opts, gv, err, len) != EXIT_OK)
				return EXIT_USAGE;
			continue;
		}
		if (p[1])
			return take(spec, g, o, shown, p + 1, opts, gv, err, len);
		if (*i + 1 >= argc) {
			say(err, len, "%s: option '-%c' (%s) needs a value (%s)", spec->name,
			    o->letter, shown, o->metavar);
			return EXIT_USAGE;
		}
		return take(spec, g, o, shown, argv[++*i], opts, gv, err, len);
	}
	return EXIT_OK;
}

static int check_arg_count(const struct cmd_spec *spec, const void *opts, char *err, size_t len)
{
	if (!spec->args_name)
		return EXIT_OK;
	const struct opt_args *a =
	    (const struct opt_args *)((const char *)opts + spec->args_offset);
	if (a->count >= spec->min_args)
		return EXIT_OK;
	if (spec->min_args == spec->max_args)
		say(err, len, "%s: expected %s, got %d (see 'collscope %s --help')", spec->name,
		    spec->args_name, a->count, spec->name);
	else
		say(err, len, "%s: expected at least %d %s, got %d (see 'collscope %s --help')",
		    spec->name, spec->min_args, spec->args_name, a->count, spec->name);
	return EXIT_USAGE;
}

/* true, with err naming both, when two options given together conflict. */
static bool check_conflicts(const struct cmd_spec *spec, const struct given *gv, char *err,
                            size_t len)
{
	for (int i = 0; i < gv->n; i++)
		for (int c = 0; gv->opts[i]->conflicts && gv->opts[i]->conflicts[c]; c++)
			for (int j = 0; j < gv->n; j++)
				if (strcmp(gv->opts[j]->name, gv->opts[i]->conflicts[c]) == 0) {
					say(err, len,
					    "%s: --%s and --%s conflict: give one or the other",
					    spec->name, gv->opts[i]->name, gv->opts[j]->name);
					return true;
				}
	return false;
}

enum opts_outcome opts_parse(const struct cmd_spec *spec, int argc, char **argv, void *opts,
                             char *err, size_t len)
{
	if (err && len)
		err[0] = '\0';
	if (wants_help(argc, argv))
		return OPTS_HELP;
	if (opts_defaults(spec, opts, err, len) != EXIT_OK)
		return OPTS_ERROR;
	bool options_end = false;
	struct given gv = {.n = 0};
	for (int i = 1; i < argc; i++) {
		char *a = argv[i];
		int rc;
		if (options_end || a[0] != '-' || a[1] == '\0')
			rc = add_arg(spec, a, opts, err, len);
		else if (strcmp(a, "--") == 0) {
			options_end = true;
			continue;
		} else if (a[1] == '-')
			rc = long_option(spec, argc, argv, &i, opts, &gv, err, len);
		else
			rc = short_options(spec, argc, argv, &i, opts, &gv, err, len);
		if (rc != EXIT_OK)
			return OPTS_ERROR;
	}
	if (check_arg_count(spec, opts, err, len) != EXIT_OK || check_conflicts(spec, &gv, err, len))
		return OPTS_ERROR;
	if (spec->check && spec->check(opts, err, len) != EXIT_OK)
		return OPTS_ERROR;
	return OPTS_RUN;
}

/* A growing string for the usage text. */
struct text {
	char *s;
	size_t len, cap;
	bool failed;
};

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (t->failed || n < 0)
		return;
	if (t->len + (size_t)n + 1 > t->cap) {
		size_t cap = (t->cap ? 2 * t->cap : 4096) + (size_t)n;
		char *grown = realloc(t->s, cap);
		if (!grown) {
			t->failed = true;
			return;
		}
		t->s = grown;
		t->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

/* The help of one option: its left column, then its text with the default in it. */
static void put_option(struct text *t, const struct opt *o)
{
	char left[96], deflt[160] = "";
	const char *shown = o->def_text ? o->def_text : o->def;
	int n = snprintf(left, sizeof left, "  %s%c%s--%s%s%s", o->letter ? "-" : " ",
	                 o->letter ? o->letter : ' ', o->letter ? ", " : "  ", o->name,
	                 o->metavar ? " " : "", o->metavar ? o->metavar : "");
	if (shown && *shown)
		snprintf(deflt, sizeof deflt, "default %s", shown);
	put(t, "%s%*s", left, n < HELP_COLUMN - 1 ? HELP_COLUMN - n : 2, "");
	const char *h = o->help ? o->help : "", *mark = strstr(h, "{default}");
	bool appended = !*deflt || mark;
	/* no text (a table's mistake, which tests/cli/reference.sh names): the line still ends */
	if (!*h)
		put(t, "%s%s%s\n", *deflt ? "(" : "", deflt, *deflt ? ")" : "");
	for (const char *line = h; *line;) {
		const char *nl = strchr(line, '\n');
		size_t l = nl ? (size_t)(nl - line) : strlen(line);
		if (line != h)
			put(t, "%*s", HELP_COLUMN, "");
		if (mark && mark >= line && mark < line + l) {
			put(t, "%.*s%s%.*s", (int)(mark - line), line, deflt,
			    (int)(line + l - mark - 9), mark + 9);
		} else {
			put(t, "%.*s", (int)l, line);
		}
		line += l + (nl ? 1 : 0);
		/* the default closes the text: after its first line it would split a sentence */
		if (!appended && !*line) {
			if (HELP_COLUMN + (int)l + 3 + (int)strlen(deflt) > HELP_WIDTH)
				put(t, "\n%*s", HELP_COLUMN, "");
			else
				put(t, " ");
			put(t, "(%s)", deflt);
			appended = true;
		}
		put(t, "\n");
	}
}

char *opts_usage(const struct cmd_spec *spec)
{
	struct text t = {0};
	put(&t, "usage: %s\n\n%s\n", spec->synopsis, spec->description);
	for (const struct opt_group *g = spec->groups; g->opts; g++)
		for (size_t i = 0; i < g->count; i++)
			put_option(&t, &g->opts[i]);
	put(&t, "  -h, --help%*sthis text\n", HELP_COLUMN - 12, "");
	if (spec->exit_codes)
		put(&t, "\n%s", spec->exit_codes);
	if (t.failed) {
		free(t.s);
		return NULL;
	}
	return t.s;
}

static bool echo(cJSON *cfg, const struct opt *o, const void *base, const void *field)
{
	if (o->echo)
		return o->echo(cfg, o->key, base, o);
	switch (o->kind) {
	case OPT_FLAG:
	case OPT_BOOL01: return cJSON_AddBoolToObject(cfg, o->key, *(const bool *)field);
	case OPT_BYTES:
	case OPT_U64: return cJSON_AddNumberToObject(cfg, o->key, (double)*(const uint64_t *)field);
	case OPT_INT: return cJSON_AddNumberToObject(cfg, o->key, *(const int *)field);
	case OPT_NUMBER: return report_add_number(cfg, o->key, *(const double *)field);
	case OPT_STRING: {
		const char *s = *(const char *const *)field;
		return s ? cJSON_AddStringToObject(cfg, o->key, s)
		         : cJSON_AddNullToObject(cfg, o->key);
	}
	case OPT_CHOICE:
		return cJSON_AddStringToObject(cfg, o->key, o->choices[*(const int *)field]);
	case OPT_CUSTOM: return false; /* a custom option with a key has an echo */
	}
	return false;
}

cJSON *opts_to_json(cJSON *root, const struct cmd_spec *spec, const void *opts)
{
	cJSON *cfg = cJSON_AddObjectToObject(root, "config");
	for (const struct opt_group *g = spec->groups; cfg && g->opts; g++)
		for (size_t i = 0; i < g->count; i++) {
			const struct opt *o = &g->opts[i];
			const char *base = (const char *)opts + g->base;
			if (o->key && !echo(cfg, o, base, base + o->offset))
				return NULL;
		}
	if (cfg && spec->echo && !spec->echo(cfg, opts))
		return NULL;
	return cfg;
}
