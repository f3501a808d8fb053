#!/usr/bin/env bash
# A recorded corpus for refactors that must not change behaviour: runs a fixed list of
# commands with one binary and keeps, per command, its standard output, standard error,
# exit code and any files it wrote, with times and temporary paths masked.
#
#   scripts/corpus.sh BIN OUT        # record BIN's behaviour in OUT/
#   diff -r OUT-before OUT-after     # empty when nothing changed
#
# Only deterministic engines answer here (varisat, the line engine on one thread, the
# encoder), so two runs of one binary agree byte for byte; kissat and minisat appear only
# where their answer, not their model, is printed.
set -euo pipefail
SRC=$(realpath "$1")
OUT=$(realpath -m "$2")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$OUT"
mkdir -p "$OUT"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# The binary's own name shows in clap's usage lines; give every binary the same one.
mkdir "$WORK/bin"
cp "$SRC" "$WORK/bin/pq-sat"
BIN=$WORK/bin/pq-sat
k=0

mask() {
  sed -E -e "s#$WORK#TMP#g" -e "s#$ROOT#ROOT#g" \
    -e 's/largest cube [0-9]+/largest cube #/' \
    -e 's/[0-9]+\.[0-9]+(e-?[0-9]+)?/#/g' \
    -e 's/"(seconds|wall|cpu|time|elapsed|rss_kb|max_rss_kb|kb)": ?[0-9]+/"\1":#/g' \
    -e 's/(created|date|machine|host|version)": ?"[^"]*"/\1":"#"/g'
}

# run NAME ARGS...: one corpus entry, run inside a fresh directory.
run() {
  local name=$1
  shift
  k=$((k + 1))
  local id
  id=$(printf '%03d-%s' "$k" "$name")
  local dir="$WORK/$id"
  mkdir -p "$dir"
  local rc=0
  (cd "$dir" && "$BIN" "$@" >"$WORK/stdout" 2>"$WORK/stderr") || rc=$?
  {
    echo "\$ pq-sat $*" | mask
    echo "exit $rc"
    echo "--- stdout"
    mask <"$WORK/stdout"
    echo "--- stderr"
    mask <"$WORK/stderr"
    (cd "$dir" && find . -type f | LC_ALL=C sort | while read -r f; do
      echo "--- file $f"
      case "$f" in
        *.xz | *.gz | *.pdf) echo "(binary, $(wc -c <"$f") bytes)" ;;
        *) mask <"$f" ;;
      esac
    done)
  } >"$OUT/$id.txt"
}

E=$ROOT/encodings
# --help of pq-sat and of every command: the arguments' documentation.
run help --help
for c in encode solve enumerate canon family cube check-proof check-certificate race submission render solvers solve-cube conquer cube-status hash man completions; do
  run "help-$c" "$c" --help
done
# encode: every model, cardinality, symmetry and format on small boards.
run encode-default encode --dim 5 --n 4
run encode-6-5 encode --dim 6 --n 5
for card in totalizer seqcounter; do
  for sym in none lex-leader; do
    run "encode-$card-$sym" encode --dim 5 --n 4 --card "$card" --symmetry "$sym"
  done
