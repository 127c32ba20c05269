/*
 * The watchdog's messages (cmd/run/watchdog.c sends and reads them), as pure
 * functions: no MPI, no sockets, no clocks, so every malformed input is
 * unit-tested (tests/unit/test_watchdog_wire.c) and fuzzed.
 *
 * A beat is what one rank says of itself: its progress (algorithms/progress.h)
 * and, with --trace, its last trace entries (the flight record). A beat is
 * WD_HB_WORDS words, then nentries entries of TRACE_WORDS words.
 *
 * A frame carries beats between hosts: a host's leader sends rank 0 one a
 * second with a record per rank of its host, and rank 0 answers with one
 * record, its own. Every word is a big-endian 64-bit word:
 *   [0] the frame's length in bytes, this word included
 *   [1] the job's token (a frame with another token is refused)
 *   [2] the sender's rank      [3] the number of records
 *   then each record: [silent_ms] [flags] and the beat's words
 * silent_ms: how long the leader has not heard the rank (its heartbeat in
 * shared memory has not changed); flags: WD_REC_DONE when the rank has
 * stopped its watchdog (a finished rank is no hang).
 */
#ifndef COLLSCOPE_CMD_WATCHDOG_WIRE_H
#define COLLSCOPE_CMD_WATCHDOG_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "algorithms/trace.h"

enum {
	WD_HB_WORDS = 11,      /* a beat's fixed words */
	WD_FLIGHT_ENTRIES = 8, /* the last trace entries a beat carries (with --trace) */
	WD_BEAT_MAX_WORDS = WD_HB_WORDS + WD_FLIGHT_ENTRIES * TRACE_WORDS,
	WD_FRAME_HEAD_WORDS = 4,
	WD_REC_HEAD_WORDS = 2,
	WD_REC_DONE = 1,
};

struct wd_beat {
	uint64_t token, rank, ticks, bytes;
	int64_t variant, iteration, phase, seq;
	uint64_t where;    /* ar_progress.where: the step and the peer it waits for */
	uint64_t clock_ns; /* the sender's trace clock when it sent this */
	uint64_t nentries;
	uint64_t entries[WD_FLIGHT_ENTRIES * TRACE_WORDS];
};

/* One rank's record in a frame. */
struct wd_record {
	uint64_t silent_ms;
	uint64_t flags; /* WD_REC_DONE */
	struct wd_beat beat;
};

/* The largest frame of max records, in bytes. */
size_t wd_frame_max_bytes(size_t max);

/* b as words (host order) into w (WD_BEAT_MAX_WORDS); returns the words written. */
size_t wd_beat_to_words(const struct wd_beat *b, uint64_t *w);
/*
 * The beat in w[0..n): the words it took, or 0 when w is too short or the
 * beat carries more than WD_FLIGHT_ENTRIES entries.
 */
size_t wd_beat_from_words(const uint64_t *w, size_t n, struct wd_beat *b);

/*
 * A frame of count records from sender under token into out (cap bytes).
 * Returns its length in bytes, or 0 when it does not fit.
 */
size_t wd_frame_encode(uint64_t token, uint64_t sender, const struct wd_record *rec, size_t count,
                       unsigned char *out, size_t cap);

/*
 * The first frame in buf[0..len), which holds what has arrived so far.
 * Returns 1 with the frame's records in rec (at most max), its sender and
 * its length in *frame_bytes (the bytes to drop before the next frame);
 * 0 when the frame has not arrived whole yet; -1 when buf cannot start a
 * valid frame: a length out of range or not a whole number of words, another
 * token, more than max records, a beat with too many entries, or records
 * that do not fill the frame exactly. Reads nothing past buf[len).
 */
int wd_frame_parse(const unsigned char *buf, size_t len, uint64_t token, struct wd_record *rec,
                   size_t max, size_t *count, uint64_t *sender, size_t *frame_bytes);

#endif
