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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::conquer::CubeDir;
    use crate::cube::split::Method;
    use pq_encode::Model;

    fn rows() -> Settings {
        Settings {
            method: Method::Rows,
            prefix: None,
            depth: Some(0),
            free: None,
        }
    }

    /// The encoder's line map (the default colouring model) reaches the splitter (a row split exists only with it), the
    /// directory is written whole, and a file of the same formula is recognised as well.
    #[test]
    fn a_problem_is_split_on_its_rows_and_its_file_is_recognised() {
        let problem = Problem::peaceable_queens(6);
        let prepared = Prepared::encode(&problem, 5, &Options::default());
        let lines = prepared
            .lines
            .clone()
            .expect("the colouring model has line colours");
        // Rows, columns and the 2d − 1 lines of each diagonal direction.
        assert_eq!((lines.dim, lines.n, lines.vars.len()), (6, 5, 6 * 6 - 2));
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("c");
        let made = make(prepared, &rows(), &out, "test", WritePolicy::Keep, &|_| {
            false
        })
        .unwrap();
        assert_eq!(made.record.method, "rows");
        assert!(made.record.cubes > 1);
        let dir = CubeDir::open(&out).unwrap();
        assert_eq!(dir.manifest.cubes.len(), made.record.cubes);
        let read = Prepared::read(dir.formula, &out.join("formula.cnf"));
        assert_eq!(read.lines, Some(lines));
        // The lines model has no line colours: nothing to split rows on.
        let lines_model = Options {
            model: Model::Lines,
            ..Options::default()
        };
        let plain = Prepared::encode(&problem, 5, &lines_model);
        assert!(plain.lines.is_none());
    }
}
