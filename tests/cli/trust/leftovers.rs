//! Adversarial tests: what the first round of issue 11 left over. A header that declares
//! two billion variables no clause uses costs no memory in any backend (class 8); errors
//! print once, naming the user's path once (class 17); `race` names a missing family
//! directory and what to do; a proof that fails `race --check-unsat` refutes its solver
//! (classes 2 and 3).

use std::process::Output;

use crate::util::*;

/// Every backend, in-process and external.
const BACKENDS: [&str; 5] = ["cadical", "varisat", "kissat", "cadical-bin", "minisat"];

/// Runs pq-sat under a 2 GB address-space limit: more than pq-sat needs for a one-clause
/// formula, far less than reserving two billion variables takes.
fn run_limited(args: &[&str]) -> Output {
    let mut command = std::process::Command::new("sh");
    command
        .arg("-c")
        .arg("ulimit -v 2000000 && exec \"$0\" \"$@\"")
        .arg(BIN)
        .args(args);
    command.output().unwrap()
}

#[test]
fn a_header_declaring_two_billion_unused_variables_costs_no_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let sat = tmp.path().join("sat.cnf");
    std::fs::write(&sat, "p cnf 2147483647 1\n1 0\n").unwrap();
    let unsat = tmp.path().join("unsat.cnf");
    // Not two contradicting units: varisat then writes a proof without the empty clause.
    std::fs::write(
        &unsat,
        "p cnf 2147483647 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n",
    )
    .unwrap();
    for backend in BACKENDS {
        let out = run_limited(&[
            "solve",
            "--cnf",
            sat.to_str().unwrap(),
            "--backend",
            backend,
            "--format",
            "json",
        ]);
        assert_eq!(code(&out), 10, "{backend}: {}", stderr(&out));
        let v = json(&out);
        assert_eq!(v["variables"], 2147483647u64, "{backend}: {v}");
        assert_eq!(v["solver"], backend, "{v}");
        if backend == "minisat" {
            continue; // writes no proofs
        }
        // The proof-writing path hands the solver the same file it checks against.
        let out = run_limited(&[
            "solve",
            "--cnf",
            unsat.to_str().unwrap(),
            "--backend",
            backend,
            "--check-unsat",
            "--format",
            "json",
        ]);
        assert_eq!(code(&out), 20, "{backend}: {}", stderr(&out));
        assert_eq!(json(&out)["verified"], true, "{backend}");
    }
}
