// Proves: frames are named by llvm-symbolizer run as a helper process
// (function and file:line), in the parent and again in a forked child (which
// starts a helper of its own rather than share its parent's); the helper is
// no child of the program (a program that waits for all its children does
// not wait for it: SIGALRM would end the run) and keeps none of the
// program's files (a pipe's reader sees its end); symbolize=0,
// a symbolizer_path that is no executable (with a one-line message at
// start) and a "symbolizer" that exits at once (/bin/true) all fall back to
// the symbol table's names, "in FUNCTION+0xOFF". strip_path_prefix applies
// to a frame's module path too. The helper's environment
// has no MDEBUG_OPTIONS/LD_PRELOAD: it never runs under mdebug (a stray
// report of its own would show here). The clean run frees: no report.
// RUN: %mdebug_clang -O0 -g %s -o %t
// RUN: env MDEBUG_OPTIONS=backtrace %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,LINES
// RUN: env MDEBUG_OPTIONS="backtrace strip_path_prefix=Output/" %not %t 2>&1 | %FileCheck %s --check-prefix=STRIP
// RUN: env MDEBUG_OPTIONS="backtrace symbolize=0" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,NAMES
// RUN: env MDEBUG_OPTIONS="backtrace symbolizer_path=/nonexistent/llvm-symbolizer" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,NAMES,MISSING
// RUN: env MDEBUG_OPTIONS="backtrace symbolizer_path=/bin/true" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,NAMES
// RUN: env MDEBUG_OPTIONS=backtrace %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) char *make_buffer(size_t n) { return malloc(n); }

int main(int argc, char **argv) {
  char *p = make_buffer(24);
  if (argc > 1) {
    free(p);
    return 0;
  }
  int gate[2]; /* the helper must not keep its write end open */
  if (pipe(gate) != 0)
    return 2;
  char *q = make_buffer(8);
  ((volatile char *)q)[8] = 1; /* reported by the parent: its helper starts */
  free(q);
  close(gate[1]);
  alarm(60);
  char c;
  if (read(gate[0], &c, 1) != 0) /* end of file at once */
    return 3;
  pid_t pid = fork();
  if (pid == 0) {
    ((volatile char *)p)[24] = 1; /* the child's report, its own helper */
    free(p);
    _exit(0);
  }
  while (wait(NULL) > 0) /* every child: the helper must not be one */
    ;
  p[0] = 0;
  return 0; /* the parent leaks it */
}
// MISSING: mdebug: symbolizer_path=/nonexistent/llvm-symbolizer is not an executable file; frames are named from symbol tables, without source lines
// CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 HAS A CORRUPTED REAR GUARD
// CHECK: Backtrace at time of allocation:
// LINES-NEXT: #00 pc 0x{{[0-9a-f]+}} in make_buffer {{.*}}helper.c:25:{{[0-9]+}} ({{.*}}helper.c.tmp){{$}}
// LINES-NEXT: #01 pc 0x{{[0-9a-f]+}} in main {{.*}}helper.c:36:{{[0-9]+}} ({{.*}}helper.c.tmp){{$}}
// NAMES-NEXT: #00 pc 0x{{[0-9a-f]+}} in make_buffer+0x{{[0-9a-f]+}} ({{.*}}helper.c.tmp){{$}}
// NAMES-NEXT: #01 pc 0x{{[0-9a-f]+}} in main+0x{{[0-9a-f]+}} ({{.*}}helper.c.tmp){{$}}
// CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 24 HAS A CORRUPTED REAR GUARD
// CHECK: Backtrace at time of allocation:
// LINES-NEXT: #00 pc 0x{{[0-9a-f]+}} in make_buffer {{.*}}helper.c:25:{{[0-9]+}} ({{.*}}helper.c.tmp){{$}}
// LINES-NEXT: #01 pc 0x{{[0-9a-f]+}} in main {{.*}}helper.c:28:{{[0-9]+}} ({{.*}}helper.c.tmp){{$}}
// NAMES-NEXT: #00 pc 0x{{[0-9a-f]+}} in make_buffer+0x{{[0-9a-f]+}} ({{.*}}helper.c.tmp){{$}}
// NAMES-NEXT: #01 pc 0x{{[0-9a-f]+}} in main+0x{{[0-9a-f]+}} ({{.*}}helper.c.tmp){{$}}
// CHECK: Backtrace at time of failure:
// LINES-NEXT: #00 pc 0x{{[0-9a-f]+}} in main {{.*}}helper.c:47:{{[0-9]+}} ({{.*}}helper.c.tmp){{$}}
// NAMES-NEXT: #00 pc 0x{{[0-9a-f]+}} in main+0x{{[0-9a-f]+}} ({{.*}}helper.c.tmp){{$}}
// CHECK: Direct leak of 24 bytes in 1 block:
// CHECK: Backtrace at time of allocation:
// LINES-NEXT: #00 pc 0x{{[0-9a-f]+}} in make_buffer {{.*}}helper.c:25:{{[0-9]+}} ({{.*}}helper.c.tmp){{$}}
// NAMES-NEXT: #00 pc 0x{{[0-9a-f]+}} in make_buffer+0x{{[0-9a-f]+}} ({{.*}}helper.c.tmp){{$}}
// STRIP: Backtrace at time of allocation:
// STRIP-NEXT: #00 pc 0x{{[0-9a-f]+}} in make_buffer {{.*}}helper.c:25:{{[0-9]+}} (helper.c.tmp){{$}}
// CHECK-NOT: mdebug: ERROR
// CHECK: SUMMARY
// CLEAN-NOT: mdebug
