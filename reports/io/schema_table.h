/*
 * The report's fields, written down once (DESIGN.md section 5): every
 * object a report holds and every field of it, with its JSON type, unit and
 * meaning. reports/io/report_schema.h turns these rows into the key constants the
 * writers and readers use (SK_<OBJECT>_<FIELD>), schema.c into the JSON
 * Schema of `collscope schema` and into reports/SCHEMA.md.
 *
 * SCHEMA_OBJECTS(O): O(TOKEN, "title", "meaning").
 * SCHEMA_FIELDS(F):  F(OBJECT, ID, "name", TYPE, CHILD, FLAGS, ENUM, "unit", "meaning")
 *   TYPE   STR INT NUM BOOL, OBJ (an object: CHILD), OBJS (an array of CHILD),
 *          MAP (an object of any members), INTS NUMS STRS (arrays; numbers may
 *          be null, an undefined statistic), NUMSS (rows of numbers or null)
 *   FLAGS  0, R (every report with that object has it), N (may be null:
 *          an undefined statistic or an unknown value; of an array: its
 *          items may be), RN (both)
 *   ENUM   the name table its strings come from (NULL-terminated), or NULL
 *   unit   "" for counts, names, ratios and scores; a measured quantity's
 *          name ends with its unit's suffix (us, gbps, bytes, s, ppm, percent)
 *          unless its object carries the unit in its own name (time_us.p50)
 * Pure data: no MPI, no I/O. Add a field here, then use its constant.
 */
#ifndef COLLSCOPE_SCHEMA_TABLE_H
#define COLLSCOPE_SCHEMA_TABLE_H

#include "reports/io/schema_congestion.h"
#include "reports/io/schema_overlap.h"
#include "reports/io/schema_tune.h"
#include "reports/io/schema_watch.h"

#define SCHEMA_OBJECTS(O)                                                                          \
	O(REPORT, "report", "the document: one per run, written by rank 0")                        \
	O(CTX, "context", "where and how the run happened")                                        \
	O(TOOL, "context.tool", "the program that wrote the report")                               \
	O(MPI, "context.mpi", "the MPI library and job")                                           \
	O(CHOST, "context.hosts[]", "one host of the job")                                         \
	O(CRANK, "context.ranks[]", "where one rank ran")                                          \
	O(CLOCK, "context.clock_sync", "the clock synchronisation of a sweep (timing window)")     \
	O(AR, "allreduce results[]", "one measured (or skipped) all-reduce point")                 \
	O(TIME, "results[].time_us", "the time of one call over the iterations, in us")            \
	O(TRACE, "results[].trace", "where the time of a traced point went (--trace)")             \
	O(HOP, "results[].trace.hops[]", "one hop of a traced schedule")                           \
	O(HALVES, "results[].trace.halves",                                                        \
	  "a traced all-reduce's two halves, medians over its iterations")                         \
	O(ARSUM, "allreduce summary", "verdicts of an all-reduce sweep")                           \
	O(ARVAR, "summary.variants[]", "one variant's points and peak bandwidth")                  \
	O(SLOWHOP, "summary.slow_hops[]", "--trace: a hop slower than its peers")                  \
	O(SLOWRANK, "summary.slow_ranks[]", "--trace: a rank whose hops or reduction are slow")    \
	O(CLIFF, "summary.cliffs[]", "a size step where the time grows much faster than the size") \
	O(MEM, "summary.memory", "peak memory of the ranks against the budget")                    \
	O(YARD, "summary.yardstick",                                                               \
	  "the noise yardstick: a fixed small all-reduce re-measured through the run")             \
	O(LINK, "links results[]", "one ordered pair a -> b as measured by a")                     \
	O(LAT, "results[].latency_us", "one-way latency over the iterations, in us")               \
	O(BW, "results[].bandwidth_gbps", "bandwidth over the timed windows, in GB/s")             \
	O(LSUM, "links summary", "the links' classes, hosts and suspects")                         \
	O(LCLASS, "summary.classes[]", "one class of links (metric x locality)")                   \
	O(LHOST, "summary.hosts[]", "one host's links, per locality class")                        \
	O(HCLASS, "summary.hosts[].classes.<locality>", "one host's links of one locality class")  \
	O(HBW, "summary.hosts[].classes.<locality>.bandwidth_gbps",                                \
	  "bandwidth of those links, GB/s")                                                        \
	O(HLAT, "summary.hosts[].classes.<locality>.latency_us", "latency of those links, in us")  \
	O(SUSP, "summary.suspects[]",                                                              \
	  "a slow link, host or segment (cleared[]: one not confirmed)")                           \
	O(RETEST, "summary.suspects[].retest", "the first pass against the re-test")               \
	O(SENS, "summary.sensitivity[]", "the smallest slowdown a class would have named")         \
	O(COVER, "summary.coverage", "links: what the run measured and what it rules out")         \
	O(ACCSUM, "accept summary", "the verdict of a run against a spec")                         \
	O(RULES, "summary.coverage.rules_out[]", "per verdict class: the slowdown ruled out")      \
	O(SHIFT, "shift", "the shift pattern: every rank sending to rank + k at once")             \
	O(PAIRS, "pairs",                                                                          \
	  "links, schema 2: every measured ordered pair a -> b, as parallel arrays")               \
	O(PSAMP, "pair_samples[]", "links, schema 2: the raw samples kept for one pair")           \
	O(SCALE, "scale results[]",                                                                \
	  "an all-reduce point at one rank count, measured or predicted")                          \
	O(OVERLAP, "results[].overlapped", "the step model with part of the all-reduce hidden")    \
	O(SCOMP, "results[].compressed",                                                           \
	  "the step model with the gradient compressed (--compress-ratio)")                        \
	O(MODEL, "results[].model", "the cost model's terms at this point")                        \
	O(SSUM, "scale summary", "fits, sweet spots and verdicts of a scaling sweep")              \
	O(COST, "summary.cost_model", "how the cost model is built")                               \
	O(STEP, "summary.step_model", "the data-parallel step the model assumes (--compute-ms)")   \
	O(SVAR, "scale summary.variants[]", "one variant's points, fit and sweet spots")           \
	O(FIT, "summary.variants[].fit", "the alpha-beta-gamma fit of one variant")                \
	O(SWEETS, "summary.variants[].sweet_spot",                                                 \
	  "the rank counts past which training slows down")                                        \
	O(SWEET, "summary.variants[].sweet_spot.<measured|predicted>", "one sweet spot")           \
	O(COMM, "summary.communicators[]", "one sub-communicator of the sweep")                    \
	O(TOPOSUM, "topo summary", "the job's placement at a glance")                              \
	O(EVENT, "events[]", "something that ended the run early (a hang the watchdog saw)")       \
	SCHEMA_OBJECTS_CONGESTION(O)                                                               \
	SCHEMA_OBJECTS_OVERLAP(O)                                                                  \
	SCHEMA_OBJECTS_WATCH(O)                                                                    \
	SCHEMA_OBJECTS_TUNE(O)

