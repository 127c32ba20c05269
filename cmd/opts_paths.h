/*
 * Output paths decided before anything is measured: no output may name the
 * same file as an input or as another output. Pure: no MPI, no printing
 * (it reads the file system: stat and realpath).
 */
#ifndef COLLSCOPE_OPTS_PATHS_H
#define COLLSCOPE_OPTS_PATHS_H

#include <stdbool.h>
#include <stddef.h>

struct opts_path {
	const char *option; /* as the user knows it: "-o", "--junit", "SPEC", "REPORT" */
	const char *path;   /* NULL: not given; "-": a standard stream, never a file */
	bool output;
};

/*
 * EXIT_OK, or EXIT_USAGE with err naming both options and the path when an
 * output is the same file as an input or another output (the same name
 * after resolving the directory and links, or the same inode). Two inputs
 * may be the same file.
 */
int opts_paths_distinct(const char *cmd, const struct opts_path *paths, int n, char *err,
                        size_t len);

#endif
