/*
 * Declarative options: one table per command, from which its parsing, its
 * --help text, its defaults and the "config" echo of its report all come, so
 * the four cannot drift apart. Pure: no MPI, no printing; every failure is a
 * message in a buffer, so main() can parse before MPI_Init and the unit tests
 * can parse without it.
 *
 * A command's options live in one struct of its own. Its table is a list of
 * groups; a group is an array of struct opt whose offsets are relative to a
 * member of that struct (the group's base), so options that several commands
 * share (the sweep's, -o/--force/-q, --timeout) are declared once and
 * embedded where they are needed.
 *
 * The reference comes from the same tables (cmd/help_render.h): after
 * changing one, `make reference` rewrites cmd/REFERENCE.md, which
 * tests/cli/reference.sh holds to what the binary prints.
 *
 * Syntax accepted: --name VALUE, --name=VALUE, -x VALUE, -xVALUE, bundled
 * flags (-qF), "--" ends the options. Long names are matched exactly (no
 * abbreviations: a script that says --iter must not silently mean --iters
 * after a new option makes the prefix ambiguous).
 */
#ifndef COLLSCOPE_CMD_OPTS_H
#define COLLSCOPE_CMD_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "cmd/exit_codes.h"

enum opt_kind {
	OPT_FLAG,   /* bool, no value: true when given */
	OPT_BOOL01, /* bool from "0" or "1" */
	OPT_BYTES,  /* uint64_t: a byte count with K M G T suffixes, in [min, max] */
	OPT_INT,    /* int: a whole number in [min, max] */
	OPT_U64,    /* uint64_t: a whole number in [min, max] */
	OPT_NUMBER, /* double: a decimal number in [min, max] (bounds open with the flags below) */
	OPT_STRING, /* const char *, borrowed from argv */
	OPT_CHOICE, /* int: the index of the value in choices */
	OPT_CUSTOM, /* parse() decides */
};

enum opt_flags {
	OPT_MIN_OPEN = 1u << 0,    /* value > min, not >= */
	OPT_MAX_OPEN = 1u << 1,    /* value < max, not <= */
	OPT_NAN_DEFAULT = 1u << 2, /* OPT_NUMBER without def: NAN ("none"), not 0 */
};

struct opt;

/*
 * A custom parser: arg into the option's field (base + o->offset), or into
 * any other member of the command's struct through base; 0, or -1 with a
 * phrase in why ("unknown algorithm 'x' (see 'collscope list')"), which
 * becomes "<command>: bad value '<arg>' for --<name>: <why>"; or
 * OPT_WHOLE_MESSAGE with why the whole message after "<command>: " (a list
 * that names its bad item: "bad value 'x' in --ranks '1,x': ...").
 */
#define OPT_WHOLE_MESSAGE (-2)
typedef int (*opt_parse_fn)(const char *arg, void *base, const struct opt *o, char *why,
                            size_t len);
/* A custom echo of the option's value under key; false when out of memory. */
typedef bool (*opt_echo_fn)(cJSON *cfg, const char *key, const void *base, const struct opt *o);

struct opt {
	const char *name; /* long name without the dashes */
	char letter;      /* short letter, or 0 */
	enum opt_kind kind;
	size_t offset;       /* of the field, from the group's base */
	const char *metavar; /* "SIZE"; NULL for OPT_FLAG */
	/*
	 * The --help text; '\n' starts a continuation line. "{default}" is
	 * replaced by "default X"; without it " (default X)" ends the first line
	 * when the option has a default.
	 */
	const char *help;
	const char *def;      /* the default, in the option's own syntax, parsed like a value */
	const char *def_text; /* what --help says the default is, when not def ("adaptive") */
	double min, max;      /* OPT_BYTES, OPT_INT, OPT_U64, OPT_NUMBER */
	unsigned flags;       /* enum opt_flags */
	const char *const *choices; /* OPT_CHOICE: NULL-terminated */
	const char *key;            /* the report's config key; NULL: not echoed */
	opt_parse_fn parse;         /* OPT_CUSTOM */
	opt_echo_fn echo;           /* optional, any kind: replaces the echo by kind */
	const char *range; /* optional: the bad-value phrase instead of one made from min/max */
	/* optional, NULL-terminated: long names of options that cannot be given with this one */
	const char *const *conflicts;
};

struct opt_group {
	const struct opt *opts; /* NULL ends a list of groups */
	size_t count;
	size_t base; /* offset of the group's struct within the command's struct */
};

#define OPT_GROUP(array, base_offset)                                                              \
	{                                                                                          \
		(array), sizeof(array) / sizeof((array)[0]), (base_offset)                         \
	}

/* Positional arguments, when a command takes them: borrowed from argv. */
enum { OPT_MAX_ARGS = 4096 };
struct opt_args {
	char *items[OPT_MAX_ARGS];
	int count;
};

/*
 * A command's options as a whole. The check hooks run after parsing, in
 * order; each returns EXIT_OK or EXIT_USAGE with a message in err:
 *   check:       rank-independent relations between options (before MPI);
 *   check_world: what needs the rank count (after MPI_Init; nranks is 1
 *                for commands that do not run under MPI).
 */
struct cmd_spec {
	const char *name;               /* "allreduce" */
	const char *synopsis;           /* "mpirun -np N collscope allreduce [options]" */
	const char *description;        /* paragraphs, each line ending in '\n' */
	const char *exit_codes;         /* "exit codes: 0 ok, ...\n" */
	const struct opt_group *groups; /* ended by {NULL} */
	size_t size;                    /* of the command's options struct */
	const char *args_name;  /* positional arguments, for messages ("reports"); NULL: none */
	int min_args, max_args; /* max_args < 0: no limit */
	size_t args_offset;     /* of a struct opt_args */
	int (*check)(void *opts, char *err, size_t len);
	int (*check_world)(void *opts, int nranks, char *err, size_t len);
	/* the config keys that are not options (derived values), after the table's */
	bool (*echo)(cJSON *cfg, const void *opts);
};

/* What opts_parse found: run the command, print its help, or a usage error. */
enum opts_outcome { OPTS_RUN, OPTS_HELP, OPTS_ERROR };

/*
 * Defaults, then argv[1..argc) (argv[0] is the command's name) into opts
 * (spec->size bytes, owned by the caller), then spec->check. On OPTS_ERROR
 * err holds "<command>: <what is wrong>". --help or -h anywhere before "--"
 * wins over everything else. argv is not modified.
 */
enum opts_outcome opts_parse(const struct cmd_spec *spec, int argc, char **argv, void *opts,
                             char *err, size_t len);

/* The defaults alone (what opts_parse starts from); EXIT_OK, or EXIT_USAGE for a bad table. */
int opts_defaults(const struct cmd_spec *spec, void *opts, char *err, size_t len);

/* The --help text: synopsis, description, every option, exit codes. Owned by the caller; NULL when
 * out of memory. */
char *opts_usage(const struct cmd_spec *spec);

/*
 * Adds "config" to root: every option with a key, in table order, then
 * spec->echo's keys. Returns the object, or NULL when out of memory.
 */
cJSON *opts_to_json(cJSON *root, const struct cmd_spec *spec, const void *opts);

/*
 * The phrase that says what values o takes, as a bad value's message says it
 * ("must be a whole number from 1 to 10"): for the reference, too.
 */
void opts_range_phrase(const struct opt *o, char *buf, size_t len);

/* The option named name (long name), or NULL: for hooks that word their messages. */
const struct opt *opts_find(const struct cmd_spec *spec, const char *name);

#endif