/* The fields of the envelope and of the context block. */
#define SCHEMA_FIELDS_CONTEXT(F)                                                                   \
	F(REPORT, SCHEMA_VERSION, "schema_version", INT, NONE, R, NULL, "",                        \
	  "the schema of the document; a removed or renamed field bumps it")                       \
	F(REPORT, COMMAND, "command", STR, NONE, R, schema_command_names, "",                      \
	  "the command that wrote it")                                                             \
	F(REPORT, CONTEXT, "context", OBJ, CTX, 0, NULL, "", "where and how the run happened")     \
	F(REPORT, CONFIG, "config", MAP, NONE, 0, NULL, "",                                        \
	  "every option in force, defaults filled in, under its long name")                        \
	F(REPORT, RESULTS, "results", OBJS, NONE, 0, NULL, "", "one record per measured point")    \
	F(REPORT, SUMMARY, "summary", OBJ, NONE, 0, NULL, "", "verdicts, suspects, failures")      \
	F(REPORT, EVENTS, "events", OBJS, EVENT, 0, NULL, "",                                      \
	  "what happened before the run ended (a partial report)")                                 \
	F(REPORT, SHIFT, "shift", OBJ, SHIFT, 0, NULL, "", "links: the shift pattern (--pattern)") \
	F(REPORT, PAIRS, "pairs", OBJ, PAIRS, 0, NULL, "",                                         \
	  "links, schema 2: the measured pairs (schema 1 had one results[] record each)")          \
	F(REPORT, PAIR_SAMPLES, "pair_samples", OBJS, PSAMP, 0, NULL, "",                          \
	  "links, schema 2: raw samples of the suspects' pairs and of a bounded sample of others") \
	F(REPORT, COMPLETE, "complete", BOOL, NONE, 0, NULL, "",                                   \
	  "false while the run is going or when it was cut short")                                 \
	F(CTX, TOOL, "tool", OBJ, TOOL, R, NULL, "", "the program")                                \
	F(CTX, MPI, "mpi", OBJ, MPI, R, NULL, "", "the MPI library and job")                       \
	F(CTX, ARGV, "argv", STRS, NONE, R, NULL, "", "the command line, whole")                   \
	F(CTX, STARTED_UTC, "started_utc", STR, NONE, R, NULL, "", "ISO 8601, UTC")                \
	F(CTX, FINISHED_UTC, "finished_utc", STR, NONE, R, NULL, "", "ISO 8601, UTC")              \
	F(CTX, HOSTS, "hosts", OBJS, CHOST, R, NULL, "", "the hosts of the job")                   \
	F(CTX, RANKS, "ranks", OBJS, CRANK, R, NULL, "", "where every rank ran")                   \
	F(CTX, OVERSUBSCRIBED, "oversubscribed", BOOL, NONE, R, NULL, "",                          \
	  "some host runs more ranks than it has cores")                                           \
	F(CTX, TIMER_RESOLUTION_US, "timer_resolution_us", NUM, NONE, RN, NULL, "us",              \
	  "the resolution of MPI_Wtime")                                                           \
	F(CTX, TIMER_OVERHEAD_US, "timer_overhead_us", NUM, NONE, RN, NULL, "us",                  \
	  "the cost of one timer read, measured")                                                  \
	F(CTX, CLOCK_SYNC, "clock_sync", OBJ, CLOCK, 0, NULL, "",                                  \
	  "the clock synchronisation, when the sweep synchronised clocks")                         \
	F(CTX, ENVIRONMENT, "environment", MAP, NONE, R, NULL, "",                                 \
	  "allow-listed variables (OMPI_*, MPIR_CVAR_*, SLURM_*, COLLSCOPE_*), secrets redacted")  \
	F(TOOL, NAME, "name", STR, NONE, R, NULL, "", "collscope")                                 \
	F(TOOL, VERSION, "version", STR, NONE, R, NULL, "", "its version")                         \
	F(TOOL, GIT, "git", STR, NONE, R, NULL, "", "the commit it was built from")                \
	F(MPI, LIBRARY, "library", STR, NONE, R, NULL, "", "MPI_Get_library_version's text")       \
	F(MPI, RANKS, "ranks", INT, NONE, R, NULL, "", "the ranks of the job")                     \
	F(MPI, CVARS, "cvars", MAP, NONE, 0, NULL, "",                                             \
	  "the library's control variables that decide how collectives run (MPI_T)")               \
	F(CHOST, NAME, "name", STR, NONE, R, NULL, "", "the host name")                            \
	F(CHOST, CORES, "cores", INT, NONE, R, NULL, "", "physical cores")                         \
	F(CHOST, PUS, "pus", INT, NONE, R, NULL, "", "hardware threads")                           \
	F(CHOST, NUMA_NODES, "numa_nodes", INT, NONE, R, NULL, "", "NUMA nodes")                   \
	F(CHOST, PACKAGES, "packages", INT, NONE, R, NULL, "", "sockets")                          \
	F(CHOST, OVERSUBSCRIBED, "oversubscribed", BOOL, NONE, R, NULL, "",                        \
	  "more ranks than cores")                                                                 \
	F(CHOST, CPU_MODEL, "cpu_model", STR, NONE, 0, NULL, "", "the CPU, when known")            \
	F(CHOST, KERNEL, "kernel", STR, NONE, 0, NULL, "", "the kernel, when known")               \
	F(CHOST, RANKS, "ranks", INTS, NONE, R, NULL, "", "the ranks on it")                       \
	F(CRANK, RANK, "rank", INT, NONE, R, NULL, "", "the rank in MPI_COMM_WORLD")               \
	F(CRANK, HOST, "host", STR, NONE, R, NULL, "", "its host")                                 \
	F(CRANK, PID, "pid", INT, NONE, R, NULL, "", "its process id")                             \
	F(CRANK, CPUSET, "cpuset", STR, NONE, R, NULL, "", "the cores it is bound to (\"0-3,8\")") \
	F(CRANK, NUMA, "numa", INT, NONE, RN, NULL, "", "its NUMA node; null: unknown or several") \
	F(CRANK, PACKAGE, "package", INT, NONE, RN, NULL, "",                                      \
	  "its socket; null: unknown or several")                                                  \
	F(CRANK, BOUND, "bound", BOOL, NONE, R, NULL, "", "bound to fewer PUs than its host has")  \
	F(CLOCK, METHOD, "method", STR, NONE, R, NULL, "", "how clocks were synchronised")         \
	F(CLOCK, REFERENCE_RANK, "reference_rank", INT, NONE, R, NULL, "",                         \
	  "the clock of reference")                                                                \
	F(CLOCK, ERROR_US, "error_us", NUM, NONE, RN, NULL, "us",                                  \
	  "after a sync, the largest gap of a check from the model beyond its half round trip")    \
	F(CLOCK, BOUND_US, "bound_us", NUM, NONE, RN, NULL, "us", "the largest half round trip")   \
	F(CLOCK, MAX_OFFSET_US, "max_offset_us", NUM, NONE, RN, NULL, "us",                        \
	  "the largest offset of a rank to rank 0")                                                \
	F(CLOCK, MAX_DRIFT_PPM, "max_drift_ppm", NUM, NONE, RN, NULL, "ppm", "the largest drift")  \
	F(CLOCK, MAX_JUMP_US, "max_jump_us", NUM, NONE, RN, NULL, "us",                            \
	  "the largest error a model had accrued by its resync; null: none yet")                   \
	F(CLOCK, SYNCS, "syncs", INT, NONE, R, NULL, "", "the first sync and every resync")        \
	F(CLOCK, RESYNCS, "resyncs", INT, NONE, R, NULL, "", "syncs after the first")              \
	F(CLOCK, INTERVAL_S, "interval_s", NUM, NONE, RN, NULL, "s",                               \
	  "a sync older than this is redone before the next point")                                \
	F(CLOCK, LAST_DURATION_US, "last_duration_us", NUM, NONE, RN, NULL, "us",                  \
	  "how long the last sync took")                                                           \
	F(CLOCK, SHARED_CLOCK_RANKS, "shared_clock_ranks", INT, NONE, 0, NULL, "",                 \
	  "ranks reading rank 0's own clock (one kernel), rank 0 among them: offset 0, unmeasured")\
	F(CLOCK, MEASURED_RANKS, "measured_ranks", INT, NONE, 0, NULL, "",                         \
	  "ranks measured by ping-pong, one per other clock; the rest of its host take its model")

