/* log.h - the sink every line goes through, and md_log (log.c). What the rest
 * of the runtime may call; nothing declared here allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_LOG_H
#define MDEBUG_INTERNAL_LOG_H

#include "base.h"

/* Unnumbered notes (verbose, option errors, the heap's warnings): one line,
 * no error counted; dropped when this thread is already writing. Any layer
 * may call it: it calls nothing above print.c and outfile.c. */
void md_log(const char *fmt, ...) __attribute__((format(printf, 1, 2))) MD_HIDDEN;
/* The sink's lock and this thread's "writing" flag, for report.c: enter
 * returns false (and takes nothing) when this thread is already writing;
 * enter_fatal never waits long (a dying thread may hold the lock itself):
 * -1 when already writing, else whether the lock was taken, which leave
 * must be told. */
bool md_sink_enter(void) MD_HIDDEN;
int md_sink_enter_fatal(void) MD_HIDDEN;
void md_sink_leave(bool locked) MD_HIDDEN;
/* The lock alone (counters kept under it), and the dying thread's try. */
void md_sink_lock(void) MD_HIDDEN;
void md_sink_unlock(void) MD_HIDDEN;
bool md_sink_lock_dying(void) MD_HIDDEN;
/* One line (no newline) to log_path's file or stderr; control bytes are
 * escaped. Inside enter/leave. */
void md_sink_write(const char *line, size_t n) MD_HIDDEN;
void md_log_atfork_prepare(void) MD_HIDDEN;
void md_log_atfork_parent(void) MD_HIDDEN;
void md_log_atfork_child(void) MD_HIDDEN;
/* fd moved out of the program's way: the lowest free number at or above half
 * the soft RLIMIT_NOFILE (at most 1024), close-on-exec; fd if that fails. */
int md_fd_move_high(int fd) MD_HIDDEN;

#endif
