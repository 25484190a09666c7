// Proves: blocks owned by the std::string, std::vector, std::map,
// std::unordered_map, std::shared_ptr and std::unique_ptr members of a
// global object that lives until the process ends (its destructor does
// nothing) are not leaks: they are reached from the global's bytes, some
// through other blocks (vector of strings, map nodes, shared_ptr control
// block) and some through interior pointers.
// RUN: %mdebug_clangxx -g %s -o %t
// RUN: %t 2>&1 | %FileCheck %s --allow-empty
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

struct Registry {
  std::string name;
  std::vector<int> numbers;
  std::vector<std::string> words;
  std::map<std::string, std::vector<double>> series;
  std::unordered_map<int, std::string> by_id;
  std::shared_ptr<std::string> shared;
  std::unique_ptr<int[]> table;
};

/* A global whose members are never destroyed: the process ends with them
 * still holding their blocks (the exit-time check runs after static
 * destructors, which would otherwise free them first). */
union Keeper {
  Registry registry;
  Keeper() : registry() {}
  ~Keeper() {}
} keeper;

int main() {
  Registry &r = keeper.registry;
  r.name = "a name long enough to live on the heap, not in the SSO buffer";
  for (int i = 0; i < 1000; i++)
    r.numbers.push_back(i);
  for (int i = 0; i < 50; i++)
    r.words.push_back("word " + std::to_string(i) + " with a long heap tail");
  for (int i = 0; i < 20; i++)
    r.series["series number " + std::to_string(i) + " of the registry"] =
        std::vector<double>(10, i);
  for (int i = 0; i < 100; i++)
    r.by_id[i] = "identifier " + std::to_string(i) + " stored in a hash map";
  r.shared = std::make_shared<std::string>(80, 's');
  r.table.reset(new int[256]());
  return 0;
}
// CHECK-NOT: mdebug
