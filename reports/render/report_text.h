/*
 * Text from a report (or a file name) made safe to print on a terminal:
 * what a terminal would act on is written as an escape instead. Pure.
 */
#ifndef COLLSCOPE_REPORT_TEXT_H
#define COLLSCOPE_REPORT_TEXT_H

#include <stddef.h>
#include <stdio.h>

/*
 * s into out (outlen bytes, always terminated when outlen > 0; cut before an
 * escape that does not fit), with: C0 control characters (tab and newline
 * among them), DEL and every byte that is not part of well-formed UTF-8 as
 * "\xNN" (ESC becomes "\x1b"); the C1 controls U+0080..U+009F, which
 * terminals take as 8-bit controls (U+009B is CSI), and the bidirectional
 * controls U+202A..U+202E and U+2066..U+2069, which reorder what is shown,
 * as "\uNNNN". Everything else is copied. Returns the length the whole
 * escaped text needs, as snprintf does.
 */
size_t report_escape_text(char *out, size_t outlen, const char *s);

/* The same, written to f; 0, or -1 on a write error. */
int report_fput_escaped(FILE *f, const char *s);

#endif
