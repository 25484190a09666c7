//===- AllocTypes.cpp - what each allocation call allocates, from the AST -===//
//
// Owns the rules that name the type an allocation call allocates, where the
// source says it, for the pass to put in the site descriptor. In order of
// precedence, for a call of malloc, calloc, realloc, reallocarray,
// aligned_alloc, memalign, valloc, pvalloc, posix_memalign or an explicit
// operator new:
//   1. its size is sizeof(T) or sizeof expr (T) or a product with one
//      (T[]); calloc(n, sizeof(T)) is T[] unless n is 1;
//   2. its result is cast to T * by an explicit cast: (T *)malloc(n),
//      static_cast<T *>(...);
//   3. its result is converted to T * implicitly (C: T *p = malloc(n));
//   4. realloc's (reallocarray's) pointer is a T *; posix_memalign's
//      output is the address of a T *.
// and `new T` / `new T[n]` (T, T[]). void is no type. The name is the type
// as written (a typedef keeps its name), without top-level qualifiers.
// Expressions in templates are read in each instantiation, never in the
// template itself. Must never register anything or hold pass logic.
//
//===----------------------------------------------------------------------===//

#include "AllocTypes.h"
#include "SiteTypes.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/GlobalDecl.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace clang;

namespace mdebug {

namespace {

/// Which arguments of an allocation function say something about the type.
struct AllocArgs {
  int Size = -1;    // the byte count (or the element size for calloc)
  int Count = -1;   // calloc's / reallocarray's element count
  int Pointer = -1; // realloc's old pointer, posix_memalign's output
  bool Out = false; // Pointer is the address where the result goes
};

bool allocArgs(const FunctionDecl *FD, AllocArgs &A) {
  OverloadedOperatorKind Op = FD->getOverloadedOperator();
  if (Op == OO_New || Op == OO_Array_New) {
    A.Size = 0;
    return FD->getNumParams() >= 1;
  }
  const IdentifierInfo *Id = FD->getIdentifier();
  if (!Id || !FD->isExternC())
    return false;
  int Params = (int)FD->getNumParams();
  A = llvm::StringSwitch<AllocArgs>(Id->getName())
          .Case("malloc", {0, -1, -1, false})
          .Case("calloc", {1, 0, -1, false})
          .Case("realloc", {1, -1, 0, false})
          .Case("reallocarray", {2, 1, 0, false})
          .Case("aligned_alloc", {1, -1, -1, false})
          .Case("memalign", {1, -1, -1, false})
          .Case("valloc", {0, -1, -1, false})
          .Case("pvalloc", {0, -1, -1, false})
          .Case("posix_memalign", {2, -1, 0, true})
          .Default(AllocArgs());
  return A.Size >= 0 && A.Size < Params && A.Count < Params &&
         A.Pointer < Params;
}

/// The type a sizeof in E names: `sizeof(T)`, `sizeof x` (Array false), or
/// a product with one (Array true). Null if none.
QualType sizeofType(const Expr *E, bool &Array) {
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryExprOrTypeTraitExpr>(E)) {
    if (U->getKind() != UETT_SizeOf)
      return QualType();
    Array = false;
    return U->getTypeOfArgument();
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() != BO_Mul)
      return QualType();
    bool Ignored;
    QualType T = sizeofType(B->getLHS(), Ignored);
    if (T.isNull())
      T = sizeofType(B->getRHS(), Ignored);
    Array = true;
    return T;
  }
  return QualType();
}

/// T of a T * (a pointer to void or to an incomplete function: null).
QualType pointee(QualType P) {
  const auto *PT = P.isNull() ? nullptr : P->getAs<PointerType>();
  if (!PT || PT->getPointeeType()->isVoidType() ||
      PT->getPointeeType()->isFunctionType())
    return QualType();
  return PT->getPointeeType();
}

/// What one call tells, by rule (the lower the number, the stronger).
struct Found {
  QualType Type;
  bool Array = false;
  int Rule = 99;
};

