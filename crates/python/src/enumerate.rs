//! `pqsat.enumerate`: `pq-sat enumerate` as an iterator of boards, or as a count. The
//! enumeration runs on a thread of its own (`pq_ops::enumerate::list`); boards come through
//! a bounded channel, so a slow reader holds the search back rather than filling memory.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::Mutex;

use pq_board::placement::Placement;
use pq_encode::spec::Problem;
use pq_engine::capability::listing::{Request, Summary, UpTo};
use pq_engine::plan::choice::EngineChoice;
use pq_engine::plan::enumeration::{EnumeratePlan, EnumerateRequest};
use pq_report::{Enumeration, Subject};
use pq_solve::control::{Limits, Stop};
use pyo3::prelude::*;

use crate::args::{self, Subject as Asked};
use crate::board::PyBoard;
use crate::{failure, interruptible, json_value, usage, Error, POLL};

/// Boards a reader may fall behind the search by.
const QUEUE: usize = 256;

/// What the enumerating thread sends.
enum Message {
    /// A board, validated (up to symmetry: its orbit's canonical form).
    Found(Placement),
    /// The end: the totals (as `enumerate --format json` reports them, without the boards)
    /// or the error.
    Done(Result<String, String>),
}

/// The totals of a finished enumeration, as `pq-sat enumerate --format json` reports them.
fn summary_json(request: &Request, summary: &Summary) -> Result<String, String> {
    let n = request.n;
    let report = Enumeration {
        subject: Subject::of(&request.problem, Some(n)),
        n,
        up_to: request.up_to.name().into(),
        maximal: request.maximal,
        count: summary.count,
        total_boards: summary.total_boards,
        unequal: request.maximal.then_some(summary.unequal),
        complete: summary.complete,
        stopped: summary.stopped.clone(),
        seconds: summary.seconds,
        cubes: summary.cubes,
        jobs: request.jobs,
        boards: None,
        orbit_sizes: None,
    };
    serde_json::to_string(&report).map_err(|e| e.to_string())
}

/// Lists `req`'s boards under `limits`, sending each to `tx`; a reader that went away stops
/// the search through `stop`.
fn produce(req: EnumerateRequest, limits: &Limits, stop: &Stop, tx: &SyncSender<Message>) {
    let done = (|| {
        let plan = EnumeratePlan::new(req).map_err(|e| e.to_string())?;
        let mut on_found =
            |_: &Request, found: &pq_engine::capability::listing::Found, _: &Summary| {
                if tx.send(Message::Found(found.placement.clone())).is_err() {
                    stop.request();
                }
            };
        let (request, summary) =
            pq_ops::enumerate::list(plan, limits, &mut on_found).map_err(|e| format!("{e:#}"))?;
        summary_json(&request, &summary)
    })();
    let _ = tx.send(Message::Done(done));
}

/// The boards of an enumeration, as they are found (up to symmetry, each its orbit's
/// canonical form). `summary` holds the totals once the last board was read.
#[pyclass(name = "Enumeration", module = "pqsat")]
pub(crate) struct PyEnumeration {
    problem: Problem,
    /// `None` once the enumeration ended.
    rx: Mutex<Option<Receiver<Message>>>,
    stop: Stop,
    summary: Mutex<Option<String>>,
}

impl Drop for PyEnumeration {
    // A reader that stops early stops the search.
    fn drop(&mut self) {
        self.stop.request();
    }
}

#[pymethods]
impl PyEnumeration {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<PyBoard>> {
        let Some(mut rx) = self.rx.lock().expect("not poisoned").take() else {
            return Ok(None);
        };
        loop {
            let (back, got) = py.detach(move || {
                let got = rx.recv_timeout(POLL);
                (rx, got)
            });
            rx = back;
            match got {
                Ok(Message::Found(p)) => {
                    *self.rx.lock().expect("not poisoned") = Some(rx);
                    return Ok(Some(PyBoard::new(self.problem.clone(), p)));
                }
                Ok(Message::Done(Ok(summary))) => {
                    *self.summary.lock().expect("not poisoned") = Some(summary);
                    return Ok(None);
                }
                Ok(Message::Done(Err(e))) => return Err(Error::new_err(e)),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Error::new_err("the enumeration ended without its totals"))
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            if let Err(signal) = py.check_signals() {
                pq_solve::interrupt();
                // Wait for the search to stop (it says so with its last message).
                py.detach(move || while let Ok(Message::Found(_)) = rx.recv() {});
                pq_solve::control::clear_interrupt();
                return Err(signal);
            }
        }
    }

