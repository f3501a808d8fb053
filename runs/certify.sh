#!/usr/bin/env bash
# The search certificate of the step D/N (N white and N black queens on D x D) streamed from
# the line engine into pq-check: nothing is written to disk but the record, kept in
# runs/certificates/dD-nN.txt (KEEP=/path to change it): the command, the date and
# commit, the engine's JSON report (nodes, pairs, certificate bytes), pq-check's verdict,
# and both sides' times (each under /usr/bin/time; they run at once, one core each).
#
# usage: runs/certify.sh D N [JOBS]   (JOBS: the engine's threads, default 1)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
d=$1; n=$2; jobs=${3:-1}
bin=${BIN:-$repo/target/release/pq-sat}
check=${CHECK:-$repo/target/release/pq-check}
keep=${KEEP:-$repo/runs/certificates}
[ -x "$bin" ] && [ -x "$check" ] || (cd "$repo" && cargo build --release --workspace)
mkdir -p "$keep"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
started=$(date -u '+%Y-%m-%d %H:%M')
set +e
/usr/bin/time -f "search: wall %e s, user %U s, sys %S s, max RSS %M KB" \
  "$bin" solve --dim "$d" --n "$n" --jobs "$jobs" --proof - --proof-format search \
  --format json 2> "$tmp/search.err" |
  /usr/bin/time -f "check: wall %e s, user %U s, sys %S s, max RSS %M KB" \
    "$check" - > "$tmp/check.out" 2> "$tmp/check.err"
codes=("${PIPESTATUS[@]}")
set -e
record=$keep/d$d-n$n.txt
{
  echo "step $d/$n, started $started UTC, commit $(git -C "$repo" rev-parse --short HEAD)"
  echo "command: pq-sat solve --dim $d --n $n --jobs $jobs --proof - --proof-format search --format json | pq-check -"
  echo "exit codes: solve ${codes[0]} (20 = UNSAT), pq-check ${codes[1]} (0 = verified)"
  cat "$tmp/search.err" "$tmp/check.out" "$tmp/check.err"
} > "$keep/.d$d-n$n.txt.tmp"
mv "$keep/.d$d-n$n.txt.tmp" "$record"
cat "$record"
[ "${codes[0]}" -eq 20 ] && [ "${codes[1]}" -eq 0 ]
