"""pqsat.encode against `pq-sat encode`: the same files byte for byte, the same formula as
PySAT reads it from those files, and the command line's refusals."""

import pytest
from pysat.formula import CNF, WCNF

import pqsat
from conftest import ENCODINGS, cli_error, run_cli

CASES = [
    (dict(dim=6, n=4), ["--dim", 6, "--n", 4]),
    (dict(dim=5, n=4, model="pairwise", card="seqcounter"),
     ["--dim", 5, "--n", 4, "--model", "pairwise", "--card", "seqcounter"]),
    (dict(dim=7, n=6, symmetry="none", bounds="sums"),
     ["--dim", 7, "--n", 6, "--symmetry", "none", "--bounds", "sums"]),
    (dict(problem="three-armies", n=2), ["--problem", ENCODINGS / "three-armies.toml", "--n", 2]),
    (dict(problem=pqsat.Problem("crowded-chessboard").set(
        board="5x5", queens=5, rooks=5, bishops=8, knights=3)),
     ["--problem", ENCODINGS / "crowded-chessboard.toml", "--set", "board=5x5",
      "--set", "queens=5", "--set", "rooks=5", "--set", "bishops=8", "--set", "knights=3"]),
    (dict(dim=6, format="wcnf"), ["--dim", 6, "--format", "wcnf"]),
    (dict(problem=ENCODINGS / "three-armies.toml", format="opb"),
     ["--problem", ENCODINGS / "three-armies.toml", "--format", "opb"]),
]


@pytest.mark.parametrize("kwargs,flags", CASES)
def test_files_are_the_command_lines_byte_for_byte(in_tmp, kwargs, flags):
    formula = pqsat.encode(**kwargs)
    formula.to_file("py.out")
    run_cli("encode", *flags, "-o", "cli.out", check_codes=[0])
    assert (in_tmp / "py.out").read_bytes() == (in_tmp / "cli.out").read_bytes()
    assert len(formula) == len(formula.clauses)


@pytest.mark.parametrize("kwargs,flags", [c for c in CASES if "format" not in c[0]])
def test_to_pysat_is_what_pysat_reads_from_the_command_lines_file(in_tmp, kwargs, flags):
    run_cli("encode", *flags, "-o", "cli.cnf", check_codes=[0])
    read = CNF(from_file="cli.cnf")
    ours = pqsat.encode(**kwargs).to_pysat()
    assert isinstance(ours, CNF)
    assert ours.clauses == read.clauses
    assert ours.nv == read.nv
    assert ours.comments == read.comments


def test_wcnf_to_pysat_is_what_pysat_reads(in_tmp):
    run_cli("encode", "--dim", 6, "--format", "wcnf", "-o", "cli.wcnf", check_codes=[0])
    read = WCNF(from_file="cli.wcnf")
    ours = pqsat.encode(dim=6, format="wcnf").to_pysat()
    assert isinstance(ours, WCNF)
    for field in ("hard", "soft", "wght", "topw", "nv", "comments"):
        assert getattr(ours, field) == getattr(read, field), field


def test_compressed_files_read_back(in_tmp):
    f = pqsat.encode(dim=5, n=4)
    f.to_file("q.cnf.xz")
    assert CNF(from_file="q.cnf.xz").clauses == f.clauses
    with pytest.raises(pqsat.Error, match="--force"):
        f.to_file("q.cnf.xz")
    f.to_file("q.cnf.xz", force=True)
    back = pqsat.read_formula("q.cnf.xz")
    assert (back.nv, back.clauses, back.n) == (f.nv, f.clauses, 4)


def test_opb_has_no_pysat_object():
    with pytest.raises(pqsat.Error, match="wcnf"):
        pqsat.encode(dim=4, format="opb").to_pysat()


def test_formula_fields():
    f = pqsat.encode(dim=4, n=2)
    assert (f.format, f.n, f.problem.rows, f.soft) == ("dimacs", 2, 4, [])
    assert f.comments[0].startswith("c ") and any(c.startswith("c var ") for c in f.comments)
    assert "4x4" in repr(f) or "4×4" in repr(f)
    w = pqsat.encode(dim=4, format="wcnf")
    assert w.format == "wcnf" and w.n is None and len(w.soft) == 4


@pytest.mark.parametrize(
    "kwargs,flags",
    [
        (dict(dim=0, n=1), ["--dim", 0, "--n", 1]),
        (dict(dim=65, n=1), ["--dim", 65, "--n", 1]),
        (dict(dim=5, n=-1), ["--dim", 5, "--n", -1]),
        (dict(dim=5, n=13), ["--dim", 5, "--n", 13]),
        (dict(dim=5, n=5000), ["--dim", 5, "--n", 5000]),
        (dict(dim=5), ["--dim", 5]),
        (dict(dim=5, n=3, format="wcnf"), ["--dim", 5, "--n", 3, "--format", "wcnf"]),
        (dict(dim=5, n=3, model="rows"), ["--dim", 5, "--n", 3, "--model", "rows"]),
        (dict(dim=5, n=3, model="pairwise", bounds="sums"),
         ["--dim", 5, "--n", 3, "--model", "pairwise", "--bounds", "sums"]),
    ],
)
def test_bad_input_raises_the_command_lines_message(kwargs, flags):
    code, message = cli_error("encode", *flags)
    with pytest.raises(pqsat.UsageError) as e:
        pqsat.encode(**kwargs)
    assert isinstance(e.value, ValueError)
    assert e.value.exit_code == code == 2
    assert str(e.value) == message


def test_an_unknown_problem_name_is_refused_clearly():
    with pytest.raises(pqsat.UsageError, match="no built-in problem has that name.*three-armies"):
        pqsat.encode("four-armies", n=1)
    with pytest.raises(pqsat.UsageError, match="not both"):
        pqsat.encode("three-armies", dim=5, n=1)
