/*
 * collscope report: one self-contained HTML page from one or more reports.
 * Pure: libc, libm and cJSON; the page is built in memory and the caller
 * writes it. Nothing in the page refers outside it: no script, no external
 * style, image or font; the charts are inline SVG.
 *
 * The page is well-formed XML as well as HTML (void elements self-closed,
 * only the five XML entities and numeric references), so the tests can parse
 * it, and every string that comes from a report goes through html_text:
 * escaped, with control characters and invalid UTF-8 replaced by U+FFFD.
 */
#ifndef COLLSCOPE_HTML_H
#define COLLSCOPE_HTML_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

/* A growing text buffer. After an allocation failure it stays failed and ignores writes. */
struct html_buf {
	char *data; /* NUL-terminated when not failed; owned */
	size_t len, cap;
	bool failed;
};

void html_buf_init(struct html_buf *b);
void html_buf_release(struct html_buf *b);
/* Markup written by collscope itself: never a string from a report. */
void html_raw(struct html_buf *b, const char *s);
void html_rawf(struct html_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * Text from anywhere, escaped for element content and attribute values:
 * & < > " ' as entities; bytes below 0x20 other than tab and newline, DEL,
 * bytes that are not valid UTF-8, C1 and bidirectional controls and line
 * separators (report_char_hidden) become U+FFFD. At most max_bytes of s
 * are written (0: all), cut at a character boundary, with an ellipsis when cut.
 */
void html_text(struct html_buf *b, const char *s, size_t max_bytes);

/* One input of the page: a report as read by report_read, and the file it came from. */
struct html_input {
	const char *path;
	const cJSON *root;
};

/*
 * The whole page: a section per report, rendered by its "command"
 * (allreduce, links, scale, compare, trend, campaign; any other kind gets its
 * context, config and summary as tables and a note that the page cannot chart it).
 * version names the tool in the page. Returns 0, or -1 with err naming the
 * file and the problem (a field of the wrong type or out of range) or "out of
 * memory".
 */
int html_render_page(struct html_buf *b, const struct html_input *in, size_t n, const char *version,
                     char *err, size_t errlen);

#endif
