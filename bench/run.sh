#!/usr/bin/env bash
# run.sh - compares alloc_bench built natively (clang -O2) with the same
# program built by mdebug-clang -O2, mode by mode, and prints the cost of
# mdebug as ratios to native. See README.md for the knobs and how to read the
# figures. Not part of the test suite: it takes minutes and its results
# depend on the machine.
#
# Native and mdebug runs are interleaved (native, then every configuration,
# repetition after repetition) so that drift in the machine's speed hits both
# alike; ratios are taken per repetition, then the median is reported.
#
# Writes bench/out/run/ (not bench/out/, where run-all.sh keeps its runs):
# the two binaries, raw.csv (every run) and results.csv
# (the table). Exits 1 if a build fails or a run exits non-zero.
set -euo pipefail

here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
build=${MDEBUG_BUILD:-$here/../build}
cc=${CC:-clang-14}
reps=${REPS:-5}
modes=${MODES:-single threads2 prodcons}
target=${TARGET_SECONDS:-1}
configs_spec=${CONFIGS:-default}
out=$here/out/run

die() { echo "run.sh: error: $*" >&2; exit 1; }
warn() { echo "run.sh: warning: $*" >&2; }

[[ $reps =~ ^[1-9][0-9]*$ ]] || die "REPS must be a positive integer, not '$reps'"
[[ -z ${ITERS:-} || $ITERS =~ ^[1-9][0-9]*$ ]] ||
  die "ITERS must be a positive integer, not '$ITERS'"
[[ $target =~ ^[0-9]*\.?[0-9]+$ ]] || die "TARGET_SECONDS must be a number, not '$target'"
command -v "$cc" >/dev/null || die "compiler '$cc' not found (set CC=...)"
wrapper=$build/bin/mdebug-clang
[ -x "$wrapper" ] ||
  die "$wrapper not found: build mdebug first (ninja -C $build) or set MDEBUG_BUILD=dir"

