/* The exit codes of every command. Pure: no MPI. */
#ifndef COLLSCOPE_EXIT_CODES_H
#define COLLSCOPE_EXIT_CODES_H

/*
 * Defined once, here: the enum below and every list of the codes that
 * collscope prints (`collscope --help`, `collscope help --markdown`, the man
 * pages: cmd/help_render.c) come from this list, so they cannot drift apart.
 * X(NAME, VALUE, PHRASE, MEANING): PHRASE is the short form of the overview's
 * one-line list, MEANING the sentence of the reference.
 */
#define CMD_EXIT_CODES(X)                                                                          \
	X(EXIT_OK, 0, "ok", "success: every check that ran passed")                                \
	X(EXIT_CHECK_FAILED, 1, "a check failed",                                                  \
	  "a check failed: a regression (compare, trend), a threshold (--min-busbw, accept), "     \
	  "a suspect confirmed with --fail-on-suspect")                                            \
	X(EXIT_USAGE, 2, "bad usage or input",                                                     \
	  "bad usage or bad input: an unknown command or option, a bad value (the message "        \
	  "names it), a report or spec that cannot be used")                                       \
	X(EXIT_WRONG, 3, "wrong results",                                                          \
	  "wrong results: an element of an all-reduce differs from its exact expected value "      \
	  "(data corruption)")                                                                     \
	X(EXIT_HANG, 4, "hang or dead rank",                                                       \
	  "a hang or a dead rank: the watchdog (--timeout) saw no progress and names the rank")    \
	X(EXIT_RUNTIME, 5, "runtime, MPI or I/O error",                                            \
	  "a runtime, MPI or I/O error, or out of memory")

enum cmd_exit {
#define CMD_EXIT_ENUM(name, value, phrase, meaning) name = value,
	CMD_EXIT_CODES(CMD_EXIT_ENUM)
#undef CMD_EXIT_ENUM
};

#endif
