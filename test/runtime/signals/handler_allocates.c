// Proves: a program whose SIGALRM handler calls malloc, calloc and free
// (the timer firing every 200 microseconds while the main loop allocates
// from 40 sites) neither hangs nor corrupts the heap: the origin-id path
// takes its lock only to insert a new site, with signals blocked, and finds
// a site that collided in the index without it (a handler that came back
// into that lock on the same thread spun forever); a free interrupted by
// the handler's free can no longer make the quarantine ring write past its
// end; with page_guard, its slot locks are held with signals blocked too
// (it hung there in 5 of 5 runs). A watchdog thread ends a run that made
// no progress for 10 seconds (exit 3 and a line): a hang, not a slow
// machine (page_guard's system calls, each blocked signal, cost 20 us an
// allocation on some virtual machines: that run does a tenth of the loop).
// RUN: %mdebug_clang -g -O1 %s -o %t -lpthread
// RUN: %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=backtrace %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=page_guard %t 40000 2>&1 | %FileCheck %s
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static volatile unsigned long handled, progress;

static void on_alarm(int sig) {
  (void)sig;
  void *a = malloc(24);
  void *b = malloc(200);
  void *c = calloc(3, 40);
  free(a);
  free(b);
  free(c);
  handled++;
}

static void *watchdog(void *arg) {
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL);
  unsigned long seen;
  do {
    seen = progress;
    sleep(10);
  } while (progress != seen);
  static const char msg[] = "watchdog: the program hung\n";
  write(2, msg, sizeof(msg) - 1);
  _exit(3);
  return arg;
}

#define SITE(n)                                                                \
  case n:                                                                      \
    p = malloc(16 + n);                                                        \
    break;

int main(int argc, char **argv) {
  unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 400000;
  pthread_t w;
  pthread_create(&w, NULL, watchdog, NULL);
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_alarm;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGALRM, &sa, NULL);
  struct itimerval it = {{0, 200}, {0, 200}};
  setitimer(ITIMER_REAL, &it, NULL);
  for (unsigned long i = 0; i < n; i++) {
    void *p = NULL;
    switch (i % 40) {
      SITE(0) SITE(1) SITE(2) SITE(3) SITE(4) SITE(5) SITE(6) SITE(7)
      SITE(8) SITE(9) SITE(10) SITE(11) SITE(12) SITE(13) SITE(14) SITE(15)
      SITE(16) SITE(17) SITE(18) SITE(19) SITE(20) SITE(21) SITE(22)
      SITE(23) SITE(24) SITE(25) SITE(26) SITE(27) SITE(28) SITE(29)
      SITE(30) SITE(31) SITE(32) SITE(33) SITE(34) SITE(35) SITE(36)
      SITE(37) SITE(38) SITE(39)
    }
    free(p);
    progress = i + 1;
  }
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, NULL);
  fprintf(stderr, "done: %s\n", handled ? "signals handled" : "no signal");
  return 0;
}
// CHECK-NOT: watchdog
// CHECK: done: signals handled
// CHECK-NOT: ERROR
// CLEAN-NOT: mdebug
// CLEAN-NOT: watchdog
