//===- AccessCheck.cpp - checked heap accesses and calls ------------------===//
//
// Owns the access instrumentation. Collects first, rewrites after.
//
// Loads, stores and atomics (-mdebug-check-access). An access's address is
// computed from an origin: the pointer left once inbounds GEPs and casts
// are stripped (an array's start, a struct's address). Within an extended
// basic block (a block and those below it with no other predecessor), with
// no call in between that may free, accesses with the same origin share
// one lookup of the origin's block, a call placed before the first of them:
//     {S, E} = __mdebug_access_lookup(O)     (preserve_most: no spills)
// [S, E) is the block's bytes, [0, 0) when O is in the heap but in no live
// block, [0, ~0) when O is not in the heap. Each access then checks
//     if (addr < S || addr + size > E) __mdebug_access_fail(...)   (cold)
// (addr < S left out for an address known to be at or above the origin: a
// field, or non-negative small indices, atOrAboveOrigin)
// so a heap access costs two compares once its origin is looked up, and an
// access that leaves its origin's block is caught even when it lands in
// another live block. The lookup itself first probes, inline, the thread's
// cache of answers (access.h: __mdebug_access_cache, indexed by the
// pointer) and calls __mdebug_access_miss only when the probe misses
// (expandLookup). (The heap's arithmetic in IR instead made code 10x larger
// and ran slower.) Where the lookups go (LookupPlan): shared by the accesses
// of an origin until a call that may free, then revalidated (the block's
// metadata word compared again), hoisted to loop preheaders. A phi or select of pointers taken at
// variable offsets is no origin (mergesInObject): it may point into
// another object than the one indexed, and such accesses are checked
// against the block their own address (less constant offsets) lands in;
// but a phi that is, on every edge, another phi of its block plus
// non-negative steps (an interpreter's `ra = base + A`: parallelBase) is
// computed from that one, and shares its lookup.
//
// Memory intrinsics (llvm.memcpy / memmove / memset) get a range test on
// each pointer and a call of __mdebug_check_range for those in the heap;
// direct calls of the C library functions of checks.def become calls of
// __mdebug_checked_<name>; __mdebug_strdup / __mdebug_strndup (the
// allocation rewrite's) are preceded by __mdebug_check_string. These come
// with -mdebug-check-access, or alone with -mdebug-check-calls.
//
// Skipped, and counted (-mdebug-access-stats): accesses based on an alloca,
// a byval argument or a global (never in the heap but through a wild
// index), and those in the C library's thread-local data (errno) and the
// ctype tables it points to. The geometry's loads (the intrinsics' range
// tests) are !invariant.load: the runtime fills __mdebug_access before the program's
// constructors run (a function running across the very first allocation
// may keep seeing an empty range, and check nothing).
//
// With -mdebug-access-split-cold (mdebug-clang gives it with the machine
// function splitter's options), each instrumented function gets an entry
// count, so that codegen moves the blocks the checks mark cold (ColdWeight)
// out of the function, into .text.unlikely.*: on Lua, 300 KB of code that
// never runs, which would otherwise sit between the hot code's pages and
// be resident with them.
//
// Must never: instrument what it made or already checked (both carry
// !mdebug.check; the pass may run twice on a module), touch functions named
// __mdebug*, or give the checks attributes that let LLVM move or drop them.
//
//===----------------------------------------------------------------------===//

#include "AccessCheck.h"
#include "AccessSites.h"
#include "CheckedCalls.h"
#include "Compat.h"

#include "mdebug/access.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/KnownBits.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>
#include <cstddef>
#include <vector>
#include <utility>

using namespace llvm;

namespace mdebug {

static cl::opt<bool> ClCheckAccess(
    "mdebug-check-access",
    cl::desc("mdebug: check every load and store that may reach the heap "
             "against the block it lands in"),
    cl::init(false));
static cl::opt<bool> ClCheckCalls(
    "mdebug-check-calls",
    cl::desc("mdebug: check memory intrinsics and C library string and "
             "memory calls against the blocks they read and write (default: "
             "as -mdebug-check-access)"),
    cl::init(false));
static cl::opt<bool> ClCheckLibCalls(
    "mdebug-check-lib-calls",
    cl::desc("mdebug: check the C library calls programs seldom make in "
             "inner loops (strchr, strtol, printf's %s...; not memcpy, "
             "strlen, memcmp: -mdebug-check-calls) against the blocks they "
             "read and write"),
    cl::init(true));
static cl::opt<bool> ClSkipStack(
    "mdebug-access-skip-stack",
    cl::desc("mdebug: leave out accesses based on an alloca or byval argument"),
    cl::init(true));
static cl::opt<bool>
    ClSkipGlobals("mdebug-access-skip-globals",
                  cl::desc("mdebug: leave out accesses based on a global"),
                  cl::init(true));
static cl::opt<bool> ClShare(
    "mdebug-access-share",
    cl::desc("mdebug: accesses with one origin pointer in an extended basic "
             "block, with no call between them, share one lookup of its "
             "block"),
    cl::init(true));
static cl::opt<bool> ClOrigin(
    "mdebug-access-origin",
    cl::desc("mdebug: also check that an access stays in the block of the "
             "pointer its address was computed from"),
    cl::init(true));
static cl::opt<bool> ClInline(
    "mdebug-access-inline",
    cl::desc("mdebug: probe the thread's cache of answers inline, calling "
             "the lookup only when the probe misses"),
    cl::init(true));
static cl::opt<bool> ClSplitCold(
    "mdebug-access-split-cold",
    cl::desc("mdebug: give each instrumented function without a profile an "
             "entry count, so that codegen's machine function splitter "
             "(-enable-split-machine-functions -mfs-psi-cutoff=0) moves the "
             "checks' cold blocks out of the function (mdebug-clang passes "
             "all three)"),
    cl::init(false));
static cl::opt<bool>
    ClStats("mdebug-access-stats",
            cl::desc("mdebug: print what the access checks instrumented and "
                     "skipped, per module"),
            cl::init(false));

AccessOptions AccessOptions::fromCommandLine() {
  AccessOptions O;
  O.Accesses = ClCheckAccess;
  O.Calls = ClCheckCalls.getNumOccurrences() ? bool(ClCheckCalls)
                                              : bool(ClCheckAccess);
  O.LibCalls = ClCheckLibCalls;
  O.SkipStack = ClSkipStack;
  O.SkipGlobals = ClSkipGlobals;
  O.Share = ClShare;
  O.Origin = ClOrigin;
  O.Inline = ClInline;
  O.SplitCold = ClSplitCold;
  O.Stats = ClStats;
  return O;
}

// Names shared with the runtime, or visible in the emitted IR.
static constexpr char SkipPrefix[] = "__mdebug";
static constexpr char GeometryName[] = "__mdebug_access";
static constexpr char CacheName[] = MDEBUG_ACCESS_CACHE_NAME;
static constexpr char MarkKind[] = "mdebug.check";
static constexpr char StrdupEntry[] = "__mdebug_strdup";
static constexpr char StrndupEntry[] = "__mdebug_strndup";

// The weight of the way into a check's cold block (a failure, a miss of
// the cache's probe, a changed word) against 1, and the entry count an
// instrumented function gets with -mdebug-access-split-cold: the cold
// blocks then count 2^20 / 2^30 < 1 run (under 1 still in loops run up to
// a thousand times a call), which the machine function splitter moves to
// the function's cold part, while a block of the program's own that runs
// once in a million calls (a count of 1) stays.
static constexpr uint32_t ColdWeight = 1u << 30;
static constexpr uint64_t SplitEntryCount = 1u << 20;

namespace {

enum Skip { NotSkipped, SkipStack, SkipGlobal, SkipSame, NumSkips };

struct Access {
  Instruction *I;
  Value *Ptr;
  uint64_t Size;
  bool Write;
  Value *Origin = nullptr;
  /// Its origin's block's bytes (handles: revalidations replace values).
  WeakTrackingVH Start, End;
  /// The same address was checked before, for as many bytes, in its block
  /// with no call between that may free: nothing to check.
  bool Redundant = false;
};

/// What a lookup answers (access.h): the block's bytes [S, E), and W, V:
/// *W == V while they hold.
struct Answer {
  Value *S = nullptr, *E = nullptr, *W = nullptr, *V = nullptr;
  /// Part F, in the order above (the order of the entry's fields).
  Value *&operator[](unsigned F) {
    return F == 0 ? S : F == 1 ? E : F == 2 ? W : V;
  }
  Value *operator[](unsigned F) const {
    return F == 0 ? S : F == 1 ? E : F == 2 ? W : V;
  }
};

class Instrumenter {
public:
  Instrumenter(Module &M, const AccessOptions &Opts);
  bool run();

private:
  void collect(Function &F, const DominatorTree &DT,
               SmallVectorImpl<Access> &Found);
  Skip skipReason(Value *Ptr) const;
  bool wantAccess(Instruction &I, Access &A) const;
  void placeLookups(Function &F, DominatorTree &DT,
                    MutableArrayRef<Access> Found);
  Answer lookup(IRBuilder<> &B, Value *Origin,
               CheckFn Via = CheckFn::access_lookup);
  Answer readEntry(IRBuilder<> &B, Value *Entry);
  void expandRevalidation(CallInst *Placeholder, const Answer &Old);
  void expandLookup(CallInst *Placeholder);
  void replaceWithJoin(CallInst *Placeholder, const Answer &X,
                       BasicBlock *XFrom, const Answer &Y, BasicBlock *YFrom);
  void instrumentAccesses();
  void instrumentAccess(const Access &A);
  struct FieldBase {
    Value *Base = nullptr; ///< or, when null, the prefix of Of:
    GEPOperator *Of = nullptr;
    unsigned Prefix = 0; ///< its indices up to its last variable one
  };
  bool fieldOf(const Access &A, FieldBase &FB, uint64_t &Offset) const;
  Value *materialize(IRBuilder<> &B, const FieldBase &FB);
  void instrumentFields(ArrayRef<const Access *> Group, const FieldBase &FB,
                        ArrayRef<uint64_t> Offsets);
  void instrumentIntrinsic(MemIntrinsic *MI);
  void rewriteCall(CallBase *CB, const CheckedEntry &E);
  unsigned wrapAddressTaken();
  void checkString(CallBase *CB, const CheckedEntry &E);

