#!/usr/bin/env bash
# run-all.sh - the whole comparison: every workload in every configuration,
# interleaved repetitions, one table of ratios to native (see bench/README.md).
#
# Workloads: SQLite's speedtest1 and Lua 5.4 (their sources fetched with
# `apt-get source` into bench/.cache/, never committed; Lua runs three
# scripts of different shapes: alloc_heavy.lua, lua_trees.lua's object
# trees and lua_strings.lua's text processing), alloc_bench's three
# modes of small blocks and its large-block churn (large_churn: a 200 KB
# block allocated, filled and freed in a loop), and the leak scan (leak_scan_bench: one mid-run leak check over a
# million live blocks, mdebug only). Configurations (the table below): native
# (glibc's malloc), mdebug (default options, every check off, every check on,
# backtrace=16, the heap profile option set), mimalloc (preloaded into the native binary),
# AddressSanitizer, Valgrind memcheck and heaptrack (the last two on the
# native binary). On request: mmap_bench (mmaps: a mapping-heavy loop), and
# mdebug-nommap (the defaults but track_mmap=0) and preload (the native
# binary with mdebug's runtime preloaded), for what track_mmap and preload
# mode cost.
#
# Steps: install what is missing (apt-get, as root), fetch and unpack the
# sources, bring the mdebug build up to date, build each workload once per
# compiler (native, mdebug, asan; only what changed is rebuilt), run, and hand
# out/raw.csv and out/leak_scan.csv to report.py for the table,
# out/results.csv and out/results.svg.
#
# Within a repetition every configuration of a workload runs back to back,
# so each ratio compares runs made under the same machine load.
set -euo pipefail

here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
root=$(cd -- "$here/.." && pwd)
build=${MDEBUG_BUILD:-$root/build}
cc=${CC:-clang-14}
cache=${BENCH_CACHE:-$here/.cache}
out=$here/out
quick=${QUICK:-0}
all_checks='guard fill free_track verify_pointers leak_track'