/* allreduce: the record of a point (scale's records are these too) and the summary. */
#define SCHEMA_FIELDS_ALLREDUCE(F)                                                                 \
	F(AR, ALGORITHM, "algorithm", STR, NONE, R, NULL, "", "the variant (collscope list)")      \
	F(AR, BYTES, "bytes", INT, NONE, R, NULL, "bytes", "the message size")                     \
	F(AR, COUNT, "count", INT, NONE, R, NULL, "elements", "elements of dtype")                 \
	F(AR, DTYPE, "dtype", STR, NONE, R, NULL, "", "the element type")                          \
	F(AR, OP, "op", STR, NONE, R, NULL, "", "the reduction")                                   \
	F(AR, RANKS, "ranks", INT, NONE, R, NULL, "", "the ranks of the communicator")             \
	F(AR, IN_PLACE, "in_place", BOOL, NONE, R, NULL, "", "MPI_IN_PLACE")                       \
	F(AR, COLLECTIVE, "collective", STR, NONE, 0, ar_collective_names, "",                     \
	  "allreduce, or a half: reduce_scatter, allgather (--collective); absent: allreduce")     \
	F(AR, SKIPPED, "skipped", STR, NONE, 0, NULL, "",                                          \
	  "why the variant cannot run this point; a skipped record has no figures")                \
	F(AR, ITERATIONS, "iterations", INT, NONE, 0, NULL, "", "timed iterations")                \
	F(AR, WRONG, "wrong", INT, NONE, N, NULL, "",                                              \
	  "wrong elements over all ranks; null: not checked")                                      \
	F(AR, TIME_US, "time_us", OBJ, TIME, 0, NULL, "", "time statistics of one call")           \
	F(AR, ALGBW_GBPS, "algbw_gbps", NUM, NONE, N, NULL, "GB/s", "bytes / p50 time")            \
	F(AR, BUSBW_GBPS, "busbw_gbps", NUM, NONE, N, NULL, "GB/s",                                \
	  "algbw x 2(n-1)/n, nccl-tests' bus bandwidth")                                           \
	F(AR, ALGBW_MEAN_GBPS, "algbw_mean_gbps", NUM, NONE, N, NULL, "GB/s", "bytes / mean time") \
	F(AR, BUSBW_MEAN_GBPS, "busbw_mean_gbps", NUM, NONE, N, NULL, "GB/s",                      \
	  "busbw from the mean")                                                                   \
	F(AR, STRAGGLER_RANK, "straggler_rank", INT, NONE, N, NULL, "",                            \
	  "the rank everyone waited for; null: not known")                                         \
	F(AR, RANK_MEAN_US, "rank_mean_us", NUMS, NONE, 0, NULL, "us",                             \
	  "per rank, the mean time inside the call")                                               \
	F(AR, TIMING, "timing", STR, NONE, 0, timing_method_names, "", "how the point was timed")  \
	F(AR, LATE_STARTS, "late_starts", INT, NONE, 0, NULL, "",                                  \
	  "timing window: attempts dropped, a rank having come late")                              \
	F(AR, TIMED_FROM, "timed_from", STR, NONE, 0, timing_from_names, "",                       \
	  "timing window: start (late attempts dropped) or last_arrival (most were late: every "   \
	  "attempt kept, timed from its last rank's arrival)")                                     \
	F(AR, LATE_STARTS_RETIMED, "late_starts_retimed", INT, NONE, 0, NULL, "",                  \
	  "timing window: late attempts kept, timed from their last arrival")                      \
	F(AR, WINDOW_LEAD_US, "window_lead_us", NUM, NONE, N, NULL, "us",                          \
	  "timing window: the lead of the last agreed start")                                      \
	F(AR, START_ERROR_US, "start_error_us", NUM, NONE, N, NULL, "us",                          \
	  "timing window: the start's error as measured in the calls, the latest median arrival "  \
	  "after the start of any rank but a persistent straggler (add context.clock_sync."        \
	  "error_us); null with one rank")                                                         \
	F(AR, P50_CI_LOW_US, "p50_ci_low_us", NUM, NONE, N, NULL, "us",                            \
	  "the p50's 95% confidence interval, low end (order statistics); null below 6 samples")   \
	F(AR, P50_CI_HIGH_US, "p50_ci_high_us", NUM, NONE, N, NULL, "us",                          \
	  "the p50's 95% confidence interval, high end")                                          \
	F(AR, STOP, "stop", STR, NONE, 0, sample_stop_names, "",                                   \
	  "why sampling stopped: fixed (-n), converged (the interval within --ci-width), "         \
	  "samples (the ceiling of 1000) or time (--time-per-size)")                              \
	F(AR, CALLS_PER_SAMPLE, "calls_per_sample", INT, NONE, 0, NULL, "",                        \
	  "timing pipelined: back-to-back calls per sample")                                       \
	F(AR, STRAGGLER_CAUSE, "straggler_cause", STR, NONE, N, timing_cause_names, "",            \
	  "why the straggler was last; null: not known")                                           \
	F(AR, STRAGGLER_US, "straggler_us", NUM, NONE, N, NULL, "us",                              \
	  "the straggler's own delay per iteration")                                               \
	F(AR, STRAGGLER_COUNT, "straggler_count", INT, NONE, 0, NULL, "",                          \
	  "iterations in which the straggler was the last (to arrive, or to end: by its cause)")   \
	F(AR, STRAGGLER_P_VALUE, "straggler_p_value", NUM, NONE, N, NULL, "",                      \
	  "window timing, late to arrive: the chance that any rank is the last that often were "   \
	  "none slower (ranks x binomial tail); else null")                                        \
	F(AR, STRAGGLER_PERSISTENT, "straggler_persistent", BOOL, NONE, 0, NULL, "",               \
	  "the straggler is the point's finding: late to a window's start, p at most 0.001, its "  \
	  "delay at least 3x the other ranks' lateness and 1% of the p50, each rank's less how "   \
	  "late it learnt the start (algorithms/timing.h)")                                        \
	F(AR, RANK_LATE_US, "rank_late_us", NUMS, NONE, 0, NULL, "us",                             \
	  "per rank, the mean arrival after the start")                                            \
	F(AR, RANK_LEARNT_LATE_US, "rank_learnt_late_us", NUMS, NONE, 0, NULL, "us",               \
	  "window timing: per rank, how long after the start it learnt it, on average (0: in "     \
	  "time); that part of its arrival is the start's delivery, not the rank's lateness, "     \
	  "and the straggler is judged without it (algorithms/timing.h)")                          \
	F(AR, SAMPLES_US, "samples_us", NUMS, NONE, 0, NULL, "us",                                 \
	  "per iteration, the time to the last rank's end")                                        \
	F(AR, TRACE, "trace", OBJ, TRACE, 0, NULL, "", "where the time went (--trace)")            \
	F(AR, YARDSTICK_BURST, "yardstick_burst", INT, NONE, 0, NULL, "",                          \
	  "the yardstick burst just before this point (index in summary.yardstick.samples_us)")    \
	F(AR, SENT_BYTES, "sent_bytes", NUM, NONE, 0, NULL, "bytes",                               \
	  "compressed variants: what one call sent, the most of any rank, as the executor counted "\
	  "it")                                                                                    \
	F(AR, COMPRESSION_RATIO, "compression_ratio", NUM, NONE, N, NULL, "",                      \
	  "compressed variants: the float32 bytes the messages carried / the bytes sent, all "     \
	  "ranks; null: nothing sent (one rank)")                                                  \
	F(AR, WIRE_BUSBW_GBPS, "wire_busbw_gbps", NUM, NONE, N, NULL, "GB/s",                      \
	  "compressed variants: busbw / compression_ratio, the bus bandwidth the wire carried "    \
	  "(busbw_gbps is on the logical, uncompressed size)")                                     \
	F(AR, MAX_ABS_ERROR, "max_abs_error", NUM, NONE, N, NULL, "",                              \
	  "compressed variants: the largest |result - exact| over every rank's elements, the "     \
	  "exact sum taken in float64; null: not checked")                                         \
	F(AR, REL_L2_ERROR, "rel_l2_error", NUM, NONE, N, NULL, "",                                \
	  "compressed variants: |result - exact|_2 / |exact|_2; null: not checked")                \
	F(AR, BEYOND_BOUND_SHARE, "beyond_bound_share", NUM, NONE, N, NULL, "",                    \
	  "compressed variants: the share of elements outside their format's bound (each one is " \
	  "wrong); null: not checked")                                                             \
	F(AR, FEEDBACK_CALLS, "feedback_calls", INT, NONE, 0, NULL, "",                            \
	  "compressed variants with --error-feedback: the calls of the drift check, made after "   \
	  "the timed ones on the same input from a zero residual; 0: not run")                     \
	F(AR, FEEDBACK_REL_L2_ERROR, "feedback_rel_l2_error", NUM, NONE, N, NULL, "",              \
	  "compressed variants with --error-feedback: |sum of those calls' results - calls x "     \
	  "exact|_2 / |calls x exact|_2; bounded feedback keeps the summed error at one "          \
	  "residual's, so this falls as the calls grow; null: not run")                            \
	F(TIME, MIN, "min", NUM, NONE, N, NULL, "us", "the fastest")                               \
	F(TIME, MEAN, "mean", NUM, NONE, N, NULL, "us", "the mean")                                \
	F(TIME, STDDEV, "stddev", NUM, NONE, N, NULL, "us", "sample standard deviation (n - 1)")   \
	F(TIME, P50, "p50", NUM, NONE, N, NULL, "us", "median (type 7)")                           \
	F(TIME, P90, "p90", NUM, NONE, N, NULL, "us", "90th percentile; null below 10 samples")    \
	F(TIME, P99, "p99", NUM, NONE, N, NULL, "us", "99th percentile; null below 100 samples")   \
	F(TIME, P999, "p999", NUM, NONE, N, NULL, "us", "99.9th percentile; null below 1000")      \
	F(TIME, MAX, "max", NUM, NONE, N, NULL, "us", "the slowest")                               \
	F(TRACE, ITERATIONS, "iterations", INT, NONE, 0, NULL, "", "traced iterations")            \
	F(TRACE, MESSAGES, "messages", INT, NONE, 0, NULL, "", "messages traced")                  \
	F(TRACE, UNMATCHED, "unmatched", INT, NONE, 0, NULL, "", "sends without their receive")    \
	F(TRACE, DROPPED, "dropped", INT, NONE, 0, NULL, "", "events lost to a full buffer")       \
	F(TRACE, ITERATION_US, "iteration_us", NUM, NONE, N, NULL, "us", "one traced iteration")   \
	F(TRACE, CLOCK_ERROR_US, "clock_error_us", NUM, NONE, N, NULL, "us",                       \
	  "the clock error the times carry")                                                       \
	F(TRACE, HOPS, "hops", OBJS, HOP, 0, NULL, "", "every hop of the schedule")                \
	F(TRACE, HALVES, "halves", OBJ, HALVES, 0, NULL, "",                                       \
	  "ring, rabenseifner: the time of the reduce-scatter and of the all-gather")              \
	F(TRACE, CALLS, "calls", INT, NONE, 0, NULL, "", "a direct variant: calls traced")         \
	F(TRACE, RANK_CALL_US, "rank_call_us", NUMS, NONE, 0, NULL, "us",                          \
	  "a direct variant: per rank, the mean time of a call")                                   \
	F(HALVES, REDUCE_SCATTER_US, "reduce_scatter_us", NUM, NONE, RN, NULL, "us",               \
	  "from the first step's start to the last reduce-scatter step's end, over the ranks")     \
	F(HALVES, ALLGATHER_US, "allgather_us", NUM, NONE, RN, NULL, "us",                         \
	  "from there to the last step's end")                                                     \
	F(HALVES, REDUCE_SCATTER_SHARE, "reduce_scatter_share", NUM, NONE, RN, NULL, "",           \
	  "reduce_scatter_us / (reduce_scatter_us + allgather_us)")                                \
	F(HALVES, ITERATIONS, "iterations", INT, NONE, R, NULL, "", "iterations with both halves") \
	F(HOP, FROM_RANK, "from_rank", INT, NONE, 0, NULL, "", "the sender")                       \
	F(HOP, TO_RANK, "to_rank", INT, NONE, 0, NULL, "", "the receiver")                         \
	F(HOP, HOSTS, "hosts", STRS, NONE, N, NULL, "", "their hosts (null: unknown)")             \
	F(HOP, LOCALITY, "locality", STR, NONE, 0, NULL, "", "same_host, cross_host or any")       \
	F(HOP, MESSAGES, "messages", INT, NONE, 0, NULL, "", "messages of the hop")                \
	F(HOP, HOP_TIME_US, "hop_time_us", NUM, NONE, N, NULL, "us", "the hop's transfer time")    \
	F(HOP, WAIT_US, "wait_us", NUM, NONE, N, NULL, "us", "time the receiver waited")           \
	F(HOP, MEDIAN_HOP_US, "median_hop_us", NUM, NONE, N, NULL, "us", "the median hop")         \
	F(HOP, RATIO, "ratio", NUM, NONE, N, NULL, "", "hop time / median hop")                    \
	F(HOP, SCORE, "score", NUM, NONE, N, NULL, "", "modified z-score")                         \
	F(HOP, SHARE, "share", NUM, NONE, N, NULL, "", "its share of the iteration")               \
	F(HOP, CONSISTENCY_P, "consistency_p", NUM, NONE, N, NULL, "",                             \
	  "chance of being its class's slowest as often (null: not judged)")                       \
	F(HOP, WAITED, "waited", BOOL, NONE, 0, NULL, "", "the receiver waited for it")            \
	F(HOP, SLOW, "slow", BOOL, NONE, 0, NULL, "", "judged slow")                               \
	F(HOP, SUSPECT, "suspect", BOOL, NONE, 0, NULL, "",                                        \
	  "past the score or wins test under the share bar, not confirmed by re-measuring")        \
	F(HOP, RETESTS, "retests", INT, NONE, 0, NULL, "",                                         \
	  "the point measured again while this hop was a suspect")                                 \
	F(HOP, RETESTS_CONFIRMED, "retests_confirmed", INT, NONE, 0, NULL, "",                     \
	  "of them, those that found it slow or a suspect again")                                  \
	F(HOP, MESSAGE_BYTES, "message_bytes", NUM, NONE, N, NULL, "bytes",                        \
	  "the median size of its messages")                                                       \
	F(HOP, OTHER_TRAFFIC_GBPS, "other_traffic_gbps", NUM, NONE, N, NULL, "GB/s",               \
	  "slow or a suspect across hosts: what its busier host's NIC carried past the median "    \
	  "host's during the point (another job's; null: not known or not judged)")                \
	F(HOP, TRAFFIC_CLEARED, "traffic_cleared", BOOL, NONE, 0, NULL, "",                        \
	  "slow or a suspect, and that traffic makes up its deficit: another job's, not the "      \
	  "link's (reports/diagnose/hops.h)")                                                      \
	F(ARSUM, VARIANTS, "variants", OBJS, ARVAR, R, NULL, "",                                   \
	  "one entry per variant asked for")                                                       \
	F(ARSUM, BELOW_MIN_BUSBW, "below_min_busbw", STRS, NONE, R, NULL, "",                      \
	  "the variants below --min-busbw")                                                        \
	F(ARSUM, CLIFFS, "cliffs", OBJS, CLIFF, 0, NULL, "", "size steps with a cliff")            \
	F(ARSUM, MEMORY, "memory", OBJ, MEM, 0, NULL, "", "peak memory against the budget")        \
	F(ARSUM, YARDSTICK, "yardstick", OBJ, YARD, 0, NULL, "",                                   \
	  "how much the machine moved during the run (compare, trend: untestable points)")         \
	F(ARSUM, SLOW_HOPS, "slow_hops", OBJS, SLOWHOP, 0, NULL, "",                               \
	  "--trace: the slow hops found")                                                          \
	F(ARSUM, SLOW_RANKS, "slow_ranks", OBJS, SLOWRANK, 0, NULL, "",                            \
	  "--trace: the slow ranks found")                                                         \
	F(ARSUM, WRONG_TOTAL, "wrong_total", INT, NONE, R, NULL, "",                               \
	  "wrong elements over all points")                                                        \
	F(ARSUM, MIN_BUSBW_GBPS, "min_busbw_gbps", NUM, NONE, RN, NULL, "GB/s",                    \
	  "the --min-busbw gate; null: none")                                                      \
	F(ARSUM, VERDICT, "verdict", STR, NONE, R, NULL, "",                                       \
	  "ok, wrong results or below min busbw")                                                  \
	F(SLOWHOP, ALGORITHM, "algorithm", STR, NONE, R, NULL, "", "the variant")                  \
	F(SLOWHOP, BYTES, "bytes", INT, NONE, R, NULL, "bytes", "the message size")                \
	F(SLOWHOP, RANKS, "ranks", INT, NONE, R, NULL, "", "the ranks of the point")               \
	F(SLOWHOP, FROM_RANK, "from_rank", INT, NONE, R, NULL, "", "the sender")                   \
	F(SLOWHOP, TO_RANK, "to_rank", INT, NONE, R, NULL, "", "the receiver")                     \
	F(SLOWHOP, HOSTS, "hosts", STRS, NONE, RN, NULL, "", "their hosts (null: unknown)")        \
	F(SLOWHOP, LOCALITY, "locality", STR, NONE, R, NULL, "", "same_host, cross_host or any")   \
	F(SLOWHOP, HOP_TIME_US, "hop_time_us", NUM, NONE, RN, NULL, "us", "the hop's time")        \
	F(SLOWHOP, MEDIAN_HOP_US, "median_hop_us", NUM, NONE, RN, NULL, "us", "the median hop")    \
	F(SLOWHOP, RATIO, "ratio", NUM, NONE, RN, NULL, "", "hop time / median hop")               \
	F(SLOWHOP, SCORE, "score", NUM, NONE, RN, NULL, "", "modified z-score")                    \
	F(SLOWHOP, SHARE, "share", NUM, NONE, RN, NULL, "", "its share of the iteration")          \
	F(SLOWHOP, CONSISTENCY_P, "consistency_p", NUM, NONE, RN, NULL, "",                        \
	  "chance of being its class's slowest as often (null: not judged)")                       \
	F(SLOWHOP, RETESTS_CONFIRMED, "retests_confirmed", INT, NONE, R, NULL, "",                 \
	  "re-measurements that found it again (0: named by the first alone)")                     \
	F(SLOWRANK, ALGORITHM, "algorithm", STR, NONE, R, NULL, "", "the variant")                 \
	F(SLOWRANK, BYTES, "bytes", INT, NONE, R, NULL, "bytes", "the message size")               \
	F(SLOWRANK, RANKS, "ranks", INT, NONE, R, NULL, "", "the ranks of the point")              \
	F(SLOWRANK, RANK, "rank", INT, NONE, R, NULL, "", "the slow rank")                         \
	F(SLOWRANK, HOST, "host", STR, NONE, RN, NULL, "", "its host; null: unknown")              \
	F(SLOWRANK, REASON, "reason", STR, NONE, R, NULL, "", "its hops or its reduction")         \
	F(SLOWRANK, HOPS_SLOW, "hops_slow", INT, NONE, R, NULL, "", "its slow hops")               \
	F(SLOWRANK, HOPS_TOTAL, "hops_total", INT, NONE, R, NULL, "", "its hops")                  \
	F(SLOWRANK, REDUCE_GBPS, "reduce_gbps", NUM, NONE, RN, NULL, "GB/s",                       \
	  "its reduction speed, on the core (reduce_timed.h)")                                     \
	F(SLOWRANK, MEDIAN_REDUCE_GBPS, "median_reduce_gbps", NUM, NONE, RN, NULL, "GB/s",         \
	  "the median rank's")                                                                     \
	F(SLOWRANK, RATIO, "ratio", NUM, NONE, RN, NULL, "", "its figure / the median")            \
	F(SLOWRANK, SCORE, "score", NUM, NONE, RN, NULL, "", "modified z-score")                   \
	F(SLOWRANK, SHARE, "share", NUM, NONE, RN, NULL, "", "its share of the iteration")         \
	F(SLOWRANK, CONSISTENCY_P, "consistency_p", NUM, NONE, RN, NULL, "",                       \
	  "reduce: the chance of reducing slowest as often, were it no slower; null for hops")     \
	F(SLOWRANK, RETESTS_CONFIRMED, "retests_confirmed", INT, NONE, R, NULL, "",                 \
	  "re-measurements that found it again (0: named by the first alone)")                     \
	F(ARVAR, ALGORITHM, "algorithm", STR, NONE, R, NULL, "", "the variant")                    \
	F(ARVAR, PEAK_BUSBW_GBPS, "peak_busbw_gbps", NUM, NONE, RN, NULL, "GB/s",                  \
	  "its best busbw")                                                                        \
	F(ARVAR, PEAK_BUSBW_BYTES, "peak_busbw_bytes", INT, NONE, R, NULL, "bytes",                \
	  "at this size")                                                                          \
	F(ARVAR, BUSBW_AT_MAX_BYTES_GBPS, "busbw_at_max_bytes_gbps", NUM, NONE, RN, NULL, "GB/s",  \
	  "busbw at the largest size measured")                                                    \
	F(ARVAR, POINTS, "points", INT, NONE, R, NULL, "", "points measured")                      \
	F(ARVAR, SKIPPED, "skipped", INT, NONE, R, NULL, "", "points skipped")                     \
	F(ARVAR, WRONG, "wrong", INT, NONE, R, NULL, "", "wrong elements")                         \
	F(ARVAR, CROSSOVER_VS_RING_BYTES, "crossover_vs_ring_bytes", INT, NONE, N, NULL, "bytes",  \
	  "a compressed variant measured beside ring: the smallest size from which its p50 stays " \
	  "below ring's at every larger size both measured; null: slower at the largest")          \
	F(ARVAR, SPEEDUP_VS_RING_AT_MAX, "speedup_vs_ring_at_max", NUM, NONE, 0, NULL, "",         \
	  "the same: ring's p50 / its p50 at the largest size both measured")                      \
	F(CLIFF, ALGORITHM, "algorithm", STR, NONE, R, NULL, "", "the variant")                    \
	F(CLIFF, FROM_BYTES, "from_bytes", INT, NONE, R, NULL, "bytes", "the smaller size")        \
	F(CLIFF, TO_BYTES, "to_bytes", INT, NONE, R, NULL, "bytes", "the next size measured")      \
	F(CLIFF, TIME_RATIO, "time_ratio", NUM, NONE, R, NULL, "", "how many times the time grew") \
	F(CLIFF, SIZE_RATIO, "size_ratio", NUM, NONE, R, NULL, "", "how many times the size grew") \
	F(MEM, PEAK_RSS_BYTES, "peak_rss_bytes", NUM, NONE, N, NULL, "bytes",                      \
	  "largest resident size")                                                                 \
	F(MEM, PEAK_RSS_RANK, "peak_rss_rank", INT, NONE, 0, NULL, "", "its rank")                 \
	F(MEM, PEAK_PSS_BYTES, "peak_pss_bytes", NUM, NONE, N, NULL, "bytes",                      \
	  "largest proportional size; null: unknown")                                              \
	F(MEM, PEAK_PSS_RANK, "peak_pss_rank", INT, NONE, 0, NULL, "", "its rank")                 \
	F(MEM, BUDGET_BYTES, "budget_bytes", NUM, NONE, 0, NULL, "bytes",                          \
	  "4 x the largest message + 64 MiB")                                                      \
	F(MEM, JUDGED_ON, "judged_on", STR, NONE, 0, NULL, "",                                     \
	  "the figure judged: peak_pss_bytes or peak_rss_bytes")                                   \
	F(MEM, WITHIN_BUDGET, "within_budget", BOOL, NONE, 0, NULL, "",                            \
	  "the peak fits the budget")                                                              \
	F(YARD, ALGORITHM, "algorithm", STR, NONE, R, NULL, "",                                    \
	  "the control: the library's (mpi)")                                                      \
	F(YARD, BYTES, "bytes", INT, NONE, R, NULL, "bytes", "its fixed message size")             \
	F(YARD, ITERATIONS, "iterations", INT, NONE, R, NULL, "", "timed calls of one burst")      \
	F(YARD, SAMPLES, "samples", INT, NONE, R, NULL, "",                                        \
	  "bursts kept: one before every point and one after the last")                            \
	F(YARD, FAILED, "failed", INT, NONE, 0, NULL, "",                                          \
	  "bursts left with no valid call (every start late), not kept")                           \
	F(YARD, SAMPLES_US, "samples_us", NUMS, NONE, R, NULL, "us",                               \
	  "per burst kept, in time order, the median time of its calls")                           \
	F(YARD, MIN_US, "min_us", NUM, NONE, RN, NULL, "us", "the lowest burst median")            \
	F(YARD, P50_US, "p50_us", NUM, NONE, RN, NULL, "us", "the median burst")                   \
	F(YARD, MAX_US, "max_us", NUM, NONE, RN, NULL, "us", "the highest burst median")           \
	F(YARD, SPREAD_PERCENT, "spread_percent", NUM, NONE, RN, NULL, "%",                        \
	  "100 x (p75 / p25 - 1) of the bursts (reports/compare/README.md); null below 4")