  struct InHeap {
    Instruction *Then; ///< the new block's terminator: put the check before
    Value *AddrInt, *Off; ///< the address, and its offset in the heap
  };
  InHeap ifInHeap(IRBuilder<> &B, Value *Ptr, Instruction *Before);
  Value *geoPtr(IRBuilder<> &B, Value *ByteOffset, Type *Ty);
  Value *geoLoad(IRBuilder<> &B, Value *ByteOffset, Type *Ty);
  Value *geoLoad(IRBuilder<> &B, uint64_t ByteOffset, Type *Ty);
  FunctionCallee checkFn(CheckFn F);
  void mark(Instruction *I) const { I->setMetadata(MarkID, MarkNode); }

  Module &M;
  LLVMContext &Ctx;
  const AccessOptions &Opts;
  AccessSites Sites;
  PointerType *PtrTy;
  IntegerType *I8, *I64;
  StructType *AnswerTy;
  unsigned MarkID;
  MDNode *MarkNode, *Cold, *Likely;
  Constant *Geometry = nullptr;
  Function *Placeholder = nullptr, *LookupPlaceholder = nullptr;
  GlobalVariable *Cache = nullptr;
  SmallVector<CallInst *, 64> InlineLookups;

  SmallVector<Access, 64> Accesses;
  SmallVector<MemIntrinsic *, 16> Intrinsics;
  SmallVector<std::pair<CallBase *, const CheckedEntry *>, 16> Calls;
  SmallVector<std::pair<CallBase *, const CheckedEntry *>, 4> Strings;
  unsigned Seen = 0, Skipped[NumSkips] = {}, Lookups = 0, Revalidations = 0;
};

} // namespace

Instrumenter::Instrumenter(Module &M, const AccessOptions &Opts)
    : M(M), Ctx(M.getContext()), Opts(Opts), Sites(M),
      PtrTy(compat::genericPointerType(Ctx)), I8(Type::getInt8Ty(Ctx)),
      I64(Type::getInt64Ty(Ctx)),
      AnswerTy(StructType::get(Ctx, {I64, I64, compat::pointerTo(I64), I64})),
      MarkID(Ctx.getMDKindID(MarkKind)),
      MarkNode(MDNode::get(Ctx, {})),
      Cold(MDBuilder(Ctx).createBranchWeights(1, ColdWeight)),
      Likely(MDBuilder(Ctx).createBranchWeights(100, 1)) {}

static bool isRuntimeFunction(const Function &F) {
  StringRef Prefix(SkipPrefix);
  return F.getName().substr(0, Prefix.size()) == Prefix;
}

static bool wantFunction(const Function &F) {
  return !F.isDeclaration() && !isRuntimeFunction(F) &&
         !F.hasAvailableExternallyLinkage() &&
         !F.hasFnAttribute(Attribute::Naked) &&
         !F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation);
}

//===-- What is checked ---------------------------------------------------===//

// The C library's functions that answer a pointer to its own thread-local
// data: errno, and the ctype tables' pointers (glibc's isalpha(c) is
// `(*__ctype_b_loc())[c] & _ISalpha`), which point into the locale's
// tables. Never a block of the program's: what is based on them is left
// out as globals are (a string scanner calls isalpha on every character:
// two probes of the cache each, for nothing).
static bool isLibcTlsAccessor(const Value *V) {
  const auto *Call = dyn_cast<CallInst>(V);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee || !Callee->isDeclaration())
    return false;
  StringRef Name = Callee->getName();
  return Name == "__errno_location" || Name == "__ctype_b_loc" ||
         Name == "__ctype_tolower_loc" || Name == "__ctype_toupper_loc";
}

// An address based on a stack or global object is never in the heap unless
// an index runs wild: AddressSanitizer checks those for its redzones, mdebug
// has none there. Nor is an address in the C library's thread-local data or
// in a ctype table it points to (isLibcTlsAccessor).
Skip Instrumenter::skipReason(Value *Ptr) const {
  const Value *Obj = getUnderlyingObject(Ptr, /*MaxLookup=*/0);
  if (isLibcTlsAccessor(Obj))
    return Opts.SkipGlobals ? SkipGlobal : NotSkipped;
  if (const auto *Table = dyn_cast<LoadInst>(Obj))
    if (isLibcTlsAccessor(
            getUnderlyingObject(Table->getPointerOperand(), /*MaxLookup=*/0)))
      return Opts.SkipGlobals ? SkipGlobal : NotSkipped;
  if (isa<AllocaInst>(Obj))
    return Opts.SkipStack ? SkipStack : NotSkipped;
  if (const auto *Arg = dyn_cast<Argument>(Obj))
    if (Arg->hasByValAttr())
      return Opts.SkipStack ? SkipStack : NotSkipped;
  if (isa<GlobalValue>(Obj) || isa<ConstantPointerNull>(Obj))
    return Opts.SkipGlobals ? SkipGlobal : NotSkipped;
  return NotSkipped;
}

/// An access of I through Ptr, its size still to be found.
static Access makeAccess(Instruction &I, Value *Ptr, bool Write) {
  Access A;
  A.I = &I;
  A.Ptr = Ptr;
  A.Size = 0;
  A.Write = Write;
  return A;
}

// Pointers in address space 0 only (another is not the heap's); vectors of
// pointers (gathers, scatters) and scalable types are left out.
bool Instrumenter::wantAccess(Instruction &I, Access &A) const {
  if (I.getMetadata(MarkID) || I.hasMetadata("nosanitize"))
    return false;
  Type *ValTy = nullptr;
  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    A = makeAccess(I, LI->getPointerOperand(), false);
    ValTy = LI->getType();
  } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
    A = makeAccess(I, SI->getPointerOperand(), true);
    ValTy = SI->getValueOperand()->getType();
  } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    A = makeAccess(I, RMW->getPointerOperand(), true);
    ValTy = RMW->getValOperand()->getType();
  } else if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I)) {
    A = makeAccess(I, X->getPointerOperand(), true);
    ValTy = X->getCompareOperand()->getType();
  } else {
    return false;
  }
  if (!A.Ptr->getType()->isPointerTy() ||
      A.Ptr->getType()->getPointerAddressSpace() != 0 || A.Ptr->isSwiftError())
    return false;
  TypeSize Bits = M.getDataLayout().getTypeStoreSize(ValTy);
  if (Bits.isScalable() || Bits.getFixedValue() == 0)
    return false;
  A.Size = Bits.getFixedValue();
  return A.Size < (1u << 31);
}

// A pointer stripped of inbounds GEPs and casts, the arithmetic the
// language says stays inside one object.
static Value *stripInBounds(Value *V) {
  for (;;) {
    if (auto *GEP = dyn_cast<GEPOperator>(V)) {
      if (!GEP->isInBounds())
        return V;
      V = GEP->getPointerOperand();
    } else if (auto *BC = dyn_cast<BitCastOperator>(V)) {
      V = BC->getOperand(0);
    } else {
      return V;
    }
  }
}

