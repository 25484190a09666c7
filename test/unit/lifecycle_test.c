// Proves: lifecycle.c runs prepare over a table top to bottom and start,
// parent and child bottom to top, skipping empty steps (a table of steps
// that note their turn); the runtime's table is well formed: a row that
// takes locks before fork lets them go in the parent and resets them in the
// child, a row that names locks has a child step, names are unique, and
// every row whose steps start a thread sits above every other row with a
// child step (so in a child, threads start once every lock is usable again);
// a real fork runs the handlers once (md_fork_epoch one higher in the child,
// unchanged in the parent). lifecycle_check.py finds every lock and fork
// handler of runtime/src named in lifecycle.def, and fails, naming each, on
// a lock added without a row, a pthread_atfork outside lifecycle.c and a
// constructor outside init.c.
// RUN: %clang -O1 -I%mdebug_src/runtime/src -I%mdebug_src/runtime/shared -I%mdebug_include -I%S %s %mdebug_rt_a -o %t -lpthread
// RUN: %t | %FileCheck %s
// CHECK: lifecycle_test: {{[0-9]+}} passed, 0 failed
// RUN: %python %mdebug_src/test/Inputs/lifecycle_check.py %mdebug_src/runtime/src | %FileCheck %s --check-prefix=AUDIT
// AUDIT: lifecycle.def accounts for {{[0-9]+}} locks in {{[0-9]+}} rows
// RUN: rm -rf %t.src && cp -r %mdebug_src/runtime/src %t.src
// RUN: echo 'static md_lock_t new_lock = MD_LOCK_INIT;' >> %t.src/quarantine.c
// RUN: echo '__attribute__((constructor)) static void early(void) { pthread_atfork(0, 0, 0); }' >> %t.src/sample.c
// RUN: %not %python %mdebug_src/test/Inputs/lifecycle_check.py %t.src | %FileCheck %s --check-prefix=BROKEN
// BROKEN: FAIL sample.c: calls pthread_atfork; fork handlers are rows of lifecycle.def
// BROKEN-NEXT: FAIL sample.c: has a constructor; start-up steps are rows of lifecycle.def
// BROKEN-NEXT: FAIL quarantine.c:new_lock: a lock lifecycle.def does not name
// BROKEN-NOT: FAIL
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "expect.h"
#include "init.h"
#include "lifecycle.h"

static char turns[16];
static size_t nturns;

#define STEPS(i)                                                               \
  static void start##i(void) { turns[nturns++] = '0' + i; }                    \
  static void prepare##i(void) { turns[nturns++] = '0' + i; }                  \
  static void parent##i(void) { turns[nturns++] = '0' + i; }                   \
  static void child##i(void) { turns[nturns++] = '0' + i; }
STEPS(0)
STEPS(1)
STEPS(2)

static const struct md_lifecycle_row fake[] = {
    {"zero", start0, prepare0, parent0, child0, 0, ""},
    {"one", NULL, prepare1, NULL, child1, 0, ""},
    {"two", start2, prepare2, parent2, child2, 0, ""},
};

static const char *run(enum md_lifecycle_phase phase) {
  nturns = 0;
  md_lifecycle_run(fake, 3, phase);
  turns[nturns] = '\0';
  return turns;
}

static void runner(void) {
  EXPECT(strcmp(run(MD_LC_PREPARE), "012") == 0);
  EXPECT(strcmp(run(MD_LC_PARENT), "20") == 0);
  EXPECT(strcmp(run(MD_LC_CHILD), "210") == 0);
  EXPECT(strcmp(run(MD_LC_START), "20") == 0);
}

static void table(void) {
  size_t last_thread = 0, first_reset = md_lifecycle_count;
  for (size_t i = 0; i < md_lifecycle_count; i++) {
    const struct md_lifecycle_row *r = &md_lifecycle[i];
    bool locks = r->locks[0] != '\0';
    if (r->prepare || r->parent) {
      if (!(r->prepare && r->parent && r->child))
        printf("row %s: prepare, parent and child go together\n", r->name);
      EXPECT(r->prepare && r->parent && r->child);
    }
    if (locks && !r->child)
      printf("row %s: names locks but resets none in the child\n", r->name);
    EXPECT(!locks || r->child);
    for (size_t j = 0; j < i; j++)
      EXPECT(strcmp(md_lifecycle[j].name, r->name) != 0);
    if (r->flags & MD_LC_THREAD)
      last_thread = i;
    else if (r->child && first_reset == md_lifecycle_count)
      first_reset = i;
  }
  if (last_thread > first_reset)
    printf("row %s starts a thread below row %s, whose child runs after it\n",
           md_lifecycle[last_thread].name, md_lifecycle[first_reset].name);
  EXPECT(last_thread < first_reset);
  EXPECT(md_lifecycle_count > 10);
}

static void real_fork(void) {
  md_ensure_init();
  unsigned before = md_fork_epoch;
  int fds[2];
  EXPECT(pipe(fds) == 0);
  pid_t pid = fork();
  if (pid == 0) {
    unsigned seen = md_fork_epoch - before;
    _exit(write(fds[1], &seen, sizeof(seen)) == sizeof(seen) ? 0 : 1);
  }
  unsigned seen = 0;
  EXPECT(read(fds[0], &seen, sizeof(seen)) == sizeof(seen));
  EXPECT(seen == 1);
  int status;
  EXPECT(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0);
  EXPECT(md_fork_epoch == before);
}

int main(void) {
  runner();
  table();
  real_fork();
  printf("lifecycle_test: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
