/*
 * The report of `collscope tune` (issue 33): its records (all-reduce records
 * of the library's forced algorithms) and summary. Rows as in
 * schema_table.h, which includes this file. Pure data.
 */
#ifndef COLLSCOPE_SCHEMA_TUNE_H
#define COLLSCOPE_SCHEMA_TUNE_H

#define SCHEMA_OBJECTS_TUNE(O)                                                                     \
	O(TUNE, "tune results[]", "the library's all-reduce with one of its algorithms forced")    \
	O(TSUM, "tune summary", "what the library lets force, the fastest per point, verdict")    \
	O(TBEST, "summary.points[]", "one rank count and size: the default against the fastest")

#define SCHEMA_FIELDS_TUNE(F)                                                                      \
	F(TUNE, LIBRARY_ALGORITHM, "library_algorithm", STR, NONE, R, NULL, "",                    \
	  "the library's algorithm forced (default: its own decision)")                           \
	F(TUNE, LIBRARY_VALUE, "library_value", INT, NONE, R, NULL, "",                            \
	  "the value written to the control variable (0: the library's decision)")                \
	F(TSUM, LIBRARY_VARIABLE, "library_variable", STR, NONE, RN, NULL, "",                     \
	  "the MPI_T control variable forced; null: none")                                        \
	F(TSUM, LIBRARY_ALGORITHMS, "library_algorithms", STRS, NONE, R, NULL, "",                 \
	  "the algorithms measured, the library's decision (default) first")                      \
	F(TSUM, NOT_FORCED, "not_forced", STR, NONE, N, NULL, "",                                  \
	  "why nothing could be forced; null when the algorithms were")                           \
	F(TSUM, POINTS, "points", OBJS, TBEST, R, NULL, "", "per rank count and size")             \
	F(TSUM, WRONG_TOTAL, "wrong_total", INT, NONE, R, NULL, "",                                \
	  "wrong elements over all points")                                                        \
	F(TSUM, VERDICT, "verdict", STR, NONE, R, NULL, "", "ok or wrong results")                 \
	F(TBEST, RANKS, "ranks", INT, NONE, R, NULL, "", "the communicator's size")                \
	F(TBEST, BYTES, "bytes", INT, NONE, R, NULL, "bytes", "the message size")                  \
	F(TBEST, DEFAULT_P50_US, "default_p50_us", NUM, NONE, N, NULL, "us",                       \
	  "the library's own decision")                                                            \
	F(TBEST, FASTEST, "fastest", STR, NONE, N, NULL, "",                                       \
	  "the forced algorithm with the lowest p50; null: none measured")                         \
	F(TBEST, FASTEST_P50_US, "fastest_p50_us", NUM, NONE, N, NULL, "us", "its p50")            \
	F(TBEST, GAIN, "gain", NUM, NONE, N, NULL, "", "default p50 / fastest p50")

#endif