// One step down from V towards the pointer it was computed from, when
// the step adds a non-negative offset: a cast, or a GEP whose constant
// offset is non-negative and whose variable indices the value tracking
// knows are non-negative and small (an interpreter's register operand,
// `(i >> 24) & 0xff`; an unsigned char; a zero-extended int). Total sums
// the largest offsets; false past 2^40 bytes, so that an address in the
// heap plus Total never wraps (user space ends at 2^47).
static constexpr uint64_t StepLimit = uint64_t(1) << 40;
static bool nonNegativeStep(Value *&V, const DataLayout &DL, uint64_t &Total) {
  if (auto *BC = dyn_cast<BitCastOperator>(V)) {
    V = BC->getOperand(0);
    return true;
  }
  auto *GEP = dyn_cast<GEPOperator>(V);
  if (!GEP || GEP->getType()->isVectorTy())
    return false;
  unsigned Bits = DL.getIndexTypeSizeInBits(GEP->getType());
  MapVector<Value *, APInt> Variable;
  APInt Constant(Bits, 0);
  if (!GEP->collectOffset(DL, Bits, Variable, Constant) ||
      Constant.isNegative() || Constant.getActiveBits() > 40)
    return false;
  uint64_t Sum = Total + Constant.getZExtValue();
  for (auto &[Index, Scale] : Variable) {
    if (Scale.isNegative() || Scale.getActiveBits() > 32)
      return false;
    KnownBits Known = computeKnownBits(Index, DL);
    // A GEP sign-extends an index narrower than its index width.
    if (!Known.isNonNegative() || Known.getMaxValue().getActiveBits() > 32)
      return false;
    Sum += Known.getMaxValue().getZExtValue() * Scale.getZExtValue();
    if (Sum >= StepLimit)
      return false;
  }
  if (Sum >= StepLimit)
    return false;
  Total = Sum;
  V = GEP->getPointerOperand();
  return true;
}

// Another phi Q of P's block that P steps along: on every edge, P's input
// is Q's plus non-negative steps (nonNegativeStep), so P = Q + an offset
// in [0, MaxTotal]. An interpreter's register pointer `ra = base + A`,
// carried through its dispatch beside the stack base `base`.
static PHINode *parallelBase(PHINode *P, const DataLayout &DL,
                             uint64_t &MaxTotal) {
  unsigned N = P->getNumIncomingValues(), Tried = 0;
  if (N > 16)
    return nullptr;
  for (PHINode &Q : P->getParent()->phis()) {
    if (&Q == P || !Q.getType()->isPointerTy())
      continue;
    if (++Tried > 32)
      return nullptr;
    uint64_t Max = 0;
    bool All = true;
    for (unsigned I = 0; I < N && All; ++I) {
      Value *Want = Q.getIncomingValueForBlock(P->getIncomingBlock(I));
      Value *V = P->getIncomingValue(I);
      uint64_t Total = 0;
      for (unsigned Steps = 0; V != Want && Steps < 8; ++Steps)
        if (!nonNegativeStep(V, DL, Total))
          break;
      All = V == Want;
      Max = std::max(Max, Total);
    }
    if (All) {
      MaxTotal = Max;
      return &Q;
    }
  }
  return nullptr;
}

// Is every address A's pointer can hold at or above its origin (a chain of
// non-negative steps, and of phis stepping along another, leads to it)?
// Then, as every answer's start is at or below its origin (access.h), the
// access needs no test against the start: one compare, and the start kept
// in no register.
static bool atOrAboveOrigin(const Access &A, const DataLayout &DL) {
  uint64_t Total = 0;
  Value *V = A.Ptr;
  for (unsigned Steps = 0; V != A.Origin; ++Steps) {
    if (Steps > 8)
      return false;
    if (nonNegativeStep(V, DL, Total))
      continue;
    auto *P = dyn_cast<PHINode>(V);
    uint64_t Max = 0;
    PHINode *Q = P ? parallelBase(P, DL, Max) : nullptr;
    if (!Q || (Total += Max) >= StepLimit)
      return false;
    V = Q;
  }
  return true;
}

// Phis and selects of pointers: merges, whose inputs the origin walks see
// through.
static bool isMerge(const Value *V) {
  return isa<PHINode>(V) || isa<SelectInst>(V);
}
static void mergeInputs(Value *Merge, SmallVectorImpl<Value *> &Inputs) {
  if (auto *Phi = dyn_cast<PHINode>(Merge)) {
    Inputs.append(Phi->incoming_values().begin(), Phi->incoming_values().end());
  } else {
    auto *Sel = cast<SelectInst>(Merge);
    Inputs.append({Sel->getTrueValue(), Sel->getFalseValue()});
  }
}

struct OriginMemo {
  DenseMap<Value *, Value *> Through; ///< a merge's originThrough
  DenseMap<Value *, bool> InObject;   ///< a merge's mergesInObject
  DenseMap<Value *, Value *> Parallel; ///< a phi's own origin's parallelBase
};

