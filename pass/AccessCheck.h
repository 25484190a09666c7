//===- AccessCheck.h - checked heap accesses and calls ----------*- C++ -*-===//
//
// Owns the module pass that checks heap accesses where they happen: loads,
// stores and atomics (with -mdebug-check-access), memory intrinsics and the
// C library calls of checks.def (with either option), against the blocks of
// mdebug's heap. It runs last in the optimisation pipeline (as
// AddressSanitizer does), so it sees the accesses that remain once
// promoted, merged and vectorised, and leaves the optimiser's work alone.
// Registration lives in Plugin.cpp, never here.
//
//===----------------------------------------------------------------------===//

#ifndef MDEBUG_PASS_ACCESSCHECK_H
#define MDEBUG_PASS_ACCESSCHECK_H

#include "llvm/IR/PassManager.h"

namespace mdebug {

/// What the pass checks and how; from the -mdebug-* options by default.
struct AccessOptions {
  bool Accesses = false; ///< loads, stores, atomics
  bool Calls = false;    ///< memory intrinsics, checks.def calls, strdup
  bool LibCalls = false; ///< the checks.def calls not marked MDEBUG_HOT,
                         ///< strdup (on in every build by default)
  bool SkipStack = true;   ///< accesses based on an alloca (or byval)
  bool SkipGlobals = true; ///< accesses based on a global
  bool Share = true;       ///< one block lookup per origin pointer in an
                           ///< extended basic block, with no call between
  bool Origin = true;      ///< also check the origin pointer's slot
  bool Inline = true;      ///< probe the thread's cache before calling
  bool SplitCold = false;  ///< entry counts for the machine function
                           ///< splitter, which moves cold blocks out
  bool Stats = false;      ///< print what was checked and skipped

  /// The -mdebug-check-access, -mdebug-check-calls and -mdebug-access-*
  /// options as given (the plugin must have been loaded before the options
  /// were parsed: -fplugin=, or opt -load).
  static AccessOptions fromCommandLine();
  /// Whether these options check anything at all.
  bool any() const { return Accesses || Calls || LibCalls; }
};

class MdebugAccessPass : public llvm::PassInfoMixin<MdebugAccessPass> {
public:
  explicit MdebugAccessPass(AccessOptions Opts) : Opts(Opts) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

  /// Also at -O0 and on optnone functions.
  static bool isRequired() { return true; }

  /// -passes=mdebug-access (accesses and calls) and -passes=mdebug-calls
  /// (calls only); the other options from the command line.
  static llvm::StringRef accessPipelineName() { return "mdebug-access"; }
  static llvm::StringRef callsPipelineName() { return "mdebug-calls"; }

private:
  AccessOptions Opts;
};

/// What the optimiser's end gets (Plugin.cpp): the pass, if \p Opts check
/// anything.
void addAccessPasses(llvm::ModulePassManager &MPM, const AccessOptions &Opts);

} // namespace mdebug

#endif // MDEBUG_PASS_ACCESSCHECK_H
