//===- CheckedCalls.h - which calls get checked at the call ------*- C++ -*-===//
//
// Owns the answer to "is this call a C library call whose ranges mdebug
// checks, and which __mdebug_checked_* entry point replaces it", and the
// types of the check entry points. The tables are generated from
// runtime/include/mdebug/checks.def and nothing else: never add a name here
// by hand. Must never modify IR.
//
//===----------------------------------------------------------------------===//

#ifndef MDEBUG_PASS_CHECKEDCALLS_H
#define MDEBUG_PASS_CHECKEDCALLS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class CallBase;
class Function;
class FunctionType;
class LLVMContext;
} // namespace llvm

namespace mdebug {

/// One MDEBUG_CHECKED, MDEBUG_CHECKED_VA or MDEBUG_VIA line of checks.def.
struct CheckedEntry {
  llvm::StringRef Name; ///< The C library function.
  llvm::StringRef Sig;  ///< "ret:params" of its named parameters ("": none).
  bool VarArg;          ///< Followed by variable arguments.
  unsigned Via;         ///< Its number in reports (MDEBUG_ACCESS_INFO).
  bool Hot;             ///< On an MDEBUG_HOT line: left to -mdebug-check-calls.
};

/// The entry for the C library function \p Name (memcpy, strdup...), or
/// null.
const CheckedEntry *findCheckedEntry(llvm::StringRef Name);

/// The entry for \p CB if it is a direct call or invoke of a declared
/// function named after an MDEBUG_CHECKED(_VA) line whose prototype, and the
/// call's own function type, match its SIG. Null for everything else.
const CheckedEntry *matchCheckedCall(const llvm::CallBase &CB);

/// The entry for a declared C library function \p F whose address the
/// program takes, if it has a checked entry point of fixed arity and F has
/// its prototype (a call through the pointer can then be checked too), or
/// null.
const CheckedEntry *matchAddressTaken(const llvm::Function &F);

/// The type of __mdebug_checked_<Name>: the function's parameters, the site,
/// then the variable arguments if it has them.
llvm::FunctionType *checkedEntryType(llvm::LLVMContext &Ctx,
                                     const CheckedEntry &E);
std::string checkedEntryName(const CheckedEntry &E);

/// The MDEBUG_CHECK entry points, in checks.def order.
enum class CheckFn {
#define MDEBUG_CHECK(NAME, SIG, CC, RET, PARAMS) NAME,
#include "mdebug/checks.def"
};
/// Its type: SIG, then the site (but for the lookups).
llvm::FunctionType *checkFnType(llvm::LLVMContext &Ctx, CheckFn F);
std::string checkFnName(CheckFn F);
/// llvm::CallingConv::ID of its CC column.
unsigned checkFnCallingConv(CheckFn F);

} // namespace mdebug

#endif // MDEBUG_PASS_CHECKEDCALLS_H
