#!/usr/bin/env bash
# real-programs.sh - real C and C++ programs' own test suites, built with
# mdebug and run: Debian's sources (apt-get source), configured with the
# CMake toolchain file and -DMDEBUG_CHECK_ACCESS=ON (checked heap accesses
# and calls, every default check), then each program's tests. A program
# passes when its suite passes and mdebug reported nothing; the script
# fails when one does not. Not part of ./build.sh test: it fetches sources
# and takes minutes.
#
#   test/real-programs.sh [PROGRAM...]   (default: all of them)
#
# Programs: json-c, jansson, cjson, expat, pcre2 (with its JIT), brotli,
# tinyxml2 (C++), lz4 and zstd (their Makefiles, with mdebug-clang).
# MDEBUG_BUILD_DIR: mdebug's build (default: build/, made by ./build.sh).
# REAL_PROGRAMS_DIR: where the sources and builds go (default:
# $MDEBUG_BUILD_DIR/real-programs). MDEBUG_OPTIONS applies to every run
# (page_guard=1 for Electric Fence, say).
set -uo pipefail

here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
root=$(cd -- "$here/.." && pwd)
build=$(cd -- "${MDEBUG_BUILD_DIR:-$root/build}" 2>/dev/null && pwd) ||
  { echo "real-programs.sh: error: no mdebug build: run ./build.sh example first" >&2; exit 1; }
toolchain=$build/share/mdebug/mdebug-toolchain.cmake
cache=${REAL_PROGRAMS_DIR:-$build/real-programs}
note() { echo "== $*"; }
die() { echo "real-programs.sh: error: $*" >&2; exit 1; }
[ -f "$toolchain" ] || die "$toolchain not found: run ./build.sh example first"
# shellcheck source=bench/debian-sources.sh
. "$root/bench/debian-sources.sh"