# ---- the configurations ----------------------------------------------------------
# config NAME BUILD PACKAGES SETS [VAR=VALUE...] [-- PREFIX...]
#   BUILD     the binary it runs: native (clang), mdebug (mdebug-clang),
#             access (mdebug-clang -fmdebug-check-access: checked heap
#             accesses), calls (mdebug-clang -fmdebug-check-calls: the C
#             library calls checked, not loads and stores) or asan (clang
#             -fsanitize=address)
#   PACKAGES  Debian packages it needs, ',' between them, or -
#   SETS      the default CONFIGS it is in: full (QUICK=0), quick (QUICK=1),
#             both (full,quick) or - (only when CONFIGS names it)
#   VAR=VALUE its environment (everything else mdebug, ASan, mimalloc or the
#             loader reads is cleared); PREFIX: the command it runs under.
#   In both, {tmp} is a scratch directory, emptied before each run, and
#   {mimalloc} the path of libmimalloc.so.2 (found with dpkg -L).
# The order is the table's. A new configuration is one line here and one in
# report.py's CONFIGS.
cfg_names=()
declare -A cfg_build cfg_pkgs cfg_sets cfg_run
config() {
  local name=$1
  cfg_names+=("$name") cfg_build[$name]=$2 cfg_pkgs[$name]=${3//,/ } cfg_sets[$name]=,$4,
  [ "$3" != - ] || cfg_pkgs[$name]=""
  shift 4
  cfg_run[$name]=""
  [ $# -eq 0 ] || cfg_run[$name]=$(printf '%q ' "$@")
}
config native      native -                  full,quick
config mdebug      mdebug -                  full,quick
config mdebug-none mdebug -                  full,quick MDEBUG_OPTIONS=none
config mdebug-all  mdebug -                  full,quick "MDEBUG_OPTIONS=$all_checks"
config mdebug-bt16 mdebug -                  full,quick MDEBUG_OPTIONS=backtrace=16
config mdebug-pg1000 mdebug -                full,quick MDEBUG_OPTIONS=page_guard=1000
config mdebug-pg1  mdebug -                  -          MDEBUG_OPTIONS=page_guard=1
config mdebug-access access -                full,quick
config mdebug-calls calls  -                 -
config mdebug-profile mdebug -               full,quick "MDEBUG_OPTIONS=none sample_rate=100 snapshot_interval=10 profile_prefix={tmp}/prof"
config mimalloc    native libmimalloc2.0     full,quick LD_PRELOAD={mimalloc}
config asan        asan   libclang-rt-14-dev full,quick
config valgrind    native valgrind           full       -- valgrind --tool=memcheck -q
config heaptrack   native heaptrack          full       -- heaptrack -o {tmp}/data
config mdebug-nommap mdebug -                -          MDEBUG_OPTIONS=track_mmap=0
config preload     native -                  -          "LD_PRELOAD=$build/lib/libmdebug-rt.so"

# configs_in SET: the names of the configurations in that default set.
configs_in() {
  local c list=()
  for c in "${cfg_names[@]}"; do
    [[ ${cfg_sets[$c]} == *",$1,"* ]] && list+=("$c")
  done
  echo "${list[*]}"
}

if [ "$quick" = 1 ]; then
  reps=${REPS:-3} sqlite_size=${SQLITE_SIZE:-15} lua_scale=${LUA_SCALE:-2}
  alloc_iters=${ALLOC_ITERS:-1500000} mmap_iters=${MMAP_ITERS:-50000}
  large_iters=${LARGE_ITERS:-5000}
  configs=${CONFIGS:-$(configs_in quick)}
else
  reps=${REPS:-5} sqlite_size=${SQLITE_SIZE:-50} lua_scale=${LUA_SCALE:-8}
  alloc_iters=${ALLOC_ITERS:-6000000} mmap_iters=${MMAP_ITERS:-200000}
  large_iters=${LARGE_ITERS:-20000}
  configs=${CONFIGS:-$(configs_in full)}
fi
workloads=${WORKLOADS:-speedtest1 lua lua_trees lua_strings single threads2 prodcons large_churn leak_scan}
valgrind_reps=${VALGRIND_REPS:-1}
heaptrack_reps=${HEAPTRACK_REPS:-3}
timeout=${TIMEOUT:-600}
leak_blocks=${LEAK_BLOCKS:-1000000}

die() { echo "run-all.sh: error: $*" >&2; exit 1; }
warn() { echo "run-all.sh: warning: $*" >&2; }
# Warnings about runs wait for the end of the repetition's progress line.
pending=()
warn_later() { pending+=("run-all.sh: warning: $1"); shift; pending+=("$@"); }
flush_warnings() {
  [ ${#pending[@]} -eq 0 ] || printf '%s\n' "${pending[@]}" >&2
  pending=()
}
note() { echo "== $*"; }

for v in reps sqlite_size lua_scale alloc_iters mmap_iters large_iters valgrind_reps heaptrack_reps timeout leak_blocks; do
  [[ ${!v} =~ ^[0-9]+$ ]] || die "${v^^} must be a whole number, not '${!v}'"
done
[ "$reps" -ge 1 ] || die "REPS must be at least 1"
known_workloads=" speedtest1 lua lua_trees lua_strings single threads2 prodcons large_churn leak_scan mmaps "
for w in $workloads; do
  [[ $known_workloads == *" $w "* ]] || die "unknown workload '$w' (known:$known_workloads)"
done
for c in $configs; do
  [ -n "${cfg_build[$c]:-}" ] || die "unknown configuration '$c' (known: ${cfg_names[*]})"
done
[[ " $configs " == *" native "* ]] || die "CONFIGS must include native: every ratio is to native"
# The workloads of the table: all but the leak scan, which is not compared.
table_workloads=$(for w in $workloads; do [ "$w" = leak_scan ] || echo "$w"; done)
leak_scan=0
[[ " $workloads " == *" leak_scan "* ]] && leak_scan=1

# Which builds the configurations need, in the order of first use.
variants=native
for c in $configs; do
  [[ " $variants " == *" ${cfg_build[$c]} "* ]] || variants+=" ${cfg_build[$c]}"
done

# ---- setup: packages and the deb-src line ------------------------------------
# apt_update, install_missing, ensure_deb_src, fetch.
# shellcheck source=bench/debian-sources.sh
. "$here/debian-sources.sh"

if [ "${NO_SETUP:-0}" != 1 ]; then
  pkgs=(dpkg-dev tcl make)
  for c in $configs; do
    # shellcheck disable=SC2206
    pkgs+=(${cfg_pkgs[$c]})
  done
  install_missing "${pkgs[@]}"
  [[ " $workloads " =~ " "(speedtest1|lua|lua_trees|lua_strings)" " ]] && ensure_deb_src
fi
command -v "$cc" >/dev/null || die "compiler '$cc' not found (set CC=...)"
for c in $configs; do
  for p in ${cfg_pkgs[$c]}; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
      die "configuration $c needs the package $p (NO_SETUP=1 installs nothing)"
  done
done

# The preloaded allocator: the package's own path for it, and a check that
# preloading it takes (the loader only warns when it cannot, and the program
# would then run on glibc's malloc under mimalloc's name).
mimalloc=""
if [[ " $configs " == *" mimalloc "* ]]; then
  mimalloc=$(dpkg -L libmimalloc2.0 | grep -m1 '/libmimalloc\.so\.2$' || true)
  [ -n "$mimalloc" ] || die "dpkg -L libmimalloc2.0 lists no libmimalloc.so.2"
  [[ $(LD_PRELOAD=$mimalloc MIMALLOC_VERBOSE=1 /bin/true 2>&1) == *"mimalloc: "* ]] ||
    die "preloading $mimalloc into /bin/true did not start mimalloc (MIMALLOC_VERBOSE=1 printed nothing)"
fi

# ---- mdebug itself: bring the build up to date -------------------------------
wrapper=$build/bin/mdebug-clang
if [ -f "$build/build.ninja" ]; then
  cmake --build "$build" >/dev/null || die "building mdebug in $build failed"
fi
[ -x "$wrapper" ] || die "$wrapper not found: run ./build.sh example first, or set MDEBUG_BUILD=dir"

# ---- sources ---------------------------------------------------------------------
mkdir -p "$cache/src" "$out/bin" "$out/obj" "$out/logs"

# stale TARGET DEPS...: true if TARGET is missing or older than one of DEPS.
stale() {
  local t=$1 d; shift
  [ -e "$t" ] || return 0
  for d; do [ "$d" -nt "$t" ] && return 0; done
  return 1
}

# Compilers per variant. -gdwarf-4: Valgrind 3.19 cannot read clang 14's
# default DWARF 5; the code generated is the same.
cflags=(-O2 -g -gdwarf-4)
compiler_of() {
  case $1 in
    native | asan) echo "$cc" ;;
    mdebug | access | calls) echo "$wrapper" ;;
  esac
}
flags_of() {
  case $1 in
    asan) echo -fsanitize=address ;;
    access) echo -fmdebug-check-access ;;
    calls) echo -fmdebug-check-calls ;;
    *) ;;
  esac
}
# What a variant's objects and links depend on besides their sources.
tool_deps_of() {
  case $1 in
    mdebug | access | calls) echo "$wrapper $build/lib/libmdebugpass.so" ;;
    *) ;;
  esac
}
link_deps_of() {
  case $1 in
    mdebug | access | calls) echo "$wrapper $build/lib/libmdebug-rt.a" ;;
    *) ;;
  esac
}