// The pointer an address was computed from: stripped of inbounds GEPs and
// casts; and through phis and selects whose inputs all come (so stripped)
// from one pointer or from each other, as a pointer stepped along an array
// in a loop (`p = p + 1`, `p = cond ? p + 1 : a`) comes from the array, which
// is then looked up once before the loop instead of on each iteration.
// A merge of pointers taken at variable offsets is no origin
// (mergesInObject): it may point into another object than the one the
// program indexes (compressors keep `base = source - offset`), and the
// access's own pointer, less constant offsets, is its origin: the access is
// checked against the block it lands in, as AddressSanitizer checks it.
static Value *originThrough(Value *V, const DominatorTree &DT);
static bool mergesInObject(Value *V, DenseMap<Value *, bool> &Memo);
static Value *originOf(Value *Ptr, const DominatorTree &DT, OriginMemo &Memo,
                       bool Parallel = true) {
  Value *V = stripInBounds(Ptr);
  if (!isMerge(V))
    return V;
  auto [It, New] = Memo.Through.try_emplace(V, nullptr);
  if (New)
    It->second = originThrough(V, DT);
  Value *O = It->second;
  if (!isMerge(O) || mergesInObject(O, Memo.InObject))
    return O;
  const DataLayout &DL = cast<Instruction>(O)->getModule()->getDataLayout();
  APInt Off(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  Value *Base = Ptr->stripAndAccumulateInBoundsConstantOffsets(DL, Off);
  // A phi that steps along another phi of its block, which is its own
  // origin (an interpreter's `ra = base + A`): computed from that one, as
  // `&p[i]` is from p, and checked against its block, with the accesses
  // of the other (one lookup, not two).
  auto *P = dyn_cast<PHINode>(Base);
  uint64_t Max;
  if (Parallel && P && !Off.isNegative()) {
    auto [Known, First] = Memo.Parallel.try_emplace(P, nullptr);
    if (First)
      if (PHINode *Q = parallelBase(P, DL, Max))
        if (originOf(Q, DT, Memo, /*Parallel=*/false) == Q)
          Known->second = Q;
    if (Known->second)
      return Known->second;
  }
  return Base;
}

// The walk behind originOf, from a phi or select V. An interpreter's
// instruction pointer, stepped in each of its many handlers, is a web of
// hundreds of phis.
static Value *originThrough(Value *V, const DominatorTree &DT) {
  SmallPtrSet<Value *, 8> Seen{V};
  SmallVector<Value *, 8> Work{V};
  Value *Common = nullptr;
  auto Input = [&](Value *In) {
    Value *S = stripInBounds(In);
    if (isMerge(S)) {
      if (Seen.insert(S).second)
        Work.push_back(S);
      return Seen.size() <= 1024;
    }
    if (Common && Common != S)
      return false;
    Common = S;
    return true;
  };
  SmallVector<Value *, 8> Inputs;
  while (!Work.empty()) {
    Inputs.clear();
    mergeInputs(Work.pop_back_val(), Inputs);
    for (Value *In : Inputs)
      if (!Input(In))
        return V;
  }
  if (!Common || isa<Constant>(Common))
    return V;
  if (auto *Def = dyn_cast<Instruction>(Common))
    if (!DT.dominates(Def, cast<Instruction>(V)))
      return V;
  return Common;
}

// Does a phi or select that is its own origin (its inputs come from
// different pointers) point where its inputs' own pointers do: is each
// input a pointer plus a constant, non-negative offset (a field, the next
// element), not plus a variable one? An interpreter's stack base, reloaded
// as `frame + 1`, does; a compressor's `base = source - offset`, merged
// with a dictionary's, points anywhere, another buffer included.
static bool mergesInObject(Value *V, DenseMap<Value *, bool> &Memo) {
  auto Known = Memo.find(V);
  if (Known != Memo.end())
    return Known->second;
  const DataLayout &DL = cast<Instruction>(V)->getModule()->getDataLayout();
  // The web of phis and selects V's inputs lead to: each is in object
  // unless an input is not, or is a member of the web that is not.
  SmallVector<Value *, 16> Web{V};
  SmallPtrSet<Value *, 16> InWeb{V}, Out;
  DenseMap<Value *, SmallVector<Value *, 4>> UsedBy;
  for (size_t I = 0; I < Web.size(); ++I) {
    Value *W = Web[I];
    SmallVector<Value *, 4> Inputs;
    mergeInputs(W, Inputs);
    for (Value *Input : Inputs) {
      APInt Off(DL.getIndexTypeSizeInBits(Input->getType()), 0);
      Value *Base = Input->stripAndAccumulateInBoundsConstantOffsets(DL, Off);
      bool Merge = isMerge(Base);
      auto Memoed = Merge ? Memo.find(Base) : Memo.end();
      if (Off.isNegative() || isa<GEPOperator>(Base) ||
          (Memoed != Memo.end() && !Memoed->second) ||
          (Merge && Memoed == Memo.end() && !InWeb.count(Base) &&
           Web.size() >= 1024)) {
        Out.insert(W);
      } else if (Merge && Memoed == Memo.end()) {
        if (InWeb.insert(Base).second)
          Web.push_back(Base);
        UsedBy[Base].push_back(W);
      }
    }
  }
  SmallVector<Value *, 16> Work(Out.begin(), Out.end());
  while (!Work.empty())
    for (Value *W : UsedBy.lookup(Work.pop_back_val()))
      if (Out.insert(W).second)
        Work.push_back(W);
  for (Value *W : Web)
    Memo[W] = !Out.count(W);
  return Memo[V];
}

// A call that may free: every lookup before it must be confirmed after it.
static bool mayFree(const CallBase &CB) {
  return !isa<IntrinsicInst>(CB) && !CB.onlyReadsMemory() &&
         !CB.hasFnAttr(Attribute::NoFree);
}

void Instrumenter::collect(Function &F, const DominatorTree &DT,
                           SmallVectorImpl<Access> &Found) {
  OriginMemo Memo;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      Access A;
      if (Opts.Accesses && wantAccess(I, A)) {
        Seen++;
        Skip Why = skipReason(A.Ptr);
        Skipped[Why]++;
        if (Why != NotSkipped)
          continue;
        A.Origin = Opts.Origin ? originOf(A.Ptr, DT, Memo) : A.Ptr;
        if (isa<Constant>(A.Origin))
          A.Origin = A.Ptr;
        Found.push_back(A);
        continue;
      }
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || !(Opts.Calls || Opts.LibCalls) || CB->getMetadata(MarkID))
        continue;
      if (auto *MI = dyn_cast<MemIntrinsic>(CB)) {
        if (Opts.Calls)
          Intrinsics.push_back(MI);
        continue;
      }
      if (isa<IntrinsicInst>(CB))
        continue;
      if (const CheckedEntry *E = matchCheckedCall(*CB)) {
        if (Opts.Calls || !E->Hot)
          Calls.emplace_back(CB, E);
        continue;
      }
      const auto *Callee =
          dyn_cast<Function>(CB->getCalledOperand()->stripPointerCasts());
      if (Callee && Callee->getName() == StrdupEntry && CB->arg_size() == 2)
        Strings.emplace_back(CB, findCheckedEntry("strdup"));
      else if (Callee && Callee->getName() == StrndupEntry &&
               CB->arg_size() == 3)
        Strings.emplace_back(CB, findCheckedEntry("strndup"));
    }
}

// Where the lookups go, by a forward dataflow over the CFG, per origin: it
// is *available* at a point when every path from the entry looked it up
// since the origin was defined, and *fresh* when no call that may free lies
// on any of those paths since. An access of an origin not available gets a
// lookup; of one available but not fresh, a revalidation (the word compared
// again, a lookup only if it changed); of a fresh one, nothing. The answers
// reach the accesses through SSA (phis where paths meet). With
// -mdebug-access-share=0 every access gets a lookup of its own.
//
// The steps, in order: number the origins, choose the loop preheaders
// lookups are hoisted to, solve the dataflow to its fixed point, mark the
// accesses a check before them makes redundant (LookupPlan), then place
// the lookups and revalidations and join their answers (placeLookups).
namespace {
class LookupPlan {
public:
  enum Action { Use, Lookup, Revalidate };
  /// Called at each access (its index in Found) and each hoisted lookup
  /// (-1), in program order within a block, blocks in reverse post-order.
  using Visitor =
      function_ref<void(BasicBlock *, Instruction *, unsigned, int, Action)>;

  LookupPlan(Function &F, DominatorTree &DT, MutableArrayRef<Access> Found,
             bool Share)
      : F(F), Found(Found), Share(Share), RPOT(&F) {
    numberOrigins();
    if (Share)
      hoistOutOfLoops(DT);
    solve();
    if (Share)
      markRedundant();
  }
  unsigned origins() const { return Origins.size(); }
  Value *origin(unsigned O) const { return Origins[O]; }
  /// Visits every access and hoisted lookup with what it needs.
  void walk(Visitor Visit) {
    for (BasicBlock *BB : RPOT) {
      BitVector Avail, Fresh;
      in(BB, Avail, Fresh);
      transfer(*BB, Avail, Fresh, Visit);
    }
  }
  const ReversePostOrderTraversal<Function *> &order() const { return RPOT; }

private:
  void numberOrigins();
  void hoistOutOfLoops(DominatorTree &DT);
  void solve();
  void markRedundant();
  void in(BasicBlock *BB, BitVector &Avail, BitVector &Fresh);
  void transfer(BasicBlock &BB, BitVector &Avail, BitVector &Fresh,
                Visitor Visit);

  Function &F;
  MutableArrayRef<Access> Found;
  bool Share;
  ReversePostOrderTraversal<Function *> RPOT;
  DenseMap<Value *, unsigned> OriginIndex;
  SmallVector<Value *, 16> Origins;
  DenseMap<Instruction *, unsigned> AccessAt;
  DenseMap<BasicBlock *, SmallVector<unsigned, 4>> HoistAt;
  /// Each block's Avail and Fresh out.
  DenseMap<BasicBlock *, std::pair<BitVector, BitVector>> Out;
};
} // namespace

void LookupPlan::numberOrigins() {
  for (unsigned I = 0; I < Found.size(); ++I) {
    auto [It, New] = OriginIndex.try_emplace(Found[I].Origin, Origins.size());
    if (New)
      Origins.push_back(Found[I].Origin);
    AccessAt[Found[I].I] = I;
  }
}

// Lookups hoisted out of loops: an origin defined outside a loop that
// accesses it is looked up at the end of the outermost such loop's
// predecessor outside it (its preheader, or the guard that branches to it
// or past it: at the optimiser's end a guarded loop often has no
// preheader, and a lookup is harmless where the loop is skipped), so that
// in the loop it is only revalidated after calls.
void LookupPlan::hoistOutOfLoops(DominatorTree &DT) {
  LoopInfo LI(DT);
  DenseSet<std::pair<BasicBlock *, unsigned>> Hoisted;
  for (const Access &A : Found) {
    auto *Def = dyn_cast<Instruction>(A.Origin);
    Loop *Best = nullptr;
    for (Loop *L = LI.getLoopFor(A.I->getParent()); L;
         L = L->getParentLoop()) {
      BasicBlock *Pre = L->getLoopPredecessor();
      if (!Pre || (Def && !DT.dominates(Def, Pre->getTerminator())))
        break;
      Best = L;
    }
    if (!Best)
      continue;
    unsigned O = OriginIndex[A.Origin];
    BasicBlock *Pre = Best->getLoopPredecessor();
    if (Hoisted.insert({Pre, O}).second)
      HoistAt[Pre].push_back(O);
  }
}

// Avail/Fresh into a block: what every (reachable) predecessor gives out.
void LookupPlan::in(BasicBlock *BB, BitVector &Avail, BitVector &Fresh) {
  unsigned N = Origins.size();
  Avail = BitVector(N, BB != &F.getEntryBlock());
  Fresh = Avail;
  for (BasicBlock *P : predecessors(BB)) {
    auto It = Out.find(P);
    if (It == Out.end())
      continue; // unreachable
    Avail &= It->second.first;
    Fresh &= It->second.second;
  }
}

