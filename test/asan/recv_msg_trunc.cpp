// Adapted from compiler-rt test/sanitizer_common/TestCases/Linux/recv_msg_trunc.cpp (recv with MSG_TRUNC into a 1-byte heap buffer returns the datagram's length, 5, but writes 1 byte: no error).
// EXPECT: - clean
#include <assert.h>
#include <netinet/ip.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

int main() {
  int fd_0 = socket(AF_INET, SOCK_DGRAM, 0);
  int fd_1 = socket(AF_INET, SOCK_DGRAM, 0);
  struct sockaddr_in sin;
  socklen_t len = sizeof(sin);
  char *buf = (char *)malloc(1);

  sin.sin_family = AF_INET;
  // Choose a random port to bind.
  sin.sin_port = 0;
  sin.sin_addr.s_addr = INADDR_ANY;

  assert(bind(fd_1, (struct sockaddr *)&sin, sizeof(sin)) == 0);
  // Get the address and port binded.
  assert(getsockname(fd_1, (struct sockaddr *)&sin, &len) == 0);
  assert(sendto(fd_0, "hello", strlen("hello"), MSG_DONTWAIT,
                (struct sockaddr *)&sin, sizeof(sin)) != -1);
  assert(recv(fd_1, buf, 1, MSG_TRUNC) != -1);
  free(buf);
  close(fd_0);
  close(fd_1);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: mdebug
