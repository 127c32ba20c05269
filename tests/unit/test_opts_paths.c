/*
 * Output paths against inputs and each other (cmd/opts_paths.h): the same
 * file under another name is caught, standard streams and distinct files
 * pass, and the message names both options and paths.
 */
#include "cmd/exit_codes.h"
#include "cmd/opts_paths.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

static void setup(void)
{
	strcpy(dir, "/tmp/opts_paths.XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	char p[128];
	snprintf(p, sizeof p, "%s/in.json", dir);
	FILE *f = fopen(p, "w");
	cr_assert_not_null(f);
	fclose(f);
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

Test(opts_paths, output_over_input_by_another_name, .init = setup, .fini = teardown)
{
	char in[128], out[128], link[128], err[512] = "";
	snprintf(in, sizeof in, "%s/in.json", dir);
	snprintf(out, sizeof out, "%s/./in.json", dir);
	struct opts_path p[] = {{"--junit", out, true}, {"the spec", in, false}};
	cr_assert_eq(opts_paths_distinct("accept", p, 2, err, sizeof err), EXIT_USAGE);
	cr_expect(strstr(err, "--junit") && strstr(err, "would overwrite the spec"), "%s", err);
	snprintf(link, sizeof link, "%s/link.json", dir);
	cr_assert_eq(symlink(in, link), 0);
	p[0].path = link;
	cr_expect_eq(opts_paths_distinct("accept", p, 2, err, sizeof err), EXIT_USAGE);
}

Test(opts_paths, two_outputs_not_yet_written, .init = setup, .fini = teardown)
{
	char a[128], b[128], err[512] = "";
	snprintf(a, sizeof a, "%s/x.xml", dir);
	snprintf(b, sizeof b, "%s/../%s/x.xml", dir, strrchr(dir, '/') + 1);
	struct opts_path p[] = {{"-o", a, true}, {"--junit", b, true}};
	cr_assert_eq(opts_paths_distinct("accept", p, 2, err, sizeof err), EXIT_USAGE);
	cr_expect(strstr(err, "-o '") && strstr(err, "--junit '") && strstr(err, "the same file"),
	          "%s", err);
}

Test(opts_paths, distinct_and_standard_streams_pass, .init = setup, .fini = teardown)
{
	char in[128], out[128], err[512] = "";
	snprintf(in, sizeof in, "%s/in.json", dir);
	snprintf(out, sizeof out, "%s/out.json", dir);
	struct opts_path p[] = {{"-o", out, true},    {"--junit", NULL, true}, {"-o", "-", true},
	                        {"the input", in, false}, {"the input", in, false}, {"x", "-", false}};
	cr_expect_eq(opts_paths_distinct("compare", p, 6, err, sizeof err), EXIT_OK, "%s", err);
}
