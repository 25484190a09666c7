//===- CheckedCalls.cpp - which calls get checked at the call -------------===//
//
// Owns the recognition of checked C library calls, as AllocCalls.cpp owns
// that of allocation calls: a direct call or invoke of a declared function
// named on an MDEBUG_CHECKED(_VA) line of checks.def, with that line's
// prototype. Must never modify IR, and must never list a function by hand.
//
//===----------------------------------------------------------------------===//

#include "CheckedCalls.h"
#include "AllocCalls.h"
#include "Compat.h"

#include <cassert>

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace mdebug {

static constexpr char CheckedPrefix[] = "__mdebug_checked_";
static constexpr char CheckPrefix[] = "__mdebug_";

// Via numbers follow the lines' order from 1 (checks.def).
static const CheckedEntry RawEntries[] = {
#define MDEBUG_CHECKED(NAME, SIG, RET, PARAMS) {#NAME, SIG, false, 0, false},
#define MDEBUG_CHECKED_VA(NAME, SIG, RET, PARAMS) {#NAME, SIG, true, 0, false},
#define MDEBUG_VIA(NAME) {#NAME, "", false, 0, false},
#include "mdebug/checks.def"
};
static constexpr size_t NumEntries = sizeof(RawEntries) / sizeof(RawEntries[0]);
static const char *const HotNames[] = {
#define MDEBUG_HOT(NAME) #NAME,
#include "mdebug/checks.def"
};

struct CheckEntry {
  const char *Name, *Sig;
  CallingConv::ID CC;
};
static constexpr CallingConv::ID CC_C = CallingConv::C;
static constexpr CallingConv::ID CC_PRESERVE_MOST = CallingConv::PreserveMost;
static const CheckEntry CheckEntries[] = {
#define MDEBUG_CHECK(NAME, SIG, CC, RET, PARAMS) {#NAME, SIG, CC_##CC},
#include "mdebug/checks.def"
};

namespace {
struct EntryTable {
  CheckedEntry Entries[NumEntries];
  StringMap<const CheckedEntry *> ByName;

  EntryTable() {
    for (size_t I = 0; I < NumEntries; ++I) {
      Entries[I] = RawEntries[I];
      Entries[I].Via = static_cast<unsigned>(I + 1);
      ByName[Entries[I].Name] = &Entries[I];
    }
    for (const char *Name : HotNames) {
      auto It = ByName.find(Name);
      assert(It != ByName.end() && "an MDEBUG_HOT line names no entry");
      Entries[It->second - Entries].Hot = true;
    }
  }
};
} // namespace

static const EntryTable &table() {
  static const EntryTable Table;
  return Table;
}

const CheckedEntry *findCheckedEntry(StringRef Name) {
  const auto &ByName = table().ByName;
  auto It = ByName.find(Name);
  return It == ByName.end() ? nullptr : It->second;
}

// A varargs function matches when its named parameters do.
static bool matches(const FunctionType *FT, const CheckedEntry &E) {
  if (FT->isVarArg() != E.VarArg)
    return false;
  if (!E.VarArg)
    return matchesSig(FT, E.Sig);
  FunctionType *Fixed = FunctionType::get(FT->getReturnType(), FT->params(),
                                          /*isVarArg=*/false);
  return matchesSig(Fixed, E.Sig);
}

const CheckedEntry *matchCheckedCall(const CallBase &CB) {
  if (!isa<CallInst>(CB) && !isa<InvokeInst>(CB))
    return nullptr;
  if (const auto *CI = dyn_cast<CallInst>(&CB))
    if (CI->isMustTailCall())
      return nullptr; // the site argument would break its prototype
  const auto *Callee =
      dyn_cast<Function>(CB.getCalledOperand()->stripPointerCasts());
  if (!Callee || !Callee->isDeclaration() || Callee->isIntrinsic())
    return nullptr;
  const CheckedEntry *E = findCheckedEntry(Callee->getName());
  if (!E || E->Sig.empty())
    return nullptr;
  if (!matches(Callee->getFunctionType(), *E) ||
      !matches(CB.getFunctionType(), *E))
    return nullptr;
  // Typed pointers: a char * result stays the call's own type (see below).
  return E;
}

const CheckedEntry *matchAddressTaken(const Function &F) {
  if (!F.isDeclaration() || F.isIntrinsic())
    return nullptr;
  const CheckedEntry *E = findCheckedEntry(F.getName());
  if (!E || E->Sig.empty() || E->VarArg || !matches(F.getFunctionType(), *E))
    return nullptr;
  return E;
}

// 'a' is mdebug_access_answer, <2 x i64> (returned in xmm0).
static Type *letterType(LLVMContext &Ctx, char Letter) {
  if (Letter == 'a')
    return FixedVectorType::get(Type::getInt64Ty(Ctx), 2);
  return sigLetterType(Ctx, Letter);
}

// WithSite: the site follows the parameters of SIG.
static FunctionType *typeFromSig(LLVMContext &Ctx, StringRef Sig, bool VarArg,
                                 bool WithSite) {
  auto [Ret, Params] = Sig.split(':');
  SmallVector<Type *, 6> ParamTypes;
  for (char Letter : Params)
    ParamTypes.push_back(letterType(Ctx, Letter));
  if (WithSite)
    ParamTypes.push_back(compat::genericPointerType(Ctx));
  return FunctionType::get(letterType(Ctx, Ret[0]), ParamTypes, VarArg);
}

FunctionType *checkedEntryType(LLVMContext &Ctx, const CheckedEntry &E) {
  return typeFromSig(Ctx, E.Sig, E.VarArg, /*WithSite=*/true);
}

std::string checkedEntryName(const CheckedEntry &E) {
  return (Twine(CheckedPrefix) + E.Name).str();
}

// The lookups take no site: they are about a pointer, not an access.
FunctionType *checkFnType(LLVMContext &Ctx, CheckFn F) {
  bool Lookup = F == CheckFn::access_lookup || F == CheckFn::access_miss;
  return typeFromSig(Ctx, CheckEntries[static_cast<unsigned>(F)].Sig, false,
                     /*WithSite=*/!Lookup);
}

unsigned checkFnCallingConv(CheckFn F) {
  return CheckEntries[static_cast<unsigned>(F)].CC;
}

std::string checkFnName(CheckFn F) {
  return (Twine(CheckPrefix) + CheckEntries[static_cast<unsigned>(F)].Name)
      .str();
}

} // namespace mdebug
