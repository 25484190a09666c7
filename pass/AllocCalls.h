//===- AllocCalls.h - which calls the pass rewrites -------------*- C++ -*-===//
//
// Owns the answer to "is this call an allocation call, and which entry point
// replaces it". The table is generated from runtime/include/mdebug/abi.def and
// nothing else: never add a name here by hand. Must never modify IR.
//
//===----------------------------------------------------------------------===//

#ifndef MDEBUG_PASS_ALLOCCALLS_H
#define MDEBUG_PASS_ALLOCCALLS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class CallBase;
class FunctionType;
class LLVMContext;
class Type;
} // namespace llvm

namespace mdebug {

/// One line of abi.def.
struct AllocEntry {
  llvm::StringRef Name;   ///< The entry point is __mdebug_<Name>.
  llvm::StringRef Symbol; ///< The callee recognised (mangled for C++).
  llvm::StringRef Sig;    ///< "ret:params", one letter per type (p z i v).
  unsigned Op;            ///< Index of the line in abi.def (enum md_op).
};

/// Every entry of abi.def, in file order (Entries[I].Op == I).
llvm::ArrayRef<AllocEntry> allocEntries();

/// The entry whose Symbol is \p Symbol, or null.
const AllocEntry *findAllocEntry(llvm::StringRef Symbol);

/// The entry for \p CB if it is a direct call or invoke of a declared
/// function named after an abi.def SYMBOL whose prototype, and the call's own
/// function type, match SIG. Null for everything else: indirect calls,
/// functions defined in this module, wrong prototypes, musttail calls.
const AllocEntry *matchAllocCall(const llvm::CallBase &CB);

/// The entry for \p CB if it is an indirect call (a function pointer, no
/// inline asm, not musttail, not an invoke, C calling convention) whose own
/// function type is exactly that of malloc, calloc, realloc or free: a call
/// that may reach the runtime's allocator through a replaceable pointer
/// (libuv's uv__malloc, libxml2's xmlMalloc). Many other functions share
/// those types: the rewrite must keep the call as it is unless the pointer
/// is the allocator itself (MdebugPass.cpp). Null for everything else.
const AllocEntry *matchIndirectAllocCall(const llvm::CallBase &CB);

/// Whether \p FT has exactly the shape \p Sig describes.
bool matchesSig(const llvm::FunctionType *FT, llvm::StringRef Sig);

/// The IR type of one SIG letter (p, z, i, v).
llvm::Type *sigLetterType(llvm::LLVMContext &Ctx, char Letter);

/// The type of the entry point for \p E: SIG's types (a variadic callee's
/// variadic ones as fixed parameters) plus a trailing pointer to the site
/// descriptor. A call that passes fewer arguments than that gets null ones.
llvm::FunctionType *entryPointType(llvm::LLVMContext &Ctx, const AllocEntry &E);

/// "__mdebug_<Name>".
std::string entryPointName(const AllocEntry &E);

} // namespace mdebug

#endif // MDEBUG_PASS_ALLOCCALLS_H
