#!/usr/bin/env bash
# Placement-problem benchmarks:
#   1. Dudeney's crowded chessboard, 22 knights on 8x8 (UNSAT), with CaDiCaL, kissat and the
#      default portfolio (hyperfine, RUNS runs);
#   2. the n x n generalisation (n queens, n rooks, 2n-2 bishops, most knights) for n in NS,
#      each run once with a limit of LIMIT seconds;
#   3. the values of the other example problems on small boards (three armies of queens,
#      queens on a torus, peaceable knights), once each, same limit.
#   scripts/bench-problems.sh [RUNS [NS [LIMIT]]]     defaults: 3, "5 6 7 8 9 10", 1800
# Writes bench-results/problems-*.md and prints the tables.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
ns=${2:-5 6 7 8 9 10}
limit=${3:-1800}
command -v hyperfine >/dev/null || { echo "bench: needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
cargo build --release -q
bin=target/release/pq-sat
file=encodings/crowded-chessboard.toml
mkdir -p bench-results
out="bench-results/problems-$(date +%s).md"
hyperfine -i -N --runs "$runs" --export-markdown "$out.dudeney" \
  "$bin solve --problem $file --set knights=22 --backend cadical" \
  "$bin solve --problem $file --set knights=22 --backend kissat" \
  "$bin solve --problem $file --set knights=22" >&2
sed -e "s#$bin solve --problem $file ##" "$out.dudeney" > "$out"
{
  echo
  echo "| n | most knights | proven | steps (n: status seconds solver) | seconds |"
  echo "| ---: | ---: | --- | --- | ---: |"
  for n in $ns; do
    b=$((2 * n - 2))
    json=$("$bin" solve --problem "$file" --set "board=${n}x${n}" --set "queens=$n" --set "rooks=$n" \
      --set "bishops=$b" --timeout "$limit" --format json --progress none || true)
    python3 - "$n" "$json" <<'PY'
import json, sys
n, v = sys.argv[1], json.loads(sys.argv[2])
steps = ", ".join(f"{s['n']}: {s['status']} {s['seconds']:.2f} {s['solver']}" for s in v["steps"])
best = v["optimum"] if v["optimum"] is not None else f">= {v['lower_bound']}"
print(f"| {n} | {best} | {'yes' if v['optimum'] is not None else 'no: ' + v.get('reason', '')} | {steps} | {v['seconds']:.1f} |")
PY
  done
  echo
  echo "| problem | board | optimum | seconds |"
  echo "| --- | --- | ---: | ---: |"
  for spec in three-armies:3:7 peaceable-queens-torus:3:9 peaceable-knights:3:8; do
    name=${spec%%:*}; rest=${spec#*:}; lo=${rest%%:*}; hi=${rest##*:}
    for d in $(seq "$lo" "$hi"); do
      json=$("$bin" solve --problem "encodings/$name.toml" --set "board=${d}x${d}" \
        --timeout "$limit" --format json --progress none || true)
      python3 - "$name" "$d" "$json" <<'PY'
import json, sys
name, d, v = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
best = v["optimum"] if v["optimum"] is not None else f">= {v['lower_bound']} (limit)"
print(f"| {name} | {d}x{d} | {best} | {v['seconds']:.2f} |")
PY
    done
  done
} >> "$out"
cat "$out"
