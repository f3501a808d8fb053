#!/usr/bin/env bash
# Dudeney's crowded chessboard on the native engine against the SAT path (kissat), same run,
# one thread each: the UNSAT step above each optimum, then `pq-sat estimate` for the steps
# past what a session runs. Writes bench-results/crowded-<time>.md.
#
#   scripts/bench-crowded.sh [RUNS] [SAMPLE]
#
# RUNS: hyperfine runs per step (3). SAMPLE: queens' orbits per estimate (100).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-lib.sh
runs=${1:-3}
sample=${2:-100}
bench_setup crowded
sets() { echo "--set board=$1x$1 --set queens=$1 --set rooks=$1 --set bishops=$(($1 * 2 - 2))"; }
step() {
  echo "solve --problem encodings/crowded-chessboard.toml $(sets "$1") --n $2 --jobs 1 --format json --progress none $3"
}
{
  echo "# Dudeney's crowded chessboard, $(date -u +%F), $(nproc) cores, one thread each"
  echo
} >"$out"
# The SAT path needs minutes from n = 9 on: it is timed where it answers.
for s in "8 22" "9 30" "10 38"; do
  set -- $s
  hyperfine -r "$runs" --export-markdown /tmp/crowded-hf.md \
    -n "engine $1/$2" "$bin $(step "$1" "$2" "") || true" \
    -n "kissat $1/$2" "$bin $(step "$1" "$2" "--engine sat --backend kissat") || true"
  cat /tmp/crowded-hf.md >>"$out"
  echo >>"$out"
done
for s in "11 48" "12 58" "13 70" "14 82"; do
  set -- $s
  hyperfine -r "$runs" --export-markdown /tmp/crowded-hf.md \
    -n "engine $1/$2" "$bin $(step "$1" "$2" "") || true"
  cat /tmp/crowded-hf.md >>"$out"
  echo >>"$out"
done
# The UNSAT steps above Hansen & Schimpf's n = 15, 16 and the next ones.
estimate_header "queens' orbits" >>"$out"
for s in "15 95" "16 110" "${CROWDED_NEXT:-17 127}"; do
  set -- $s
  # shellcheck disable=SC2046
  "$bin" estimate --problem encodings/crowded-chessboard.toml $(sets "$1") --n "$2" \
    --sample "$sample" --seed 1 --format json -q >/tmp/crowded-est.json
  estimate_row "$1/$2" "$sample" /tmp/crowded-est.json >>"$out"
done
cat "$out"
