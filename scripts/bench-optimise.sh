#!/usr/bin/env bash
# Times the whole optimisation `pq-sat solve --dim D` (greedy bound, SAT steps, final UNSAT)
# for each board size and backend.
#   scripts/bench-optimise.sh [DIMS [RUNS [BACKENDS...]]]
# Defaults: DIMS="6 7 8 9 10", 3 runs, backends cadical and kissat. Needs hyperfine;
# writes bench-results/optimise-*.md and prints the table.
set -euo pipefail
cd "$(dirname "$0")/.."
dims=${1:-6 7 8 9 10}
runs=${2:-3}
source scripts/bench-lib.sh
bench_backends "${@:3}"
bench_setup "optimise"
cmds=()
for d in $dims; do
  for backend in "${backends[@]}"; do
    cmds+=("$bin solve --dim $d --backend $backend --format json")
  done
done
hyperfine -N --runs "$runs" --export-markdown "$out" "${cmds[@]}" >&2
sed -e "s#$bin solve ##" -e "s# --format json##" "$out"
