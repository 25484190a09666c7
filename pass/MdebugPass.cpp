//===- MdebugPass.cpp - the allocation-site rewrite -----------------------===//
//
// Owns the rewrite: collect every allocation call of the module first, then
// replace each one with a call (or invoke) of __mdebug_<NAME>(args..., &site)
// where `site` is a struct mdebug_site (runtime/include/mdebug/site.h) in
// the section "mdebug_sites": writable data, not a constant, since the
// runtime stores the site's origin id in it (origin_id). Also marks
// rewritten functions "frame-pointer"="all" and adds one constructor that
// references the ABI version symbol, so a stale runtime fails at link time.
// The element count a delete[] expression reads from its array cookie goes
// through __mdebug_array_cookie (checks.def) before the destructors run,
// with the delete[]'s site (ArrayCookie.h).
//
// An indirect call through a pointer of malloc's, calloc's, realloc's or
// free's exact type (AllocCalls.h) gets a site too, without changing what
// it calls: it becomes `fn == &malloc ? __mdebug_malloc(args..., &site) :
// fn(args...)`, so an allocator reached through a replaceable pointer
// (libuv's uv__malloc) is named at the call's line while any other function
// of that type is called as before. The compare folds away where the
// pointer is known, so devirtualization still happens. Left alone: a
// module that defines the allocator itself (its pointer is not the
// runtime's), and invokes.
//
// Must never: give the new calls or the __mdebug_* declarations allocation
// attributes (LLVM would then feel free to delete a malloc/free pair again);
// emit an optimisation remark named "mdebug" (the wrapper passes
// -Rpass=mdebug only to make Clang track locations without -g, and expects
// silence); touch functions named __mdebug*; rewrite an indirect call or a
// function whose address is merely taken; make a site descriptor constant,
// unnamed_addr or shared between calls (the runtime writes into it, and its
// address is the site's identity).
//
//===----------------------------------------------------------------------===//

#include "MdebugPass.h"
#include "AllocCalls.h"
#include "ArrayCookie.h"
#include "CheckedCalls.h"
#include "Compat.h"
#include "SiteHash.h"
#include "SiteTypes.h"
#include "SourceLocation.h"

#include "mdebug/site.h"
#include "mdebug/version.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <cstddef>
#include <string>
#include <utility>

using namespace llvm;

namespace mdebug {

// Names shared with the runtime, or visible in the emitted IR.
static constexpr char SkipPrefix[] = "__mdebug";
static constexpr char SiteSection[] = MDEBUG_SITE_SECTION;
static constexpr char VersionCheckName[] = MDEBUG_VERSION_CHECK_NAME;
static constexpr char CtorName[] = "mdebug.module_ctor";
static constexpr int CtorPriority = 1;
static constexpr char SiteGlobalName[] = "__mdebug_site";
static constexpr unsigned SiteAlign = 8;
// siteType() spells struct mdebug_site out by hand; the runtime reads and
// writes origin_id at this offset (runtime/src/origin.c asserts the same).
static_assert(sizeof(struct mdebug_site) == MDEBUG_SITE_SIZE &&
                  offsetof(struct mdebug_site, origin_id) ==
                      MDEBUG_SITE_ORIGIN_ID_OFFSET,
              "struct mdebug_site changed: update siteType() and bump "
              "MDEBUG_ABI_VERSION");

// Call-site function attributes are all dropped; these parameter attributes
// would tie the new call to an allocation family too (LLVM 15+; looked up by
// name so that older LLVMs simply do not know them).
static constexpr const char *AllocParamAttrs[] = {"allocalign", "allocptr"};

namespace {

/// The source-level facts of one call site, before they become constants.
/// Type is what the front says the call allocates, "" when it named none
/// (SiteTypes.h).
struct SiteFacts : SourceFacts {
  std::string Type;
};

using AllocCall = std::pair<CallBase *, const AllocEntry *>;

class ModuleRewriter {
public:
  explicit ModuleRewriter(Module &M);
  /// Returns the number of calls rewritten.
  unsigned run();

private:
  SmallVector<AllocCall, 16> collect();
  void rewrite(CallBase &Old, const AllocEntry &E);
  bool rewriteIndirect(CallInst &Old, const AllocEntry &E);
  void checkCookie(const CookieRead &R, const CallBase &Delete, Value *Site);
  CallBase *createCall(IRBuilder<> &B, CallBase &Old, FunctionCallee Callee,
                       ArrayRef<Value *> Args);
  SmallVector<Value *, 4> entryArgs(IRBuilder<> &B, CallBase &Old,
                                    FunctionType *EntryTy, const AllocEntry &E);
  SiteFacts factsFor(const CallBase &CB) const;
  Constant *siteFor(const CallBase &CB, const AllocEntry &E);
  Constant *stringFor(StringRef S);
  StructType *siteType() const;
  void addModuleCtor();

