#!/usr/bin/env bash
# One step of the peaceable queens on the D x D board (OEIS A250000) on the line engine,
# resumable across machines: the step's journal (the row sets searched to their end) is kept
# here as aD-N.journal.xz, the scratch copy in $WORK (default target/scratch/queens in the
# repository); see runs/lib.sh, `journal_step`. The step D/N is UNSAT when a(D) < N.
#
# usage: runs/queens/step.sh D N [JOBS]
set -euo pipefail
# shellcheck source=runs/lib.sh
. "$(dirname "$0")/../lib.sh"
d=$1; n=$2; jobs=${3:-1}
journal_settings "a$d-$n" 10
journal_step --dim "$d" --n "$n" --engine lines --jobs "$jobs"
