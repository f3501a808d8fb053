//! What a cube directory holds, derived rather than read. The directory is shared by many
//! workers and machines and lives for days, so every file in it is untrusted input, like a
//! solver's output: its header may have been edited (`c n 8` → `c n 7`), clauses added,
//! the manifest's description or cube list changed. A verdict is therefore stated about
//! what pq-sat itself re-derives:
//!
//! - the **formula**: re-encoded from the problem, size and options its header names, and
//!   accepted as that problem's only when the fresh encoding is the file, byte for byte (as
//!   `check-certificate` does for a certificate's CNF); a formula without pq-sat's header
//!   is accepted as itself ("the formula in DIR/formula.cnf"), never as a problem;
//! - the **cube list**: an UNSAT verdict needs cubes that cover every model, so the split
//!   is re-run with the manifest's settings and must give the manifest's cubes (or a
//!   completeness proof must check: `cube-status --check`);
//! - every **result** names the SHA-256 of the formula and of its cube, and a result for
//!   another formula or cube (a worker still on an old split) is not counted.

use pq_encode::general::encode_extent;
use pq_encode::spec::{Count, Problem};
use pq_encode::{dimacs, header, Extent, Formula, Instance};

use super::split::{self, Lines};
use super::{Cube, Manifest};
use pq_io::hashing::sha256_hex;

/// What a cube directory's formula is.
#[derive(Clone, Debug)]
pub enum Origin {
    /// pq-sat's encoding of `problem` with its maximised groups at `n` pieces each: the
    /// fresh encoding is the file. `base` is that encoding before a splitter extended it
    /// (`--split counts` adds counters), which is what the split is re-run on.
    Encoded {
        /// The problem, with its maximised groups still maximised.
        problem: Problem,
        /// The size of the maximised groups.
        n: usize,
        /// The formula the splitter was given.
        base: Box<Formula>,
    },
    /// A formula without pq-sat's header: the verdict is about this CNF alone.
    Foreign,
}

impl Origin {
    /// One line for people: what a verdict of this directory is about.
    pub fn describe(&self) -> String {
        match self {
            Origin::Encoded { problem, n, .. } => described(problem, *n),
            Origin::Foreign => {
                "the formula in formula.cnf (no pq-sat header: not a problem pq-sat re-derives)"
                    .into()
            }
        }
    }
}

/// `problem` at size `n` in one line, the queens' preset as `cube` names it.
fn described(problem: &Problem, n: usize) -> String {
    if *problem == Problem::peaceable_queens(problem.rules.layout.rows) {
        format!(
            "peaceable queens, d = {}, n = {n}",
            problem.rules.layout.rows
        )
    } else {
        format!("{} at size {n}", problem.summary())
    }
}

/// The formula's origin, from its header and its bytes (`sha256`: of the file). A header
/// that names a problem whose fresh encoding is not the file is an error: the file was
/// edited, or written by another pq-sat version.
pub fn derive(
    formula: &Formula,
    sha256: &str,
    split: &serde_json::Value,
) -> Result<Origin, String> {
    let Some((problem, n, plain)) = named(&formula.comments) else {
        if formula.comments.iter().any(|c| c.starts_with("pq-sat ")) {
            return Err("its header is pq-sat's but names no problem pq-sat can re-encode: it was edited (split the problem again with `pq-sat cube`)".into());
        }
        return Ok(Origin::Foreign);
    };
    let counts = split.get("method").and_then(|m| m.as_str()) == Some(split::Method::Counts.name());
    let options = header::options(&formula.comments);
    for extent in [Extent::AtLeast, Extent::Exactly, Extent::Maximal] {
        let base = if plain {
            match Instance::new(problem.rules.layout.rows, n) {
                Ok(i) => pq_encode::encode(&i.with_extent(extent), &options),
                Err(_) => continue,
            }
        } else {
            encode_extent(&problem, n, &options, extent)
        };
        if base.n_vars > formula.n_vars {
            continue;
        }
        let written = if counts {
            match Lines::of(&base, n) {
                Some(lines) => split::with_counters(&base, &lines),
                None => continue,
            }
        } else {
            base.clone()
        };
        let mut bytes = Vec::new();
        dimacs::write(&written, &mut bytes).expect("writing to memory");
        if sha256_hex(&bytes) == sha256 {
            return Ok(Origin::Encoded {
                problem,
                n,
                base: Box::new(base),
            });
        }
    }
    let what = described(&problem, n);
    Err(format!(
        "its header says it is {what}, but a fresh encoding of that with the header's options is a different file: it was edited, or written by another pq-sat version (split the problem again with `pq-sat cube`)"
    ))
}

/// The problem and size a pq-sat header names, the maximised groups still maximised, and
/// whether it is the queens' header without a problem line (`pq-sat encode` writes that).
fn named(comments: &[String]) -> Option<(Problem, usize, bool)> {
    let mut problem = header::read_problem(comments)?;
    if header::short_form(comments) {
        let n = header::number(comments, "n")?;
        let mut queens = Problem::peaceable_queens(problem.rules.layout.rows);
        // `encode_extent` names a problem read from a file on a `problem NAME` line.
        let name = comments.iter().find_map(|c| c.strip_prefix("problem "));
        if let Some(name) = name {
            queens.name = name.to_string();
        }
        return Some((queens, n, name.is_none()));
    }
    // `group NAME KIND at least|exactly K (maximised)`: the maximised ones, all at K.
    let mut n = None;
    for (g, group) in problem.rules.groups.iter().enumerate() {
        let line = comments.iter().find(|c| {
            let w: Vec<&str> = c.split_whitespace().collect();
            w.len() >= 2 && w[0] == "group" && w[1] == group.name
        })?;
        if line.ends_with("(maximised)") {
            let Count::Exactly(k) = problem.counts[g] else {
                return None;
            };
            if n.is_some_and(|n| n != k) {
                return None;
            }
            n = Some(k);
            problem.counts[g] = Count::Maximise;
        }
    }
    Some((problem, n.unwrap_or(0), false))
}

