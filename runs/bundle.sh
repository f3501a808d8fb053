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
#        by default target/scratch/aD in the repository; KEEP=/path the kept records,
#        by default runs/aD in the repository)
#
# Stopping it (Ctrl-C, or SIGTERM to the script) stops the run, then copies every finished
# result back before the script ends; a record is copied under a temporary name and renamed,
# so a kept record is always whole.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
d=$1; n=$2; jobs=${3:-2}
keep_dir=${KEEP:-$repo/runs/a$d}
kept=$keep_dir/results
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
for f in "$kept"/*.json; do
  [ -e "$f" ] || continue
  [ -e "$dir/results/${f##*/}" ] || cp "$f" "$dir/results/"
done
# The cube count from the manifest, which pq-sat checks (cubes.icnf is only derived from it).
cubes=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["cubes"]))' $dir/manifest.json)

# Copies the finished results that are new or changed into the kept folder, each through
# a temporary name, so that an interrupted copy never leaves a torn record.
keep() {
  local f name
  for f in $dir/results/*.json; do
    [ -e "$f" ] || continue
    name=${f##*/}
    if ! cmp -s "$f" "$kept/$name"; then
      cp "$f" "$kept/.$name.tmp"
      mv "$kept/.$name.tmp" "$kept/$name"
    fi
  done
}
stopped() { echo "bundle.sh: stopped; $(ls "$kept" | wc -l) results kept in $kept" >&2; }
# shellcheck source=runs/lib.sh
. "$repo/runs/lib.sh"
start_syncer 60

stamp=$(date +%Y%m%d-%H%M)
# conquer's own exit code says UNSAT, SAT or unknown, not failure.
run_stoppable nice -n 5 /usr/bin/time -v "$bin" conquer $dir --backend lines --proof \
  --check-unsat --keep-proof none --jobs "$jobs" > "conquer-$stamp.out" 2> "conquer-$stamp.err"
stop_syncer
keep
tail -2 "conquer-$stamp.err"
# 0: cubes left open (a time limit), 10 SAT, 20 UNSAT; anything else is a failure.
case $rc in 0|10|20) ;; *) echo "bundle.sh: conquer failed (exit $rc); see $work/conquer-$stamp.err" >&2; exit "$rc" ;; esac
if [ "$(ls $dir/results | wc -l)" -eq "$cubes" ] && [ ! -f $dir/completeness.done ]; then
  "$bin" solve-cube $dir --completeness --proof --check-unsat | tee completeness.out
  cp completeness.out "$keep_dir/.completeness.out.tmp"
  mv "$keep_dir/.completeness.out.tmp" "$keep_dir/completeness.out"
  touch $dir/completeness.done
fi
# The other half of a(d) = n - 1: a board with n - 1 queens of each colour, validated by
# pq-sat's independent validator before it is printed (the line engine finds it in seconds).
if [ -f $dir/completeness.done ] && [ ! -f "$keep_dir/witness.json" ]; then
  # exit 10 is SAT, the answer wanted
  wrc=0; "$bin" solve --dim "$d" --n $((n - 1)) --format json > witness.json.tmp || wrc=$?
  if [ $wrc -eq 10 ]; then mv witness.json.tmp "$keep_dir/witness.json"; fi
fi
# cube-status exits 20 when every cube is UNSAT, 0 while some are open.
src=0; "$bin" cube-status $dir || src=$?
case $src in 0|10|20) ;; *) exit "$src" ;; esac
