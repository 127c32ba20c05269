/*
 * Parsing of command-line values. Pure: no MPI, no printing. Each parser
 * returns 0 and stores the value, or returns -1 and sets *why to a short
 * static phrase ("not a number", "out of range", ...) that the caller prints
 * beside the option name and the bad value.
 */
#ifndef COLLSCOPE_PARSE_H
#define COLLSCOPE_PARSE_H

#include <stddef.h>
#include <stdint.h>

/*
 * A byte count: decimal digits with an optional suffix K, M, G or T (powers
 * of two: 8K = 8192; KiB/MiB/GiB/TiB and a trailing B accepted too, any case).
 * Rejects empty strings, signs, fractions, exponents, other suffixes and
 * anything that overflows 64 bits.
 */
int parse_bytes(const char *s, uint64_t *out, const char **why);

/* A whole number in [min, max], decimal digits only (no suffix). */
int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out, const char **why);

/* A finite decimal number in [min, max] (nan, inf, hex floats rejected). */
int parse_double(const char *s, double min, double max, double *out, const char **why);

/*
 * Split a comma-separated list in place: writes pointers to each item of buf
 * into items (at most max_items). Returns the count, or -1 for an empty item
 * or too many items.
 */
int parse_list(char *buf, char **items, int max_items, const char **why);

#endif
