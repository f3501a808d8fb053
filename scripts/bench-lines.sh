#!/usr/bin/env bash
# The line engine against the published branch-and-bound it is measured against, one core,
# same run; then whole a(d) runs on both cores. Writes bench-results/lines-<time>.md.
#
#   scripts/bench-lines.sh [REF] [RUNS] [STEPS...]
#
# REF is that branch-and-bound's binary, built OUTSIDE this repository from its public
# source (github farev/Matematica, conjectures/peaceable-queens/bnb.c at commit a37e1679,
# `gcc -O2 -march=native -DSYM16 -o /tmp/ref/bnb_sym bnb.c`); default /tmp/ref/bnb_sym.
# Without it only pq-sat is timed. STEPS are "D M" pairs (default: 10/15 to 13/25).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-lib.sh
ref=${1:-/tmp/ref/bnb_sym}
runs=${2:-5}
shift $(( $# < 2 ? $# : 2 ))
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=("10 15" "11 18" "12 22" "13 25")
bench_setup lines
cargo build --release -q -p pq-lines --example decide
decide=${CARGO_TARGET_DIR:-target}/release/examples/decide
{
  echo "# The line engine, $(date -u +%F), $(nproc) cores"
  echo
  echo "## One step, one core: nodes"
  echo
  echo "| step | reference nodes | pq-lines nodes (+ pairs) |"
  echo "| --- | ---: | ---: |"
  for step in "${steps[@]}"; do
    set -- $step
    r=-
    if [ -x "$ref" ]; then r=$({ "$ref" "$1" "$2" || true; } | head -1 | sed -n "s/.*nodes=\([0-9]*\).*/\1/p"); fi
    ours=$("$decide" "$1" "$2" 1 | head -1)
    n=$(sed -n 's/.*nodes=\([0-9]*\).*/\1/p' <<<"$ours")
    p=$(sed -n 's/.*pairs=\([0-9]*\).*/\1/p' <<<"$ours")
    echo "| $1/$2 | $r | $n (+ $p) |"
  done
  echo
} >"$out"
for step in "${steps[@]}"; do
  set -- $step
  cmds=()
  [ -x "$ref" ] && cmds+=("$ref $1 $2")
  cmds+=("$decide $1 $2 1")
  hyperfine -N -i --runs "$runs" --export-markdown /tmp/bench-lines-step.md "${cmds[@]}" >&2
  { echo "## $1/$2, one core"; echo; cat /tmp/bench-lines-step.md; echo; } >>"$out"
done
# Whole a(d) with the witness, both cores (the default --jobs), through the CLI.
dims=${DIMS:-"10 11 12 13"}
cmds=()
for d in $dims; do cmds+=("$bin solve --dim $d --progress none"); done
hyperfine -N --runs "$runs" --export-markdown /tmp/bench-lines-whole.md "${cmds[@]}" >&2
{ echo "## a(d) with its witness, 2 cores (pq-sat solve --dim D)"; echo; cat /tmp/bench-lines-whole.md; } >>"$out"
echo "bench: wrote $out" >&2
