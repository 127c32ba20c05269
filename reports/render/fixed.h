/*
 * Figures for people: fixed notation, never an exponent. printf's %g writes
 * 30 as "3e+01" at one digit and 12990 as "1.299e+04" at four, and %.3f
 * writes 0.0003 GB/s as "0.000": both hide the figure they print. Pure.
 */
#ifndef COLLSCOPE_FIXED_H
#define COLLSCOPE_FIXED_H

#include <stddef.h>

/*
 * v into buf (len bytes, terminated when len > 0) in fixed notation with at
 * least min_decimals decimals and enough more to show digits significant
 * digits (at most 15 decimals); zeros past min_decimals are trimmed, and the
 * point with them. 12990 (0, 3) is "12990", 30 (0, 3) "30", 0.0002937 (3, 3)
 * "0.000294", 2.259 (3, 3) "2.259". Not finite: "-". Returns what snprintf
 * returns for the text.
 */
int report_fixed(char *buf, size_t len, double v, int min_decimals, int digits);

#endif
