#!/usr/bin/env bash
# Three armies of queens (OEIS A328283) on the line engine: UNSAT steps timed one thread at a
# time against a BASELINE build (an older pq-sat, same run), then `pq-sat estimate` for the
# steps past what a session can run. Writes bench-results/armies-<time>.md.
#
#   scripts/bench-armies.sh [BASELINE] [RUNS] [SAMPLE]
#
# BASELINE is another pq-sat binary (e.g. a release build of an older commit, made outside
# this tree); without it only this build is timed. RUNS: hyperfine runs per step (3).
# SAMPLE: row colourings per estimate (30).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-lib.sh
base=${1:-}
runs=${2:-3}
sample=${3:-30}
bench_setup armies
step() { echo "solve --problem encodings/three-armies.toml --set board=$1x$1 --n $2 --jobs 1 --format json --progress none"; }
{
  echo "# Three armies on the line engine, $(date -u +%F), $(nproc) cores, one thread each"
  echo
} >"$out"
for s in "9 6" "10 8"; do
  set -- $s
  cmds=(-n "this build $1x$1/$2" "$bin $(step "$1" "$2") || true")
  [ -z "$base" ] || cmds+=(-n "baseline $1x$1/$2" "$base $(step "$1" "$2") || true")
  hyperfine -r "$runs" --export-markdown /tmp/armies-hf.md "${cmds[@]}"
  cat /tmp/armies-hf.md >>"$out"
  echo >>"$out"
done
# The UNSAT step one above each optimum d = 11..15 (OEIS A328283: 8, 10, 12, 14; the
# lower bound 16 for d = 15).
estimate_header "row colourings" >>"$out"
for s in "11 9" "12 11" "13 13" "14 15" "15 17"; do
  set -- $s
  "$bin" estimate --problem encodings/three-armies.toml --set "board=$1x$1" --n "$2" \
    --sample "$sample" --format json -q >/tmp/armies-est.json
  estimate_row "$1/$2" "$sample" /tmp/armies-est.json >>"$out"
done
cat "$out"
