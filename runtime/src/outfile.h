/* outfile.h - the files mdebug writes, never allocates (outfile.c). What the
 * rest of the runtime may call; nothing declared here allocates through
 * malloc.
 */
#ifndef MDEBUG_INTERNAL_OUTFILE_H
#define MDEBUG_INTERNAL_OUTFILE_H

#include "base.h"
#include "options.h"

/* Opens path for writing as every file mdebug writes is opened: created
 * 0600 if missing; never through a symbolic link; never a FIFO, device,
 * socket or directory (and never blocking in open); never a file owned by
 * another uid than geteuid() or with more than one link; truncated only
 * after those checks, unless append (O_APPEND). Nothing at all in a
 * setuid/setgid process (md_secure()). Returns a blocking O_CLOEXEC fd, or
 * -1 with errno set and, when the file was refused rather than the system
 * failing, why = "refusing to write PATH: REASON" (else why is empty). */
int md_file_open(const char *path, bool append, char *why, size_t why_size)
    MD_HIDDEN;
struct md_out {
  int fd;
  bool failed;
  size_t used;
  char refusal[MD_PATH_MAX * 2 + 128]; /* md_file_open's why */
  char buf[16384];
};
/* Creates or truncates path (md_file_open); false with errno on failure,
 * and o->refusal non-empty if the file was refused. */
bool md_out_open(struct md_out *o, const char *path) MD_HIDDEN;
void md_out_write(struct md_out *o, const char *data, size_t len) MD_HIDDEN;
void md_out_printf(struct md_out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3))) MD_HIDDEN;
bool md_out_copy_file(struct md_out *o, const char *path) MD_HIDDEN;
bool md_out_close(struct md_out *o) MD_HIDDEN;

#endif
