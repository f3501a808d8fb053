#!/usr/bin/env python3
"""Fixes a board in a formula pq-sat wrote: every piece variable (`c var V GROUP ROW COL`)
becomes a unit clause, true where the board has that group's symbol, false elsewhere.

  python3 scripts/fix-board.py FORMULA.cnf BOARD.txt > FIXED.cnf

BOARD.txt holds the board's rows, one line each, '.' for an empty square and each group's
symbol (the first letter of its name, upper-cased: W, B, ...) elsewhere. The fixed formula is
SAT exactly when the board is a solution of the formula's problem (encode it with
`--symmetry none`, or lex-leader clauses may exclude the board's orientation); `pq-sat solve
--cnf FIXED.cnf --format json` then prints it as a validated answer. It serves a board whose
JSON was not kept, such as one drawn in the docs.
"""
import re
import sys

formula, board = open(sys.argv[1]).read().split("\n"), open(sys.argv[2]).read().split()
units = []
for line in formula:
    m = re.match(r"c var (\d+) (\S+) (\d+) (\d+)$", line)
    if m:
        var, group, r, c = int(m[1]), m[2], int(m[3]) - 1, int(m[4]) - 1
        units.append(var if board[r][c] == group[0].upper() else -var)
if not units:
    sys.exit(f"{sys.argv[1]}: no `c var` lines: not a formula pq-sat wrote")
out = sys.stdout
for line in formula:
    if line.startswith("p cnf "):
        _, _, n_vars, n_clauses = line.split()
        line = f"p cnf {n_vars} {int(n_clauses) + len(units)}"
    if line:
        out.write(line + "\n")
out.write("".join(f"{u} 0\n" for u in units))