// The transfer through one block: Avail/Fresh in, out; Visit at each
// access, and at each hoisted lookup (before the preheader's terminator).
void LookupPlan::transfer(BasicBlock &BB, BitVector &Avail, BitVector &Fresh,
                          Visitor Visit) {
  auto Touch = [&](Instruction *At, unsigned O, int Acc) {
    Action Do = !Share || !Avail[O] ? Lookup
                : !Fresh[O]         ? Revalidate
                                    : Use;
    Visit(&BB, At, O, Acc, Do);
    Avail.set(O);
    Fresh.set(O);
  };
  for (Instruction &I : BB) {
    if (I.isTerminator()) {
      auto H = HoistAt.find(&BB);
      if (H != HoistAt.end())
        for (unsigned O : H->second)
          Touch(&I, O, -1);
    }
    auto At = AccessAt.find(&I);
    if (At != AccessAt.end())
      Touch(&I, OriginIndex[Found[At->second].Origin], At->second);
    else if (auto *CB = dyn_cast<CallBase>(&I); CB && mayFree(*CB))
      Fresh.reset();
    // A new value of an origin (a phi, a load in a loop): looked up anew.
    auto Def = OriginIndex.find(&I);
    if (Def != OriginIndex.end()) {
      Avail.reset(Def->second);
      Fresh.reset(Def->second);
    }
  }
}

// The dataflow, from "everything available" down to its fixed point.
void LookupPlan::solve() {
  unsigned N = Origins.size();
  for (BasicBlock *BB : RPOT)
    Out[BB] = {BitVector(N, true), BitVector(N, true)};
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (BasicBlock *BB : RPOT) {
      BitVector Avail, Fresh;
      in(BB, Avail, Fresh);
      transfer(*BB, Avail, Fresh,
               [](BasicBlock *, Instruction *, unsigned, int, Action) {});
      auto &O = Out[BB];
      if (O.first != Avail || O.second != Fresh) {
        O = {std::move(Avail), std::move(Fresh)};
        Changed = true;
      }
    }
  }
}

// An address checked again in its block, for no more bytes and with no
// call between that may free, needs no check (AddressSanitizer's rule).
void LookupPlan::markRedundant() {
  for (BasicBlock &BB : F) {
    DenseMap<Value *, uint64_t> Checked;
    for (Instruction &I : BB) {
      auto At = AccessAt.find(&I);
      if (At != AccessAt.end()) {
        Access &A = Found[At->second];
        uint64_t &Size = Checked[A.Ptr];
        A.Redundant = Size >= A.Size;
        if (!A.Redundant)
          Size = A.Size;
      } else if (auto *CB = dyn_cast<CallBase>(&I); CB && mayFree(*CB)) {
        Checked.clear();
      }
    }
  }
}

// Places the lookups and (placeholders for) the revalidations the plan
// asks for, in order, noting for each access (and revalidation) the answer
// before it in its block, or that it takes the one that reaches the block;
// then joins the answers with SSA and expands the placeholders.
void Instrumenter::placeLookups(Function &F, DominatorTree &DT,
                                MutableArrayRef<Access> Found) {
  LookupPlan Plan(F, DT, Found, Opts.Share);
  using Action = LookupPlan::Action;
  struct Reach {
    bool LiveIn = true;
    BasicBlock *BB = nullptr;
    unsigned Origin = 0;
    Answer A;
  };
  struct Def {
    BasicBlock *BB;
    unsigned Origin;
    Answer A;
  };
  SmallVector<Def, 32> Defs;
  std::vector<Reach> Reached(Found.size());
  SmallVector<std::pair<CallInst *, Reach>, 16> Revals;
  DenseMap<unsigned, Answer> Current;
  BasicBlock *CurrentBB = nullptr;
  Plan.walk([&](BasicBlock *BB, Instruction *At, unsigned O, int Acc,
                Action Do) {
    if (BB != CurrentBB) {
      Current.clear();
      CurrentBB = BB;
    }
    Reach Before{true, BB, O, {}};
    auto C = Current.find(O);
    if (C != Current.end())
      Before = {false, BB, O, C->second};
    if (Do == LookupPlan::Use) {
      if (Acc >= 0)
        Reached[Acc] = Before;
      return;
    }
    IRBuilder<> B(At);
    Answer Ans;
    // A placeholder answering for the origin, expanded below.
    auto Stand = [&](Function *For) {
      CallInst *P =
          B.CreateCall(For, {B.CreatePointerCast(Plan.origin(O), PtrTy)});
      for (unsigned F = 0; F < 4; ++F)
        Ans[F] = B.CreateExtractValue(P, F);
      return P;
    };
    if (Do == LookupPlan::Lookup && !Opts.Inline) {
      Ans = lookup(B, Plan.origin(O));
      Lookups++;
    } else if (Do == LookupPlan::Lookup) {
      InlineLookups.push_back(Stand(LookupPlaceholder));
      Lookups++;
    } else {
      Revals.push_back({Stand(Placeholder), Before});
      Revalidations++;
    }
    Defs.push_back({BB, O, Ans});
    Current[O] = Ans;
    if (Acc >= 0)
      Reached[Acc] = {false, BB, O, Ans};
  });
  // Join the answers with SSA: one updater per origin and part.
  unsigned N = Plan.origins();
  std::vector<std::array<SSAUpdater, 4>> Updaters(N);
  for (unsigned O = 0; O < N; ++O)
    for (unsigned F = 0; F < 4; ++F)
      Updaters[O][F].Initialize(AnswerTy->getElementType(F), "mdebug.bounds");
  for (const Def &D : Defs) // in order: a block's last answer wins
    for (unsigned F = 0; F < 4; ++F)
      Updaters[D.Origin][F].AddAvailableValue(D.BB, D.A[F]);
  auto Resolve = [&](Reach &R) {
    if (R.LiveIn)
      for (unsigned F = 0; F < 4; ++F)
        R.A[F] = Updaters[R.Origin][F].GetValueInMiddleOfBlock(R.BB);
    return R.A;
  };
  // Everything resolved first (handles follow the placeholders' parts as
  // the expansions replace them), then expanded.
  std::vector<std::array<WeakTrackingVH, 4>> Inputs;
  for (auto &[P, R] : Revals) {
    Answer A = Resolve(R);
    Inputs.push_back({A.S, A.E, A.W, A.V});
  }
  for (unsigned Acc = 0; Acc < Found.size(); ++Acc) {
    Answer A = Resolve(Reached[Acc]);
    Found[Acc].Start = A.S;
    Found[Acc].End = A.E;
  }
  for (size_t R = 0; R < Revals.size(); ++R) {
    const auto &In = Inputs[R];
    expandRevalidation(Revals[R].first, {In[0], In[1], In[2], In[3]});
  }
  for (CallInst *P : InlineLookups)
    expandLookup(P);
  InlineLookups.clear();
}

//===-- The geometry --------------------------------------------------------===//

Value *Instrumenter::geoPtr(IRBuilder<> &B, Value *ByteOffset, Type *Ty) {
  if (!Geometry) {
    Constant *GV = M.getOrInsertGlobal(
        GeometryName,
        ArrayType::get(I8, sizeof(struct mdebug_access_geometry)));
    if (auto *G = dyn_cast<GlobalVariable>(GV->stripPointerCasts()))
      G->setAlignment(Align(8));
    Geometry = ConstantExpr::getPointerCast(GV, compat::pointerTo(I8));
  }
  Value *P = B.CreateInBoundsGEP(I8, Geometry, ByteOffset);
  return B.CreatePointerCast(P, compat::pointerTo(Ty));
}

// Fixed once the program runs: loaded once per loop, not per access.
Value *Instrumenter::geoLoad(IRBuilder<> &B, Value *ByteOffset, Type *Ty) {
  LoadInst *L = B.CreateLoad(Ty, geoPtr(B, ByteOffset, Ty));
  L->setAlignment(M.getDataLayout().getABITypeAlign(Ty));
  L->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(Ctx, {}));
  mark(L);
  return L;
}

Value *Instrumenter::geoLoad(IRBuilder<> &B, uint64_t ByteOffset, Type *Ty) {
  return geoLoad(B, ConstantInt::get(I64, ByteOffset), Ty);
}

