//===- Plugin.cpp - how the pass gets into a compilation ------------------===//
//
// Owns registration only; one shared object serves three doors:
//  - `opt -load-pass-plugin=libmdebugpass.so -passes=mdebug`, and any
//    default pipeline of a tool that loads it (llvmGetPassPluginInfo);
//  - `clang -fpass-plugin=libmdebugpass.so` (same entry point);
//  - `clang -fplugin=libmdebugpass.so` alone: a frontend plugin action that
//    runs before the main action and hands this object to the backend.
// The pass is added at the pipeline start, so it runs at -O0 to -O3, -Os,
// -Oz and in the -flto pre-link pipeline, before LLVM deletes or merges
// malloc/free pairs. Must never contain pass logic or version #ifs (those go
// to Compat.h), and the frontend action must never touch the AST.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "MdebugPass.h"

#include "mdebug/version.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/FileSystem.h"

#include <dlfcn.h>

#include <memory>
#include <string>
#include <vector>

using namespace llvm;

namespace mdebug {

static constexpr char PluginName[] = "mdebug";
static constexpr char PluginDescription[] =
    "rewrite allocation calls into __mdebug_* calls with a call-site "
    "descriptor (runs the mdebug LLVM pass)";

static void registerPass(PassBuilder &PB) {
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, auto /*OptimizationLevel*/) {
        MPM.addPass(MdebugPass());
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != MdebugPass::pipelineName())
          return false;
        MPM.addPass(MdebugPass());
        return true;
      });
}

/// The file this code was loaded from, as the loader was given it.
static std::string selfPath() {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&selfPath), &Info) || !Info.dli_fname)
    return std::string();
  return Info.dli_fname;
}

static bool samePlugin(const std::string &A, const std::string &B) {
  bool Same = false;
  return A == B || (!sys::fs::equivalent(A, B, Same) && Same);
}

/// Whether -fpass-plugin= (or an earlier -fplugin= run) already names us.
static bool alreadyInBackend(const std::vector<std::string> &PassPlugins,
                             const std::string &Self) {
  for (const std::string &Plugin : PassPlugins)
    if (samePlugin(Plugin, Self))
      return true;
  return false;
}

namespace {

/// `-fplugin=` loads a frontend plugin, not a pass: this action, run before
/// the main one, makes the backend run the pass too. CodeGen has already
/// copied most of its options when this runs (so debug locations cannot be
/// switched on here), but it reads the pass plugin list only when it builds
/// the optimisation pipeline.
class MdebugAction : public clang::PluginASTAction {
protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, StringRef) override {
    enableBackendPass(CI);
    return std::make_unique<clang::ASTConsumer>();
  }

  bool ParseArgs(const clang::CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  static void enableBackendPass(clang::CompilerInstance &CI) {
    std::string Self = selfPath();
    clang::CodeGenOptions &Opts = CI.getCodeGenOpts();
    if (alreadyInBackend(Opts.PassPlugins, Self) ||
        compat::addPassToBackend(Opts, Self, registerPass))
      return;
    clang::DiagnosticsEngine &Diags = CI.getDiagnostics();
    Diags.Report(Diags.getCustomDiagID(
        clang::DiagnosticsEngine::Error,
        "mdebug: cannot locate the plugin's own file; add "
        "-fpass-plugin=<path to libmdebugpass.so>"));
  }
};

} // namespace

static clang::FrontendPluginRegistry::Add<MdebugAction>
    RegisterAction(PluginName, PluginDescription);

} // namespace mdebug

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, mdebug::PluginName, MDEBUG_VERSION_STRING,
          mdebug::registerPass};
}
