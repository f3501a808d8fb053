#!/usr/bin/env python3
"""Checks a board of Dudeney's crowded chessboard from the rules alone, sharing no code with
pq-sat: n queens, n rooks and 2n - 2 bishops on n x n, no two pieces of one kind attacking
each other (pieces of other kinds do not block, so two queens attack each other whenever
they share a line), and prints the knights.

usage: check-crowded.py FILE.json   (pq-sat's `solve --format json` output: its `placement`)
       check-crowded.py FILE.txt    (the rows, one per line, `.` for an empty square)
       check-crowded.py -           (the same rows on standard input)
"""
import json
import sys


def rows_of(arg):
    if arg == "-":
        return [line.strip() for line in sys.stdin if line.strip()]
    if arg.endswith(".json"):
        return json.load(open(arg))["placement"]
    return [line.strip() for line in open(arg) if line.strip()]


def attacks(piece, a, b):
    """Whether two pieces of kind `piece` on squares a and b attack each other."""
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    line = dr == 0 or dc == 0
    diagonal = dr == dc
    return {
        "Q": line or diagonal,
        "R": line,
        "B": diagonal,
        "N": sorted((dr, dc)) == [1, 2],
    }[piece]


def main():
    rows = rows_of(sys.argv[1])
    n = len(rows)
    assert all(len(r) == n for r in rows), "a square board"
    where = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch != ".":
                where.setdefault(ch, []).append((r, c))
    want = {"Q": n, "R": n, "B": 2 * n - 2}
    for piece, count in want.items():
        got = len(where.get(piece, []))
        assert got == count, f"{got} {piece}, want {count}"
    assert set(where) <= {"Q", "R", "B", "N"}, f"unknown pieces: {set(where)}"
    for piece, squares in where.items():
        for i, a in enumerate(squares):
            for b in squares[i + 1:]:
                assert not attacks(piece, a, b), f"{piece} on {a} and {b} attack each other"
    print(f"ok: n = {n}, {len(where.get('N', []))} knights")


main()