// The lookups and the failure path keep every register but r11
// (preserve_most), and instrumented code keeps values in them across the
// calls. From a shared library a call goes through the PLT, and the dynamic
// linker's lazy resolver, run on the first call, keeps only the C
// convention's argument registers (r10 is lost): such functions are
// nonlazybind, called through the GOT, bound when the library is loaded.
FunctionCallee Instrumenter::checkFn(CheckFn F) {
  FunctionCallee C = M.getOrInsertFunction(checkFnName(F), checkFnType(Ctx, F));
  if (auto *Fn = dyn_cast<Function>(C.getCallee())) {
    Fn->setCallingConv(checkFnCallingConv(F));
    if (Fn->getCallingConv() != CallingConv::C)
      Fn->addFnAttr(Attribute::NonLazyBind);
  }
  return C;
}

//===-- Loads and stores ------------------------------------------------------===//

// Splits before `Before`: the new block, entered when Ptr is in the
// primary heap, is where the caller puts its check.
Instrumenter::InHeap Instrumenter::ifInHeap(IRBuilder<> &B, Value *Ptr,
                                            Instruction *Before) {
  Value *AddrInt = B.CreatePtrToInt(Ptr, I64);
  Value *Off = B.CreateSub(
      AddrInt, geoLoad(B, offsetof(struct mdebug_access_geometry, base), I64));
  Value *Cond = B.CreateICmpULT(
      Off, geoLoad(B, offsetof(struct mdebug_access_geometry, size), I64));
  return {SplitBlockAndInsertIfThen(Cond, Before, /*Unreachable=*/false),
          AddrInt, Off};
}

// Calls the lookup (Via: access_lookup, or access_miss after a probe of
// the cache missed) and reads its answer (access.h), at B.
Answer Instrumenter::lookup(IRBuilder<> &B, Value *Origin, CheckFn Via) {
  CallInst *Call =
      B.CreateCall(checkFn(Via), {B.CreatePointerCast(Origin, PtrTy)});
  Call->setCallingConv(checkFnCallingConv(Via));
  return readEntry(B, B.CreateIntToPtr(B.CreateExtractElement(Call, uint64_t(0)),
                                       compat::pointerTo(I8)));
}

// The four parts of the entry at E (an i8 pointer).
Answer Instrumenter::readEntry(IRBuilder<> &B, Value *E) {
  using Entry = struct mdebug_access_entry;
  auto Field = [&](uint64_t Offset, Type *Ty) {
    Value *P = B.CreateInBoundsGEP(I8, E, ConstantInt::get(I64, Offset));
    LoadInst *L =
        B.CreateLoad(Ty, B.CreatePointerCast(P, compat::pointerTo(Ty)));
    L->setAlignment(Align(8));
    mark(L);
    return L;
  };
  Answer A;
  A.S = Field(offsetof(Entry, start), I64);
  A.E = Field(offsetof(Entry, end), I64);
  A.W = Field(offsetof(Entry, word), compat::pointerTo(I64));
  A.V = Field(offsetof(Entry, value), I64);
  return A;
}

// A placeholder's parts (its extractvalues), in the block it now starts,
// become phis of the answer X arriving from XFrom and Y from YFrom.
void Instrumenter::replaceWithJoin(CallInst *P, const Answer &X,
                                   BasicBlock *XFrom, const Answer &Y,
                                   BasicBlock *YFrom) {
  IRBuilder<> B(&P->getParent()->front());
  SmallVector<Instruction *, 4> Parts;
  for (User *U : P->users())
    Parts.push_back(cast<Instruction>(U));
  for (Instruction *Part : Parts) {
    unsigned F = cast<ExtractValueInst>(Part)->getIndices()[0];
    PHINode *Phi = B.CreatePHI(Part->getType(), 2);
    Phi->addIncoming(X[F], XFrom);
    Phi->addIncoming(Y[F], YFrom);
    Part->replaceAllUsesWith(Phi);
    Part->eraseFromParent();
  }
  P->eraseFromParent();
}

// A revalidation, where the placeholder stands: the word compared with the
// value of the answer before, and a new lookup only if it changed.
void Instrumenter::expandRevalidation(CallInst *P, const Answer &Old) {
  Value *Origin = P->getArgOperand(0);
  IRBuilder<> B(P);
  B.SetCurrentDebugLocation(P->getDebugLoc());
  LoadInst *Now = B.CreateLoad(I64, Old.W);
  Now->setAlignment(Align(8));
  Now->setAtomic(AtomicOrdering::Unordered);
  mark(Now);
  Instruction *Then = SplitBlockAndInsertIfThen(B.CreateICmpNE(Now, Old.V), P,
                                                false, Cold);
  BasicBlock *Head = Then->getParent()->getSinglePredecessor();
  B.SetInsertPoint(Then);
  Answer New = lookup(B, Origin);
  BasicBlock *Fresh = Then->getParent();
  replaceWithJoin(P, Old, Head, New, Fresh);
}

// A lookup, where its placeholder stands, with its cache probe inline:
//     Probe: E = cache + index(O) * 32
//            if (O < E.start || O > E.end) goto Call
//     Hit:   if (*E.word == E.value) answer E                  (a hit)
//     Call:  answer __mdebug_access_miss(O)                      (cold)
// which is what the lookup does before its arithmetic, without the call.
// Pointers outside the heap are answered from the cache too (access.h).
// Two compares with the entry in memory (x86: cmp, jb, cmp, ja), not one
// of differences: the start needs no register when no access tests it
// (Lua: 4% fewer instructions).
void Instrumenter::expandLookup(CallInst *P) {
  Value *Origin = P->getArgOperand(0);
  BasicBlock *Head = P->getParent();
  Function &F = *Head->getParent();
  if (!Cache) {
    Cache = M.getGlobalVariable(CacheName);
    if (!Cache)
      Cache = new GlobalVariable(M, PtrTy, false, GlobalValue::ExternalLinkage,
                                 nullptr, CacheName, nullptr,
                                 GlobalValue::InitialExecTLSModel);
  }
  IRBuilder<> B(P);
  DebugLoc Loc = P->getDebugLoc();
  B.SetCurrentDebugLocation(Loc);
  Value *X = B.CreatePtrToInt(Origin, I64);
  BasicBlock *Join = SplitBlock(Head, P);
  Join->setName("mdebug.looked");
  auto NewBlock = [&](const char *Name) {
    return BasicBlock::Create(Ctx, Name, &F, Join);
  };
  BasicBlock *Hit = NewBlock("mdebug.hit"), *Call = NewBlock("mdebug.lookup");
  Head->getTerminator()->eraseFromParent();

  B.SetInsertPoint(Head);
  LoadInst *Entries = B.CreateLoad(PtrTy, Cache);
  Entries->setAlignment(Align(8));
  mark(Entries);
  static_assert(sizeof(struct mdebug_access_entry) == 32 &&
                    MDEBUG_ACCESS_CACHE_SHIFT == 5,
                "the entry's offset is the pointer's bits, masked");
  Value *Index = B.CreateAnd(
      X, ConstantInt::get(I64, MDEBUG_ACCESS_CACHE_INDEX(~uint64_t(0)) << 5));
  Answer Found =
      readEntry(B, B.CreateInBoundsGEP(
                       I8, B.CreatePointerCast(Entries, compat::pointerTo(I8)),
                       Index));
  Value *Outside = B.CreateOr(B.CreateICmpULT(X, Found.S),
                              B.CreateICmpUGT(X, Found.E));
  B.CreateCondBr(Outside, Call, Hit, Cold);

  B.SetInsertPoint(Hit);
  LoadInst *Now = B.CreateLoad(I64, Found.W);
  Now->setAlignment(Align(8));
  Now->setAtomic(AtomicOrdering::Unordered);
  mark(Now);
  B.CreateCondBr(B.CreateICmpEQ(Now, Found.V), Join, Call, Likely);

  B.SetInsertPoint(Call);
  Answer Looked = lookup(B, Origin, CheckFn::access_miss);
  B.CreateBr(Join);

  replaceWithJoin(P, Found, Hit, Looked, Call);
}