done
run encode-colouring encode --dim 5 --n 4 --model colouring
run encode-wcnf encode --dim 4 --format wcnf
run encode-opb encode --dim 4 --format opb
run encode-out encode --dim 4 --n 2 -o q.cnf
run encode-xz encode --dim 4 --n 2 -o q.cnf.xz
run encode-knights encode --problem "$E/peaceable-knights.toml" --set board=4x4 --n 3
run encode-torus encode --problem "$E/peaceable-queens-torus.toml" --set board=5x5 --n 2
run encode-armies encode --problem "$E/three-armies.toml" --set board=5x5 --n 2
run encode-dudeney encode --problem "$E/crowded-chessboard.toml" --set board=5x5 --set queens=5 --set rooks=5 --set bishops=8 --set knights=3
# solve: decisions, optima, JSON, DIMACS input, several engines.
run solve-n-varisat solve --dim 5 --n 4 --backend varisat --cubes=never
run solve-n-unsat solve --dim 5 --n 5 --backend varisat --cubes=never
run solve-n-json solve --dim 6 --n 5 --backend varisat --cubes=never --format json
run solve-opt-varisat solve --dim 6 --backend varisat --cubes=never
run solve-opt-json solve --dim 6 --backend varisat --cubes=never --format json
run solve-opt-lines solve --dim 7 --engine lines --jobs 1
run solve-opt-lines-json solve --dim 7 --engine lines --jobs 1 --format json
run solve-kissat-n solve --dim 5 --n 5 --backend kissat
run solve-svg-n solve --dim 5 --n 4 --backend varisat --cubes=never --svg s.svg
run solve-svg-opt solve --dim 5 --backend varisat --cubes=never --svg o.svg
run solve-svg-lines solve --dim 6 --engine lines --jobs 1 --svg l.svg
run solve-bisect solve --dim 6 --backend varisat --cubes=never --strategy bisect
"$BIN" encode --dim 4 --n 2 -o "$WORK/q4.cnf" 2>/dev/null
run solve-cnf-file solve --cnf "$WORK/q4.cnf" --backend varisat --cubes=never
run solve-problem solve --problem "$E/peaceable-knights.toml" --set board=4x4 --backend varisat --cubes=never
run solve-torus solve --problem "$E/peaceable-queens-torus.toml" --set board=5x5 --backend varisat --cubes=never --format json
run solve-proof solve --dim 4 --n 3 --backend kissat --proof p.drat
run solve-certify solve --dim 4 --backend kissat --certify "$WORK/cert"
run check-certificate check-certificate "$WORK/cert"
# enumerate, canon, render.
run enumerate-5 enumerate --dim 5 --jobs 1
run enumerate-5-total enumerate --dim 5 --jobs 1 --up-to total --count
run enumerate-json enumerate --dim 4 --n 2 --jobs 1 --format json
printf 'W.W..\n....B\nW.W..\n....B\n.B.B.\n' >"$WORK/board.txt"
run canon-board canon "$WORK/board.txt"
run render-board render "$WORK/board.txt" -o b.svg
# family, cube and conquer.
run family family --dim 4,5 -o fam
run cube-rows cube --dim 6 --n 6 --split rows -o c6
run cube-lines cube --dim 6 --n 6 --split lines --depth 2 -o c6l
"$BIN" cube --dim 6 --n 6 --split rows -o "$WORK/c6c" >/dev/null 2>&1
run conquer conquer "$WORK/c6c" --backend varisat --jobs 1
run cube-status cube-status "$WORK/c6c"
run cube-slurm conquer "$WORK/c6c" --emit slurm
run hash hash "$WORK/q4.cnf"
# Other problems: their own words in every report (the preset's are above).
run enumerate-armies enumerate --problem "$E/three-armies.toml" --set board=4x4 --n 1 --jobs 1
run enumerate-armies-opt enumerate --problem "$E/three-armies.toml" --set board=4x4 --count --jobs 1
run cube-armies cube --problem "$E/three-armies.toml" --set board=5x5 --n 2 -o ca
"$BIN" encode --problem "$E/peaceable-knights.toml" --set board=4x4 --n 3 -o "$WORK/k4.cnf" 2>/dev/null
run cube-knights-cnf cube --cnf "$WORK/k4.cnf" -o ck
run solve-knights-cnf solve --cnf "$WORK/k4.cnf" --backend varisat --cubes=never
"$BIN" solve --problem "$E/three-armies.toml" --set board=5x5 --n 1 --engine sat --backend varisat --cubes=never --format json >"$WORK/a5.json" 2>/dev/null || true
run render-armies render "$WORK/a5.json" -o a.svg
run canon-armies canon "$WORK/a5.json"
run solve-armies-text solve --problem "$E/three-armies.toml" --set board=5x5 --n 2 --engine sat --backend varisat --cubes=never
# bad input: each refused with a message and a non-zero exit code.
run bad-dim encode --dim 0 --n 1
run bad-n encode --dim 4 --n 99
run bad-flag solve --dim 4 --frobnicate
run bad-backend solve --dim 4 --backend nosuch
run bad-problem solve --problem /nonexistent.toml
run bad-cnf solve --cnf /nonexistent.cnf
run bad-cube-dir conquer /nonexistent
run bad-cert check-certificate /nonexistent
run bad-timeout solve --dim 4 --timeout -1
run bad-proof-opt solve --dim 4 --proof p.drat --backend varisat
echo "corpus: $k commands recorded in $OUT"
