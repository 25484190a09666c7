// Proves: a correct C++ program using iostream, std::string, std::vector,
// std::map, exceptions and std::thread gets no report and exit status 0:
// libstdc++'s own blocks are not blamed on the program. The bug run adds one
// real leak, which must be the only one reported.
// RUN: %mdebug_clangxx -g %s -o %t -pthread
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

static std::map<std::string, int> registry;

static int parse(const std::string &s) {
  if (s.empty())
    throw std::invalid_argument("empty string cannot be parsed as a number");
  return std::stoi(s);
}

int main(int argc, char **argv) {
  std::vector<std::string> words;
  for (int i = 0; i < 100; i++)
    words.push_back("word number " + std::to_string(i) + " with a long tail");
  for (const auto &w : words)
    registry[w] = static_cast<int>(w.size());

  int caught = 0;
  try {
    parse("");
  } catch (const std::exception &e) {
    caught = static_cast<int>(std::string(e.what()).size()) > 0;
  }

  std::vector<int> sums(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; t++)
    threads.emplace_back([t, &sums] {
      std::vector<std::string> local;
      for (int i = 0; i < 1000; i++)
        local.emplace_back(std::string(40, static_cast<char>('a' + t)));
      sums[t] = static_cast<int>(local.size());
    });
  for (auto &th : threads)
    th.join();

  std::cout << "words " << words.size() << ", registry " << registry.size()
            << ", caught " << caught << ", parsed " << parse("17")
            << ", sums " << sums[0] + sums[1] + sums[2] + sums[3] << std::endl;

  if (argc == 1)
    new int[16];
  return 0;
}
// CHECK-NOT: mdebug: ERROR
// CHECK: mdebug: ERROR: memory leak in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 64 bytes leaked in 1 block
// CHECK-NEXT: 64 bytes in 1 block:
// CHECK-NEXT:   allocated by operator new[] at {{.*}}correct_cpp.cpp:54:5 (main)
// CHECK-NEXT: +++ {{.*}} leaked block of size 64 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 64 bytes leaked in 1 block
// CLEAN-NOT: mdebug
// CLEAN: words 100, registry 100, caught 1, parsed 17, sums 4000
// CLEAN-NOT: mdebug
