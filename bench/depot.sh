#!/usr/bin/env bash
# depot.sh - the stack depot's memory and time: depot_bench.c (1,000,000
# allocations from 1,000 distinct stacks) built natively and with mdebug,
# run REPS times interleaved; prints the depot line of the allocator stats
# and the median time ratios of mdebug default and backtrace=16 to native.
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
build=${MDEBUG_BUILD:-$here/../build}
reps=${REPS:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
clang-14 -O1 -o "$out/native" "$here/depot_bench.c"
"$build/bin/mdebug-clang" -O1 -o "$out/mdebug" "$here/depot_bench.c"

seconds() { # command... -> wall seconds on stdout
  local t0 t1
  t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}
median() { sort -g | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}'; }

: >"$out/default" ; : >"$out/bt16"
for ((r = 0; r < reps; r++)); do
  n=$(seconds "$out/native")
  d=$(seconds "$out/mdebug")
  b=$(seconds env MDEBUG_OPTIONS=backtrace=16 "$out/mdebug")
  echo "$d / $n" | bc -l >>"$out/default"
  echo "$b / $n" | bc -l >>"$out/bt16"
done
MDEBUG_OPTIONS='backtrace=16 log_allocator_stats_on_exit' "$out/mdebug" 2>&1 |
  grep 'stack depot'
printf 'time ratio to native (median of %d): default %.2fx, backtrace=16 %.2fx\n' \
  "$reps" "$(median <"$out/default")" "$(median <"$out/bt16")"
