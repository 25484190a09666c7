//===- AllocCalls.cpp - which calls the pass rewrites ---------------------===//
//
// Owns the recognition of allocation calls: a direct call or invoke of a
// declared function whose name is a SYMBOL of abi.def and whose prototype
// matches that line's SIG; and of the indirect calls that may reach one
// through a function pointer of its exact type (malloc, calloc, realloc,
// free). Recognition is by name and shape only, not by
// TargetLibraryInfo, so -fno-builtin and -ffreestanding code is still
// instrumented. Must never modify IR, and must never list an entry point by
// hand: the table below is abi.def.
//
//===----------------------------------------------------------------------===//

#include "AllocCalls.h"
#include "Compat.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace mdebug {

static constexpr char EntryPointPrefix[] = "__mdebug_";

// One AllocEntry per abi.def line; the Op field is filled from the position.
static const AllocEntry RawEntries[] = {
#define MDEBUG_ENTRY(NAME, SYMBOL, SIG, RET, PARAMS) {#NAME, #SYMBOL, SIG, 0},
#include "mdebug/abi.def"
};

static constexpr size_t NumEntries = sizeof(RawEntries) / sizeof(RawEntries[0]);

namespace {
struct EntryTable {
  AllocEntry Entries[NumEntries];
  StringMap<const AllocEntry *> BySymbol;

  EntryTable() {
    for (size_t I = 0; I < NumEntries; ++I) {
      Entries[I] = RawEntries[I];
      Entries[I].Op = static_cast<unsigned>(I);
      BySymbol[Entries[I].Symbol] = &Entries[I];
    }
  }
};
} // namespace

static const EntryTable &table() {
  static const EntryTable Table;
  return Table;
}

ArrayRef<AllocEntry> allocEntries() { return table().Entries; }

const AllocEntry *findAllocEntry(StringRef Symbol) {
  const auto &BySymbol = table().BySymbol;
  auto It = BySymbol.find(Symbol);
  return It == BySymbol.end() ? nullptr : It->second;
}

// One SIG letter against one type. Pointers must be in the default address
// space; under typed pointers any pointee is accepted (char *, void **...).
static bool matchesLetter(const Type *Ty, char Letter) {
  switch (Letter) {
  case 'p':
    return Ty->isPointerTy() && Ty->getPointerAddressSpace() == 0;
  case 'z':
    return Ty->isIntegerTy(64);
  case 'i':
    return Ty->isIntegerTy(32);
  case 'd':
    return Ty->isDoubleTy();
  case 'f':
    return Ty->isFloatTy();
  case 'v':
    return Ty->isVoidTy();
  default:
    return false;
  }
}

static std::pair<StringRef, StringRef> splitSig(StringRef Sig) {
  return Sig.split(':');
}

// "p:pzzi.p" -> the fixed parameters "pzzi" and the variadic ones "p" (an
// empty second part, and no '.', for a callee that is not variadic).
static std::pair<StringRef, StringRef> splitParams(StringRef Params) {
  return Params.split('.');
}

static bool isVariadicSig(StringRef Sig) {
  return splitSig(Sig).second.contains('.');
}

bool matchesSig(const FunctionType *FT, StringRef Sig) {
  auto [Ret, Params] = splitSig(Sig);
  auto [Fixed, Variadic] = splitParams(Params);
  (void)Variadic;
  if (FT->isVarArg() != isVariadicSig(Sig) || Ret.size() != 1 ||
      FT->getNumParams() != Fixed.size())
    return false;
  if (!matchesLetter(FT->getReturnType(), Ret[0]))
    return false;
  for (unsigned I = 0, E = FT->getNumParams(); I != E; ++I)
    if (!matchesLetter(FT->getParamType(I), Fixed[I]))
      return false;
  return true;
}

