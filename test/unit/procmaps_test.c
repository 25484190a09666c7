// Proves: md_maps_next reads /proc/self/maps one mapping per line whatever
// the buffer: fields parsed, a path with spaces and an escaped newline
// ("\012") kept whole as one mapping, a line longer than the buffer given
// once with its path cut and the next line intact, a last line without its
// newline read; and on the real file it finds this thread's stack.
// RUN: %clang -O1 -g -I%mdebug_src/runtime/src -I%mdebug_src/runtime/shared -I%mdebug_include %s %mdebug_rt_a -o %t -lpthread
// RUN: %t 2>&1 | %FileCheck %s
// CHECK: procmaps_test: 35 passed, 0 failed
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform_linux.h"

#include "expect.h"

static bool path_is(const struct md_maps_entry *m, const char *s) {
  return m->path_len == strlen(s) && memcmp(m->path, s, m->path_len) == 0;
}

/* A file holding text, rewound, as the iterator's fd. */
static int file_of(const char *text) {
  char name[] = "/tmp/procmaps_testXXXXXX";
  int fd = mkstemp(name);
  if (fd < 0) {
    perror("mkstemp");
    exit(2);
  }
  unlink(name);
  size_t n = strlen(text);
  if (write(fd, text, n) != (ssize_t)n || lseek(fd, 0, SEEK_SET) != 0) {
    perror("write");
    exit(2);
  }
  return fd;
}

#define PAD "                          " /* the kernel's padding */

static void crafted(size_t buffer_size) {
  static char text[16384];
  char longpath[6000];
  memset(longpath, 'x', sizeof(longpath) - 1);
  longpath[0] = '/';
  longpath[sizeof(longpath) - 1] = '\0';
  snprintf(text, sizeof(text),
           "55d0a000-55d0b000 r-xp 00001000 08:01 1234" PAD "/usr/bin/a b\n"
           "7f0000000000-7f0000021000 rw-s 00000000 00:05 99" PAD
           "/tmp/new\\012line (deleted)\n"
           "7f1000000000-7f1000001000 ---p 00000000 00:00 0 \n"
           "7f2000000000-7f2000001000 rw-p 00000000 00:00 0" PAD "%s\n"
           "7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0" PAD "[stack]",
           longpath);
  char *buf = malloc(buffer_size);
  struct md_maps it;
  struct md_maps_entry m;
  md_maps_open_fd(&it, file_of(text), buf, buffer_size);

  EXPECT(md_maps_next(&it, &m));
  EXPECT(m.start == 0x55d0a000 && m.end == 0x55d0b000);
  EXPECT(m.readable && !m.writable && m.exec && !m.shared);
  EXPECT(m.offset == 0x1000 && m.inode == 1234);
  EXPECT(path_is(&m, "/usr/bin/a b") && !m.path_truncated);

  EXPECT(md_maps_next(&it, &m));
  EXPECT(m.start == 0x7f0000000000 && m.shared && m.writable);
  EXPECT(path_is(&m, "/tmp/new\\012line (deleted)"));

  EXPECT(md_maps_next(&it, &m));
  EXPECT(!m.readable && !m.exec && m.path_len == 0);

  EXPECT(md_maps_next(&it, &m));
  EXPECT(m.start == 0x7f2000000000 && m.end == 0x7f2000001000);
  if (buffer_size < sizeof(longpath)) {
    EXPECT(m.path_truncated && m.path_len < buffer_size &&
           m.path_len > 0 && m.path[0] == '/');
  } else {
    EXPECT(!m.path_truncated && m.path_len == strlen(longpath));
  }

  EXPECT(md_maps_next(&it, &m)); /* no newline at the end */
  EXPECT(m.start == 0x7ffc00000000 && path_is(&m, "[stack]"));
  EXPECT(!md_maps_next(&it, &m) && it.error == 0);
  close(it.fd);
  md_maps_close(&it);
  free(buf);
}

int main(void) {
  crafted(MD_MAPS_MIN_BUFFER); /* 16 checks each */
  crafted(65536);

  /* The real file: the mapping holding a local variable, read with the
   * smallest buffer. */
  char buf[MD_MAPS_MIN_BUFFER];
  struct md_maps it;
  struct md_maps_entry m;
  int local = 0;
  uintptr_t sp = (uintptr_t)&local;
  bool found = false;
  size_t count = 0;
  EXPECT(md_maps_open(&it, "/proc/self/maps", buf, sizeof(buf)));
  while (md_maps_next(&it, &m)) {
    count++;
    if (m.start <= sp && sp < m.end)
      found = m.readable && m.writable && path_is(&m, "[stack]");
  }
  EXPECT(found && count > 5 && it.error == 0);
  md_maps_close(&it);

  EXPECT(!md_maps_open(&it, "/proc/self/no-such-file", buf, sizeof(buf)) &&
         it.error < 0 && !md_maps_next(&it, &m));

  printf("procmaps_test: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
