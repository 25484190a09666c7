// Proves: a correct C program that makes libc allocate for itself (stdio
// buffers, setlocale, strerror of an unknown errno, strsignal, a failed
// dlopen and its dlerror message, qsort's merge buffer, localtime and the
// time zone, getpwuid, opendir) gets no leak report and exit status 0:
// what libc keeps, reachable or not, is not the program's leak.
// RUN: %mdebug_clang -g %s -o %t -ldl
// RUN: %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <locale.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int compare(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

int main(void) {
  printf("start %d %s %.2f\n", 42, "text", 3.5); /* stdout is a file: buffered */
  fprintf(stderr, "stderr is unbuffered\n");
  FILE *f = fopen("/dev/null", "w");
  fprintf(f, "%0*d\n", 5000, 7);
  fclose(f);

  const char *locale = setlocale(LC_ALL, "C.UTF-8");
  printf("locale %s\n", locale ? "set" : "missing");
  setlocale(LC_ALL, "C");

  printf("strerror: %s; %s\n", strerror(12345), strsignal(SIGRTMIN + 3));

  void *lib = dlopen("libmissing-for-leak-check.so.7", RTLD_NOW);
  const char *why = dlerror();
  printf("dlopen: %s, dlerror %s\n", lib ? "?" : "failed",
         why && strstr(why, "libmissing-for-leak-check") ? "names it" : "?");

  enum { N = 100000 };
  int *values = malloc(N * sizeof *values);
  for (int i = 0; i < N; i++)
    values[i] = (int)((i * 7919L) % N);
  qsort(values, N, sizeof *values, compare);
  printf("sorted: %d %d\n", values[0], values[N - 1]);
  free(values);

  setenv("TZ", "Europe/Paris", 1);
  tzset();
  time_t t = 86400 * 365;
  struct tm *tm = localtime(&t);
  char when[64];
  strftime(when, sizeof when, "%Y", tm);
  printf("year %s\n", when);

  struct passwd *pw = getpwuid(0);
  printf("uid 0: %s\n", pw ? "found" : "not found");

  DIR *dir = opendir("/");
  int entries = 0;
  while (dir && readdir(dir))
    entries++;
  if (dir)
    closedir(dir);
  printf("root has entries: %s\n", entries > 2 ? "yes" : "no");
  printf("done\n");
  return 0;
}
// CHECK-NOT: mdebug
// CHECK: locale {{set|missing}}
// CHECK: strerror: Unknown error 12345; Real-time signal 3
// CHECK: dlopen: failed, dlerror names it
// CHECK: sorted: 0 99999
// CHECK: year 1971
// CHECK: uid 0: {{found|not found}}
// CHECK: root has entries: yes
// CHECK: done
// CHECK-NOT: mdebug
