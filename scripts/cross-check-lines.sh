#!/usr/bin/env bash
# The line engine against the SAT path, beyond what CI runs: every step
# n = a(d)-1, a(d), a(d)+1 of the peaceable queens for d = 1..DMAX (SAT and UNSAT sides),
# the optimum on the d x d torus for d = 2..TORUS, and three armies for d = 3..ARMIES.
# Each line: what, the engine's answer, the SAT path's, both wall times; exit 1 on any
# disagreement. Uses both cores (the engine's --jobs 2, the SAT path's portfolio).
#
#   scripts/cross-check-lines.sh                 # DMAX=10 TORUS=9 ARMIES=8
#   DMAX=8 TORUS=7 ARMIES=6 scripts/cross-check-lines.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release/pq-sat}
DMAX=${DMAX:-10}
TORUS=${TORUS:-9}
ARMIES=${ARMIES:-8}
[ -x "$BIN" ] || cargo build --release --quiet
# OEIS A250000, the expected side of each step (the engines must also agree with it).
A=(0 0 1 2 4 5 7 9 12 14 17 21 24 28 32)
bad=0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Runs BIN with the remaining arguments; prints "EXIT SECONDS" and keeps the JSON report in
# $tmp/out.json.
timed() {
    local start end code
    start=$(date +%s.%N)
    set +e
    "$BIN" "$@" --format json --progress none >"$tmp/out.json" 2>/dev/null
    code=$?
    set -e
    end=$(date +%s.%N)
    printf '%s %.2f' "$code" "$(echo "$end - $start" | bc)"
}

printf '%-28s %-12s %-12s\n' "what" "lines" "sat"
for d in $(seq 1 "$DMAX"); do
    a=${A[d-1]}
    for n in $((a - 1)) "$a" $((a + 1)); do
        if [ "$n" -lt 0 ] || [ $((2 * n)) -gt $((d * d)) ]; then continue; fi
        read -r lc lt <<<"$(timed solve --dim "$d" --n "$n" --engine lines)"
        read -r sc st <<<"$(timed solve --dim "$d" --n "$n" --engine sat)"
        want=$([ "$n" -le "$a" ] && echo 10 || echo 20)
        mark=ok
        if [ "$lc" != "$sc" ] || [ "$lc" != "$want" ]; then mark=DISAGREE; bad=1; fi
        printf '%-28s %-12s %-12s %s\n' "queens d=$d n=$n" "$lc ${lt}s" "$sc ${st}s" "$mark"
    done
done

optimum() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["optimum"])' "$tmp/out.json"; }
for spec in "peaceable-queens-torus:2:$TORUS" "three-armies:3:$ARMIES"; do
    IFS=: read -r file lo hi <<<"$spec"
    for d in $(seq "$lo" "$hi"); do
        read -r _ lt <<<"$(timed solve --problem "encodings/$file.toml" --set "board=${d}x${d}" --engine lines)"
        lo_opt=$(optimum)
        read -r _ st <<<"$(timed solve --problem "encodings/$file.toml" --set "board=${d}x${d}" --engine sat)"
        sat_opt=$(optimum)
        mark=ok
        if [ "$lo_opt" != "$sat_opt" ]; then mark=DISAGREE; bad=1; fi
        printf '%-28s %-12s %-12s %s\n' "$file d=$d" "$lo_opt ${lt}s" "$sat_opt ${st}s" "$mark"
    done
done
exit $bad
