//! Adversarial tests: untrusted UNSAT (issue 11, class 2). A solver's UNSAT that
//! contradicts the table of proven values is a solver error, never a result, and never wins
//! a portfolio; an unchecked UNSAT from a command is reported as unverified;
//! `--check-unsat` verifies a proof of every UNSAT before it counts.

use crate::util::*;

/// A solver that answers UNSAT to everything, at once.
fn liar(dir: &std::path::Path) -> String {
    fake_solver(dir, "liar.sh", "echo 's UNSATISFIABLE'\nexit 20")
}

#[test]
fn an_unsat_that_contradicts_the_table_is_a_solver_error() {
    let tmp = tempfile::tempdir().unwrap();
    let liar = liar(tmp.path());
    // 8 queens a side fit on 8x8 (a(8) = 9): the liar's UNSAT is rejected, naming it.
    let out = run(&["solve", "--dim", "8", "--n", "8", "--solver-cmd", &liar]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&liar) && err.contains("rejected") && err.contains("a(8) = 9"),
        "{err}"
    );
    assert!(stdout(&out).is_empty());
    // The optimiser never claims a(5) = 3 from the liar's UNSAT at 4.
    let out = run(&[
        "solve",
        "--dim",
        "5",
        "--solver-cmd",
        &liar,
        "--progress",
        "none",
    ]);
    assert_eq!(code(&out), 1);
    assert!(!stdout(&out).contains("a(5) = 3"), "{}", stdout(&out));
    assert!(stderr(&out).contains("a(5) = 4"), "{}", stderr(&out));
}

#[test]
fn a_rejected_liar_never_wins_a_portfolio() {
    let tmp = tempfile::tempdir().unwrap();
    let liar = liar(tmp.path());
    // The liar answers first every time; the in-process CaDiCaL's answer is the result.
    let out = run(&[
        "solve",
        "--dim",
        "8",
        "--n",
        "8",
        "--solver-cmd",
        &liar,
        "--backend",
        "cadical",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    assert_eq!(json(&out)["solver"], "cadical");
    let out = run(&[
        "solve",
        "--dim",
        "5",
        "--solver-cmd",
        &liar,
        "--backend",
        "cadical",
        "--progress",
        "none",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(json(&out)["optimum"], 4);
}

#[test]
fn a_commands_unchecked_unsat_is_reported_unverified() {
    let tmp = tempfile::tempdir().unwrap();
    let liar = liar(tmp.path());
    // 5 a side do not fit on 5x5: the table cannot refute it, but nothing checked it either.
    let args = ["solve", "--dim", "5", "--n", "5", "--solver-cmd", &liar];
    let out = run(&args);
    assert_eq!(code(&out), 20);
    assert!(stdout(&out).contains("unverified"), "{}", stdout(&out));
    let out = run(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(json(&out)["verified"], false);
    // In-process solvers' UNSAT is unchecked too (JSON says so), without the text warning.
    let out = run(&["solve", "--dim", "5", "--n", "5", "--backend", "cadical"]);
    assert_eq!(code(&out), 20);
    assert!(!stdout(&out).contains("unverified"), "{}", stdout(&out));
    let out = run(&[
        "solve",
        "--dim",
        "5",
        "--n",
        "5",
        "--backend",
        "cadical",
        "--format",
        "json",
    ]);
    assert_eq!(json(&out)["verified"], false);
    // The optimiser's UNSAT step says so, and the claim resting on it is flagged.
    let out = run(&[
        "solve",
        "--dim",
        "4",
        "--solver-cmd",
        &liar,
        "--progress",
        "none",
        "--format",
        "json",
    ]);
    let v = json(&out);
    let last = v["steps"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (last["n"].as_u64(), &last["verified"]),
        (Some(3), &false.into()),
        "{v}"
    );
    let out = run(&[
        "solve",
        "--dim",
        "4",
        "--solver-cmd",
        &liar,
        "--progress",
        "none",
    ]);
    assert!(stdout(&out).starts_with("a(4) = 2") && stdout(&out).contains("unverified"));
}
