//! Property tests of pq-encode's readers (RELIABILITY.md, "No reader panics"): the DIMACS
//! parser (what `solve --cnf` and `check-proof` read, header comments included) and the
//! TOML problem reader with `--set` never panic, whatever the input, and never believe a
//! size beyond `pq_board::limits`. A fixed number of cases per property keeps CI fast; a
//! failure prints the input that caused it.

use std::io::Cursor;

use pq_board::limits::{MAX_GROUPS, MAX_PIECES, MAX_SIDE};
use pq_encode::spec::Problem;
use pq_encode::{dimacs, header};
use proptest::prelude::*;
use proptest::test_runner::Config;

/// The cases per property: enough to reach every branch of the generators below, few
/// enough for a few seconds each.
fn config() -> Config {
    Config {
        cases: 512,
        failure_persistence: None,
        ..Config::default()
    }
}

/// Numbers as text, biased to the edges where arithmetic breaks: 0, the limits and one
/// past them, the ends of u32, i32, i64 and u64, one past u64, negatives.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u64..10).prop_map(|n| n.to_string()),
        (0u64..200).prop_map(|n| n.to_string()),
        prop::sample::select(vec![
            (MAX_SIDE as u64).to_string(),
            (MAX_SIDE as u64 + 1).to_string(),
            (MAX_PIECES as u64).to_string(),
            (MAX_PIECES as u64 + 1).to_string(),
            i32::MAX.to_string(),
            u32::MAX.to_string(),
            (u64::from(u32::MAX) + 1).to_string(),
            i64::MAX.to_string(),
            (1u64 << 63).to_string(),
            u64::MAX.to_string(),
            "18446744073709551616".to_string(),
            "-1".to_string(),
            "-0".to_string(),
            i64::MIN.to_string(),
            "+3".to_string(),
            "1e3".to_string(),
        ]),
        any::<u64>().prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
    ]
}

/// Mostly a small number that a reader accepts, sometimes a hostile one: so that the
/// generators get past the first check and reach the later ones.
fn size() -> impl Strategy<Value = String> {
    prop_oneof![4 => (1u64..9).prop_map(|n| n.to_string()), 1 => number()]
}

/// A group name: a few that repeat (so that pairs and duplicates name real groups), and
/// the reserved and malformed ones.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::sample::select(vec!["white", "black", "red"]).prop_map(String::from),
        1 => prop::sample::select(vec!["board", "", "two words", "n"]).prop_map(String::from),
    ]
}

/// A piece kind, sometimes not one.
fn kind() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::sample::select(vec!["queen", "rook", "bishop", "knight", "king"]).prop_map(String::from),
        1 => word(),
    ]
}

/// A word a pq-sat header or problem might hold.
fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "white", "black", "queen", "rook", "bishop", "knight", "king", "dragon", "at", "least",
            "exactly", "within", "between", "true", "false", "max", "x", "",
        ])
        .prop_map(String::from),
        "[a-z]{1,6}",
        number(),
    ]
}

