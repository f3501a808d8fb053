#!/usr/bin/env bash
# When should `solve --jobs 2` split a step into cubes? Times the whole optimisation a(d)
# with every step raced by two solvers (--cubes=never), split after a probe of P seconds
# (--cube-after P), and split at once (--cubes=always) (BENCHMARKS.md, "When to split"; those
# figures alternated the configurations by hand, hyperfine runs each one's runs in a row).
#   scripts/bench-policy.sh [RUNS [D ...]]
# Defaults: 3 runs, d = 6 7 8 9 10. Needs hyperfine; writes bench-results/policy-*.md.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
shift $(( $# > 0 ? 1 : 0 ))
dims=("$@")
[ ${#dims[@]} -gt 0 ] || dims=(6 7 8 9 10)
source scripts/bench-lib.sh
bench_setup "policy"
work_md=$(mktemp)
trap 'rm -f "$work_md"' EXIT
for d in "${dims[@]}"; do
  cmds=()
  for cfg in "--cubes=never" "--cube-after 2" "--cube-after 5" "--cubes=always"; do
    cmds+=("$bin solve --dim $d --jobs 2 $cfg --progress none --format json")
  done
  echo "## a($d)" >> "$out"
  hyperfine -N --runs "$runs" --export-markdown "$work_md" "${cmds[@]}" >&2
  sed -e "s#$bin solve ##" -e "s# --progress none --format json##" "$work_md" | tee -a "$out"
  echo >> "$out"
done
