//! `pqsat.encode` and `pqsat.Formula`: the formula `pq-sat encode` writes, in memory, with
//! its clauses as Python lists, PySAT's objects, the files the command writes, and the
//! decoding of any solver's model as `pq-sat decode` does it.

use std::path::PathBuf;

use pq_encode::maxsat::Export;
use pq_encode::spec::Problem;
use pq_encode::{header, Formula};
use pq_engine::sat::maxsat::model_placement;
use pq_ops::decode::{read_back, read_saved, Refused};
use pq_ops::encode::{asked, Built};
use pq_solve::answer::Answer;
use pq_solve::control::Limits;
use pyo3::exceptions::PyImportError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyModule, PyString};

use crate::args::{self, Subject};
use crate::board::PyBoard;
use crate::problem::PyProblem;
use crate::{failure, usage, Error, WrongAnswer};

/// Where a model given to `decode` came from, as the messages name it.
const GIVEN: &str = "the answer given";

/// A formula pq-sat wrote: the problem at one size as CNF (`format` `"dimacs"`), or its
/// optimisation (`"wcnf"`, `"opb"`: maximise the size of the maximised groups), with the
/// header and the variable map (`c var` lines) that decode a model into a board.
#[pyclass(name = "Formula", module = "pqsat", frozen)]
pub(crate) struct PyFormula {
    built: Built,
    /// The problem encoded, when known (a file read back names it in its header).
    problem: Option<PyProblem>,
    /// The size of its maximised groups (a CNF), when known.
    n: Option<usize>,
}

impl PyFormula {
    /// The problem an optimisation was exported from (always known: pq-sat encoded it).
    fn exported_from(&self) -> PyResult<&Problem> {
        (self.problem.as_ref().map(|p| &p.problem))
            .ok_or_else(|| Error::new_err("the formula names no problem"))
    }
}

/// `formula`'s clauses as lists of signed DIMACS literals.
fn clause_lists<'py>(py: Python<'py>, formula: &Formula) -> PyResult<Bound<'py, PyList>> {
    // A formula is made of many small lists, and every few hundred new lists set off a pass
    // of Python's cycle collector over the young objects (and, now and then, over every
    // object the session holds): paused while they are made, which halves the time (and
    // removes the full passes that took 0.25 s in a session of two million objects).
    let _paused = GcPause::new(py)?;
    let clauses = (formula.cnf.iter())
        .map(|clause| PyList::new(py, clause.iter().map(|lit| lit.to_ipasir())))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, clauses)
}

/// Python's cycle collector held off for as long as this lives, if it was running.
struct GcPause<'py>(Option<Bound<'py, PyModule>>);

impl<'py> GcPause<'py> {
    fn new(py: Python<'py>) -> PyResult<GcPause<'py>> {
        let gc = py.import("gc")?;
        if !gc.call_method0("isenabled")?.is_truthy()? {
            return Ok(GcPause(None));
        }
        gc.call_method0("disable")?;
        Ok(GcPause(Some(gc)))
    }
}

impl Drop for GcPause<'_> {
    fn drop(&mut self) {
        if let Some(gc) = &self.0 {
            // Enabling cannot fail; there is nothing to do if it did.
            let _ = gc.call_method0("enable");
        }
    }
}

/// A model as the text `decode` reads: solver output as it is, or a list of signed
/// literals as a bare model (`1 -2 3 ... 0`, PySAT's `get_model()`).
fn answer_text(model: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = model.cast::<PyString>() {
        return Ok(text.to_str()?.to_string());
    }
    let lits: Vec<i64> = model.extract().map_err(|_| {
        usage("a model is a list of signed literals (PySAT's get_model()) or a solver's output as a string")
    })?;
    let mut text = String::with_capacity(lits.len() * 6 + 2);
    for lit in lits {
        text.push_str(&lit.to_string());
        text.push(' ');
    }
    text.push('0');
    Ok(text)
}

