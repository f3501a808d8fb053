#!/usr/bin/env bash
# Counts the optimal boards up to symmetry for d = 1..MAX (default 9) and prints, per d,
# a(d), the number of orbits, the number of boards, and the wall-clock time (which includes
# finding a(d) first). One run each: `pq-sat enumerate --dim D --count --format json`.
#   scripts/bench-enumerate.sh [MAX]
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:-9}
cargo build --release -q
bin=target/release/pq-sat
printf '| d | a(d) | orbits | boards | seconds |\n| ---: | ---: | ---: | ---: | ---: |\n'
total_start=$(date +%s.%N)
for d in $(seq 1 "$max"); do
  start=$(date +%s.%N)
  json=$("$bin" enumerate --dim "$d" --count --format json 2>/dev/null)
  end=$(date +%s.%N)
  python3 - "$d" "$json" "$start" "$end" <<'PY'
import json, sys
d, j, start, end = sys.argv[1], json.loads(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
print(f"| {d} | {j['n']} | {j['count']} | {j['total_boards']} | {end - start:.2f} |")
PY
done
echo
echo "all of d = 1..$max: $(python3 -c "print(f'{$(date +%s.%N) - $total_start:.1f}')") s"
