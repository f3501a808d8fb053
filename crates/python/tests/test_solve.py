"""pqsat.solve and pqsat.enumerate against brute force and the command line; the time
limit, Ctrl-C, the GIL, and bad input."""

import json
import os
import signal
import threading
import time

import pytest

import pqsat
from conftest import ENCODINGS, brute_a, brute_count, brute_fits, cli_error, cli_json, peaceful


def same_report(ours, cli):
    """The two reports agree but for the clock."""
    clockless = lambda r: {k: v for k, v in r.items() if k != "seconds"}
    ours, cli = clockless(ours), clockless(cli)
    for steps in (ours.get("steps", []), cli.get("steps", [])):
        for s in steps:
            s.pop("seconds")
    assert ours == cli


@pytest.mark.parametrize("d", range(1, 6))
@pytest.mark.parametrize("engine", ["auto", "lines", "sat"])
def test_optimum_is_brute_forces_and_the_command_lines(d, engine):
    # One thread: the line engine then finds the same board every time.
    r = pqsat.solve(dim=d, engine=engine, jobs=1)
    assert (r.status, r.optimum, r.lower_bound, r.exit_code) == ("sat", brute_a(d), brute_a(d), 30)
    if r.optimum:
        assert peaceful(r.board.rows)
        r.board.validate()
        assert r.board.counts == {"white": r.optimum, "black": r.optimum}
    assert (r.known is not None) == (d > 1)
    cli = cli_json("solve", "--dim", d, "--engine", engine, "--jobs", 1)
    if engine != "sat":
        # The SAT path's portfolio may answer by another solver.
        same_report(json.loads(r.to_json()), cli)
    assert cli["optimum"] == r.optimum


@pytest.mark.parametrize("d,n", [(4, 2), (4, 3), (5, 4), (5, 5), (3, 1), (3, 2)])
def test_one_size_is_brute_forces(d, n):
    fits = brute_fits(d, n)
    for engine in ("lines", "sat"):
        r = pqsat.solve(dim=d, n=n, engine=engine)
        assert r.status == ("sat" if fits else "unsat")
        assert r.exit_code == (10 if fits else 20)
        assert r.n == n and r.optimum is None
        assert (r.board is not None) == fits
    cli = cli_json("solve", "--dim", d, "--n", n, "--engine", "lines", "--jobs", 1)
    same_report(json.loads(pqsat.solve(dim=d, n=n, engine="lines", jobs=1).to_json()), cli)


def test_text_and_nodes():
    r = pqsat.solve(dim=8)
    assert r.optimum == 9 and r.nodes > 0 and r.known == "exhaustive search by the line engine"
    assert str(r).startswith("a(8) = 9") and str(r.board) in str(r)
    assert [s["n"] for s in r.steps][-1] == 10


def test_problems_solve_as_on_the_command_line():
    three = pqsat.Problem("three-armies").set(board="6x6")
    cli = cli_json("solve", "--problem", ENCODINGS / "three-armies.toml", "--set", "board=6x6",
                   "--jobs", 1)
    r = pqsat.solve(three, jobs=1)
    same_report(json.loads(r.to_json()), cli)
    assert r.optimum == 2
    # --set fixing the maximised group asks one size, as the command line does.
    dudeney = pqsat.Problem("crowded-chessboard").set(board="5x5", queens=5, rooks=5, bishops=8)
    assert pqsat.solve(dudeney.set(knights=3)).status == "sat"
    assert pqsat.solve(dudeney).optimum == cli_json(
        "solve", "--problem", ENCODINGS / "crowded-chessboard.toml", "--set", "board=5x5",
        "--set", "queens=5", "--set", "rooks=5", "--set", "bishops=8")["optimum"]


@pytest.mark.parametrize("d", [3, 4, 5])
def test_enumerate_counts_every_board_as_brute_force_does(d):
    n = brute_a(d)
    total = brute_count(d, n)
    assert pqsat.enumerate(dim=d, up_to="total", count=True) == total
    assert pqsat.enumerate(dim=d, n=n, up_to="total", engine="sat", count=True) == total
    cli = cli_json("enumerate", "--dim", d, "--up-to", "total", "--count")
    assert cli["count"] == total


