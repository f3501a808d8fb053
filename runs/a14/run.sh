#!/usr/bin/env bash
# a(14)'s checked bundle (issue 27): the step 14/29 as 4,103 row cubes, each refuted by the
# line engine's search tree written as DRAT and checked by rate on its worker before it
# counts. Proofs are dropped after their check (--keep-proof none): each result records the
# proof's SHA-256, size and verdict, and `cube-status --check` makes and checks it again.
#
# Machines here do not keep files between sessions, so the results live in the repository
# (runs/a14/results) and the cube directory is rebuilt from the formula, which is a pure
# function of pq-sat's encoder: a result counts only for the formula and cube it names.
#
# usage: runs/a14/run.sh [JOBS]      (from anywhere; WORK=/path overrides the scratch place)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
jobs=${1:-2}
work=${WORK:-/work/scratch/a14}
bin=${BIN:-$repo/target/release/pq-sat}
mkdir -p "$work"
cd "$work"
[ -x "$bin" ] || (cd "$repo" && cargo build --release)
if [ ! -f c14t/manifest.json ]; then
  "$bin" cube --dim 14 --n 29 --bounds sums --split rows --depth 0 -o c14t
fi
mkdir -p c14t/results
cp -n "$here"/results/*.json c14t/results/ 2>/dev/null || true

# Copy finished results back into the repository every minute and at the end.
keep() { cp -u c14t/results/*.json "$here/results/" 2>/dev/null || true; }
( while sleep 60; do keep; done ) &
syncer=$!
trap 'kill $syncer 2>/dev/null; keep' EXIT

stamp=$(date +%Y%m%d-%H%M)
nice -n 5 /usr/bin/time -v "$bin" conquer c14t --backend lines --proof --check-unsat \
  --keep-proof none --jobs "$jobs" > "conquer-$stamp.out" 2> "conquer-$stamp.err" || true
tail -2 "conquer-$stamp.err"
if [ "$(ls c14t/results | wc -l)" -eq 4103 ] && [ ! -f c14t/completeness.done ]; then
  "$bin" solve-cube c14t --completeness --proof --check-unsat | tee completeness.out
  touch c14t/completeness.done
fi
"$bin" cube-status c14t || true