# ---- configurations: names and MDEBUG_OPTIONS strings ---------------------
# "default" runs with MDEBUG_OPTIONS unset. Two spellings:
#   'default all:guard fill free_track'   words; a word NAME:OPTS starts a
#                                          configuration, plain words continue
#                                          its options
#   'default; all:guard:fill free_track'  ';' between entries, each NAME or
#                                          NAME:OPTIONS taken verbatim
cfg_names=() cfg_set=() cfg_opts=()
add_config() {
  local name=$1
  [[ $name =~ ^[A-Za-z0-9_.+-]+$ ]] ||
    die "configuration name '$name' (in CONFIGS) may use only letters, digits and _ . + -"
  [ "$name" != native ] || die "configuration name 'native' is reserved"
  local n
  for n in "${cfg_names[@]}"; do
    [ "$n" != "$name" ] || die "configuration '$name' is named twice in CONFIGS"
  done
  cfg_names+=("$name") cfg_set+=("$2") cfg_opts+=("$3")
}
trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; echo "${s%"${s##*[![:space:]]}"}"; }
if [[ $configs_spec == *';'* ]]; then
  IFS=';' read -ra entries <<<"$configs_spec"
  for e in "${entries[@]}"; do
    e=$(trim "$e")
    if [ -z "$e" ]; then continue
    elif [ "$e" = default ]; then add_config default 0 ""
    elif [[ $e == *:* ]]; then add_config "$(trim "${e%%:*}")" 1 "$(trim "${e#*:}")"
    else die "CONFIGS entry '$e' must be 'default' or NAME:OPTIONS"
    fi
  done
else
  set -f
  current=-1
  for w in $configs_spec; do
    if [ "$w" = default ]; then add_config default 0 ""; current=-1
    elif [[ $w == *:* ]]; then add_config "${w%%:*}" 1 "${w#*:}"; current=$((${#cfg_names[@]} - 1))
    elif [ "$current" -ge 0 ]; then cfg_opts[current]="${cfg_opts[current]:+${cfg_opts[current]} }$w"
    else die "CONFIGS: option '$w' comes before any NAME:OPTIONS word"
    fi
  done
  set +f
fi
[ "${#cfg_names[@]}" -gt 0 ] || die "CONFIGS names no configuration"

# ---- build ------------------------------------------------------------------
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf -- "$tmp"' EXIT
native=$out/alloc_bench.native mdebug=$out/alloc_bench.mdebug runstat=$out/runstat
echo "building with $cc and $wrapper"
"$cc" -O2 -Wall -o "$runstat" "$here/runstat.c" || die "building runstat failed"
"$cc" -O2 -Wall -pthread -o "$native" "$here/alloc_bench.c" || die "native build failed"
"$wrapper" -O2 -Wall -pthread -o "$mdebug" "$here/alloc_bench.c" 2>"$tmp/build.err" ||
  { cat "$tmp/build.err" >&2; die "mdebug build failed"; }
[ -s "$tmp/build.err" ] && { warn "mdebug-clang printed:"; cat "$tmp/build.err" >&2; }

# ---- measuring one run ------------------------------------------------------
failures=0
# run LABEL ENV... -- BIN MODE ITERS: sets run_time, run_rss, run_status,
# run_cpu.
run() {
  local label=$1; shift
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  run_status=0
  env "${envs[@]}" "$runstat" "$tmp/res" "$@" >/dev/null 2>"$tmp/err" || run_status=$?
  if [ ! -s "$tmp/res" ]; then
    cat "$tmp/err" >&2
    die "could not measure $label ($*)"
  fi
  read -r run_time run_rss run_status run_cpu <"$tmp/res"
  rm -f "$tmp/res"
  if [ "$run_status" != 0 ]; then
    warn "$label: '$*' exited with status $run_status; its stderr begins:"
    head -n 5 "$tmp/err" >&2
    failures=$((failures + 1))
  elif [ -s "$tmp/err" ]; then
    warn "$label: '$*' wrote to stderr (an mdebug report?); it begins:"
    head -n 5 "$tmp/err" >&2
  fi
}

# Iterations per mode: ITERS, or what makes a native run last TARGET_SECONDS.
calibrate() {
  local mode=$1 n=100000
  if [ -n "${ITERS:-}" ]; then echo "$ITERS"; return; fi
  while :; do
    run "calibrate $mode" -u MDEBUG_OPTIONS -- "$native" "$mode" "$n"
    [ "$run_status" = 0 ] || die "native run failed while calibrating $mode"
    if awk -v t="$run_time" 'BEGIN { exit !(t >= 0.1) }' || [ "$n" -ge 1000000000 ]; then
      # Long enough to time; the fastest of three resists a busy machine.
      local best=$run_time
      for _ in 1 2; do
        run "calibrate $mode" -u MDEBUG_OPTIONS -- "$native" "$mode" "$n"
        best=$(awk -v a="$best" -v b="$run_time" 'BEGIN { print (b < a ? b : a) }')
      done
      awk -v n="$n" -v t="$best" -v want="$target" \
        'BEGIN { k = n * want / t; k = int(k / 1000 + 0.5) * 1000; print (k < 1000 ? 1000 : k) }'
      return
    fi
    n=$((n * 10))
  done
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan";
  else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# ---- the runs -----------------------------------------------------------------
echo "machine: $(nproc) CPUs, $(uname -sr); compiler: $("$cc" --version | head -n 1)"
echo "repetitions: $reps; configurations:"
for i in "${!cfg_names[@]}"; do
  if [ "${cfg_set[i]}" = 0 ]; then echo "  ${cfg_names[i]}: MDEBUG_OPTIONS unset"
  else echo "  ${cfg_names[i]}: MDEBUG_OPTIONS='${cfg_opts[i]}'"; fi
done

raw=$out/raw.csv
echo "mode,config,rep,iterations,time_s,rss_kb,status,cpu_s" >"$raw"
declare -A iters_of
for mode in $modes; do
  iters=$(calibrate "$mode")
  iters_of[$mode]=$iters
  printf '%-9s %s iterations:' "$mode" "$iters"
  for ((rep = 1; rep <= reps; rep++)); do
    run "$mode native" -u MDEBUG_OPTIONS -- "$native" "$mode" "$iters"
    echo "$mode,native,$rep,$iters,$run_time,$run_rss,$run_status,$run_cpu" >>"$raw"
    printf ' n=%s' "$run_time"
    for i in "${!cfg_names[@]}"; do
      if [ "${cfg_set[i]}" = 0 ]; then envs=(-u MDEBUG_OPTIONS)
      else envs=("MDEBUG_OPTIONS=${cfg_opts[i]}"); fi
      run "$mode ${cfg_names[i]}" "${envs[@]}" -- "$mdebug" "$mode" "$iters"
      echo "$mode,${cfg_names[i]},$rep,$iters,$run_time,$run_rss,$run_status,$run_cpu" >>"$raw"
      printf ' %s=%s' "${cfg_names[i]}" "$run_time"
    done
  done
  echo
done

# ---- the table ------------------------------------------------------------------
# column VALUES-OF MODE CONFIG FIELD: one value per repetition, in rep order.
column() { awk -F, -v m="$2" -v c="$3" -v f="$4" '$1 == m && $2 == c { print $f }' "$1"; }
# ratios MODE CONFIG FIELD: per-repetition config/native ratios.
ratios() {
  awk -F, -v m="$1" -v c="$2" -v f="$3" '
    $1 == m && $2 == "native" { base[$3] = $f }
    $1 == m && $2 == c { val[$3] = $f }
    END { for (r in val) if (base[r] > 0) print val[r] / base[r] }' "$raw"
}
results=$out/results.csv
echo "mode,config,mdebug_options,iterations,reps,native_time_s,native_rss_kb,mdebug_time_s,mdebug_rss_kb,time_ratio,rss_ratio,cpu_ratio,failed_runs" >"$results"
echo
printf '%-9s %-10s %10s %9s %12s %8s %8s %8s\n' mode config iterations native_s native_rss_MB time_x rss_x cpu_x
for mode in $modes; do
  nt=$(column "$raw" "$mode" native 5 | median)
  nr=$(column "$raw" "$mode" native 6 | median)
  for i in "${!cfg_names[@]}"; do
    c=${cfg_names[i]}
    ct=$(column "$raw" "$mode" "$c" 5 | median)
    cr=$(column "$raw" "$mode" "$c" 6 | median)
    tx=$(ratios "$mode" "$c" 5 | median)
    rx=$(ratios "$mode" "$c" 6 | median)
    ux=$(ratios "$mode" "$c" 8 | median)
    bad=$(awk -F, -v m="$mode" -v c="$c" '$1 == m && ($2 == c || $2 == "native") && $7 != 0 { n++ } END { print n + 0 }' "$raw")
    opts=${cfg_opts[i]//\"/\"\"}
    [ "${cfg_set[i]}" = 0 ] && opts="(unset)"
    echo "$mode,$c,\"$opts\",${iters_of[$mode]},$reps,$nt,$nr,$ct,$cr,$tx,$rx,$ux,$bad" >>"$results"
    printf '%-9s %-10s %10s %9.3f %12.1f %8.2f %8.2f %8.2f%s\n' "$mode" "$c" "${iters_of[$mode]}" \
      "$nt" "$(awk -v k="$nr" 'BEGIN { print k / 1024 }')" "$tx" "$rx" "$ux" \
      "$([ "$bad" = 0 ] || echo "  ($bad failed runs)")"
  done
done
echo
echo "time_x, rss_x, cpu_x: median over repetitions of (mdebug / native) wall time, peak RSS"
echo "and CPU time (user + system), each mdebug run divided by the native run of its repetition"
echo "written: $results, $raw"
if [ "$failures" -gt 0 ]; then
  echo "run.sh: $failures run(s) failed; see the warnings above" >&2
  exit 1
fi
