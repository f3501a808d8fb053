#!/usr/bin/env bash
# A checked bundle of a(d): the step d/n (n = a(d) + 1) as row cubes, each refuted by the
# line engine's tree written as DRAT and checked by rate on its worker before it counts.
# Proofs are dropped after their check (--keep-proof none): each result records the
# proof's SHA-256, size and verdict, and `cube-status --check` makes and checks it again.
# When every cube is done, the completeness proof (the cubes cover the formula) is written
# and checked, and the witness for n - 1 is kept beside the records.
#
# Machines here do not keep files between sessions, so the results live in the repository
# (runs/aD/results) and the cube directory is rebuilt from the formula, which is a pure
# function of pq-sat's encoder: a result counts only for the formula and cube it names.
#
# usage: runs/bundle.sh D N [JOBS]   (from anywhere; WORK=/path overrides the scratch place,
#        by default target/scratch/aD in the repository)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
d=$1; n=$2; jobs=${3:-2}
kept=$repo/runs/a$d/results
work=${WORK:-$repo/target/scratch/a$d}
bin=${BIN:-$repo/target/release/pq-sat}
dir=c${d}t
mkdir -p "$work" "$kept"
cd "$work"
[ -x "$bin" ] || (cd "$repo" && cargo build --release)
if [ ! -f $dir/manifest.json ]; then
  "$bin" cube --dim "$d" --n "$n" --bounds sums --split rows --depth 0 -o $dir
fi
mkdir -p $dir/results
cp -n "$kept"/*.json $dir/results/ 2>/dev/null || true
cubes=$(grep -c '^a ' $dir/cubes.icnf)

# Copy finished results back into the repository every minute and at the end.
keep() { cp -u $dir/results/*.json "$kept/" 2>/dev/null || true; }
( while sleep 60; do keep; done ) &
syncer=$!
trap 'kill $syncer 2>/dev/null; keep' EXIT

stamp=$(date +%Y%m%d-%H%M)
nice -n 5 /usr/bin/time -v "$bin" conquer $dir --backend lines --proof --check-unsat \
  --keep-proof none --jobs "$jobs" > "conquer-$stamp.out" 2> "conquer-$stamp.err" || true
tail -2 "conquer-$stamp.err"
if [ "$(ls $dir/results | wc -l)" -eq "$cubes" ] && [ ! -f $dir/completeness.done ]; then
  "$bin" solve-cube $dir --completeness --proof --check-unsat | tee completeness.out
  cp completeness.out "$repo/runs/a$d/completeness.out"
  touch $dir/completeness.done
fi
# The other half of a(d) = n - 1: a board with n - 1 queens of each colour, validated by
# pq-sat's independent validator before it is printed (the line engine finds it in seconds).
if [ -f $dir/completeness.done ] && [ ! -f "$repo/runs/a$d/witness.json" ]; then
  # exit 10 is SAT, the answer wanted
  rc=0; "$bin" solve --dim "$d" --n $((n - 1)) --format json > witness.json.tmp || rc=$?
  if [ $rc -eq 10 ]; then mv witness.json.tmp "$repo/runs/a$d/witness.json"; fi
fi
"$bin" cube-status $dir || true