def test_enumerate_iterates_the_command_lines_orbits():
    it = pqsat.enumerate(dim=6)
    boards = list(it)
    cli = cli_json("enumerate", "--dim", 6)
    assert sorted(b.rows for b in boards) == sorted(cli["boards"])
    assert all(b.is_canonical and peaceful(b.rows) for b in boards)
    assert it.summary["count"] == len(boards) == 35
    assert sum(b.orbit_size for b in boards) == it.summary["total_boards"]
    assert pqsat.enumerate(dim=8, count=True) == 71
    # Stopping early stops the search.
    first = next(iter(pqsat.enumerate(dim=9)))
    assert first.is_canonical


def test_a_timeout_leaves_the_best_board_and_no_optimum():
    start = time.monotonic()
    r = pqsat.solve(dim=17, timeout=0.5)
    assert time.monotonic() - start < 60
    assert r.status == "unknown" and r.optimum is None and r.exit_code == 10
    assert "time limit" in r.reason
    assert r.lower_bound and r.board.n == r.lower_bound
    r.board.validate()


def interrupt_in(seconds):
    timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    return timer


def test_ctrl_c_raises_keyboard_interrupt_and_the_next_call_runs():
    timer = interrupt_in(0.5)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt) as e:
        pqsat.solve(dim=17)
    timer.join()
    assert time.monotonic() - start < 60
    assert e.value.result.status == "unknown" and e.value.result.optimum is None
    timer = interrupt_in(0.5)
    with pytest.raises(KeyboardInterrupt):
        pqsat.enumerate(dim=16, count=True)
    timer.join()
    timer = interrupt_in(0.5)
    with pytest.raises(KeyboardInterrupt):
        for _ in pqsat.enumerate(dim=16, n=37):
            pass
    timer.join()
    assert pqsat.solve(dim=6).optimum == 5


def test_the_gil_is_released_while_it_solves():
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.01)

    t = threading.Thread(target=tick)
    t.start()
    try:
        start = time.monotonic()
        pqsat.solve(dim=13, jobs=1)
        spent = time.monotonic() - start
    finally:
        stop.set()
        t.join()
    # A thread that held the GIL for the whole solve would leave the ticker at one tick.
    assert len(ticks) > min(5, spent * 20)


@pytest.mark.parametrize(
    "kwargs,flags",
    [
        (dict(dim=0), ["--dim", 0]),
        (dict(dim=5, n=-2), ["--dim", 5, "--n", -2]),
        (dict(dim=5, jobs=0), ["--dim", 5, "--jobs", 0]),
        (dict(dim=5, timeout=-1), ["--dim", 5, "--timeout", -1]),
        (dict(dim=5, n=3, step_timeout=5), ["--dim", 5, "--n", 3, "--step-timeout", 5]),
        (dict(dim=5, backend="nosuchsolver"), ["--dim", 5, "--backend", "nosuchsolver"]),
        (dict(dim=5, engine="lines", model="pairwise"), ["--dim", 5, "--engine", "lines", "--model", "pairwise"]),
    ],
)
def test_bad_input_raises_the_command_lines_message(kwargs, flags):
    code, message = cli_error("solve", *flags)
    with pytest.raises(pqsat.UsageError) as e:
        pqsat.solve(**kwargs)
    assert e.value.exit_code == code == 2
    assert str(e.value) == message


def test_unknown_names_are_refused():
    with pytest.raises(pqsat.UsageError, match="unknown engine"):
        pqsat.solve(dim=5, engine="fast")
    with pytest.raises(pqsat.UsageError, match="no built-in problem"):
        pqsat.solve("no-such-problem")
    with pytest.raises(pqsat.UsageError, match="not both"):
        pqsat.solve("three-armies", dim=5)
    with pytest.raises(pqsat.UsageError, match="unknown up_to"):
        pqsat.enumerate(dim=5, up_to="orbits")
    with pytest.raises(pqsat.UsageError, match="expected KEY|unknown|no group"):
        pqsat.Problem("three-armies").set(purple=3)
    with pytest.raises(pqsat.UsageError, match="--problem FILE"):
        pqsat.Problem.queens(5).set(board="6x6")
