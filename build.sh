#!/usr/bin/env bash
# The README's two commands:
#   ./build.sh example   install what is missing, build, run the bundled buggy example
#   ./build.sh test      install what is missing, build, run every test suite,
#                        against LLVM 14 and then against LLVM 19, and the
#                        pass's suites against LLVM 15 and 16
# Works from a clean clone on Debian 12 (as root, or with sudo for apt-get).
# MDEBUG_BUILD_DIR picks the build directory (default: build/); the LLVM 19
# build goes next to it (build-19/). MDEBUG_SECOND_LLVM=N tests against
# LLVM N instead of 19; empty skips that leg. MDEBUG_PASS_LLVMS lists the
# LLVMs (default "15 16") against which only the pass is built and its own
# suites run (test/pass, test/wrapper): the plugin is the part that depends
# on LLVM's API, and a full leg for each would double CI's time.
set -euo pipefail

root=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
build=${MDEBUG_BUILD_DIR:-$root/build}
llvm=14
second_llvm=${MDEBUG_SECOND_LLVM-19}
pass_llvms=${MDEBUG_PASS_LLVMS-15 16}
tools=(cmake ninja-build python3 binutils pkg-config valgrind)
# Only the tests need these (and lld-N for each LLVM tested, for the tests
# that link with -fuse-ld=lld): chromium, because test/tools/html_browser.test
# opens mdebug-report's HTML report in a real (headless) browser (without it
# that test is UNSUPPORTED); python3-jsonschema and npm, because
# test/tools/json_sarif.test validates mdebug-report's SARIF against the
# SARIF 2.1.0 schema, which npm fetches (install_test_deps).
test_tools=(chromium python3-jsonschema)
# npm from Debian only when no npm is there: a machine with nodesource's
# nodejs (which ships its own npm and conflicts with Debian's) keeps it.
command -v npm >/dev/null 2>&1 || test_tools+=(npm)
sarif_schema_package=@microsoft/jest-sarif@1.0.0-beta.0

# The SARIF 2.1.0 schema, into BUILD/test-deps (lit.cfg.py looks there).
install_test_deps() {
  local dir=$1/test-deps
  [ -d "$dir/node_modules/@microsoft/jest-sarif" ] && return 0
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-audit --no-fund --silent "$sarif_schema_package" ||
    echo "build.sh: could not fetch the SARIF schema; its check will be UNSUPPORTED" >&2
}

# What building and testing against LLVM $1 needs (libclang-rt for the test
# that checks mdebug refuses to run beside AddressSanitizer).
llvm_packages() {
  echo "clang-$1 llvm-$1-dev llvm-$1-tools libclang-$1-dev libclang-rt-$1-dev"
}

# What building the pass and running its suites against LLVM $1 needs
# (Debian 12 has no libclang-rt for LLVM 15 and 16; those legs need none).
pass_llvm_packages() {
  echo "clang-$1 llvm-$1-dev llvm-$1-tools libclang-$1-dev"
}

install_missing() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "build.sh: installing ${missing[*]}" >&2
  local sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
}

# configure_and_build LLVM_MAJOR BUILD_DIR
configure_and_build() {
  local v=$1 dir=$2
  local lit=/usr/lib/llvm-$v/build/utils/lit/lit.py
  [ -f "$lit" ] || lit=/usr/lib/llvm-$llvm/build/utils/lit/lit.py
  if [ ! -f "$dir/build.ninja" ]; then
    cmake -S "$root" -B "$dir" -G Ninja \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER=clang-$v -DCMAKE_CXX_COMPILER=clang++-$v \
      -DLLVM_DIR="/usr/lib/llvm-$v/lib/cmake/llvm" \
      -DLLVM_EXTERNAL_LIT="$lit"
  fi
  cmake --build "$dir"
}

run_example() {
  local out="$build/examples"
  mkdir -p "$out"
  "$build/bin/mdebug-clang" -O1 "$root/examples/buggy.c" -o "$out/buggy"
  "$build/bin/mdebug-clang" -O1 -fmdebug-check-access "$root/examples/buggy.c" \
    -o "$out/buggy-checked"
  local status checked_status
  echo "== running examples/buggy.c under mdebug (it has five planted bugs) =="
  set +e
  "$out/buggy"
  status=$?
  set -e
  echo "== exit status $status (mdebug's exitcode for a run with errors is 23) =="
  echo "== the same, built with -fmdebug-check-access (every bug reported at its line) =="
  set +e
  "$out/buggy-checked"
  checked_status=$?
  set -e
  echo "== exit status $checked_status =="
  [ "$status" -eq 23 ] && [ "$checked_status" -eq 23 ]
}

# Every suite against LLVM 14, then against the second LLVM; a failure in
# either fails the run, after both have run. Both LLVMs are installed before
# either leg (see the test case below), so the tests that need another LLVM
# beside the one under test (REQUIRES: other-llvm) run in both legs.
run_tests() {
  local status=0
  echo "== tests against LLVM $llvm ($build) =="
  cmake --build "$build" --target check || status=1
  if [ -n "$second_llvm" ]; then
    local dir=$build-$second_llvm
    echo "== tests against LLVM $second_llvm ($dir) =="
    { configure_and_build "$second_llvm" "$dir" && install_test_deps "$dir" &&
      cmake --build "$dir" --target check; } || status=1
  fi
  local v
  for v in $pass_llvms; do
    local dir=$build-$v
    echo "== pass tests against LLVM $v ($dir) =="
    { configure_and_build "$v" "$dir" &&
      python3 "/usr/lib/llvm-$llvm/build/utils/lit/lit.py" -sv ${MDEBUG_LIT_ARGS:-} \
        "$dir/test/pass" "$dir/test/wrapper"; } || status=1
  done
  return $status
}

case "${1:-}" in
  example) install_missing $(llvm_packages $llvm) "${tools[@]}"; configure_and_build $llvm "$build"; run_example ;;
  test)
    install_missing $(llvm_packages $llvm) ${second_llvm:+$(llvm_packages "$second_llvm")} \
      $(for v in $pass_llvms; do pass_llvm_packages "$v"; done) "${tools[@]}" "${test_tools[@]}" \
      lld-$llvm ${second_llvm:+lld-$second_llvm}
    configure_and_build $llvm "$build"
    install_test_deps "$build"
    run_tests ;;
  *) echo "usage: $0 example|test" >&2; exit 2 ;;
esac
