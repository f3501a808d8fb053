#!/usr/bin/env bash
# a(14)'s checked bundle: the step 14/29 as 4,103 row cubes; see ../bundle.sh.
# usage: runs/a14/run.sh [JOBS]
exec "$(dirname "$0")/../bundle.sh" 14 29 "$@"
