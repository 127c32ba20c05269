/*
 * The report's schema, from the one table of its fields (schema_table.h):
 * the key of every field as a constant (SK_<OBJECT>_<FIELD>, e.g.
 * SK_AR_BUSBW_GBPS is "busbw_gbps" of an all-reduce record), the table
 * itself for whoever walks it, the JSON Schema of `collscope schema` and
 * reports/SCHEMA.md. Pure: libc and cJSON.
 */
#ifndef COLLSCOPE_SCHEMA_H
#define COLLSCOPE_SCHEMA_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "reports/io/schema_table.h"

/* The key of every field: extern const char SK_AR_BUSBW_GBPS[] = "busbw_gbps"; */
#define SCHEMA_KEY_DECL(obj, id, name, type, child, flags, choices, unit, meaning)                 \
	extern const char SK_##obj##_##id[];
SCHEMA_FIELDS(SCHEMA_KEY_DECL)
#undef SCHEMA_KEY_DECL

enum schema_type {
	SCHEMA_STR,
	SCHEMA_INT,
	SCHEMA_NUM,
	SCHEMA_BOOL,
	SCHEMA_OBJ,  /* an object of kind child */
	SCHEMA_OBJS, /* an array of objects of kind child */
	SCHEMA_MAP,  /* an object of any members (of kind child, when there is one) */
	SCHEMA_INTS, /* arrays of scalars */
	SCHEMA_NUMS, /* numbers or null */
	SCHEMA_STRS,
	SCHEMA_NUMSS, /* rows of numbers or null */
};

#define SCHEMA_OBJ_ENUM(tok, title, meaning) SO_##tok,
enum schema_object { SCHEMA_OBJECTS(SCHEMA_OBJ_ENUM) SO_COUNT, SO_NONE = SO_COUNT };
#undef SCHEMA_OBJ_ENUM

#define SCHEMA_FIELD_ENUM(obj, id, name, type, child, flags, choices, unit, meaning)               \
	SF_##obj##_##id,
enum schema_field_id { SCHEMA_FIELDS(SCHEMA_FIELD_ENUM) SF_COUNT };
#undef SCHEMA_FIELD_ENUM

/* The commands whose reports the schema describes, in the order of the table. */
#define SCHEMA_CMD_ENUM(id, name, result, extra, summary) REPORT_CMD_##id,
enum report_command { SCHEMA_COMMANDS(SCHEMA_CMD_ENUM) REPORT_COMMANDS };
#undef SCHEMA_CMD_ENUM

#define SCHEMA_REQUIRED 1u /* every report that has its object has it */
#define SCHEMA_NULLABLE 2u /* may be null; of an array, its items may be */

struct schema_field {
	enum schema_object object; /* where it lives */
	const char *name;
	enum schema_type type;
	enum schema_object child; /* SCHEMA_OBJ, SCHEMA_OBJS, SCHEMA_MAP: of what; else SO_NONE */
	unsigned flags;
	const char *const *choices; /* the enum's name table (NULL-terminated), or NULL */
	const char *unit;           /* "" when none */
	const char *meaning;
};

struct schema_object_desc {
	const char *token; /* "AR": the constants' infix */
	const char *title; /* where it sits, e.g. "results[].time_us" */
	const char *meaning;
};

struct schema_command {
	const char *name;
	enum schema_object result, extra, summary; /* SO_NONE: not described */
};

extern const struct schema_field schema_fields[SF_COUNT];
extern const struct schema_object_desc schema_objects[SO_COUNT];
extern const struct schema_command schema_commands[REPORT_COMMANDS];
/* The names of enum report_command, NULL-terminated: "allreduce", ... */
extern const char *const schema_command_names[REPORT_COMMANDS + 1];

/* The command named name into *out; -1 (and *out unchanged) when there is none. */
int report_command_parse(const char *name, enum report_command *out);

/*
 * The JSON Schema (draft 2020-12) of the reports of command c, or of the
 * envelope every report shares when c is REPORT_COMMANDS. A new tree the
 * caller frees with cJSON_Delete; NULL when out of memory.
 */
cJSON *schema_json(enum report_command c);

/*
 * reports/SCHEMA.md: every command and every object with its fields, as
 * Markdown. A new string the caller frees; NULL when out of memory.
 */
char *schema_markdown(void);

/*
 * The suffix a field's name (or its object's key) ends with for unit: "_us"
 * for "us", "_gbps" for "GB/s", ...; NULL for a unit the table does not know.
 */
const char *schema_unit_suffix(const char *unit);

#endif