/// Whether `manifest`'s cubes are the ones the splitter makes of `base` with the
/// manifest's settings: `Err` says why not. The cubes then cover every model of the formula
/// (every cube the splitter drops is refuted by the formula: [`split`]).
pub fn rederive_split(base: &Formula, manifest: &Manifest) -> Result<(), String> {
    let settings = split::Settings::of_record(&manifest.split).map_err(|why| {
        format!("every cube is UNSAT, but {why}: the cube list was not made by `pq-sat cube`, so nothing shows that it covers the formula; prove that with `pq-sat solve-cube DIR --completeness --proof`")
    })?;
    let lines = Lines::recognise(base);
    // Ctrl-C stops it like any long step.
    let again = split::split(base, lines.as_ref(), &settings, &|_| {
        pq_solve::control::interrupted()
    })?;
    let same = again.cubes.len() == manifest.cubes.len()
        && (again.cubes.iter().zip(&manifest.cubes)).all(|(a, c)| *a == c.lits);
    if !same {
        return Err(format!(
            "every cube is UNSAT, but the manifest's {} cubes are not the {} that `pq-sat cube` makes of this formula with the manifest's split settings (the cube list was edited): the results prove nothing about the formula; prove the cubes complete with `pq-sat solve-cube DIR --completeness --proof` and check the bundle with `pq-sat cube-status DIR --check`",
            manifest.cubes.len(),
            again.cubes.len()
        ));
    }
    Ok(())
}

/// The SHA-256 of a cube's literals (DIMACS, space-separated, ending in 0), which its
/// result names.
pub fn cube_sha256(cube: &Cube) -> String {
    let mut text = String::new();
    for l in &cube.lits {
        text += &format!("{l} ");
    }
    text += "0";
    sha256_hex(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pq_encode::general::encode_problem;
    use pq_encode::Options;

    fn sha(f: &Formula) -> String {
        let mut bytes = Vec::new();
        dimacs::write(f, &mut bytes).unwrap();
        sha256_hex(&bytes)
    }

    fn example(file: &str) -> Problem {
        let path = format!("{}/../../encodings/{file}.toml", env!("CARGO_MANIFEST_DIR"));
        Problem::from_toml(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn pq_sat_formulas_are_rederived_and_edits_are_refused() {
        let none = serde_json::json!({"method": "rows"});
        for &bounds in pq_encode::Bounds::ALL {
            let options = Options {
                bounds,
                ..Options::default()
            };
            let q = Problem::peaceable_queens(7);
            let f = encode_problem(&q, 8, &options);
            match derive(&f, &sha(&f), &none).unwrap() {
                Origin::Encoded { problem, n, .. } => assert_eq!((problem, n), (q.clone(), 8)),
                Origin::Foreign => panic!("foreign"),
            }
        }
        // `pq-sat encode` writes the queens without a problem line.
        let plain = pq_encode::encode(&Instance::new(6, 5).unwrap(), &Options::default());
        assert!(derive(&plain, &sha(&plain), &none).is_ok());
        for file in [
            "three-armies",
            "peaceable-queens-torus",
            "crowded-chessboard",
        ] {
            let p = example(file);
            let f = encode_problem(&p, 2, &Options::default());
            let Origin::Encoded { problem, n, .. } = derive(&f, &sha(&f), &none).unwrap() else {
                panic!("{file}: foreign");
            };
            assert_eq!(
                (problem.rules, problem.counts, n),
                (p.rules, p.counts, 2),
                "{file}"
            );
        }

        // The header's size edited, a clause added, the header removed.
        let f = encode_problem(&Problem::peaceable_queens(7), 8, &Options::default());
        let mut edited = f.clone();
        for c in &mut edited.comments {
            if c == "n 8" {
                *c = "n 7".into();
            }
        }
        let e = derive(&edited, &sha(&edited), &none).unwrap_err();
        assert!(e.contains("d = 7, n = 7") && e.contains("edited"), "{e}");
        let mut added = f.clone();
        added.cnf.add_unit(rustsat::types::Lit::positive(0));
        assert!(derive(&added, &sha(&added), &none).is_err());
        let mut foreign = f.clone();
        foreign.comments.clear();
        foreign.pieces = None;
        assert!(matches!(
            derive(&foreign, &sha(&foreign), &none),
            Ok(Origin::Foreign)
        ));
    }

    #[test]
    fn cube_hashes_tell_cubes_apart() {
        let a = Cube {
            id: 1,
            lits: vec![1, -2],
        };
        let b = Cube {
            id: 1,
            lits: vec![1, 2],
        };
        assert_ne!(cube_sha256(&a), cube_sha256(&b));
        assert_eq!(cube_sha256(&a), cube_sha256(&a.clone()));
    }
}
