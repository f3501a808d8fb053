#!/usr/bin/env bash
# One step of the peaceable queens on the D x D torus (OEIS A279405) on the line engine,
# resumable across machines: the step's journal (the row sets searched to their end) is kept
# here as tD-N.journal.xz (copied back every five minutes and at the end), the scratch copy
# in $WORK (default target/scratch/torus in the repository).
#
# usage: runs/torus/step.sh D N [JOBS]
# The answer goes to $WORK/tD-N.<time>.json (exit 10 SAT, 20 UNSAT, 0 unknown), the time
# to .err.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
d=$1; n=$2; jobs=${3:-1}
work=${WORK:-$repo/target/scratch/torus}
bin=${BIN:-$repo/target/release/pq-sat}
[ -x "$bin" ] || (cd "$repo" && cargo build --release)
mkdir -p "$work"
cd "$work"
journal=t$d-$n.journal
kept=$here/$journal.xz
if [ -f "$kept" ] && [ ! -f "$journal" ]; then
  xz -dc "$kept" > "$journal"
fi
keep() {
  if [ -f "$journal" ]; then xz -9 -c "$journal" > "$kept.tmp" && mv "$kept.tmp" "$kept"; fi
}
# shellcheck source=runs/lib.sh
. "$repo/runs/lib.sh"
start_syncer 300
stamp=$(date +%Y%m%d-%H%M)
run_stoppable nice -n 19 /usr/bin/time -v "$bin" solve \
  --problem "$repo/encodings/peaceable-queens-torus.toml" --set "board=${d}x${d}" \
  --n "$n" --journal "$journal" --jobs "$jobs" --format json --progress lines \
  > "t$d-$n.$stamp.json" 2> "t$d-$n.$stamp.err"
stop_syncer
keep
echo "exit $rc (10 SAT, 20 UNSAT, 0 unknown): $work/t$d-$n.$stamp.json"
tail -3 "t$d-$n.$stamp.err"