class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(ASTContext &Ctx, const SiteTypeSink &Sink)
      : Ctx(Ctx), Sink(Sink), Mangler(Ctx.createMangleContext()) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool TraverseDecl(Decl *D) {
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (FD)
      Functions.push_back(FD);
    bool Result = RecursiveASTVisitor::TraverseDecl(D);
    if (FD)
      Functions.pop_back();
    return Result;
  }

  bool VisitCXXNewExpr(CXXNewExpr *E) {
    note(E, E->getAllocatedType(), E->isArray(), 0);
    return true;
  }

  bool VisitCallExpr(CallExpr *E) {
    AllocArgs A;
    const FunctionDecl *FD = E->getDirectCallee();
    if (!FD || !allocArgs(FD, A) || (int)E->getNumArgs() <= A.Size)
      return true;
    bool Array = false;
    QualType T = sizeofType(E->getArg(A.Size), Array);
    if (!T.isNull() && A.Count >= 0 && A.Count < (int)E->getNumArgs()) {
      Expr::EvalResult R;
      const Expr *N = E->getArg(A.Count);
      bool One = !N->isValueDependent() && N->EvaluateAsInt(R, Ctx) &&
                 R.Val.getInt() == 1;
      Array = Array || !One;
    }
    note(E, T, Array, 1);
    if (A.Pointer >= 0 && A.Pointer < (int)E->getNumArgs()) {
      // (void **)&p, (void *)p: the type is the one before the cast.
      const Expr *P = E->getArg(A.Pointer)->IgnoreParenCasts();
      if (A.Out) {
        const auto *U = dyn_cast<UnaryOperator>(P);
        if (U && U->getOpcode() == UO_AddrOf)
          note(E, pointee(U->getSubExpr()->getType()), false, 4);
      } else {
        note(E, pointee(P->getType()), false, 4);
      }
    }
    return true;
  }

  bool VisitExplicitCastExpr(ExplicitCastExpr *E) {
    if (const CallExpr *C = allocCall(E->getSubExpr()))
      note(C, pointee(E->getType()), false, 2);
    return true;
  }

  bool VisitImplicitCastExpr(ImplicitCastExpr *E) {
    if (E->getCastKind() != CK_BitCast)
      return true;
    if (const CallExpr *C = allocCall(E->getSubExpr()))
      note(C, pointee(E->getType()), false, 3);
    return true;
  }

  /// Hands every call's strongest finding to the sink.
  void flush() {
    for (const auto &[E, F] : Calls) {
      if (F.Type.isNull())
        continue;
      std::string Name = typeName(F.Type) + (F.Array ? "[]" : "");
      std::vector<const char *> Names;
      for (const std::string &N : FunctionNames[Where[E].Function])
        Names.push_back(N.c_str());
      for (SourceLocation L : Where[E].Locations) {
        PresumedLoc P = Ctx.getSourceManager().getPresumedLoc(L);
        if (P.isValid())
          Sink.Add(P.getFilename(), P.getLine(), P.getColumn(), Names.data(),
                   Names.size(), Name.c_str());
      }
    }
  }

