# lit configuration for every mdebug suite: pass rewrites (opt | FileCheck),
# runtime behaviours (programs built with mdebug-clang and run), the wrapper's
# command lines, and unit tests of runtime modules.
import os
import lit.formats

config.name = "mdebug"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".c", ".cpp", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mdebug_obj_root, "test")

# Programs under test must not inherit the developer's settings.
for var in ["MDEBUG_OPTIONS", "MDEBUG_CLANG", "MDEBUG_CLANGXX", "LD_PRELOAD",
            "ASAN_OPTIONS"]:
    config.environment.pop(var, None)
config.environment["PATH"] = os.pathsep.join(
    [config.mdebug_bin_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])

bin_dir, lib_dir = config.mdebug_bin_dir, config.mdebug_lib_dir
config.substitutions += [
    ("%mdebug_clangxx", os.path.join(bin_dir, "mdebug-clang++")),
    ("%mdebug_clang", os.path.join(bin_dir, "mdebug-clang")),
    ("%mdebugpass", os.path.join(lib_dir, "libmdebugpass.so")),
    ("%mdebug_rt_a", os.path.join(lib_dir, "libmdebug-rt.a")),
    ("%mdebug_rt_so", os.path.join(lib_dir, "libmdebug-rt.so")),
    ("%mdebug_src", config.mdebug_src_root),
    ("%mdebug_include", os.path.join(config.mdebug_src_root, "runtime", "include")),
    ("%clangxx", config.clangxx),
    ("%clang", config.clang),
    ("%opt", config.opt),
    ("%FileCheck", config.filecheck),
    ("%not", config.not_tool),
    ("%python", config.python_executable),
]
