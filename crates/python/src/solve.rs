//! `pqsat.solve` and `pqsat.check_certificate`: `pq-sat solve` and `pq-sat
//! check-certificate` from Python. The arguments make the engine's `SolveRequest` as the
//! command line's do; `pq_ops::solve::Solve::answer` answers it; the report is the one
//! `solve --format json` prints.

use std::path::PathBuf;

use pq_board::placement::Placement;
use pq_encode::spec::Problem;
use pq_engine::plan::choice::EngineChoice;
use pq_engine::plan::request::Input;
use pq_engine::plan::{Named, Plan, SolveRequest};
use pq_engine::proof::ProofFormat;
use pq_ops::solve::{Answer, Report, Solve};
use pyo3::prelude::*;
use pyo3::types::PyList;
use serde_json::Value;

use crate::args::{self, Subject};
use crate::board::PyBoard;
use crate::{failure, interruptible, json_value, usage, Error};

/// The answer of `solve`: a status, the optimum or the answer at one size, the validated
/// board, how the answer is known, and the whole report `pq-sat solve --format json`
/// prints (`to_json()`); `str()` is the text `pq-sat solve` prints.
#[pyclass(name = "Result", module = "pqsat", frozen)]
pub(crate) struct PyResultReport {
    json: String,
    value: Value,
    text: String,
    code: u8,
    board: Option<(Problem, Placement)>,
}

impl PyResultReport {
    /// The report of `answer`.
    fn of(answer: &Answer) -> PyResult<PyResultReport> {
        let json = match &answer.report {
            Report::Solved { report, .. } => serde_json::to_string(report),
            Report::Optimum { report, .. } => serde_json::to_string(report),
        }
        .map_err(|e| Error::new_err(e.to_string()))?;
        let value = serde_json::from_str(&json).map_err(|e| Error::new_err(e.to_string()))?;
        let board = (answer.problem.clone()).zip(answer.placement().cloned());
        Ok(PyResultReport {
            json,
            value,
            text: answer.text(),
            code: answer.code,
            board,
        })
    }

    /// A field of the report, as Python.
    fn field<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Bound<'py, PyAny>> {
        match self.value.get(key) {
            Some(v) => json_value(py, &v.to_string()),
            None => Ok(py.None().into_bound(py)),
        }
    }

    /// Whether this answers an optimisation (it reports `optimum`).
    fn optimises(&self) -> bool {
        self.value.get("maximised").is_some()
    }
}

#[pymethods]
impl PyResultReport {
    /// `"sat"`, `"unsat"` or `"unknown"`. For an optimisation: `"sat"` when the optimum is
    /// proven, `"unsat"` when not even size 0 fits, `"unknown"` when stopped.
    #[getter]
    fn status(&self) -> String {
        self.value["status"]
            .as_str()
            .unwrap_or("unknown")
            .to_string()
    }

    /// The optimum, when an optimisation proved it (a witness at it, UNSAT one above).
    #[getter]
    fn optimum(&self) -> Option<u64> {
        self.value.get("optimum").and_then(Value::as_u64)
    }

    /// The largest size with a validated board: an optimisation's lower bound, or the size
    /// asked when it fits.
    #[getter]
    fn lower_bound(&self) -> Option<u64> {
        if self.optimises() {
            return self.value.get("lower_bound").and_then(Value::as_u64);
        }
        (self.value["status"] == "sat")
            .then(|| self.value.get("n").and_then(Value::as_u64))
            .flatten()
    }

    /// The size asked (one size), `None` for an optimisation.
    #[getter]
    fn n(&self) -> Option<u64> {
        self.value.get("n").and_then(Value::as_u64)
    }

    /// The board found (an optimisation's best), validated; `None` when there is none.
    #[getter]
    fn board(&self) -> Option<PyBoard> {
        (self.board.clone()).map(|(problem, p)| PyBoard::new(problem, p))
    }

    /// How the answer is known, as the report says it: "board checked by the independent
    /// validator", "exhaustive search by the line engine", "proof checked by rate", ...
    #[getter]
    fn known(&self) -> Option<String> {
        self.value
            .get("known")
            .and_then(Value::as_str)
            .map(str::to_string)
    }

    /// Wall-clock seconds.
    #[getter]
    fn seconds(&self) -> f64 {
        self.value["seconds"].as_f64().unwrap_or(0.0)
    }

