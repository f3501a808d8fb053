"""What the binding's tests share: the command line they compare with, brute force on
small boards, and the repository's files."""

import itertools
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
ENCODINGS = ROOT / "encodings"


def cli_path() -> Path:
    """The pq-sat binary: $PQ_SAT (scripts/python.sh sets it), else one built in target/."""
    given = os.environ.get("PQ_SAT")
    if given:
        return Path(given)
    for profile in ("debug", "release"):
        p = ROOT / "target" / profile / "pq-sat"
        if p.exists():
            return p
    found = shutil.which("pq-sat")
    if found:
        return Path(found)
    raise RuntimeError("no pq-sat binary: run scripts/python.sh, or set PQ_SAT")


# pq-check is found beside pq-sat or on the PATH; the binding runs in Python, so put the
# command line's folder on the PATH for the certificate checks.
os.environ["PATH"] = f"{cli_path().parent}{os.pathsep}{os.environ.get('PATH', '')}"


def run_cli(*args, check_codes=None, cwd=None):
    """Runs `pq-sat ARGS` quietly; the completed process."""
    out = subprocess.run(
        [str(cli_path()), "-q", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
    )
    if check_codes is not None:
        assert out.returncode in check_codes, (args, out.returncode, out.stderr)
    return out


def cli_json(*args, codes=(0, 10, 20, 30)):
    """`pq-sat ARGS --format json`, parsed."""
    out = run_cli(*args, "--format", "json", check_codes=codes)
    return json.loads(out.stdout)


def cli_error(*args):
    """The exit code and the message `pq-sat ARGS` refuses with: pq-sat's own (`pq-sat:
    error: MESSAGE`) or, for a value its parser refused, clap's (`error: invalid value 'X'
    for '--flag <V>': MESSAGE`)."""
    out = run_cli(*args)
    assert out.returncode in (1, 2), (args, out.returncode, out.stdout)
    line = next(l for l in out.stderr.splitlines() if "error: " in l)
    message = line.split("error: ", 1)[1]
    if message.startswith("invalid value "):
        message = message.split(">': ", 1)[1]
    return out.returncode, message


# Brute force, sharing nothing with pq-sat: boards as bit masks, attacks recomputed.


def attack_masks(d):
    """For each square (row-major), the mask of the squares a queen there attacks,
    itself included."""
    masks = []
    for r, c in itertools.product(range(d), repeat=2):
        m = 0
        for r2, c2 in itertools.product(range(d), repeat=2):
            if r == r2 or c == c2 or r - c == r2 - c2 or r + c == r2 + c2:
                m |= 1 << (r2 * d + c2)
        masks.append(m)
    return masks


def free_squares(d, whites, masks):
    """The mask of the squares no white queen of `whites` attacks or holds."""
    taken = 0
    for s in whites:
        taken |= masks[s]
    return ((1 << (d * d)) - 1) & ~taken


def brute_fits(d, n):
    """Whether n white and n black queens fit peaceably on d x d."""
    if n == 0:
        return True
    masks = attack_masks(d)
    return any(
        bin(free_squares(d, w, masks)).count("1") >= n
        for w in itertools.combinations(range(d * d), n)
    )


def brute_a(d):
    """a(d): the largest n that fits (fitting is monotone: drop a queen of each colour)."""
    n = 0
    while brute_fits(d, n + 1):
        n += 1
    return n


def brute_count(d, n):
    """The boards with exactly n white and n black queens, every symmetric image counted."""
    masks = attack_masks(d)
    total = 0
    for w in itertools.combinations(range(d * d), n):
        k = bin(free_squares(d, w, masks)).count("1")
        total += _binomial(k, n)
    return total


def _binomial(k, n):
    from math import comb

    return comb(k, n)


def peaceful(rows):
    """Whether a board of W, B and . has no white queen attacking a black one."""
    d = len(rows)
    cells = [(r, c, rows[r][c]) for r in range(d) for c in range(len(rows[r]))]
    for (r, c, a), (r2, c2, b) in itertools.combinations(cells, 2):
        if {a, b} == {"W", "B"} and (
            r == r2 or c == c2 or r - c == r2 - c2 or r + c == r2 + c2
        ):
            return False
    return True


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    """Runs the test in a fresh directory."""
    monkeypatch.chdir(tmp_path)
    return tmp_path
