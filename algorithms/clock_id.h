/*
 * Which clock a process reads, and reading it. Every timing that compares
 * ranks (the window's start, the clock model, the trace) reads
 * CLOCK_MONOTONIC: processes of one kernel read one such clock, whatever
 * network namespaces or containers they sit in, so their offset is exactly 0
 * and needs no measuring. MPI_Wtime is not that clock: Open MPI counts it
 * from each process's own origin.
 */
#ifndef COLLSCOPE_CLOCK_ID_H
#define COLLSCOPE_CLOCK_ID_H

enum { CLOCK_ID_BYTES = 96 };

/*
 * What names this process's CLOCK_MONOTONIC: the kernel's boot id and the
 * time namespace's monotonic offset. Two processes with the same id read
 * the same clock; all zero bytes when unknown (the clock is then measured).
 */
void clock_id(char id[CLOCK_ID_BYTES]);

/* CLOCK_MONOTONIC, in seconds. */
double clock_local_s(void);

#endif