#[pymethods]
impl PyFormula {
    /// `"dimacs"` (the problem at one size), `"wcnf"` or `"opb"` (its optimisation).
    #[getter]
    fn format(&self) -> &'static str {
        match &self.built {
            Built::Cnf(_) => "dimacs",
            Built::Export(opt) => opt.export.name(),
        }
    }

    /// The number of variables (the `p cnf` line's).
    #[getter]
    fn nv(&self) -> u32 {
        self.built.formula().n_vars
    }

    /// The clauses, each a list of signed DIMACS literals (an optimisation's hard clauses;
    /// for OPB, the clauses without its linear constraints). Built on each access.
    #[getter]
    fn clauses<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        clause_lists(py, self.built.formula())
    }

    /// The comment lines the file starts with (`c ...`: the header, then the `c var` map).
    #[getter]
    fn comments(&self) -> Vec<String> {
        pq_encode::dimacs::comment_lines(self.built.formula())
    }

    /// WCNF: the soft clauses (the units `y_k` of the ladder that counts the size), each of
    /// weight 1; empty for the other formats.
    #[getter]
    fn soft(&self) -> Vec<Vec<i64>> {
        match &self.built {
            Built::Export(opt) if opt.export == Export::Wcnf => {
                opt.ladder.iter().map(|&y| vec![i64::from(y)]).collect()
            }
            _ => Vec::new(),
        }
    }

    /// The problem encoded, when known.
    #[getter]
    fn problem(&self) -> Option<PyProblem> {
        self.problem.clone()
    }

    /// The size of the maximised groups a CNF asks for (at least that many each).
    #[getter]
    fn n(&self) -> Option<usize> {
        self.n
    }

    fn __len__(&self) -> usize {
        self.built.formula().n_clauses()
    }

    fn __repr__(&self) -> String {
        let f = self.built.formula();
        let about = match (&self.problem, self.n) {
            (Some(p), Some(n)) => format!("{}, n = {n}: ", p.problem.summary()),
            (Some(p), None) => format!("{}: ", p.problem.summary()),
            (None, _) => String::new(),
        };
        format!(
            "<pqsat.Formula {}: {about}{} variables, {} clauses>",
            self.format(),
            f.n_vars,
            f.n_clauses()
        )
    }

    /// Writes the file `pq-sat encode` writes (`-o PATH`): DIMACS, WCNF or OPB as the
    /// formula's format says, atomically, compressed when the name ends in .xz, .gz or
    /// .bz2. An existing file is replaced only with `force=True`.
    #[pyo3(signature = (path, *, force=false))]
    fn to_file(&self, py: Python<'_>, path: PathBuf, force: bool) -> PyResult<()> {
        py.detach(|| self.built.write(Some(&path), force))
            .map_err(|e| failure(&e))
    }

    /// The formula as PySAT's object: a `pysat.formula.CNF` (DIMACS) or `WCNF`, equal to
    /// what PySAT reads from the file `to_file` writes. Needs PySAT (`pip install
    /// python-sat`); an OPB optimisation has linear constraints neither object holds.
    fn to_pysat<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let module = py.import("pysat.formula").map_err(|e| {
            PyImportError::new_err(format!(
                "to_pysat() needs PySAT: pip install python-sat ({e})"
            ))
        })?;
        let f = self.built.formula();
        let comments = self.comments();
        match &self.built {
            Built::Cnf(_) => {
                let cnf = module.getattr("CNF")?.call0()?;
                cnf.setattr("clauses", clause_lists(py, f)?)?;
                cnf.setattr("nv", f.n_vars)?;
                cnf.setattr("comments", comments)?;
                Ok(cnf)
            }
            Built::Export(opt) if opt.export == Export::Wcnf => {
                let wcnf = module.getattr("WCNF")?.call0()?;
                wcnf.setattr("hard", clause_lists(py, f)?)?;
                wcnf.setattr("soft", self.soft())?;
                wcnf.setattr("wght", vec![1u32; opt.ladder.len()])?;
                // As PySAT sets it for a file whose hard clauses are marked `h`.
                wcnf.setattr("topw", opt.ladder.len() + 1)?;
                wcnf.setattr("nv", f.n_vars)?;
                wcnf.setattr("comments", comments)?;
                Ok(wcnf)
            }
            Built::Export(_) => Err(Error::new_err(
                "to_pysat(): an OPB optimisation has linear constraints that PySAT's CNF and WCNF cannot hold; encode it with format=\"wcnf\"",
            )),
        }
    }

    /// The board a solver's model encodes, read back as `pq-sat decode` reads it: the model
    /// checked against every clause (an optimisation's: every hard constraint), decoded
    /// through the variable map, and passed by the independent validator. `model` is a
    /// list of signed literals (PySAT's `get_model()`) or a solver's output (`s` and `v`
    /// lines, MiniSat's result file, a bare model). `None` when the output says UNSAT or
    /// UNKNOWN; a model that falsifies a clause raises `WrongAnswer`.
    fn decode(&self, py: Python<'_>, model: &Bound<'_, PyAny>) -> PyResult<Option<PyBoard>> {
        let text = answer_text(model)?;
        match &self.built {
            Built::Cnf(formula) => {
                let read = py.detach(|| {
                    let saved = read_saved(&text, formula, GIVEN)?;
                    read_back(formula, saved, GIVEN.to_string())
                });
                match read.map_err(|e| failure(&e))? {
                    Ok(read) => Ok(read
                        .outcome
                        .placement
                        .map(|p| PyBoard::new(read.problem, p))),
                    Err(refused) => {
                        let message = refused.message("this formula", GIVEN);
                        let err = match refused {
                            Refused::WrongModel { .. } => WrongAnswer::new_err(message),
                            Refused::NotPqSat(_) => Error::new_err(message),
                        };
                        err.value(py).setattr("exit_code", refused.code())?;
                        Err(err)
                    }
                }
            }
            Built::Export(opt) => {
                let problem = self.exported_from()?;
                let saved = read_saved(&text, &opt.formula, GIVEN).map_err(|e| failure(&e))?;
                let Answer::Sat(model) = saved.answer else {
                    return Ok(None);
                };
                let value = |v: u32| model.value(v as usize);
                if let Some(why) = opt.violation(value) {
                    return Err(WrongAnswer::new_err(format!(
                        "wrong answer: the model in {GIVEN} {why}"
                    )));
                }
                let (_, placement, _) =
                    model_placement(problem, opt, value, GIVEN).map_err(|e| failure(&e.into()))?;
                Ok(Some(PyBoard::new(problem.clone(), placement)))
            }
        }
    }
}

