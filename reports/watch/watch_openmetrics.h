/*
 * An OpenMetrics text exposition, built in memory (issue 34): families with
 * # HELP, # TYPE and # UNIT, samples with escaped labels, "# EOF" at the end.
 * Pure: no I/O; the caller writes the text (atomically: temp file and
 * rename, so node_exporter's textfile collector never reads half a file).
 *
 * What the writer enforces, so a caller cannot produce a file a strict
 * parser refuses: metric and label names match [a-zA-Z_:][a-zA-Z0-9_:]* and
 * [a-zA-Z_][a-zA-Z0-9_]*; a family with a unit ends in _<unit>; a counter's
 * samples get the _total suffix (its family name must not carry it); a
 * family name is used once; samples follow their family. Label values
 * escape backslash, double quote and newline; values are written as
 * shortest round-trip decimals, NaN, +Inf or -Inf.
 * node_exporter reads the Prometheus text format, which takes this file as
 * is: # UNIT and # EOF are comments there (a counter's samples then show as
 * untyped, under their _total name).
 */
#ifndef COLLSCOPE_WATCH_OPENMETRICS_H
#define COLLSCOPE_WATCH_OPENMETRICS_H

#include <stdbool.h>
#include <stddef.h>

enum om_type { OM_GAUGE, OM_COUNTER };

struct om_label {
	const char *name, *value;
};

struct om_text {
	char *text; /* owned, NUL-terminated */
	size_t len, cap;
	bool failed;   /* a bad name or no memory: everything after is refused */
	bool finished; /* # EOF written */
	enum om_type type;
	char family[128]; /* the current family, "" before the first */
	char **seen;      /* the families so far, owned */
	size_t nseen, capseen;
};

void om_text_init(struct om_text *t);
void om_text_release(struct om_text *t);

/*
 * A new family: name, type, unit ("" for none: counts and ratios) and help
 * (one line). 0, or -1 (a bad or repeated name, no memory; t then failed).
 */
int om_family(struct om_text *t, const char *name, enum om_type type, const char *unit,
              const char *help);
/* A sample of the current family with labels[0..n); -1 as om_family (also with no family). */
int om_sample(struct om_text *t, const struct om_label *labels, size_t n, double value);
/* "# EOF": 0, or -1 when anything before failed (the text is then not to be written). */
int om_finish(struct om_text *t);

/* Whether name is a valid metric (label: label_name) name. */
bool om_valid_name(const char *name, bool label_name);

#endif
