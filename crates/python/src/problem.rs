//! `pqsat.Problem`: a placement problem from a TOML file, a built-in name (the files of
//! `encodings/`) or the queens preset, with the command line's `--set` as `set()`.

use std::path::{Path, PathBuf};

use pq_encode::spec::{Count, Problem};
use pq_engine::plan::request::{sized_by_set, Input};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList};

use crate::{args, usage};

/// The problems of `encodings/`, by the name of their file: what `Problem(name)` reads
/// when `name` is not a file.
pub(crate) const BUILT_IN: [(&str, &str); 5] = [
    (
        "crowded-chessboard",
        include_str!("../../../encodings/crowded-chessboard.toml"),
    ),
    (
        "peaceable-knights",
        include_str!("../../../encodings/peaceable-knights.toml"),
    ),
    (
        "peaceable-queens",
        include_str!("../../../encodings/peaceable-queens.toml"),
    ),
    (
        "peaceable-queens-torus",
        include_str!("../../../encodings/peaceable-queens-torus.toml"),
    ),
    (
        "three-armies",
        include_str!("../../../encodings/three-armies.toml"),
    ),
];

/// A placement problem: a board, groups of pieces with their counts, and which groups must
/// not attack which.
///
/// `Problem(source)` reads a TOML file (see `encodings/*.toml`) or, when `source` is no
/// file, the built-in problem of that name (`"three-armies"`, `"crowded-chessboard"`,
/// ...: the files of `encodings/`). `Problem.queens(d)` is the peaceable queens on d x d,
/// what `dim=d` means everywhere. `set(board="7x7", knights=22)` returns the problem with
/// the command line's `--set` settings applied.
#[pyclass(name = "Problem", module = "pqsat", frozen)]
#[derive(Clone)]
pub(crate) struct PyProblem {
    /// The problem as read, before any setting.
    pub(crate) file: Problem,
    /// The problem with the settings applied.
    pub(crate) problem: Problem,
    /// The settings applied, in order, as `KEY=VALUE` pairs.
    pub(crate) settings: Vec<(String, String)>,
    /// The board's side when this is the queens preset (`Problem.queens(d)`).
    pub(crate) queens: Option<usize>,
    /// Where it came from, for messages: a file's path or a built-in name.
    pub(crate) source: String,
}

impl PyProblem {
    /// A problem argument: a `Problem`, or a file or built-in name to read.
    pub(crate) fn from_arg(arg: &Bound<'_, PyAny>) -> PyResult<PyProblem> {
        if let Ok(p) = arg.cast::<PyProblem>() {
            return Ok(p.get().clone());
        }
        let source: PathBuf = arg.extract().map_err(|_| {
            usage("a problem is a pqsat.Problem, a built-in name or the path of a TOML file")
        })?;
        PyProblem::read(&source)
    }

    /// Reads the TOML file `source`, or the built-in problem of that name.
    pub(crate) fn read(source: &Path) -> PyResult<PyProblem> {
        let shown = source.display().to_string();
        let text = if source.is_file() {
            pq_io::output::read_input_text(source, pq_io::output::MAX_TEXT_INPUT)
                .map_err(|e| usage(format!("cannot read {e}")))?
        } else if let Some((_, text)) = BUILT_IN.iter().find(|(name, _)| {
            let bare = shown.strip_suffix(".toml").unwrap_or(&shown);
            bare == *name || bare.strip_prefix("encodings/") == Some(name)
        }) {
            (*text).to_string()
        } else {
            let names: Vec<&str> = BUILT_IN.iter().map(|(name, _)| *name).collect();
            return Err(usage(format!(
                "unknown problem '{shown}': no such file, and no built-in problem has that name (the built-in problems: {})",
                names.join(", ")
            )));
        };
        let problem = Problem::from_toml(&text).map_err(|e| usage(format!("{shown}: {e}")))?;
        Ok(PyProblem::of(problem, None, shown))
    }

    /// `problem`, read from `source`, with no setting applied.
    pub(crate) fn of(problem: Problem, queens: Option<usize>, source: String) -> PyProblem {
        PyProblem {
            file: problem.clone(),
            problem,
            settings: Vec::new(),
            queens,
            source,
        }
    }

    /// What `solve` asks about: the queens on d x d as `--dim D`, or the problem as
    /// `--problem FILE --set ...`, whose settings may fix the size of every maximised group.
    pub(crate) fn input(&self) -> Input {
        if let (Some(d), true) = (self.queens, self.settings.is_empty()) {
            return Input::Queens(d);
        }
        let (problem, set_n) =
            sized_by_set(&self.file, self.problem.clone(), !self.settings.is_empty());
        Input::Problem { problem, set_n }
    }
}

