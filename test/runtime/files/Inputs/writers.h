/* writers.h - the three ways a test makes mdebug write a file, for the
 * tests of the rules every file mdebug writes follows. The test plants
 * something at the name first (a symbolic link, a FIFO, ...).
 *
 * WHAT   the file mdebug writes           options the RUN line must set
 * log    DIR/log.PID (a double free)      log_path=DIR/log
 * dump   DIR/dump (mdebug_dump_heap)      (none)
 * record DIR/rec.PID (at exit)            record_allocs record_allocs_on_exit
 *                                         record_allocs_file=DIR/rec
 * clean  nothing                          any of the above
 */
#ifndef FILES_WRITERS_H
#define FILES_WRITERS_H

#include <errno.h>
#include <fcntl.h>
#include <mdebug/mdebug.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The name mdebug will write for `what` in dir; "" for clean. */
static void writer_name(const char *what, const char *dir, char *buf,
                        size_t size) {
  if (!strcmp(what, "log"))
    snprintf(buf, size, "%s/log.%d", dir, (int)getpid());
  else if (!strcmp(what, "dump"))
    snprintf(buf, size, "%s/dump", dir);
  else if (!strcmp(what, "record"))
    snprintf(buf, size, "%s/rec.%d", dir, (int)getpid());
  else
    buf[0] = '\0';
}

/* Makes mdebug write (or try to write) the file; main returns this. */
static int writer_run(const char *what, const char *name) {
  if (!strcmp(what, "log")) {
    char *volatile p = malloc(8);
    free(p);
    free(p);
  } else if (!strcmp(what, "dump")) {
    errno = 0;
    int rc = mdebug_dump_heap(name);
    fprintf(stderr, "mdebug_dump_heap returned %d (%s)\n", rc,
            rc ? strerror(errno) : "ok");
  } else {
    free(malloc(10)); /* record: written at exit; clean: nothing */
  }
  return 0;
}

/* Writes text to path (a file the test owns), or exits. */
static void write_text(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
    perror(path);
    exit(98);
  }
  close(fd);
}

#endif
