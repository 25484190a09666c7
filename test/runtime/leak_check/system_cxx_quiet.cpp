// Proves: a correct C++ program that makes libstdc++ allocate for itself
// (iostream statics and buffers, std::locale objects and facets, the
// emergency pool for exceptions it sets aside at start-up, exceptions
// thrown, rethrown and caught, std::thread and its state) gets no leak
// report and exit status 0.
// RUN: %mdebug_clangxx -g %s -o %t -pthread
// RUN: %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
#include <atomic>
#include <fstream>
#include <iostream>
#include <locale>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

struct Failure : std::runtime_error {
  explicit Failure(const std::string &what) : std::runtime_error(what) {}
};

static int throw_and_catch(int depth) {
  try {
    if (depth == 0)
      throw Failure("failure at the bottom with a message long enough to allocate");
    return throw_and_catch(depth - 1);
  } catch (const Failure &f) {
    if (depth < 3)
      throw; /* rethrown through several frames */
    return static_cast<int>(std::string(f.what()).size());
  }
}

int main() {
  std::ios_base::sync_with_stdio(false);
  std::cout << "start " << 42 << ' ' << 3.5 << std::endl;
  std::cerr << "cerr " << std::string(100, 'e').size() << std::endl;

  std::locale classic = std::locale::classic();
  std::locale custom(classic, new std::numpunct<char>());
  std::ostringstream number;
  number.imbue(custom);
  number << 1234567;
  std::cout << "imbued " << number.str() << std::endl;
  try {
    std::locale named("C.UTF-8");
    std::cout << "named locale " << (named.name().empty() ? "?" : "ok") << std::endl;
  } catch (const std::runtime_error &) {
    std::cout << "named locale ok" << std::endl; /* not installed here */
  }

  int caught = 0;
  for (int i = 0; i < 100; i++)
    caught += throw_and_catch(5) > 0;
  try {
    std::vector<int> v;
    v.at(3) = 1;
  } catch (const std::out_of_range &) {
    caught++;
  }
  std::cout << "caught " << caught << std::endl;

  std::atomic<int> total(0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; t++)
    threads.emplace_back([t, &total] {
      std::ostringstream out;
      for (int i = 0; i < 100; i++)
        out << "thread " << t << " line " << i << '\n';
      try {
        throw std::runtime_error(out.str());
      } catch (const std::runtime_error &e) {
        total += std::string(e.what()).size() > 0;
      }
    });
  for (auto &th : threads)
    th.join();
  std::cout << "threads " << total.load() << std::endl;

  std::ofstream null("/dev/null");
  null << std::string(10000, 'x') << std::endl;
  std::cout << "done" << std::endl;
  return 0;
}
// CHECK-NOT: mdebug
// CHECK: imbued 1234567
// CHECK: named locale ok
// CHECK: caught 101
// CHECK: threads 4
// CHECK: done
// CHECK-NOT: mdebug
