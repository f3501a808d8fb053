"""pqsat.Board shown as the command line shows it: text, SVG, JSON, canonical form."""

import json

import pytest

import pqsat
from conftest import ENCODINGS, cli_json, run_cli


def test_text_svg_json_and_canon_are_the_command_lines(in_tmp):
    cli = cli_json("solve", "--dim", 7, "--n", 7, "--engine", "lines", "--jobs", 1)
    board = pqsat.solve(dim=7, n=7, engine="lines", jobs=1).board
    assert board.rows == cli["board"]
    text = run_cli("solve", "--dim", 7, "--n", 7, "--engine", "lines", "--jobs", 1,
                   check_codes=[10]).stdout
    assert str(board) in text
    (in_tmp / "b.json").write_text(board.to_json())
    assert run_cli("render", "b.json", check_codes=[0]).stdout == board._repr_svg_()
    canon = cli_json("canon", "b.json", codes=[0])
    assert canon["canonical"] == board.canon().rows
    assert canon["orbit_size"] == board.orbit_size
    assert canon["is_canonical"] == board.is_canonical
    assert json.loads(board.to_json()) == {"dim": 7, "n": 7, "board": cli["board"]}


def test_cells_per_group_and_counts():
    board = pqsat.Board(["W..", "...", "..B"])
    assert board.cells == {"white": [(0, 0)], "black": [(2, 2)]}
    assert board.counts == {"white": 1, "black": 1} and board.n == 1
    with pytest.raises(pqsat.Error, match="attack"):
        board.validate()
    fine = pqsat.Board(["W..", "..B", "..."])
    fine.validate()
    assert fine == pqsat.Board("W . .\n. . B\n. . .\n") or fine.rows == ["W..", "..B", "..."]
    assert len({fine, pqsat.Board(["W..", "..B", "..."])}) == 1


def test_boards_of_other_problems_carry_their_symbols(in_tmp):
    three = pqsat.Problem("three-armies").set(board="6x6")
    r = pqsat.solve(three)
    board = r.board
    assert set(board.counts) == {"red", "green", "blue"}
    assert "R = red" in str(board)
    data = json.loads(board.to_json())
    assert data["problem"] == "three peaceable armies of queens" and data["placement"] == board.rows
    (in_tmp / "t.json").write_text(board.to_json())
    assert run_cli("render", "t.json", check_codes=[0]).stdout == board.svg()
    assert pqsat.Board(board.rows, three) == board
