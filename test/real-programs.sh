#!/usr/bin/env bash
# real-programs.sh - real C and C++ programs' own test suites, built with
# mdebug and run: Debian's sources (apt-get source), configured with the
# CMake toolchain file and (by default) -DMDEBUG_CHECK_ACCESS=ON (checked heap accesses
# and calls, every default check), then each program's tests. A program
# passes when its suite passes and mdebug reported nothing; the script
# fails when one does not. Not part of ./build.sh test: it fetches sources
# and takes minutes.
#
#   test/real-programs.sh [PROGRAM...]   (default: all of them)
#
# Programs: json-c, jansson, cjson, expat, pcre2 (with its JIT), brotli,
# tinyxml2 (C++), lz4 and zstd (their Makefiles, with mdebug-clang), re2
# (C++; the tests of its `make test`) and libuv (its suite but the tests
# that leave this machine: LIBUV_SKIP below).
# MDEBUG_BUILD_DIR: mdebug's build (default: build/, made by ./build.sh).
# REAL_PROGRAMS_DIR: where the sources and builds go (default:
# $MDEBUG_BUILD_DIR/real-programs). MDEBUG_OPTIONS applies to every run
# (page_guard=1 for Electric Fence, say). REAL_PROGRAMS_CHECK_ACCESS=OFF
# builds with mdebug's defaults alone (no checked accesses).
set -uo pipefail

here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
root=$(cd -- "$here/.." && pwd)
build=$(cd -- "${MDEBUG_BUILD_DIR:-$root/build}" 2>/dev/null && pwd) ||
  { echo "real-programs.sh: error: no mdebug build: run ./build.sh example first" >&2; exit 1; }
toolchain=$build/share/mdebug/mdebug-toolchain.cmake
check_access=${REAL_PROGRAMS_CHECK_ACCESS:-ON}
case $check_access in
  ON) access_flag=-fmdebug-check-access ;;
  OFF) access_flag= ;;
  *) echo "real-programs.sh: error: REAL_PROGRAMS_CHECK_ACCESS must be ON or OFF, not '$check_access'" >&2; exit 1 ;;
esac
cache=${REAL_PROGRAMS_DIR:-$build/real-programs}
note() { echo "== $*"; }
die() { echo "real-programs.sh: error: $*" >&2; exit 1; }
[ -f "$toolchain" ] || die "$toolchain not found: run ./build.sh example first"
# shellcheck source=bench/debian-sources.sh
. "$root/bench/debian-sources.sh"

all=(json-c jansson cjson expat pcre2 brotli tinyxml2 lz4 zstd re2 libuv)
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
    -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DMDEBUG_CHECK_ACCESS="$check_access" -Wno-dev "$@" \
    >"$cache/$name.configure.log" 2>&1 || die "configuring $name failed (see $cache/$name.configure.log)"
}
compile() {
  local name=$1
  ninja -C "$cache/$name" >"$cache/$name.build.log" 2>&1 || die "building $name failed (see $cache/$name.build.log)"
}
# suite NAME COMMAND...: runs the suite in $cache/NAME, its output in
# $cache/NAME.test.log; returns its status, its time in suite_seconds.
suite_seconds=0
suite() {
  local name=$1 start=$SECONDS status; shift
  (cd "$cache/$name" && "$@") >"$cache/$name.test.log" 2>&1
  status=$?
  suite_seconds=$((SECONDS - start))
  return $status
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
  local src cc="$build/bin/mdebug-clang${access_flag:+ $access_flag}"
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
  local src cc="$build/bin/mdebug-clang${access_flag:+ $access_flag}"
  src=$(fetch libzstd) || exit 1
  rm -rf "${cache:?}/zstd" && cp -a "$src" "$cache/zstd"
  make -C "$cache/zstd/tests" -j2 CC="$cc" MOREFLAGS="-g" fuzzer zstreamtest \
    >"$cache/zstd.build.log" 2>&1 || die "building zstd failed (see $cache/zstd.build.log)"
  suite zstd sh -c 'cd tests && ./fuzzer -T30s && ./zstreamtest -T30s'
}

