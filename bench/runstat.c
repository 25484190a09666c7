/* runstat.c - runs a command and measures it, for run.sh: wall time from a
 * monotonic clock around fork/wait, peak resident set size from the child's
 * rusage (wait4), and its CPU time (user + system, all threads), which a
 * busy machine disturbs less than wall time. Writes one line
 * "WALL_SECONDS MAXRSS_KB STATUS CPU_SECONDS" to FILE and exits with the
 * command's status (128+N if it died of signal N).
 *
 * Used instead of /usr/bin/time -f '%e %M': millisecond instead of 10 ms
 * resolution, and no dependency on Debian's `time` package.
 *
 * ru_maxrss is the peak of the largest process in the waited-for tree, not
 * their sum: for a tool that runs the program in a child (heaptrack) it is
 * whichever of the two peaked higher.
 *
 *   runstat [-t SECONDS] FILE COMMAND [ARGS...]
 *
 * -t: after SECONDS, kill the command and everything it started (it runs in
 * a process group of its own) and report status 124, as timeout(1) does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t timed_out;
static pid_t child;

static void on_alarm(int sig) {
  (void)sig;
  timed_out = 1;
  kill(-child, SIGKILL);
}

int main(int argc, char **argv) {
  unsigned limit = 0;
  if (argc >= 3 && strcmp(argv[1], "-t") == 0) {
    char *end;
    unsigned long v = strtoul(argv[2], &end, 10);
    if (*argv[2] == '\0' || *end != '\0' || v == 0 || v > 86400) {
      fprintf(stderr, "runstat: -t wants whole seconds in 1..86400, not '%s'\n", argv[2]);
      return 2;
    }
    limit = (unsigned)v;
    argv += 2;
    argc -= 2;
  }
  if (argc < 3) {
    fprintf(stderr, "usage: %s [-t SECONDS] FILE COMMAND [ARGS...]\n", argv[0]);
    return 2;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pid_t pid = fork();
  if (pid < 0) {
    perror("runstat: fork");
    return 2;
  }
  if (pid == 0) {
    if (limit)
      setpgid(0, 0);
    execvp(argv[2], argv + 2);
    fprintf(stderr, "runstat: cannot run %s: %s\n", argv[2], strerror(errno));
    _exit(127);
  }
  if (limit) {
    /* Both sides set the group, so the kill cannot race the child's setpgid. */
    setpgid(pid, pid);
    child = pid;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    alarm(limit);
  }
  int status;
  struct rusage ru;
  while (wait4(pid, &status, 0, &ru) < 0) {
    if (errno != EINTR) {
      perror("runstat: wait4");
      return 2;
    }
  }
  alarm(0);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double wall = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
  int code = timed_out ? 124 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  FILE *f = fopen(argv[1], "w");
  if (!f) {
    perror("runstat: cannot write the result");
    return 2;
  }
  double cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
               (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
  fprintf(f, "%.4f %ld %d %.4f\n", wall, ru.ru_maxrss, code, cpu);
  fclose(f);
  return code;
}
