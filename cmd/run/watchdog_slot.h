/*
 * A rank's heartbeat in memory its host shares (cmd/run/watchdog.c): the rank
 * writes its beat (cmd/run/watchdog_wire.h) into its slot once a second, its
 * host's leader reads every slot. A sequence lock: the writer makes seq odd,
 * writes, makes it even again; a reader that sees it odd or changed retries
 * later, so it never takes half a beat, and a rank stopped in the middle of
 * a write (SIGSTOP) is simply not heard from again. The leader hears a rank
 * when seq changes. Pure: atomics only.
 */
#ifndef COLLSCOPE_CMD_WATCHDOG_SLOT_H
#define COLLSCOPE_CMD_WATCHDOG_SLOT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "cmd/run/watchdog_wire.h"

struct wd_slot {
	_Atomic uint64_t seq;
	_Atomic uint64_t done; /* the rank stopped its watchdog: it is no longer watched */
	_Atomic uint64_t w[WD_BEAT_MAX_WORDS];
};

/* The writer only (the slot's rank). */
void wd_slot_write(struct wd_slot *s, const struct wd_beat *b);
void wd_slot_done(struct wd_slot *s);
/* A whole beat and the seq it was written under, or false (being written: keep the last one). */
bool wd_slot_read(struct wd_slot *s, struct wd_beat *b, uint64_t *seq);
bool wd_slot_is_done(struct wd_slot *s);

#endif
