//! `pqsat.Board`: a placement with its problem, shown as pq-sat shows it (the text board,
//! the SVG picture, the JSON of `solve --format json`), its canonical form under the
//! problem's symmetries, and the independent validator.

use pq_board::placement::Placement;
use pq_encode::spec::Problem;
use pq_report::input::read_placement;
use pq_report::solve::Witness;
use pq_report::Subject;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::problem::PyProblem;
use crate::{failure, usage, Error};

/// A placement of a problem's pieces: rows of symbols (`W`, `B`, `.` for the queens; each
/// group's own symbol otherwise), row 1 at the top.
///
/// Every board pqsat returns (from `solve`, `enumerate`, `Formula.decode`) has passed pq-sat's
/// independent validator. `Board(rows, problem=None)` reads one from rows (a list of
/// strings, a text board or pq-sat's JSON; the queens on a square board when no problem
/// is given); `validate()` runs the validator on it.
#[pyclass(name = "Board", module = "pqsat", frozen)]
pub(crate) struct PyBoard {
    problem: Problem,
    placement: Placement,
}

impl PyBoard {
    /// `placement`, of `problem`.
    pub(crate) fn new(problem: Problem, placement: Placement) -> PyBoard {
        PyBoard { problem, placement }
    }

    /// The size of its maximised groups: the smallest of them (`None` when the problem
    /// maximises none).
    fn size(&self) -> Option<usize> {
        let maximised = self.problem.maximised();
        maximised.iter().map(|&g| self.placement.count(g)).min()
    }

    /// The rows of symbols.
    fn row_strings(&self) -> Vec<String> {
        pq_report::rows(&self.problem.rules, &self.placement)
    }
}

#[pymethods]
impl PyBoard {
    #[new]
    #[pyo3(signature = (rows, problem=None))]
    fn py_new(rows: &Bound<'_, PyAny>, problem: Option<&Bound<'_, PyAny>>) -> PyResult<PyBoard> {
        let text = if let Ok(text) = rows.cast::<PyString>() {
            text.to_str()?.to_string()
        } else {
            let rows: Vec<String> = rows
                .extract()
                .map_err(|_| usage("a board is a list of rows (strings) or a text board"))?;
            serde_json::to_string(&rows).map_err(|e| Error::new_err(e.to_string()))?
        };
        let given = problem.map(PyProblem::from_arg).transpose()?;
        let read = read_placement(&text, given.as_ref().map(|p| &p.problem))
            .map_err(|e| usage(e.to_string()))?;
        Ok(PyBoard::new(read.problem, read.placement))
    }

    /// The problem the board belongs to.
    #[getter]
    fn problem(&self) -> PyProblem {
        PyProblem::of(self.problem.clone(), None, self.problem.name.clone())
    }

    /// The rows of symbols, top first.
    #[getter]
    fn rows(&self) -> Vec<String> {
        self.row_strings()
    }

    /// The squares of each group's pieces, by group name: lists of (row, column), 0-based,
    /// row 0 at the top.
    #[getter]
    fn cells<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let p = &self.placement;
        let cells = PyDict::new(py);
        for (g, group) in self.problem.rules.groups.iter().enumerate() {
            let squares: Vec<(usize, usize)> = (0..p.rows)
                .flat_map(|r| (0..p.cols).map(move |c| (r, c)))
                .filter(|&(r, c)| p.get(r, c) == Some(g))
                .collect();
            cells.set_item(&group.name, squares)?;
        }
        Ok(cells)
    }

    /// How many pieces of each group, by group name.
    #[getter]
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let counts = PyDict::new(py);
        for (g, group) in self.problem.rules.groups.iter().enumerate() {
            counts.set_item(&group.name, self.placement.count(g))?;
        }
        Ok(counts)
    }

    /// The size of the maximised groups (the smallest of them), `None` when the problem
    /// maximises none.
    #[getter]
    fn n(&self) -> Option<usize> {
        self.size()
    }

    /// The canonical form of the board under its problem's symmetries (the 16 maps of the
    /// peaceable queens), as `pq-sat canon` gives it.
    fn canon(&self) -> PyResult<PyBoard> {
        let report = pq_ops::placement::canonical(&self.problem, &self.placement)
            .map_err(|e| failure(&e))?;
        let symbols = Placement::symbols(&self.problem.rules);
        let canonical =
            Placement::from_rows(&self.problem.rules.layout, &report.canonical, &symbols)
                .map_err(Error::new_err)?;
        Ok(PyBoard::new(self.problem.clone(), canonical))
    }

    /// How many distinct boards its orbit under the problem's symmetries holds.
    #[getter]
    fn orbit_size(&self) -> PyResult<usize> {
        let report = pq_ops::placement::canonical(&self.problem, &self.placement)
            .map_err(|e| failure(&e))?;
        Ok(report.orbit_size)
    }

    /// Whether the board is its orbit's canonical form.
    #[getter]
    fn is_canonical(&self) -> PyResult<bool> {
        let report = pq_ops::placement::canonical(&self.problem, &self.placement)
            .map_err(|e| failure(&e))?;
        Ok(report.is_canonical)
    }

    /// Runs pq-sat's independent validator (which shares no code with the encoder) on the
    /// board: no piece attacks one it may not, and each group whose count is fixed has
    /// exactly that many. Raises `pqsat.Error` naming what fails.
    fn validate(&self) -> PyResult<()> {
        let n = self.size().unwrap_or(0);
        pq_engine::capability::validated(&self.problem, n, &self.placement, "the board")
            .map(|_| ())
            .map_err(|e| failure(&e.into()))
    }

    /// The board as `pq-sat solve --format json` reports it: the problem (`dim`, or
    /// `problem`, `board`, `groups`, `no_attack`), `n`, and the rows (`board` for the
    /// queens, `placement` otherwise). `pq-sat render` and `pq-sat canon` read it.
    fn to_json(&self) -> PyResult<String> {
        let n = self.size();
        let mut object = serde_json::Map::new();
        let parts = [
            serde_json::to_value(Subject::of(&self.problem, Some(n.unwrap_or(0)))),
            serde_json::to_value(Witness::of(&self.problem, &self.placement)),
        ];
        for part in parts {
            let part = part.map_err(|e| Error::new_err(e.to_string()))?;
            if let serde_json::Value::Object(fields) = part {
                object.extend(fields);
            }
            if let (Some(n), false) = (n, object.contains_key("n")) {
                object.insert("n".into(), n.into());
            }
        }
        serde_json::to_string(&object).map_err(|e| Error::new_err(e.to_string()))
    }

    /// The board as an SVG picture, as `pq-sat render` and `--svg` draw it.
    #[pyo3(signature = (title=None))]
    fn svg(&self, title: Option<&str>) -> String {
        pq_ops::picture(&self.problem, &self.placement, title)
    }

    /// The picture Jupyter shows.
    fn _repr_svg_(&self) -> String {
        self.svg(None)
    }

    /// The labelled text board `pq-sat solve` prints (with a legend for problems other
    /// than the queens).
    fn __str__(&self) -> String {
        pq_report::board_text(&self.problem, &self.placement)
    }

    fn __repr__(&self) -> String {
        format!("Board({:?})", self.row_strings())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyBoard>().is_ok_and(|o| {
            let o = o.get();
            o.problem.rules == self.problem.rules && o.placement == self.placement
        })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.row_strings().hash(&mut h);
        h.finish()
    }
}