/// The formula `pq-sat encode` writes: `encode(dim=8, n=10)` for the queens, or
/// `encode(problem, n=...)` for a problem (a `Problem`, a built-in name or a TOML file).
/// `format="wcnf"` or `"opb"` is the optimisation (no `n`). `model`, `card`, `symmetry`
/// and `bounds` are the command line's encoding options, by name.
#[pyfunction]
#[pyo3(signature = (problem=None, *, dim=None, n=None, model=None, card=None, symmetry=None, bounds=None, format="dimacs"))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn encode(
    py: Python<'_>,
    problem: Option<&Bound<'_, PyAny>>,
    dim: Option<i64>,
    n: Option<i64>,
    model: Option<&str>,
    card: Option<&str>,
    symmetry: Option<&str>,
    bounds: Option<&str>,
    format: &str,
) -> PyResult<PyFormula> {
    let n = n.map(args::size).transpose()?;
    let subject = Subject::of(problem, dim, n)?;
    let export = match format {
        "dimacs" => None,
        "wcnf" => Some(Export::Wcnf),
        "opb" => Some(Export::Opb),
        _ => {
            return Err(usage(format!(
                "unknown format '{format}' (expected one of: dimacs, wcnf, opb)"
            )))
        }
    };
    let encoding = args::encoding(model, card, symmetry, bounds)?;
    let problem = subject.problem();
    let what = asked(&problem, n, export, &encoding, subject.is_dim()).map_err(usage)?;
    let options = encoding.options();
    let built = py
        .detach(|| Built::new(&problem, what, &options))
        .map_err(|e| failure(&e))?;
    let n = match what {
        pq_ops::encode::Encoded::Size(n) => Some(n),
        pq_ops::encode::Encoded::Export(_) => None,
    };
    Ok(PyFormula {
        built,
        problem: Some(subject.into_problem()),
        n,
    })
}

/// A DIMACS formula from a file (plain, .xz, .gz or .bz2): one pq-sat wrote decodes models
/// through its `c var` lines, its header naming the problem.
#[pyfunction]
pub(crate) fn read_formula(py: Python<'_>, path: PathBuf) -> PyResult<PyFormula> {
    let formula = py
        .detach(|| pq_solve::input::read_formula(Some(&path), &Limits::none()))
        .map_err(|e| failure(&e.into()))?;
    let (problem, n) = header::subject(&formula);
    let shown = path.display().to_string();
    Ok(PyFormula {
        built: Built::Cnf(formula),
        problem: problem.map(|p| PyProblem::of(p, None, shown)),
        n,
    })
}
