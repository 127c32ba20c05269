/*
 * The libFuzzer targets, one per parser, in one binary (built once):
 * FUZZ_TARGET names the one a run drives (tests/fuzz/run.sh runs each with
 * its own corpus and the seeds of tests/fuzz/seeds/NAME). Each returns 0 and
 * aborts (fuzz_failed) when an oracle says no.
 */
#ifndef COLLSCOPE_FUZZ_H
#define COLLSCOPE_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* report_read: the report reader, compare with itself, the HTML page (fuzz_report_read.c). */
int fuzz_report_read(const uint8_t *data, size_t size);
/* spec: accept's spec parser, and what it accepts written back and read again (fuzz_spec.c). */
int fuzz_spec(const uint8_t *data, size_t size);
/* runs: compare's and trend's inputs, several reports in one input (fuzz_runs.c). */
int fuzz_runs(const uint8_t *data, size_t size);
/* options: every command's option table on a command line from the input (fuzz_options.c). */
int fuzz_options(const uint8_t *data, size_t size);
/* wire: the watchdog's hello and its address plans from what peers send (fuzz_wire.c). */
int fuzz_wire(const uint8_t *data, size_t size);

/* An oracle said no: prints what and why, aborts (libFuzzer keeps the input). */
void fuzz_failed(const char *what, const char *why) __attribute__((noreturn));
/* A refusal must say why: aborts when err is empty. */
void fuzz_explained(const char *what, const char *err);
/* Text meant for a terminal holds nothing a terminal acts on (page_check.h). */
void fuzz_terminal_text(const char *text, size_t len, const char *what);
/* data[0..size) as a NUL-terminated copy (malloc), or NULL. */
char *fuzz_strndup(const uint8_t *data, size_t size);

#endif
