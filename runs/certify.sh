#!/usr/bin/env bash
# The search certificate of the step D/N (N white and N black queens on D x D) streamed from
# the line engine into pq-check: nothing is written to disk but the records, kept in
# runs/certificates (KEEP=/path to change it): the command, the date and commit, the
# engine's counts, pq-check's verdict, and both sides' times (each under /usr/bin/time; they
# run at once, one core each).
#
# usage: runs/certify.sh [--torus | --armies K] D N [PARTS] [JOBS]
#   --torus: the D x D torus (records in tD-nN); --armies K: K armies of N (records in
#     kK-dD-nN, the parts cutting the codes of row colourings [0, K^D)). Their certificates
#     come from the pq-lines example `certify` in every case.
#   PARTS = 1 (the default): the whole step through `pq-sat solve --proof - --proof-format
#     search` (the torus: the example over every row set), recorded in dD-nN.txt.
#   PARTS = K > 1: the row sets S in [0, 2^D) cut into K equal ranges, each certified on its
#     own (the pq-lines example `certify`) and recorded in dD-nN/part-I-of-K.txt as it is
#     verified; a run stopped anywhere resumes with the first part without a record. When
#     every part is verified, dD-nN/summary.txt adds them up and checks that the ranges
#     verified cover [0, 2^D).
#   JOBS: the engine's threads (default 1).
# BIN, CHECK and EXAMPLE name other binaries (with COMMIT, the commit they were built from).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
board=square; flag=(); name=d; k=2
if [ "${1:-}" = --torus ]; then board=torus; flag=(--torus); name=t; shift; fi
if [ "${1:-}" = --armies ]; then k=$2; flag=(--armies "$k"); name=k$k-d; shift 2; fi
d=$1; n=$2; parts=${3:-1}; jobs=${4:-1}
bin=${BIN:-$repo/target/release/pq-sat}
check=${CHECK:-$repo/target/release/pq-check}
example=${EXAMPLE:-$repo/target/release/examples/certify}
keep=${KEEP:-$repo/runs/certificates}
[ -x "$bin" ] && [ -x "$check" ] || (cd "$repo" && cargo build --release --workspace)
{ [ "$parts" -eq 1 ] && [ ${#flag[@]} -eq 0 ]; } || [ -x "$example" ] || (cd "$repo" && cargo build --release -p pq-lines --example certify)
mkdir -p "$keep"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# COMMIT names the commit the binaries were built from when they are not the tree's own.
commit=${COMMIT:-$(git -C "$repo" rev-parse --short HEAD)}

# The claim every record must state: pq-check is told to demand it.
expect="board $board $d armies$(for ((j = 0; j < k; j++)); do printf ' %s' "$n"; done)"
where=""; [ $board = torus ] && where=" on the torus"; [ "$k" -gt 2 ] && where=", $k armies"
# The codes a part cuts: row sets [0, 2^D), or for K armies row colourings [0, K^D).
all=$(python3 -c "print($k ** $d)")
# A binary named by its hash in every record (the commit names its source).
binary_hash() { sha256sum "$1" | cut -c1-16; }

# Runs "$@" (the writer) into pq-check, and writes the record to $1 through a temporary
# name; true when the part is UNSAT and pq-check gave the status $2 (`s VERIFIED` for the
# whole step, `s PART VERIFIED` for a part) with exit code $3, for the claim $expect.
stream() {
  local record=$1 status=$2 want=$3; shift 3
  local started; started=$(date -u '+%Y-%m-%d %H:%M')
  set +e
  /usr/bin/time -f "search: wall %e s, user %U s, sys %S s, max RSS %M KB" "$@" \
    2> "$tmp/search.err" | tee >(wc -c > "$tmp/bytes") |
    /usr/bin/time -f "check: wall %e s, user %U s, sys %S s, max RSS %M KB" \
      "$check" --expect "$expect" - > "$tmp/check.out" 2> "$tmp/check.err"
  local codes=("${PIPESTATUS[@]}")
  set -e
  sleep 1 # the byte count's subshell
  {
    echo "step $d/$n$where, started $started UTC, commit $commit, writer $(binary_hash "$1"), pq-check $(binary_hash "$check")"
    echo "command: ${*##*/} | pq-check --expect \"$expect\" -"
    echo "exit codes: writer ${codes[0]} (20 = UNSAT), pq-check ${codes[2]} ($want = $status)"
    echo "certificate bytes: $(cat "$tmp/bytes" 2>/dev/null || echo unknown)"
    cat "$tmp/search.err" "$tmp/check.out" "$tmp/check.err"
  } > "$tmp/record"
  # The gate reads the status and the claim, not the exit code alone.
  if [ "${codes[0]}" -ne 20 ] || [ "${codes[2]}" -ne "$want" ] ||
    ! grep -qx "$status" "$tmp/check.out" ||
    ! grep -q "^c claim: $expect\( \|$\)" "$tmp/check.out"; then
    cat "$tmp/record" >&2
    return 1
  fi
  mv "$tmp/record" "$record.tmp"
  mv "$record.tmp" "$record"
}

if [ "$parts" -eq 1 ] && [ ${#flag[@]} -gt 0 ]; then
  stream "$keep/$name$d-n$n.txt" "s VERIFIED" 0 "$example" "${flag[@]}" "$d" "$n" 0 "$all" "$jobs"
  cat "$keep/$name$d-n$n.txt"
  exit 0
fi
if [ "$parts" -eq 1 ]; then
  stream "$keep/d$d-n$n.txt" "s VERIFIED" 0 "$bin" solve --dim "$d" --n "$n" --jobs "$jobs" --proof - \
    --proof-format search --format json
  cat "$keep/d$d-n$n.txt"
  exit 0
fi

dir=$keep/$name$d-n$n
mkdir -p "$dir"
for ((i = 0; i < parts; i++)); do
  record=$dir/part-$i-of-$parts.txt
  [ -f "$record" ] && continue
  lo=$((all * i / parts)); hi=$((all * (i + 1) / parts))
  stream "$record" "s PART VERIFIED" 3 "$example" "${flag[@]}" "$d" "$n" "$lo" "$hi" "$jobs"
  echo "part $i of $parts: rows $lo..$hi verified" >&2
done
# Every part verified: their ranges, as pq-check stated them, must cover [0, 2^D).
python3 - "$dir" "$parts" "$d" "$n" "$board" "$k" > "$dir/summary.txt.tmp" <<'PY'
import pathlib, re, sys
folder, parts, d, n = pathlib.Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
board, k = sys.argv[5], int(sys.argv[6])
ranges, nodes, pairs, search, check = [], 0, 0, 0.0, 0.0
for i in range(parts):
    text = (folder / f"part-{i}-of-{parts}.txt").read_text()
    assert "\ns PART VERIFIED\n" in text, f"part {i} is not verified"
    # The part's claim as pq-check stated it: the step's board and armies, one range.
    claims = re.findall(rf"^c claim: board {board} (\d+) armies ((?:\d+ ?)+) rows (\d+) (\d+)$", text, re.M)
    assert claims, f"part {i} states no claim of one range"
    side, sizes, lo, hi = claims[-1]
    side, sizes, lo, hi = int(side), list(map(int, sizes.split())), int(lo), int(hi)
    assert (side, sizes) == (d, [n] * k), f"part {i} claims {board} {side}, armies {sizes}"
    # `c pairs P nodes N`, or for K armies `c rows R pairs P nodes N`.
    p, q = map(int, re.search(r"^c (?:rows \d+ )?pairs (\d+) nodes (\d+)$", text, re.M).groups())
    ranges.append((lo, hi)); pairs += p; nodes += q
    search += float(re.search(r"search: wall [\d.]+ s, user ([\d.]+) s", text).group(1))
    check += float(re.search(r"check: wall [\d.]+ s, user ([\d.]+) s", text).group(1))
ranges.sort()
end = 0
for lo, hi in ranges:
    assert lo <= end, f"rows {end}..{lo} are not covered"
    end = max(end, hi)
all = (2 if k == 2 else k) ** d
assert end == all, f"rows {end}..{all} are not covered"
what = f"every row set of [0, 2^{d})" if k == 2 else f"every row colouring's code in [0, {k}^{d})"
where = " on the torus" if board == "torus" else (f", {k} armies" if k > 2 else "")
print(f"step {d}/{n}{where}: {parts} parts verified by pq-check, covering {what}")
print(f"pairs {pairs}, nodes {nodes} (certificate bytes: nodes plus a header and trailer per part)")
print(f"CPU: search {search:.1f} s, pq-check {check:.1f} s (user)")
PY
mv "$dir/summary.txt.tmp" "$dir/summary.txt"
cat "$dir/summary.txt"
