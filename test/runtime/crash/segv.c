// Proves: a program that dies of SIGSEGV gets mdebug's report of the fault
// (what the address is: a null pointer, near the stack pointer, not in the
// heap; the faulting instruction and the stack) and the SUMMARY line,
// counting the errors reported so far (no leak check), and still dies of
// SIGSEGV; the same for a stack overflow (the handler runs on an alternate
// stack), a fault in another thread, and SIGBUS (a mapped file cut short).
// A clean run that does not crash prints nothing.
// RUN: %mdebug_clang -O0 -g %s -o %t -lpthread
// RUN: %python %S/../../Inputs/exit_status.py %t null 2>&1 | %FileCheck %s --check-prefixes=CHECK,NULL
// RUN: %python %S/../../Inputs/exit_status.py %t overflow 2>&1 | %FileCheck %s --check-prefixes=CHECK,OVERFLOW
// RUN: %python %S/../../Inputs/exit_status.py %t thread 2>&1 | %FileCheck %s --check-prefixes=CHECK,THREAD
// RUN: %python %S/../../Inputs/exit_status.py %t bus %t.file 2>&1 | %FileCheck %s --check-prefix=BUS
// RUN: %t 2>&1 | count 0
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile int *nowhere;

static int recurse(int depth) {
  volatile char frame[256];
  frame[0] = (char)depth;
  return recurse(depth + 1) + frame[0];
}

static void *fault(void *arg) {
  (void)arg;
  *nowhere = 2;
  return NULL;
}

/* Reads a page of a mapped file after the file was cut to nothing. */
static void bus_error(const char *path) {
  int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
  ftruncate(fd, 4096);
  volatile char *map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
  ftruncate(fd, 0);
  (void)map[0];
}

int main(int argc, char **argv) {
  char *p = malloc(10);
  free(p);
  if (argc < 2)
    return 0;
  free(p); /* reported: a double free */
  fprintf(stderr, "crashing now\n");
  if (strcmp(argv[1], "null") == 0) {
    *nowhere = 1;
  } else if (strcmp(argv[1], "thread") == 0) {
    pthread_t t;
    pthread_create(&t, NULL, fault, NULL);
    pthread_join(t, NULL);
  } else if (strcmp(argv[1], "bus") == 0) {
    bus_error(argv[2]);
  } else {
    recurse(0);
  }
  return 0;
}
// CHECK: DOUBLE FREE (free)
// CHECK: crashing now
// CHECK-NEXT: ***
// CHECK-NEXT: mdebug: ERROR: invalid access in {{.*}}
// NULL-NEXT: +++ INVALID WRITE AT 0x0 (SIGSEGV, address not mapped)
// NULL-NEXT:   0x0 is not in mdebug's heap: a null pointer (plus an offset)
// NULL-NEXT:   write by the instruction at pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}}segv.c.tmp)
// THREAD-NEXT: +++ INVALID WRITE AT 0x0 (SIGSEGV, address not mapped)
// THREAD-NEXT:   0x0 is not in mdebug's heap: a null pointer (plus an offset)
// THREAD-NEXT:   write by the instruction at pc 0x{{[0-9a-f]+}} in fault{{[+ ].*}} ({{.*}}segv.c.tmp)
// OVERFLOW-NEXT: +++ INVALID WRITE AT 0x{{[0-9a-f]+}} (SIGSEGV, address not mapped)
// OVERFLOW-NEXT:   0x{{[0-9a-f]+}} is not in mdebug's heap: it is near the stack pointer (0x{{[0-9a-f]+}}), a stack overflow?
// OVERFLOW-NEXT:   write by the instruction at pc 0x{{[0-9a-f]+}} in recurse{{[+ ].*}} ({{.*}}segv.c.tmp)
// CHECK-NEXT: Backtrace at time of failure:
// NULL-NEXT:   #00 pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}}segv.c.tmp)
// THREAD-NEXT:   #00 pc 0x{{[0-9a-f]+}} in fault{{[+ ].*}} ({{.*}}segv.c.tmp)
// OVERFLOW-NEXT:   #00 pc 0x{{[0-9a-f]+}} in recurse{{[+ ].*}} ({{.*}}segv.c.tmp)
// CHECK: ***
// CHECK-NEXT: mdebug: SUMMARY: 2 errors (1 double free, 1 invalid access), then SIGSEGV (segmentation fault); leaks at exit not checked
// CHECK-NEXT: killed by signal 11
// BUS: crashing now
// BUS-NEXT: ***
// BUS-NEXT: mdebug: ERROR: invalid access in {{.*}}
// BUS-NEXT: +++ INVALID READ AT 0x{{[0-9a-f]+}} (SIGBUS, no memory behind the address (a file cut short?))
// BUS-NEXT:   0x{{[0-9a-f]+}} is not in mdebug's heap
// BUS-NEXT:   read by the instruction at pc 0x{{[0-9a-f]+}} in bus_error{{[+ ].*}} ({{.*}}segv.c.tmp)
// BUS: mdebug: SUMMARY: 2 errors (1 double free, 1 invalid access), then SIGBUS (bus error); leaks at exit not checked
// BUS-NEXT: killed by signal 7
