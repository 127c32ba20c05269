/* Open MPI's classic dynamic rules file (reports/tune/rules_ompi.h). Pure. */
#include "reports/tune/rules_ompi.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Where the text goes: a FILE *, or a buffer filled as snprintf fills one. */
struct sink {
	FILE *f;
	char *buf;
	size_t cap;
	size_t len; /* of the whole text so far, written or not */
	int write_errno;
};

static void put(struct sink *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct sink *s, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	if (s->f) {
		k = vfprintf(s->f, fmt, ap);
		if (k < 0 && !s->write_errno)
			s->write_errno = errno ? errno : EIO;
	} else {
		size_t room = s->len < s->cap ? s->cap - s->len : 0;
		k = vsnprintf(room ? s->buf + s->len : NULL, room, fmt, ap);
	}
	va_end(ap);
	if (k > 0)
		s->len += (size_t)k;
}

static int check_comments(const char *const *lines, char *err, size_t errlen)
{
	for (size_t i = 0; lines && lines[i]; i++) {
		if (strchr(lines[i], '\n')) {
			snprintf(err, errlen, "comment line %zu holds a newline: '%s'", i,
			         lines[i]);
			return -1;
		}
	}
	return 0;
}

static int check_choices(const struct tune_choice *c, size_t n, char *err, size_t errlen)
{
	if (tune_choices_check(c, n, err, errlen) != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		/* The name goes into a comment, which a newline would end. */
		if (c[i].alg_name && strchr(c[i].alg_name, '\n')) {
			snprintf(err, errlen, "algorithm name '%s' holds a newline", c[i].alg_name);
			return -1;
		}
		/* The reader takes every number with fscanf("%li"). */
		if (c[i].bytes > (uint64_t)LONG_MAX) {
			snprintf(err, errlen,
			         "message size %" PRIu64 " bytes is past Open MPI's long",
			         c[i].bytes);
			return -1;
		}
	}
	return 0;
}

static void put_header(struct sink *s, const char *const *lines, size_t ncomm)
{
	put(s, "# Open MPI coll_tuned dynamic rules for MPI_Allreduce, written by collscope tune.\n"
	       "# Classic format, version 1 (Open MPI 4.1 reads it). Use with\n"
	       "#   --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename "
	       "FILE\n");
	for (size_t i = 0; lines && lines[i]; i++)
		put(s, "# %s\n", lines[i]);
	put(s, "1 # collectives\n%d # collective id: allreduce\n%zu # communicator sizes\n",
	    RULES_OMPI_ALLREDUCE_ID, ncomm);
	put(s, "0 # comm size 0: below the smallest rank count measured, the library decides\n"
	       "1 # message sizes\n0 0 0 0\n");
}

static void put_ranges(struct sink *s, int ranks, const struct tune_range *r, size_t n)
{
	put(s, "%d # comm size (ranks)\n%zu # message sizes\n", ranks, n);
	for (size_t i = 0; i < n; i++) {
		/* msg_bytes alg topo segsize; the comment names what the number means. */
		if (r[i].alg == 0)
			put(s, "%" PRIu64 " 0 0 0 # the library decides\n", r[i].from_bytes);
		else
			put(s, "%" PRIu64 " %d 0 0 # %s\n", r[i].from_bytes, r[i].alg,
			    r[i].alg_name ? r[i].alg_name : "");
	}
}

static int emit(struct sink *s, const struct tune_choice *c, size_t n,
                const char *const *comment_lines, char *err, size_t errlen)
{
	int *ranks = NULL;
	struct tune_range *r = NULL;
	int rc = -1;

	if (check_comments(comment_lines, err, errlen) || check_choices(c, n, err, errlen))
		goto out;
	ranks = malloc(n * sizeof(*ranks));
	r = malloc((n + 2) * sizeof(*r)); /* tune_ranges: a range below and above */
	if (!ranks || !r) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	size_t nranks = tune_ranks(c, n, ranks);
	put_header(s, comment_lines, nranks + 1);
	for (size_t i = 0; i < nranks; i++) {
		size_t nr;
		if (tune_ranges(c, n, ranks[i], r, &nr, err, errlen))
			goto out;
		put_ranges(s, ranks[i], r, nr);
	}
	if (s->write_errno) {
		snprintf(err, errlen, "writing the rules failed: %s", strerror(s->write_errno));
		goto out;
	}
	rc = 0;
out:
	free(ranks);
	free(r);
	return rc;
}

int rules_ompi_write(FILE *f, const struct tune_choice *c, size_t n,
                     const char *const *comment_lines, char *err, size_t errlen)
{
	struct sink s = {.f = f};
	return emit(&s, c, n, comment_lines, err, errlen);
}

long rules_ompi_format(char *buf, size_t len, const struct tune_choice *c, size_t n,
                       const char *const *comment_lines, char *err, size_t errlen)
{
	struct sink s = {.buf = buf, .cap = len};

	if (len > 0)
		buf[0] = '\0';
	if (emit(&s, c, n, comment_lines, err, errlen))
		return -1;
	return (long)s.len;
}
