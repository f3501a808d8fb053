//! Adversarial tests: untrusted UNSAT (defect class 2). A solver's UNSAT that
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
    let on_8 = ["solve", "--dim", "8", "--n", "8", "--solver-cmd", &liar];
    // The liar answers first every time; the in-process CaDiCaL's answer is the result.
    let out = run(&[&on_8[..], &["--backend", "cadical", "--format", "json"]].concat());
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    assert_eq!(json(&out)["solver"], "cadical");
    // When the liar surely answers first (the honest solver waits), the answer is still the
    // honest one, and the liar is named on stderr, not hidden.
    let slow = fake_solver(
        tmp.path(),
        "slow.sh",
        "sleep 0.5
exec kissat -q \"$@\"",
    );
    let out = run(&[&on_8[..], &["--solver-cmd", &slow]].concat());
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("warning") && err.contains(&liar), "{err}");
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
    assert_eq!(code(&out), 30, "{}", stderr(&out));
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
    assert!(stdout(&out).contains("unchecked word"), "{}", stdout(&out));
    let out = run(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(json(&out)["verified"], false);
    assert_eq!(
        json(&out)["known"],
        "the solver's unchecked word (--check-unsat checks it)"
    );
    // In-process solvers' UNSAT is unchecked too, said the same way.
    let out = run(&["solve", "--dim", "5", "--n", "5", "--backend", "cadical"]);
    assert_eq!(code(&out), 20);
    assert!(stdout(&out).contains("unchecked word"), "{}", stdout(&out));
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
    let on_4 = [
        "solve",
        "--dim",
        "4",
        "--solver-cmd",
        &liar,
        "--progress",
        "none",
    ];
    let out = run(&[&on_4[..], &["--format", "json"]].concat());
    let v = json(&out);
    let last = v["steps"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (last["n"].as_u64(), &last["verified"]),
        (Some(3), &false.into()),
        "{v}"
    );
    let out = run(&on_4);
    assert!(stdout(&out).starts_with("a(4) = 2") && stdout(&out).contains("unchecked word"));
}

/// Runs `solve --dim 5 --n 5` (UNSAT: a(5) = 4) with `--check-unsat` and `extra`.
fn checked_unsat_step(extra: &[&str]) -> std::process::Output {
    let args = [
        "solve",
        "--dim",
        "5",
        "--n",
        "5",
        "--check-unsat",
        "--format",
        "json",
    ];
    run(&[&args[..], extra].concat())
}

