// Proves: the log_path file's descriptor stays out of the program's way (at
// or above half the soft RLIMIT_NOFILE, close-on-exec), and a program that
// closes every descriptor and puts a file of its own on that very number
// (or just closes it) never gets mdebug's text in its file: mdebug sees the
// descriptor is no longer its log file and opens the log file again, where
// every report and the summary land. The clean run prints nothing.
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="log_path=%t.d/log" %not %t %t.d replace > %t.out 2>&1
// RUN: %FileCheck %s --check-prefix=PROGRAM < %t.out
// RUN: %FileCheck %s --check-prefix=MINE --input-file %t.d/mine
// RUN: cat %t.d/log.* | %FileCheck %s --check-prefix=LOG
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="log_path=%t.d/log" %not %t %t.d close > %t.out 2>&1
// RUN: %FileCheck %s --check-prefix=PROGRAM < %t.out
// RUN: cat %t.d/log.* | %FileCheck %s --check-prefix=LOG
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="log_path=%t.d/log" %t %t.d clean 2>&1 | count 0
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* The descriptor whose target is path, or -1. */
static int fd_of(const char *path) {
  DIR *d = opendir("/proc/self/fd");
  int found = -1;
  struct dirent *e;
  while (d && (e = readdir(d))) {
    char link[64], target[512];
    snprintf(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
    ssize_t n = readlink(link, target, sizeof(target) - 1);
    if (n > 0) {
      target[n] = '\0';
      if (!strcmp(target, path))
        found = atoi(e->d_name);
    }
  }
  if (d)
    closedir(d);
  return found;
}

static void double_free(void) {
  char *volatile p = malloc(8);
  free(p);
  free(p);
}

int main(int argc, char **argv) {
  char log[512], mine[512];
  if (!strcmp(argv[2], "clean"))
    return 0;
  struct rlimit rl;
  getrlimit(RLIMIT_NOFILE, &rl);
  rl.rlim_cur = 256;
  setrlimit(RLIMIT_NOFILE, &rl);
  snprintf(log, sizeof(log), "%s/log.%d", argv[1], (int)getpid());
  snprintf(mine, sizeof(mine), "%s/mine", argv[1]);
  double_free(); /* the log file is opened now */
  char real[512];
  if (!realpath(log, real)) {
    perror(log);
    return 98;
  }
  int fd = fd_of(real);
  printf("log fd found: %s, at or above 128: %s, close-on-exec: %s\n",
         fd >= 0 ? "yes" : "no", fd >= 128 ? "yes" : "no",
         fd >= 0 && (fcntl(fd, F_GETFD) & FD_CLOEXEC) ? "yes" : "no");
  fflush(stdout);
  for (int i = 3; i < 256; i++) /* what a daemon does */
    close(i);
  if (!strcmp(argv[2], "replace")) {
    int own = open(mine, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (own != fd && dup2(own, fd) == fd)
      close(own);
    if (write(fd, "mine\n", 5) != 5)
      return 98;
  }
  double_free();
  return 0;
}
// PROGRAM: log fd found: yes, at or above 128: yes, close-on-exec: yes
// PROGRAM-NOT: mdebug
// MINE: {{^}}mine{{$}}
// MINE-NOT: {{.}}
// LOG: mdebug: ERROR: double free in
// LOG: mdebug: ERROR: double free in
// LOG: mdebug: SUMMARY: 2 errors (2 double free)
