# lit configuration for every mdebug suite: pass rewrites (opt | FileCheck),
# runtime behaviours (programs built with mdebug-clang and run), the wrapper's
# command lines, and unit tests of runtime modules.
import glob
import os
import re
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
    ("%mdebug_report", os.path.join(bin_dir, "mdebug-report")),
    ("%mdebug_run", os.path.join(bin_dir, "mdebug-run")),
    ("%mdebugpass_clang", os.path.join(lib_dir, "libmdebugpass-clang.so")),
    ("%mdebugpass", os.path.join(lib_dir, "libmdebugpass.so")),
    ("%mdebug_rt_a", os.path.join(lib_dir, "libmdebug-rt.a")),
    ("%mdebug_rt_so", os.path.join(lib_dir, "libmdebug-rt.so")),
    ("%mdebug_rt_dynlist", os.path.join(lib_dir, "mdebug-rt.dynlist")),
    ("%mdebug_layout_ld", os.path.join(lib_dir, "mdebug-layout.ld")),
    ("%mdebug_libdir", lib_dir),
    ("%mdebug_src", config.mdebug_src_root),
    ("%mdebug_obj_root", config.mdebug_obj_root),
    ("%mdebug_include", os.path.join(config.mdebug_src_root, "runtime", "include")),
    ("%clangxx", config.clangxx),
    ("%clang", config.clang),
    ("%opt", config.opt),
    ("%FileCheck", config.filecheck),
    ("%not", config.not_tool),
    ("%python", config.python_executable),
]

# Tests that give a file to another user (chown) need root: feature "root".
if os.geteuid() == 0:
    config.available_features.add("root")

# Tests of a setuid-root program run by another user (uid 65534, with
# setpriv), which the kernel starts with AT_SECURE: feature "setuid". Needs
# root, setpriv, a file system that honours the setuid bit, no
# no_new_privs (which would make the kernel ignore it), and every directory
# above the tests' outputs open to that user.
def setuid_works():
    import shutil
    root = config.test_exec_root
    if os.geteuid() != 0 or not shutil.which("setpriv") or not os.path.isdir(root):
        return False
    if os.statvfs(root).f_flag & os.ST_NOSUID:
        return False
    with open("/proc/self/status") as status:
        if re.search(r"^NoNewPrivs:\s*1", status.read(), re.M):
            return False
    d = os.path.abspath(root)
    while True:
        if not os.stat(d).st_mode & 0o001:
            return False
        if d == os.path.dirname(d):
            return True
        d = os.path.dirname(d)

if setuid_works():
    config.available_features.add("setuid")

# Another LLVM's clang and opt on this machine (Debian installs each major
# version under /usr/lib/llvm-N), for the tests that load the plugin into an
# LLVM it was not built for: feature "other-llvm".
config.substitutions.append(("%llvm_major", config.llvm_major))
for other_clang in sorted(glob.glob("/usr/lib/llvm-*/bin/clang")):
    other_major = re.search(r"llvm-(\d+)/", other_clang).group(1)
    if other_major != config.llvm_major:
        config.available_features.add("other-llvm")
        config.substitutions += [
            ("%other_clang", other_clang),
            ("%other_opt", os.path.join(os.path.dirname(other_clang), "opt")),
            ("%other_llvm_major", other_major),
        ]
        break

# The SARIF 2.1.0 schema (from the npm package @microsoft/jest-sarif, which
# build.sh test installs into BUILD/test-deps) and the jsonschema module
# (Debian's python3-jsonschema) validate mdebug-report --format=sarif:
# feature "sarif-schema". Without them that check is UNSUPPORTED.
import subprocess
sarif_schemas = glob.glob(os.path.join(
    config.mdebug_obj_root, "test-deps", "node_modules", "@microsoft",
    "jest-sarif", "lib", "schemas", "sarif-2.1.0*.json"))
if sarif_schemas and subprocess.call(
        [config.python_executable, "-c", "import jsonschema"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0:
    config.available_features.add("sarif-schema")
    config.substitutions.append(("%sarif_schema", sarif_schemas[0]))

# A real browser for the HTML report's test (Debian's chromium; build.sh test
# installs it): feature "chromium". Without it those tests are UNSUPPORTED.
import shutil
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if chromium:
    config.available_features.add("chromium")
    config.substitutions.append(("%chromium", chromium))

# LLVM's linker beside the clang under test (build.sh test installs lld-N),
# for the tests that link with -fuse-ld=lld: feature "lld".
import tempfile
with tempfile.TemporaryDirectory() as lld_dir:
    lld_probe = subprocess.run(
        [config.clang, "-fuse-ld=lld", "-x", "c", "-", "-o",
         os.path.join(lld_dir, "a.out")],
        input=b"int main(void) { return 0; }\n",
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if lld_probe.returncode == 0:
        config.available_features.add("lld")

# page_guard caps its live blocks from vm.max_map_count; the test that fills
# the cap needs the kernel's default (65530) or less, else it would hold
# gigabytes: feature "default-map-count".
try:
    with open("/proc/sys/vm/max_map_count") as f:
        if int(f.read()) <= 65530:
            config.available_features.add("default-map-count")
except (OSError, ValueError):
    pass
