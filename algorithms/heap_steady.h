/*
 * glibc's heap held steady while the library's own algorithms are measured
 * (collscope tune). An MPI library allocates scratch on every call; whether
 * glibc serves it from the heap or maps, unmaps and trims it at every call
 * depends on glibc's adaptive thresholds, which depend on everything the
 * process freed before. Forced one after another, an algorithm measured late
 * inherits a warm heap; the same algorithm chosen by a rules file, in a job
 * whose heap trims after every call, pays for it at every call (Open MPI 4.1,
 * ring at 1 MiB, 4 ranks here: 4.0-4.3 ms against 0.43-0.73 ms). Held
 * steady, every call's scratch up to HEAP_STEADY_MMAP_BYTES comes from the
 * heap and stays there, whatever ran before: the sweep, the proof and a job
 * that exports the same settings see the same allocator. Never prints.
 */
#ifndef COLLSCOPE_HEAP_STEADY_H
#define COLLSCOPE_HEAP_STEADY_H

#include <stdbool.h>

/* glibc's largest mmap threshold on 64 bits; the trim threshold, far above any scratch */
#define HEAP_STEADY_MMAP_BYTES 33554432
#define HEAP_STEADY_TRIM_BYTES 1073741824

/* The environment settings that do the same in a job: "MALLOC_MMAP_THRESHOLD_=... ..." */
extern const char heap_steady_env[];

/*
 * Holds the heap steady, unless the environment sets either threshold (the
 * user's own heap then rules): *env_name receives that variable's name, and
 * nothing changes. Returns true when held.
 */
bool heap_hold_steady(const char **env_name);

#endif