private:
  struct Place {
    const FunctionDecl *Function = nullptr;
    std::vector<SourceLocation> Locations;
  };

  const CallExpr *allocCall(const Expr *E) {
    const auto *C = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
    AllocArgs A;
    return C && C->getDirectCallee() && allocArgs(C->getDirectCallee(), A)
               ? C
               : nullptr;
  }

  /// Where Clang puts a call's debug location: the expansion location of
  /// the expression (the callee's name, `new`), and, to be safe, of its
  /// begin and of the callee's name (std::malloc).
  std::vector<SourceLocation> locationsOf(const Expr *E) {
    const SourceManager &SM = Ctx.getSourceManager();
    std::vector<SourceLocation> Ls;
    auto AddLoc = [&](SourceLocation L) {
      if (L.isInvalid())
        return;
      L = SM.getExpansionLoc(L);
      for (SourceLocation Seen : Ls)
        if (Seen == L)
          return;
      Ls.push_back(L);
    };
    AddLoc(E->getExprLoc());
    AddLoc(E->getBeginLoc());
    if (const auto *C = dyn_cast<CallExpr>(E))
      if (const Expr *Callee = C->getCallee())
        AddLoc(Callee->IgnoreParenImpCasts()->getExprLoc());
    return Ls;
  }

  void note(const Expr *E, QualType T, bool Array, int Rule) {
    if (T.isNull() || T->isDependentType() || T->isVoidType() ||
        E->isInstantiationDependent())
      return;
    const FunctionDecl *FD = Functions.empty() ? nullptr : Functions.back();
    if (FD && FD->isDependentContext())
      return;
    Found &F = Calls[E];
    if (Rule >= F.Rule)
      return;
    F = {T, Array, Rule};
    if (Where.find(E) == Where.end()) {
      Where[E] = {FD, locationsOf(E)};
      if (FD && FunctionNames.find(FD) == FunctionNames.end())
        FunctionNames[FD] = irNames(FD);
    }
  }

  std::string typeName(QualType T) {
    PrintingPolicy Policy = Ctx.getPrintingPolicy();
    // Clang 16 and later wrap every named type in ElaboratedType sugar,
    // which prints the name as written ("circle" under a using-directive);
    // without it the declaration prints with its scope, as Clang 14 does.
    T = T.getUnqualifiedType();
    while (const auto *ET = dyn_cast<ElaboratedType>(T.getTypePtr()))
      T = ET->getNamedType().getUnqualifiedType();
    return T.getAsString(Policy);
  }

  /// The names the function's IR definitions get: a constructor or a
  /// destructor has several.
  std::vector<std::string> irNames(const FunctionDecl *FD) {
    std::vector<GlobalDecl> Decls;
    if (const auto *C = dyn_cast<CXXConstructorDecl>(FD)) {
      Decls.emplace_back(C, Ctor_Complete);
      Decls.emplace_back(C, Ctor_Base);
    } else if (const auto *D = dyn_cast<CXXDestructorDecl>(FD)) {
      Decls.emplace_back(D, Dtor_Complete);
      Decls.emplace_back(D, Dtor_Base);
      Decls.emplace_back(D, Dtor_Deleting);
    } else {
      Decls.emplace_back(FD);
    }
    std::vector<std::string> Names;
    for (const GlobalDecl &GD : Decls) {
      std::string S;
      llvm::raw_string_ostream OS(S);
      if (Mangler->shouldMangleDeclName(FD))
        Mangler->mangleName(GD, OS);
      else
        OS << FD->getName();
      Names.push_back(OS.str());
    }
    return Names;
  }

  ASTContext &Ctx;
  const SiteTypeSink &Sink;
  std::unique_ptr<MangleContext> Mangler;
  std::vector<const FunctionDecl *> Functions;
  llvm::DenseMap<const Expr *, Found> Calls;
  llvm::DenseMap<const Expr *, Place> Where;
  llvm::DenseMap<const FunctionDecl *, std::vector<std::string>> FunctionNames;
};

class AllocTypeConsumer : public ASTConsumer {
public:
  explicit AllocTypeConsumer(const SiteTypeSink *Sink) : Sink(Sink) {
    if (Sink)
      Sink->Clear();
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (!Sink || Ctx.getDiagnostics().hasErrorOccurred())
      return;
    Collector C(Ctx, *Sink);
    C.TraverseDecl(Ctx.getTranslationUnitDecl());
    C.flush();
  }

private:
  const SiteTypeSink *Sink;
};

} // namespace

std::unique_ptr<ASTConsumer> createAllocTypeConsumer(const SiteTypeSink *Sink) {
  return std::make_unique<AllocTypeConsumer>(Sink);
}

} // namespace mdebug
