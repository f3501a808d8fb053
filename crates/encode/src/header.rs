//! The DIMACS header: the comment lines pq-sat writes above every formula, and the one
//! place that reads them back. The header names the instance (`pq-sat VERSION: NAME`), its
//! board (`dim D`, or `rows R`, `cols C`, `torus B`), its groups and counts (`n N`, or
//! `group NAME KIND at least|exactly K`), its rules (`no-attack ...`) and its encoding
//! (`model`, `card`, `symmetry`); `c var` lines (written by [`crate::dimacs`]) follow.
//! Readers never believe a size above [`MAX_DIM`] nor a count above
//! [`pq_board::limits::MAX_PIECES`].

use pq_board::limits::PIECES;
use pq_board::placement::{Group, Layout};

use crate::formula::Formula;
use crate::problem::{Bounds, Extent, Instance, Model, Options, Symmetry, MAX_DIM};
use crate::spec::{group_size, Count, Problem};

/// The header of a peaceable-queens formula.
pub fn queens(instance: &Instance, options: &Options) -> Vec<String> {
    // What the symmetry breaking keeps.
    let over = match options.model {
        Model::Colouring => "the line variables",
        Model::Pairwise | Model::Lines => "the square variables",
    };
    let mut comments = vec![
        format!(
            "pq-sat {}: peaceable armies of queens",
            env!("CARGO_PKG_VERSION")
        ),
        format!(
            "{amount} {n} white and {amount} {n} black queens on a {d}x{d} board, no white queen attacking a black one{extra}",
            amount = if instance.extent() == Extent::Exactly { "exactly" } else { "at least" },
            n = instance.n(),
            d = instance.dim(),
            extra = if instance.extent() == Extent::Maximal { "; maximal: no queen of either colour can be added" } else { "" },
        ),
        format!("dim {}", instance.dim()),
        format!("n {}", instance.n()),
        format!("model {}", options.model),
        format!("card {}", options.card),
        format!("symmetry {}", options.symmetry),
        match options.symmetry {
            Symmetry::None => "no symmetry breaking: the solutions are exactly the problem's".to_string(),
            Symmetry::LexLeader => format!(
                "lex-leader over {over} for the 15 non-identity elements of the 16-element group (8 board symmetries x colour swap): at least one solution of every orbit is kept"
            ),
        },
        "variable map: 'var K COLOUR R C' = DIMACS variable K is a COLOUR queen on row R, column C (1-based, row 1 = top row); all other variables are auxiliary".to_string(),
    ];
    // Stated only when asked for, so that every other header stays as it was.
    if options.bounds == Bounds::Sums && options.model == Model::Colouring {
        comments.insert(8, "bounds sums".to_string());
        comments.insert(
            9,
            "redundant family-sum clauses: per diagonal family, the queens of each diagonal's own colour add up to at least 2n (no answer changes)".to_string(),
        );
    }
    comments
}

/// The header of a placement-problem formula with its maximised groups at `n`, the counts
/// read as `extent`, and `lex_leader` symmetries broken.
pub fn problem(
    problem: &Problem,
    n: usize,
    options: &Options,
    extent: Extent,
    lex_leader: usize,
) -> Vec<String> {
    let layout = problem.rules.layout;
    let maximised = problem.maximised();
    let mut comments = vec![
        format!("pq-sat {}: {}", env!("CARGO_PKG_VERSION"), problem.name),
        format!("problem {}", problem.summary()),
        format!("rows {}", layout.rows),
        format!("cols {}", layout.cols),
        format!("torus {}", layout.torus),
    ];
    for (g, group) in problem.rules.groups.iter().enumerate() {
        let count = match problem.counts[g] {
            Count::Exactly(k) => format!("{k}"),
            Count::Maximise => format!("{n} (maximised)"),
        };
        let bound = match extent {
            Extent::AtLeast => "at least",
            Extent::Exactly => "exactly",
            Extent::Maximal if maximised.contains(&g) => "at least",
            Extent::Maximal => "exactly",
        };
        comments.push(format!(
            "group {} {} {bound} {count}",
            group.name, group.kind
        ));
    }
    if extent == Extent::Maximal {
        comments.push("maximal: no piece of a maximised group can be added".into());
    }
    for &(a, b) in &problem.rules.no_attack {
        let (na, nb) = (&problem.rules.groups[a].name, &problem.rules.groups[b].name);
        comments.push(if a == b {
            format!("no-attack within {na}")
        } else {
            format!("no-attack between {na} {nb}")
        });
    }
    let model = if options.model == Model::Pairwise {
        "pairwise"
    } else {
        "lines"
    };
    comments.push(format!("model {model}"));
    comments.push(format!("card {}", options.card));
    comments.push(format!(
    "symmetry {} (the problem has {} symmetries{})",
    options.symmetry,
    group_size(problem),
    if options.symmetry == Symmetry::LexLeader {
        format!(
            "; lex-leader constraints for {lex_leader} non-identity ones: a proof of UNSAT certifies the formula with them"
        )
    } else {
        String::new()
    }
));
    // The header writer's guarantee, whatever a problem built in code holds: each comment
    // is one line (a checked problem has no control characters: see `Problem::check`).
    comments.iter().map(|c| one_line(c)).collect()
}

