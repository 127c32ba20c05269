/*
 * The report of `collscope congestion` (issue 31): what its records add to
 * an all-reduce record, and its summary. Rows as in schema_table.h, which
 * includes this file. Pure data.
 */
#ifndef COLLSCOPE_SCHEMA_CONGESTION_H
#define COLLSCOPE_SCHEMA_CONGESTION_H

#define SCHEMA_OBJECTS_CONGESTION(O)                                                               \
	O(CONG, "congestion results[]",                                                            \
	  "a victim group's all-reduce point, alone or together with the others")                  \
	O(CSUM, "congestion summary", "groups, interference factors and where it happens")         \
	O(CGROUP, "summary.groups[]", "one group of the split")                                    \
	O(CPOINT, "summary.points[]", "one victim group at one point: alone against together")     \
	O(COVERALL, "summary.overall[]", "every victim at one point, summed")                      \
	O(CWHERE, "summary.where[]", "a victim's host x host bandwidth under the load and alone")  \
	O(CVERDICT, "summary.where[].verdicts[]", "what the classifier named under the load")

#define SCHEMA_FIELDS_CONGESTION(F)                                                                \
	F(CONG, GROUP, "group", INT, NONE, R, NULL, "", "the victim group (summary.groups[])")     \
	F(CONG, PHASE, "phase", STR, NONE, R, NULL, "",                                            \
	  "alone (the other groups idle) or together (every group at once)")                       \
	F(CSUM, UNIT, "unit", STR, NONE, R, NULL, "",                                              \
	  "host (a group owns whole hosts) or rank (one host: groups of ranks)")                   \
	F(CSUM, GROUPS, "groups", OBJS, CGROUP, R, NULL, "", "the split")                          \
	F(CSUM, POINTS, "points", OBJS, CPOINT, R, NULL, "", "per victim and point")               \
	F(CSUM, OVERALL, "overall", OBJS, COVERALL, R, NULL, "", "per point, every victim")        \
	F(CSUM, WHERE, "where", OBJS, CWHERE, R, NULL, "", "victims whose matrix was measured")    \
	F(CSUM, DEGRADED_GROUPS, "degraded_groups", INTS, NONE, R, NULL, "",                       \
	  "victims degraded at some point (--tolerance)")                                          \
	F(CSUM, WRONG_TOTAL, "wrong_total", INT, NONE, R, NULL, "", "wrong elements, every point") \
	F(CSUM, VERDICT, "verdict", STR, NONE, R, NULL, "",                                        \
	  "interference, no interference, or wrong results")                                       \
	F(CGROUP, GROUP, "group", INT, NONE, R, NULL, "", "its index")                             \
	F(CGROUP, ROLE, "role", STR, NONE, R, NULL, "",                                            \
	  "victim (runs the all-reduce) or aggressor (runs the congestor)")                        \
	F(CGROUP, WORLD_RANKS, "world_ranks", INTS, NONE, R, NULL, "", "its ranks")                \
	F(CGROUP, HOSTS, "hosts", STRS, NONE, R, NULL, "", "the hosts it spans")                   \
	F(CPOINT, ALGORITHM, "algorithm", STR, NONE, R, NULL, "", "the variant")                   \
	F(CPOINT, BYTES, "bytes", INT, NONE, R, NULL, "bytes", "the message size")                 \
	F(CPOINT, GROUP, "group", INT, NONE, R, NULL, "", "the victim")                            \
	F(CPOINT, BUSBW_ALONE_GBPS, "busbw_alone_gbps", NUM, NONE, RN, NULL, "GB/s",               \
	  "alone, from the p50 time")                                                              \
	F(CPOINT, BUSBW_TOGETHER_GBPS, "busbw_together_gbps", NUM, NONE, RN, NULL, "GB/s",         \
	  "together, from the p50 time")                                                           \
	F(CPOINT, P50_ALONE_US, "p50_alone_us", NUM, NONE, RN, NULL, "us", "median time alone")    \
	F(CPOINT, P50_TOGETHER_US, "p50_together_us", NUM, NONE, RN, NULL, "us",                   \
	  "median time together")                                                                  \
	F(CPOINT, P99_ALONE_US, "p99_alone_us", NUM, NONE, RN, NULL, "us",                         \
	  "99th percentile alone; null below 100 samples")                                         \
	F(CPOINT, P99_TOGETHER_US, "p99_together_us", NUM, NONE, RN, NULL, "us",                   \
	  "99th percentile together")                                                              \
	F(CPOINT, ITERATIONS_ALONE, "iterations_alone", INT, NONE, R, NULL, "", "samples alone")   \
	F(CPOINT, ITERATIONS_TOGETHER, "iterations_together", INT, NONE, R, NULL, "",              \
	  "samples together")                                                                      \
	F(CPOINT, FACTOR_BUSBW, "factor_busbw", NUM, NONE, RN, NULL, "",                           \
	  "busbw alone / together: 1 none, 2 halved")                                              \
	F(CPOINT, FACTOR_MEAN, "factor_mean", NUM, NONE, RN, NULL, "",                             \
	  "mean time together / alone (GPCNeT's impact factor on the mean)")                       \
	F(CPOINT, FACTOR_P50, "factor_p50", NUM, NONE, RN, NULL, "", "p50 time together / alone")  \
	F(CPOINT, FACTOR_P99, "factor_p99", NUM, NONE, RN, NULL, "",                               \
	  "p99 time together / alone (GPCNeT's on the 99th percentile)")                           \
	F(CPOINT, DEGRADED, "degraded", BOOL, NONE, R, NULL, "",                                   \
	  "factor_p50 or factor_mean >= 1 + tolerance")                                            \
	F(COVERALL, ALGORITHM, "algorithm", STR, NONE, R, NULL, "", "the variant")                 \
	F(COVERALL, BYTES, "bytes", INT, NONE, R, NULL, "bytes", "the message size")               \
	F(COVERALL, BUSBW_ALONE_GBPS, "busbw_alone_gbps", NUM, NONE, RN, NULL, "GB/s",             \
	  "the victims' busbw alone, summed")                                                      \
	F(COVERALL, BUSBW_TOGETHER_GBPS, "busbw_together_gbps", NUM, NONE, RN, NULL, "GB/s",       \
	  "the victims' busbw together, summed")                                                   \
	F(COVERALL, FACTOR_BUSBW, "factor_busbw", NUM, NONE, RN, NULL, "",                         \
	  "summed busbw alone / together")                                                         \
	F(COVERALL, WORST_FACTOR_P99, "worst_factor_p99", NUM, NONE, RN, NULL, "",                 \
	  "the largest victim's p99 factor")                                                       \
	F(CWHERE, GROUP, "group", INT, NONE, R, NULL, "", "the victim")                            \
	F(CWHERE, HOSTS, "hosts", STRS, NONE, R, NULL, "",                                         \
	  "the hosts measured, the matrices' order (--where-hosts of them at most)")               \
	F(CWHERE, HOSTS_TOTAL, "hosts_total", INT, NONE, R, NULL, "",                              \
	  "the victim's hosts: more than those measured when they were sampled")                   \
	F(CWHERE, SKIPPED, "skipped", STR, NONE, 0, NULL, "", "why it was not measured")           \
	F(CWHERE, LOADED_GBPS, "loaded_gbps", NUMSS, NONE, N, NULL, "GB/s",                        \
	  "host x host bandwidth, row sends, under the load (absent: skipped)")                    \
	F(CWHERE, ALONE_GBPS, "alone_gbps", NUMSS, NONE, N, NULL, "GB/s",                          \
	  "the same with the other groups idle")                                                   \
	F(CWHERE, TRACE, "trace", OBJ, TRACE, 0, NULL, "",                                         \
	  "its last point traced under the load, hop by hop (as allreduce --trace)")               \
	F(CWHERE, SLOW_HOPS, "slow_hops", STRS, NONE, 0, NULL, "",                                 \
	  "the hops (or ranks) that trace names, in words")                                        \
	F(CWHERE, TRACE_SKIPPED, "trace_skipped", STR, NONE, 0, NULL, "", "why it was not traced") \
	F(CWHERE, VERDICTS, "verdicts", OBJS, CVERDICT, R, NULL, "",                               \
	  "the classifier's, under the load")                                                      \
	F(CVERDICT, KIND, "kind", STR, NONE, R, NULL, "", "segment, host or link")                 \
	F(CVERDICT, DIRECTION, "direction", STR, NONE, R, NULL, "", "send, receive or both")       \
	F(CVERDICT, HOSTS_A, "hosts_a", STRS, NONE, R, NULL, "",                                   \
	  "segment: one side; host: it; link: its first host")                                     \
	F(CVERDICT, HOSTS_B, "hosts_b", STRS, NONE, R, NULL, "",                                   \
	  "segment: the other side; link: its second host; host: empty")                           \
	F(CVERDICT, MEASURED_GBPS, "measured_gbps", NUM, NONE, RN, NULL, "GB/s",                   \
	  "the slow cells' median")                                                                \
	F(CVERDICT, EXPECTED_GBPS, "expected_gbps", NUM, NONE, RN, NULL, "GB/s",                   \
	  "the reference cells' median")                                                           \
	F(CVERDICT, SCORE, "score", NUM, NONE, RN, NULL, "", "the modified z-score")               \
	F(CVERDICT, ALSO_ALONE, "also_alone", BOOL, NONE, R, NULL, "",                             \
	  "named alone too: slow without the load, not interference")                              \
	F(CVERDICT, LINE, "line", STR, NONE, R, NULL, "", "the verdict in words")

#endif
