#!/usr/bin/env bash
# pairs.sh - two commands' times compared in interleaved pairs: A and B run
# one after the other N times (A B, then B A, and so on), each under
# runstat, and the ratio A/B of each pair's CPU time (user + system) and
# wall time is taken; prints their medians and ranges and in how many pairs
# A took less CPU time. On a shared machine whose speed moves in streaks,
# two runs made back to back see the same load: the ratio of a pair is
# steadier than either time (run-all.sh's table compares whole
# configurations the same way, per repetition).
#
#   bench/pairs.sh [-n PAIRS] [-o RAW] COMMAND_A... -- COMMAND_B...
#
# -n: how many pairs (default 10); -o: also write each run as a line
# "PAIR A|B WALL_S MAXRSS_KB STATUS CPU_S" to RAW. Both commands run with
# the caller's environment, their output discarded. A command that fails
# (non-zero status) stops the comparison with an error that names it.
# Measures; asserts nothing: the figures are for notes and the README.
set -euo pipefail

here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
die() { echo "pairs.sh: error: $*" >&2; exit 2; }
usage() { die "usage: pairs.sh [-n PAIRS] [-o RAW] COMMAND_A... -- COMMAND_B..."; }

pairs=10 raw=""
while getopts n:o: opt; do
  case $opt in
    n) [[ $OPTARG =~ ^[1-9][0-9]*$ ]] || die "-n wants a positive number of pairs, not '$OPTARG'"
       pairs=$OPTARG ;;
    o) raw=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
a=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do a+=("$1"); shift; done
[ $# -gt 0 ] || usage
shift
b=("$@")
[ ${#a[@]} -gt 0 ] && [ ${#b[@]} -gt 0 ] || usage

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# runstat: run-all.sh's build of it, or one of our own.
runstat=$here/out/bin/runstat
if [ ! -x "$runstat" ]; then
  runstat=$tmp/runstat
  "${CC:-cc}" -O2 -o "$runstat" "$here/runstat.c" || die "could not build runstat"
fi

# one WHICH PAIR: a run of A or B, its line appended to $tmp/raw.
one() {
  local which=$1 pair=$2 status=0
  local -n cmd=$3
  "$runstat" "$tmp/stat" "${cmd[@]}" >/dev/null 2>&1 || status=$?
  [ -s "$tmp/stat" ] || die "$which (${cmd[*]}) could not be run"
  read -r wall rss st cpu <"$tmp/stat"
  [ "$status" -eq 0 ] && [ "$st" -eq 0 ] ||
    die "$which (${cmd[*]}) exited with status $st in pair $pair"
  echo "$pair $which $wall $rss $st $cpu" >>"$tmp/raw"
}

: >"$tmp/raw"
for ((i = 1; i <= pairs; i++)); do
  if ((i % 2)); then one A "$i" a; one B "$i" b; else one B "$i" b; one A "$i" a; fi
done
[ -z "$raw" ] || cp "$tmp/raw" "$raw"

awk -v n="$pairs" '
  { t[$1, $2, "wall"] = $3; t[$1, $2, "cpu"] = $6 }
  function median(v, k,   i, j, x) {
    for (i = 2; i <= k; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
    return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
  }
  function ratios(kind, r,   i, d) {
    for (i = 1; i <= n; i++) {
      d = t[i, "B", kind]; r[i] = d > 0 ? t[i, "A", kind] / d : 0
    }
  }
  END {
    ratios("cpu", c); ratios("wall", w)
    less = 0; cmin = wmin = 1e9; cmax = wmax = 0
    for (i = 1; i <= n; i++) {
      if (c[i] < 1) less++
      if (c[i] < cmin) cmin = c[i]; if (c[i] > cmax) cmax = c[i]
      if (w[i] < wmin) wmin = w[i]; if (w[i] > wmax) wmax = w[i]
    }
    printf "%d pairs, A/B: CPU time median %.3fx (%.3f-%.3fx), wall median %.3fx (%.3f-%.3fx); A took less CPU time in %d of %d\n",
      n, median(c, n), cmin, cmax, median(w, n), wmin, wmax, less, n
  }' "$tmp/raw"
