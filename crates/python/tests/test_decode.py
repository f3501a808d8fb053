"""The PySAT round trip: a formula from pqsat.encode, a model from a PySAT solver, the
board decoded and validated, as `pq-sat decode` reads the same model; and the models the
decoding refuses."""

import json

import pytest
from pysat.examples.rc2 import RC2
from pysat.solvers import Solver

import pqsat
from conftest import ENCODINGS, brute_a, cli_json, peaceful, run_cli

DUDENEY_5 = dict(board="5x5", queens=5, rooks=5, bishops=8, knights=3)

ROUND_TRIPS = [
    ("queens 8x8, n = 9", dict(dim=8, n=9), {"white": 9, "black": 9}),
    ("three armies 6x6, n = 2", dict(problem=pqsat.Problem("three-armies").set(board="6x6"), n=2),
     {"red": 2, "green": 2, "blue": 2}),
    ("Dudeney 5x5, 3 knights", dict(problem=pqsat.Problem("crowded-chessboard").set(DUDENEY_5)),
     {"queens": 5, "rooks": 5, "bishops": 8, "knights": 3}),
]


def pysat_model(formula, name="cadical153"):
    with Solver(name=name, bootstrap_with=formula.to_pysat().clauses) as s:
        return s.get_model() if s.solve() else None


@pytest.mark.parametrize("what,kwargs,at_least", ROUND_TRIPS, ids=[r[0] for r in ROUND_TRIPS])
def test_pysat_round_trip(in_tmp, what, kwargs, at_least):
    formula = pqsat.encode(**kwargs)
    model = pysat_model(formula)
    assert model is not None, what
    board = formula.decode(model)
    board.validate()
    for group, k in at_least.items():
        assert board.counts[group] == k, (group, board.counts)
    # `pq-sat decode` reads the same model into the same board.
    formula.to_file("f.cnf")
    (in_tmp / "m.txt").write_text(" ".join(map(str, model)) + " 0\n")
    cli = cli_json("decode", "f.cnf", "m.txt", codes=[10])
    assert cli["board" if "dim" in cli else "placement"] == board.rows
    for key, value in json.loads(board.to_json()).items():
        assert cli[key] == value, key


def test_a_solver_output_and_an_unsat_answer():
    formula = pqsat.encode(dim=5, n=4)
    model = pysat_model(formula, "glucose4")
    text = "s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n"
    assert formula.decode(text) == formula.decode(model)
    unsat = pqsat.encode(dim=5, n=5)
    assert pysat_model(unsat) is None
    assert unsat.decode("s UNSATISFIABLE\n") is None


def test_wcnf_round_trip_with_rc2_is_the_optimum():
    for d in (4, 5):
        formula = pqsat.encode(dim=d, format="wcnf")
        with RC2(formula.to_pysat()) as rc2:
            model = rc2.compute()
        board = formula.decode(model)
        board.validate()
        assert peaceful(board.rows)
        assert board.n == brute_a(d)


def test_a_model_of_another_formula_is_refused():
    other = pysat_model(pqsat.encode(dim=7, n=7))
    formula = pqsat.encode(dim=6, n=5)
    with pytest.raises(pqsat.Error, match="another formula"):
        formula.decode(other)
    # A model of the right size that breaks a clause: the command line's `wrong answer`.
    model = pysat_model(formula)
    broken = [-lit for lit in model]
    with pytest.raises(pqsat.WrongAnswer, match="falsifies clause") as e:
        formula.decode(broken)
    assert e.value.exit_code == 3
    with pytest.raises(pqsat.UsageError):
        formula.decode(3.5)


def test_the_command_lines_file_decodes_through_its_header(in_tmp):
    run_cli("encode", "--problem", ENCODINGS / "three-armies.toml", "--set", "board=5x5",
            "--n", 1, "-o", "t.cnf", check_codes=[0])
    formula = pqsat.read_formula("t.cnf")
    assert formula.problem.name == "three peaceable armies of queens"
    board = formula.decode(pysat_model(formula))
    board.validate()
    assert min(board.counts.values()) >= 1