# compile VARIANT SRC OBJ EXTRA_FLAGS...
compile() {
  local v=$1 src=$2 obj=$3; shift 3
  # shellcheck disable=SC2046
  stale "$obj" "$src" $(tool_deps_of "$v") || return 0
  mkdir -p "$(dirname "$obj")"
  # shellcheck disable=SC2046
  "$(compiler_of "$v")" "${cflags[@]}" $(flags_of "$v") "$@" -c "$src" -o "$obj" \
    2>"$out/logs/build.err" || { cat "$out/logs/build.err" >&2; die "compiling $src ($v) failed"; }
}
# link VARIANT BIN OBJS... -- LIBS...
link() {
  local v=$1 bin=$2 objs=() libs=(); shift 2
  while [ "$1" != -- ]; do objs+=("$1"); shift; done
  shift; libs=("$@")
  # shellcheck disable=SC2046
  stale "$bin" "${objs[@]}" $(link_deps_of "$v") || return 0
  # shellcheck disable=SC2046
  "$(compiler_of "$v")" "${cflags[@]}" $(flags_of "$v") -o "$bin" "${objs[@]}" "${libs[@]}" \
    2>"$out/logs/build.err" || { cat "$out/logs/build.err" >&2; die "linking $bin failed"; }
}

build_alloc_bench() {
  local v
  for v in $variants; do
    compile "$v" "$here/alloc_bench.c" "$out/obj/$v/alloc_bench.o" -pthread
    link "$v" "$out/bin/alloc_bench.$v" "$out/obj/$v/alloc_bench.o" -- -pthread
  done
}

