#!/usr/bin/env bash
# Per cube: the line engine's search tree as a DRAT proof against CaDiCaL's own DRAT proof,
# on the row cubes of the UNSAT steps (the cubes `conquer --backend lines` solves), for the
# formula with --bounds sums. Each cube is proved and then checked by rate on one core
# (`solve-cube DIR ID --proof --check-unsat --keep-proof none`: nothing is kept but the
# record), the same cubes for both provers: ids 1, 1 + STRIDE, 1 + 2 STRIDE, ...
#
#   scripts/bench-tree-proofs.sh [STEP...]     each STEP "D N STRIDE"
#   default: "10 15 1" "11 18 8" "12 22 40" "13 25 100"
#
# One process at a time (never two timings at once). Writes bench-results/tree-proofs-<time>.md:
# per step and prover the cubes, the seconds to prove, to check, the proof bytes (sums over
# the sample), and the tree's share of CaDiCaL's.
set -euo pipefail
cd "$(dirname "$0")/.."
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=("10 15 1" "11 18 8" "12 22 40" "13 25 100")
cargo build --release -q
bin=$PWD/${CARGO_TARGET_DIR:-target}/release/pq-sat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p bench-results
out="bench-results/tree-proofs-$(date +%s).md"
{
  echo "# Tree proofs against CaDiCaL's proofs per cube, $(date -u +%F), one core"
  echo
  echo "| step | cubes (sample) | prover | prove (s) | check (s) | proof (MB) | tree / CaDiCaL: prove, check, size |"
  echo "| --- | ---: | --- | ---: | ---: | ---: | --- |"
} >"$out"
for step in "${steps[@]}"; do
  set -- $step
  d=$1 n=$2 stride=$3
  dir="$tmp/c$d"
  "$bin" cube --dim "$d" --n "$n" --bounds sums --split rows --depth 0 -o "$dir" >/dev/null 2>&1
  total=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['cubes']))" "$dir/manifest.json")
  for prover in lines cadical; do
    : >"$tmp/$prover.jsonl"
    for ((id = 1; id <= total; id += stride)); do
      "$bin" solve-cube "$dir" "$id" --backend "$prover" --proof --check-unsat \
        --keep-proof none --exit-zero --format json | tr -d '\n' >>"$tmp/$prover.jsonl"
      echo >>"$tmp/$prover.jsonl"
    done
  done
  python3 - "$d/$n" "$total" "$tmp/lines.jsonl" "$tmp/cadical.jsonl" >>"$out" <<'EOF'
import json, sys
step, total, files = sys.argv[1], sys.argv[2], sys.argv[3:]
sums = []
for f in files:
    rows = [json.loads(l) for l in open(f) if l.strip()]
    assert all(r["status"] == "unsat" for r in rows), f
    rec = [r["proof_record"] for r in rows]
    check = sum(p["check_seconds"] for p in rec)
    prove = sum(r["seconds"] for r in rows) - check
    sums.append((len(rows), prove, check, sum(p["bytes"] for p in rec) / 1e6))
(k, *t), (_, *c) = sums
ratio = ", ".join(f"{a / b:.2f}" for a, b in zip(t, c))
print(f"| {step} | {k} of {total} | lines (tree) | {t[0]:.1f} | {t[1]:.1f} | {t[2]:.1f} | {ratio} |")
print(f"| {step} | {k} of {total} | cadical | {c[0]:.1f} | {c[1]:.1f} | {c[2]:.1f} | |")
EOF
done
cat "$out"
