#!/usr/bin/env bash
# A cube-and-conquer prediction: splits each step with `pq-sat cube` (the default
# split) and estimates it with `--estimate` (a random sample of cubes solved one at a time,
# total CPU and the wall time on 1, 2, 16, 128, 1024 workers with 95% intervals).
#   scripts/bench-cube.sh [SAMPLE [BACKEND [D/N ...]]]
# Defaults: a sample of 30, kissat, the steps 9/13 10/15 11/18. Builds the release binary;
# writes bench-results/cube-<unix time>.md (one section per step: the split summary and the
# prediction table) and bench-results/cube-D-N.svg (the prediction plot, for docs/).
set -euo pipefail
cd "$(dirname "$0")/.."
sample=${1:-30}
backend=${2:-kissat}
shift $(( $# > 2 ? 2 : $# ))
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(9/13 10/15 11/18)
# PQ_SAT=path/to/pq-sat uses that binary instead of building the release one.
if [ -n "${PQ_SAT:-}" ]; then
  bin=$PQ_SAT
else
  cargo build --release -q
  bin=${CARGO_TARGET_DIR:-target}/release/pq-sat
fi
mkdir -p bench-results
out="bench-results/cube-$(date +%s).md"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for step in "${steps[@]}"; do
  d=${step%/*}
  n=${step#*/}
  {
    echo "## d = $d, n = $n (sample $sample, $backend)"
    echo
    echo '```'
    "$bin" cube -q --dim "$d" --n "$n" -o "$work/$d-$n" \
      --estimate --sample "$sample" --backend "$backend" \
      --plot "bench-results/cube-$d-$n.svg" --force
    echo '```'
    echo
  } | tee -a "$out"
done
echo "bench: wrote $out" >&2
