/*
 * The report of `collscope tune` (issue 33): its records (all-reduce records
 * of the library's forced algorithms) and summary. Rows as in
 * schema_table.h, which includes this file. Pure data.
 */
#ifndef COLLSCOPE_SCHEMA_TUNE_H
#define COLLSCOPE_SCHEMA_TUNE_H

#define SCHEMA_OBJECTS_TUNE(O)                                                                     \
	O(TUNE, "tune results[]", "the library's all-reduce with one of its algorithms forced")    \
	O(TSUM, "tune summary", "what the library lets force, the choice per point, verdict")     \
	O(TCHOICE, "summary.choices[]",                                                            \
	  "one rank count and size: the library's decision or a faster algorithm, and why")       \
	O(TCONS, "summary.consistency",                                                            \
	  "MPI_Allreduce against its own guidelines (ReproMPI's PGChecker), on the whole job")     \
	O(TVIOL, "summary.consistency.violations[]", "one guideline the library breaks, and by how much")

#define SCHEMA_FIELDS_TUNE(F)                                                                      \
	F(TUNE, LIBRARY_ALGORITHM, "library_algorithm", STR, NONE, 0, NULL, "",                    \
	  "the library's algorithm forced (default: its own decision); none on the "               \
	  "self-consistency's records")                                                            \
	F(TUNE, LIBRARY_VALUE, "library_value", INT, NONE, 0, NULL, "",                            \
	  "the value written to the control variable (0: the library's decision)")                \
	F(TUNE, CONFIRMATION, "confirmation", BOOL, NONE, 0, NULL, "",                             \
	  "measured again after the choice at its rank count (named mpi/<algorithm>/confirm): "    \
	  "the choice stands only if faster here too")                                             \
	F(TSUM, LIBRARY_VARIABLE, "library_variable", STR, NONE, RN, NULL, "",                     \
	  "the MPI_T control variable forced; null: none")                                        \
	F(TSUM, LIBRARY_ALGORITHMS, "library_algorithms", STRS, NONE, R, NULL, "",                 \
	  "the algorithms measured, the library's decision (default) first")                      \
	F(TSUM, NOT_FORCED, "not_forced", STR, NONE, N, NULL, "",                                  \
	  "why nothing could be forced; null when the algorithms were")                           \
	F(TSUM, PROVE, "prove", STR, NONE, N, NULL, "",                                            \
	  "--prove: the rules file the library read; null otherwise")                             \
	F(TSUM, HEAP_HELD, "heap_held", BOOL, NONE, R, NULL, "",                                   \
	  "glibc's malloc thresholds were held steady (--heap steady, the environment "           \
	  "setting neither)")                                                                      \
	F(TSUM, ALPHA, "alpha", NUM, NONE, R, NULL, "",                                            \
	  "a change needs the Mann-Whitney U test's p below this")                                \
	F(TSUM, MIN_GAIN, "min_gain", NUM, NONE, R, NULL, "",                                      \
	  "and default p50 / its p50 at least this")                                              \
	F(TSUM, CHOICES, "choices", OBJS, TCHOICE, R, NULL, "", "per rank count and size")         \
	F(TSUM, CHANGED, "changed", INT, NONE, R, NULL, "", "choices that are not the default")   \
	F(TSUM, RULES_FILE, "rules_file", STR, NONE, N, NULL, "",                                  \
	  "--rules: the decision written for the library; null: none written")                    \
	F(TSUM, CONSISTENCY, "consistency", OBJ, TCONS, RN, NULL, "",                              \
	  "the self-consistency checks; null with --prove")                                       \
	F(TSUM, YARDSTICK, "yardstick", OBJ, YARD, 0, NULL, "",                                    \
	  "the noise control measured before every point (compare widens its bar by it)")        \
	F(TSUM, WRONG_TOTAL, "wrong_total", INT, NONE, R, NULL, "",                                \
	  "wrong elements over all points")                                                        \
	F(TSUM, VERDICT, "verdict", STR, NONE, R, NULL, "", "ok or wrong results")                 \
	F(TCHOICE, RANKS, "ranks", INT, NONE, R, NULL, "", "the communicator's size")              \
	F(TCHOICE, BYTES, "bytes", INT, NONE, R, NULL, "bytes", "the message size")                \
	F(TCHOICE, CHOICE, "choice", STR, NONE, R, NULL, "",                                       \
	  "the algorithm chosen; default: the library's decision kept")                           \
	F(TCHOICE, CHANGED, "changed", BOOL, NONE, R, NULL, "", "not the library's decision")     \
	F(TCHOICE, DEFAULT_P50_US, "default_p50_us", NUM, NONE, N, NULL, "us",                     \
	  "the library's decision")                                                                \
	F(TCHOICE, CHOSEN_P50_US, "chosen_p50_us", NUM, NONE, N, NULL, "us", "the choice's p50")  \
	F(TCHOICE, CANDIDATE, "candidate", STR, NONE, N, NULL, "",                                 \
	  "the fastest forced algorithm tested (the choice when changed); null: none")           \
	F(TCHOICE, CANDIDATE_P50_US, "candidate_p50_us", NUM, NONE, N, NULL, "us", "its p50")     \
	F(TCHOICE, GAIN, "gain", NUM, NONE, N, NULL, "", "default p50 / candidate p50")            \
	F(TCHOICE, P_VALUE, "p_value", NUM, NONE, N, NULL, "",                                     \
	  "two-sided Mann-Whitney U test, candidate against default")                              \
	F(TCHOICE, CONFIRM_GAIN, "confirm_gain", NUM, NONE, RN, NULL, "",                          \
	  "the choice measured again: default p50 / its p50; null where the first "               \
	  "measurement chose nothing")                                                             \
	F(TCHOICE, CONFIRM_P_VALUE, "confirm_p_value", NUM, NONE, RN, NULL, "",                    \
	  "the choice measured again: the Mann-Whitney U test's p; null where the first "         \
	  "measurement chose nothing")                                                             \
	F(TCHOICE, REASON, "reason", STR, NONE, R, NULL, "", "why this choice")                    \
	F(TCONS, RANKS, "ranks", INT, NONE, R, NULL, "", "the job's ranks, all measuring")         \
	F(TCONS, CHECKS, "checks", INT, NONE, R, NULL, "", "guideline checks tested")              \
	F(TCONS, UNTESTED, "untested", INT, NONE, R, NULL, "",                                     \
	  "checks without enough samples on a side")                                               \
	F(TCONS, VIOLATIONS, "violations", OBJS, TVIOL, R, NULL, "", "every guideline broken")     \
	F(TVIOL, KIND, "kind", STR, NONE, R, NULL, "",                                             \
	  "slower_than_reduce_bcast, slower_than_rs_allgather, slower_than_own_variant or "        \
	  "not_monotonic")                                                                         \
	F(TVIOL, BYTES, "bytes", INT, NONE, R, NULL, "bytes", "the size where mpi is slower")      \
	F(TVIOL, OTHER_BYTES, "other_bytes", INT, NONE, R, NULL, "bytes",                          \
	  "not_monotonic: the larger size mpi is faster at; else bytes")                          \
	F(TVIOL, OTHER, "other", STR, NONE, R, NULL, "", "what mpi is slower than")               \
	F(TVIOL, MPI_P50_US, "mpi_p50_us", NUM, NONE, N, NULL, "us", "MPI_Allreduce's p50")        \
	F(TVIOL, OTHER_P50_US, "other_p50_us", NUM, NONE, N, NULL, "us", "the other's p50")        \
	F(TVIOL, RATIO, "ratio", NUM, NONE, N, NULL, "", "mpi p50 / other p50")                    \
	F(TVIOL, P_VALUE, "p_value", NUM, NONE, N, NULL, "", "two-sided Mann-Whitney U test")      \
	F(TVIOL, Q_VALUE, "q_value", NUM, NONE, N, NULL, "",                                       \
	  "p adjusted over every check (Holm)")                                                    \
	F(TVIOL, MPI_SAMPLES, "mpi_samples", INT, NONE, R, NULL, "", "samples of mpi")             \
	F(TVIOL, OTHER_SAMPLES, "other_samples", INT, NONE, R, NULL, "", "samples of the other")

#endif