/// One line of a DIMACS file, valid or not: pq-sat's header comments and `c var` map
/// lines with hostile numbers, `p cnf` headers, clauses, and noise.
fn dimacs_line() -> impl Strategy<Value = String> {
    let words = || prop::collection::vec(word(), 0..5).prop_map(|w| w.join(" "));
    prop_oneof![
        2 => (prop::sample::select(vec!["dim", "rows", "cols", "n", "torus"]), size())
            .prop_map(|(k, v)| format!("c {k} {v}")),
        4 => (size(), prop::sample::select(vec!["white", "black"]), size(), size())
            .prop_map(|(k, c, r, col)| format!("c var {k} {c} {r} {col}")),
        2 => (size(), name(), kind(), size(), size())
            .prop_map(|(k, g, kind, r, c)| format!("c var {k} {g} {kind} {r} {c}")),
        2 => (name(), kind(), prop::sample::select(vec!["at least", "exactly", "at"]), size())
            .prop_map(|(g, kind, bound, k)| format!("c group {g} {kind} {bound} {k}")),
        1 => (name(), name()).prop_map(|(a, b)| format!("c no-attack between {a} {b}")),
        1 => words().prop_map(|w| format!("c {w}")),
        1 => (prop::sample::select(vec!["model", "card", "symmetry"]), word())
            .prop_map(|(k, v)| format!("c {k} {v}")),
        1 => words().prop_map(|w| format!("c pq-sat 0.1.0: {w}")),
        1 => (number(), number()).prop_map(|(v, c)| format!("p cnf {v} {c}")),
        1 => (0u32..5, 0u32..5).prop_map(|(v, c)| format!("p cnf {v} {c}")),
        1 => prop::collection::vec(-6i64..=6, 0..6).prop_map(|lits| {
            let mut l: Vec<String> = lits.iter().map(i64::to_string).collect();
            l.push("0".into());
            l.join(" ")
        }),
        1 => prop::collection::vec(number(), 0..4).prop_map(|w| w.join(" ")),
        1 => Just("%".to_string()),
        1 => words(),
        1 => "\\PC{0,20}",
    ]
}

/// A formula's text: hostile comments above a `p cnf` header that matches its clauses (so
/// that the parser reaches the header and the map), or any lines in any order.
fn dimacs_text() -> impl Strategy<Value = String> {
    let consistent = (
        prop::collection::vec(dimacs_line(), 0..10),
        1i64..8,
        prop::collection::vec(prop::collection::vec(1i64..8, 0..4), 0..4),
    )
        .prop_map(|(comments, vars, clauses)| {
            let mut lines: Vec<String> = comments
                .into_iter()
                .filter(|l| l.starts_with('c'))
                .collect();
            lines.push(format!("p cnf {vars} {}", clauses.len()));
            for clause in &clauses {
                let lits: Vec<String> = clause.iter().map(|l| (l % vars + 1).to_string()).collect();
                lines.push(format!("{} 0", lits.join(" ")));
            }
            lines.join("\n")
        });
    let any_order = prop::collection::vec(dimacs_line(), 0..14).prop_map(|l| l.join("\n"));
    prop_oneof![consistent, any_order]
}

/// The generators are worth their cases: many of their files and problems get past the
/// parsers, so that the properties test what comes after them too.
#[test]
fn the_generators_reach_past_the_parsers() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut formulas, mut mapped, mut problems) = (0, 0, 0);
    for _ in 0..512 {
        let text = dimacs_text().new_tree(&mut runner).unwrap().current();
        if let Ok(f) = dimacs::parse(Cursor::new(text)) {
            formulas += 1;
            mapped += usize::from(f.pieces.is_some());
        }
        let text = problem_text().new_tree(&mut runner).unwrap().current();
        problems += usize::from(Problem::from_toml(&text).is_ok());
    }
    assert!(
        formulas > 100 && mapped > 10 && problems > 10,
        "{formulas} {mapped} {problems}"
    );
}

/// Everything a reader does with a parsed formula's header and map: nothing may panic, and
/// no size beyond the limits may come out.
fn read_back(text: &[u8]) {
    let Ok(f) = dimacs::parse(Cursor::new(text)) else {
        return;
    };
    let (rows, cols) = header::size(&f.comments);
    assert!(rows.is_none_or(|r| r <= MAX_SIDE) && cols.is_none_or(|c| c <= MAX_SIDE));
    assert!(header::number(&f.comments, "n").is_none_or(|n| n <= MAX_PIECES));
    let _ = header::options(&f.comments);
    let _ = header::short_form(&f.comments);
    if let Some(problem) = pq_encode::header::read_problem(&f.comments) {
        let l = problem.rules.layout;
        assert!(l.rows <= MAX_SIDE && l.cols <= MAX_SIDE, "{l:?}");
        assert!(problem.rules.groups.len() <= MAX_GROUPS);
        let _ = problem.upper_bound();
        let _ = problem.summary();
    }
    if let Some(map) = &f.pieces {
        assert!(map.rows <= MAX_SIDE && map.cols <= MAX_SIDE, "{map:?}");
        let models: [fn(u32) -> bool; 2] = [|v| v % 2 == 0, |_| true];
        for model in models {
            if let Ok(p) = map.decode(model) {
                assert_eq!(p.cells.len(), map.rows * map.cols);
            }
        }
    }
}