    /// The line engine's search nodes, when it answered.
    #[getter]
    fn nodes(&self) -> Option<u64> {
        self.value.get("search").and_then(|s| s["nodes"].as_u64())
    }

    /// An optimisation's steps (`n`, `status`, `method`, `solver`, `seconds`, ...), as
    /// dicts; empty for one size.
    #[getter]
    fn steps<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.value.get("steps") {
            Some(_) => self.field(py, "steps"),
            None => Ok(PyList::empty(py).into_any()),
        }
    }

    /// Why the answer is unknown (a time limit, ...).
    #[getter]
    fn reason(&self) -> Option<String> {
        self.value
            .get("reason")
            .and_then(Value::as_str)
            .map(str::to_string)
    }

    /// The engine or solvers asked (`lines x 2`, a portfolio's name).
    #[getter]
    fn backend(&self) -> Option<String> {
        self.value
            .get("backend")
            .and_then(Value::as_str)
            .map(str::to_string)
    }

    /// The certificate written (`certificate=`): the bundle's summary for an optimum, the
    /// proof's for one size; `None` when none was written.
    #[getter]
    fn certificate<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let key = if self.optimises() {
            "certificate"
        } else {
            "proof"
        };
        self.field(py, key)
    }

    /// The code `pq-sat solve` exits with: 10 SAT, 20 UNSAT, 0 unknown; for an
    /// optimisation 30 (optimum proven), 10 (a board, not proven optimal), 20, 0.
    #[getter]
    fn exit_code(&self) -> u8 {
        self.code
    }

    /// The report as `pq-sat solve --format json` prints it.
    fn to_json(&self) -> String {
        self.json.clone()
    }

    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __repr__(&self) -> String {
        let first = self.text.lines().next().unwrap_or("");
        format!("<pqsat.Result {first}>")
    }
}

