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
d=$1; n=$2; jobs=${3:-1}
journal_settings "t$d-$n" 19
journal_step --problem "$repo/encodings/peaceable-queens-torus.toml" --set "board=${d}x${d}" \
  --n "$n" --jobs "$jobs"
