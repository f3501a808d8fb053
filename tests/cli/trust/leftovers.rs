//! Adversarial tests: what the review's first round left over. A header that declares
//! two billion variables no clause uses costs no memory in any backend (class 8); errors
//! print once, naming the user's path once (class 17); `race` names a missing family
//! directory and what to do; a proof that fails `race --check-unsat` refutes its solver
//! (classes 2 and 3); a symmetry group too large to list is refused before it is built.

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
    // Two contradicting units: varisat's own proof lacks the empty clause, which pq-sat adds.
    std::fs::write(&unsat, "p cnf 2147483647 2\n1 0\n-1 0\n").unwrap();
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
        assert_eq!(v["variables"], 2_147_483_647_u64, "{backend}: {v}");
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

/// The one line of an error: exit code 1, nothing on stdout, `path` named once, and no
/// part of the message repeated (`{:#}` printing an error and then its source again).
fn one_line_error(out: &Output, path: &str) -> String {
    assert_eq!(code(out), 1, "{}", stderr(out));
    assert!(stdout(out).is_empty(), "{}", stdout(out));
    let err = stderr(out);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert_eq!(err.matches(path).count(), 1, "{err}");
    let parts: Vec<&str> = err.trim_end().split(": ").collect();
    for (i, part) in parts.iter().enumerate() {
        assert!(
            !parts[i + 1..].contains(part),
            "'{part}' printed twice: {err}"
        );
    }
    err
}

#[test]
fn an_error_prints_once_and_names_the_path_once() {
    let tmp = tempfile::tempdir().unwrap();
    let at = |name: &str| tmp.path().join(name).to_str().unwrap().to_string();
    let missing = at("missing.cnf");
    let err = one_line_error(&run(&["solve", "--cnf", &missing]), &missing);
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
    // A cut-off .xz: the decoder's "premature eof" once (it was "premature eof: premature eof").
    let whole = at("whole.cnf.xz");
    let made = run(&["encode", "--dim", "6", "--n", "5", "-o", &whole]);
    assert_eq!(code(&made), 0, "{}", stderr(&made));
    let bytes = std::fs::read(&whole).unwrap();
    let cut = at("cut.cnf.xz");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let err = one_line_error(&run(&["solve", "--cnf", &cut]), &cut);
    assert_eq!(err.matches("premature eof").count(), 1, "{err}");
    let out = run_with_stdin(&["solve"], Some(&bytes[..bytes.len() / 2]));
    let err = one_line_error(&out, "standard input");
    assert_eq!(err.matches("premature eof").count(), 1, "{err}");
    // A solver that cannot be started: the OS error once.
    let broken = fake_solver(tmp.path(), "broken.sh", "");
    std::fs::write(&broken, "#!/no/such/interpreter\n").unwrap();
    let out = run(&["solve", "--dim", "4", "--n", "2", "--solver-cmd", &broken]);
    let err = one_line_error(&out, &broken);
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
}

#[test]
fn a_missing_input_directory_is_named_with_what_to_do() {
    let tmp = tempfile::tempdir().unwrap();
    let nodir = tmp.path().join("nodir");
    let nodir = nodir.to_str().unwrap();
    let out = run(&["race", nodir, "--backend", "cadical"]);
    let err = one_line_error(&out, nodir);
    assert!(
        err.contains("no such family directory") && err.contains("pq-sat family"),
        "{err}"
    );
    assert!(!err.contains("manifest.json"), "{err}");
    let err = one_line_error(&run(&["check-certificate", nodir]), nodir);
    assert!(
        err.contains("no such certificate directory") && err.contains("--certify"),
        "{err}"
    );
    // A file where the directory should be says so.
    let file = tmp.path().join("file");
    std::fs::write(&file, "").unwrap();
    let file = file.to_str().unwrap();
    let err = one_line_error(&run(&["race", file, "--backend", "cadical"]), file);
    assert!(err.contains("not a directory"), "{err}");
}

/// A race solver that is not installed is named once; a command's label stays in front.
#[test]
fn a_missing_race_solver_is_named_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = family(tmp.path());
    let dir = dir.to_str().unwrap();
    let err = one_line_error(&run(&["race", dir, "--backend", "nosuch"]), "'nosuch'");
    assert!(err.contains("not installed"), "{err}");
    let out = run(&["race", dir, "--backend", "nosuch -q"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("--backend 'nosuch -q': solver 'nosuch' is not installed"));
}