// A call of a variadic callee passes at most the variadic arguments SIG
// names, each of its letter's type.
static bool matchesVariadicArgs(const CallBase &CB, StringRef Sig) {
  auto [Fixed, Variadic] = splitParams(splitSig(Sig).second);
  if (CB.arg_size() > Fixed.size() + Variadic.size())
    return false;
  for (unsigned I = Fixed.size(), E = CB.arg_size(); I != E; ++I)
    if (!matchesLetter(CB.getArgOperand(I)->getType(), Variadic[I - Fixed.size()]))
      return false;
  return true;
}

Type *sigLetterType(LLVMContext &Ctx, char Letter) {
  switch (Letter) {
  case 'p':
    return compat::genericPointerType(Ctx);
  case 'z':
    return Type::getInt64Ty(Ctx);
  case 'i':
    return Type::getInt32Ty(Ctx);
  case 'd':
    return Type::getDoubleTy(Ctx);
  case 'f':
    return Type::getFloatTy(Ctx);
  default:
    return Type::getVoidTy(Ctx);
  }
}

FunctionType *entryPointType(LLVMContext &Ctx, const AllocEntry &E) {
  auto [Ret, Params] = splitSig(E.Sig);
  SmallVector<Type *, 4> ParamTypes;
  for (char Letter : Params)
    if (Letter != '.')
      ParamTypes.push_back(sigLetterType(Ctx, Letter));
  ParamTypes.push_back(compat::genericPointerType(Ctx)); // the site
  return FunctionType::get(sigLetterType(Ctx, Ret[0]), ParamTypes,
                           /*isVarArg=*/false);
}

std::string entryPointName(const AllocEntry &E) {
  return (Twine(EntryPointPrefix) + E.Name).str();
}

// A musttail call must keep its caller's prototype, which the extra site
// argument would break; such calls are left alone.
static bool isMustTail(const CallBase &CB) {
  const auto *CI = dyn_cast<CallInst>(&CB);
  return CI && CI->isMustTailCall();
}

const AllocEntry *matchAllocCall(const CallBase &CB) {
  if (!isa<CallInst>(CB) && !isa<InvokeInst>(CB))
    return nullptr; // callbr: never an allocation
  if (isMustTail(CB))
    return nullptr;
  const auto *Callee =
      dyn_cast<Function>(CB.getCalledOperand()->stripPointerCasts());
  if (!Callee || !Callee->isDeclaration() || Callee->isIntrinsic())
    return nullptr;
  const AllocEntry *E = findAllocEntry(Callee->getName());
  if (!E)
    return nullptr;
  // Both the declaration and the call's own type must fit: the call site may
  // go through a cast of the callee (old-style C prototypes), and its
  // arguments are what the entry point receives.
  if (!matchesSig(Callee->getFunctionType(), E->Sig) ||
      !matchesSig(CB.getFunctionType(), E->Sig) ||
      !matchesVariadicArgs(CB, E->Sig))
    return nullptr;
  // Typed pointers only: a result of another pointer type than the entry
  // point's would need a cast after the call, which an invoke has no place
  // for. Clang never declares these functions that way.
  if (CB.getType() != entryPointType(CB.getContext(), *E)->getReturnType())
    return nullptr;
  return E;
}

// The allocators whose pointers are worth a site: what replaceable-allocator
// tables hold (libuv's uv__allocator, libxml2's xmlMalloc and friends).
static constexpr const char *IndirectAllocators[] = {"malloc", "calloc",
                                                     "realloc", "free"};

const AllocEntry *matchIndirectAllocCall(const CallBase &CB) {
  const auto *CI = dyn_cast<CallInst>(&CB);
  if (!CI || CI->isMustTailCall() || CI->isInlineAsm() ||
      CI->getCallingConv() != CallingConv::C)
    return nullptr;
  if (isa<Function>(CB.getCalledOperand()->stripPointerCasts()))
    return nullptr; // direct, through a cast or not
  for (const char *Name : IndirectAllocators) {
    const AllocEntry *E = findAllocEntry(Name);
    if (E && matchesSig(CB.getFunctionType(), E->Sig))
      return E;
  }
  return nullptr;
}

} // namespace mdebug