/// A setting's value as `--set` takes it: a number, `max`, `true`/`false`, or text such as
/// `9x9`.
fn setting(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(if b.is_true() { "true" } else { "false" }.to_string());
    }
    if let Ok(n) = value.extract::<i64>() {
        return Ok(n.to_string());
    }
    value
        .extract::<String>()
        .map_err(|_| usage("a setting's value is a number, a string (\"9x9\", \"max\") or a bool"))
}

#[pymethods]
impl PyProblem {
    #[new]
    fn new(source: PathBuf) -> PyResult<PyProblem> {
        PyProblem::read(&source)
    }

    /// The peaceable queens on `dim` x `dim` (what `dim=dim` means elsewhere).
    #[staticmethod]
    fn queens(dim: i64) -> PyResult<PyProblem> {
        let d = args::side(dim)?;
        Ok(PyProblem::of(
            Problem::peaceable_queens(d),
            Some(d),
            format!("the peaceable queens on {d}x{d}"),
        ))
    }

    /// A problem from the text of a TOML file.
    #[staticmethod]
    fn from_toml(text: &str) -> PyResult<PyProblem> {
        let problem = Problem::from_toml(text).map_err(|e| usage(e.to_string()))?;
        Ok(PyProblem::of(problem, None, "the TOML given".to_string()))
    }

    /// The problem with settings applied, as `--set KEY=VALUE` applies them: `board`
    /// (`"9x9"`), `rows`, `cols`, `torus` (a bool), or a group's count (a number or
    /// `"max"`). Keyword arguments, or a dict for keys that are not Python names.
    #[pyo3(signature = (settings=None, **kwargs))]
    fn set(
        &self,
        settings: Option<&Bound<'_, PyDict>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyProblem> {
        let mut items = Vec::new();
        for dict in [settings, kwargs].into_iter().flatten() {
            for (key, value) in dict.iter() {
                items.push((key.extract::<String>()?, setting(&value)?));
            }
        }
        if self.queens.is_some() {
            if let Some((key, value)) = items.first() {
                return Err(usage(format!(
                    "--set {key}={value}: --set changes a setting of a problem file and needs --problem FILE; the queens on --dim D have nothing to set (give their army size with --n N)"
                )));
            }
        }
        let mut next = self.clone();
        next.problem
            .set_all(items.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .map_err(|e| usage(format!("{}: {e}", self.source)))?;
        next.settings.extend(items);
        Ok(next)
    }

    /// The problem's name.
    #[getter]
    fn name(&self) -> String {
        self.problem.name.clone()
    }

    /// The board's number of rows.
    #[getter]
    fn rows(&self) -> usize {
        self.problem.rules.layout.rows
    }

    /// The board's number of columns.
    #[getter]
    fn cols(&self) -> usize {
        self.problem.rules.layout.cols
    }

    /// Whether the board's lines wrap around its edges.
    #[getter]
    fn torus(&self) -> bool {
        self.problem.rules.layout.torus
    }

    /// The groups, in order: each a dict with `name`, `kind` and `count` (a number, or
    /// `"max"` for a maximised group).
    #[getter]
    fn groups<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for (g, group) in self.problem.rules.groups.iter().enumerate() {
            let d = PyDict::new(py);
            d.set_item("name", &group.name)?;
            d.set_item("kind", group.kind.name())?;
            match self.problem.counts[g] {
                Count::Exactly(k) => d.set_item("count", k)?,
                Count::Maximise => d.set_item("count", "max")?,
            }
            list.append(d)?;
        }
        Ok(list)
    }

    /// The names of the maximised groups (they share one size).
    #[getter]
    fn maximised(&self) -> Vec<String> {
        let groups = &self.problem.rules.groups;
        (self.problem.maximised().iter())
            .map(|&g| groups[g].name.clone())
            .collect()
    }

    /// Pairs of group names that must not attack each other (a name twice: within a
    /// group).
    #[getter]
    fn no_attack(&self) -> Vec<(String, String)> {
        let groups = &self.problem.rules.groups;
        (self.problem.rules.no_attack.iter())
            .map(|&(a, b)| (groups[a].name.clone(), groups[b].name.clone()))
            .collect()
    }

    /// The problem as a TOML file (the settings applied).
    fn to_toml(&self) -> String {
        self.problem.to_toml()
    }

    fn __str__(&self) -> String {
        self.problem.summary()
    }

    fn __repr__(&self) -> String {
        let settings: Vec<String> = (self.settings.iter())
            .map(|(k, v)| format!(".set({k}={v:?})"))
            .collect();
        match self.queens {
            Some(d) if self.settings.is_empty() => format!("Problem.queens({d})"),
            _ => format!("Problem({:?}){}", self.source, settings.join("")),
        }
    }
}
