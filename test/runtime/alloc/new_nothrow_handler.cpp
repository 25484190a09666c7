// Proves: a nothrow operator new (and new[]) that finds no memory calls the
// installed new-handler and tries again, as libstdc++'s does and the
// standard says: a handler that makes memory available (here it raises the
// address-space limit) gets the block; a handler that uninstalls itself
// ends the loop with NULL. Without a handler, nothrow new returns NULL at
// once. Nothing is reported: running out of memory is not a bug.
// RUN: %mdebug_clangxx -g %s -o %t
// RUN: env MDEBUG_OPTIONS=max_allocation_size=1099511627776 %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=max_allocation_size=1099511627776 %t none 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <cstdio>
#include <cstring>
#include <new>
#include <sys/resource.h>

/* More than mdebug's reservations hold (a new mapping, over the limit),
 * less than max_allocation_size (not refused: out of memory). */
static const size_t big = (size_t)512 << 30;
static int calls;
static struct rlimit saved;

static void limit() {
  struct rlimit low = saved;
  low.rlim_cur = (rlim_t)1 << 30;
  if (saved.rlim_cur != RLIM_INFINITY && saved.rlim_cur < low.rlim_cur)
    low.rlim_cur = saved.rlim_cur;
  setrlimit(RLIMIT_AS, &low);
}

static void make_room() { /* frees "a reserve": lifts the limit */
  calls++;
  setrlimit(RLIMIT_AS, &saved);
}

static void give_up() {
  calls++;
  std::set_new_handler(nullptr);
}

int main(int argc, char **argv) {
  getrlimit(RLIMIT_AS, &saved);
  if (argc > 1) {
    limit();
    char *p = new (std::nothrow) char[big];
    printf("no handler: %s, %d calls\n", p ? "block" : "NULL", calls);
    setrlimit(RLIMIT_AS, &saved);
    return 0;
  }
  std::set_new_handler(make_room);
  limit();
  char *p = new (std::nothrow) char[big];
  printf("make_room: %s, %d calls\n", p ? "block" : "NULL", calls);
  if (p)
    memset(p, 1, 4096);
  calls = 0;
  std::set_new_handler(give_up);
  limit();
  void *q = ::operator new(big, std::nothrow);
  printf("give_up: %s, %d calls\n", q ? "block" : "NULL", calls);
  setrlimit(RLIMIT_AS, &saved); /* for the leak check at exit */
  delete[] p;
  return 0;
}
// CHECK-NOT: mdebug
// CHECK: make_room: block, 1 calls
// CHECK-NEXT: give_up: NULL, 1 calls
// CHECK-NEXT: exit status: 0
// CLEAN-NOT: mdebug
// CLEAN: no handler: NULL, 0 calls