build_mmap_bench() {
  local v
  for v in $variants; do
    compile "$v" "$here/mmap_bench.c" "$out/obj/$v/mmap_bench.o" -pthread
    link "$v" "$out/bin/mmap_bench.$v" "$out/obj/$v/mmap_bench.o" -- -pthread
  done
}

sqlite_src="" sqlite_amalg=""
build_speedtest1() {
  sqlite_src=$(fetch sqlite3)
  # Debian's source package has no amalgamation: generate sqlite3.c with the
  # package's own build (configure, then the sqlite3.c target: lemon,
  # mkkeywordhash and tclsh scripts), once.
  local gen=$cache/sqlite3-amalgamation
  sqlite_amalg=$gen/sqlite3.c
  if [ ! -s "$sqlite_amalg" ]; then
    note "generating the SQLite amalgamation (configure; make sqlite3.c)"
    rm -rf "$gen" && mkdir -p "$gen"
    (cd "$gen" && "$sqlite_src/configure" --disable-tcl --disable-readline >configure.log 2>&1 &&
      make -j"$(nproc)" sqlite3.c >make.log 2>&1) ||
      die "generating sqlite3.c failed; see $gen/configure.log and $gen/make.log"
  fi
  local v
  for v in $variants; do
    note "building speedtest1 ($v)"
    compile "$v" "$sqlite_amalg" "$out/obj/$v/sqlite3.o" -I"$gen"
    compile "$v" "$sqlite_src/test/speedtest1.c" "$out/obj/$v/speedtest1.o" -I"$gen"
    link "$v" "$out/bin/speedtest1.$v" "$out/obj/$v/sqlite3.o" "$out/obj/$v/speedtest1.o" \
      -- -lpthread -ldl -lm
  done
}