/// `family --dim 5 --n 3..5` in `root/fam`: n = 3, 4 SAT and n = 5 UNSAT.
fn family(root: &std::path::Path) -> std::path::PathBuf {
    let dir = root.join("fam");
    let out = run(&[
        "family",
        "--dim",
        "5",
        "--n",
        "3..5",
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    dir
}

/// The verdicts of a `race --format json` report's runs of solver `solver`.
fn verdicts(v: &serde_json::Value, solver: &str) -> Vec<String> {
    v["runs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["solver"] == solver)
        .map(|r| r["verdict"].as_str().unwrap().to_string())
        .collect()
}

/// Classes 2 and 3: under `race --check-unsat` a proof the checker rejects refutes its
/// solver (wrong, PAR-2 penalty, exit 1), on a SAT and on an UNSAT instance alike; and a
/// checked UNSAT outweighs a manifest that says `sat`.
#[test]
fn race_check_unsat_calls_a_failed_proof_wrong_and_a_checked_one_right() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = family(tmp.path());
    let liar = fake_solver(
        tmp.path(),
        "liar.sh",
        "echo 'this is not a proof' > \"$1\"\necho 's UNSATISFIABLE'\nexit 20",
    );
    let liar = format!("{liar} {{proof}}");
    let out = run(&[
        "race",
        dir.to_str().unwrap(),
        "--check-unsat",
        "--backend",
        &liar,
        "--backend",
        "cadical",
        "--run-timeout",
        "10",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 1, "a wrong answer: {}", stderr(&out));
    let v = json(&out);
    assert_eq!(verdicts(&v, &liar), ["wrong", "wrong", "wrong"], "{v}");
    assert_eq!(verdicts(&v, "cadical"), ["sat", "sat", "unsat"], "{v}");
    let score = &v["solvers"][0];
    assert_eq!(
        (score["wrong"].as_u64(), score["errors"].as_u64()),
        (Some(3), Some(0)),
        "{score}"
    );
    assert!(
        score["par2"].as_f64().unwrap() >= 20.0,
        "penalised: {score}"
    );
    assert!(stderr(&out).contains("does not check"), "{}", stderr(&out));
    // n = 5 is UNSAT; a manifest that says sat is refuted by cadical's checked proof.
    let manifest = dir.join("manifest.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    m["instances"][2]["expected"] = "sat".into();
    std::fs::write(&manifest, m.to_string()).unwrap();
    let out = run(&[
        "race",
        dir.to_str().unwrap(),
        "--check-unsat",
        "--backend",
        "cadical",
        "--run-timeout",
        "10",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(verdicts(&v, "cadical"), ["sat", "sat", "unsat"], "{v}");
    let score = &v["solvers"][0];
    assert_eq!(
        (score["unsat"].as_u64(), score["disputed"].as_u64()),
        (Some(1), Some(0)),
        "{score}"
    );
    let disputed = v["disputed"].as_array().unwrap();
    assert_eq!(disputed.len(), 1, "{v}");
    let detail = disputed[0]["detail"].as_str().unwrap();
    assert!(
        detail.contains("checker verified") && detail.contains("the manifest is wrong"),
        "{detail}"
    );
}

/// A `size` × `size` text board with one white and one black queen.
fn board(size: usize) -> String {
    let mut rows = vec![".".repeat(size); size];
    rows[0].replace_range(0..1, "W");
    rows[5].replace_range(10..11, "B");
    rows.join("\n") + "\n"
}

/// Class 8: the symmetries of a 64 × 64 torus (65536 maps of 4096 squares, 2 GB) are
/// refused before they are allocated, with the limit; a 32 × 32 torus still works.
#[test]
fn a_symmetry_group_too_large_to_list_is_refused_before_allocation() {
    let tmp = tempfile::tempdir().unwrap();
    let torus = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/encodings/peaceable-queens-torus.toml"
    );
    let file = tmp.path().join("b64.txt");
    std::fs::write(&file, board(64)).unwrap();
    let file = file.to_str().unwrap();
    let out = run_limited(&["canon", file, "--problem", torus, "--set", "board=64x64"]);
    let err = one_line_error(&out, "65536 symmetries");
    assert!(
        err.contains("33554432") && err.contains("smaller board"),
        "{err}"
    );
    let out = run_limited(&[
        "enumerate",
        "--problem",
        torus,
        "--set",
        "board=64x64",
        "--n",
        "1",
        "--count",
    ]);
    let err = one_line_error(&out, "65536 symmetries");
    assert!(err.contains("--up-to total"), "{err}");
    let file = tmp.path().join("b32.txt");
    std::fs::write(&file, board(32)).unwrap();
    let file = file.to_str().unwrap();
    let out = run_limited(&["canon", file, "--problem", torus, "--set", "board=32x32"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // 16384 symmetries (1024 translations × 8 point symmetries × the colour swap); a
    // point-and-colour swap fixes this board, so each image is met twice.
    assert!(
        stdout(&out).starts_with("# orbit of 8192\n"),
        "{}",
        stdout(&out)
    );
}
