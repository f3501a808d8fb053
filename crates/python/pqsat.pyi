"""pq-sat from Python: chessboard placement problems (above all the peaceable armies of
queens) encoded into SAT, solved by pq-sat's engines, read back as validated boards."""

import os
from typing import Any, Iterator, Literal, Mapping, overload

__version__: str

#: The built-in problems, by name: the files of pq-sat's encodings/ folder.
BUILT_IN_PROBLEMS: dict[str, str]

_Path = str | os.PathLike[str]
_Engine = Literal["auto", "lines", "sat"]

class Error(ValueError):
    """What pq-sat refuses or cannot do, with the command line's message."""

    #: The code `pq-sat` exits with for it.
    exit_code: int

class UsageError(Error):
    """Arguments refused before anything is done (the command line's exit code 2)."""

class WrongAnswer(Error):
    """A model that falsifies a clause of its formula (`pq-sat decode` exits 3)."""

class Problem:
    """A placement problem: a board, groups of pieces with counts, who may not attack whom.

    `Problem(source)` reads a TOML file, or the built-in problem of that name
    ("three-armies", "crowded-chessboard", ...); `Problem.queens(d)` is the peaceable
    queens on d x d."""

    def __init__(self, source: _Path) -> None: ...
    @staticmethod
    def queens(dim: int) -> Problem: ...
    @staticmethod
    def from_toml(text: str) -> Problem: ...
    def set(
        self, settings: Mapping[str, int | str | bool] | None = None, **kwargs: int | str | bool
    ) -> Problem:
        """The problem with `--set KEY=VALUE` settings applied (board="9x9", a group's count)."""
    @property
    def name(self) -> str: ...
    @property
    def rows(self) -> int: ...
    @property
    def cols(self) -> int: ...
    @property
    def torus(self) -> bool: ...
    @property
    def groups(self) -> list[dict[str, Any]]: ...
    @property
    def maximised(self) -> list[str]: ...
    @property
    def no_attack(self) -> list[tuple[str, str]]: ...
    def to_toml(self) -> str: ...

