// Proves: the files mdebug creates (the log file, a heap dump, the
// allocation records) are private, mode 0600 whatever the umask, and that a
// file this process already owns at the name is still used as before: the
// log file is appended to, a heap dump replaces the old content. Files
// already there keep their mode.
// RUN: %mdebug_clang -g -I%mdebug_include %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="log_path=%t.d/log" %not %t log %t.d 2>&1 | %FileCheck %s --check-prefix=LOG
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: %t dump %t.d 2>&1 | %FileCheck %s --check-prefix=DUMP
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="record_allocs record_allocs_file=%t.d/rec" %t record %t.d 2>&1 | %FileCheck %s --check-prefix=RECORD
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="log_path=%t.d/log" %not %t log %t.d existing 2>&1 | %FileCheck %s --check-prefix=LOG-OLD
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: %t dump %t.d existing 2>&1 | %FileCheck %s --check-prefix=DUMP-OLD
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../Inputs/wait_file.h"
#include "Inputs/writers.h"

static void show(const char *what, const char *path) {
  struct stat st;
  char head[32] = "";
  int fd = open(path, O_RDONLY);
  if (fd < 0 || stat(path, &st) != 0) {
    printf("%s: missing\n", what);
    return;
  }
  ssize_t n = read(fd, head, sizeof(head) - 1);
  head[n > 0 ? n : 0] = '\0';
  head[strcspn(head, "\n")] = '\0';
  close(fd);
  printf("%s: mode %o, first line '%s'\n", what, (unsigned)(st.st_mode & 0777),
         head);
  fflush(stdout);
}

int main(int argc, char **argv) {
  char name[512];
  const char *what = argv[1];
  umask(0);
  if (!strcmp(what, "record")) {
    snprintf(name, sizeof(name), "%s/rec", argv[2]);
    free(malloc(10));
    raise(SIGRTMAX - 18);
    if (!wait_for_text(name, ": free 0x"))
      printf("record: not written\n");
    show("record", name);
    return 0;
  }
  writer_name(what, argv[2], name, sizeof(name));
  if (argc > 3) { /* a file of ours is there already */
    write_text(name, "earlier\n");
    chmod(name, 0640);
  }
  writer_run(what, name);
  show(what, name);
  return 0;
}
// LOG: log: mode 600, first line '*** *** ***
// DUMP: dump: mode 600, first line 'Android Native Heap Dump v1.2'
// RECORD: record: mode 600, first line '{{[0-9]+}}: {{[a-z]+}} 0x
// LOG-OLD: log: mode 640, first line 'earlier'
// DUMP-OLD: dump: mode 640, first line 'Android Native Heap Dump v1.2'
