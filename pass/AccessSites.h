//===- AccessSites.h - the descriptors of checked instructions --*- C++ -*-===//
//
// Owns the emission of struct mdebug_access_site (runtime/include/mdebug/
// access.h): one constant per source location of the module that has a
// checked access or call, in the section "mdebug_access_sites", naming its
// file, function, line and column as SourceLocation.h does. Descriptors
// hold their strings' offsets from themselves, never pointers, so they need
// no relocation at load time. Must never touch anything but the globals it
// creates.
//
//===----------------------------------------------------------------------===//

#ifndef MDEBUG_PASS_ACCESSSITES_H
#define MDEBUG_PASS_ACCESSSITES_H

#include "llvm/ADT/StringMap.h"

namespace llvm {
class Constant;
class Instruction;
class LLVMContext;
class Module;
class PointerType;
class StructType;
} // namespace llvm

namespace mdebug {

class AccessSites {
public:
  explicit AccessSites(llvm::Module &M);
  /// The descriptor of \p I's source location (shared by every instruction
  /// of that location), as the generic pointer type.
  llvm::Constant *siteFor(const llvm::Instruction &I);
  unsigned count() const { return Sites.size(); }

private:
  llvm::Constant *stringFor(llvm::StringRef S);

  llvm::Module &M;
  llvm::LLVMContext &Ctx;
  llvm::PointerType *PtrTy;
  llvm::StructType *SiteTy;
  llvm::StringMap<llvm::Constant *> Strings;
  llvm::StringMap<llvm::Constant *> Sites;
};

} // namespace mdebug

#endif // MDEBUG_PASS_ACCESSSITES_H
