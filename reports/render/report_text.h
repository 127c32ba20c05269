/*
 * Text from a report (or a file name) made safe to print on a terminal:
 * what a terminal would act on is written as an escape instead. Pure.
 */
#ifndef COLLSCOPE_REPORT_TEXT_H
#define COLLSCOPE_REPORT_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * The one escaping of text from outside (host names, a spec's or report's
 * strings, file names) for a terminal; every printer of such text goes
 * through it (cmd_print, cmd_error, compare's and trend's tables), and the
 * HTML page hides the same characters (html_text).
 *
 * s into out (outlen bytes, always terminated when outlen > 0; cut before an
 * escape that does not fit), with: C0 control characters (tab and newline
 * among them), DEL and every byte that is not part of well-formed UTF-8 as
 * "\xNN" (ESC becomes "\x1b"); the code points report_char_hidden names as
 * "\uNNNN". Everything else is copied. Returns the length the whole escaped
 * text needs, as snprintf does.
 */
size_t report_escape_text(char *out, size_t outlen, const char *s);

/*
 * Code points above ASCII that act on how text is shown rather than being
 * text: the C1 controls U+0080..U+009F, which terminals take as 8-bit
 * controls (U+009B is CSI); the bidirectional controls U+202A..U+202E,
 * U+2066..U+2069 and the marks U+200E, U+200F, U+061C, which reorder or
 * flip what follows them; the line and paragraph separators U+2028, U+2029.
 */
bool report_char_hidden(unsigned code);

/* The same, written to f; 0, or -1 on a write error. */
int report_fput_escaped(FILE *f, const char *s);

#endif