// A's address as a base and a constant, non-negative offset from it: the
// base is its origin for a field of a structure the origin points to, or a
// pointer computed from the origin (an element at a variable index) for a
// field of that element. A GEP with a variable index and constant ones
// after it (&p[i].field, one GEP) counts as the prefix up to that index
// (&p[i]) and the constant offset of the rest, so that the fields of p[i]
// share that base.
bool Instrumenter::fieldOf(const Access &A, FieldBase &FB,
                           uint64_t &Offset) const {
  const DataLayout &DL = M.getDataLayout();
  APInt Off(DL.getIndexTypeSizeInBits(A.Ptr->getType()), 0);
  FB = {A.Ptr->stripAndAccumulateInBoundsConstantOffsets(DL, Off)};
  if (Off.isNegative() || Off.getActiveBits() > 32)
    return false;
  Offset = Off.getZExtValue();
  auto *GEP = dyn_cast<GEPOperator>(FB.Base);
  if (FB.Base == A.Origin || !GEP || !GEP->isInBounds() ||
      GEP->getType()->isVectorTy())
    return true;
  unsigned Last = 0; // operand number of the last variable index
  for (unsigned I = 1, E = GEP->getNumOperands(); I < E; ++I)
    if (!isa<ConstantInt>(GEP->getOperand(I)))
      Last = I;
  if (Last == 0)
    return true;
  SmallVector<Value *, 4> Head(GEP->idx_begin(), GEP->idx_begin() + Last);
  SmallVector<Value *, 4> Tail{ConstantInt::get(I64, 0)};
  Tail.append(GEP->idx_begin() + Last, GEP->idx_end());
  Type *At = GetElementPtrInst::getIndexedType(GEP->getSourceElementType(),
                                               Head);
  if (!At)
    return true;
  int64_t More = DL.getIndexedOffsetInType(At, Tail);
  if (More < 0 || uint64_t(More) + Offset > UINT32_MAX)
    return true;
  Offset += uint64_t(More);
  FB = {nullptr, GEP, Last};
  return true;
}

// The base of a group, before its first access.
Value *Instrumenter::materialize(IRBuilder<> &B, const FieldBase &FB) {
  if (FB.Base)
    return B.CreatePointerCast(FB.Base, PtrTy);
  if (FB.Prefix == FB.Of->getNumIndices()) // the prefix is all of it
    return B.CreatePointerCast(FB.Of, PtrTy);
  SmallVector<Value *, 4> Head(FB.Of->idx_begin(),
                               FB.Of->idx_begin() + FB.Prefix);
  Value *P = B.CreateInBoundsGEP(FB.Of->getSourceElementType(),
                                 FB.Of->getPointerOperand(), Head);
  return B.CreatePointerCast(P, PtrTy);
}

// Accesses at fixed offsets from one base, in one block, under one answer
// (no call that may free between them): one test of the base against the
// start (none when the base is the origin, which is never below it) and one
// of the farthest end, before the first of them, instead of one or two
// each. When it fails, each is handed to __mdebug_access_fail, which
// reports those that are errors.
void Instrumenter::instrumentFields(ArrayRef<const Access *> Group,
                                   const FieldBase &FB,
                                   ArrayRef<uint64_t> Offsets) {
  uint64_t Far = 0;
  for (size_t K = 0; K < Group.size(); ++K) {
    mark(Group[K]->I);
    Far = std::max(Far, Offsets[K] + Group[K]->Size);
  }
  const Access &First = *Group.front();
  IRBuilder<> B(First.I);
  Value *Origin = B.CreatePointerCast(First.Origin, PtrTy);
  Value *At = materialize(B, FB);
  Value *AtInt = B.CreatePtrToInt(At, I64);
  Value *Out = B.CreateICmpUGT(B.CreateAdd(AtInt, ConstantInt::get(I64, Far)),
                               First.End);
  const DataLayout &DL = M.getDataLayout();
  if (FB.Base != First.Origin &&
      !std::all_of(Group.begin(), Group.end(), [&](const Access *A) {
        return atOrAboveOrigin(*A, DL);
      }))
    Out = B.CreateOr(B.CreateICmpULT(AtInt, First.Start), Out);
  B.SetInsertPoint(
      SplitBlockAndInsertIfThen(Out, First.I, /*Unreachable=*/false, Cold));
  for (size_t K = 0; K < Group.size(); ++K) {
    const Access &A = *Group[K];
    B.SetCurrentDebugLocation(A.I->getDebugLoc());
    Value *Addr =
        Offsets[K] ? B.CreateGEP(I8, At, ConstantInt::get(I64, Offsets[K]))
                   : At;
    CallInst *Fail = B.CreateCall(
        checkFn(CheckFn::access_fail),
        {Addr, Origin,
         ConstantInt::get(I64, MDEBUG_ACCESS_INFO(A.Size, A.Write, 0)),
         Sites.siteFor(*A.I)});
    Fail->setCallingConv(checkFnCallingConv(CheckFn::access_fail));
  }
}

void Instrumenter::instrumentAccess(const Access &A) {
  Instruction *I = A.I;
  mark(I);
  IRBuilder<> B(I);
  Value *Addr = B.CreatePtrToInt(A.Ptr, I64);
  Value *Out =
      B.CreateICmpUGT(B.CreateAdd(Addr, ConstantInt::get(I64, A.Size)), A.End);
  // Every answer's start is at or below its origin (access.h), so an
  // address a constant number of bytes past the origin needs no test
  // against the start: a field of a structure costs one compare.
  FieldBase FB;
  uint64_t Offset;
  if ((!fieldOf(A, FB, Offset) || FB.Base != A.Origin) &&
      !atOrAboveOrigin(A, M.getDataLayout()))
    Out = B.CreateOr(B.CreateICmpULT(Addr, A.Start), Out);
  B.SetInsertPoint(
      SplitBlockAndInsertIfThen(Out, I, /*Unreachable=*/false, Cold));
  CallInst *Fail = B.CreateCall(
      checkFn(CheckFn::access_fail),
      {B.CreatePointerCast(A.Ptr, PtrTy), B.CreatePointerCast(A.Origin, PtrTy),
       ConstantInt::get(I64, MDEBUG_ACCESS_INFO(A.Size, A.Write, 0)),
       Sites.siteFor(*I)});
  Fail->setCallingConv(checkFnCallingConv(CheckFn::access_fail));
}

//===-- Memory intrinsics, C library calls, strings ----------------------------===//

void Instrumenter::instrumentIntrinsic(MemIntrinsic *MI) {
  mark(MI);
  Value *Len = MI->getLength();
  if (auto *C = dyn_cast<ConstantInt>(Len))
    if (C->isZero())
      return;
  const CheckedEntry *E = findCheckedEntry(
      isa<MemSetInst>(MI) ? "memset"
                          : isa<MemMoveInst>(MI) ? "memmove" : "memcpy");
  auto Check = [&](Value *Ptr, bool Write) {
    if (skipReason(Ptr) != NotSkipped)
      return;
    IRBuilder<> B(MI);
    B.SetInsertPoint(ifInHeap(B, Ptr, MI).Then);
    B.CreateCall(checkFn(CheckFn::check_range),
                 {B.CreatePointerCast(Ptr, PtrTy), B.CreateZExtOrTrunc(Len, I64),
                  ConstantInt::get(I64, MDEBUG_ACCESS_INFO(0, Write, E->Via)),
                  Sites.siteFor(*MI)});
  };
  Check(MI->getRawDest(), true);
  if (auto *MT = dyn_cast<MemTransferInst>(MI))
    Check(MT->getRawSource(), false);
}

// Under typed pointers (LLVM 14) `char *` and `FILE *` arguments are cast
// to the entry point's `i8*`; under opaque pointers nothing is emitted.
static Value *castTo(IRBuilder<> &B, Value *V, Type *Ty) {
  if (V->getType() == Ty)
    return V;
  return B.CreateBitOrPointerCast(V, Ty);
}

void Instrumenter::rewriteCall(CallBase *CB, const CheckedEntry &E) {
  FunctionType *Ty = checkedEntryType(Ctx, E);
  // Typed pointers only: a wchar_t * result (i32*) is cast back from the
  // entry point's i8* after a call; after an invoke there is no place to.
  bool CastResult = CB->getType() != Ty->getReturnType();
  if (CastResult && (isa<InvokeInst>(CB) || !CB->getType()->isPointerTy()))
    return;
  FunctionCallee Callee = M.getOrInsertFunction(checkedEntryName(E), Ty);
  IRBuilder<> B(CB);
  unsigned Named = Ty->getNumParams() - 1;
  SmallVector<Value *, 8> Args;
  for (unsigned I = 0; I < Named; ++I)
    Args.push_back(castTo(B, CB->getArgOperand(I), Ty->getParamType(I)));
  Args.push_back(Sites.siteFor(*CB));
  for (unsigned I = Named, N = CB->arg_size(); I < N; ++I)
    Args.push_back(CB->getArgOperand(I)); // the variable arguments
  SmallVector<OperandBundleDef, 1> Bundles;
  CB->getOperandBundlesAsDefs(Bundles);
  CallBase *New;
  if (auto *II = dyn_cast<InvokeInst>(CB)) {
    New = B.CreateInvoke(Callee, II->getNormalDest(), II->getUnwindDest(), Args,
                         Bundles);
  } else {
    auto *CI = B.CreateCall(Callee, Args, Bundles);
    CI->setTailCallKind(cast<CallInst>(CB)->getTailCallKind());
    New = CI;
  }
  New->setCallingConv(CB->getCallingConv());
  New->setDebugLoc(CB->getDebugLoc());
  mark(New);
  New->takeName(CB);
  Value *Result = New;
  if (CastResult) {
    B.SetInsertPoint(CB);
    Result = B.CreateBitCast(New, CB->getType());
  }
  CB->replaceAllUsesWith(Result);
  CB->eraseFromParent();
}

