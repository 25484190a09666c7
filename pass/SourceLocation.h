//===- SourceLocation.h - what reports say of an instruction ----*- C++ -*-===//
//
// Owns how the pass names the source of an instruction for the runtime's
// reports: the path of its file a user can open, the (demangled) function,
// line and column; shared by the allocation sites (MdebugPass.cpp) and the
// access sites (AccessSites.cpp), so both name a place the same way; and
// the string globals their descriptors point at. Must never modify IR but
// by adding those strings.
//
//===----------------------------------------------------------------------===//

#ifndef MDEBUG_PASS_SOURCELOCATION_H
#define MDEBUG_PASS_SOURCELOCATION_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace llvm {
class DILocation;
class Function;
class GlobalVariable;
class Instruction;
class Module;
} // namespace llvm

namespace mdebug {

/// The source-level facts of one instruction. File is the path reports
/// print; HashedFile the name the compiler recorded, from which site ids
/// are computed (see MdebugPass.cpp, siteFor).
struct SourceFacts {
  std::string File;
  std::string HashedFile;
  std::string Function;
  uint32_t Line = 0;
  uint32_t Column = 0;
  /// The linkage name the front knows the function holding the location
  /// by: the IR function's own, or, for an instruction inlined from
  /// elsewhere, the one of the subprogram it came from.
  std::string Holder;
};

/// With a DebugLoc, everything comes from the innermost location (the
/// callee side of an inlined call); without one (no -g, no -Rpass, no
/// -gline-tables-only) the module's file name, as the frontend gives it, and
/// the IR function stand in.
SourceFacts sourceFactsFor(const llvm::Instruction &I);

/// The same, for a check's site: a location inlined from a system header
/// (glibc's _FORTIFY_SOURCE and inline wrappers of memcpy, strcpy, atoi,
/// printf, bzero; libstdc++'s containers) stands for the call that
/// inlined it, outermost first, so a report names the program's own line.
SourceFacts checkFactsFor(const llvm::Instruction &I);

/// A new private constant holding S (NUL-terminated), named __mdebug_str,
/// unnamed_addr so that the linker may merge it across modules. Callers
/// share one per string and module.
llvm::GlobalVariable *makeSiteString(llvm::Module &M, llvm::StringRef S);

} // namespace mdebug

#endif // MDEBUG_PASS_SOURCELOCATION_H
