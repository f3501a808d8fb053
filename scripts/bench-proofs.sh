#!/usr/bin/env bash
# Proof size and checking time against solving time for the UNSAT steps n = a(d)+1, with and
# without symmetry breaking: DRAT from kissat checked by rate, LRAT from the in-process
# CaDiCaL checked by ACL2.
#   scripts/bench-proofs.sh [CASES [LRAT_CASES]]   defaults "8:10 9:13" and "8:10"
# (LRAT proofs are several times larger than DRAT and ACL2 reads them slowly: they are made
# only for LRAT_CASES.)
# Keeps the proofs in a temporary directory (deleted at the end); prints a table and writes
# bench-results/proofs-*.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cases=${1:-8:10 9:13}
lrat_cases=${2:-8:10}
cargo build --release -q
bin=$PWD/target/release/pq-sat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p bench-results
out="bench-results/proofs-$(date +%s).md"
{
  echo "| d | n | symmetry | solver | format | solve (s) | proof size | checker | check (s) | verdict |"
  echo "| ---: | ---: | --- | --- | --- | ---: | ---: | --- | ---: | --- |"
  for c in $cases; do
    d=${c%%:*}; n=${c##*:}
    for sym in lex-leader none; do
      for sf in kissat:drat cadical:drat cadical:lrat; do
        solver=${sf%%:*}; fmt=${sf##*:}
        if [ "$fmt" = lrat ] && [[ " $lrat_cases " != *" $c "* ]]; then continue; fi
        p="$tmp/p-$d-$n-$sym-$solver.$fmt"
        s=$("$bin" solve --dim "$d" --n "$n" --symmetry "$sym" --backend "$solver" --proof "$p" --format json || true)
        chk=$("$bin" check-proof "${p%.*}.cnf" "$p" --format json || true)
        python3 - "$d" "$n" "$sym" "$solver" "$fmt" "$s" "$chk" <<'PY'
import json, sys
d, n, sym, solver, fmt, s, c = sys.argv[1:]
s, c = json.loads(s), json.loads(c)
size = s["proof"]["bytes"] / 1e6
print(f"| {d} | {n} | {sym} | {solver} | {fmt.upper()} | {s['seconds']:.2f} | {size:.1f} MB | {c['checker']} | {c['seconds']:.2f} | {c['verdict']} |")
PY
        rm -f "$p" "${p%.*}.cnf"
      done
    done
  done
} | tee "$out"
