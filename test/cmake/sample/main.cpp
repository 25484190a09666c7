// main.cpp - the sample program: copies a name (the planted overflow, unless
// run with "exact") and counts its letters. C++ on top of C libraries.
#include "counter.h"
#include "names.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char **argv) {
  bool exact = argc > 1 && std::strcmp(argv[1], "exact") == 0;
  char *name = copy_name("sample", exact);
  std::string *label = new std::string(name);
  std::printf("%s has %u 'a'\n", label->c_str(), count_char(name, 'a'));
  delete label;
  std::free(name);
  return 0;
}
