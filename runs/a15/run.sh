#!/usr/bin/env bash
# a(15)'s checked bundle: the step 15/33 as 8,191 row cubes; see ../bundle.sh.
# usage: runs/a15/run.sh [JOBS]
exec "$(dirname "$0")/../bundle.sh" 15 33 "$@"
