/* The schema's table as data, and its JSON Schema. See schema.h. */
#include "reports/io/report_schema.h"

#include <stdio.h>
#include <string.h>

#include "algorithms/sample_stop.h"
#include "algorithms/timing.h"
#include "algorithms/variant.h"
#include "reports/diagnose/detect.h"
#include "reports/io/links_compact.h"
#include "reports/io/links_report.h"
#include "reports/watch/watch_jsonl.h"

#define SCHEMA_KEY_DEF(obj, id, name, type, child, flags, choices, unit, meaning)                  \
	const char SK_##obj##_##id[] = name;
SCHEMA_FIELDS(SCHEMA_KEY_DEF)
#undef SCHEMA_KEY_DEF

#define SCHEMA_FLAGS_0  0u
#define SCHEMA_FLAGS_R  SCHEMA_REQUIRED
#define SCHEMA_FLAGS_N  SCHEMA_NULLABLE
#define SCHEMA_FLAGS_RN (SCHEMA_REQUIRED | SCHEMA_NULLABLE)

#define SCHEMA_FIELD_ROW(obj, id, name, type, child, flags, choices, unit, meaning)                \
	[SF_##obj##_##id] = {                                                                      \
	    SO_##obj, SK_##obj##_##id, SCHEMA_##type, SO_##child, SCHEMA_FLAGS_##flags, choices,   \
	    unit,     meaning},
const struct schema_field schema_fields[SF_COUNT] = {SCHEMA_FIELDS(SCHEMA_FIELD_ROW)};
#undef SCHEMA_FIELD_ROW

#define SCHEMA_OBJ_ROW(tok, title, meaning) [SO_##tok] = {#tok, title, meaning},
const struct schema_object_desc schema_objects[SO_COUNT] = {SCHEMA_OBJECTS(SCHEMA_OBJ_ROW)};
#undef SCHEMA_OBJ_ROW

#define SCHEMA_CMD_ROW(id, name, result, extra, summary)                                           \
	[REPORT_CMD_##id] = {name, SO_##result, SO_##extra, SO_##summary},
const struct schema_command schema_commands[REPORT_COMMANDS] = {SCHEMA_COMMANDS(SCHEMA_CMD_ROW)};
#undef SCHEMA_CMD_ROW

#define SCHEMA_CMD_NAME(id, name, result, extra, summary) [REPORT_CMD_##id] = name,
const char *const schema_command_names[REPORT_COMMANDS + 1] = {SCHEMA_COMMANDS(SCHEMA_CMD_NAME)};
#undef SCHEMA_CMD_NAME

int report_command_parse(const char *name, enum report_command *out)
{
	for (int i = 0; name && i < REPORT_COMMANDS; i++)
		if (strcmp(name, schema_command_names[i]) == 0) {
			*out = (enum report_command)i;
			return 0;
		}
	return -1;
}

const char *schema_unit_suffix(const char *unit)
{
	static const char *const units[][2] = {
	    {"us", "_us"},     {"GB/s", "_gbps"},     {"bytes", "bytes"},
	    {"s", "_s"},       {"ms", "_ms"},         {"ppm", "_ppm"},
	    {"%", "_percent"}, {"elements", "count"}, {"us/byte", "_us_per_byte"},
	};
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(unit, units[i][0]) == 0)
			return units[i][1];
	return NULL;
}

/* {"type": t} or {"type": [t, "null"]}, into o. */
static bool add_type(cJSON *o, const char *t, bool nullable)
{
	if (!nullable)
		return cJSON_AddStringToObject(o, "type", t) != NULL;
	cJSON *a = cJSON_AddArrayToObject(o, "type");
	return a && cJSON_AddItemToArray(a, cJSON_CreateString(t)) &&
	       cJSON_AddItemToArray(a, cJSON_CreateString("null"));
}

static bool add_object(cJSON *o, enum schema_object obj, enum schema_object extra, bool nullable);

/* The schema of a scalar, or of an object of kind child, into o. */
static bool add_item(cJSON *o, enum schema_type t, enum schema_object child, bool nullable)
{
	switch (t) {
	case SCHEMA_STR: return add_type(o, "string", nullable);
	case SCHEMA_INT: return add_type(o, "integer", nullable);
	case SCHEMA_NUM: return add_type(o, "number", nullable);
	case SCHEMA_BOOL: return add_type(o, "boolean", nullable);
	default: return add_object(o, child, SO_NONE, nullable);
	}
}

/* items: the schema of an array's items. */
static bool add_array(cJSON *o, const struct schema_field *f)
{
	static const enum schema_type item[] = {
	    [SCHEMA_OBJS] = SCHEMA_OBJ, [SCHEMA_INTS] = SCHEMA_INT,  [SCHEMA_NUMS] = SCHEMA_NUM,
	    [SCHEMA_STRS] = SCHEMA_STR, [SCHEMA_NUMSS] = SCHEMA_NUM,
	};
	bool nullable =
	    (f->flags & SCHEMA_NULLABLE) || f->type == SCHEMA_NUMS || f->type == SCHEMA_NUMSS;
	cJSON *items = add_type(o, "array", false) ? cJSON_AddObjectToObject(o, "items") : NULL;
	if (items && f->type == SCHEMA_NUMSS) /* rows */
		items = add_type(items, "array", false) ? cJSON_AddObjectToObject(items, "items")
		                                        : NULL;
	return items &&
	       add_item(items, item[f->type], f->child, nullable && f->type != SCHEMA_OBJS);
}

