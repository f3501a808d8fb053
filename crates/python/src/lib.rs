//! pqsat: pq-sat from Python. A thin pyo3 layer over the workspace's crates: each function
//! converts its arguments into the plain settings the command line builds (pq-ops, the
//! engine's requests), calls what the command calls, and converts the answer back, so that
//! a board, a refusal or a report is the same from Python as from `pq-sat`.
//!
//! Long calls release the GIL and run on a thread of their own while the calling thread
//! watches Python's signals: Ctrl-C stops every solver through pq-solve's interrupt (as it
//! does in the command line) and surfaces as `KeyboardInterrupt`.

use std::panic::AssertUnwindSafe;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::panic::PanicException;
use pyo3::prelude::*;
use pyo3::types::PyDict;

mod args;
mod board;
mod enumerate;
mod formula;
mod problem;
mod solve;

pyo3::create_exception!(
    pqsat,
    Error,
    PyValueError,
    "What pq-sat refuses or cannot do, with the command line's message; `exit_code` is the code `pq-sat` exits with for it."
);
pyo3::create_exception!(
    pqsat,
    UsageError,
    Error,
    "Arguments pq-sat refuses before doing anything (the command line's usage errors, exit code 2)."
);
pyo3::create_exception!(
    pqsat,
    WrongAnswer,
    Error,
    "A model that falsifies a clause of its formula (`pq-sat decode` exits 3)."
);

/// A usage error with `message`.
pub(crate) fn usage(message: impl Into<String>) -> PyErr {
    UsageError::new_err(message.into())
}

/// A failure with the command line's message: the whole chain of causes, as `pq-sat:
/// error:` prints it.
pub(crate) fn failure(e: &anyhow::Error) -> PyErr {
    Error::new_err(format!("{e:#}"))
}

/// How often a waiting call looks at Python's signals.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a thread of its own, the GIL released, while this thread waits and looks
/// at Python's signals. A signal handler that raises (Ctrl-C: `KeyboardInterrupt`) stops
/// every solver through pq-solve's interrupt; once `work` has returned, `keep` may attach
/// what it knew to the exception, the interrupt is cleared for the next call, and the
/// exception is raised.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send,
    keep: impl FnOnce(Python<'_>, &PyErr, T),
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (tx, mut rx) = mpsc::channel();
        scope.spawn(move || {
            // A panic comes back as a Python exception, not as an abort.
            let _ = tx.send(std::panic::catch_unwind(AssertUnwindSafe(work)));
        });
        loop {
            let (back, got) = py.detach(move || {
                let got = rx.recv_timeout(POLL);
                (rx, got)
            });
            rx = back;
            match got {
                Ok(done) => return done.map_err(panicked),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PanicException::new_err("pqsat: the worker thread vanished"))
                }
            }
            if let Err(signal) = py.check_signals() {
                pq_solve::interrupt();
                let done = py.detach(move || rx.recv());
                pq_solve::control::clear_interrupt();
                if let Ok(Ok(value)) = done {
                    keep(py, &signal, value);
                }
                return Err(signal);
            }
        }
    })
}

/// A panic on a worker thread, as Python's `PanicException`.
fn panicked(payload: Box<dyn std::any::Any + Send>) -> PyErr {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string());
    PanicException::new_err(message)
}

/// `text`, a JSON object pq-sat wrote, as a Python object.
pub(crate) fn json_value<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// Sets how much pq-sat says on standard error besides results and errors: `"quiet"` (the
/// default in Python: nothing), `"normal"` (the command line's default: progress lines
/// and short notes) or `"verbose"` (`-v`).
#[pyfunction]
fn set_verbosity(level: &str) -> PyResult<()> {
    use pq_report::progress::{set_verbosity, Verbosity};
    set_verbosity(match level {
        "quiet" => Verbosity::Quiet,
        "normal" => Verbosity::Normal,
        "verbose" => Verbosity::Verbose,
        _ => {
            return Err(usage(format!(
                "unknown verbosity '{level}' (expected one of: quiet, normal, verbose)"
            )))
        }
    });
    Ok(())
}

/// The solvers and proof checkers pq-sat finds on this machine, with their versions, as
/// `pq-sat solvers --format json` lists them.
#[pyfunction]
fn solvers(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    let list = py.detach(pq_solve::survey::survey);
    let text = serde_json::to_string(&list).map_err(|e| Error::new_err(e.to_string()))?;
    json_value(py, &text)
}

/// pq-sat from Python: chessboard placement problems (above all the peaceable armies of
/// queens) encoded into SAT, solved by pq-sat's engines, read back as validated boards.
#[pymodule]
fn pqsat(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    // A library says nothing on stderr unless asked (set_verbosity).
    pq_report::progress::set_verbosity(pq_report::progress::Verbosity::Quiet);
    m.add("Error", py.get_type::<Error>())?;
    m.add("UsageError", py.get_type::<UsageError>())?;
    m.add("WrongAnswer", py.get_type::<WrongAnswer>())?;
    for (name, code) in [("Error", 1), ("UsageError", 2), ("WrongAnswer", 3)] {
        m.getattr(name)?.setattr("exit_code", code)?;
    }
    m.add_class::<problem::PyProblem>()?;
    m.add_class::<formula::PyFormula>()?;
    m.add_class::<board::PyBoard>()?;
    m.add_class::<solve::PyResultReport>()?;
    m.add_class::<solve::PyCheck>()?;
    m.add_class::<enumerate::PyEnumeration>()?;
    m.add_function(wrap_pyfunction!(formula::encode, m)?)?;
    m.add_function(wrap_pyfunction!(formula::read_formula, m)?)?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve::check_certificate, m)?)?;
    m.add_function(wrap_pyfunction!(enumerate::enumerate, m)?)?;
    m.add_function(wrap_pyfunction!(set_verbosity, m)?)?;
    m.add_function(wrap_pyfunction!(solvers, m)?)?;
    let problems = PyDict::new(py);
    for (name, _) in problem::BUILT_IN {
        problems.set_item(name, format!("encodings/{name}.toml"))?;
    }
    m.add("BUILT_IN_PROBLEMS", problems)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // maturin's package re-exports `*` of this module: without `__all__`, `__version__`
    // would be left behind.
    let mut names: Vec<String> = Vec::new();
    for name in m.dict().keys() {
        let name: String = name.extract()?;
        if !name.starts_with('_') || name == "__version__" {
            names.push(name);
        }
    }
    m.add("__all__", names)?;
    Ok(())
}
