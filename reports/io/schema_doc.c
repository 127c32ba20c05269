/* reports/SCHEMA.md from the schema's table. See schema.h. */
#include "reports/io/report_schema.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct doc {
	char *text;
	size_t used, cap;
	bool failed; /* out of memory: the rest is dropped */
};

__attribute__((format(printf, 2, 3))) static void put(struct doc *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (d->failed || n < 0)
		return;
	if (d->used + (size_t)n + 1 > d->cap) {
		size_t cap = (d->cap ? 2 * d->cap : 16384) + (size_t)n;
		char *t = realloc(d->text, cap);
		if (!t) {
			d->failed = true;
			return;
		}
		d->text = t;
		d->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(d->text + d->used, d->cap - d->used, fmt, ap);
	va_end(ap);
	d->used += (size_t)n;
}

/* "number or null", "array of `context.hosts[]`", "one of window, barrier, pipelined" */
static void put_type(struct doc *d, const struct schema_field *f)
{
	static const char *const names[] = {
	    [SCHEMA_STR] = "string",
	    [SCHEMA_INT] = "integer",
	    [SCHEMA_NUM] = "number",
	    [SCHEMA_BOOL] = "boolean",
	    [SCHEMA_OBJ] = "object",
	    [SCHEMA_OBJS] = "array of objects",
	    [SCHEMA_MAP] = "object",
	    [SCHEMA_INTS] = "array of integers",
	    [SCHEMA_NUMS] = "array of numbers or null",
	    [SCHEMA_STRS] = "array of strings",
	    [SCHEMA_NUMSS] = "array of rows of numbers or null",
	};
	bool nullable = f->flags & SCHEMA_NULLABLE;
	bool array = f->type == SCHEMA_OBJS || f->type == SCHEMA_INTS || f->type == SCHEMA_STRS;
	put(d, "%s", names[f->type]);
	if (f->child != SO_NONE)
		put(d, f->type == SCHEMA_MAP ? " of `%s`" : " `%s`",
		    schema_objects[f->child].title);
	if (nullable && f->type != SCHEMA_NUMS && f->type != SCHEMA_NUMSS)
		put(d, array ? " (items may be null)" : " or null");
	for (size_t i = 0; f->choices && f->choices[i]; i++)
		put(d, "%s%s", i ? ", " : ": one of ", f->choices[i]);
}

static void put_object(struct doc *d, enum schema_object obj)
{
	put(d, "\n### `%s`\n\n%s.\n\n", schema_objects[obj].title, schema_objects[obj].meaning);
	put(d, "| field | type | unit | required | meaning |\n|---|---|---|---|---|\n");
	for (int i = 0; i < SF_COUNT; i++) {
		const struct schema_field *f = &schema_fields[i];
		if (f->object != obj)
			continue;
		put(d, "| `%s` | ", f->name);
		put_type(d, f);
		put(d, " | %s | %s | %s |\n", f->unit, f->flags & SCHEMA_REQUIRED ? "yes" : "",
		    f->meaning);
	}
}

static const char *title_or_dash(enum schema_object o)
{
	return o == SO_NONE ? "-" : schema_objects[o].title;
}

static void put_commands(struct doc *d)
{
	put(d, "| command | `results[]` | also in `results[]` | `summary` |\n|---|---|---|---|\n");
	for (int c = 0; c < REPORT_COMMANDS; c++) {
		const struct schema_command *k = &schema_commands[c];
		put(d, "| %s | `%s` | `%s` | `%s` |\n", k->name, title_or_dash(k->result),
		    title_or_dash(k->extra), title_or_dash(k->summary));
	}
}

char *schema_markdown(void)
{
	struct doc d = {0};
	put(&d, "# Report schema (schema_version 2)\n\n"
	        "Generated from `reports/io/schema_table.h` by `make schema-doc` "
	        "(`collscope schema --markdown`): do not edit by hand. "
	        "`collscope schema COMMAND` prints the same as a JSON Schema (draft 2020-12).\n\n"
	        "One JSON document per run, written by rank 0. Readers ignore members they do "
	        "not know; a change that removes or renames a field bumps `schema_version`. "
	        "An undefined statistic (a percentile of too few samples, a ratio of nothing) "
	        "is `null`. A measured quantity carries its unit in its name (`_us`, `_gbps`, "
	        "`bytes`, `_s`, `_ppm`, `_percent`), or in its object's name "
	        "(`time_us.p50`). *required* marks what every report with that object has; "
	        "a skipped all-reduce record has no figures.\n\n"
	        "`links` writes schema_version 2: its pairs as parallel arrays under `pairs`, "
	        "raw samples only under `pair_samples` (schema 1 had a `results[]` record of "
	        "about 2 KB per pair). The other commands write 1, unchanged. Readers read both.\n\n"
	        "## Commands\n\n");
	put_commands(&d);
	put(&d, "\n`config` holds every option in force, defaults filled in, under its long "
	        "name (`collscope COMMAND --help`).\n\n## Objects\n");
	for (int o = 0; o < SO_COUNT; o++)
		put_object(&d, (enum schema_object)o);
	if (d.failed) {
		free(d.text);
		return NULL;
	}
	return d.text;
}