    /// The totals once every board was read (`count`, `total_boards`, `complete`,
    /// `seconds`, ... as `pq-sat enumerate --format json` reports them); `None` before.
    #[getter]
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let summary = self.summary.lock().expect("not poisoned").clone();
        summary.map(|s| json_value(py, &s)).transpose()
    }
}

/// Lists a problem's boards as `pq-sat enumerate` does: every board with exactly `n` of
/// each maximised group (the optimum, found first, when `n` is not given), one per orbit
/// of the problem's symmetries (`up_to="symmetry"`, each its canonical form) or every one
/// (`up_to="total"`). Returns an iterator of boards, or with `count=True` the number of
/// them. `maximal=True` lists the configurations no piece of a maximised group can be added
/// to; the other arguments are the command line's options by their names.
#[pyfunction]
#[pyo3(signature = (problem=None, *, dim=None, n=None, engine="auto", up_to="symmetry", maximal=false, limit=None, jobs=None, split=None, model=None, card=None, check_unsat=false, count=false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn enumerate(
    py: Python<'_>,
    problem: Option<&Bound<'_, PyAny>>,
    dim: Option<i64>,
    n: Option<i64>,
    engine: &str,
    up_to: &str,
    maximal: bool,
    limit: Option<usize>,
    jobs: Option<i64>,
    split: Option<usize>,
    model: Option<&str>,
    card: Option<&str>,
    check_unsat: bool,
    count: bool,
) -> PyResult<Py<PyAny>> {
    let n = n.map(args::size).transpose()?;
    let subject = Asked::of(problem, dim, n)?;
    let problem = subject.problem();
    let request = EnumerateRequest {
        problem: problem.clone(),
        n,
        engine: match engine {
            "auto" => EngineChoice::Auto,
            "lines" => EngineChoice::Lines,
            "sat" => EngineChoice::Sat,
            _ => {
                return Err(usage(format!(
                    "unknown engine '{engine}' (expected one of: auto, lines, sat)"
                )))
            }
        },
        up_to: match up_to {
            "symmetry" => UpTo::Symmetry,
            "total" => UpTo::Total,
            _ => {
                return Err(usage(format!(
                    "unknown up_to '{up_to}' (expected one of: symmetry, total)"
                )))
            }
        },
        maximal,
        limit,
        split,
        jobs: jobs.map(args::jobs).transpose()?,
        model: args::named(model)?,
        card: args::named(card)?,
        check_unsat,
    };
    // Refused here, not at the first board.
    EnumeratePlan::new(request.clone()).map_err(|e| usage(e.to_string()))?;
    let stop = Stop::default();
    let limits = Limits::none().with_stop(&stop);
    if count {
        let counted = interruptible(
            py,
            || -> anyhow::Result<usize> {
                let plan = EnumeratePlan::new(request).map_err(anyhow::Error::msg)?;
                let (_, summary) = pq_ops::enumerate::list(plan, &limits, &mut |_, _, _| {})?;
                Ok(summary.count)
            },
            |_, _, _| {},
        )?
        .map_err(|e| failure(&e))?;
        return Ok(counted.into_pyobject(py)?.into_any().unbind());
    }
    let (tx, rx) = mpsc::sync_channel(QUEUE);
    let worker_stop = stop.clone();
    std::thread::spawn(move || produce(request, &limits, &worker_stop, &tx));
    let listing = PyEnumeration {
        problem,
        rx: Mutex::new(Some(rx)),
        stop,
        summary: Mutex::new(None),
    };
    Ok(Py::new(py, listing)?.into_any())
}