class Board:
    """A validated placement of a problem's pieces, row 1 at the top."""

    def __init__(self, rows: list[str] | str, problem: Problem | _Path | None = None) -> None: ...
    @property
    def problem(self) -> Problem: ...
    @property
    def rows(self) -> list[str]: ...
    @property
    def cells(self) -> dict[str, list[tuple[int, int]]]:
        """Each group's squares, (row, column), 0-based, row 0 at the top."""
    @property
    def counts(self) -> dict[str, int]: ...
    @property
    def n(self) -> int | None: ...
    @property
    def orbit_size(self) -> int: ...
    @property
    def is_canonical(self) -> bool: ...
    def canon(self) -> Board:
        """The orbit's canonical form, as `pq-sat canon` gives it."""
    def validate(self) -> None:
        """Runs the independent validator; raises Error naming what fails."""
    def to_json(self) -> str:
        """The board as `pq-sat solve --format json` reports it."""
    def svg(self, title: str | None = None) -> str: ...
    def _repr_svg_(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Formula:
    """A formula pq-sat wrote: DIMACS at one size, or the optimisation as WCNF or OPB."""

    @property
    def format(self) -> Literal["dimacs", "wcnf", "opb"]: ...
    @property
    def nv(self) -> int: ...
    @property
    def clauses(self) -> list[list[int]]: ...
    @property
    def comments(self) -> list[str]: ...
    @property
    def soft(self) -> list[list[int]]: ...
    @property
    def problem(self) -> Problem | None: ...
    @property
    def n(self) -> int | None: ...
    def __len__(self) -> int: ...
    def to_file(self, path: _Path, *, force: bool = False) -> None:
        """Writes the file `pq-sat encode -o PATH` writes (.xz, .gz, .bz2 compress)."""
    def to_pysat(self) -> Any:
        """A pysat.formula.CNF or WCNF (needs PySAT)."""
    def decode(self, model: list[int] | str) -> Board | None:
        """The validated board a model encodes, as `pq-sat decode` reads it."""

class Result:
    """The answer of `solve`, with the report `pq-sat solve --format json` prints."""

    @property
    def status(self) -> Literal["sat", "unsat", "unknown"]: ...
    @property
    def optimum(self) -> int | None: ...
    @property
    def lower_bound(self) -> int | None: ...
    @property
    def n(self) -> int | None: ...
    @property
    def board(self) -> Board | None: ...
    @property
    def known(self) -> str | None: ...
    @property
    def seconds(self) -> float: ...
    @property
    def nodes(self) -> int | None: ...
    @property
    def steps(self) -> list[dict[str, Any]]: ...
    @property
    def reason(self) -> str | None: ...
    @property
    def backend(self) -> str | None: ...
    @property
    def certificate(self) -> dict[str, Any] | None: ...
    @property
    def exit_code(self) -> int: ...
    def to_json(self) -> str: ...

class Check:
    """A certificate's verdict: `valid`, also the object's truth."""

    @property
    def valid(self) -> bool: ...
    def __bool__(self) -> bool: ...
    def to_json(self) -> str: ...

class Enumeration(Iterator[Board]):
    """The boards of an enumeration, as they are found."""

    def __iter__(self) -> Enumeration: ...
    def __next__(self) -> Board: ...
    @property
    def summary(self) -> dict[str, Any] | None: ...

def encode(
    problem: Problem | _Path | None = None,
    *,
    dim: int | None = None,
    n: int | None = None,
    model: str | None = None,
    card: str | None = None,
    symmetry: str | None = None,
    bounds: str | None = None,
    format: Literal["dimacs", "wcnf", "opb"] = "dimacs",
) -> Formula:
    """The formula `pq-sat encode` writes."""

def read_formula(path: _Path) -> Formula:
    """A DIMACS file (one pq-sat wrote decodes models through its `c var` lines)."""

def solve(
    problem: Problem | _Path | None = None,
    *,
    dim: int | None = None,
    n: int | None = None,
    engine: _Engine = "auto",
    timeout: float | None = None,
    step_timeout: float | None = None,
    jobs: int | None = None,
    backend: str | list[str] | None = None,
    strategy: str | None = None,
    model: str | None = None,
    card: str | None = None,
    symmetry: str | None = None,
    bounds: str | None = None,
    check_unsat: bool = False,
    certificate: _Path | None = None,
    certificate_format: Literal["search", "drat", "lrat"] | None = None,
    force: bool = False,
) -> Result:
    """Solves as `pq-sat solve` does: the optimum, or with `n` one size."""

@overload
def enumerate(
    problem: Problem | _Path | None = None,
    *,
    dim: int | None = None,
    n: int | None = None,
    engine: _Engine = "auto",
    up_to: Literal["symmetry", "total"] = "symmetry",
    maximal: bool = False,
    limit: int | None = None,
    jobs: int | None = None,
    split: int | None = None,
    model: str | None = None,
    card: str | None = None,
    check_unsat: bool = False,
    count: Literal[False] = False,
) -> Enumeration: ...
@overload
def enumerate(
    problem: Problem | _Path | None = None,
    *,
    dim: int | None = None,
    n: int | None = None,
    engine: _Engine = "auto",
    up_to: Literal["symmetry", "total"] = "symmetry",
    maximal: bool = False,
    limit: int | None = None,
    jobs: int | None = None,
    split: int | None = None,
    model: str | None = None,
    card: str | None = None,
    check_unsat: bool = False,
    count: Literal[True],
) -> int: ...
def check_certificate(path: _Path, *, timeout: float | None = None) -> Check:
    """Re-checks a certificate bundle (a directory) or a search certificate (a file)."""

def set_verbosity(level: Literal["quiet", "normal", "verbose"]) -> None: ...
def solvers() -> list[dict[str, Any]]: ...
