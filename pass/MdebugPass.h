//===- MdebugPass.h - the allocation-site rewrite ---------------*- C++ -*-===//
//
// Owns the module pass that turns every allocation call (see AllocCalls.h)
// into a call of its __mdebug_* entry point with a site descriptor as the
// last argument. Registration lives in Plugin.cpp, never here.
//
//===----------------------------------------------------------------------===//

#ifndef MDEBUG_PASS_MDEBUGPASS_H
#define MDEBUG_PASS_MDEBUGPASS_H

#include "llvm/IR/PassManager.h"

namespace mdebug {

class MdebugPass : public llvm::PassInfoMixin<MdebugPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

  /// Also at -O0 and on optnone functions: an uninstrumented allocation
  /// would lose its site and break the pairing checks of the runtime.
  static bool isRequired() { return true; }

  /// The name of the pass in -passes= pipelines.
  static llvm::StringRef pipelineName() { return "mdebug"; }
};

} // namespace mdebug

#endif // MDEBUG_PASS_MDEBUGPASS_H
