#!/usr/bin/env bash
# One step of Dudeney's crowded chessboard on the line engine, resumable across machines:
# the step's journal is kept here as sN-K.journal.xz (copied back every five minutes and
# at the end), the scratch copy in $WORK (default target/scratch/dudeney in the
# repository).
#
# usage: runs/dudeney/step.sh N KNIGHTS [JOBS]
# The answer goes to $WORK/sN-K.<time>.json (exit 10 SAT, 20 UNSAT), the time to .err.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
n=$1; k=$2; jobs=${3:-1}
work=${WORK:-$repo/target/scratch/dudeney}
bin=${BIN:-$repo/target/release/pq-sat}
[ -x "$bin" ] || (cd "$repo" && cargo build --release)
mkdir -p "$work"
cd "$work"
journal=s$n-$k.journal
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
run_stoppable nice -n 5 /usr/bin/time -v "$bin" solve \
  --problem "$repo/encodings/crowded-chessboard.toml" \
  --set "board=${n}x${n}" --set "queens=$n" --set "rooks=$n" --set "bishops=$((2 * n - 2))" \
  --n "$k" --journal "$journal" --jobs "$jobs" --format json --progress lines \
  > "s$n-$k.$stamp.json" 2> "s$n-$k.$stamp.err"
stop_syncer
keep
echo "exit $rc (10 SAT, 20 UNSAT, 0 unknown): $work/s$n-$k.$stamp.json"
tail -3 "s$n-$k.$stamp.err"