// A checked C library function whose address the program takes (`f =
// &memcpy`, a table of handlers, an argument): the instructions that take
// it get a wrapper of its prototype instead, which calls its checked entry
// point with the site of the first of them, so that a call through the
// pointer is checked as a direct call is (all of them, MDEBUG_HOT ones
// included: such calls are rare). Only uses by instructions: a constant
// initializer keeps the function's own address. A wrapper's address is its
// module's own, so two modules' &memcpy no longer compare equal.
unsigned Instrumenter::wrapAddressTaken() {
  SmallVector<std::pair<Function *, const CheckedEntry *>, 4> Taken;
  for (Function &F : M)
    if (const CheckedEntry *E = matchAddressTaken(F))
      Taken.emplace_back(&F, E);
  unsigned Wrapped = 0;
  for (auto &[F, E] : Taken) {
    SmallVector<Use *, 4> Uses;
    for (Use &U : F->uses()) {
      auto *I = dyn_cast<Instruction>(U.getUser());
      auto *CB = dyn_cast_or_null<CallBase>(I);
      if (I && !(CB && CB->isCallee(&U)) && !I->getMetadata(MarkID))
        Uses.push_back(&U);
    }
    if (Uses.empty())
      continue;
    auto *First = cast<Instruction>(Uses.front()->getUser());
    Function *W = Function::Create(F->getFunctionType(),
                                   GlobalValue::InternalLinkage,
                                   "__mdebug_fp_" + F->getName(), M);
    W->addFnAttr("frame-pointer", "all");
    IRBuilder<> B(BasicBlock::Create(Ctx, "entry", W));
    FunctionType *Ty = checkedEntryType(Ctx, *E);
    SmallVector<Value *, 8> Args;
    for (Argument &A : W->args())
      Args.push_back(castTo(B, &A, Ty->getParamType(A.getArgNo())));
    Args.push_back(Sites.siteFor(*First));
    CallInst *Call =
        B.CreateCall(M.getOrInsertFunction(checkedEntryName(*E), Ty), Args);
    mark(Call);
    if (W->getReturnType()->isVoidTy())
      B.CreateRetVoid();
    else
      B.CreateRet(castTo(B, Call, W->getReturnType()));
    for (Use *U : Uses)
      U->set(W);
    ++Wrapped;
  }
  return Wrapped;
}

void Instrumenter::checkString(CallBase *CB, const CheckedEntry &E) {
  mark(CB);
  IRBuilder<> B(CB);
  Value *Max = CB->arg_size() == 3 ? CB->getArgOperand(1)
                                   : ConstantInt::getAllOnesValue(I64);
  B.CreateCall(checkFn(CheckFn::check_string),
               {B.CreatePointerCast(CB->getArgOperand(0), PtrTy),
                B.CreateZExtOrTrunc(Max, I64),
                ConstantInt::get(I64, MDEBUG_ACCESS_INFO(0, false, E.Via)),
                Sites.siteFor(*CB)});
}

// The loads and stores, once every lookup is placed. The field accesses of
// one base (fieldOf) in one block under one answer share a check
// (instrumentFields): grouped in program order (collect walks each block in
// order), before any check splits a block, and only with nothing between
// them that may not go on to the next instruction (a call that may exit,
// longjmp or throw): the check would report before the first what the
// program might never reach.
void Instrumenter::instrumentAccesses() {
  DenseMap<Instruction *, unsigned> Stretch;
  for (const Access &A : Accesses) {
    BasicBlock *BB = A.I->getParent();
    if (Stretch.count(&BB->front()))
      continue;
    unsigned N = 0;
    for (Instruction &I : *BB) {
      Stretch[&I] = N;
      if (!isGuaranteedToTransferExecutionToSuccessor(&I))
        ++N;
    }
  }
  struct Group {
    FieldBase Base;
    SmallVector<const Access *, 4> Members;
    SmallVector<uint64_t, 4> Offsets;
  };
  std::map<std::vector<const void *>, unsigned> GroupOf;
  std::vector<Group> Groups;
  SmallVector<const Access *, 64> Alone;
  for (const Access &A : Accesses) {
    FieldBase FB;
    uint64_t Offset;
    if (A.Redundant) {
      Skipped[SkipSame]++;
    } else if (!Opts.Share || !fieldOf(A, FB, Offset)) {
      Alone.push_back(&A);
    } else {
      std::vector<const void *> Key{A.I->getParent(),
                                    (const void *)(uintptr_t)Stretch[A.I],
                                    A.Origin, (Value *)A.Start,
                                    (Value *)A.End, FB.Base};
      if (!FB.Base) {
        Key.push_back(FB.Of->getPointerOperand());
        Key.push_back(FB.Of->getSourceElementType());
        Key.insert(Key.end(), FB.Of->idx_begin(),
                   FB.Of->idx_begin() + FB.Prefix);
      }
      auto [It, New] = GroupOf.try_emplace(Key, Groups.size());
      if (New)
        Groups.push_back({FB, {}, {}});
      Groups[It->second].Members.push_back(&A);
      Groups[It->second].Offsets.push_back(Offset);
    }
  }
  for (const Access *A : Alone)
    instrumentAccess(*A);
  for (const Group &G : Groups) {
    if (G.Members.size() == 1)
      instrumentAccess(*G.Members.front());
    else
      instrumentFields(G.Members, G.Base, G.Offsets);
  }
}

bool Instrumenter::run() {
  Placeholder = Function::Create(FunctionType::get(AnswerTy, {PtrTy}, false),
                                 GlobalValue::ExternalLinkage,
                                 "mdebug.revalidate", M);
  LookupPlaceholder =
      Function::Create(FunctionType::get(AnswerTy, {PtrTy}, false),
                       GlobalValue::ExternalLinkage, "mdebug.lookup", M);
  for (Function &F : M) {
    if (!wantFunction(F))
      continue;
    size_t First = Accesses.size();
    DominatorTree DT(F);
    collect(F, DT, Accesses);
    if (Accesses.size() > First) {
      placeLookups(F, DT,
                   MutableArrayRef<Access>(Accesses).drop_front(First));
      if (Opts.SplitCold && !F.getEntryCount())
        F.setEntryCount(
            Function::ProfileCount(SplitEntryCount, Function::PCT_Real));
    }
  }
  Placeholder->eraseFromParent();
  LookupPlaceholder->eraseFromParent();
  instrumentAccesses();
  for (MemIntrinsic *MI : Intrinsics)
    instrumentIntrinsic(MI);
  for (auto &[CB, E] : Strings)
    checkString(CB, *E);
  for (auto &[CB, E] : Calls)
    rewriteCall(CB, *E);
  unsigned Wrapped = Opts.Calls || Opts.LibCalls ? wrapAddressTaken() : 0;
  if (Opts.Stats)
    errs() << "mdebug: " << M.getSourceFileName() << ": " << Seen
           << " loads and stores, " << Skipped[SkipStack] << " on the stack, "
           << Skipped[SkipGlobal] << " in globals, "
           << Accesses.size() - Skipped[SkipSame] << " checked ("
           << Skipped[SkipSame] << " more checked before) with " << Lookups
           << " block lookups and "
           << Revalidations << " revalidations; " << Intrinsics.size()
           << " memory intrinsics, " << Calls.size() << " library calls, "
           << Strings.size() << " strdup reads; " << Sites.count()
           << " sites\n";
  return !Accesses.empty() || !Intrinsics.empty() || !Calls.empty() ||
         !Strings.empty() || Wrapped;
}

void addAccessPasses(ModulePassManager &MPM, const AccessOptions &Opts) {
  if (Opts.any())
    MPM.addPass(MdebugAccessPass(Opts));
}

PreservedAnalyses MdebugAccessPass::run(Module &M, ModuleAnalysisManager &) {
  if (!Opts.any())
    return PreservedAnalyses::all();
  bool Changed = Instrumenter(M, Opts).run();
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace mdebug
