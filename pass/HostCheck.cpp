//===- HostCheck.cpp - refuse an LLVM the plugin was not built for --------===//
//
// Runs from the plugin's load-time constructor, before the host calls any of
// the plugin's LLVM code. Reads the loaded objects' names (dl_iterate_phdr)
// and the dynamic symbol table only; never calls LLVM, never allocates
// through LLVM. The built-for version and compiler come from
// llvm-config.h and the MDEBUG_BUILT_CLANG definition (pass/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include "HostCheck.h"

#include "llvm/Config/llvm-config.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef MDEBUG_BUILT_CLANG
#define MDEBUG_BUILT_CLANG "clang"
#endif

namespace mdebug {

/// The major version in an LLVM library's file name: "libLLVM-14.so.1"
/// (up to LLVM 17 on Debian) or "libLLVM.so.19.1" (from 18). 0 otherwise.
static unsigned majorFromLibraryName(const char *Path) {
  const char *Base = strrchr(Path, '/');
  Base = Base ? Base + 1 : Path;
  if (strncmp(Base, "libLLVM", 7) != 0)
    return 0;
  const char *P = Base + 7;
  if (*P == '-')
    P += 1;
  else if (strncmp(P, ".so.", 4) == 0)
    P += 4;
  else
    return 0;
  unsigned Major = 0;
  for (; *P >= '0' && *P <= '9'; ++P)
    Major = Major * 10 + unsigned(*P - '0');
  return Major;
}

static int findLLVMLibrary(struct dl_phdr_info *Info, size_t, void *Data) {
  unsigned Major = Info->dlpi_name ? majorFromLibraryName(Info->dlpi_name) : 0;
  if (Major == 0)
    return 0;
  *static_cast<unsigned *>(Data) = Major;
  return 1;
}

unsigned hostLLVMMajor() {
  unsigned Major = 0;
  dl_iterate_phdr(findLLVMLibrary, &Major);
  if (Major)
    return Major;
  // A host with LLVM linked in statically: LLVMGetVersion exists from 16.
  using GetVersionFn = void (*)(unsigned *, unsigned *, unsigned *);
  if (auto GetVersion = reinterpret_cast<GetVersionFn>(
          dlsym(RTLD_DEFAULT, "LLVMGetVersion"))) {
    unsigned Minor = 0, Patch = 0;
    GetVersion(&Major, &Minor, &Patch);
  }
  return Major;
}

void refuseForeignHost(const char *PluginPath) {
  unsigned Host = hostLLVMMajor();
  if (Host == 0 || Host == LLVM_VERSION_MAJOR)
    return;
  char Exe[4096];
  ssize_t N = readlink("/proc/self/exe", Exe, sizeof(Exe) - 1);
  Exe[N > 0 ? N : 0] = '\0';
  fprintf(stderr,
          "mdebug: error: %s was built for LLVM %d but %s uses LLVM %u; "
          "use the LLVM %d tools (%s) or rebuild mdebug against "
          "LLVM %u (cmake -DLLVM_DIR=/usr/lib/llvm-%u/lib/cmake/llvm)\n",
          PluginPath && *PluginPath ? PluginPath : "libmdebugpass.so",
          LLVM_VERSION_MAJOR, N > 0 ? Exe : "this program", Host,
          LLVM_VERSION_MAJOR, MDEBUG_BUILT_CLANG, Host, Host);
  fflush(stderr);
  _exit(1);
}

} // namespace mdebug
