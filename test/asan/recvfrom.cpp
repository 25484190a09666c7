// Adapted from compiler-rt test/asan/TestCases/Linux/recvfrom.cpp (recvfrom of a 10-byte datagram into a 5-byte heap buffer (-DRECVFROM), sendto of 10 bytes from a 5-byte heap buffer (-DSENDTO); stack buffers in the original).
// EXPECT: -DRECVFROM heap buffer overflow at 68
// EXPECT: -DSENDTO heap buffer overflow at 37
// EXPECT: - clean
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#define CHECK_ERROR(p, m)                                                      \
  do {                                                                         \
    if (p) {                                                                   \
      fprintf(stderr, "ERROR " m "\n");                                        \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

const int kBufSize = 10;
int sockfd;

static void *client_thread_udp(void *data) {
#ifdef SENDTO
  char *buf = (char *)calloc(kBufSize / 2, 1);
#else
  char *buf = (char *)calloc(kBufSize, 1);
#endif
  struct sockaddr_in serveraddr;
  socklen_t addrlen = sizeof(serveraddr);

  int succeeded = getsockname(sockfd, (struct sockaddr *)&serveraddr, &addrlen);
  CHECK_ERROR(succeeded < 0, "in getsockname");

  succeeded = sendto(sockfd, buf, kBufSize, 0, (struct sockaddr *)&serveraddr,
                     sizeof(serveraddr));
  CHECK_ERROR(succeeded < 0, "in sending message");
  free(buf);
  return NULL;
}

int main() {
#ifdef RECVFROM
  char *buf = (char *)malloc(kBufSize / 2);
#else
  char *buf = (char *)malloc(kBufSize);
#endif
  pthread_t client_thread;
  struct sockaddr_in serveraddr;

  sockfd = socket(AF_INET, SOCK_DGRAM, 0);
  CHECK_ERROR(sockfd < 0, "opening socket");

  memset(&serveraddr, 0, sizeof(serveraddr));
  serveraddr.sin_family = AF_INET;
  serveraddr.sin_addr.s_addr = htonl(INADDR_ANY);
  serveraddr.sin_port = 0;

  int bound = bind(sockfd, (struct sockaddr *)&serveraddr, sizeof(serveraddr));
  CHECK_ERROR(bound < 0, "on binding");

  int succeeded =
      pthread_create(&client_thread, NULL, client_thread_udp, &serveraddr);
  CHECK_ERROR(succeeded, "creating thread");

  recvfrom(sockfd, buf, kBufSize, 0, NULL, NULL); // BOOM

  succeeded = pthread_join(client_thread, NULL);
  CHECK_ERROR(succeeded, "joining thread");
  free(buf);
  close(sockfd);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g -DRECVFROM %s -o %t.RECVFROM
// RUN: %not %t.RECVFROM 2>&1 | %FileCheck %s --check-prefix=M-DRECVFROM
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g -DSENDTO %s -o %t.SENDTO
// RUN: %not %t.SENDTO 2>&1 | %FileCheck %s --check-prefix=M-DSENDTO
// M-DRECVFROM: mdebug: ERROR: heap buffer overflow in
// M-DRECVFROM-NOT: *** ***
// M-DRECVFROM: recvfrom.cpp:68:
// M-DSENDTO: mdebug: ERROR: heap buffer overflow in
// M-DSENDTO-NOT: *** ***
// M-DSENDTO: recvfrom.cpp:37:
// CLEAN-NOT: mdebug