  Module &M;
  LLVMContext &Ctx;
  PointerType *PtrTy;
  StringMap<Constant *> Strings;
  SmallVector<GlobalValue *, 16> Sites;
  /// The cookie reads of the delete[] calls collected.
  DenseMap<const CallBase *, CookieRead> Cookies;
  /// The indirect calls collected (matchIndirectAllocCall).
  SmallVector<AllocCall, 4> Indirect;
};

} // namespace

ModuleRewriter::ModuleRewriter(Module &M)
    : M(M), Ctx(M.getContext()), PtrTy(compat::genericPointerType(Ctx)) {}

// StringRef::startswith became starts_with across the supported range;
// substr() is spelled the same everywhere.
static bool isRuntimeFunction(const Function &F) {
  StringRef Prefix(SkipPrefix);
  return F.getName().substr(0, Prefix.size()) == Prefix;
}

SmallVector<AllocCall, 16> ModuleRewriter::collect() {
  SmallVector<AllocCall, 16> Calls;
  for (Function &F : M) {
    if (F.isDeclaration() || isRuntimeFunction(F))
      continue;
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        if (const AllocEntry *E = matchAllocCall(*CB))
          Calls.emplace_back(CB, E);
        else if (const AllocEntry *E = matchIndirectAllocCall(*CB))
          Indirect.emplace_back(CB, E);
      }
  }
  for (auto &[CB, E] : Calls)
    if (E->Name.substr(0, 12) == "delete_array")
      if (std::optional<CookieRead> R = findCookieRead(*CB))
        Cookies[CB] = *R;
  return Calls;
}

unsigned ModuleRewriter::run() {
  SmallVector<AllocCall, 16> Calls = collect();
  for (auto &[CB, E] : Calls) {
    CB->getFunction()->addFnAttr("frame-pointer", "all");
    rewrite(*CB, *E);
  }
  unsigned Rewritten = Calls.size();
  for (auto &[CB, E] : Indirect)
    if (rewriteIndirect(cast<CallInst>(*CB), *E))
      Rewritten++;
  if (!Sites.empty())
    appendToCompilerUsed(M, Sites);
  if (Rewritten)
    addModuleCtor();
  return Rewritten;
}

//===-- The site descriptor -----------------------------------------------===//

/// struct mdebug_site, field by field (site.h):
/// { u64 id, const char *file, const char *function,
///   u32 line, u32 column, u32 op, u32 origin_id, const char *type }.
StructType *ModuleRewriter::siteType() const {
  Type *I64 = Type::getInt64Ty(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);
  return StructType::get(Ctx, {I64, PtrTy, PtrTy, I32, I32, I32, I32, PtrTy});
}

SiteFacts ModuleRewriter::factsFor(const CallBase &CB) const {
  SiteFacts Facts;
  static_cast<SourceFacts &>(Facts) = sourceFactsFor(CB);
  if (CB.getDebugLoc())
    Facts.Type = siteTypeAt(Facts.HashedFile, Facts.Line, Facts.Column,
                            Facts.Holder);
  return Facts;
}

// Strings are shared by all sites of the module; unnamed_addr lets the
// linker merge them further across modules.
Constant *ModuleRewriter::stringFor(StringRef S) {
  Constant *&Slot = Strings[S];
  if (!Slot)
    Slot = ConstantExpr::getPointerCast(makeSiteString(M, S), PtrTy);
  return Slot;
}

// One descriptor per call, never shared: its address is the run-time
// identity of the site. Not unnamed_addr and in llvm.compiler.used, so
// neither constant merging nor global DCE folds or drops it. Not constant:
// the runtime writes origin_id (0 here) the first time the site allocates,
// so the descriptor must be writable data (a constant would land in
// .rodata, or in RELRO once relocated, and the store would fault), and no
// load of it may be folded to the initializer.
//
// The id hashes the file name as the compiler recorded it, without the
// directory openablePath() joins in: that name is relative to the deepest
// directory the source shares with the build directory (a checkout with its
// build tree inside), so the same source keeps its ids wherever the checkout
// is moved, which an absolute path would not.
Constant *ModuleRewriter::siteFor(const CallBase &CB, const AllocEntry &E) {
  SiteFacts Facts = factsFor(CB);
  uint64_t Id = md_sitehash(Facts.HashedFile.data(), Facts.HashedFile.size(),
                            Facts.Function.data(), Facts.Function.size(),
                            Facts.Line, Facts.Column, E.Op);
  Type *I64 = Type::getInt64Ty(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);
  StructType *Ty = siteType();
  Constant *Init = ConstantStruct::get(
      Ty, {ConstantInt::get(I64, Id), stringFor(Facts.File),
           stringFor(Facts.Function), ConstantInt::get(I32, Facts.Line),
           ConstantInt::get(I32, Facts.Column), ConstantInt::get(I32, E.Op),
           ConstantInt::get(I32, 0), // origin_id: the runtime's
           Facts.Type.empty()
               ? static_cast<Constant *>(ConstantPointerNull::get(PtrTy))
               : stringFor(Facts.Type)});
  auto *GV =
      new GlobalVariable(M, Ty, /*isConstant=*/false,
                         GlobalValue::PrivateLinkage, Init, SiteGlobalName);
  GV->setSection(SiteSection);
  GV->setAlignment(Align(SiteAlign));
  Sites.push_back(GV);
  return ConstantExpr::getPointerCast(GV, PtrTy);
}

