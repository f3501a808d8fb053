"""Reads a file pq-sat wrote with PySAT, solves it there and decodes the model.

Usage: python3 pysat_decode.py FILE.cnf|FILE.wcnf

A DIMACS file is loaded with pysat.formula.CNF and solved by a PySAT SAT solver; a WCNF
file with pysat.formula.WCNF and solved by PySAT's RC2 (Ignatiev, Morgado & Marques-Silva,
"RC2: an efficient MaxSAT solver", JSAT 2019). The model is decoded with the file's own
`c var K GROUP [KIND] R C` lines alone (no pq-sat code), and one JSON object is printed:
{"status": "sat"|"unsat", "cost": COST or null, "rows": [...] or null}, each row a string of
the first letter of the group standing there, upper-case (`W`, `B` for the queens), or `.`.
The test that runs this (tests/cli/maxsat.rs) checks the board with pq-sat's validator.
"""

import json
import sys

from pysat.examples.rc2 import RC2
from pysat.formula import CNF, WCNF
from pysat.solvers import Solver


def var_map(comments):
    """(variable, symbol, row, col) for each `c var` line, 0-based squares."""
    out = []
    for line in comments:
        fields = line.split()
        if len(fields) < 2 or fields[0] != "c" or fields[1] != "var":
            continue
        rest = fields[2:]
        var, group, row, col = int(rest[0]), rest[1], int(rest[-2]), int(rest[-1])
        out.append((var, group[0].upper(), row - 1, col - 1))
    return out


def main(path):
    if path.endswith(".wcnf"):
        formula = WCNF(from_file=path)
        with RC2(formula) as rc2:
            model = rc2.compute()
            cost = rc2.cost if model is not None else None
    else:
        formula = CNF(from_file=path)
        with Solver(name="cadical153", bootstrap_with=formula.clauses) as solver:
            model = solver.get_model() if solver.solve() else None
        cost = None
    if model is None:
        print(json.dumps({"status": "unsat", "cost": None, "rows": None}))
        return
    true = {lit for lit in model if lit > 0}
    squares = var_map(formula.comments)
    rows = 1 + max(r for _, _, r, _ in squares)
    cols = 1 + max(c for _, _, _, c in squares)
    board = [["."] * cols for _ in range(rows)]
    for var, symbol, r, c in squares:
        if var in true:
            if board[r][c] != ".":
                sys.exit(f"two pieces on row {r + 1}, column {c + 1}")
            board[r][c] = symbol
    print(json.dumps({"status": "sat", "cost": cost, "rows": ["".join(r) for r in board]}))


if __name__ == "__main__":
    main(sys.argv[1])
