// Adapted from compiler-rt test/asan/TestCases/Posix/readv.cpp (readv whose first iovec starts one byte before a 2011-byte heap buffer (-DPOSITIVE); a stack buffer in the original).
// EXPECT: -DPOSITIVE heap buffer overflow at 26
// EXPECT: - clean
#include <assert.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

int main() {
  char *buf = (char *)malloc(2011);
  struct iovec iov[2];
#ifdef POSITIVE
  char *volatile buf_ = buf;
  iov[0].iov_base = buf_ - 1;
#else
  iov[0].iov_base = buf + 1;
#endif
  iov[0].iov_len = 5;
  iov[1].iov_base = buf + 10;
  iov[1].iov_len = 2000;
  int fd = open("/etc/hosts", O_RDONLY);
  assert(fd > 0);
  readv(fd, iov, 2);
  close(fd);
  free(buf);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g -DPOSITIVE %s -o %t.POSITIVE
// RUN: %not %t.POSITIVE 2>&1 | %FileCheck %s --check-prefix=M-DPOSITIVE
// M-DPOSITIVE: mdebug: ERROR: heap buffer overflow in
// M-DPOSITIVE-NOT: *** ***
// M-DPOSITIVE: readv.cpp:26:
// CLEAN-NOT: mdebug