//===-- The call ----------------------------------------------------------===//

// Return and parameter attributes describe the values and stay; function
// attributes of the call site (builtin, allocsize, allockind,
// "alloc-family", nobuiltin, ...) describe the allocator and go.
// A variadic callee's missing arguments (padded by entryArgs) get none.
static AttributeList entryCallAttributes(const CallBase &Old,
                                         FunctionType *EntryTy) {
  LLVMContext &Ctx = Old.getContext();
  AttributeList Attrs = Old.getAttributes();
  SmallVector<AttributeSet, 4> ParamAttrs;
  for (unsigned I = 0, E = EntryTy->getNumParams() - 1; I != E; ++I) {
    if (I >= Old.arg_size()) {
      ParamAttrs.push_back(AttributeSet());
      continue;
    }
    AttributeSet AS = Attrs.getParamAttrs(I);
    for (const char *Name : AllocParamAttrs) {
      Attribute::AttrKind Kind = Attribute::getAttrKindFromName(Name);
      if (Kind != Attribute::None)
        AS = AS.removeAttribute(Ctx, Kind);
    }
    ParamAttrs.push_back(AS);
  }
  ParamAttrs.push_back(AttributeSet()); // the site
  return AttributeList::get(Ctx, AttributeSet(), Attrs.getRetAttrs(),
                            ParamAttrs);
}

// Under typed pointers (LLVM 14 default) `void **` or `char *` arguments are
// cast to the entry point's `i8*`; under opaque pointers nothing is emitted.
static Value *castTo(IRBuilder<> &B, Value *V, Type *Ty) {
  return V->getType() == Ty ? V : B.CreatePointerCast(V, Ty);
}

SmallVector<Value *, 4> ModuleRewriter::entryArgs(IRBuilder<> &B, CallBase &Old,
                                                  FunctionType *EntryTy,
                                                  const AllocEntry &E) {
  SmallVector<Value *, 4> Args;
  for (unsigned I = 0, N = Old.arg_size(); I != N; ++I)
    Args.push_back(castTo(B, Old.getArgOperand(I), EntryTy->getParamType(I)));
  // The variadic arguments a call left out (mremap without new_address).
  for (unsigned I = Old.arg_size(), N = EntryTy->getNumParams() - 1; I < N; ++I)
    Args.push_back(Constant::getNullValue(EntryTy->getParamType(I)));
  Args.push_back(siteFor(Old, E));
  return Args;
}

CallBase *ModuleRewriter::createCall(IRBuilder<> &B, CallBase &Old,
                                     FunctionCallee Callee,
                                     ArrayRef<Value *> Args) {
  SmallVector<OperandBundleDef, 1> Bundles;
  Old.getOperandBundlesAsDefs(Bundles);
  if (auto *II = dyn_cast<InvokeInst>(&Old))
    return B.CreateInvoke(Callee, II->getNormalDest(), II->getUnwindDest(),
                          Args, Bundles);
  CallInst *CI = B.CreateCall(Callee, Args, Bundles);
  CI->setTailCallKind(cast<CallInst>(Old).getTailCallKind());
  return CI;
}

void ModuleRewriter::rewrite(CallBase &Old, const AllocEntry &E) {
  FunctionType *EntryTy = entryPointType(Ctx, E);
  FunctionCallee Callee = M.getOrInsertFunction(entryPointName(E), EntryTy);
  IRBuilder<> B(&Old);
  SmallVector<Value *, 4> Args = entryArgs(B, Old, EntryTy, E);
  auto Cookie = Cookies.find(&Old);
  if (Cookie != Cookies.end())
    checkCookie(Cookie->second, Old, Args.back());
  CallBase *New = createCall(B, Old, Callee, Args);
  New->setCallingConv(Old.getCallingConv());
  New->setAttributes(entryCallAttributes(Old, EntryTy));
  New->setDebugLoc(Old.getDebugLoc());
  New->takeName(&Old);
  Old.replaceAllUsesWith(New);
  Old.eraseFromParent();
}

