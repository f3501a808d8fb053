#!/usr/bin/env bash
# Times `pq-sat conquer` on a cube directory (made by `pq-sat cube`), to choose its defaults:
# a fresh in-process CaDiCaL per cube with its default, sat (the default since the per-core
# study) and unsat options vs --incremental workers (one CaDiCaL per worker, cubes under
# assumptions), kissat and kissat --unsat per cube, on 1 and JOBS workers.
#   scripts/bench-conquer.sh DIR [JOBS [RUNS]]
# Defaults: JOBS=2, 3 runs. DIR is copied to a scratch directory whose results are removed
# before every run, so DIR itself is never changed. Needs hyperfine; writes
# bench-results/conquer-*.md and prints the table. (conquer exits 10/20 for SAT/UNSAT, hence
# hyperfine -i.)
set -euo pipefail
cd "$(dirname "$0")/.."
src=${1:?usage: scripts/bench-conquer.sh DIR [JOBS [RUNS]]}
jobs=${2:-2}
runs=${3:-3}
[ -f "$src/manifest.json" ] || { echo "bench: $src is not a cube directory (make one with pq-sat cube)" >&2; exit 1; }
source scripts/bench-lib.sh
bench_setup "conquer"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src" "$work/cubes"
dir="$work/cubes"
prep="rm -rf $dir/results $dir/proofs"
cmds=()
for j in 1 "$jobs"; do
  for b in cadical cadical-sat cadical-unsat kissat; do
    cmds+=("$bin conquer $dir -j $j --backend $b --progress none --format json")
  done
  cmds+=("$bin conquer $dir -j $j --solver-cmd 'kissat -q --unsat' --progress none --format json")
  cmds+=("$bin conquer $dir -j $j --incremental --progress none --format json")
done
hyperfine -N -i --runs "$runs" --prepare "$prep" --export-markdown "$out" "${cmds[@]}" >&2
sed -e "s#$bin conquer $dir ##" -e "s# --progress none --format json##" "$out"
