/*
 * A connection between a host's leader and rank 0 (cmd/run/watchdog.c):
 * frames (cmd/run/watchdog_wire.h) in and out without ever blocking, so a
 * stopped peer cannot stop the thread that is to name it. What arrives is
 * kept until a whole frame is there; a frame to send waits while the last
 * one has not left (the peer is not reading: the newer frame is dropped).
 * No MPI.
 */
#ifndef COLLSCOPE_CMD_WATCHDOG_CONN_H
#define COLLSCOPE_CMD_WATCHDOG_CONN_H

#include <stddef.h>
#include <stdint.h>

#include "cmd/run/watchdog_wire.h"

struct wd_conn {
	int fd; /* -1: closed */
	unsigned char *in, *out;
	size_t in_cap, in_len, out_cap, out_len, out_off;
	size_t max_in;  /* records a frame in may carry */
	double heard_s; /* when a frame last arrived */
};

/* Takes fd (closed by wd_conn_release, also on failure); frames of up to max_in and max_out
 * records. 0 or -1. */
int wd_conn_init(struct wd_conn *c, int fd, size_t max_in, size_t max_out);
void wd_conn_release(struct wd_conn *c);
/* Reads what has arrived. 0, or -1 when the peer closed or the connection broke. */
int wd_conn_read(struct wd_conn *c);
/* The next whole frame that has arrived: 1, 0 when none has, -1 when it is malformed. */
int wd_conn_frame(struct wd_conn *c, uint64_t token, struct wd_record *rec, size_t *count,
                  uint64_t *sender);
/* Queues a frame and sends what it can. 0, or -1 when the connection broke. */
int wd_conn_send(struct wd_conn *c, uint64_t token, uint64_t sender, const struct wd_record *rec,
                 size_t count);
/* Sends what is waiting. 0, or -1 when the connection broke. */
int wd_conn_flush(struct wd_conn *c);
/* True while part of a frame waits to leave. */
int wd_conn_pending(const struct wd_conn *c);

#endif
