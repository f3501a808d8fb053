//! What `pq-sat cube` does below its command line: the formula to split (encoded from a
//! problem, or read from a file), its line colours where it has them, the split, and the
//! cube directory written whole.

use std::path::Path;

use pq_encode::general::encode_problem;
use pq_encode::spec::Problem;
use pq_encode::{header, Formula, Options};
use pq_io::output::WritePolicy;

use super::split::{split, Lines, Record, Settings, Tick};
use super::{write_dir, CubeError};

/// A formula ready to split, with the line colours the splitter may use and the words that
/// name it in the manifest.
pub struct Prepared {
    /// The formula.
    pub formula: Formula,
    /// Its line colours (the queens' colouring model only).
    pub lines: Option<Lines>,
    /// What it is, for people: the step, or the file it came from.
    pub problem: String,
}

impl Prepared {
    /// `problem` with its maximised groups at `n`, encoded with `options`: the line
    /// colours come from the encoder's own map.
    pub fn encode(problem: &Problem, n: usize, options: &Options) -> Prepared {
        let formula = encode_problem(problem, n, options);
        let lines = Lines::of(&formula, problem.demands(n)[0]);
        Prepared {
            lines,
            problem: problem.preset().step(problem, n),
            formula,
        }
    }

    /// A formula read from `path`: its line colours only when its clauses are exactly what
    /// pq-sat writes for the problem its header names ([`Lines::recognise`]).
    pub fn read(formula: Formula, path: &Path) -> Prepared {
        let lines = Lines::recognise(&formula);
        let problem = match header::subject(&formula) {
            (Some(p), Some(n)) => format!("{} (from {})", p.preset().step(&p, n), path.display()),
            (Some(p), None) => format!("{} (from {})", p.summary(), path.display()),
            _ => format!("the formula in {}", path.display()),
        };
        Prepared {
            formula,
            lines,
            problem,
        }
    }
}

/// A cube directory written by [`make`].
pub struct Made {
    /// What was split, as the manifest names it.
    pub problem: String,
    /// The variables of the formula the cubes are over (the splitter may add counters).
    pub variables: u32,
    /// Its clauses.
    pub clauses: usize,
    /// How it was split.
    pub record: Record,
}

/// Splits `prepared` by `settings` and writes the cube directory `output` (by `policy`),
/// recording `command`. `tick` sees the split's progress and may stop it.
pub fn make(
    prepared: Prepared,
    settings: &Settings,
    output: &Path,
    command: &str,
    policy: WritePolicy,
    tick: Tick<'_>,
) -> Result<Made, CubeError> {
    let Prepared {
        formula,
        lines,
        problem,
    } = prepared;
    let mut split = split(&formula, lines.as_ref(), settings, tick).map_err(CubeError::Invalid)?;
    let record = serde_json::to_value(&split.record).expect("a record serialises");
    let formula = split.extended.take().unwrap_or(formula);
    write_dir(
        output,
        &formula,
        split.cubes,
        command,
        &problem,
        record,
        policy,
    )?;
    Ok(Made {
        problem,
        variables: formula.n_vars,
        clauses: formula.n_clauses(),
        record: split.record,
    })
}
