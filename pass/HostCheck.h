//===- HostCheck.h - is this the LLVM the plugin was built for? -*- C++ -*-===//
//
// Owns the one question asked before anything else in the plugin runs: does
// the process that loaded libmdebugpass.so carry the LLVM major version the
// plugin was compiled against? LLVM has no stable C++ ABI, so a plugin built
// for LLVM 14 and loaded into clang-19 (or the reverse) crashes or corrupts
// memory as soon as it touches a pass manager. Must never call into LLVM
// (the ABI is what is in doubt): libc only.
//
//===----------------------------------------------------------------------===//

#ifndef MDEBUG_PASS_HOSTCHECK_H
#define MDEBUG_PASS_HOSTCHECK_H

namespace mdebug {

/// The LLVM major version of the host process, from the name of the LLVM
/// shared library it has loaded (libLLVM-14.so.1, libLLVM.so.19.1) or, for
/// a statically linked host, its exported LLVMGetVersion (LLVM 16 and
/// later). 0 when neither tells.
unsigned hostLLVMMajor();

/// If the host's LLVM major version is known and differs from the one this
/// plugin was built for, prints one error naming both versions, the host
/// program and what to do, and ends the process with status 1: going on
/// would crash, or worse, quietly compile without instrumentation.
/// \p PluginPath names the plugin in the message.
void refuseForeignHost(const char *PluginPath);

} // namespace mdebug

#endif // MDEBUG_PASS_HOSTCHECK_H
