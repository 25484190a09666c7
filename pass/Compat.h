//===- Compat.h - LLVM/Clang version differences, in one place -*- C++ -*-===//
//
// Owns every #if on LLVM_VERSION_MAJOR in pass/. Supported: LLVM 14 to 19
// (cmake/MdebugLLVM.cmake refuses others). No other file in pass/ may test the
// LLVM version; add a helper here instead (HostCheck.cpp compares the host's
// version with the built-for one at run time, which is not a difference in
// API). Must never hold pass logic.
//
// What changes across the range:
//  - Pointers: LLVM 14 has typed pointers by default (opaque ones behind
//    -opaque-pointers), 15 and 16 default to opaque, 17 removes typed ones.
//    The pass works in both worlds: it asks for "the generic pointer" here
//    and inserts pointer casts, which fold away under opaque pointers.
//  - Clang hooks: up to 17 the -fplugin front (ClangPlugin.cpp) appends
//    libmdebugpass.so's path to CodeGenOptions::PassPlugins so that the backend loads it as a
//    pass plugin; from 18 CodeGenOptions::PassBuilderCallbacks takes the
//    registration function directly (and clang 22 loads pass plugins before
//    plugin actions run, so the path trick would stop working there).
// Differences handled without an #if, by choice of spelling:
//  - the optimisation level type of pipeline callbacks (Plugin.cpp takes it
//    as `auto`); llvm::demangle's parameter (const std::string & up to 16,
//    std::string_view from 17: both accept a std::string);
//    StringRef::startswith vs starts_with (MdebugPass.cpp uses substr);
//    LLVM 15+ allocation attributes (allocalign, allocptr) are looked up by
//    name, so LLVM 14 simply does not find them.
//
//===----------------------------------------------------------------------===//

#ifndef MDEBUG_PASS_COMPAT_H
#define MDEBUG_PASS_COMPAT_H

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Type.h"

#include <string>

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace mdebug {
namespace compat {

/// The pointer type the entry points take and return: `ptr`, or `i8*` when
/// the context still uses typed pointers.
inline llvm::PointerType *genericPointerType(llvm::LLVMContext &Ctx) {
#if LLVM_VERSION_MAJOR >= 17
  return llvm::PointerType::getUnqual(Ctx);
#else
  // Type::getInt8PtrTy returns the opaque `ptr` when the context is in
  // opaque-pointer mode (default from 15, -opaque-pointers in 14).
  return llvm::Type::getInt8PtrTy(Ctx);
#endif
}

/// A pointer to \p Ty: `Ty*` under typed pointers, `ptr` otherwise (the
/// access checks cast addresses for their loads with it).
inline llvm::PointerType *pointerTo(llvm::Type *Ty) {
#if LLVM_VERSION_MAJOR >= 17
  return llvm::PointerType::getUnqual(Ty->getContext());
#else
  return llvm::PointerType::getUnqual(Ty);
#endif
}

/// Makes Clang's backend run the pass for this compilation, given the
/// frontend's code generation options. \p SelfPath is libmdebugpass.so
/// (empty if unknown); \p Register registers the pass with a PassBuilder.
/// Returns false if the pass could not be added. A template so that this
/// header needs no Clang headers (the pass itself includes it too).
template <typename CodeGenOptionsT>
bool addPassToBackend(CodeGenOptionsT &Opts, const std::string &SelfPath,
                      void (*Register)(llvm::PassBuilder &)) {
#if LLVM_VERSION_MAJOR >= 18
  (void)SelfPath;
  Opts.PassBuilderCallbacks.push_back(Register);
  return true;
#else
  (void)Register;
  if (SelfPath.empty())
    return false;
  Opts.PassPlugins.push_back(SelfPath);
  return true;
#endif
}

} // namespace compat
} // namespace mdebug

#endif // MDEBUG_PASS_COMPAT_H
