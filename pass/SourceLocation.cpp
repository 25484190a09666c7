//===- SourceLocation.cpp - what reports say of an instruction ------------===//
//
// Owns the naming of an instruction's source location (SourceLocation.h).
// Must never modify IR.
//
//===----------------------------------------------------------------------===//

#include "SourceLocation.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace mdebug {

// The linkage name of the subprogram holding the location. Clang omits it
// when it only tracks locations (-Rpass=mdebug without -g, emissionKind
// NoDebug); when that subprogram is the IR function's own, the function's
// symbol is the same linkage name, so -g and location-only builds agree on
// "S::f(int)" and on the site id. Inlined callees fall back to the DWARF
// short name.
static StringRef linkageNameAt(const DILocation &Loc, const Function &F) {
  const DISubprogram *SP = Loc.getScope()->getSubprogram();
  if (!SP)
    return F.getName();
  if (!SP->getLinkageName().empty())
    return SP->getLinkageName();
  if (SP == F.getSubprogram() || SP->getName().empty())
    return F.getName();
  return SP->getName();
}

static std::string demangled(StringRef Name) {
  return llvm::demangle(Name.str());
}

// The path of a location's file that a user can open: Clang records an
// absolute source path as the part below the deepest directory it shares
// with the compilation directory, plus that directory ("src/json.c" in
// "/home/u/proj"), and a relative one as given, plus the compilation
// directory; either way the file name alone is relative to nowhere the user
// stands. "." components are dropped; ".." are kept (a symbolic link may
// make them mean something else than the textual parent).
static std::string openablePath(const DILocation &Loc) {
  StringRef File = Loc.getFilename(), Dir = Loc.getDirectory();
  if (File.empty() || Dir.empty() || sys::path::is_absolute(File))
    return File.str();
  SmallString<256> Path(Dir);
  sys::path::append(Path, File);
  sys::path::remove_dots(Path, /*remove_dot_dot=*/false);
  return std::string(Path.str());
}

// A header the system installed (glibc's, the compiler's, libstdc++'s).
// (StringRef::startswith became starts_with across the supported range;
// substr() is spelled the same everywhere.)
static bool inSystemHeader(const DILocation &Loc) {
  std::string Path = openablePath(Loc);
  StringRef P(Path);
  for (StringRef Dir : {"/usr/include/", "/usr/lib/", "/usr/local/include/"})
    if (P.substr(0, Dir.size()) == Dir)
      return true;
  return false;
}

static SourceFacts factsAt(const Instruction &I, const DILocation *Loc);

SourceFacts sourceFactsFor(const Instruction &I) {
  return factsAt(I, I.getDebugLoc().get());
}

SourceFacts checkFactsFor(const Instruction &I) {
  const DILocation *Loc = I.getDebugLoc().get();
  while (Loc && Loc->getInlinedAt() && inSystemHeader(*Loc))
    Loc = Loc->getInlinedAt();
  return factsAt(I, Loc);
}

static SourceFacts factsAt(const Instruction &I, const DILocation *Loc) {
  SourceFacts Facts;
  const Function &F = *I.getFunction();
  if (!Loc) {
    Facts.File = Facts.HashedFile = F.getParent()->getSourceFileName();
    Facts.Function = demangled(F.getName());
    Facts.Holder = F.getName().str();
    return Facts;
  }
  Facts.File = openablePath(*Loc);
  Facts.HashedFile = Loc->getFilename().str();
  Facts.Function = demangled(linkageNameAt(*Loc, F));
  Facts.Line = Loc->getLine();
  Facts.Column = Loc->getColumn();
  Facts.Holder =
      (Loc->getInlinedAt() ? linkageNameAt(*Loc, F) : F.getName()).str();
  return Facts;
}

GlobalVariable *makeSiteString(Module &M, StringRef S) {
  Constant *Init =
      ConstantDataArray::getString(M.getContext(), S, /*AddNull=*/true);
  auto *GV = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                                GlobalValue::PrivateLinkage, Init,
                                "__mdebug_str");
  GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  GV->setAlignment(Align(1));
  return GV;
}

} // namespace mdebug
