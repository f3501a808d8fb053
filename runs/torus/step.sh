#!/usr/bin/env bash
# One step of the peaceable queens on the D x D torus (OEIS A279405) on the line engine,
# resumable across machines: the step's journal (the row sets searched to their end) is kept
# here as tD-N.journal.xz, the scratch copy in $WORK (default target/scratch/torus in the
# repository); see runs/lib.sh, `journal_step`.
#
# usage: runs/torus/step.sh D N [JOBS]
set -euo pipefail
# shellcheck source=runs/lib.sh
. "$(dirname "$0")/../lib.sh"
board_step t 19 peaceable-queens-torus.toml "$@"
