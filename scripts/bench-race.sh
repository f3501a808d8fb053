#!/usr/bin/env bash
# A solver race over a benchmark family: writes the family (d = DIMS, two army sizes on each
# side of a(d), with and without lex-leader symmetry breaking), races kissat, minisat, the
# CaDiCaL binary and the in-process CaDiCaL on it, and keeps the table, the JSON results and
# the cactus plot in bench-results/.
#   scripts/bench-race.sh [DIMS [TIMEOUT [JOBS]]]
# Defaults: DIMS=4..10, 60 s per run, 2 runs at a time (56 instances, 224 runs).
set -euo pipefail
cd "$(dirname "$0")/.."
dims=${1:-4..10}
timeout=${2:-60}
jobs=${3:-2}
cargo build --release -q
bin=target/release/pq-sat
stamp=$(date +%s)
mkdir -p bench-results
fam="bench-results/family-$stamp"
"$bin" family --dim "$dims" --around-optimum 2 --symmetry lex-leader,none -o "$fam"
set +e
"$bin" race "$fam" --backend kissat --backend minisat --backend 'cadical -q' --backend cadical \
  --run-timeout "$timeout" --jobs "$jobs" --plot "bench-results/race-$stamp.svg" \
  --format json > "bench-results/race-$stamp.json" 2> "bench-results/race-$stamp.log"
code=$?
set -e
python3 - "bench-results/race-$stamp.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(f"{r['instances']} instances, time limit {r['timeout']} s")
print("| solver | solved | SAT | UNSAT | unknown | error | wrong | PAR-2 (s) |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for s in r["solvers"]:
    print(f"| `{s['solver']}` | {s['solved']} | {s['sat']} | {s['unsat']} | {s['unknown']} | {s['errors']} | {s['wrong']} | {s['par2']:.1f} |")
PY
echo "race exit code: $code (1 = a wrong answer); plot: bench-results/race-$stamp.svg" >&2
