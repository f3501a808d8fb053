//! Property test of what `solve --cnf` does with a file (RELIABILITY.md, "No reader
//! panics"): parse it, take its problem and size from the header and its variable map, and
//! decode and validate a model. Headers and maps that lie about sizes (`c dim 4294967296`
//! used to make the decoder index out of bounds or allocate gigabytes) give an answer or an
//! error, never a panic. A fixed number of cases keeps CI fast.

use pq_encode::{dimacs, header};
use pq_engine::sat::pipeline::decoded;
use pq_solve::{answer::Answer, answer::Assignment};
use proptest::prelude::*;
use proptest::test_runner::Config;

fn config() -> Config {
    Config {
        cases: 256,
        failure_persistence: None,
        ..Config::default()
    }
}

/// A size where arithmetic breaks, or a small one.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (0u64..7).prop_map(|n| n.to_string()),
        1 => prop::sample::select(vec![
            "64".to_string(),
            "65".to_string(),
            "4096".to_string(),
            "100000".to_string(),
            "4294967296".to_string(),
            (1u64 << 63).to_string(),
            u64::MAX.to_string(),
        ]),
    ]
}

/// The header comments and map lines of a queens file (`dim`, `n`, white and black
/// queens) or of a placement problem (`rows`, `cols`, groups of rooks red and blue), with
/// sizes that may lie.
fn lines() -> impl Strategy<Value = (Vec<String>, Vec<(String, String)>)> {
    let queens = (
        prop::collection::vec(
            (
                prop::sample::select(vec!["dim", "dim", "n", "rows"]),
                number(),
            )
                .prop_map(|(k, v)| format!("c {k} {v}")),
            0..4,
        ),
        prop::collection::vec(prop::sample::select(vec!["white", "black"]), 0..10),
    )
        .prop_map(|(c, g)| {
            (
                c,
                g.iter().map(|g| (g.to_string(), String::new())).collect(),
            )
        });
    let problem = (
        prop::collection::vec(
            prop_oneof![
                (
                    prop::sample::select(vec!["rows", "cols", "rows", "cols", "n"]),
                    number()
                )
                    .prop_map(|(k, v)| format!("c {k} {v}")),
                (
                    prop::sample::select(vec!["red", "blue"]),
                    prop::sample::select(vec!["at least", "exactly"]),
                    number()
                )
                    .prop_map(|(g, b, n)| format!("c group {g} rook {b} {n}")),
                Just("c no-attack between red blue".to_string()),
                Just("c torus true".to_string()),
            ],
            0..8,
        ),
        prop::collection::vec(prop::sample::select(vec!["red", "blue"]), 0..10),
    )
        .prop_map(|(c, g)| {
            (
                c,
                g.iter().map(|g| (g.to_string(), " rook".into())).collect(),
            )
        });
    prop_oneof![queens, problem]
}

/// A formula without clauses whose header and map are drawn above, with every piece on a
/// small square, and a model for it.
fn file_and_model() -> impl Strategy<Value = (String, Vec<bool>)> {
    lines()
        .prop_flat_map(|(comments, groups)| {
            let n = groups.len();
            (
                Just(comments),
                Just(groups),
                prop::collection::vec((1usize..6, 1usize..6), n),
                prop::collection::vec(any::<bool>(), n),
            )
        })
        .prop_map(|(comments, groups, squares, model)| {
            let map: Vec<String> = groups
                .iter()
                .zip(&squares)
                .enumerate()
                .map(|(k, ((g, kind), (r, c)))| format!("c var {} {g}{kind} {r} {c}", k + 1))
                .collect();
            let text = format!(
                "{}\n{}\np cnf {} 0\n",
                comments.join("\n"),
                map.join("\n"),
                model.len()
            );
            (text, model)
        })
}

/// Decodes `model` of the file `text` as `solve --cnf` does; `true` when a problem was
/// found to decode it against.
fn decode_as_solve_does(text: &str, model: &[bool]) -> bool {
    let Ok(formula) = dimacs::parse(text.as_bytes()) else {
        return false;
    };
    // The problem and size exactly as `solve --cnf` takes them.
    let (problem, n) = header::subject(&formula);
    let lits: Vec<i64> = model
        .iter()
        .enumerate()
        .map(|(i, &v)| if v { i as i64 + 1 } else { -(i as i64 + 1) })
        .collect();
    let answer = Answer::Sat(Assignment::from_dimacs_lits(model.len(), &lits));
    let _ = decoded(
        problem.as_ref(),
        n.unwrap_or(0),
        &formula,
        answer,
        "fuzz".into(),
        0.0,
    );
    problem.is_some()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn lying_headers_decode_or_fail_cleanly((text, model) in file_and_model()) {
        decode_as_solve_does(&text, &model);
    }
}

/// The generator is worth its cases: many of its files reach the decoder with a problem.
#[test]
fn the_generator_reaches_the_decoder() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let reached = (0..256)
        .filter(|_| {
            let (text, model) = file_and_model().new_tree(&mut runner).unwrap().current();
            decode_as_solve_does(&text, &model)
        })
        .count();
    assert!(reached > 25, "{reached}");
}
