#!/usr/bin/env bash
# One step of Dudeney's crowded chessboard on the line engine, resumable across machines:
# the step's journal is kept here as sN-K.journal.xz, the scratch copy in $WORK (default
# target/scratch/dudeney in the repository); see runs/lib.sh, `journal_step`.
#
# usage: runs/dudeney/step.sh N KNIGHTS [JOBS]
set -euo pipefail
# shellcheck source=runs/lib.sh
. "$(dirname "$0")/../lib.sh"
n=$1; k=$2; jobs=${3:-1}
journal_settings "s$n-$k" 5
journal_step --problem "$repo/encodings/crowded-chessboard.toml" \
  --set "board=${n}x${n}" --set "queens=$n" --set "rooks=$n" --set "bishops=$((2 * n - 2))" \
  --n "$k" --jobs "$jobs"
