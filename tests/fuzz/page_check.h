/*
 * An oracle for the fuzzer: is a rendered page exactly the markup collscope
 * writes, with every string from the report escaped? (see page_check.c)
 */
#ifndef COLLSCOPE_PAGE_CHECK_H
#define COLLSCOPE_PAGE_CHECK_H

#include <stddef.h>

/*
 * 0 when page (len bytes) is well-formed XML after its doctype, made only of
 * the elements and attributes that reports/html*.c and svg*.c write (so a
 * report's "<script>" or "onload=" that escaped escaping is caught), with
 * every '&' a known entity, every attribute value quoted and free of '<',
 * every href internal ('#'), valid UTF-8, and no control character but tab
 * and newline. Else -1 with why (at most whylen bytes) saying what and where.
 */
int page_check(const char *page, size_t len, char *why, size_t whylen);

/*
 * 0 when text (compare's table, markdown or a message) holds nothing a
 * terminal acts on: no control byte but newline, no C1 control, valid UTF-8.
 */
int terminal_check(const char *text, size_t len, char *why, size_t whylen);

#endif
