/* The schema's table (reports/io/schema_table.h) and what is generated from it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/timing.h"
#include "reports/diagnose/detect.h"
#include "reports/io/links_report.h"
#include "reports/io/report_schema.h"

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n >= t && strcmp(s + n - t, tail) == 0;
}

/* name carries suffix: "p50_us" ends with "_us"; "bytes" is "bytes" itself. */
static bool carries(const char *name, const char *suffix)
{
	return ends_with(name, suffix) || (suffix[0] == '_' && strcmp(name, suffix + 1) == 0);
}

/* Every field that holds an object of kind obj has a name carrying suffix (and there is one). */
static bool object_carries(enum schema_object obj, const char *suffix)
{
	int refs = 0;
	for (int i = 0; i < SF_COUNT; i++)
		if (schema_fields[i].child == obj) {
			refs++;
			if (!carries(schema_fields[i].name, suffix))
				return false;
		}
	return refs > 0;
}

Test(schema, measured_quantities_carry_their_unit)
{
	for (int i = 0; i < SF_COUNT; i++) {
		const struct schema_field *f = &schema_fields[i];
		const char *title = schema_objects[f->object].title;
		if (!f->unit[0])
			continue;
		const char *suffix = schema_unit_suffix(f->unit);
		cr_assert(suffix, "%s.%s: unit '%s' has no suffix", title, f->name, f->unit);
		cr_assert(carries(f->name, suffix) || object_carries(f->object, suffix),
		          "%s.%s [%s]: neither it nor its object's key ends with %s", title,
		          f->name, f->unit, suffix);
	}
}

Test(schema, a_name_with_a_unit_suffix_declares_that_unit)
{
	static const char *const units[] = {"us", "GB/s", "s", "ms", "ppm", "%", "us/byte"};
	for (int i = 0; i < SF_COUNT; i++) {
		const struct schema_field *f = &schema_fields[i];
		if (f->type != SCHEMA_NUM && f->type != SCHEMA_NUMS && f->type != SCHEMA_NUMSS)
			continue;
		const char *want = NULL;
		for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
			const char *suffix = schema_unit_suffix(units[u]);
			if (ends_with(f->name, suffix) &&
			    (!want || strlen(suffix) > strlen(schema_unit_suffix(want))))
				want = units[u];
		}
		if (want)
			cr_assert_str_eq(f->unit, want, "%s.%s", schema_objects[f->object].title,
			                 f->name);
	}
}

Test(schema, no_name_twice_in_one_object)
{
	for (int i = 0; i < SF_COUNT; i++)
		for (int j = i + 1; j < SF_COUNT; j++)
			cr_assert(schema_fields[i].object != schema_fields[j].object ||
			              strcmp(schema_fields[i].name, schema_fields[j].name) != 0,
			          "%s has '%s' twice",
			          schema_objects[schema_fields[i].object].title,
			          schema_fields[i].name);
}

Test(schema, every_object_has_fields_and_a_place)
{
	for (int o = 0; o < SO_COUNT; o++) {
		bool fields = false, placed = o == SO_REPORT;
		for (int i = 0; i < SF_COUNT; i++) {
			fields = fields || schema_fields[i].object == (enum schema_object)o;
			placed = placed || schema_fields[i].child == (enum schema_object)o;
		}
		for (int c = 0; c < REPORT_COMMANDS; c++)
			placed = placed || schema_commands[c].result == (enum schema_object)o ||
			         schema_commands[c].extra == (enum schema_object)o ||
			         schema_commands[c].summary == (enum schema_object)o;
		cr_assert(fields && placed, "%s: fields %d, placed %d", schema_objects[o].title,
		          fields, placed);
	}
}

Test(schema, children_only_where_the_type_has_them)
{
	for (int i = 0; i < SF_COUNT; i++) {
		const struct schema_field *f = &schema_fields[i];
		bool may = f->type == SCHEMA_OBJ || f->type == SCHEMA_OBJS || f->type == SCHEMA_MAP;
		cr_assert(may || f->child == SO_NONE, "%s.%s", schema_objects[f->object].title,
		          f->name);
		cr_assert(!f->choices || f->type == SCHEMA_STR, "%s", f->name);
		cr_assert(f->meaning[0], "%s has no meaning", f->name);
	}
}

