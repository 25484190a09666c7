//===- ClangPlugin.cpp - the -fplugin= door, in libmdebugpass-clang.so ----===//
//
// Owns the Clang frontend action that makes `clang -fplugin=libmdebugpass.so`
// run the pass: libmdebugpass.so loads this object when it finds itself in
// clang (Plugin.h says why it is a separate file). The action runs before
// the main one and hands the pass to the backend; CodeGen has already copied
// most of its options by then (so debug locations cannot be switched on
// here), but it reads the pass plugin list only when it builds the
// optimisation pipeline. Its AST consumer (AllocTypes.cpp) runs before the
// code generator's and tells the pass what each allocation call allocates.
// Must never read the AST itself, hold pass logic, or test the LLVM version
// (Compat.h does).
//
//===----------------------------------------------------------------------===//

#include "AllocTypes.h"
#include "Compat.h"
#include "Plugin.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/Support/FileSystem.h"

#include <memory>
#include <string>
#include <vector>

using namespace llvm;

namespace mdebug {

static constexpr char PluginDescription[] =
    "rewrite allocation calls into __mdebug_* calls with a call-site "
    "descriptor (runs the mdebug LLVM pass)";

/// Set once by libmdebugpass.so right after it loads this object.
static std::string PassPluginPath;
static RegisterPassFn RegisterPass;
static const SiteTypeSink *Types;

static bool samePlugin(const std::string &A, const std::string &B) {
  bool Same = false;
  return A == B || (!sys::fs::equivalent(A, B, Same) && Same);
}

/// Whether -fpass-plugin= (or an earlier -fplugin= run) already names it.
static bool alreadyInBackend(const std::vector<std::string> &PassPlugins) {
  for (const std::string &Plugin : PassPlugins)
    if (samePlugin(Plugin, PassPluginPath))
      return true;
  return false;
}

namespace {

class MdebugAction : public clang::PluginASTAction {
protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, StringRef) override {
    enableBackendPass(CI);
    return createAllocTypeConsumer(Types);
  }

  bool ParseArgs(const clang::CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  static void enableBackendPass(clang::CompilerInstance &CI) {
    clang::CodeGenOptions &Opts = CI.getCodeGenOpts();
    if (RegisterPass && (alreadyInBackend(Opts.PassPlugins) ||
                         compat::addPassToBackend(Opts, PassPluginPath,
                                                  RegisterPass)))
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

extern "C" LLVM_ATTRIBUTE_USED void
mdebug_clang_plugin_attach(const char *PassPluginPath,
                           mdebug::RegisterPassFn Register,
                           const mdebug::SiteTypeSink *Types) {
  mdebug::PassPluginPath = PassPluginPath ? PassPluginPath : "";
  mdebug::RegisterPass = Register;
  mdebug::Types = Types;
}