/// `text` with every control character escaped (`\n`, `\u{1b}`), so that it stays on
/// one header line.
pub fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The first word after `KEY` in a `KEY ...` header line.
pub fn word<'a>(comments: &'a [String], key: &str) -> Option<&'a str> {
    comments.iter().find_map(|c| {
        let mut words = c.split_whitespace();
        (words.next() == Some(key)).then(|| words.next()).flatten()
    })
}

/// The number after `KEY` in a `KEY N` header line; `None` also when it is above
/// [`pq_board::limits::MAX_PIECES`], the largest number a header states (a side or a count),
/// so that a lying header cannot make a reader allocate or overflow.
pub fn number(comments: &[String], key: &str) -> Option<usize> {
    PIECES.parse(word(comments, key)?).ok()
}

/// The board size the header states (`dim D`, or `rows R` and `cols C`), each part `None`
/// when absent or above [`MAX_DIM`] (a lying header must not make a reader allocate).
pub fn size(comments: &[String]) -> (Option<usize>, Option<usize>) {
    let capped = |key| number(comments, key).filter(|&v| v <= MAX_DIM);
    match capped("dim") {
        Some(d) => (Some(d), Some(d)),
        None => (capped("rows"), capped("cols")),
    }
}

/// True for the header's short form, `dim D` and `n N` with no `group` lines, which
/// `pq-sat encode --dim` writes; the long form states the problem's rules and groups.
pub fn short_form(comments: &[String]) -> bool {
    word(comments, "dim").is_some() && !comments.iter().any(|c| c.starts_with("group "))
}

/// The encoding options the header states, the defaults where it states none.
pub fn options(comments: &[String]) -> Options {
    fn stated<T: std::str::FromStr>(comments: &[String], key: &str, default: T) -> T {
        word(comments, key)
            .and_then(|m| m.parse().ok())
            .unwrap_or(default)
    }
    let d = Options::default();
    Options {
        model: stated(comments, "model", d.model),
        card: stated(comments, "card", d.card),
        symmetry: stated(comments, "symmetry", d.symmetry),
        bounds: stated(comments, "bounds", d.bounds),
    }
}

/// What a DIMACS formula read from a file was made for, as `solve --cnf` decodes its
/// models: the peaceable queens on its variable map's board with the army size `n` the
/// header states, or the problem the header describes (size not stated); `(None, None)`
/// without a variable map (`c var` lines) or a header that describes a problem.
pub fn subject(formula: &Formula) -> (Option<Problem>, Option<usize>) {
    match formula.pieces.as_ref() {
        Some(map) if map.short_form() && short_form(&formula.comments) => (
            Some(Problem::peaceable_queens(map.rows)),
            number(&formula.comments, "n"),
        ),
        Some(_) => (read_problem(&formula.comments), None),
        None => (None, None),
    }
}

