//! Property tests of the solver-output parser (RELIABILITY.md, "No reader panics"):
//! whatever a solver prints on stdout or writes to its result file, with whatever exit
//! code, reading its answer gives an answer or an error, never a panic, and a model always
//! covers exactly the formula's variables. A fixed number of cases keeps CI fast.

use proptest::prelude::*;
use proptest::test_runner::Config;

use super::conventions::{read_stdout, Convention};
use super::ExternalSolver;
use crate::answer::Answer;

fn config() -> Config {
    Config {
        cases: 512,
        failure_persistence: None,
        ..Config::default()
    }
}

fn solver(convention: Convention) -> ExternalSolver {
    ExternalSolver {
        name: "fuzz".into(),
        program: "/bin/true".into(),
        args: Vec::new(),
        args_after: Vec::new(),
        convention,
    }
}

/// A literal as a solver might print it: small, at the edges of the integer types, or no
/// number at all.
fn literal() -> impl Strategy<Value = String> {
    prop_oneof![
        (-8i64..=8).prop_map(|l| l.to_string()),
        prop::sample::select(vec![
            i64::MIN.to_string(),
            i64::MAX.to_string(),
            u64::MAX.to_string(),
            "99999999999999999999".to_string(),
            "-0".to_string(),
            "x".to_string(),
        ]),
        any::<i64>().prop_map(|l| l.to_string()),
    ]
}

/// One stdout line of a solver, following the competition's conventions or not.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "s SATISFIABLE",
            "s UNSATISFIABLE",
            "s UNKNOWN",
            "s MAYBE",
            "SATISFIABLE",
            "UNSATISFIABLE",
            "INDETERMINATE",
            "c UNKNOWN",
            "c comment",
            "v",
            "v 0",
            "s",
            "",
        ])
        .prop_map(String::from),
        prop::collection::vec(literal(), 0..8).prop_map(|l| format!("v {}", l.join(" "))),
        "\\PC{0,30}",
    ]
}

fn exit_code() -> impl Strategy<Value = i32> {
    prop_oneof![
        9 => prop::sample::select(vec![0, 10, 20]),
        1 => any::<i32>(),
    ]
}

/// A SAT answer's model covers exactly the formula's variables.
fn well_formed(answer: &Answer, n_vars: usize) {
    if let Answer::Sat(model) = answer {
        assert_eq!(model.len(), n_vars);
    }
}

proptest! {
    #![proptest_config(config())]

    /// Any bytes on stdout, any exit code.
    #[test]
    fn competition_output_never_panics(
        out in prop::collection::vec(any::<u8>(), 0..300),
        code in exit_code(),
        n_vars in 0usize..40,
    ) {
        let summary = read_stdout(&out[..], n_vars);
        let solver = solver(Convention::Competition);
        if let Ok(a) = solver.competition_answer(code, summary, n_vars, String::new()) {
            well_formed(&a, n_vars);
        }
    }

    /// Lines shaped like the competition's output, in any order and number.
    #[test]
    fn competition_lines_never_panic(
        lines in prop::collection::vec(line(), 0..12),
        code in exit_code(),
        n_vars in 0usize..40,
    ) {
        let summary = read_stdout(lines.join("\n").as_bytes(), n_vars);
        let solver = solver(Convention::Competition);
        if let Ok(a) = solver.competition_answer(code, summary, n_vars, String::new()) {
            well_formed(&a, n_vars);
        }
    }

    /// MiniSat's result file: any verdict and model.
    #[test]
    fn minisat_result_file_never_panics(
        head in prop::sample::select(vec!["SAT", "UNSAT", "INDET", "", "sat", "SAT\n"]),
        lits in prop::collection::vec(literal(), 0..8),
        code in exit_code(),
        n_vars in 0usize..40,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("result");
        std::fs::write(&path, format!("{head}\n{}", lits.join(" "))).unwrap();
        let solver = solver(Convention::Minisat);
        if let Ok(a) = solver.minisat_answer(code, &path, n_vars, String::new()) {
            well_formed(&a, n_vars);
        }
    }
}

/// The generators are worth their cases: some of their outputs are read as answers, SAT
/// models included, so that the properties reach past the first refusal.
#[test]
fn the_generators_reach_answers() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let solver = solver(Convention::Competition);
    let (mut answers, mut models) = (0, 0);
    for _ in 0..512 {
        let lines = prop::collection::vec(line(), 0..4)
            .new_tree(&mut runner)
            .unwrap()
            .current();
        let code = exit_code().new_tree(&mut runner).unwrap().current();
        let summary = read_stdout(lines.join("\n").as_bytes(), 8);
        if let Ok(a) = solver.competition_answer(code, summary, 8, String::new()) {
            answers += 1;
            models += usize::from(matches!(a, Answer::Sat(_)));
        }
    }
    assert!(answers > 10 && models > 0, "{answers} {models}");
}
