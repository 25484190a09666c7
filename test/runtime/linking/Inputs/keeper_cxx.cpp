// keeper_cxx.cpp - an instrumented C++ shared library for test/runtime/
// linking: operator new and delete in instrumented code, and a std::string
// whose buffer libstdc++ allocates with the standard operator new.
#include <cstddef>
#include <string>

extern "C" void *keeper_new_ints(std::size_t n) { return new int[n]; }
extern "C" void keeper_delete_ints(void *p) { delete[] static_cast<int *>(p); }
extern "C" void *keeper_string(std::size_t n) { return new std::string(n, 'k'); }
extern "C" void keeper_delete_string(void *p) {
  delete static_cast<std::string *>(p);
}
