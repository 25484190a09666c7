// growing.cpp - a program for the HTML report's test and its screenshot
// (docs/mdebug-report.png): a session cache that only grows (one 4 KiB entry
// every round, never evicted), request buffers allocated and freed each
// round (free and delete sites, which hold nothing), and a table that
// grows early then stays; mdebug_snapshot() every round (argv[1] rounds,
// default 30, 20 ms apart), so the profile has periodic totals to chart.
#include <mdebug/mdebug.h>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

namespace cache {
struct Entry {
  char key[64];
  char value[4096 - 64];
};
class SessionStore {
public:
  __attribute__((noinline)) void put(int id) {
    Entry *e = new Entry;
    std::memset(e, id & 0xff, sizeof(*e));
    entries_.push_back(e); // never evicted
  }
private:
  std::vector<Entry *> entries_;
};
} // namespace cache

namespace http {
__attribute__((noinline)) void handle_request(int round) {
  char *body = static_cast<char *>(std::malloc(2000 + round % 7 * 100));
  std::memset(body, 'x', 2000);
  int *headers = new int[256];
  headers[0] = body[0];
  delete[] headers;
  std::free(body);
}
} // namespace http

static char *routes[16];

__attribute__((noinline)) static void load_routes(int round) {
  if (round < 16)
    routes[round] = static_cast<char *>(std::calloc(1, 6000));
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 30;
  static cache::SessionStore store;
  struct timespec pause = {0, 20 * 1000 * 1000};
  for (int round = 0; round < rounds; round++) {
    store.put(round);
    for (int k = 0; k < 8; k++)
      http::handle_request(round + k);
    load_routes(round);
    nanosleep(&pause, nullptr);
    mdebug_snapshot(nullptr);
  }
  return 0;
}
