//===- ArrayCookie.cpp - delete[]'s read of the array cookie --------------===//
//
// See ArrayCookie.h. Pointers are compared after stripping casts and
// constant offsets, so typed (LLVM 14) and opaque pointers, and the
// over-aligned cookie's two GEPs (p - 32 + 24), look the same.
//
//===----------------------------------------------------------------------===//

#include "ArrayCookie.h"

#include "llvm/ADT/APInt.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace mdebug {

static constexpr int64_t CountBytes = 8; // the count: the cookie's last 8

// V's base, with the constant offset from it in *Offset.
static const Value *baseOf(const Value *V, const DataLayout &DL,
                           int64_t *Offset) {
  APInt Off(DL.getIndexTypeSizeInBits(V->getType()), 0);
  const Value *Base =
      V->stripAndAccumulateConstantOffsets(DL, Off, /*AllowNonInbounds=*/true);
  if (!Off.isSignedIntN(64))
    return nullptr;
  *Offset = Off.getSExtValue();
  return Base;
}

std::optional<CookieRead> findCookieRead(CallBase &Delete) {
  if (Delete.arg_size() < 1)
    return std::nullopt;
  const DataLayout &DL = Delete.getModule()->getDataLayout();
  int64_t Cookie;
  const Value *Elements = baseOf(Delete.getArgOperand(0), DL, &Cookie);
  if (!Elements || -Cookie < CountBytes)
    return std::nullopt;
  for (Instruction &I : instructions(*Delete.getFunction())) {
    auto *Count = dyn_cast<LoadInst>(&I);
    int64_t At;
    if (!Count || Count->isVolatile() || !Count->getType()->isIntegerTy(64) ||
        baseOf(Count->getPointerOperand(), DL, &At) != Elements ||
        At != -CountBytes)
      continue;
    for (User *U : Count->users()) {
      auto *End = dyn_cast<GetElementPtrInst>(U);
      if (!End || End->getNumIndices() != 1 || End->getOperand(1) != Count ||
          End->getPointerOperand()->stripPointerCasts() != Elements)
        continue;
      TypeSize Size = DL.getTypeAllocSize(End->getSourceElementType());
      if (!Size.isScalable() && Size.getKnownMinValue() != 0)
        return CookieRead{Count, Size.getKnownMinValue()};
    }
  }
  return std::nullopt;
}

} // namespace mdebug
