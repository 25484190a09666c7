// Proves: a thread running on a tiny stack (a 2 KiB malloc'ed stack entered
// with makecontext/swapcontext, nearly full) survives leak checks: it is
// stopped without a signal frame or handler pushed onto that stack, and
// goes on counting afterwards. The clean run runs the same thread without
// checks.
// RUN: %mdebug_clang -g %s -o %t -lpthread
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/exit_status.py %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>

size_t mdebug_check_leaks(void);

static ucontext_t main_ctx, small_ctx;
static volatile long counter;
static volatile int quit;

static void spin(void) {
  while (!quit)
    counter++;
}

static void *runner(void *arg) {
  char *stack = malloc(2048);
  getcontext(&small_ctx);
  small_ctx.uc_stack.ss_sp = stack;
  small_ctx.uc_stack.ss_size = 2048;
  small_ctx.uc_link = &main_ctx;
  makecontext(&small_ctx, spin, 0);
  swapcontext(&main_ctx, &small_ctx);
  free(stack);
  return arg;
}

int main(int argc, char **argv) {
  pthread_t t;
  pthread_create(&t, NULL, runner, NULL);
  while (counter == 0)
    ;
  size_t reported = 0;
  for (int i = 0; i < 5 && argc == 1; i++)
    reported += mdebug_check_leaks();
  long before = counter;
  while (counter == before)
    ;
  quit = 1;
  pthread_join(t, NULL);
  printf("checks reported %zu; the thread went on\n", reported);
  return 0;
}
// CHECK: checks reported 0; the thread went on
// CHECK-NEXT: exit status: 0
// CLEAN: checks reported 0; the thread went on
// CLEAN-NEXT: exit status: 0
