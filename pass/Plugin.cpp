//===- Plugin.cpp - how the pass gets into a compilation ------------------===//
//
// Owns registration of the pass, in libmdebugpass.so:
//  - `opt -load-pass-plugin=libmdebugpass.so -passes=mdebug`, and any
//    default pipeline of a tool that loads it (llvmGetPassPluginInfo);
//  - `clang -fpass-plugin=libmdebugpass.so` (same entry point);
//  - `clang -fplugin=libmdebugpass.so`: when loaded into a process that has
//    Clang's frontend plugin registry, this object loads its Clang half
//    (ClangPlugin.cpp, see Plugin.h) whose action hands the pass to the
//    backend.
// Before any of that, a load-time constructor refuses an LLVM of another
// major version (HostCheck.h). The allocation rewrite is added at the
// pipeline start, so it runs at -O0 to -O3, -Os, -Oz and in the -flto
// pre-link pipeline, before LLVM deletes or merges malloc/free pairs; the
// access checks (AccessCheck.h) at the optimiser's end, in the same
// pipelines. Must never contain pass logic or version #ifs (those go to
// Compat.h).
//
//===----------------------------------------------------------------------===//

#include "AccessCheck.h"
#include "HostCheck.h"
#include "MdebugPass.h"
#include "Plugin.h"
#include "SiteTypes.h"

#include "mdebug/version.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

#include <dlfcn.h>
#include <stdio.h>

#include <string>

using namespace llvm;

namespace mdebug {

static void registerPass(PassBuilder &PB) {
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, auto /*OptimizationLevel*/) {
        MPM.addPass(MdebugPass());
      });
  // Last, as AddressSanitizer: the checks see the accesses the optimiser
  // kept and do not hinder it. Also at -O0 and in -flto's pre-link step.
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, auto &&.../*level, LTO phase*/) {
        addAccessPasses(MPM, AccessOptions::fromCommandLine());
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == MdebugPass::pipelineName()) {
          MPM.addPass(MdebugPass());
          return true;
        }
        bool Accesses = Name == MdebugAccessPass::accessPipelineName();
        if (!Accesses && Name != MdebugAccessPass::callsPipelineName())
          return false;
        AccessOptions Opts = AccessOptions::fromCommandLine();
        Opts.Accesses = Accesses;
        Opts.Calls = true;
        MPM.addPass(MdebugAccessPass(Opts));
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

/// Clang's frontend plugin registry (llvm::Registry<clang::PluginASTAction>
/// ::add_node, the same mangled name from LLVM 14 to 19): present in clang,
/// absent from opt and other LLVM-only tools.
static bool hostHasClangFrontend() {
  return dlsym(RTLD_DEFAULT, "_ZN4llvm8RegistryIN5clang15PluginASTActionEE8"
                             "add_nodeEPNS3_4nodeE") != nullptr;
}

/// Loads libmdebugpass-clang.so from this object's directory, which
/// registers the -fplugin action, and tells it how to add the pass.
static void loadClangPlugin(const std::string &Self) {
  std::string::size_type Slash = Self.rfind('/');
  std::string Dir = Slash == std::string::npos ? "." : Self.substr(0, Slash);
  std::string Path = Dir + "/" + ClangPluginFile;
  void *Handle = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
  auto Attach = Handle ? reinterpret_cast<ClangPluginAttachFn>(
                             dlsym(Handle, ClangPluginAttachSymbol))
                       : nullptr;
  if (!Attach) {
    // -fpass-plugin= still works; say why -fplugin= alone will not.
    fprintf(stderr,
            "mdebug: warning: cannot load %s (%s); -fplugin= alone will not "
            "run the pass, add -fpass-plugin=%s\n",
            Path.c_str(), dlerror(), Self.c_str());
    return;
  }
  Attach(Self.c_str(), registerPass, siteTypeSink());
}

__attribute__((constructor)) static void onLoad() {
  std::string Self = selfPath();
  refuseForeignHost(Self.c_str());
  if (hostHasClangFrontend())
    loadClangPlugin(Self);
}

} // namespace mdebug

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, mdebug::PluginName, MDEBUG_VERSION_STRING,
          mdebug::registerPass};
}
