#!/usr/bin/env bash
# profile_read.sh - how long mdebug-report takes to read a big heap profile.
# Generates a profile of about 10 million records (1,000 sites, 5,800
# periodic totals of every site, 20 snapshots, the sampled frees) with
# test/Inputs/profile_gen.c, which writes it through the runtime's own
# profile writer, then times mdebug-report on it: reading only (the
# double-frees report, which costs nothing to compute) and the default
# reports (reading plus growth analysis, allocation and deallocation points,
# time slices). Target: under 10 s for 10 million records.
#
#   bench/profile_read.sh [BUILD_DIR]     (default: build/)
# PROFILE_READ_PERIODS=N changes the size (5800: ~10.0 million records).
set -euo pipefail
root=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}
periods=${PROFILE_READ_PERIODS:-5800}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

clang-14 -O2 -I"$root/runtime/src" -I"$root/runtime/include" \
  "$root/test/Inputs/profile_gen.c" "$build/lib/libmdebug-rt.a" -o "$out/gen"
echo "== generating (periods=$periods)"
MDEBUG_OPTIONS=none "$out/gen" --sites=1000 --periods="$periods" --snapshots=20 "$out/big.mdprof"
ls -l "$out/big.mdprof" | awk '{printf "profile: %.0f MB\n", $5 / 1e6}'
# Warm the page cache: measure mdebug-report, not the disk.
cat "$out/big.mdprof" > /dev/null

report=$build/bin/mdebug-report
for what in "--report=double-frees" ""; do
  label=${what:-"(default reports)"}
  echo "== mdebug-report $label"
  for run in 1 2 3; do
    /usr/bin/time -f "run $run: %e s wall, %U s user, %S s sys, %M KB max RSS" \
      "$report" $what "$out/big.mdprof" > /dev/null
  done
done