// fn(args) becomes
//   if (fn == &SYMBOL) r1 = __mdebug_NAME(args..., &site); else r2 = fn(args);
//   r = phi(r1, r2)
// the original call kept, untouched, on the else path. Returns false (and
// changes nothing) when this module defines SYMBOL (a function or an
// alias): its address is the module's own allocator, which must still be
// called.
bool ModuleRewriter::rewriteIndirect(CallInst &Old, const AllocEntry &E) {
  GlobalValue *Own = M.getNamedValue(E.Symbol);
  if (Own && !(isa<Function>(Own) && Own->isDeclaration()))
    return false; // defined here, or an alias of the module's own function
  FunctionType *EntryTy = entryPointType(Ctx, E);
  auto *Real = cast<Constant>(
      M.getOrInsertFunction(E.Symbol, Old.getFunctionType()).getCallee());
  Function *Caller = Old.getFunction();
  Caller->addFnAttr("frame-pointer", "all");
  IRBuilder<> B(&Old);
  B.SetCurrentDebugLocation(Old.getDebugLoc());
  Value *IsReal =
      B.CreateICmpEQ(castTo(B, Old.getCalledOperand(), PtrTy),
                     ConstantExpr::getPointerCast(Real, PtrTy), "mdebug.isalloc");
  Instruction *ThenTerm = nullptr, *ElseTerm = nullptr;
  SplitBlockAndInsertIfThenElse(IsReal, &Old, &ThenTerm, &ElseTerm);
  BasicBlock *Tail = Old.getParent();
  Old.moveBefore(ElseTerm);

  B.SetInsertPoint(ThenTerm);
  SmallVector<Value *, 4> Args = entryArgs(B, Old, EntryTy, E);
  FunctionCallee Callee = M.getOrInsertFunction(entryPointName(E), EntryTy);
  CallInst *New = B.CreateCall(Callee, Args);
  New->setDebugLoc(Old.getDebugLoc());
  if (Old.getType()->isVoidTy())
    return true;
  Value *Result = castTo(B, New, Old.getType());
  PHINode *Phi = PHINode::Create(Old.getType(), 2, "", &Tail->front());
  Phi->setDebugLoc(Old.getDebugLoc());
  Old.replaceAllUsesWith(Phi);
  Phi->addIncoming(Result, ThenTerm->getParent());
  Phi->addIncoming(&Old, ElseTerm->getParent());
  return true;
}

// The count goes through the runtime's check right after its load; every
// use (the destructor loop's bound, a sized delete's size) takes the
// checked count.
void ModuleRewriter::checkCookie(const CookieRead &R, const CallBase &Delete,
                                 Value *Site) {
  CheckFn F = CheckFn::array_cookie;
  FunctionType *Ty = checkFnType(Ctx, F);
  FunctionCallee Fn = M.getOrInsertFunction(checkFnName(F), Ty);
  IRBuilder<> B(R.Count->getNextNode());
  B.SetCurrentDebugLocation(Delete.getDebugLoc());
  Value *At = castTo(B, R.Count->getPointerOperand(), Ty->getParamType(0));
  CallInst *Checked = B.CreateCall(
      Fn, {At, R.Count, ConstantInt::get(Ty->getParamType(2), R.ElemSize),
           Site});
  Checked->setCallingConv(checkFnCallingConv(F));
  R.Count->replaceUsesWithIf(Checked,
                             [&](Use &U) { return U.getUser() != Checked; });
}

//===-- The ABI check -----------------------------------------------------===//

// An internal constructor calling MDEBUG_VERSION_CHECK_NAME: the reference is
// what matters (a runtime of another ABI version does not define the symbol,
// so the link fails); the call itself does nothing.
void ModuleRewriter::addModuleCtor() {
  if (M.getFunction(CtorName))
    return;
  FunctionType *VoidFn = FunctionType::get(Type::getVoidTy(Ctx), false);
  Function *Ctor =
      Function::Create(VoidFn, GlobalValue::InternalLinkage, CtorName, M);
  Ctor->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(Ctx, "", Ctor));
  B.CreateCall(M.getOrInsertFunction(VersionCheckName, VoidFn));
  B.CreateRetVoid();
  appendToGlobalCtors(M, Ctor, CtorPriority);
}

PreservedAnalyses MdebugPass::run(Module &M, ModuleAnalysisManager &) {
  unsigned Rewritten = ModuleRewriter(M).run();
  return Rewritten ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace mdebug