/* links: the record of an ordered pair, its statistics, the summary and the shift pattern. */
#define SCHEMA_FIELDS_LINKS(F)                                                                     \
	F(LINK, A, "a", INT, NONE, R, NULL, "", "the sender")                                      \
	F(LINK, B, "b", INT, NONE, R, NULL, "", "the receiver")                                    \
	F(LINK, HOST_A, "host_a", STR, NONE, R, NULL, "", "a's host")                              \
	F(LINK, HOST_B, "host_b", STR, NONE, R, NULL, "", "b's host")                              \
	F(LINK, LOCALITY, "locality", STR, NONE, R, detect_locality_names, "",                     \
	  "the class of the pair")                                                                 \
	F(LINK, LATENCY_US, "latency_us", OBJ, LAT, R, NULL, "",                                   \
	  "one-way latency: half a round trip")                                                    \
	F(LINK, BANDWIDTH_GBPS, "bandwidth_gbps", OBJ, BW, R, NULL, "", "a -> b, one direction")   \
	F(LINK, BIDIRECTIONAL_GBPS, "bidirectional_gbps", OBJ, BW, R, NULL, "",                    \
	  "both directions at once, as a saw it")                                                  \
	F(LINK, CPU_WAIT_FRACTION, "cpu_wait_fraction", NUM, NONE, RN, NULL, "",                   \
	  "the larger end's share of the pair's time spent waiting for a CPU")                     \
	F(LINK, SAMPLES_US, "samples_us", NUMS, NONE, R, NULL, "us", "kept one-way latencies")     \
	F(LINK, WINDOW_SAMPLES_US, "window_samples_us", NUMS, NONE, R, NULL, "us",                 \
	  "kept times of one window")                                                              \
	F(LINK, SKIPPED, "skipped", STR, NONE, 0, NULL, "",                                        \
	  "why the pair was not measured (compare reads it; links writes only measured pairs)")    \
	F(LINK, REMEASURED, "remeasured", BOOL, NONE, R, NULL, "",                                 \
	  "the figures come from a re-test (a segment's: with its other pairs at once)")           \
	F(LAT, MIN, "min", NUM, NONE, N, NULL, "us", "the fastest")                                \
	F(LAT, MEAN, "mean", NUM, NONE, N, NULL, "us", "the mean")                                 \
	F(LAT, STDDEV, "stddev", NUM, NONE, N, NULL, "us", "sample standard deviation")            \
	F(LAT, P50, "p50", NUM, NONE, N, NULL, "us", "median")                                     \
	F(LAT, P90, "p90", NUM, NONE, N, NULL, "us", "90th percentile")                            \
	F(LAT, P99, "p99", NUM, NONE, N, NULL, "us", "99th percentile")                            \
	F(LAT, MAX, "max", NUM, NONE, N, NULL, "us", "the slowest")                                \
	F(LAT, ITERATIONS, "iterations", INT, NONE, 0, NULL, "", "round trips timed")              \
	F(BW, MIN, "min", NUM, NONE, N, NULL, "GB/s", "from the slowest window")                   \
	F(BW, P10, "p10", NUM, NONE, N, NULL, "GB/s", "from the 90th percentile window time")      \
	F(BW, P50, "p50", NUM, NONE, N, NULL, "GB/s", "from the median window time")               \
	F(BW, MEAN, "mean", NUM, NONE, N, NULL, "GB/s", "from the mean window time")               \
	F(BW, MAX, "max", NUM, NONE, N, NULL, "GB/s", "from the fastest window")                   \
	F(BW, ITERATIONS, "iterations", INT, NONE, 0, NULL, "", "windows timed")                   \
	F(BW, WINDOW_MESSAGES, "window_messages", INT, NONE, 0, NULL, "", "messages per window")   \
	F(BW, STOPPED_BY_TIME, "stopped_by_time", BOOL, NONE, 0, NULL, "",                         \
	  "the time budget ended the windows before their count")                                  \
	F(LSUM, RANKS, "ranks", INT, NONE, R, NULL, "", "ranks of the job")                        \
	F(LSUM, HOSTS_COUNT, "hosts_count", INT, NONE, R, NULL, "", "hosts of the job")            \
	F(LSUM, LINKS, "links", INT, NONE, R, NULL, "", "ordered pairs measured")                  \
	F(LSUM, PAIRS, "pairs", INT, NONE, R, NULL, "", "pairs measured (both directions)")        \
	F(LSUM, REMEASURED_PAIRS, "remeasured_pairs", INT, NONE, R, NULL, "", "pairs re-tested")   \
	F(LSUM, SHIFT_RETESTED, "shift_retested", BOOL, NONE, R, NULL, "",                         \
	  "the shift pattern ran a second time")                                                   \
	F(LSUM, SUSPECTS_COUNT, "suspects_count", INT, NONE, R, NULL, "", "confirmed suspects")    \
	F(LSUM, CLASSES, "classes", OBJS, LCLASS, R, NULL, "", "the classes with links")           \
	F(LSUM, HOSTS, "hosts", OBJS, LHOST, R, NULL, "", "per host")                              \
	F(LSUM, SUSPECTS, "suspects", OBJS, SUSP, R, NULL, "", "the confirmed suspects")           \
	F(LSUM, CLEARED, "cleared", OBJS, SUSP, R, NULL, "",                                       \
	  "what the first pass accused and the re-test did not confirm")                           \
	F(LSUM, SENSITIVITY, "sensitivity", OBJS, SENS, R, NULL, "", "per judged class")           \
	F(LSUM, NOT_JUDGED, "not_judged", STRS, NONE, R, NULL, "",                                 \
	  "hosts whose links are not judged (oversubscribed)")                                     \
	F(LSUM, LATENCY_NOT_JUDGED_PAIRS, "latency_not_judged_pairs", INT, NONE, 0, NULL, "",      \
	  "pairs whose ranks waited for a core half their ping-pongs or more: no latency verdict") \
	F(LSUM, BANDWIDTH_NOT_JUDGED_PAIRS, "bandwidth_not_judged_pairs", INT, NONE, 0, NULL, "",  \
	  "pairs inside a host whose ranks waited for a core half their time or more: no "         \
	  "bandwidth verdict")                                                                     \
	F(LSUM, COVERAGE, "coverage", OBJ, COVER, 0, NULL, "", "what was measured (--pattern)")    \
	F(COVER, PATTERN, "pattern", STR, NONE, R, NULL, "", "screen, pairs, shift or both")       \
	F(COVER, ROUNDS, "rounds", INT, NONE, R, NULL, "", "rounds measured, every kind")          \
	F(COVER, SCREENING_ROUNDS, "screening_rounds", INT, NONE, R, NULL, "",                     \
	  "screen: host matchings of the screening pass")                                          \
	F(COVER, FOLLOWUP_ROUNDS, "followup_rounds", INT, NONE, R, NULL, "",                       \
	  "screen: rounds only where screening flagged something")                                 \
	F(COVER, INTRA_HOST_ROUNDS, "intra_host_rounds", INT, NONE, R, NULL, "",                   \
	  "screen: the tournament within every host")                                              \
	F(COVER, PAIRS_MEASURED, "pairs_measured", INT, NONE, R, NULL, "", "unordered rank pairs") \
	F(COVER, PAIRS_TOTAL, "pairs_total", INT, NONE, R, NULL, "", "N (N - 1) / 2")              \
	F(COVER, HOST_PAIRS_MEASURED, "host_pairs_measured", INT, NONE, R, NULL, "",               \
	  "unordered host pairs with a cross-host measurement")                                    \
	F(COVER, HOST_PAIRS_TOTAL, "host_pairs_total", INT, NONE, R, NULL, "", "H (H - 1) / 2")    \
	F(COVER, MIN_PARTNERS, "min_partners", INT, NONE, R, NULL, "",                             \
	  "the fewest hosts any host was measured with")                                           \
	F(COVER, BUDGET_S, "budget_s", NUM, NONE, RN, NULL, "s", "--budget; null: none")           \
	F(COVER, ELAPSED_S, "elapsed_s", NUM, NONE, RN, NULL, "s", "from the plan to the verdict") \
	F(COVER, STOPPED_BY_BUDGET, "stopped_by_budget", BOOL, NONE, R, NULL, "",                  \
	  "rounds or re-tests were left out to keep to the budget")                                \
	F(COVER, RULES_OUT, "rules_out", OBJS, RULES, R, NULL, "", "link, host and segment")       \
	F(ACCSUM, VERDICT, "verdict", STR, NONE, R, NULL, "", "PASS, FAIL or INCONCLUSIVE")        \
	F(ACCSUM, CHECKS, "checks", INT, NONE, R, NULL, "", "checks judged")                      \
	F(ACCSUM, PASSED, "passed", INT, NONE, R, NULL, "", "of them, passed")                     \
	F(ACCSUM, FAILED, "failed", INT, NONE, R, NULL, "", "failed")                              \
	F(ACCSUM, INTERMITTENT, "intermittent", INT, NONE, R, NULL, "", "failed some repeats")     \
	F(ACCSUM, INCONCLUSIVE, "inconclusive", INT, NONE, 0, NULL, "", "not reproduced again")    \
	F(ACCSUM, REPEATS, "repeats", INT, NONE, R, NULL, "", "repeats judged")                    \
	F(ACCSUM, HOSTS, "hosts", OBJS, NONE, R, NULL, "", "one verdict per host")                 \
	F(ACCSUM, ISOLATIONS, "isolations", OBJS, NONE, R, NULL, "", "the culprit searches")       \
	F(ACCSUM, COVERAGE, "coverage", OBJ, COVER, 0, NULL, "",                                   \
	  "the links check's, of its last repeat: what it measured and rules out")                 \
	F(ACCSUM, LINKS_SUSPECTS, "links_suspects", OBJS, SUSP, 0, NULL, "",                       \
	  "the links check's confirmed suspects, of its last repeat, as links' summary.suspects")  \
	F(RULES, KIND, "kind", STR, NONE, R, detect_kind_names, "", "the verdict class")           \
	F(RULES, SLOWDOWN_PERCENT, "slowdown_percent", NUM, NONE, RN, NULL, "%",                   \
	  "the smallest slowdown of a covered one that would be named (a link or segment: each "   \
	  "cell; a host: its whole row, with the fewest partners); null: not judged")              \
	F(RULES, COVERED, "covered", INT, NONE, R, NULL, "",                                       \
	  "link: host pairs measured; host, segment: hosts with 3 partners or more")               \
	F(RULES, OF, "of", INT, NONE, R, NULL, "", "all host pairs; all hosts")                    \
	F(LCLASS, METRIC, "metric", STR, NONE, R, detect_metric_names, "", "bandwidth or latency") \
	F(LCLASS, LOCALITY, "locality", STR, NONE, R, detect_locality_names, "", "the class")      \
	F(LCLASS, LINKS, "links", INT, NONE, R, NULL, "", "links in it")                           \
	F(LCLASS, MEDIAN, "median", NUM, NONE, RN, NULL, "",                                       \
	  "their median (GB/s or us, per metric)")                                                 \
	F(LCLASS, MAD, "mad", NUM, NONE, RN, NULL, "", "median absolute deviation of log values")  \
	F(LCLASS, JUDGED, "judged", BOOL, NONE, R, NULL, "", "enough links to judge")              \
	F(LCLASS, HOSTS, "hosts", INT, NONE, R, NULL, "", "hosts in it")                           \
	F(LCLASS, HOSTS_JUDGED, "hosts_judged", BOOL, NONE, R, NULL, "",                           \
	  "enough hosts to judge hosts")                                                           \
	F(LHOST, NAME, "name", STR, NONE, R, NULL, "", "the host")                                 \
	F(LHOST, JUDGED, "judged", BOOL, NONE, R, NULL, "", "its links are judged")                \
	F(LHOST, CLASSES, "classes", MAP, HCLASS, R, NULL, "",                                     \
	  "by locality name (same_numa, same_host, cross_host)")                                   \
	F(HCLASS, LINKS, "links", INT, NONE, R, NULL, "", "its links of the class")                \
	F(HCLASS, BANDWIDTH_GBPS, "bandwidth_gbps", OBJ, HBW, R, NULL, "", "their bandwidth")      \
	F(HCLASS, LATENCY_US, "latency_us", OBJ, HLAT, R, NULL, "", "their latency")               \
	F(HBW, MEDIAN, "median", NUM, NONE, RN, NULL, "GB/s", "the median")                        \
	F(HBW, MIN, "min", NUM, NONE, RN, NULL, "GB/s", "the worst")                               \
	F(HLAT, MEDIAN, "median", NUM, NONE, RN, NULL, "us", "the median")                         \
	F(HLAT, MAX, "max", NUM, NONE, RN, NULL, "us", "the worst")                                \
	F(SUSP, KIND, "kind", STR, NONE, R, detect_kind_names, "", "what is named")                \
	F(SUSP, DIRECTION, "direction", STR, NONE, R, NULL, "",                                    \
	  "both, a->b, b->a (send, receive: a host)")                                              \
	F(SUSP, WHO, "who", STR, NONE, R, NULL, "",                                                \
	  "h4; h4 rank 7 (a rail); 2->5; h2->h4; h1,h2<->h3,h4")                                   \
	F(SUSP, HOST, "host", STR, NONE, 0, NULL, "", "kind host: the host")                       \
	F(SUSP, RANKS, "ranks", INTS, NONE, 0, NULL, "", "kind host: its ranks")                   \
	F(SUSP, RAIL_RANK, "rail_rank", INT, NONE, 0, NULL, "",                                    \
	  "kind host, links --rails: the one rank whose NIC is slow (ranks: it alone)")             \
	F(SUSP, HOSTS_A, "hosts_a", STRS, NONE, 0, NULL, "", "kind segment: one side's hosts")     \
	F(SUSP, HOSTS_B, "hosts_b", STRS, NONE, 0, NULL, "", "kind segment: the other side's")     \
	F(SUSP, RANKS_A, "ranks_a", INTS, NONE, 0, NULL, "", "one side's ranks")                   \
	F(SUSP, RANKS_B, "ranks_b", INTS, NONE, 0, NULL, "", "the other side's ranks")             \
	F(SUSP, HOST_A, "host_a", STR, NONE, 0, NULL, "", "kind link: a's host")                   \
	F(SUSP, HOST_B, "host_b", STR, NONE, 0, NULL, "", "kind link: b's host")                   \
	F(SUSP, A, "a", INT, NONE, 0, NULL, "", "kind link within a host: the sender")             \
	F(SUSP, B, "b", INT, NONE, 0, NULL, "", "kind link within a host: the receiver")           \
	F(SUSP, METRIC, "metric", STR, NONE, R, detect_metric_names, "", "bandwidth or latency")   \
	F(SUSP, LOCALITY, "locality", STR, NONE, R, detect_locality_names, "", "the class judged") \
	F(SUSP, PATTERN, "pattern", STR, NONE, R, suspect_pattern_names, "",                       \
	  "isolated pairs or shift")                                                               \
	F(SUSP, UNIT, "unit", STR, NONE, R, NULL, "", "of measured and expected: GB/s or us")      \
	F(SUSP, MEASURED, "measured", NUM, NONE, RN, NULL, "", "the value (unit)")                 \
	F(SUSP, EXPECTED, "expected", NUM, NONE, RN, NULL, "", "the class median (unit)")          \
	F(SUSP, RATIO, "ratio", NUM, NONE, RN, NULL, "", "measured / expected")                    \
	F(SUSP, SCORE, "score", NUM, NONE, RN, NULL, "", "modified z-score")                       \
	F(SUSP, CPU_WAIT_FRACTION, "cpu_wait_fraction", NUM, NONE, N, NULL, "",                    \
	  "a link of two ranks: the share its ranks waited for a core (latency: of its "           \
	  "ping-pongs; bandwidth inside a host: of the pair's time)")                              \
	F(SUSP, OTHER_TRAFFIC_GBPS, "other_traffic_gbps", NUM, NONE, N, NULL, "GB/s",              \
	  "a bandwidth across hosts: what else the NICs of its re-tested pairs carried "           \
	  "meanwhile, the median over them of the busier end (null: not known)")                   \
	F(SUSP, CLEARED_BY, "cleared_by", STR, NONE, 0, suspect_cleared_by_names, "",              \
	  "cleared[]: retest (not confirmed), scheduler (the wait for a core explains it), "       \
	  "traffic (another job's traffic on the NICs explains it), alone (a link or a host of "   \
	  "the shift pattern whose pairs alone run within their class; a host's both ways at "     \
	  "once too) or segment (a link across a "                                                 \
	  "confirmed segment's cut, or a host on a side of it that runs within its side, at the "  \
	  "segment's level: its cells; or a segment another names with as many hosts or more)")  \
	F(SUSP, LINKS_SUSPECT, "links_suspect", INT, NONE, R, NULL, "",                            \
	  "its links that stand out")                                                              \
	F(SUSP, LINKS_TOTAL, "links_total", INT, NONE, R, NULL, "", "its links")                   \
	F(SUSP, RETEST, "retest", OBJ, RETEST, R, NULL, "", "the re-test")                         \
	F(SUSP, LINE, "line", STR, NONE, R, NULL, "", "the classifier's sentence")                 \
	F(SUSP, REASON, "reason", STR, NONE, R, NULL, "", "the detector's sentence")               \
	F(RETEST, FIRST_MEASURED, "first_measured", NUM, NONE, RN, NULL, "",                       \
	  "the first pass's value")                                                                \
	F(RETEST, FIRST_RATIO, "first_ratio", NUM, NONE, RN, NULL, "", "its ratio")                \
	F(RETEST, FIRST_SCORE, "first_score", NUM, NONE, RN, NULL, "", "its score")                \
	F(RETEST, MEASURED, "measured", NUM, NONE, RN, NULL, "", "the re-test's value")            \
	F(RETEST, RATIO, "ratio", NUM, NONE, RN, NULL, "", "its ratio")                            \
	F(RETEST, SCORE, "score", NUM, NONE, RN, NULL, "", "its score")                            \
	F(RETEST, CONFIRMED, "confirmed", BOOL, NONE, R, NULL, "", "the re-test confirmed it")     \
	F(SENS, PATTERN, "pattern", STR, NONE, R, suspect_pattern_names, "", "pairs or shift")     \
	F(SENS, METRIC, "metric", STR, NONE, R, detect_metric_names, "", "bandwidth or latency")   \
	F(SENS, LOCALITY, "locality", STR, NONE, R, detect_locality_names, "", "the class")        \
	F(SENS, LINKS, "links", INT, NONE, R, NULL, "", "links in it")                             \
	F(SENS, MEDIAN, "median", NUM, NONE, RN, NULL, "", "the class median (unit)")              \
	F(SENS, UNIT, "unit", STR, NONE, R, NULL, "", "GB/s or us")                                \
	F(SENS, SLOWDOWN_PERCENT, "slowdown_percent", NUM, NONE, RN, NULL, "%",                    \
	  "the smallest slowdown the class would have named")                                      \
	F(PAIRS, COUNT, "count", INT, NONE, R, NULL, "", "pairs: the length of every array")       \
	F(PAIRS, WINDOW_BYTES, "window_bytes", NUM, NONE, R, NULL, "bytes",                        \
	  "one bandwidth window in one direction")                                                 \
	F(PAIRS, A, "a", INTS, NONE, R, NULL, "", "the sender (its host: context.ranks[])")        \
	F(PAIRS, B, "b", INTS, NONE, R, NULL, "", "the receiver")                                  \
	F(PAIRS, LOCALITY, "locality", INTS, NONE, R, NULL, "",                                    \
	  "the class: 0 same_numa, 1 same_host, 2 cross_host")                                     \
	F(PAIRS, LAT_P50_US, "lat_p50_us", NUMS, NONE, RN, NULL, "us",                             \
	  "one-way latency (half a round trip), median; 4 significant digits")                     \
	F(PAIRS, LAT_P99_US, "lat_p99_us", NUMS, NONE, RN, NULL, "us",                             \
	  "99th percentile; null below 100 round trips")                                           \
	F(PAIRS, LAT_COUNT, "lat_count", INTS, NONE, R, NULL, "", "round trips timed")             \
	F(PAIRS, BW_P50_GBPS, "bw_p50_gbps", NUMS, NONE, RN, NULL, "GB/s",                         \
	  "a -> b bandwidth from the median window time")                                          \
	F(PAIRS, BW_P99_GBPS, "bw_p99_gbps", NUMS, NONE, RN, NULL, "GB/s",                         \
	  "from the 99th percentile window time (the slow tail); null below 100 windows")          \
	F(PAIRS, BW_COUNT, "bw_count", INTS, NONE, R, NULL, "", "windows timed")                   \
	F(PAIRS, BW_WINDOW_MESSAGES, "bw_window_messages", INTS, NONE, R, NULL, "",                \
	  "messages per window (fewer on a slow link under a time budget)")                        \
	F(PAIRS, BW_STOPPED_BY_TIME, "bw_stopped_by_time", INTS, NONE, R, NULL, "",                \
	  "1: the time budget ended the windows before their count")                               \
	F(PAIRS, BIDIR_P50_GBPS, "bidir_p50_gbps", NUMS, NONE, RN, NULL, "GB/s",                   \
	  "both directions at once, as a saw it, median")                                          \
	F(PAIRS, CPU_WAIT_FRACTION, "cpu_wait_fraction", NUMS, NONE, RN, NULL, "",                 \
	  "the larger end's share of the pair's time spent waiting for a CPU")                     \
	F(PAIRS, REMEASURED, "remeasured", INTS, NONE, R, NULL, "",                                \
	  "1: the figures come from a re-test (a segment's: with its other pairs at once)")        \
	F(PSAMP, A, "a", INT, NONE, R, NULL, "", "the sender")                                     \
	F(PSAMP, B, "b", INT, NONE, R, NULL, "", "the receiver")                                   \
	F(PSAMP, WHY, "why", STR, NONE, R, pair_sample_why_names, "",                              \
	  "suspect (its pair was re-tested) or sampled (evenly spaced among the others)")          \
	F(PSAMP, SAMPLES_US, "samples_us", NUMS, NONE, R, NULL, "us", "kept one-way latencies")    \
	F(PSAMP, WINDOW_SAMPLES_US, "window_samples_us", NUMS, NONE, R, NULL, "us",                \
	  "kept times of one window")                                                              \
	F(SHIFT, STEPS, "steps", INT, NONE, R, NULL, "", "shifts k = 1 .. N-1")                    \
	F(SHIFT, WINDOW_BYTES, "window_bytes", NUM, NONE, R, NULL, "bytes", "one window")          \
	F(SHIFT, STOPPED_BY_TIME, "stopped_by_time", BOOL, NONE, R, NULL, "",                      \
	  "a step ran out of time")                                                                \
	F(SHIFT, SEND_GBPS, "send_gbps", NUMSS, NONE, R, NULL, "GB/s", "rank x rank, as sent")     \
	F(SHIFT, RECEIVE_GBPS, "receive_gbps", NUMSS, NONE, R, NULL, "GB/s",                       \
	  "rank x rank, received")                                                                 \
	F(SHIFT, WINDOWS, "windows", NUMSS, NONE, R, NULL, "", "rank x rank, windows timed")       \
	F(SHIFT, WINDOW_MESSAGES, "window_messages", NUMSS, NONE, R, NULL, "",                     \
	  "rank x rank, messages per window")

