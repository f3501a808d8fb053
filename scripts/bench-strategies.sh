#!/usr/bin/env bash
# Times `pq-sat solve --dim D` (the whole optimisation) for each strategy, single solvers and
# the portfolio:
#   up / incremental / bisect with the in-process CaDiCaL alone (--backend cadical),
#   up with kissat alone, and up / bisect with the default portfolio (--jobs 2: CaDiCaL
#   in-process racing kissat on every step).
#   scripts/bench-strategies.sh [DIMS [RUNS]]
# Defaults: DIMS="6 7 8 9", 3 runs (d = 10 takes minutes per command: run it with RUNS=1).
# Needs hyperfine; writes bench-results/strategies-*.md and prints the table.
set -euo pipefail
cd "$(dirname "$0")/.."
dims=${1:-6 7 8 9}
runs=${2:-3}
source scripts/bench-lib.sh
bench_setup "strategies"
cmds=()
for d in $dims; do
  cmds+=("$bin solve --dim $d --strategy up --backend cadical --format json")
  cmds+=("$bin solve --dim $d --strategy incremental --format json")
  cmds+=("$bin solve --dim $d --strategy bisect --backend cadical --format json")
  cmds+=("$bin solve --dim $d --strategy up --backend kissat --format json")
  cmds+=("$bin solve --dim $d --strategy up --jobs 2 --format json")
  cmds+=("$bin solve --dim $d --strategy bisect --jobs 2 --format json")
done
hyperfine -N --runs "$runs" --export-markdown "$out" "${cmds[@]}" >&2
sed -e "s#$bin solve ##" -e "s# --format json##" "$out"
