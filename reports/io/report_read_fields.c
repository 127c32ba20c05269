/*
 * Typed access to the members of a report's objects (see report_read.h):
 * each getter checks presence, type and range, and names the file, the JSON
 * path and the problem when one fails. libc, libm and cJSON only.
 */
#include "reports/io/report_read.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Integers beyond 2^53 are not exact in a double, so they cannot be trusted as keys. */
#define EXACT_INTEGER_MAX 9007199254740992.0

__attribute__((format(printf, 4, 5))) static int fail(const struct report_at *at, const char *name,
                                                      size_t index, const char *fmt, ...)
{
	char why[200], item[32] = "";
	va_list ap;

	if (!at->err || at->errlen == 0)
		return -1;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	if (index != (size_t)-1)
		snprintf(item, sizeof item, "[%zu]", index);
	snprintf(at->err, at->errlen, "report '%s': %s%s%s%s %s", at->path, at->where,
	         at->where[0] ? "." : "", name, item, why);
	return -1;
}

/* The member, or NULL when absent or null; -1 when missing and required. */
static int member(const struct report_at *at, const cJSON *obj, const char *name, bool required,
                  const cJSON **out)
{
	const cJSON *m = cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, name) : NULL;

	*out = cJSON_IsNull(m) ? NULL : m;
	if (!*out && required)
		return fail(at, name, (size_t)-1, m ? "is null" : "is missing");
	return 0;
}

int report_get_string(const struct report_at *at, const cJSON *obj, const char *name, bool required,
                      const char **out)
{
	const cJSON *m;

	*out = NULL;
	if (member(at, obj, name, required, &m) != 0)
		return -1;
	if (m && !cJSON_IsString(m))
		return fail(at, name, (size_t)-1, "is not a string");
	*out = m ? m->valuestring : NULL;
	return 0;
}

static int check_number(const struct report_at *at, const cJSON *m, const char *name, size_t index,
                        double min, double max)
{
	if (!cJSON_IsNumber(m))
		return fail(at, name, index, "is not a number");
	if (!(m->valuedouble >= min && m->valuedouble <= max))
		return fail(at, name, index, "is out of range (%.6g, expected %.6g to %.6g)",
		            m->valuedouble, min, max);
	return 0;
}

int report_get_number(const struct report_at *at, const cJSON *obj, const char *name, bool required,
                      double min, double max, double *out)
{
	const cJSON *m;

	*out = NAN;
	if (member(at, obj, name, required, &m) != 0)
		return -1;
	if (m && check_number(at, m, name, (size_t)-1, min, max) != 0)
		return -1;
	if (m)
		*out = m->valuedouble;
	return 0;
}

int report_get_integer(const struct report_at *at, const cJSON *obj, const char *name,
                       bool required, double min, double max, int64_t *out)
{
	const cJSON *m;

	min = fmax(min, -EXACT_INTEGER_MAX);
	max = fmin(max, EXACT_INTEGER_MAX);
	if (member(at, obj, name, required, &m) != 0)
		return -1;
	if (!m)
		return 0;
	if (check_number(at, m, name, (size_t)-1, min, max) != 0)
		return -1;
	if (floor(m->valuedouble) != m->valuedouble)
		return fail(at, name, (size_t)-1, "is not a whole number (%.6g)", m->valuedouble);
	*out = (int64_t)m->valuedouble;
	return 0;
}

int report_get_bool(const struct report_at *at, const cJSON *obj, const char *name, bool required,
                    bool *out)
{
	const cJSON *m;

	if (member(at, obj, name, required, &m) != 0)
		return -1;
	if (m && !cJSON_IsBool(m))
		return fail(at, name, (size_t)-1, "is not true or false");
	if (m)
		*out = cJSON_IsTrue(m);
	return 0;
}

int report_get_object(const struct report_at *at, const cJSON *obj, const char *name, bool required,
                      const cJSON **out)
{
	if (member(at, obj, name, required, out) != 0)
		return -1;
	if (*out && !cJSON_IsObject(*out)) {
		*out = NULL;
		return fail(at, name, (size_t)-1, "is not an object");
	}
	return 0;
}

int report_get_array(const struct report_at *at, const cJSON *obj, const char *name, bool required,
                     const cJSON **out)
{
	if (member(at, obj, name, required, out) != 0)
		return -1;
	if (*out && !cJSON_IsArray(*out)) {
		*out = NULL;
		return fail(at, name, (size_t)-1, "is not an array");
	}
	return 0;
}

int report_get_numbers(const struct report_at *at, const cJSON *obj, const char *name,
                       bool required, double min, double max, double **out, size_t *n)
{
	const cJSON *a, *c;
	double *x = NULL;
	size_t i = 0, count;

	*out = NULL;
	*n = 0;
	if (report_get_array(at, obj, name, required, &a) != 0)
		return -1;
	count = a ? (size_t)cJSON_GetArraySize(a) : 0;
	if (count == 0)
		return 0;
	x = malloc(count * sizeof *x);
	if (!x)
		return fail(at, name, (size_t)-1, "does not fit in memory (%zu values)", count);
	for (c = a->child; c; c = c->next, i++) {
		if (check_number(at, c, name, i, min, max) != 0) {
			free(x);
			return -1;
		}
		x[i] = c->valuedouble;
	}
	*out = x;
	*n = count;
	return 0;
}
