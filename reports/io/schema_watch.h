/*
 * collscope watch (issue 34): its JSON lines (one record a line: start,
 * sample, event, round, stop) and its report (-o): a record per series with
 * its recent samples, the events in the summary. Rows as in schema_table.h,
 * which includes this file. Pure data.
 */
#ifndef COLLSCOPE_SCHEMA_WATCH_H
#define COLLSCOPE_SCHEMA_WATCH_H

#define SCHEMA_OBJECTS_WATCH(O)                                                                    \
	O(WLINE, "watch JSON lines",                                                               \
	  "one record a line of --jsonl: start, sample, event, round or stop (its fields by "      \
	  "record)")                                                                               \
	O(WATTR, "attribution", "who a link series' change is blamed on")                          \
	O(WSER, "watch results[]", "one series: its latest figures and recent samples")            \
	O(WSUM, "watch summary", "the rounds, the duty cycle and the changes found")

#define SCHEMA_FIELDS_WATCH(F)                                                                     \
	F(WLINE, RECORD, "record", STR, NONE, R, watch_record_names, "", "what the line is")       \
	F(WLINE, TIME_S, "time_s", NUM, NONE, R, NULL, "s",                                        \
	  "when, on the watch's clock (seconds since the epoch; --clock-factor speeds it)")        \
	F(WLINE, ROUND, "round", INT, NONE, 0, NULL, "",                                           \
	  "sample, event, round: the round, from 1")                                               \
	F(WLINE, PID, "pid", INT, NONE, 0, NULL, "", "start: rank 0's process (for SIGHUP)")       \
	F(WLINE, RANKS, "ranks", INT, NONE, 0, NULL, "", "start: the ranks")                       \
	F(WLINE, HOSTS, "hosts", STRS, NONE, 0, NULL, "", "start: the hosts, in the job's order")  \
	F(WLINE, SERIES, "series", STR, NONE, 0, NULL, "",                                         \
	  "sample, event: latency, bandwidth or link:A->B")                                        \
	F(WLINE, KIND, "kind", STR, NONE, 0, watch_kind_names, "", "sample, event: of the series") \
	F(WLINE, BYTES, "bytes", INT, NONE, 0, NULL, "bytes",                                      \
	  "latency and bandwidth series: the all-reduce's size")                                   \
	F(WLINE, HOST_A, "host_a", STR, NONE, 0, NULL, "", "link series: the sending host")        \
	F(WLINE, HOST_B, "host_b", STR, NONE, 0, NULL, "", "link series: the receiving host")      \
	F(WLINE, LATENCY_US, "latency_us", NUM, NONE, N, NULL, "us",                               \
	  "sample, latency: the all-reduce's median time")                                         \
	F(WLINE, BANDWIDTH_GBPS, "bandwidth_gbps", NUM, NONE, N, NULL, "GB/s",                     \
	  "sample: the all-reduce's bus bandwidth, or the link's (median of its rank pairs)")      \
	F(WLINE, DETECTED_TIME_S, "detected_time_s", NUM, NONE, 0, NULL, "s",                      \
	  "event: when the change was confirmed (time_s: its first sample)")                       \
	F(WLINE, DIRECTION, "direction", STR, NONE, 0, watch_direction_names, "",                  \
	  "event: slower or faster")                                                               \
	F(WLINE, BEFORE, "before", NUM, NONE, 0, NULL, "",                                         \
	  "event: the level before, in the series' unit (us or GB/s)")                             \
	F(WLINE, AFTER, "after", NUM, NONE, 0, NULL, "", "event: the level after, the same unit")  \
	F(WLINE, STEP, "step", NUM, NONE, 0, NULL, "", "event: after / before")                    \
	F(WLINE, P_VALUE, "p_value", NUM, NONE, 0, NULL, "", "event: of the permutation test")     \
	F(WLINE, DELAY_SAMPLES, "delay_samples", INT, NONE, 0, NULL, "",                           \
	  "event: samples of the new level when it was confirmed")                                 \
	F(WLINE, ATTRIBUTION, "attribution", OBJ, WATTR, 0, NULL, "", "event on a link series")    \
	F(WLINE, MEASURE_S, "measure_s", NUM, NONE, 0, NULL, "s",                                  \
	  "round: the time spent measuring, real seconds")                                         \
	F(WLINE, DUTY_PERCENT, "duty_percent", NUM, NONE, 0, NULL, "%",                            \
	  "round: measuring over elapsed real time since the start, this round included, before "  \
	  "its rest")                                                                              \
	F(WLINE, RSS_BYTES, "rss_bytes", NUM, NONE, N, NULL, "bytes",                              \
	  "round: rank 0's resident memory")                                                       \
	F(WLINE, REASON, "reason", STR, NONE, 0, NULL, "",                                         \
	  "stop: duration, SIGTERM, SIGINT or error")                                              \
	F(WLINE, ROUNDS, "rounds", INT, NONE, 0, NULL, "", "stop: rounds run")                     \
	F(WLINE, EVENTS, "events", INT, NONE, 0, NULL, "", "stop: changes found")                  \
	F(WATTR, BY, "by", STR, NONE, R, watch_attributed_by_names, "",                            \
	  "classifier: links' classifier on the steps of the round; series: the series' own link") \
	F(WATTR, KIND, "kind", STR, NONE, R, detect_kind_names, "", "link, host or segment")       \
	F(WATTR, WHO, "who", STR, NONE, R, NULL, "", "h2 -> h3, h4, or h1 h2 <-> h3 h4")           \
	F(WATTR, DIRECTION, "direction", STR, NONE, R, NULL, "",                                   \
	  "a host: send, receive or both; a link or segment: a->b, b->a or both")                  \
	F(WATTR, REASON, "reason", STR, NONE, 0, NULL, "", "the classifier's line")                \
	F(WSER, SERIES, "series", STR, NONE, R, NULL, "", "latency, bandwidth or link:A->B")       \
	F(WSER, KIND, "kind", STR, NONE, R, watch_kind_names, "", "of the series")                 \
	F(WSER, BYTES, "bytes", INT, NONE, 0, NULL, "bytes", "latency, bandwidth: the size")       \
	F(WSER, HOST_A, "host_a", STR, NONE, 0, NULL, "", "link: from")                            \
	F(WSER, HOST_B, "host_b", STR, NONE, 0, NULL, "", "link: to")                              \
	F(WSER, UNIT, "unit", STR, NONE, R, NULL, "", "us (latency) or gbps (bandwidth, link)")    \
	F(WSER, SAMPLES_COUNT, "samples_count", INT, NONE, R, NULL, "", "samples taken")           \
	F(WSER, CHANGES, "changes", INT, NONE, R, NULL, "", "changes found")                       \
	F(WSER, SLOWDOWN, "slowdown", NUM, NONE, R, NULL, "",                                      \
	  "the level now against the level before its first change, >= 1 slower")                  \
	F(WSER, TIME_S, "time_s", NUMS, NONE, R, NULL, "s", "the recent samples' times")           \
	F(WSER, VALUES, "values", NUMS, NONE, RN, NULL, "", "their values, in unit")               \
	F(WSUM, ROUNDS, "rounds", INT, NONE, R, NULL, "", "rounds run")                            \
	F(WSUM, MEASURE_S, "measure_s", NUM, NONE, R, NULL, "s", "measuring, real seconds")        \
	F(WSUM, DUTY_PERCENT, "duty_percent", NUM, NONE, R, NULL, "%",                             \
	  "measuring over elapsed, real time")                                                     \
	F(WSUM, EVENTS_TOTAL, "events_total", INT, NONE, R, NULL, "", "changes found")             \
	F(WSUM, EVENTS, "events", OBJS, WLINE, R, NULL, "",                                        \
	  "the newest changes, as their JSON lines")                                               \
	F(WSUM, STOPPED_BY, "stopped_by", STR, NONE, R, NULL, "", "duration, SIGTERM or SIGINT")

#endif
