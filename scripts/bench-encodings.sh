#!/usr/bin/env bash
# Times the UNSAT step n = a(d)+1 for every model × card × symmetry combination and backend.
#   scripts/bench-encodings.sh [DIM N [RUNS [BACKENDS...]]]
# Defaults: d = 8, n = 10, 3 runs, backends cadical and kissat. MODELS, CARDS and SYMS
# (space-separated) narrow the matrix, e.g. CARDS=totalizer SYMS=lex-leader. Needs hyperfine
# (apt-get install hyperfine) and a release build; writes bench-results/encodings-D-N.md.
set -euo pipefail
cd "$(dirname "$0")/.."
dim=${1:-8}
n=${2:-10}
runs=${3:-3}
source scripts/bench-lib.sh
bench_backends "${@:4}"
bench_setup "encodings-$dim-$n"
cmds=()
for backend in "${backends[@]}"; do
  for model in ${MODELS:-colouring lines pairwise}; do
    for card in ${CARDS:-totalizer seqcounter}; do
      for sym in ${SYMS:-lex-leader none}; do
        cmds+=("$bin solve --dim $dim --n $n --backend $backend --model $model --card $card --symmetry $sym")
      done
    done
  done
done
# Exit code 20 (UNSAT) is the expected answer, hence -i.
hyperfine -i -N --runs "$runs" --export-markdown "$out" "${cmds[@]}" >&2
sed -e "s#$bin solve ##" "$out"
