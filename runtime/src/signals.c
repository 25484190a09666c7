/* signals.c - work the program asks for with a signal, as in malloc debug:
 * SIGRTMAX-16 (check_unreachable_on_signal) runs the leak check.
 *
 * A signal handler may interrupt a thread anywhere, inside the allocator
 * included, so it does nothing but write one byte to a pipe. A service
 * thread, started by the runtime's constructor when such an option is on,
 * reads the pipe and does the work at once, whether or not the program ever
 * allocates again. Its own start-up allocations are glibc's (the thread's
 * TLS table), charged to the loader. In a forked child the thread is
 * started again.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static int pipe_fds[2] = {-1, -1};

static void on_signal(int sig) {
  int saved = errno;
  char what = (char)(sig - SIGRTMIN);
  if (write(pipe_fds[1], &what, 1) < 0) {
    /* the pipe is full: a check is pending already */
  }
  errno = saved;
}

static void *service(void *arg) {
  char what;
  for (;;) {
    ssize_t n = read(pipe_fds[0], &what, 1);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return NULL;
    if (what == (char)(SIGRTMAX - 16 - SIGRTMIN)) {
      md_log("mdebug: SIGRTMAX-16 received: checking for unreachable memory");
      md_leak_check_now();
    }
  }
}

static void start_service(void) {
  pthread_t t;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  if (pthread_create(&t, &attr, service, NULL) != 0)
    md_log("mdebug: cannot start the signal service thread; "
           "check_unreachable_on_signal will do nothing");
  pthread_attr_destroy(&attr);
}

void md_signals_init(void) {
  if (!md_opt.check_unreachable_on_signal)
    return;
  if (pipe2(pipe_fds, O_CLOEXEC | O_NONBLOCK) != 0) {
    md_log("mdebug: cannot create the signal pipe: %s; "
           "check_unreachable_on_signal will do nothing", strerror(errno));
    return;
  }
  /* The reader blocks; only the writer (the handler) must never block. */
  int flags = fcntl(pipe_fds[0], F_GETFL);
  fcntl(pipe_fds[0], F_SETFL, flags & ~O_NONBLOCK);
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGRTMAX - 16, &sa, NULL);
  start_service();
}

void md_signals_atfork_child(void) {
  if (md_opt.check_unreachable_on_signal && pipe_fds[0] >= 0)
    start_service();
}