/* scale: what its records add to an all-reduce record, and its summary. */
#define SCHEMA_FIELDS_SCALE(F)                                                                     \
	F(SCALE, PREDICTED, "predicted", BOOL, NONE, R, NULL, "",                                  \
	  "from the cost model, not measured")                                                     \
	F(SCALE, HOSTS, "hosts", INT, NONE, 0, NULL, "",                                           \
	  "measured: the hosts the communicator spans")                                            \
	F(SCALE, PLACEMENT, "placement", STR, NONE, 0, NULL, "", "measured: packed or spread")     \
	F(SCALE, BANDWIDTH_EFFICIENCY, "bandwidth_efficiency", NUM, NONE, N, NULL, "",             \
	  "busbw(n) / busbw(smallest n)")                                                          \
	F(SCALE, LATENCY_GROWTH, "latency_growth", NUM, NONE, N, NULL, "", "t(n) / t(smallest n)") \
	F(SCALE, EFFICIENCY, "efficiency", NUM, NONE, N, NULL, "",                                 \
	  "step model, weak: Tc / (Tc + Tar)")                                                     \
	F(SCALE, SPEEDUP, "speedup", NUM, NONE, N, NULL, "", "step model, weak: n x efficiency")   \
	F(SCALE, STRONG_SPEEDUP, "strong_speedup", NUM, NONE, N, NULL, "",                         \
	  "step model, strong: Tc / (Tc / n + Tar)")                                               \
	F(SCALE, STRONG_EFFICIENCY, "strong_efficiency", NUM, NONE, N, NULL, "",                   \
	  "strong_speedup / n")                                                                    \
	F(SCALE, OVERLAPPED, "overlapped", OBJ, OVERLAP, 0, NULL, "",                              \
	  "the step model with overlap")                                                           \
	F(SCALE, MODEL, "model", OBJ, MODEL, 0, NULL, "", "the cost model at this point")          \
	F(SCALE, COMPRESSED, "compressed", OBJ, SCOMP, 0, NULL, "",                                \
	  "--compress-ratio: the step model with the gradient compressed")                         \
	F(SCOMP, TAR_US, "tar_us", NUM, NONE, N, NULL, "us",                                       \
	  "Tar x fit(bytes / compress_ratio) / fit(bytes), plus 2 x grad_bytes / cast_gbps")       \
	F(SCOMP, EFFICIENCY, "efficiency", NUM, NONE, N, NULL, "", "weak scaling efficiency")      \
	F(SCOMP, SPEEDUP, "speedup", NUM, NONE, N, NULL, "", "weak scaling speedup")               \
	F(SCOMP, STRONG_SPEEDUP, "strong_speedup", NUM, NONE, N, NULL, "", "strong speedup")       \
	F(SCOMP, STRONG_EFFICIENCY, "strong_efficiency", NUM, NONE, N, NULL, "", "strong / n")     \
	F(OVERLAP, OVERLAP, "overlap", NUM, NONE, RN, NULL, "",                                    \
	  "the fraction hidden behind compute")                                                    \
	F(OVERLAP, MEASURED, "measured", BOOL, NONE, 0, NULL, "",                                  \
	  "--overlap measured: the hidden fraction of a measured step (overlap --step)")           \
	F(OVERLAP, MEASURED_STEP_US, "measured_step_us", NUM, NONE, N, NULL, "us",                 \
	  "--overlap measured: the step measured at this rank count")                              \
	F(OVERLAP, PREDICTED_STEP_US, "predicted_step_us", NUM, NONE, N, NULL, "us",               \
	  "the model's step: compute + the all-reduce's exposed part")                             \
	F(OVERLAP, EFFICIENCY, "efficiency", NUM, NONE, N, NULL, "", "weak scaling efficiency")    \
	F(OVERLAP, SPEEDUP, "speedup", NUM, NONE, N, NULL, "", "weak scaling speedup")             \
	F(OVERLAP, STRONG_SPEEDUP, "strong_speedup", NUM, NONE, N, NULL, "", "strong speedup")     \
	F(OVERLAP, STRONG_EFFICIENCY, "strong_efficiency", NUM, NONE, N, NULL, "", "strong / n")   \
	F(MODEL, SHAPE, "shape", STR, NONE, R, NULL, "", "the schedule walked")                    \
	F(MODEL, SHAPE_BORROWED, "shape_borrowed", BOOL, NONE, R, NULL, "",                        \
	  "the variant has no schedule: another's shape")                                          \
	F(MODEL, MESSAGES, "messages", NUM, NONE, R, NULL, "", "messages on the critical path")    \
	F(MODEL, BYTES, "bytes", NUM, NONE, R, NULL, "bytes", "bytes on the critical path")        \
	F(MODEL, REDUCED_BYTES, "reduced_bytes", NUM, NONE, R, NULL, "bytes", "bytes reduced")     \
	F(MODEL, SAMPLED, "sampled", BOOL, NONE, R, NULL, "",                                      \
	  "the terms come from a sample of ranks")                                                 \
	F(MODEL, TIME_US, "time_us", NUM, NONE, RN, NULL, "us", "the model's time")                \
	F(SSUM, COMMUNICATORS, "communicators", OBJS, COMM, 0, NULL, "", "the sub-communicators")  \
	F(SSUM, COST_MODEL, "cost_model", OBJ, COST, R, NULL, "", "how the model is built")        \
	F(SSUM, STEP_MODEL, "step_model", OBJ, STEP, RN, NULL, "", "null without --compute-ms")    \
	F(SSUM, VARIANTS, "variants", OBJS, SVAR, R, NULL, "", "per variant asked for")            \
	F(SSUM, WRONG_TOTAL, "wrong_total", INT, NONE, R, NULL, "",                                \
	  "wrong elements over all points")                                                        \
	F(SSUM, VERDICT, "verdict", STR, NONE, R, NULL, "", "ok or wrong results")                 \
	F(COST, TIME, "time", STR, NONE, R, NULL, "", "the model's formula")                       \
	F(COST, TERMS, "terms", STR, NONE, R, NULL, "", "how the terms are counted")               \
	F(COST, FIT, "fit", STR, NONE, R, NULL, "", "how alpha, beta, gamma are fitted")           \
	F(COST, DIRECT_VARIANT_SHAPE, "direct_variant_shape", STR, NONE, RN, NULL, "",             \
	  "the shape a direct variant (mpi) is modelled with (rabenseifner; for a half the "       \
	  "ring); null: no schedule can")                                     \
	F(STEP, COMPUTE_MS, "compute_ms", NUM, NONE, R, NULL, "ms", "Tc: one step's compute")      \
	F(STEP, GRAD_BYTES, "grad_bytes", NUM, NONE, R, NULL, "bytes", "the gradient all-reduced") \
	F(STEP, OVERLAP, "overlap", NUM, NONE, RN, NULL, "",                                       \
	  "fraction hidden behind compute; null: measured per rank count")                         \
	F(STEP, BUCKET_BYTES, "bucket_bytes", NUM, NONE, 0, NULL, "bytes",                         \
	  "--overlap measured: the step's buckets")                                                \
	F(STEP, TAR, "tar", STR, NONE, R, NULL, "", "where Tar comes from")                        \
	F(STEP, COMPRESS_RATIO, "compress_ratio", NUM, NONE, 0, NULL, "",                          \
	  "--compress-ratio: the gradient's bytes / the bytes on the wire")                        \
	F(STEP, CAST_GBPS, "cast_gbps", NUM, NONE, 0, NULL, "GB/s",                                \
	  "--cast-gbps: one rank encodes and decodes the gradient at this rate")                   \
	F(SVAR, ALGORITHM, "algorithm", STR, NONE, R, NULL, "", "the variant")                     \
	F(SVAR, POINTS, "points", INT, NONE, R, NULL, "", "points measured")                       \
	F(SVAR, SKIPPED, "skipped", INT, NONE, R, NULL, "", "points skipped")                      \
	F(SVAR, WRONG, "wrong", INT, NONE, R, NULL, "", "wrong elements")                          \
	F(SVAR, FIT, "fit", OBJ, FIT, RN, NULL, "", "null: too few points to fit")                 \
	F(SVAR, SWEET_SPOT, "sweet_spot", OBJ, SWEETS, 0, NULL, "", "step model: the sweet spots") \
	F(SVAR, SWEET_SPOT_OVERLAPPED, "sweet_spot_overlapped", OBJ, SWEETS, 0, NULL, "",          \
	  "the same with overlap")                                                                 \
	F(FIT, SHAPE, "shape", STR, NONE, R, NULL, "", "the schedule fitted")                      \
	F(FIT, SHAPE_BORROWED, "shape_borrowed", BOOL, NONE, R, NULL, "",                          \
	  "another variant's shape")                                                               \
	F(FIT, ALPHA_US, "alpha_us", NUM, NONE, RN, NULL, "us", "cost of one message")             \
	F(FIT, BETA_US_PER_BYTE, "beta_us_per_byte", NUM, NONE, RN, NULL, "us/byte",               \
	  "per byte sent")                                                                         \
	F(FIT, GAMMA_US_PER_BYTE, "gamma_us_per_byte", NUM, NONE, RN, NULL, "us/byte",             \
	  "per byte reduced")                                                                      \
	F(FIT, BANDWIDTH_GBPS, "bandwidth_gbps", NUM, NONE, RN, NULL, "GB/s", "1 / beta")          \
	F(FIT, REDUCE_GBPS, "reduce_gbps", NUM, NONE, RN, NULL, "GB/s", "1 / gamma; null: none")   \
	F(FIT, RMS_ERROR, "rms_error", NUM, NONE, RN, NULL, "",                                    \
	  "relative, over the points fitted")                                                      \
	F(FIT, MAX_ERROR, "max_error", NUM, NONE, RN, NULL, "", "relative, the worst point")       \
	F(FIT, POINTS, "points", INT, NONE, R, NULL, "", "points fitted")                          \
	F(FIT, DEGENERATE, "degenerate", BOOL, NONE, R, NULL, "",                                  \
	  "the points cannot pin every term")                                                      \
	F(SWEETS, MEASURED, "measured", OBJ, SWEET, RN, NULL, "",                                  \
	  "among the measured rank counts")                                                        \
	F(SWEETS, PREDICTED, "predicted", OBJ, SWEET, RN, NULL, "", "from the model")              \
	F(SWEET, RANKS, "ranks", INT, NONE, R, NULL, "", "the best rank count")                    \
	F(SWEET, SPEEDUP, "speedup", NUM, NONE, RN, NULL, "", "its strong-scaling speedup")        \
	F(SWEET, EFFICIENCY, "efficiency", NUM, NONE, RN, NULL, "", "speedup / ranks")             \
	F(SWEET, PREDICTED, "predicted", BOOL, NONE, R, NULL, "", "from the model")                \
	F(SWEET, AT_EDGE, "at_edge", BOOL, NONE, R, NULL, "", "the largest count looked at")       \
	F(SWEET, MAX_RANKS, "max_ranks", INT, NONE, R, NULL, "", "the largest count looked at")    \
	F(COMM, RANKS, "ranks", INT, NONE, R, NULL, "", "its size")                                \
	F(COMM, HOSTS, "hosts", INT, NONE, R, NULL, "", "hosts it spans")                          \
	F(COMM, WORLD_RANKS, "world_ranks", INTS, NONE, R, NULL, "",                               \
	  "its ranks in MPI_COMM_WORLD")                                                           \
	F(TOPOSUM, RANKS, "ranks", INT, NONE, R, NULL, "", "ranks of the job")                     \
	F(TOPOSUM, HOSTS, "hosts", INT, NONE, R, NULL, "", "hosts of the job")                     \
	F(TOPOSUM, OVERSUBSCRIBED, "oversubscribed", BOOL, NONE, R, NULL, "", "some host is")      \
	F(TOPOSUM, OVERSUBSCRIBED_HOSTS, "oversubscribed_hosts", STRS, NONE, R, NULL, "",          \
	  "the hosts with more ranks than cores")                                                  \
	F(EVENT, KIND, "kind", STR, NONE, R, NULL, "", "what happened (hang)")                     \
	F(EVENT, AT_UTC, "at_utc", STR, NONE, R, NULL, "", "when, in UTC (ISO 8601)")              \
	F(EVENT, MESSAGE, "message", STR, NONE, R, NULL, "", "the watchdog's verdict in words")    \
	F(EVENT, EXIT_CODE, "exit_code", INT, NONE, R, NULL, "", "the exit code the job ends with")

