// Proves: the profile file is created as safely as every file mdebug
// writes: a symbolic link at PREFIX.PID.mdprof is refused (its target is
// left alone) and a file that cannot be created is named with the reason;
// either is said once, mdebug_snapshot() then returns -1 with errno set, and
// the program runs on. The clean case: a writable prefix works.
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d && echo untouched > %t.d/target
// RUN: env MDEBUG_OPTIONS="none profile_prefix=%t.d/link" %t %t.d/link %t.d/target 2>&1 | %FileCheck %s --check-prefix=LINK
// RUN: cat %t.d/target | %FileCheck %s --check-prefix=TARGET
// RUN: env MDEBUG_OPTIONS="none profile_prefix=%t.d/missing/prof" %t 2>&1 | %FileCheck %s --check-prefix=MISSING
// RUN: env MDEBUG_OPTIONS="none profile_prefix=%t.d/good" %t 2>&1 | %FileCheck %s --check-prefix=GOOD
// RUN: grep -c '^A ' %t.d/good.*.mdprof | %FileCheck %s --check-prefix=GOOD-FILE
#include <errno.h>
#include <mdebug/mdebug.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc > 2) {
    char path[512];
    snprintf(path, sizeof(path), "%s.%d.mdprof", argv[1], (int)getpid());
    if (symlink(argv[2], path) != 0)
      perror("symlink");
  }
  free(malloc(10));
  for (int i = 0; i < 2; i++) {
    int r = mdebug_snapshot("try");
    printf("snapshot %d: %s\n", r, r ? strerror(errno) : "ok");
  }
  return 0;
}
// LINK: mdebug: refusing to write {{.*}}link.{{[0-9]+}}.mdprof: it is a symbolic link
// LINK-NOT: mdebug
// LINK: snapshot -1: Too many levels of symbolic links
// LINK-NEXT: snapshot -1: Too many levels of symbolic links
// LINK-NOT: mdebug
// TARGET: untouched
// MISSING: mdebug: cannot write the heap profile {{.*}}missing/prof.{{[0-9]+}}.mdprof: No such file or directory
// MISSING-NOT: mdebug
// MISSING: snapshot -1: No such file or directory
// MISSING-NEXT: snapshot -1: No such file or directory
// MISSING-NOT: mdebug
// GOOD-NOT: mdebug
// GOOD: snapshot 0: ok
// GOOD-NEXT: snapshot 0: ok
// GOOD-FILE: 3
