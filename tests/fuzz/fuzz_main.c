/*
 * The one entry of the fuzz binary: FUZZ_TARGET (report_read, spec, runs,
 * options, wire; default report_read) picks the target every input goes to.
 * An unknown name stops the run at once, naming the known ones.
 */
#include "fuzz.h"

#include "page_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct {
	const char *name;
	int (*fn)(const uint8_t *, size_t);
} targets[] = {
    {"report_read", fuzz_report_read}, {"spec", fuzz_spec}, {"runs", fuzz_runs},
    {"options", fuzz_options},         {"wire", fuzz_wire},
};
static int (*target)(const uint8_t *, size_t) = fuzz_report_read;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *name = getenv("FUZZ_TARGET");

	(void)argc;
	(void)argv;
	if (!name || !*name)
		return 0;
	for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
		if (strcmp(name, targets[i].name) == 0) {
			target = targets[i].fn;
			return 0;
		}
	fprintf(stderr, "fuzz: unknown FUZZ_TARGET '%s': report_read, spec, runs, options or wire\n",
	        name);
	exit(2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return target(data, size);
}

void fuzz_failed(const char *what, const char *why)
{
	fprintf(stderr, "fuzz oracle: %s: %s\n", what, why);
	abort();
}

void fuzz_explained(const char *what, const char *err)
{
	if (!err || err[0] == '\0')
		fuzz_failed(what, "a refusal that says nothing");
}

void fuzz_terminal_text(const char *text, size_t len, const char *what)
{
	char why[256];

	if (terminal_check(text, len, why, sizeof why) != 0)
		fuzz_failed(what, why);
}

char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}