/// The problem a pq-sat formula was made for, read back from its header comments
/// (`rows`, `cols`, `torus`, `group NAME KIND at least|exactly N`, `no-attack ...`; for the
/// peaceable queens `dim D` and `n N`), with every count fixed at the size encoded (0 when
/// the header names none, as in an incremental formula). `None` when the comments do not
/// describe one.
pub fn read_problem(comments: &[String]) -> Option<Problem> {
    if let (Some(dim), true) = (word(comments, "dim"), short_form(comments)) {
        let dim: usize = dim.parse().ok().filter(|&d| (1..=MAX_DIM).contains(&d))?;
        let n: usize = word(comments, "n").map_or(Some(0), |n| PIECES.parse(n).ok())?;
        let mut problem = Problem::peaceable_queens(dim);
        problem.counts = vec![Count::Exactly(n); 2];
        return Some(problem);
    }
    let (mut rows, mut cols, mut torus) = (None, None, false);
    let mut name = String::from("placement problem");
    let mut groups = Vec::new();
    let mut pairs: Vec<(String, String)> = Vec::new();
    for c in comments {
        let words: Vec<&str> = c.split_whitespace().collect();
        match words.as_slice() {
            ["rows", r] => rows = r.parse().ok(),
            ["cols", k] => cols = k.parse().ok(),
            ["torus", t] => torus = *t == "true",
            ["group", g, kind, "at", "least", k, ..] | ["group", g, kind, "exactly", k, ..] => {
                let group = Group {
                    name: g.to_string(),
                    kind: kind.parse().ok()?,
                };
                groups.push((group, Count::Exactly(k.parse().ok()?)));
            }
            ["no-attack", "within", g] => pairs.push((g.to_string(), g.to_string())),
            ["no-attack", "between", a, b] => pairs.push((a.to_string(), b.to_string())),
            _ => {
                if let Some((_, n)) = c.strip_prefix("pq-sat ").and_then(|r| r.split_once(": ")) {
                    name = n.to_string();
                }
            }
        }
    }
    let (rows, cols) = (rows?, cols?);
    Problem::from_parts(name, Layout { rows, cols, torus }, groups, &pairs).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::general::encode_problem;

    fn example(file: &str) -> Problem {
        let path = format!("{}/../../encodings/{file}.toml", env!("CARGO_MANIFEST_DIR"));
        Problem::from_toml(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn what_is_written_is_read_back() {
        let options = Options {
            model: Model::Pairwise,
            card: crate::Card::SeqCounter,
            symmetry: Symmetry::None,
            ..Options::default()
        };
        for file in [
            "three-armies",
            "peaceable-queens-torus",
            "crowded-chessboard",
        ] {
            let p = example(file);
            let f = encode_problem(&p, 2, &options);
            // The description is documentation, not written into the header.
            let mut sized = p.sized(2);
            sized.description.clear();
            assert_eq!(read_problem(&f.comments), Some(sized), "{file}");
            let l = p.rules.layout;
            assert_eq!(size(&f.comments), (Some(l.rows), Some(l.cols)), "{file}");
            assert_eq!(self::options(&f.comments), options, "{file}");
            assert!(!short_form(&f.comments), "{file}");
        }
        let queens = crate::encode(&Instance::new(6, 4).unwrap(), &options);
        assert!(short_form(&queens.comments));
        assert_eq!(number(&queens.comments, "n"), Some(4));
        assert_eq!(size(&queens.comments), (Some(6), Some(6)));
        assert_eq!(self::options(&queens.comments), options);
        let read = read_problem(&queens.comments).unwrap();
        assert_eq!(read.rules, Problem::peaceable_queens(6).rules);
    }

    /// A name with a line break (possible only in a problem built in code; files and --set
    /// refuse it) still gives a header of one line per comment, so no forged `p cnf` line
    /// (RELIABILITY.md, "Header lines cannot be forged").
    #[test]
    fn header_lines_are_single_lines() {
        let mut p = example("three-armies");
        p.name = "evil\np cnf 1 1\r".into();
        let f = encode_problem(&p, 2, &Options::default());
        assert!(f.comments.iter().all(|c| !c.contains(['\n', '\r'])));
        assert!(
            f.comments[0].ends_with("evil\\np cnf 1 1\\r"),
            "{}",
            f.comments[0]
        );
        let mut text = Vec::new();
        crate::dimacs::write(&f, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert_eq!(text.lines().filter(|l| l.starts_with("p ")).count(), 1);
    }

    #[test]
    fn sizes_above_the_limit_are_not_believed() {
        let lying = vec![format!("dim {}", MAX_DIM + 1), "rows 100000".into()];
        assert_eq!(size(&lying), (None, None));
        assert_eq!(read_problem(&lying), None);
        for n in ["4097", "9223372036854775808", "18446744073709551616"] {
            let lying = vec!["dim 4".to_string(), format!("n {n}")];
            assert_eq!(number(&lying, "n"), None, "{n}");
            assert_eq!(read_problem(&lying), None, "{n}");
        }
        let huge_counts: Vec<String> = [
            "rows 4",
            "cols 4",
            "group a king exactly 18446744073709551615",
            "group b king exactly 1",
        ]
        .map(String::from)
        .into();
        assert_eq!(read_problem(&huge_counts), None);
    }
}
