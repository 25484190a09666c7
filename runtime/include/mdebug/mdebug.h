/* mdebug.h - what a program can ask of the mdebug runtime.
 *
 * Every function is safe to call from any thread at any time. In a program
 * built without mdebug, declare them weak and test for NULL:
 *   #pragma weak mdebug_check_leaks
 *   if (mdebug_check_leaks) mdebug_check_leaks();
 */
#ifndef MDEBUG_MDEBUG_H
#define MDEBUG_MDEBUG_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Stops the other threads briefly, reports the blocks no pointer reaches
 * any more (as the exit-time check does, but only those not reported
 * before) and returns how many it reported. Every thread carries on. */
size_t mdebug_check_leaks(void);

/* The block at ptr (returned by an allocation function) is kept on purpose:
 * it is never reported as a leak, and what it points to stays reachable. */
void mdebug_ignore(const void *ptr);

/* Memory the leak scanner should treat as a root (a region mdebug cannot
 * see, e.g. from mmap, holding the only pointers to some blocks). */
void mdebug_register_root(const void *begin, size_t size);
void mdebug_unregister_root(const void *begin, size_t size);

/* Writes the live heap to path in malloc debug's "Android Native Heap Dump
 * v1.2" format (one record per size and allocation stack; stacks need the
 * backtrace option). Returns 0, or -1 with errno set. */
int mdebug_dump_heap(const char *path);

/* Appends a snapshot to this process's heap profile, PREFIX.PID.mdprof
 * (profile_prefix; created on first use): per-site totals (every
 * allocation site, exact) and the live tracked blocks (sampling options),
 * under `label` (NULL: none). Returns 0, or -1 with errno set (the file
 * could not be written; mdebug says why once). */
int mdebug_snapshot(const char *label);

/* Turns the tracking of sampled blocks on (on != 0) or off, as SIGRTMAX-12
 * does; blocks tracked already stay tracked, per-site totals never stop.
 * Returns the previous state (1 on, 0 off), or -1 when no sampling option
 * is set. */
int mdebug_track(int on);

/* malloc debug's heap interface, same layouts (needs the backtrace option).
 * *info receives *overall_size bytes: entries of *info_size bytes, each
 * { size_t size; size_t allocations; uintptr_t backtrace[*backtrace_size]; }
 * (unused frames 0), largest first. Release it with free_malloc_leak_info. */
void get_malloc_leak_info(uint8_t **info, size_t *overall_size,
                          size_t *info_size, size_t *total_memory,
                          size_t *backtrace_size);
void free_malloc_leak_info(uint8_t *info);
/* Copies up to frame_count frames of the allocation stack of the live
 * block at pointer; returns how many (0 if none is recorded). */
ssize_t malloc_backtrace(void *pointer, uintptr_t *frames, size_t frame_count);

#ifdef __cplusplus
}
#endif

#endif
