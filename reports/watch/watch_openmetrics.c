/* See watch_openmetrics.h. */
#include "reports/watch/watch_openmetrics.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void om_text_init(struct om_text *t)
{
	*t = (struct om_text){0};
}

void om_text_release(struct om_text *t)
{
	for (size_t i = 0; i < t->nseen; i++)
		free(t->seen[i]);
	free(t->seen);
	free(t->text);
	*t = (struct om_text){0};
}

static int fail(struct om_text *t)
{
	t->failed = true;
	return -1;
}

static int append(struct om_text *t, const char *s, size_t n)
{
	if (t->len + n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 4096;
		while (cap < t->len + n + 1)
			cap *= 2;
		char *grown = realloc(t->text, cap);
		if (!grown)
			return fail(t);
		t->text = grown;
		t->cap = cap;
	}
	memcpy(t->text + t->len, s, n);
	t->len += n;
	t->text[t->len] = 0;
	return 0;
}

static int appendf(struct om_text *t, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (k < 0 || (size_t)k >= sizeof buf)
		return fail(t);
	return append(t, buf, (size_t)k);
}

bool om_valid_name(const char *name, bool label_name)
{
	if (!name || !*name)
		return false;
	for (const char *p = name; *p; p++) {
		bool alpha = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' ||
		             (!label_name && *p == ':');
		if (!alpha && !(p > name && *p >= '0' && *p <= '9'))
			return false;
	}
	return true;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n > k && strcmp(s + n - k, suffix) == 0;
}

static int remember(struct om_text *t, const char *name)
{
	for (size_t i = 0; i < t->nseen; i++)
		if (strcmp(t->seen[i], name) == 0)
			return fail(t);
	if (t->nseen == t->capseen) {
		size_t cap = t->capseen ? 2 * t->capseen : 16;
		char **grown = realloc(t->seen, cap * sizeof *grown);
		if (!grown)
			return fail(t);
		t->seen = grown;
		t->capseen = cap;
	}
	if (!(t->seen[t->nseen] = strdup(name)))
		return fail(t);
	t->nseen++;
	return 0;
}

int om_family(struct om_text *t, const char *name, enum om_type type, const char *unit,
              const char *help)
{
	char suffix[64];
	if (t->failed || t->finished || !om_valid_name(name, false) ||
	    strlen(name) >= sizeof t->family || strpbrk(help, "\n\\\""))
		return fail(t);
	snprintf(suffix, sizeof suffix, "_%s", unit);
	if ((*unit && (!om_valid_name(unit, true) || !ends_with(name, suffix))) ||
	    (type == OM_COUNTER && ends_with(name, "_total")) || remember(t, name) != 0)
		return fail(t);
	snprintf(t->family, sizeof t->family, "%s", name);
	t->type = type;
	if (appendf(t, "# TYPE %s %s\n", name, type == OM_COUNTER ? "counter" : "gauge") != 0 ||
	    (*unit && appendf(t, "# UNIT %s %s\n", name, unit) != 0) ||
	    appendf(t, "# HELP %s %s\n", name, help) != 0)
		return -1;
	return 0;
}

static int label_value(struct om_text *t, const char *v)
{
	for (const char *p = v; *p; p++) {
		const char *esc = *p == '\\'   ? "\\\\"
		                  : *p == '"'  ? "\\\""
		                  : *p == '\n' ? "\\n"
		                               : NULL;
		if (append(t, esc ? esc : p, esc ? 2 : 1) != 0)
			return -1;
	}
	return 0;
}

static int number(struct om_text *t, double v)
{
	if (isnan(v))
		return append(t, "NaN", 3);
	if (isinf(v))
		return v > 0 ? append(t, "+Inf", 4) : append(t, "-Inf", 4);
	char buf[40];
	for (int digits = 1; digits <= 17; digits++) {
		snprintf(buf, sizeof buf, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return append(t, buf, strlen(buf));
}

int om_sample(struct om_text *t, const struct om_label *labels, size_t n, double value)
{
	/* a counter only counts: never negative, never undefined */
	if (t->failed || t->finished || !*t->family ||
	    (t->type == OM_COUNTER && !(value >= 0 && isfinite(value))))
		return fail(t);
	if (appendf(t, "%s%s", t->family, t->type == OM_COUNTER ? "_total" : "") != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!om_valid_name(labels[i].name, true) || !labels[i].value)
			return fail(t);
		for (size_t j = 0; j < i; j++)
			if (strcmp(labels[i].name, labels[j].name) == 0)
				return fail(t);
		if (appendf(t, "%s%s=\"", i ? "," : "{", labels[i].name) != 0 ||
		    label_value(t, labels[i].value) != 0 || append(t, "\"", 1) != 0)
			return -1;
	}
	if ((n && append(t, "}", 1) != 0) || append(t, " ", 1) != 0 || number(t, value) != 0)
		return -1;
	return append(t, "\n", 1);
}

int om_finish(struct om_text *t)
{
	if (t->failed || t->finished || append(t, "# EOF\n", 6) != 0)
		return fail(t);
	t->finished = true;
	return 0;
}
