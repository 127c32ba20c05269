/* See opts_paths.h. */
#include "cmd/opts_paths.h"

#include "cmd/exit_codes.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/*
 * A path's identity as a name: the file's own resolved path when it exists,
 * else its resolved folder and its base name (an output not written yet).
 * Falls back to the path as given when the folder does not resolve either.
 */
static void identity(const char *path, char out[PATH_MAX])
{
	char dir[PATH_MAX];
	if (realpath(path, out))
		return;
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t dlen = slash ? (size_t)(slash - path) : 1;
	if (dlen >= sizeof dir) {
		snprintf(out, PATH_MAX, "%s", path);
		return;
	}
	memcpy(dir, slash ? path : ".", dlen);
	dir[slash && dlen == 0 ? 1 : dlen] = '\0';
	if (slash && dlen == 0)
		dir[0] = '/';
	char resolved[PATH_MAX];
	if (!realpath(dir, resolved) || strlen(resolved) + strlen(base) + 2 > PATH_MAX)
		snprintf(out, PATH_MAX, "%s", path);
	else
		strcat(strcat(strcpy(out, strcmp(resolved, "/") ? resolved : ""), "/"), base);
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	char ia[PATH_MAX], ib[PATH_MAX];
	identity(a, ia);
	identity(b, ib);
	return strcmp(ia, ib) == 0;
}

static bool is_file(const struct opts_path *p) { return p->path && strcmp(p->path, "-") != 0; }

int opts_paths_distinct(const char *cmd, const struct opts_path *paths, int n, char *err,
                        size_t len)
{
	for (int i = 0; i < n; i++) {
		if (!paths[i].output || !is_file(&paths[i]))
			continue;
		for (int j = 0; j < n; j++) {
			const struct opts_path *o = &paths[i], *q = &paths[j];
			if (j == i || !is_file(q) || (q->output && j < i) || !same_file(o->path, q->path))
				continue;
			if (q->output)
				snprintf(err, len,
				         "%s: %s '%s' and %s '%s' are the same file: give each output its "
				         "own path",
				         cmd, o->option, o->path, q->option, q->path);
			else
				snprintf(err, len,
				         "%s: %s '%s' would overwrite %s '%s', even with --force: "
				         "write it elsewhere",
				         cmd, o->option, o->path, q->option, q->path);
			return EXIT_USAGE;
		}
	}
	return EXIT_OK;
}
