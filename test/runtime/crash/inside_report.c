// Proves: a crash inside one of mdebug's own reports (here: a site
// descriptor the program forged, whose file and function names lie in
// unreadable memory, read while the report names the site) still ends with the summary line, written over the
// broken report instead of waiting for the report lock the dying thread
// holds, and the process dies of SIGSEGV.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %python %S/../../Inputs/exit_status.py %t forged 2>&1 | %FileCheck %s
// Clean case: a double free with a true site is reported whole.
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <mdebug/site.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void __mdebug_free(void *ptr, const struct mdebug_site *site);

int main(int argc, char **argv) {
  char *p = malloc(10);
  free(p);
  if (argc > 1 && strcmp(argv[1], "forged") == 0) {
    /* The descriptor itself is readable and writable (the runtime keeps
     * the site's origin id in it); its names are not. */
    char *bad = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    struct mdebug_site *site =
        mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
             -1, 0);
    site->file = bad;
    site->function = bad;
    site->line = 1;
    site->op = 4; /* free: abi.def's fifth entry point */
    __mdebug_free(p, site);
  } else {
    free(p);
  }
  return 0;
}
// CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 10 DOUBLE FREE (free)
// CHECK-NEXT: allocated by malloc at {{.*}}inside_report.c:18:13 (main)
// CHECK-NEXT: freed by free at {{.*}}inside_report.c:19:3 (main)
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, then SIGSEGV (segmentation fault); leaks at exit not checked
// CHECK-NEXT: killed by signal 11
// CLEAN: freed again by free at {{.*}}inside_report.c:33:5 (main)
// CLEAN: mdebug: SUMMARY: 1 error (1 double free), 0 bytes leaked in 0 blocks
// CLEAN-NEXT: exit status: 23
