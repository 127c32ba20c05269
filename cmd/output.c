/*
 * What the user sees. Rank 0 speaks for the job; a rank that alone knows
 * something prefixes its line with [rank N].
 *
 * Named cmd_error rather than error(): glibc already exports error(3), and
 * defining our own would interpose it for every library that calls it.
 */
#include <mpi.h>

#include "cmd/cmd.h"
#include "algorithms/variant.h"
#include "reports/render/report_text.h"

#include <stdarg.h>
#include <string.h>

/*
 * A message can hold text from a report or a file name: what a terminal
 * would act on (ESC and the other controls, C1, invalid UTF-8) is printed
 * escaped, "\x1b" (reports/render/report_text.c).
 */
static void vprint(const char *prefix, int rank, const char *fmt, va_list ap)
{
	char line[2048], safe[4 * sizeof line];
	vsnprintf(line, sizeof line, fmt, ap);
	report_escape_text(safe, sizeof safe, line);
	fflush(stdout); /* what stdout holds goes first: no line glued to this one */
	if (rank >= 0)
		fprintf(stderr, "collscope: [rank %d] %s%s\n", rank, prefix, safe);
	else
		fprintf(stderr, "collscope: %s%s\n", prefix, safe);
	fflush(stderr);
}

int cmd_error(const struct cmd_ctx *ctx, const char *fmt, ...)
{
	if (ctx && ctx->rank != 0)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vprint("error: ", -1, fmt, ap);
	va_end(ap);
	return -1;
}

int cmd_rank_error(const struct cmd_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprint("error: ", ctx ? ctx->rank : 0, fmt, ap);
	va_end(ap);
	return -1;
}

void cmd_print(const char *fmt, ...)
{
	char line[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	report_fput_escaped(stdout, line);
	fputc('\n', stdout);
}

void cmd_progress(const struct cmd_ctx *ctx, bool quiet, const char *fmt, ...)
{
	if (quiet || (ctx && ctx->rank != 0))
		return;
	/*
	 * One write of the whole line, after what stdout holds: with both streams
	 * merged (2>&1 | tee), a line written in two pieces took a table row
	 * between its text and its newline.
	 */
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	size_t len = n < 0 ? 0 : (size_t)n < sizeof line - 1 ? (size_t)n : sizeof line - 2;
	line[len++] = '\n';
	fflush(stdout);
	fwrite(line, 1, len, stderr);
	fflush(stderr);
}

void cmd_print_collective_header(int collective, const char *mpi_library)
{
	if (collective != AR_ALLREDUCE)
		printf("# collective %s: sizes are the whole buffer (nccl-tests' size), each rank %s "
		       "a chunk of it\n",
		       ar_collective_names[collective],
		       collective == AR_REDUCE_SCATTER ? "keeps" : "contributes");
	cmd_print("# %s; times are the slowest rank's; busbw = algbw x %s",
	          mpi_library, /* the library's own words: escaped */
	          ar_collective_bus_formula((enum ar_collective)collective));
}
