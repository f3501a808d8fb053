#!/usr/bin/env bash
# The Python binding against the command line (BENCHMARKS.md, "The Python binding"):
#   - a formula into PySAT: pqsat.encode(...).to_pysat() in one process, against
#     `pq-sat encode -o FILE` and PySAT's CNF(from_file=FILE);
#   - a(12): pqsat.solve(dim=12) in one process, against `pq-sat solve --dim 12`.
# Each pair runs alternately REPS times (default 7); the table gives the medians and their
# ratio. Run scripts/python.sh first (the venv and the wheel); PQ_SAT names the binary to
# compare with (default target/debug/pq-sat, the profile the wheel is built with).
#
#   bash scripts/bench-python.sh [REPS]
set -euo pipefail
cd "$(dirname "$0")/.."
py=target/python-venv/bin/python
cli=${PQ_SAT:-target/debug/pq-sat}
[ -x "$py" ] || { echo "bench-python: run scripts/python.sh first" >&2; exit 1; }
"$py" - "$cli" "${1:-7}" <<'PY'
import statistics, subprocess, sys, tempfile, time
from pathlib import Path

import pqsat
from pysat.formula import CNF

cli, reps = sys.argv[1], int(sys.argv[2])
work = Path(tempfile.mkdtemp())


def timed(f):
    start = time.perf_counter()
    value = f()
    return time.perf_counter() - start, value


def binding_encode(d, n):
    return pqsat.encode(dim=d, n=n).to_pysat()


def cli_encode(d, n):
    path = work / f"q{d}.cnf"
    subprocess.run([cli, "-q", "encode", "--dim", str(d), "--n", str(n), "-o", str(path),
                    "--force"], check=True)
    return CNF(from_file=str(path))


def binding_solve(d):
    return pqsat.solve(dim=d).optimum


def cli_solve(d):
    out = subprocess.run([cli, "-q", "solve", "--dim", str(d)], capture_output=True)
    assert out.returncode == 30, out
    return None


rows = []
for what, ours, theirs, args in [
    ("encode + PySAT CNF, d = 14, n = 29", binding_encode, cli_encode, (14, 29)),
    ("encode + PySAT CNF, d = 20, n = 59", binding_encode, cli_encode, (20, 59)),
    ("solve, d = 12", binding_solve, cli_solve, (12,)),
]:
    a, b = [], []
    for _ in range(reps):
        t, x = timed(lambda: ours(*args))
        a.append(t)
        t, y = timed(lambda: theirs(*args))
        b.append(t)
        if isinstance(x, CNF):
            assert (x.nv, x.clauses) == (y.nv, y.clauses), "the two formulas differ"
    ma, mb = statistics.median(a), statistics.median(b)
    rows.append((what, ma, mb, ma / mb, min(a), max(a), min(b), max(b)))

clauses = {d: len(pqsat.encode(dim=d, n=n)) for d, n in [(14, 29), (20, 59)]}
print(f"{reps} alternating runs each; clauses: d = 14: {clauses[14]:,}, d = 20: {clauses[20]:,}")
print("| task | binding (s, median) | command line (s, median) | ratio | binding range | command line range |")
print("| --- | ---: | ---: | ---: | --- | --- |")
for what, ma, mb, r, a0, a1, b0, b1 in rows:
    print(f"| {what} | {ma:.3f} | {mb:.3f} | {r:.2f} | {a0:.3f}–{a1:.3f} | {b0:.3f}–{b1:.3f} |")
PY