#define SCHEMA_FIELDS(F)                                                                           \
	SCHEMA_FIELDS_CONTEXT(F)                                                                   \
	SCHEMA_FIELDS_ALLREDUCE(F)                                                                 \
	SCHEMA_FIELDS_LINKS(F)                                                                     \
	SCHEMA_FIELDS_SCALE(F)                                                                     \
	SCHEMA_FIELDS_CONGESTION(F)                                                                \
	SCHEMA_FIELDS_OVERLAP(F)                                                                   \
	SCHEMA_FIELDS_TUNE(F)                                                                      \
	SCHEMA_FIELDS_WATCH(F)

/*
 * The commands that write reports, and the objects of their records and
 * summary: C(ID, "name", RESULT, EXTRA, SUMMARY). A record has the fields of
 * RESULT and EXTRA (NONE: no more); NONE for RESULT or SUMMARY: not described.
 */
#define SCHEMA_COMMANDS(C)                                                                         \
	C(ALLREDUCE, "allreduce", AR, NONE, ARSUM)                                                 \
	C(VERIFY, "verify", NONE, NONE, NONE)                                                      \
	C(LINKS, "links", LINK, NONE, LSUM)                                                        \
	C(TOPO, "topo", CRANK, NONE, TOPOSUM)                                                      \
	C(SCALE, "scale", AR, SCALE, SSUM)                                                         \
	C(CONGESTION, "congestion", AR, CONG, CSUM)                                                \
	C(OVERLAP, "overlap", OVL, NONE, OVSUM)                                                    \
	C(TUNE, "tune", AR, TUNE, TSUM)                                                            \
	C(WATCH, "watch", WSER, NONE, WSUM)                                                        \
	C(ACCEPT, "accept", NONE, NONE, ACCSUM)                                                    \
	C(COMPARE, "compare", NONE, NONE, NONE)                                                    \
	C(TREND, "trend", NONE, NONE, NONE)

#endif