Test(schema, keys_are_the_table_names)
{
	cr_assert_str_eq(SK_AR_BUSBW_GBPS, "busbw_gbps");
	cr_assert_str_eq(schema_fields[SF_AR_BUSBW_GBPS].name, SK_AR_BUSBW_GBPS);
	cr_assert_eq(schema_fields[SF_TIME_P50].object, SO_TIME);
	cr_assert_str_eq(SK_REPORT_SCHEMA_VERSION, "schema_version");
}

Test(schema, json_schema_of_every_command)
{
	for (int c = 0; c <= REPORT_COMMANDS; c++) {
		cJSON *s = schema_json((enum report_command)c);
		cr_assert(s);
		cJSON *props = cJSON_GetObjectItem(s, "properties");
		cJSON *cmd = cJSON_GetObjectItem(props, "command");
		cr_assert(cJSON_IsObject(cmd));
		if (c < REPORT_COMMANDS)
			cr_assert_str_eq(cJSON_GetObjectItem(cmd, "const")->valuestring,
			                 schema_command_names[c]);
		cJSON_Delete(s);
	}
	cJSON *s = schema_json(REPORT_CMD_ALLREDUCE);
	cJSON *items = cJSON_GetObjectItem(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(s, "properties"), "results"), "items");
	cJSON *timing = cJSON_GetObjectItem(cJSON_GetObjectItem(items, "properties"), SK_AR_TIMING);
	cJSON *e = cJSON_GetObjectItem(timing, "enum");
	cr_assert_eq(cJSON_GetArraySize(e), TIMING_METHOD_COUNT);
	cr_assert_str_eq(cJSON_GetArrayItem(e, 2)->valuestring, "pipelined");
	cJSON_Delete(s);
}

Test(schema, markdown_names_every_object)
{
	char *md = schema_markdown();
	cr_assert(md);
	for (int o = 0; o < SO_COUNT; o++) {
		char title[160];
		snprintf(title, sizeof title, "### `%s`", schema_objects[o].title);
		cr_assert(strstr(md, title), "%s", title);
	}
	free(md);
}

Test(schema, enum_names_map_back)
{
	enum report_command c;
	cr_assert_eq(report_command_parse("links", &c), 0);
	cr_assert_eq(c, REPORT_CMD_LINKS);
	cr_assert_eq(report_command_parse("nosuch", &c), -1);
	cr_assert_eq(report_command_parse(NULL, &c), -1);
	for (int i = 0; i < TIMING_METHOD_COUNT; i++) {
		enum timing_method m;
		cr_assert_eq(timing_method_parse(timing_method_names[i], &m), 0);
		cr_assert_eq((int)m, i);
	}
	for (int i = 0; i < DETECT_KINDS; i++) {
		enum detect_kind k;
		cr_assert_eq(detect_kind_parse(detect_kind_name((enum detect_kind)i), &k), 0);
		cr_assert_eq((int)k, i);
	}
	enum detect_metric m;
	enum detect_locality l;
	cr_assert_eq(detect_metric_parse("latency", &m), 0);
	cr_assert_eq(m, DETECT_LATENCY);
	cr_assert_eq(detect_locality_parse("cross_host", &l), 0);
	cr_assert_eq(l, DETECT_CROSS_HOST);
	cr_assert_eq(detect_kind_parse("bogus", &(enum detect_kind){DETECT_LINK}), -1);
	cr_assert_str_eq(timing_cause_name(TIMING_CAUSE_SLOW_INSIDE), "slow_inside");
	cr_assert_null(timing_cause_name(TIMING_CAUSE_NONE));
	cr_assert_str_eq(suspect_pattern_names[SUSPECT_SHIFT], "shift");
}