all=(json-c jansson cjson expat pcre2 brotli tinyxml2 lz4 zstd)
programs=("$@")
[ ${#programs[@]} -gt 0 ] || programs=("${all[@]}")
for p in "${programs[@]}"; do
  [[ " ${all[*]} " == *" $p "* ]] || die "unknown program '$p' (known: ${all[*]})"
done

install_missing dpkg-dev cmake ninja-build
ensure_deb_src
mkdir -p "$cache/src"

# configure NAME SRC CMAKE_ARGS...: a fresh build of SRC in $cache/NAME.
configure() {
  local name=$1 src=$2; shift 2
  rm -rf "${cache:?}/$name"
  cmake -S "$src" -B "$cache/$name" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DMDEBUG_CHECK_ACCESS=ON -Wno-dev "$@" \
    >"$cache/$name.configure.log" 2>&1 || die "configuring $name failed (see $cache/$name.configure.log)"
}
compile() {
  local name=$1
  ninja -C "$cache/$name" >"$cache/$name.build.log" 2>&1 || die "building $name failed (see $cache/$name.build.log)"
}
# suite NAME COMMAND...: runs the suite in $cache/NAME, its output in
# $cache/NAME.test.log; returns its status.
suite() {
  local name=$1; shift
  (cd "$cache/$name" && "$@") >"$cache/$name.test.log" 2>&1
}
# ctest_program NAME CMAKE_ARGS...: Debian's source of NAME, built, its
# CTest suite run (json-c's under Valgrind only with USE_VALGRIND=1).
ctest_program() {
  local name=$1 src; shift
  src=$(fetch "$name") || exit 1
  configure "$name" "$src" "$@"
  compile "$name"
  suite "$name" env USE_VALGRIND=0 ctest --output-on-failure
}

# Each run_NAME builds the program and returns its suite's status.
run_json-c() { ctest_program json-c; }
run_jansson() { ctest_program jansson; }
run_cjson() { ctest_program cjson -DENABLE_CJSON_TEST=ON; }
run_brotli() { ctest_program brotli -DBUILD_TESTING=ON; }
run_tinyxml2() { ctest_program tinyxml2 -Dtinyxml2_BUILD_TESTING=ON; }
run_expat() {
  local src
  src=$(fetch expat) || exit 1
  configure expat "$src/expat" -DEXPAT_BUILD_TESTS=ON \
    -DEXPAT_BUILD_DOCS=OFF -DEXPAT_BUILD_EXAMPLES=OFF
  # Debian builds expat with autotools; its CMake configuration defines
  # XML_DTD and XML_GE empty where the patched sources test `== 1`.
  sed -i 's/^#define XML_DTD$/#define XML_DTD 1/; s/^#define XML_GE$/#define XML_GE 1/' \
    "$cache/expat/expat_config.h"
  compile expat
  suite expat ctest --output-on-failure
}
run_pcre2() {
  local src
  src=$(fetch pcre2) || exit 1
  configure pcre2 "$src" -DPCRE2_SUPPORT_JIT=ON -DPCRE2_BUILD_PCRE2_16=ON \
    -DPCRE2_BUILD_PCRE2_32=ON
  compile pcre2
  # Its own scripts, run where the programs are, with the test data beside.
  suite pcre2 sh -c 'srcdir=$1 sh "$1/RunTest" && srcdir=$1 sh "$1/RunGrepTest" &&
                     ./pcre2_jit_test' sh "$src"
}
# LZ4 keeps its tests in its Makefile: a copy of the source built in place
# with mdebug-clang, then `make check` (its command-line tests; linked-block
# compression reads the source through a base pointer that lies in another
# buffer).
run_lz4() {
  local src cc="$build/bin/mdebug-clang -fmdebug-check-access"
  src=$(fetch lz4) || exit 1
  rm -rf "${cache:?}/lz4" && cp -a "$src" "$cache/lz4"
  make -C "$cache/lz4" -j2 CC="$cc" CFLAGS="-O2 -g" >"$cache/lz4.build.log" 2>&1 ||
    die "building lz4 failed (see $cache/lz4.build.log)"
  suite lz4 make CC="$cc" CFLAGS="-O2 -g" check
}
# zstd (Debian's libzstd) the same way: its unit tests and a minute of its
# own fuzzers (fuzzer, zstreamtest: every compression level, dictionaries,
# streaming; its match finders read the source through a window base that
# lies in another block or at the start of a freed one).
run_zstd() {
  local src cc="$build/bin/mdebug-clang -fmdebug-check-access"
  src=$(fetch libzstd) || exit 1
  rm -rf "${cache:?}/zstd" && cp -a "$src" "$cache/zstd"
  make -C "$cache/zstd/tests" -j2 CC="$cc" MOREFLAGS="-g" fuzzer zstreamtest \
    >"$cache/zstd.build.log" 2>&1 || die "building zstd failed (see $cache/zstd.build.log)"
  suite zstd sh -c 'cd tests && ./fuzzer -T30s && ./zstreamtest -T30s'
}

failed=0
for p in "${programs[@]}"; do
  note "$p"
  "run_$p"
  status=$?
  # mdebug's report lines, wherever the suite put the programs' stderr.
  logs=("$cache/$p.test.log")
  [ -f "$cache/$p/Testing/Temporary/LastTest.log" ] && logs+=("$cache/$p/Testing/Temporary/LastTest.log")
  reports=$(cat "${logs[@]}" | grep -a -c '^\(# \)\?mdebug: \(ERROR\|SUMMARY\)' || true)
  if [ "$status" -eq 0 ] && [ "$reports" -eq 0 ]; then
    echo "$p: suite passed, mdebug reported nothing"
  else
    echo "$p: FAILED: suite status $status, $reports mdebug report lines (see ${logs[*]})"
    grep -a -h -m 20 -A 6 '^\(# \)\?mdebug: ERROR' "${logs[@]}" || true
    failed=$((failed + 1))
  fi
done
[ "$failed" -eq 0 ] || { echo "real-programs.sh: $failed of ${#programs[@]} failed"; exit 1; }
echo "real-programs.sh: all ${#programs[@]} passed"
