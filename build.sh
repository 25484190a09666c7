#!/usr/bin/env bash
# The README's two commands:
#   ./build.sh example   install what is missing, build, run the bundled buggy example
#   ./build.sh test      install what is missing, build, run every test suite
# Works from a clean clone on Debian 12 (as root, or with sudo for apt-get).
# MDEBUG_BUILD_DIR picks the build directory (default: build/).
set -euo pipefail

root=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
build=${MDEBUG_BUILD_DIR:-$root/build}
llvm=14
packages=(clang-$llvm llvm-$llvm-dev llvm-$llvm-tools libclang-$llvm-dev libclang-rt-$llvm-dev
          cmake ninja-build python3 binutils)

install_missing() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "build.sh: installing ${missing[*]}" >&2
  local sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
}

configure_and_build() {
  if [ ! -f "$build/build.ninja" ]; then
    cmake -S "$root" -B "$build" -G Ninja \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER=clang-$llvm -DCMAKE_CXX_COMPILER=clang++-$llvm \
      -DLLVM_DIR="/usr/lib/llvm-$llvm/lib/cmake/llvm" \
      -DLLVM_EXTERNAL_LIT="/usr/lib/llvm-$llvm/build/utils/lit/lit.py"
  fi
  cmake --build "$build"
}

run_example() {
  local out="$build/examples"
  mkdir -p "$out"
  "$build/bin/mdebug-clang" -O1 "$root/examples/buggy.c" -o "$out/buggy"
  echo "== running examples/buggy.c under mdebug (it has five planted bugs) =="
  set +e
  "$out/buggy"
  local status=$?
  set -e
  echo "== exit status $status (mdebug's exitcode for a run with errors is 23) =="
  [ "$status" -eq 23 ]
}

case "${1:-}" in
  example) install_missing; configure_and_build; run_example ;;
  test) install_missing; configure_and_build; cmake --build "$build" --target check ;;
  *) echo "usage: $0 example|test" >&2; exit 2 ;;
esac