/* "description": meaning, and the unit in brackets. */
static bool add_description(cJSON *o, const struct schema_field *f)
{
	char text[512];
	snprintf(text, sizeof text, f->unit[0] ? "%s [%s]" : "%s", f->meaning, f->unit);
	return cJSON_AddStringToObject(o, "description", text) != NULL;
}

static bool add_enum(cJSON *o, const struct schema_field *f)
{
	cJSON *e = cJSON_AddArrayToObject(o, "enum");
	for (size_t i = 0; e && f->choices[i]; i++)
		if (!cJSON_AddItemToArray(e, cJSON_CreateString(f->choices[i])))
			return false;
	return e && (!(f->flags & SCHEMA_NULLABLE) || cJSON_AddItemToArray(e, cJSON_CreateNull()));
}

static bool add_field(cJSON *props, const struct schema_field *f)
{
	cJSON *o = cJSON_AddObjectToObject(props, f->name);
	bool nullable = f->flags & SCHEMA_NULLABLE, ok = o && add_description(o, f);
	switch (f->type) {
	case SCHEMA_OBJS:
	case SCHEMA_INTS:
	case SCHEMA_NUMS:
	case SCHEMA_STRS:
	case SCHEMA_NUMSS: return ok && add_array(o, f);
	case SCHEMA_MAP:
		if (f->child == SO_NONE)
			return ok && add_type(o, "object", false);
		cJSON *each = add_type(o, "object", false)
		                  ? cJSON_AddObjectToObject(o, "additionalProperties")
		                  : NULL;
		return ok && each && add_object(each, f->child, SO_NONE, false);
	default:
		return ok && add_item(o, f->type, f->child, nullable) &&
		       (!f->choices || add_enum(o, f));
	}
}

/* The fields of obj (and of extra) into props, the required ones into req. */
static bool add_fields(cJSON *props, cJSON *req, enum schema_object obj)
{
	for (int i = 0; i < SF_COUNT; i++) {
		const struct schema_field *f = &schema_fields[i];
		if (f->object != obj)
			continue;
		if (!add_field(props, f) ||
		    ((f->flags & SCHEMA_REQUIRED) &&
		     !cJSON_AddItemToArray(req, cJSON_CreateString(f->name))))
			return false;
	}
	return true;
}

/* An object of kind obj (SO_NONE: any object); readers ignore members they do not know. */
static bool add_object(cJSON *o, enum schema_object obj, enum schema_object extra, bool nullable)
{
	if (!add_type(o, "object", nullable))
		return false;
	if (obj == SO_NONE)
		return true;
	cJSON *req = cJSON_AddArrayToObject(o, "required");
	cJSON *props = cJSON_AddObjectToObject(o, "properties");
	return req && props &&
	       (cJSON_HasObjectItem(o, "title") ||
	        cJSON_AddStringToObject(o, "title", schema_objects[obj].title)) &&
	       add_fields(props, req, obj) && (extra == SO_NONE || add_fields(props, req, extra)) &&
	       cJSON_AddBoolToObject(o, "additionalProperties", true);
}

/* The envelope with the command's records and summary in place of any object. */
static bool command_parts(cJSON *root, enum report_command c)
{
	const struct schema_command *k = &schema_commands[c];
	cJSON *props = cJSON_GetObjectItemCaseSensitive(root, "properties");
	cJSON *command = cJSON_GetObjectItemCaseSensitive(props, SK_REPORT_COMMAND);
	cJSON *results = cJSON_GetObjectItemCaseSensitive(props, SK_REPORT_RESULTS);
	cJSON *items = cJSON_GetObjectItemCaseSensitive(results, "items");
	cJSON *summary = cJSON_GetObjectItemCaseSensitive(props, SK_REPORT_SUMMARY);
	cJSON_DeleteItemFromObjectCaseSensitive(command, "enum");
	if (!cJSON_AddStringToObject(command, "const", k->name))
		return false;
	if (k->result != SO_NONE) {
		cJSON_DeleteItemFromObjectCaseSensitive(items, "type");
		if (!add_object(items, k->result, k->extra, false))
			return false;
	}
	if (k->summary != SO_NONE) {
		cJSON_DeleteItemFromObjectCaseSensitive(summary, "type");
		if (!add_object(summary, k->summary, SO_NONE, false))
			return false;
	}
	return true;
}

cJSON *schema_json(enum report_command c)
{
	char title[128];
	cJSON *root = cJSON_CreateObject();
	bool ok = root && cJSON_AddStringToObject(root, "$schema",
	                                          "https://json-schema.org/draft/2020-12/schema");
	snprintf(title, sizeof title, "collscope %s report, schema_version %d",
	         c < REPORT_COMMANDS ? schema_commands[c].name : "(any command)",
	         c == REPORT_CMD_LINKS ? LINKS_COMPACT_SCHEMA_VERSION : 1);
	ok = ok && cJSON_AddStringToObject(root, "title", title) &&
	     cJSON_AddStringToObject(root, "description",
	                             "Generated from reports/io/schema_table.h. Readers ignore "
	                             "members they do not know; null is an undefined statistic.") &&
	     add_object(root, SO_REPORT, SO_NONE, false);
	if (ok && c < REPORT_COMMANDS)
		ok = command_parts(root, c);
	if (!ok) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}
