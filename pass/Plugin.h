//===- Plugin.h - the contract between the plugin's two objects -*- C++ -*-===//
//
// libmdebugpass.so is the file users name, at all three doors (-fplugin=,
// -fpass-plugin=, opt -load-pass-plugin=). It holds the pass and needs only
// LLVM. The Clang frontend action lives in libmdebugpass-clang.so beside it,
// which needs Clang's symbols and is loaded by libmdebugpass.so only inside
// a process that has them: opt has no Clang, and from LLVM 19 loading
// libclang-cpp into opt aborts ("Option 'pgo-cold-func-opt' registered more
// than once"). This header owns the names and the one call between them.
//
//===----------------------------------------------------------------------===//

#ifndef MDEBUG_PASS_PLUGIN_H
#define MDEBUG_PASS_PLUGIN_H

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace mdebug {

constexpr char PluginName[] = "mdebug";

/// The frontend object's file name, looked up beside libmdebugpass.so.
constexpr char ClangPluginFile[] = "libmdebugpass-clang.so";

/// Registers the pass with a PassBuilder (defined in libmdebugpass.so).
using RegisterPassFn = void (*)(llvm::PassBuilder &);

struct SiteTypeSink; // SiteTypes.h

/// extern "C" in libmdebugpass-clang.so: tells the frontend action which
/// file to hand to the backend (LLVM 14 to 17), which function registers
/// the pass (18 and later) and where to put the allocated types it reads
/// from the AST (SiteTypes.h). Called once, right after the object is
/// loaded.
constexpr char ClangPluginAttachSymbol[] = "mdebug_clang_plugin_attach";
using ClangPluginAttachFn = void (*)(const char *PassPluginPath,
                                     RegisterPassFn Register,
                                     const SiteTypeSink *Types);

} // namespace mdebug

#endif // MDEBUG_PASS_PLUGIN_H
