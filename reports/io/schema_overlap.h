/*
 * The report of `collscope overlap` (issue 32): its records and summary.
 * Rows as in schema_table.h, which includes this file. Pure data.
 */
#ifndef COLLSCOPE_SCHEMA_OVERLAP_H
#define COLLSCOPE_SCHEMA_OVERLAP_H

#define SCHEMA_OBJECTS_OVERLAP(O)                                                                  \
	O(OVL, "overlap results[]",                                                                \
	  "one variant, size, compute kind and progress method: the times and both overlaps")      \
	O(OVSUM, "overlap summary", "the overlaps at the largest size, and the verdict")           \
	O(OVROW, "summary.largest_size[]", "one variant, compute kind and progress method")        \
	O(OVSTEP, "summary.steps[]", "--step: one variant's measured training step")

#define SCHEMA_FIELDS_OVERLAP(F)                                                                   \
	F(OVL, ALGORITHM, "algorithm", STR, NONE, R, NULL, "", "the variant")                      \
	F(OVL, BYTES, "bytes", INT, NONE, R, NULL, "bytes", "the message size")                    \
	F(OVL, COUNT, "count", INT, NONE, R, NULL, "elements", "elements of dtype")                \
	F(OVL, DTYPE, "dtype", STR, NONE, R, NULL, "", "the element type")                         \
	F(OVL, OP, "op", STR, NONE, R, NULL, "", "the reduction")                                  \
	F(OVL, RANKS, "ranks", INT, NONE, R, NULL, "", "the ranks")                                \
	F(OVL, COMPUTE, "compute", STR, NONE, R, NULL, "", "gemm or stream")                       \
	F(OVL, PROGRESS, "progress", STR, NONE, R, NULL, "",                                       \
	  "test (calls inside the compute) or none")                                               \
	F(OVL, SKIPPED, "skipped", STR, NONE, 0, NULL, "", "why the point was not measured")       \
	F(OVL, ITERATIONS, "iterations", INT, NONE, 0, NULL, "", "of each phase")                  \
	F(OVL, WRONG, "wrong", INT, NONE, N, NULL, "",                                             \
	  "wrong elements of the last overlapped call, all ranks; null unchecked")                 \
	F(OVL, TEST_INTERVAL_US, "test_interval_us", NUM, NONE, 0, NULL, "us",                     \
	  "compute between test calls")                                                            \
	F(OVL, PURE_US, "pure_us", NUM, NONE, N, NULL, "us", "the call alone, mean over ranks")    \
	F(OVL, CPU_ALONE_US, "cpu_alone_us", NUM, NONE, N, NULL, "us",                             \
	  "the compute alone, mean over ranks")                                                    \
	F(OVL, OVERALL_US, "overall_us", NUM, NONE, N, NULL, "us",                                 \
	  "start, compute, wait: mean over ranks")                                                 \
	F(OVL, CPU_US, "cpu_us", NUM, NONE, N, NULL, "us",                                         \
	  "of overall, the compute with its test calls")                                           \
	F(OVL, TEST_US, "test_us", NUM, NONE, N, NULL, "us", "of cpu, inside the test calls")      \
	F(OVL, TESTS_PER_CALL, "tests_per_call", NUM, NONE, N, NULL, "",                           \
	  "test calls per overlapped call")                                                        \
	F(OVL, OVERLAP_OSU_PCT, "overlap_osu_percent", NUM, NONE, N, NULL, "%",                    \
	  "osu_iallreduce's overlap, on the means over ranks")                                     \
	F(OVL, OVERLAP_IMB_PCT, "overlap_imb_percent", NUM, NONE, N, NULL, "%",                    \
	  "IMB-NBC's overlap, from the rank with the largest overall")                             \
	F(OVL, IMB_RANK, "imb_rank", INT, NONE, 0, NULL, "", "that rank")                          \
	F(OVL, RANK_OVERALL_US, "rank_overall_us", NUMS, NONE, 0, NULL, "us",                      \
	  "per rank, its mean overall time")                                                       \
	F(OVSUM, LARGEST_SIZE, "largest_size", OBJS, OVROW, R, NULL, "",                           \
	  "the overlaps at the largest size measured")                                             \
	F(OVSUM, STEPS, "steps", OBJS, OVSTEP, 0, NULL, "",                                        \
	  "--step: per variant and compute kind")                                                  \
	F(OVSUM, WRONG_TOTAL, "wrong_total", INT, NONE, R, NULL, "",                               \
	  "wrong elements, every point")                                                           \
	F(OVSUM, VERDICT, "verdict", STR, NONE, R, NULL, "", "ok or wrong results")                \
	F(OVROW, ALGORITHM, "algorithm", STR, NONE, R, NULL, "", "the variant")                    \
	F(OVROW, BYTES, "bytes", INT, NONE, R, NULL, "bytes", "the size")                          \
	F(OVROW, COMPUTE, "compute", STR, NONE, R, NULL, "", "gemm or stream")                     \
	F(OVROW, PROGRESS, "progress", STR, NONE, R, NULL, "", "test or none")                     \
	F(OVROW, OVERLAP_OSU_PCT, "overlap_osu_percent", NUM, NONE, RN, NULL, "%", "OSU's")        \
	F(OVROW, OVERLAP_IMB_PCT, "overlap_imb_percent", NUM, NONE, RN, NULL, "%", "IMB-NBC's")    \
	F(OVSTEP, ALGORITHM, "algorithm", STR, NONE, R, NULL, "", "the variant")                   \
	F(OVSTEP, COMPUTE, "compute", STR, NONE, R, NULL, "", "gemm or stream")                    \
	F(OVSTEP, RANKS, "ranks", INT, NONE, R, NULL, "", "the ranks")                             \
	F(OVSTEP, GRAD_BYTES, "grad_bytes", INT, NONE, R, NULL, "bytes", "the gradient")           \
	F(OVSTEP, BUCKET_BYTES, "bucket_bytes", INT, NONE, R, NULL, "bytes", "a full bucket")      \
	F(OVSTEP, BUCKETS, "buckets", INT, NONE, R, NULL, "", "buckets a step")                    \
	F(OVSTEP, SKIPPED, "skipped", STR, NONE, 0, NULL, "", "why not measured")                  \
	F(OVSTEP, COMPUTE_US, "compute_us", NUM, NONE, N, NULL, "us",                              \
	  "the compute alone, the slowest rank's mean")                                            \
	F(OVSTEP, SERIAL_US, "serial_us", NUM, NONE, N, NULL, "us",                                \
	  "compute, then every bucket's all-reduce")                                               \
	F(OVSTEP, STEP_US, "step_us", NUM, NONE, N, NULL, "us",                                    \
	  "each bucket started as the compute produces it")                                        \
	F(OVSTEP, EXPOSED_US, "exposed_us", NUM, NONE, N, NULL, "us",                              \
	  "step - compute: the communication the step waits for")                                  \
	F(OVSTEP, HIDDEN_FRACTION, "hidden_fraction", NUM, NONE, N, NULL, "",                      \
	  "(serial - step) / (serial - compute): the communication hidden; null: serial <= compute") \
	F(OVSTEP, WRONG, "wrong", INT, NONE, N, NULL, "", "wrong elements of the last step")

#endif
