//===- ArrayCookie.h - delete[]'s read of the array cookie ------*- C++ -*-===//
//
// Owns the answer to "where does this delete[] expression read the element
// count from its array cookie". new T[n] of a T with a destructor stores n
// in the 8 bytes before the first element (the end of a cookie of 8 bytes,
// or alignof(T)); delete[] p loads it from p - 8, runs that many
// destructors (indexing p as T[count]) and calls operator delete[] with
// p - cookie. Clang emits exactly that shape, and the pass runs at the
// pipeline's start, before anything could reshape it. Must never modify IR.
//
//===----------------------------------------------------------------------===//

#ifndef MDEBUG_PASS_ARRAYCOOKIE_H
#define MDEBUG_PASS_ARRAYCOOKIE_H

#include <cstdint>
#include <optional>

namespace llvm {
class CallBase;
class LoadInst;
} // namespace llvm

namespace mdebug {

/// The count's load and the element type's size.
struct CookieRead {
  llvm::LoadInst *Count;
  uint64_t ElemSize;
};

/// For \p Delete, a call of an array operator delete: the load of the
/// element count its delete[] expression made, when its argument lies a
/// cookie (8 bytes or more) before a pointer P, a 64-bit load from P - 8 in
/// the same function indexes P as an array of some type. None otherwise
/// (a type without a destructor has no cookie; an operator delete[] called
/// directly reads none).
std::optional<CookieRead> findCookieRead(llvm::CallBase &Delete);

} // namespace mdebug

#endif // MDEBUG_PASS_ARRAYCOOKIE_H
