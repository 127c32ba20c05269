/*
 * The fuzz target spec (fuzz.h): accept's spec parser on arbitrary bytes,
 * read as collscope reads a spec (report_load_text), then checked against a
 * few known names. Oracles: a refusal names its problem; a spec it accepts,
 * written back (accept_spec_to_json), is accepted again with the same checks,
 * points, variants and name.
 */
#include "fuzz.h"

#include "reports/accept/accept_spec.h"
#include "reports/io/report_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const variants[] = {"ring", "tree", "mpi", "rabenseifner"};
static const char *const dtypes[] = {"float32", "float64", "int32"};
static const char *const ops[] = {"sum", "max"};

/* s written back and read again: the same spec, or the oracle fails. */
static void round_trip(const struct accept_spec *s, const struct accept_names *names)
{
	char err[4096] = "";
	struct accept_spec again;
	cJSON *root = cJSON_CreateObject();

	if (!root || !cJSON_AddNumberToObject(root, "schema_version", 1) ||
	    !cJSON_AddStringToObject(root, "command", "accept-spec") ||
	    !accept_spec_to_json(root, s)) {
		cJSON_Delete(root);
		return; /* out of memory: nothing to judge */
	}
	if (accept_spec_parse_names(root, names, &again, err, sizeof err) != 0) {
		char *text = cJSON_PrintUnformatted(root);
		fprintf(stderr, "written back: %s\n", text ? text : "(no memory)");
		free(text);
		fuzz_failed("a spec written back is refused", err);
	}
	if (memcmp(again.has, s->has, sizeof s->has) != 0 ||
	    again.allreduce.npoints != s->allreduce.npoints ||
	    again.verify.nvariants != s->verify.nvariants || strcmp(again.name, s->name) != 0)
		fuzz_failed("a spec written back", "reads as another spec");
	accept_spec_release(&again);
	cJSON_Delete(root);
}

int fuzz_spec(const uint8_t *data, size_t size)
{
	struct accept_names names = {variants, sizeof variants / sizeof variants[0],
	                             dtypes,   sizeof dtypes / sizeof dtypes[0],
	                             ops,      sizeof ops / sizeof ops[0],
	                             NULL};
	char err[4096] = "", *text = fuzz_strndup(data, size);
	struct accept_spec s;
	cJSON *root = NULL;

	if (!text)
		return 0;
	if (report_load_text("spec.json", text, size, &root, err, sizeof err) != REPORT_OK) {
		fuzz_explained("the spec's reader", err);
		goto out;
	}
	/* without names (--check-spec's grammar alone), then with them */
	if (accept_spec_parse(root, &s, err, sizeof err) == 0)
		accept_spec_release(&s);
	else
		fuzz_explained("the spec parser", err);
	err[0] = '\0';
	if (accept_spec_parse_names(root, &names, &s, err, sizeof err) == 0) {
		round_trip(&s, &names);
		accept_spec_release(&s);
	} else {
		fuzz_explained("the spec parser with names", err);
	}
out:
	cJSON_Delete(root);
	free(text);
	return 0;
}
