#!/usr/bin/env bash
# One step of three peaceable armies of queens on D x D (OEIS A328283) on the line engine,
# resumable across machines: the step's journal (the units searched to their end) is kept
# here as aD-N.journal.xz, the scratch copy in $WORK (default target/scratch/armies in the
# repository); see runs/lib.sh, `journal_step`.
#
# usage: runs/armies/step.sh D N [JOBS]   (N of each army: the step that decides a(D) >= N)
set -euo pipefail
# shellcheck source=runs/lib.sh
. "$(dirname "$0")/../lib.sh"
board_step a 10 three-armies.toml "$@"