proptest! {
    #![proptest_config(config())]

    /// Any bytes at all: an error or a formula, never a panic.
    #[test]
    fn dimacs_parser_survives_any_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        read_back(&bytes);
    }

    /// Text shaped like pq-sat's own files, with hostile numbers in every field.
    #[test]
    fn dimacs_parser_survives_hostile_headers(text in dimacs_text()) {
        read_back(text.as_bytes());
    }

    /// Any text as a problem file.
    #[test]
    fn toml_reader_survives_any_text(text in "\\PC{0,300}") {
        if let Ok(p) = Problem::from_toml(&text) {
            check_problem(&p);
        }
    }

    /// Problem files with hostile sizes and counts, then hostile `--set` items.
    #[test]
    fn toml_reader_and_set_survive_hostile_sizes(
        (text, sets) in (problem_text(), prop::collection::vec((set_key(), size()), 0..4))
    ) {
        if let Ok(mut p) = Problem::from_toml(&text) {
            check_problem(&p);
            let before = p.clone();
            let items: Vec<(&str, &str)> =
                sets.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            if p.set_all(items).is_ok() {
                check_problem(&p);
            } else {
                // A rejected setting leaves the problem as it was.
                prop_assert_eq!(&p, &before);
            }
        }
    }
}

/// A problem file: a board (size, or rows and cols, maybe a torus), groups with kinds and
/// counts, no-attack pairs, each field possibly hostile.
fn problem_text() -> impl Strategy<Value = String> {
    let count = prop_oneof![
        3 => size(),
        1 => number().prop_map(|n| format!("\"{n}\"")),
        2 => Just("\"max\"".to_string()),
        1 => Just("1.5".to_string()),
    ];
    let group = (name(), kind(), count)
        .prop_map(|(n, k, c)| format!("[[group]]\nname = \"{n}\"\nkind = \"{k}\"\ncount = {c}\n"));
    let board = prop_oneof![
        (size(), size()).prop_map(|(r, c)| format!("size = \"{r}x{c}\"")),
        size().prop_map(|n| format!("size = \"{n}\"")),
        (size(), size()).prop_map(|(r, c)| format!("rows = {r}\ncols = {c}")),
    ];
    (
        board,
        any::<bool>(),
        prop::collection::vec(group, 0..5),
        prop::collection::vec(prop::collection::vec(name(), 0..3), 0..3),
    )
        .prop_map(|(board, torus, groups, pairs)| {
            let pairs: Vec<String> = pairs
                .iter()
                .map(|p| {
                    let names: Vec<String> = p.iter().map(|n| format!("\"{n}\"")).collect();
                    format!("[{}]", names.join(", "))
                })
                .collect();
            format!(
                "name = \"fuzz\"\nno_attack = [{}]\n[board]\n{board}\ntorus = {torus}\n{}",
                pairs.join(", "),
                groups.concat()
            )
        })
}

/// A `--set` key: a board setting or a group's name.
fn set_key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec!["board", "size", "rows", "cols", "torus"]).prop_map(String::from),
        name(),
    ]
}

/// What every accepted problem must satisfy: within the limits, its counts fit, and it
/// reads back from its own file.
fn check_problem(p: &Problem) {
    let l = p.rules.layout;
    assert!((1..=MAX_SIDE).contains(&l.rows) && (1..=MAX_SIDE).contains(&l.cols));
    assert!(!p.rules.groups.is_empty() && p.rules.groups.len() <= MAX_GROUPS);
    let fixed: usize = p.demands(0).iter().sum();
    assert!(fixed <= l.squares());
    if let Some(bound) = p.upper_bound() {
        assert!(bound <= l.squares());
    }
    let _ = p.summary();
    assert_eq!(Problem::from_toml(&p.to_toml()).as_ref(), Ok(p));
}
