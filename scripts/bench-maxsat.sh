#!/usr/bin/env bash
# Compares the external optimisers with pq-sat's own: for each board side d, the whole
# optimisation a(d) by
#   rc2      pq-sat solve --dim D --backend rc2     (PySAT's RC2 on pq-sat's WCNF)
#   clasp    pq-sat solve --dim D --backend clasp   (clasp on pq-sat's OPB)
#   pq-sat   pq-sat solve --dim D                   (its own optimiser, default portfolio)
# each RUNS times within a time limit of LIMIT seconds per run (pq-sat's --timeout, which
# kills the optimiser), and prints a Markdown table: the median wall-clock seconds over the
# runs (a run cut off counts as LIMIT, so a median at LIMIT means most runs were), how many
# runs proved the optimum, and the optimum found. Every answer is checked by pq-sat as
# always (model, board, claimed optimum); a wrong one stops the script.
#   scripts/bench-maxsat.sh [DIMS [RUNS [LIMIT [SOLVERS...]]]]
# Defaults: DIMS="6 7 8 9 10", 3 runs, LIMIT 600 s, solvers rc2 clasp pq-sat. Needs what
# scripts/setup.sh installs (python-sat, clasp); writes bench-results/maxsat-*.md too.
set -euo pipefail
cd "$(dirname "$0")/.."
dims=${1:-6 7 8 9 10}
runs=${2:-3}
limit=${3:-600}
shift $(( $# > 3 ? 3 : $# ))
solvers=("$@")
[ ${#solvers[@]} -gt 0 ] || solvers=(rc2 clasp pq-sat)
cargo build --release -q
bin="${CARGO_TARGET_DIR:-target}/release/pq-sat"
mkdir -p bench-results
out="bench-results/maxsat-$(date +%s).md"
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
for d in $dims; do
  for solver in "${solvers[@]}"; do
    case "$solver" in
      pq-sat) args=() ;;
      *) args=(--backend "$solver") ;;
    esac
    for ((r = 1; r <= runs; r++)); do
      start=$(date +%s.%N)
      report=$("$bin" -q solve --dim "$d" "${args[@]}" --timeout "$limit" --format json) || {
        echo "bench-maxsat: $solver failed on d = $d (run $r); see above" >&2
        exit 1
      }
      end=$(date +%s.%N)
      echo "$d $solver $start $end $report" >>"$raw"
      echo "bench-maxsat: d = $d, $solver, run $r done" >&2
    done
  done
done
python3 - "$raw" "$limit" "$runs" >"$out" <<'PY'
import json, statistics, sys
raw, limit, runs = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
rows = {}
for line in open(raw):
    d, solver, start, end, report = line.split(" ", 4)
    r = json.loads(report)
    proved = r.get("optimum") is not None
    seconds = float(end) - float(start) if proved else limit
    rows.setdefault((int(d), solver), []).append((seconds, proved, r.get("optimum")))
print(f"| d | solver | median s ({runs} runs, limit {limit:g} s) | proved | optimum |")
print("| ---: | --- | ---: | ---: | ---: |")
for (d, solver), results in rows.items():
    median = statistics.median(s for s, _, _ in results)
    proved = sum(p for _, p, _ in results)
    optima = sorted({o for _, _, o in results if o is not None})
    shown = ", ".join(map(str, optima)) or "-"
    print(f"| {d} | {solver} | {median:.2f} | {proved}/{len(results)} | {shown} |")
PY
cat "$out"