lua_src=""
build_lua() {
  lua_src=$(fetch lua5.4)
  # Debian's patched luaconf.h includes a header its build generates.
  local inc=$cache/lua5.4-include
  mkdir -p "$inc"
  [ -s "$inc/lua5.4-deb-multiarch.h" ] ||
    echo '#define DEB_HOST_MULTIARCH "x86_64-linux-gnu"' >"$inc/lua5.4-deb-multiarch.h"
  local v f objs
  for v in $variants; do
    note "building lua ($v)"
    objs=()
    for f in "$lua_src"/src/*.c; do
      [ "$(basename "$f")" = luac.c ] && continue
      compile "$v" "$f" "$out/obj/$v/lua/$(basename "${f%.c}").o" \
        -DLUA_COMPAT_5_3 -DLUA_USE_LINUX -I"$inc"
      objs+=("$out/obj/$v/lua/$(basename "${f%.c}").o")
    done
    link "$v" "$out/bin/lua.$v" "${objs[@]}" -- -lm -ldl
  done
}

runstat=$out/bin/runstat
stale "$runstat" "$here/runstat.c" && { "$cc" -O2 -Wall -o "$runstat" "$here/runstat.c" || die "building runstat failed"; }
[[ " $workloads " =~ " "(single|threads2|prodcons|large_churn)" " ]] && build_alloc_bench
[[ " $workloads " == *" mmaps "* ]] && build_mmap_bench
[[ " $workloads " == *" speedtest1 "* ]] && build_speedtest1
[[ " $workloads " =~ " "(lua|lua_trees|lua_strings)" " ]] && build_lua
if [ "$leak_scan" = 1 ]; then
  compile mdebug "$here/leak_scan_bench.c" "$out/obj/mdebug/leak_scan_bench.o"
  link mdebug "$out/bin/leak_scan_bench.mdebug" "$out/obj/mdebug/leak_scan_bench.o" --
fi

# ---- one run ---------------------------------------------------------------------
# command_of WORKLOAD VARIANT: the command line, in the array cmd.
command_of() {
  case $1 in
    speedtest1) cmd=("$out/bin/speedtest1.$2" --memdb --size "$sqlite_size") ;;
    lua) cmd=("$out/bin/lua.$2" "$here/alloc_heavy.lua" "$lua_scale") ;;
    lua_trees) cmd=("$out/bin/lua.$2" "$here/lua_trees.lua" "$lua_scale") ;;
    lua_strings) cmd=("$out/bin/lua.$2" "$here/lua_strings.lua" "$lua_scale") ;;
    mmaps) cmd=("$out/bin/mmap_bench.$2" "$mmap_iters") ;;
    large_churn) cmd=("$out/bin/alloc_bench.$2" large_churn "$large_iters") ;;
    *) cmd=("$out/bin/alloc_bench.$2" "$1" "$alloc_iters") ;;
  esac
}
# reps_of CONFIG: how many repetitions run it.
reps_of() {
  case $1 in
    valgrind) echo $((valgrind_reps < reps ? valgrind_reps : reps)) ;;
    heaptrack) echo $((heaptrack_reps < reps ? heaptrack_reps : reps)) ;;
    *) echo "$reps" ;;
  esac
}

tmp=$(mktemp -d)
trap 'rm -rf -- "$tmp"' EXIT
# What every run clears: what mdebug, ASan, the loader and mimalloc read. A
# configuration sets back what it needs.
clear_env=(-u MDEBUG_OPTIONS -u ASAN_OPTIONS -u LD_PRELOAD)
while read -r v; do clear_env+=(-u "$v"); done < <(compgen -e | grep '^MIMALLOC_' || true)
raw=$out/raw.csv
failures=0 invalid=0
# run WORKLOAD CONFIG REP: one measured run, appended to raw.csv. Verdicts:
# ok; stderr (ran, but an mdebug/ASan/Valgrind run wrote to stderr: a report?);
# failed (non-zero exit); timeout; invalid (mdebug rejected MDEBUG_OPTIONS, so
# the run used other options than the configuration names).
run() {
  local w=$1 c=$2 rep=$3 variant=${cfg_build[$2]} envs=("${clear_env[@]}") pre=() words word
  eval "words=(${cfg_run[$c]})"
  for word in "${words[@]}"; do
    word=${word//\{tmp\}/$tmp/scratch}
    word=${word//\{mimalloc\}/$mimalloc}
    if [ ${#pre[@]} -gt 0 ] || [ "$word" = -- ]; then pre+=("$word"); else envs+=("$word"); fi
  done
  [ ${#pre[@]} -eq 0 ] || pre=("${pre[@]:1}")
  command_of "$w" "$variant"
  local err=$out/logs/$w.$c.$rep.err
  rm -rf "$tmp/scratch" "$tmp/res"
  mkdir -p "$tmp/scratch"
  local status=0
  (cd "$tmp/scratch" && env "${envs[@]}" "$runstat" -t "$timeout" "$tmp/res" "${pre[@]}" "${cmd[@]}") \
    >"$tmp/stdout" 2>"$err" || status=$?
  [ -s "$tmp/res" ] || { cat "$err" >&2; die "could not measure $w $c ($status)"; }
  local time rss cpu verdict=ok
  read -r time rss status cpu <"$tmp/res"
  if [ "$c" = heaptrack ]; then
    # heaptrack reports its progress on stdout and stderr; not a finding.
    cat "$tmp/stdout" >>"$err"
  fi
  if [[ $variant == mdebug || $variant == access || $variant == calls ]] && grep -qE '^mdebug: .*(MDEBUG_OPTIONS|option)' "$err"; then
    verdict=invalid
    invalid=$((invalid + 1))
    warn_later "$w $c: mdebug rejected its options: $(grep -m1 -E '^mdebug: ' "$err")"
  elif grep -q 'from LD_PRELOAD cannot be preloaded' "$err"; then
    verdict=invalid
    invalid=$((invalid + 1))
    warn_later "$w $c: the loader did not preload: $(grep -m1 'cannot be preloaded' "$err")"
  elif [ "$status" = 124 ]; then
    verdict=timeout
    failures=$((failures + 1))
    warn_later "$w $c: killed after ${timeout}s (TIMEOUT)"
  elif [ "$status" != 0 ]; then
    verdict=failed
    failures=$((failures + 1))
    warn_later "$w $c: exited with status $status; $err begins:" "$(head -n 5 "$err")"
  elif [ "$c" != heaptrack ] && [ -s "$err" ]; then
    verdict=stderr
    warn_later "$w $c: wrote to stderr (a report?); $err begins:" "$(head -n 5 "$err")"
  fi
  [ -s "$err" ] || rm -f "$err"
  echo "$w,$c,$rep,$time,$rss,$status,$cpu,$verdict" >>"$raw"
  printf ' %s=%s' "$c" "$time"
}

# ---- the runs --------------------------------------------------------------------
machine="$(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
os=$(. /etc/os-release && echo "$PRETTY_NAME")
rm -f "$out"/logs/*.err
{
  echo "date: $(date +%Y-%m-%d)"
  echo "machine: $os, $machine, $(free -g | awk '/^Mem:/ { print $2 }') GiB RAM"
  echo "compiler: $("$cc" --version | head -n 1)"
  echo "reps: $reps"
  echo "valgrind_reps: $(reps_of valgrind)"
  echo "heaptrack_reps: $(reps_of heaptrack)"
  echo "quick: $quick"
  echo "speedtest1: speedtest1 --memdb --size $sqlite_size (SQLite $(basename "${sqlite_src:-sqlite3-?}" | sed 's/^sqlite3-//'))"
  echo "lua: lua alloc_heavy.lua $lua_scale (Lua $(basename "${lua_src:-lua5.4-?}" | sed 's/^lua5.4-//'))"
  echo "lua_trees: lua lua_trees.lua $lua_scale"
  echo "lua_strings: lua lua_strings.lua $lua_scale"
  echo "single: alloc_bench single $alloc_iters"
  echo "threads2: alloc_bench threads2 $alloc_iters (per thread)"
  echo "prodcons: alloc_bench prodcons $alloc_iters"
  echo "large_churn: alloc_bench large_churn $large_iters"
  echo "mmaps: mmap_bench $mmap_iters"
  echo "all_checks: $all_checks"
  [ "$leak_scan" = 0 ] || echo "leak_scan: leak_scan_bench $leak_blocks 32 (mdebug defaults)"
  [ -z "$mimalloc" ] || echo "mimalloc: LD_PRELOAD=$mimalloc ($(dpkg-query -W -f='${Package} ${Version}' libmimalloc2.0))"
} >"$out/meta.txt"
note "machine: $os, $machine"
note "repetitions: $reps (valgrind $(reps_of valgrind), heaptrack $(reps_of heaptrack)); configurations: $configs"
echo "workload,config,rep,time_s,rss_kb,status,cpu_s,verdict" >"$raw"
# Odd repetitions run the configurations in CONFIGS order, even ones in the
# reverse order, so no configuration always runs right after a heavy one.
read -ra order <<<"$configs"
reversed=()
for ((i = ${#order[@]} - 1; i >= 0; i--)); do reversed+=("${order[i]}"); done
for w in $table_workloads; do
  for ((rep = 1; rep <= reps; rep++)); do
    printf '%-10s rep %d:' "$w" "$rep"
    if ((rep % 2)); then this=("${order[@]}"); else this=("${reversed[@]}"); fi
    for c in "${this[@]}"; do
      [ "$rep" -le "$(reps_of "$c")" ] || continue
      run "$w" "$c" "$rep"
    done
    echo
    flush_warnings
  done
done

# ---- the leak scan ---------------------------------------------------------------
# One mdebug_check_leaks() over LEAK_BLOCKS live blocks of 32 bytes, every
# 1000th unreachable, REPS times; leak_scan_bench times the check itself (not
# the allocations) and says how many leaks it found, which must be one in a
# thousand or the figure is not what it claims to be.
leak_csv=$out/leak_scan.csv
rm -f "$leak_csv"
if [ "$leak_scan" = 1 ]; then
  echo "rep,blocks,size,scan_s,leaked,verdict" >"$leak_csv"
  expected=$(((leak_blocks + 999) / 1000))
  printf '%-10s      :' leak_scan
  for ((rep = 1; rep <= reps; rep++)); do
    err=$out/logs/leak_scan.$rep.err status=0
    (cd "$tmp" && env "${clear_env[@]}" MDEBUG_OPTIONS=exitcode=0 \
      "$out/bin/leak_scan_bench.mdebug" "$leak_blocks" 32) >"$tmp/stdout" 2>"$err" || status=$?
    line=$(grep -m1 '^blocks=' "$tmp/stdout" || true)
    scan=$(sed -n 's/.* scan_s=\([0-9.]*\).*/\1/p' <<<"$line")
    leaked=$(sed -n 's/.* leaked=\([0-9]*\).*/\1/p' <<<"$line")
    verdict=ok
    if [ "$status" != 0 ] || [ -z "$scan" ]; then
      verdict=failed scan=0 leaked=0
      failures=$((failures + 1))
      warn_later "leak_scan: exited with status $status; $err begins:" "$(head -n 5 "$err")"
    elif [ "$leaked" != "$expected" ]; then
      verdict=failed
      failures=$((failures + 1))
      warn_later "leak_scan: the check found $leaked leaks, not $expected; $err begins:" "$(head -n 5 "$err")"
    else
      rm -f "$err" # the expected leak report
    fi
    echo "$rep,$leak_blocks,32,$scan,$leaked,$verdict" >>"$leak_csv"
    printf ' %s' "$scan"
  done
  echo
  flush_warnings
fi

# ---- the table -------------------------------------------------------------------
report_args=(--meta "$out/meta.txt" --raw "$raw" --out "$out")
[ "$leak_scan" = 0 ] || report_args+=(--leak-scan "$leak_csv")
python3 "$here/report.py" "${report_args[@]}" || die "report.py failed"
if [ "$invalid" -gt 0 ]; then
  warn "$invalid run(s) were invalid (mdebug rejected the options, or the loader did not preload): shown as 'invalid', not measured"
fi
if [ "$failures" -gt 0 ]; then
  echo "run-all.sh: $failures run(s) failed or timed out; see the warnings above and $out/logs/" >&2
  exit 1
fi