#[test]
fn check_unsat_verifies_the_proof_of_every_backend() {
    let solvers: &[&[&str]] = &[
        &["--backend", "kissat"],
        &["--backend", "cadical"],
        &["--backend", "cadical-bin"],
        &["--backend", "varisat"],
        &["--backend", "cadical", "--proof-format", "lrat"],
        &["--solver-cmd", "kissat -q {cnf} {proof} --no-binary"],
        // The default portfolio, of the solvers that write proofs.
        &[],
    ];
    for extra in solvers {
        let out = checked_unsat_step(extra);
        assert_eq!(code(&out), 20, "{extra:?}: {}", stderr(&out));
        assert_eq!(json(&out)["verified"], true, "{extra:?}");
    }
    // The optimiser checks each step's UNSAT, and the text says the claim rests on a proof.
    let out = run(&[
        "solve",
        "--dim",
        "5",
        "--check-unsat",
        "--backend",
        "kissat",
        "--progress",
        "none",
    ]);
    assert_eq!(code(&out), 30, "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("a(5) = 4") && stdout(&out).contains("proof checked by rate"),
        "{}",
        stdout(&out)
    );
    // With --proof, the proof written is the one checked.
    let tmp = tempfile::tempdir().unwrap();
    let proof = tmp.path().join("p.drat");
    let out = checked_unsat_step(&["--backend", "cadical", "--proof", proof.to_str().unwrap()]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    assert_eq!(json(&out)["verified"], true);
    assert!(proof.exists());
}

/// A solver that answers UNSAT with garbage for a proof (its first argument).
fn garbage_prover(dir: &std::path::Path) -> String {
    fake_solver(
        dir,
        "garbage.sh",
        "echo '1 2 garbage' > \"$1\"\necho 's UNSATISFIABLE'\nexit 20",
    )
}

#[test]
fn check_unsat_rejects_a_proof_that_does_not_check() {
    let tmp = tempfile::tempdir().unwrap();
    // Answers UNSAT (rightly, for 5 on 5x5) with garbage, or nothing, for a proof.
    let garbage = garbage_prover(tmp.path());
    let silent = fake_solver(tmp.path(), "silent.sh", "echo 's UNSATISFIABLE'\nexit 20");
    for liar in [&garbage, &silent] {
        let cmd = format!("{liar} {{proof}}");
        let out = checked_unsat_step(&["--solver-cmd", &cmd]);
        assert_eq!(code(&out), 1, "{}", stdout(&out));
        let err = stderr(&out);
        assert!(
            err.contains(&cmd) && err.contains("proof does not check") && err.contains("rejected"),
            "{err}"
        );
        assert!(stdout(&out).is_empty());
        // In a portfolio the liar answers first but drops out; CaDiCaL's checked UNSAT wins.
        let out = checked_unsat_step(&["--solver-cmd", &cmd, "--backend", "cadical"]);
        assert_eq!(code(&out), 20, "{}", stderr(&out));
        let v = json(&out);
        assert_eq!(
            (&v["solver"], &v["verified"]),
            (&"cadical".into(), &true.into())
        );
    }
    // The optimiser stops at the rejected step instead of claiming a(5) = 4 on its word.
    let cmd = format!("{garbage} {{proof}}");
    let out = run(&[
        "solve",
        "--dim",
        "5",
        "--check-unsat",
        "--solver-cmd",
        &cmd,
        "--progress",
        "none",
    ]);
    assert_fails_saying(&out, 1, "proof does not check");
}

#[test]
fn check_unsat_refuses_solvers_that_cannot_write_a_proof() {
    let cases: &[(&[&str], &str)] = &[
        (&["--solver-cmd", "kissat -q"], "{proof}"),
        (
            &["--backend", "minisat"],
            "minisat cannot write DRAT proofs",
        ),
        (&["--backend", "kissat", "--proof-format", "lrat"], "LRAT"),
        (
            &["--backend", "cadical", "--strategy", "incremental"],
            "incremental",
        ),
    ];
    for (extra, says) in cases {
        let args = ["solve", "--dim", "5", "--check-unsat"];
        let out = run(&[&args[..], extra].concat());
        assert_eq!(code(&out), 2, "{extra:?}");
        let err = stderr(&out);
        assert!(err.contains("--check-unsat") && err.contains(says), "{err}");
    }
    // A command that takes no solver's UNSAT does not have the flag at all (its help does
    // not list it).
    let out = run(&["encode", "--dim", "3", "--n", "1", "--check-unsat"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("unexpected argument '--check-unsat'"),
        "{}",
        stderr(&out)
    );
    assert!(!stdout(&run(&["encode", "--help"])).contains("--check-unsat"));
    // enumerate's optimum, found first, rests on a checked UNSAT.
    let out = run(&["enumerate", "--dim", "5", "--count", "--check-unsat"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stderr(&out).contains("a(5) = 4"), "{}", stderr(&out));
    let out = run(&["enumerate", "--dim", "5", "--n", "4", "--check-unsat"]);
    assert_eq!(code(&out), 2);
}

#[test]
fn check_unsat_in_a_race_counts_only_checked_unsat() {
    let tmp = tempfile::tempdir().unwrap();
    let garbage = garbage_prover(tmp.path());
    let dir = tmp.path().join("fam");
    let out = run(&["family", "--dim", "4", "-o", dir.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let cmd = format!("{garbage} {{proof}}");
    let out = run(&[
        "race",
        dir.to_str().unwrap(),
        "--backend",
        "cadical",
        "--backend",
        &cmd,
        "--check-unsat",
        "--run-timeout",
        "20",
        "--format",
        "json",
    ]);
    let v = json(&out);
    let solvers = v["solvers"].as_array().unwrap();
    assert_eq!(
        (&solvers[0]["solved"], &solvers[0]["unsat"]),
        (&4.into(), &2.into()),
        "{v}"
    );
    // Even on the UNSAT instances the liar's word does not count without a proof, and a
    // proof the checker rejects refutes it: wrong, not an error (trust::leftovers).
    assert_eq!(
        (
            &solvers[1]["unsat"],
            &solvers[1]["wrong"],
            &solvers[1]["errors"]
        ),
        (&0.into(), &4.into(), &0.into()),
        "{v}"
    );
    let out = run(&[
        "race",
        dir.to_str().unwrap(),
        "--backend",
        "minisat",
        "--check-unsat",
    ]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("minisat cannot write DRAT proofs"));
}

#[test]
fn check_unsat_in_a_verified_family_checks_every_unsat_status() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("fam");
    let out = run(&[
        "family",
        "--dim",
        "4",
        "--verify",
        "60",
        "--check-unsat",
        "-o",
        dir.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let manifest = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    let text = v.to_string();
    assert_eq!(text.matches("proof checked").count(), 2, "{text}");
}

#[test]
fn a_command_with_a_proof_placeholder_writes_proofs_that_check() {
    let tmp = tempfile::tempdir().unwrap();
    let proof = tmp.path().join("p.drat");
    let out = run(&[
        "solve",
        "--dim",
        "5",
        "--n",
        "5",
        "--solver-cmd",
        "cadical -q --no-binary {cnf} {proof}",
        "--proof",
        proof.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    let cnf = tmp.path().join("p.cnf");
    let out = run(&[
        "check-proof",
        cnf.to_str().unwrap(),
        proof.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    // Without a proof wanted, the placeholder is filled with /dev/null: the solver still runs.
    let out = run(&[
        "solve",
        "--dim",
        "5",
        "--n",
        "4",
        "--solver-cmd",
        "kissat -q {cnf} {proof}",
    ]);
    assert_eq!(code(&out), 10, "{}", stderr(&out));
}