/// Solves a problem as `pq-sat solve` does: the optimum of its maximised groups (a(d) for
/// `dim=d`), or, with `n`, whether that size fits. `engine` is `"auto"` (the line engine
/// where it applies), `"lines"` or `"sat"`; the other arguments are the command line's
/// options by their names (`backend` one name or a list). `certificate=PATH` writes a
/// certificate: for one size the line engine's search certificate of an UNSAT (checked
/// by pq-check), for an optimum the bundle `--certify` writes; `certificate_format` is
/// `"search"` (the default for the queens off the SAT path), `"drat"` or `"lrat"`. The GIL
/// is released while it runs; Ctrl-C stops the solvers and raises `KeyboardInterrupt`
/// (its `result` attribute holds what was known).
#[pyfunction]
#[pyo3(signature = (problem=None, *, dim=None, n=None, engine="auto", timeout=None, step_timeout=None, jobs=None, backend=None, strategy=None, model=None, card=None, symmetry=None, bounds=None, check_unsat=false, certificate=None, certificate_format=None, force=false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve(
    py: Python<'_>,
    problem: Option<&Bound<'_, PyAny>>,
    dim: Option<i64>,
    n: Option<i64>,
    engine: &str,
    timeout: Option<f64>,
    step_timeout: Option<f64>,
    jobs: Option<i64>,
    backend: Option<&Bound<'_, PyAny>>,
    strategy: Option<&str>,
    model: Option<&str>,
    card: Option<&str>,
    symmetry: Option<&str>,
    bounds: Option<&str>,
    check_unsat: bool,
    certificate: Option<PathBuf>,
    certificate_format: Option<&str>,
    force: bool,
) -> PyResult<PyResultReport> {
    let n = n.map(args::size).transpose()?;
    let subject = Subject::of(problem, dim, n)?;
    let engine = match engine {
        "auto" => EngineChoice::Auto,
        "lines" => EngineChoice::Lines,
        "sat" => EngineChoice::Sat,
        _ => {
            return Err(usage(format!(
                "unknown engine '{engine}' (expected one of: auto, lines, sat)"
            )))
        }
    };
    let backends: Vec<String> = match backend {
        None => Vec::new(),
        Some(b) => match b.extract::<String>() {
            Ok(one) => vec![one],
            Err(_) => b.extract().map_err(|_| {
                usage("backend is a solver's name or a list of names (cadical, kissat, ...)")
            })?,
        },
    };
    let backends = (backends.iter())
        .map(|b| b.parse::<Named>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(usage)?;
    let input = match &subject {
        Subject::Queens(d) => Input::Queens(*d),
        Subject::Problem(p) => p.input(),
    };
    // A certificate of one size is a proof of its UNSAT; of an optimum, the bundle.
    let sized = n.is_some()
        || match &input {
            Input::Problem { problem, set_n } => set_n.is_some() || problem.maximised().is_empty(),
            _ => false,
        };
    let proof_format = match certificate_format {
        Some(name) => Some(name.parse::<ProofFormat>().map_err(usage)?),
        None if certificate.is_some()
            && engine != EngineChoice::Sat
            && matches!(input, Input::Queens(_)) =>
        {
            Some(ProofFormat::Search)
        }
        None => None,
    };
    let step_timeout = step_timeout.map(args::seconds).transpose()?;
    let request = SolveRequest {
        input,
        n,
        backends,
        jobs: jobs.map(args::jobs).transpose()?,
        engine,
        encoding: args::encoding(model, card, symmetry, bounds)?,
        strategy: args::named(strategy)?.unwrap_or_default(),
        step_timeout: step_timeout.is_some(),
        proof: certificate.clone().filter(|_| sized),
        proof_format,
        certify: certificate.filter(|_| !sized),
        check_unsat,
        force,
        ..SolveRequest::default()
    };
    let plan = Plan::new(request).map_err(|e| usage(e.to_string()))?;
    let run = Solve {
        plan,
        timeout: timeout.map(args::seconds).transpose()?,
        step_timeout,
        progress: pq_report::ProgressMode::Lines,
        format: pq_report::Format::Json,
        competition: false,
        svg: None,
        force,
    };
    let answer = interruptible(
        py,
        || run.answer(),
        |py, signal, answer| {
            if let Ok(answer) = answer {
                if let Ok(result) = PyResultReport::of(&answer).and_then(|r| Py::new(py, r)) {
                    let _ = signal.value(py).setattr("result", result);
                }
            }
        },
    )?
    .map_err(|e| failure(&e))?;
    let result = PyResultReport::of(&answer)?;
    if let Some(e) = &answer.failed {
        let err = failure(e);
        err.value(py).setattr("result", Py::new(py, result)?)?;
        return Err(err);
    }
    Ok(result)
}

/// The verdict of `check_certificate`: `valid` (also the object's truth), the checker's
/// report (`to_json()`, as `pq-sat check-certificate --format json` or `check-proof`
/// prints it) and its text (`str()`).
#[pyclass(name = "Check", module = "pqsat", frozen)]
pub(crate) struct PyCheck {
    valid: bool,
    json: String,
    text: String,
}

#[pymethods]
impl PyCheck {
    /// Every check passed: the certificate establishes its claim.
    #[getter]
    fn valid(&self) -> bool {
        self.valid
    }

    fn __bool__(&self) -> bool {
        self.valid
    }

    /// The report, as the command line prints it with `--format json`.
    fn to_json(&self) -> String {
        self.json.clone()
    }

    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __repr__(&self) -> String {
        format!("<pqsat.Check {}>", self.text.lines().last().unwrap_or(""))
    }
}

/// Checks a certificate from its files alone: a directory is a bundle (`solve(...,
/// certificate=DIR)` for an optimum), re-checked as `pq-sat check-certificate DIR` does; a
/// file is the line engine's search certificate, verified by pq-check (which must be on
/// the PATH: `cargo install --path crates/check`). Returns the verdict; an unreadable
/// certificate raises `pqsat.Error`.
#[pyfunction]
#[pyo3(signature = (path, *, timeout=None))]
pub(crate) fn check_certificate(
    py: Python<'_>,
    path: PathBuf,
    timeout: Option<f64>,
) -> PyResult<PyCheck> {
    let timeout = timeout.map(args::seconds).transpose()?;
    let checked = interruptible(
        py,
        || -> anyhow::Result<(bool, String, String)> {
            if path.is_dir() {
                let r = pq_ops::check::certificate_check(&path, timeout)?;
                Ok((r.valid, serde_json::to_string(&r)?, r.text()))
            } else {
                let format = Some(ProofFormat::Search);
                let r = pq_ops::check::proof_check(&path, &path, format, timeout)?;
                Ok((r.verified, serde_json::to_string(&r)?, r.text()))
            }
        },
        |_, _, _| {},
    )?
    .map_err(|e| failure(&e))?;
    let (valid, json, text) = checked;
    Ok(PyCheck { valid, json, text })
}