# re2: Debian's source leaves out the generated Unicode and Perl class
# tables (Debian regenerates them from unicode-data); made here the same
# way, once. Its CTest list has the big tests too (dfa_test, the exhaustive
# ones, random_test: an hour under checked accesses); run what re2's own
# `make test` runs.
run_re2() {
  local src
  src=$(fetch re2) || exit 1
  if [ ! -f "$src/re2/unicode_groups.cc" ]; then
    install_missing unicode-data perl python3
    (cd "$src" && perl re2/make_perl_groups.pl >re2/perl_groups.cc &&
       python3 re2/make_unicode_casefold.py >re2/unicode_casefold.cc &&
       python3 re2/make_unicode_groups.py >re2/unicode_groups.cc) ||
      die "generating re2's tables failed"
  fi
  configure re2 "$src" -DRE2_BUILD_TESTING=ON
  compile re2
  suite re2 ctest --output-on-failure -E '^(dfa_test|exhaustive[0-9]*_test|random_test)$'
}
# libuv: its static test runner, one test at a time (each in a child
# process; the runner says "ok"/"not ok"), in a scratch directory with the
# fixtures beside (the tests write files where they run). Every test of
# `--list` but LIBUV_SKIP (a grep -E pattern; set it to override): those
# that reach addresses off this machine (8.8.8.8, 1.2.3.4, 192.0.2.3,
# multicast groups, DNS), and those that fail as root (CI runs as root:
# fs_copyfile expects EACCES on a read-only file) or need a terminal. About
# 400 tests, 1.5 minutes natively.
LIBUV_SKIP=${LIBUV_SKIP:-'^(getaddrinfo_|getnameinfo_|threadpool_cancel_get(addr|name)info|tcp_connect_timeout|tcp6?_local_connect_timeout|tcp_close_while_connecting|tcp_bind6?_error_addrnotavail|udp_connect6?|udp_multicast_|udp_send_hang_loop|fs_copyfile|tty$)'}
run_libuv() {
  local src
  src=$(fetch libuv1) || exit 1
  # __ASAN__ skips the two tests libuv itself skips under AddressSanitizer,
  # both for leaks LeakSanitizer reports too: error_message (uv_strerror(0)
  # allocates "Unknown system error 0" and never frees it) and tty_pty (its
  # loop is never closed). Nothing in libuv's library reads it.
  CFLAGS=-D__ASAN__=1 configure libuv "$src" -DBUILD_TESTING=ON -DLIBUV_BUILD_BENCH=OFF
  ninja -C "$cache/libuv" uv_run_tests_a >"$cache/libuv.build.log" 2>&1 ||
    die "building libuv failed (see $cache/libuv.build.log)"
  rm -rf "${cache:?}/libuv/run" && mkdir -p "$cache/libuv/run/test" &&
    ln -s "$src/test/fixtures" "$cache/libuv/run/test/fixtures"
  # The runner refuses to run as root unless told; RES_OPTIONS keeps glibc
  # off DNS and the timeouts are doubled, as in Debian's build.
  suite libuv env UV_RUN_AS_ROOT=1 RES_OPTIONS=attempts:0 UV_TEST_TIMEOUT_MULTIPLIER=2 sh -c '
    cd run || exit 1
    runner=$1 skip=$2 failed=0 skipped=0 n=0
    for t in $("$runner" --list | awk "{ print \$1 }" | grep -Ev "$skip"); do
      n=$((n + 1))
      "$runner" "$t"
      case $? in
        0) ;;
        7) skipped=$((skipped + 1)) ;; # the test skipped itself (not Linux, ...)
        *) failed=$((failed + 1)) ;;
      esac
    done
    echo "libuv: $n tests, $failed failed, $skipped skipped"
    [ "$failed" -eq 0 ]' sh "$cache/libuv/uv_run_tests_a" "$LIBUV_SKIP"
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
  # Notes (mappings kept to the end) are listed, not failures.
  notes=$(cat "${logs[@]}" | grep -a -c '^\(# \)\?mdebug: NOTE' || true)
  if [ "$status" -eq 0 ] && [ "$reports" -eq 0 ]; then
    extra=""
    [ "$notes" -eq 0 ] || extra=" ($notes mapping leak notes)"
    echo "$p: suite passed in ${suite_seconds}s, mdebug reported nothing$extra"
  else
    echo "$p: FAILED: suite status $status, $reports mdebug report lines (see ${logs[*]})"
    grep -a -h -m 20 -A 6 '^\(# \)\?mdebug: ERROR' "${logs[@]}" || true
    failed=$((failed + 1))
  fi
done
[ "$failed" -eq 0 ] || { echo "real-programs.sh: $failed of ${#programs[@]} failed"; exit 1; }
echo "real-programs.sh: all ${#programs[@]} passed"
