//===- AccessSites.cpp - the descriptors of checked instructions ----------===//
//
// Owns struct mdebug_access_site's layout on the pass's side (access.h):
// { i32 file, i32 function, i32 line, i32 column }, the first two the
// offsets of private strings from the descriptor itself (a difference of
// two addresses of the same module: the static linker resolves it, the
// loader never sees it). Must never touch other globals.
//
//===----------------------------------------------------------------------===//

#include "AccessSites.h"
#include "Compat.h"
#include "SourceLocation.h"

#include "mdebug/access.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace mdebug {

static constexpr char SiteSection[] = MDEBUG_ACCESS_SITE_SECTION;
static constexpr char SiteGlobalName[] = "__mdebug_access_site";
static constexpr unsigned SiteAlign = 8;

AccessSites::AccessSites(Module &M)
    : M(M), Ctx(M.getContext()), PtrTy(compat::genericPointerType(Ctx)) {
  Type *I32 = Type::getInt32Ty(Ctx);
  SiteTy = StructType::get(Ctx, {I32, I32, I32, I32});
}

// As the allocation sites' strings: shared by the module's descriptors,
// merged further by the linker (unnamed_addr).
Constant *AccessSites::stringFor(StringRef S) {
  Constant *&Slot = Strings[S];
  if (!Slot)
    Slot = makeSiteString(M, S);
  return Slot;
}

// (int32_t)(Target - Site): the descriptor's own address is the base.
static Constant *offsetFrom(Constant *Site, Constant *Target) {
  Type *I64 = Type::getInt64Ty(Site->getContext());
  Type *I32 = Type::getInt32Ty(Site->getContext());
  return ConstantExpr::getTrunc(
      ConstantExpr::getSub(ConstantExpr::getPtrToInt(Target, I64),
                           ConstantExpr::getPtrToInt(Site, I64)),
      I32);
}

Constant *AccessSites::siteFor(const Instruction &I) {
  SourceFacts Facts = checkFactsFor(I);
  SmallString<256> Key;
  (Twine(Facts.File) + "\n" + Facts.Function + "\n" + Twine(Facts.Line) +
   ":" + Twine(Facts.Column))
      .toVector(Key);
  Constant *&Slot = Sites[Key];
  if (Slot)
    return Slot;
  auto *GV = new GlobalVariable(M, SiteTy, /*isConstant=*/true,
                                GlobalValue::PrivateLinkage, nullptr,
                                SiteGlobalName);
  Type *I32 = Type::getInt32Ty(Ctx);
  GV->setInitializer(ConstantStruct::get(
      SiteTy, {offsetFrom(GV, stringFor(Facts.File)),
               offsetFrom(GV, stringFor(Facts.Function)),
               ConstantInt::get(I32, Facts.Line),
               ConstantInt::get(I32, Facts.Column)}));
  GV->setSection(SiteSection);
  GV->setAlignment(Align(SiteAlign));
  Slot = ConstantExpr::getPointerCast(GV, PtrTy);
  return Slot;
}

} // namespace mdebug
