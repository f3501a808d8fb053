#!/usr/bin/env bash
# Proves a(d) for each d given and prints one RESULTS.md row per d: the value, the command,
# wall and CPU time (of the whole run, solver children included, from /usr/bin/time), and
# whether a checked proof exists. With CERTIFY=1 (the default) each run is
# `pq-sat solve --dim D --certify DIR` (the witness validated, the UNSAT step n = a(d)+1 with
# a DRAT proof checked by rate) followed by `pq-sat check-certificate DIR`, whose time is
# reported apart; with CERTIFY=0, `pq-sat solve --dim D` alone (no checked proof).
# EXTRA adds arguments to the solve, e.g. EXTRA='--jobs 2'. Never run two at once.
#   scripts/results.sh "1 2 3 4 5 6 7 8 9 10"
set -euo pipefail
cd "$(dirname "$0")/.."
dims=${1:-"1 2 3 4 5 6 7 8 9"}
certify=${CERTIFY:-1}
extra=${EXTRA:-}
cargo build --release -q
bin=${CARGO_TARGET_DIR:-target}/release/pq-sat
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
machine="$(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
printf '| d | a(d) | command | machine | wall (s) | CPU (s) | checked proof | check (s) |\n'
printf '| ---: | ---: | --- | --- | ---: | ---: | --- | ---: |\n'
for d in $dims; do
  cmd=(solve --dim "$d" --format json $extra)
  [ "$certify" = 1 ] && cmd+=(--certify "$work/c$d")
  /usr/bin/time -f '%e %U %S' -o "$work/time" "$bin" "${cmd[@]}" >"$work/out.json" 2>/dev/null
  read -r wall user sys <"$work/time"
  value=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["optimum"])' "$work/out.json")
  proof="no"; check="–"
  if [ "$certify" = 1 ]; then
    /usr/bin/time -f '%e' -o "$work/ctime" "$bin" check-certificate "$work/c$d" >/dev/null
    check=$(cat "$work/ctime")
    proof="yes (DRAT, rate; lex-leader)"
  fi
  shown="pq-sat ${cmd[*]}"
  shown=${shown//$work\//}
  printf '| %s | %s | `%s` | %s | %s | %s | %s | %s |\n' "$d" "$value" "$shown" "$machine" \
    "$wall" "$(python3 -c "print(f'{$user + $sys:.2f}')")" "$proof" "$check"
done
