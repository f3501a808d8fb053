//! The optimisation as MaxSAT (WCNF) and pseudo-Boolean (OPB) files, and the external
//! optimisers that solve them: `encode --format wcnf|opb`, files PySAT reads unchanged
//! (decoded with their own `c var` lines, the board checked by pq-sat's validator), and the
//! optimum of each export against a(d) (OEIS A250000).
//!
//! PySAT (`python-sat`) and clasp are installed by scripts/setup.sh; a test that needs one
//! that is missing says so on stderr and checks nothing more.

use std::path::Path;
use std::process::Command;

use pq_board::placement::{Placement, Rules};
use pq_board::rules::check_placement;
use serde_json::Value;

use crate::util::{code, run, s, stderr, stdout};

/// a(1..=6), OEIS A250000: the expectations every export's optimum is held to.
const A: [usize; 6] = [0, 0, 1, 2, 4, 5];

/// The PySAT reader shipped with the tests.
const PYSAT_DECODE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/cli/python/pysat_decode.py"
);

/// True when `python3 -c "import pysat"` works; otherwise says on stderr that the test
/// skips.
fn have_pysat(test: &str) -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import pysat"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("{test}: SKIPPED: python-sat is not installed (python3 -m pip install python-sat, or run scripts/setup.sh)");
    }
    ok
}

/// True when the clasp executable is on the PATH; otherwise says on stderr that the test
/// skips.
fn have_clasp(test: &str) -> bool {
    let ok = Command::new("clasp")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("{test}: SKIPPED: clasp is not installed (apt-get install clasp, or run scripts/setup.sh)");
    }
    ok
}

/// `pq-sat encode ARGS -o dir/name`; returns the path.
fn encode_to(dir: &Path, name: &str, args: &[&str]) -> std::path::PathBuf {
    let path = dir.join(name);
    let mut all = vec!["encode"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", s(&path)]);
    let out = run(&all);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    path
}

/// PySAT's reading of `path`: status, cost (WCNF) and the board its `c var` lines decode.
fn pysat_decode(path: &Path) -> Value {
    let out = Command::new("python3")
        .arg(PYSAT_DECODE)
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The queens board of `rows` (`W`, `B`, `.`), checked by pq-sat's independent validator:
/// no queen attacks one of the other colour. Returns the sizes of the two armies.
fn validated_queens(d: usize, rows: &Value) -> (usize, usize) {
    let rows: Vec<&str> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    let rules = Rules::peaceable_queens(d);
    let p = Placement::from_rows(&rules.layout, &rows, &['W', 'B']).unwrap();
    check_placement(&rules, &p, &[]).unwrap_or_else(|v| panic!("{v:?}: {rows:?}"));
    (p.count(0), p.count(1))
}

#[test]
fn encode_refuses_an_export_with_a_size_or_without_a_maximised_group() {
    let out = run(&["encode", "--dim", "5", "--n", "3", "--format", "wcnf"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("leave out --n"), "{}", stderr(&out));
    let problem = concat!(env!("CARGO_MANIFEST_DIR"), "/encodings/three-armies.toml");
    let fixed = [
        "encode",
        "--problem",
        problem,
        "--set",
        "red=1",
        "--set",
        "green=1",
        "--set",
        "blue=1",
        "--format",
        "opb",
    ];
    let out = run(&fixed);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("maximises no group"),
        "{}",
        stderr(&out)
    );
    let out = run(&["encode", "--dim", "5"]);
    assert_eq!(code(&out), 2, "DIMACS still needs --n");
}

#[test]
fn exports_are_written_compressed_by_their_names() {
    let dir = tempfile::tempdir().unwrap();
    for format in ["wcnf", "opb"] {
        let plain = encode_to(
            dir.path(),
            &format!("q.{format}"),
            &["--dim", "4", "--format", format],
        );
        let xz = encode_to(
            dir.path(),
            &format!("q.{format}.xz"),
            &["--dim", "4", "--format", format],
        );
        let unpacked = Command::new("xz").arg("-dc").arg(&xz).output().unwrap();
        assert!(unpacked.status.success());
        assert_eq!(unpacked.stdout, std::fs::read(&plain).unwrap(), "{format}");
        let out = run(&["encode", "--dim", "4", "--format", format]);
        assert_eq!(out.stdout, std::fs::read(&plain).unwrap(), "stdout = -o");
    }
    let text = std::fs::read_to_string(dir.path().join("q.opb")).unwrap();
    assert!(
        text.starts_with("* #variable= "),
        "the PB header comes first"
    );
    assert!(text.contains("\n* var 1 white 1 1\n") && text.contains("\nmin: -1 x"));
}

#[test]
fn pysat_reads_what_pq_sat_writes_and_its_board_passes_the_validator() {
    if !have_pysat("pysat_reads_what_pq_sat_writes") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // A DIMACS file of `encode`: PySAT's own SAT solver, the board from the `c var` lines.
    let cnf = encode_to(dir.path(), "q.cnf", &["--dim", "5", "--n", "4"]);
    let answer = pysat_decode(&cnf);
    assert_eq!(answer["status"], "sat");
    let (white, black) = validated_queens(5, &answer["rows"]);
    assert!(white >= 4 && black >= 4, "at least 4 of each: {answer}");
    let cnf = encode_to(dir.path(), "q5.cnf", &["--dim", "5", "--n", "5"]);
    assert_eq!(pysat_decode(&cnf)["status"], "unsat", "a(5) = 4");
    // A placement problem's file, with its long `c var K GROUP KIND R C` lines.
    let problem = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/encodings/peaceable-queens.toml"
    );
    let cnf = encode_to(
        dir.path(),
        "p.cnf",
        &["--problem", problem, "--set", "board=6x6", "--n", "5"],
    );
    let answer = pysat_decode(&cnf);
    let (white, black) = validated_queens(6, &answer["rows"]);
    assert!(white >= 5 && black >= 5, "{answer}");
    // A WCNF: RC2's optimum, cost K - a(d), and its board.
    let wcnf = encode_to(dir.path(), "q.wcnf", &["--dim", "5", "--format", "wcnf"]);
    let answer = pysat_decode(&wcnf);
    assert_eq!(answer["cost"], 6 - 4, "K = 25/4 = 6, a(5) = 4: {answer}");
    let (white, black) = validated_queens(5, &answer["rows"]);
    assert_eq!(white.min(black), 4, "{answer}");
}

#[test]
fn the_wcnf_optimum_is_a_d_for_d_1_to_6() {
    if !have_pysat("the_wcnf_optimum_is_a_d") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for d in 1..=6 {
        let dim = d.to_string();
        // Symmetry breaking off too: the plain formulation has the same optimum.
        for symmetry in ["lex-leader", "none"] {
            let name = format!("q{d}-{symmetry}.wcnf");
            let args = ["--dim", &dim, "--format", "wcnf", "--symmetry", symmetry];
            let answer = pysat_decode(&encode_to(dir.path(), &name, &args));
            let k = d * d / 4;
            assert_eq!(
                answer["cost"],
                k - A[d - 1],
                "d = {d}, {symmetry}: {answer}"
            );
            let (white, black) = validated_queens(d, &answer["rows"]);
            assert!(white.min(black) >= A[d - 1], "d = {d}: {answer}");
        }
    }
}

#[test]
fn the_opb_optimum_is_a_d_for_d_1_to_6() {
    if !have_clasp("the_opb_optimum_is_a_d") {
        return;
    }
    for d in 1..=6 {
        let dim = d.to_string();
        for model in ["colouring", "lines", "pairwise"] {
            let out = run(&["encode", "--dim", &dim, "--format", "opb", "--model", model]);
            assert_eq!(code(&out), 0, "{}", stderr(&out));
            let mut clasp = Command::new("clasp")
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            use std::io::Write;
            clasp.stdin.take().unwrap().write_all(&out.stdout).unwrap();
            let answer = String::from_utf8(clasp.wait_with_output().unwrap().stdout).unwrap();
            // The last `o` line is the optimum's objective, -a(d); none when K = 0.
            let objective = answer
                .lines()
                .rev()
                .find_map(|l| l.strip_prefix("o "))
                .map_or(0, |o| o.trim().parse::<i64>().unwrap());
            let s_line = answer.lines().find(|l| l.starts_with("s ")).unwrap();
            assert!(
                matches!(s_line, "s OPTIMUM FOUND" | "s SATISFIABLE"),
                "d = {d}: {s_line}"
            );
            assert_eq!(
                -objective,
                A[d - 1] as i64,
                "d = {d}, {model}: {}",
                stdout(&out).len()
            );
        }
    }
}

/// `pq-sat solve --dim D --backend OPTIMISER --format json` (with `extra` arguments after
/// `solve`).
fn solve_json(extra: &[&str], d: usize, optimiser: &str) -> Value {
    let dim = d.to_string();
    let mut args = vec!["solve"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--dim", &dim, "--backend", optimiser, "--format", "json"]);
    let out = run(&args);
    assert_eq!(code(&out), 30, "{}", stderr(&out));
    crate::util::json(&out)
}

#[test]
fn rc2_and_clasp_find_a_d_for_d_1_to_6_and_their_boards_are_validated() {
    for (optimiser, format) in [("rc2", "wcnf"), ("clasp", "opb")] {
        let installed = match optimiser {
            "rc2" => have_pysat("rc2_finds_a_d"),
            _ => have_clasp("clasp_finds_a_d"),
        };
        if !installed {
            continue;
        }
        for d in 1..=6 {
            let report = solve_json(&[], d, optimiser);
            let a = A[d - 1];
            assert_eq!(report["optimum"], a, "d = {d}, {optimiser}: {report}");
            assert_eq!(report["backend"], optimiser);
            assert_eq!(report["strategy"], format, "the export it solved");
            let (white, black) = validated_queens(d, &report["board"]);
            assert_eq!(
                (white, black),
                (a, a),
                "the witness has exactly a(d) of each"
            );
            let steps = report["steps"].as_array().unwrap();
            assert_eq!(steps[0]["solver"], optimiser);
            let last = steps.last().unwrap();
            assert_eq!(last["n"], a + 1);
            if a + 1 > d * d / 4 {
                assert_eq!(last["method"], "counting", "d = {d}");
            } else {
                // The optimiser's word that one more does not fit: unverified.
                assert_eq!(last["verified"], false, "d = {d}: {report}");
            }
        }
    }
}

#[test]
fn check_unsat_confirms_the_optimisers_bound_with_a_checked_proof() {
    for optimiser in ["rc2", "clasp"] {
        if optimiser == "rc2" && !have_pysat("check_unsat_confirms_rc2")
            || optimiser == "clasp" && !have_clasp("check_unsat_confirms_clasp")
        {
            continue;
        }
        let report = solve_json(&["--check-unsat"], 5, optimiser);
        assert_eq!(report["optimum"], 4);
        let last = report["steps"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(
            (last["n"].clone(), last["verified"].clone()),
            (5.into(), true.into())
        );
        assert_ne!(last["solver"], optimiser, "pq-sat's own solver checked it");
        let out = run(&[
            "solve",
            "--check-unsat",
            "--dim",
            "5",
            "--backend",
            optimiser,
        ]);
        assert!(stdout(&out).contains("proof checked"), "{}", stdout(&out));
        let out = run(&["solve", "--dim", "5", "--backend", optimiser]);
        assert!(stdout(&out).contains("unchecked word"), "{}", stdout(&out));
    }
}

#[test]
fn an_optimiser_is_refused_where_it_cannot_answer() {
    let problem = concat!(env!("CARGO_MANIFEST_DIR"), "/encodings/three-armies.toml");
    for (args, says) in [
        (&["--dim", "5", "--n", "3"][..], "cannot take --n"),
        (
            &["--dim", "5", "--certify", "x"][..],
            "cannot take --certify",
        ),
        (
            &["--dim", "5", "--backend", "kissat"][..],
            "no other --backend",
        ),
        (&["--dim", "5", "--step-timeout", "3"][..], "use --timeout"),
        (&["--dim", "5", "--strategy", "bisect"][..], "--strategy"),
        (
            &[
                "--problem",
                problem,
                "--set",
                "red=1",
                "--set",
                "green=1",
                "--set",
                "blue=1",
            ][..],
            "maximises no group",
        ),
    ] {
        let mut all = vec!["solve", "--backend", "rc2"];
        all.extend_from_slice(args);
        let out = run(&all);
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
    let out = run(&["solve", "--dim", "5", "--backend", "glucose"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("optimisers: rc2, clasp"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_placement_problem_is_optimised_by_both() {
    let problem = concat!(env!("CARGO_MANIFEST_DIR"), "/encodings/three-armies.toml");
    for optimiser in ["rc2", "clasp"] {
        if optimiser == "rc2" && !have_pysat("problem_by_rc2")
            || optimiser == "clasp" && !have_clasp("problem_by_clasp")
        {
            continue;
        }
        let args = [
            "solve",
            "--problem",
            problem,
            "--set",
            "board=5x5",
            "--backend",
            optimiser,
            "--format",
            "json",
        ];
        let out = run(&args);
        assert_eq!(code(&out), 30, "{}", stderr(&out));
        let report = crate::util::json(&out);
        // pq-sat's own optimiser on the same problem is the expectation.
        let own = run(&[
            "solve",
            "--problem",
            problem,
            "--set",
            "board=5x5",
            "--format",
            "json",
        ]);
        assert_eq!(
            report["optimum"],
            crate::util::json(&own)["optimum"],
            "{report}"
        );
        assert_eq!(report["maximised"].as_array().unwrap().len(), 3);
    }
}

/// Runs pq-sat with `dir` first on the PATH, so that a fake `clasp` there stands in.
fn run_with_path(dir: &Path, args: &[&str]) -> std::process::Output {
    let path = format!("{}:{}", s(dir), std::env::var("PATH").unwrap_or_default());
    Command::new(crate::util::BIN)
        .args(args)
        .env("PATH", path)
        .output()
        .unwrap()
}

#[test]
fn an_optimiser_whose_claim_does_not_hold_up_is_an_error() {
    if !have_clasp("an_optimiser_whose_claim_does_not_hold_up") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let clasp = which_clasp();
    // The right model with a better objective than it has.
    crate::util::fake_solver(
        dir.path(),
        "clasp",
        &format!("{clasp} \"$@\" | sed 's/^o -5$/o -6/'"),
    );
    let out = run_with_path(dir.path(), &["solve", "--dim", "6", "--backend", "clasp"]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(
        stderr(&out).contains("claimed the objective -6 but its model's is -5"),
        "{}",
        stderr(&out)
    );
    // Any model, called optimal: the board or the table of proven values refutes it.
    crate::util::fake_solver(
        dir.path(),
        "clasp",
        &format!(
            "{clasp} --opt-mode=ignore \"$@\" | sed 's/^s SATISFIABLE/o 0\\ns OPTIMUM FOUND/'"
        ),
    );
    let out = run_with_path(dir.path(), &["solve", "--dim", "6", "--backend", "clasp"]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(
        stderr(&out).contains("solver 'clasp'") && stderr(&out).contains("rejected"),
        "{}",
        stderr(&out)
    );
    // A model that breaks the rules.
    crate::util::fake_solver(
        dir.path(),
        "clasp",
        "echo 'o -1'; echo 'v x1 x37'; echo 's OPTIMUM FOUND'",
    );
    let out = run_with_path(dir.path(), &["solve", "--dim", "6", "--backend", "clasp"]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(stderr(&out).contains("violates"), "{}", stderr(&out));
    assert!(
        stdout(&out).is_empty(),
        "no answer printed: {}",
        stdout(&out)
    );
}

/// The real clasp's path (before a fake one is put first on the PATH).
fn which_clasp() -> String {
    let out = Command::new("sh")
        .args(["-c", "command -v clasp"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// `pq-sat family --dim 3..5 --instance-format FORMAT` into `dir/name`, with `extra`
/// arguments; returns the family's directory.
fn optimisation_family(dir: &Path, name: &str, format: &str, extra: &[&str]) -> std::path::PathBuf {
    let out_dir = dir.join(name);
    let mut args = vec![
        "-q",
        "family",
        "--dim",
        "3..5",
        "--instance-format",
        format,
        "-o",
        s(&out_dir),
    ];
    args.extend_from_slice(extra);
    let out = run(&args);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    out_dir
}

/// `pq-sat race DIR --solver ... --format json`: the exit code and the report.
fn race_json(dir: &Path, solvers: &[&str]) -> (i32, Value) {
    let mut args = vec![
        "-q",
        "race",
        s(dir),
        "--format",
        "json",
        "--run-timeout",
        "60",
    ];
    for solver in solvers {
        args.extend_from_slice(&["--backend", solver]);
    }
    let out = run(&args);
    (
        code(&out),
        serde_json::from_slice(&out.stdout).unwrap_or(Value::Null),
    )
}

#[test]
fn optimisation_families_carry_their_optimum_and_race_every_optimiser() {
    if !have_pysat("optimisation_families race") || !have_clasp("optimisation_families race") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (format, optimiser, extra) in [
        ("wcnf", "rc2", &["--compress", "xz"][..]),
        ("opb", "clasp", &[][..]),
    ] {
        let fam = optimisation_family(dir.path(), format, format, extra);
        let manifest: Value =
            serde_json::from_str(&std::fs::read_to_string(fam.join("manifest.json")).unwrap())
                .unwrap();
        for (e, d) in manifest["instances"].as_array().unwrap().iter().zip(3..) {
            assert_eq!(e["format"], format);
            assert_eq!(e["optimum"], A[d - 1], "from the table");
            assert_eq!(e["expected"], "sat");
            let file = e["file"].as_str().unwrap();
            assert!(file.starts_with(&format!("queens-d0{d}-max-")), "{file}");
            assert!(file.contains(&format!(".{format}")), "{file}");
        }
        // The optimiser on the file, pq-sat's own optimiser with CaDiCaL beside it.
        let (status, report) = race_json(&fam, &[optimiser, "cadical"]);
        assert_eq!(status, 0, "{report}");
        let runs = report["runs"].as_array().unwrap();
        assert_eq!(runs.len(), 6);
        for r in runs {
            assert_eq!(r["verdict"], "sat", "{r}");
        }
        let optima: Vec<u64> = runs
            .iter()
            .map(|r| r["optimum"].as_u64().unwrap())
            .collect();
        assert_eq!(optima, [1, 1, 2, 2, 4, 4], "a(3..5), from each solver");
        assert!(report["disputed"].as_array().unwrap().is_empty());
    }
    // An optimiser for the other format, or a DIMACS family, is refused before any run.
    let (status, _) = race_json(&dir.path().join("opb"), &["rc2"]);
    assert_eq!(status, 1);
    let out = run(&[
        "family",
        "--dim",
        "4",
        "--instance-format",
        "wcnf",
        "--n",
        "2",
        "-o",
        s(&dir.path().join("x")),
    ]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("leave it out"), "{}", stderr(&out));
}

#[test]
fn a_wrong_manifest_optimum_is_disputed_and_an_edited_file_refused() {
    if !have_clasp("a_wrong_manifest_optimum_is_disputed") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let fam = optimisation_family(dir.path(), "fam", "opb", &[]);
    let path = fam.join("manifest.json");
    let mut manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    // d = 4 (a = 2) said to be 1; d = 5 (a = 4) said to be 5.
    manifest["instances"][1]["optimum"] = 1.into();
    manifest["instances"][2]["optimum"] = 5.into();
    std::fs::write(&path, manifest.to_string()).unwrap();
    let (status, report) = race_json(&fam, &["clasp"]);
    assert_eq!(status, 0, "disputes do not change the exit code: {report}");
    let runs = report["runs"].as_array().unwrap();
    assert_eq!(runs[1]["verdict"], "sat", "its board of 2 is validated");
    assert_eq!(
        runs[2]["verdict"], "disputed",
        "an unchecked claim of 4 against the manifest's 5"
    );
    let disputed = report["disputed"].as_array().unwrap();
    assert_eq!(disputed.len(), 2, "{report}");
    let details: Vec<&str> = disputed
        .iter()
        .map(|d| d["detail"].as_str().unwrap())
        .collect();
    assert!(
        details[0].contains("validated board of size 2: the manifest is wrong"),
        "{details:?}"
    );
    assert!(
        details[1].contains("clasp claimed 4 without a checked proof"),
        "{details:?}"
    );
    // With --check-unsat the claim of 4 is proven: the manifest is wrong there too.
    let out = run(&[
        "-q",
        "race",
        "--check-unsat",
        s(&fam),
        "--backend",
        "clasp",
        "--format",
        "json",
    ]);
    let report = crate::util::json(&out);
    assert_eq!(report["runs"][2]["verdict"], "sat", "{report}");
    assert!(report["disputed"][1]["detail"]
        .as_str()
        .unwrap()
        .contains("proved 5 impossible"));

    // A file edited after the family was written (its hash updated too) is not pq-sat's
    // export of the problem its header names: refused before any run.
    let file = fam.join(manifest["instances"][0]["file"].as_str().unwrap());
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replacen(">= 1 ;", ">= 0 ;", 1);
    std::fs::write(&file, &text).unwrap();
    manifest["instances"][0]["sha256"] = pq_io::hashing::sha256_hex(text.as_bytes()).into();
    std::fs::write(&path, manifest.to_string()).unwrap();
    let out = run(&["race", s(&fam), "--backend", "clasp"]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("not pq-sat"), "{}", stderr(&out));
}

#[test]
fn a_problem_family_takes_its_optimum_from_pq_sats_own_optimiser() {
    let dir = tempfile::tempdir().unwrap();
    let problem = concat!(env!("CARGO_MANIFEST_DIR"), "/encodings/three-armies.toml");
    let fam = dir.path().join("fam");
    let args = [
        "-q",
        "family",
        "--problem",
        problem,
        "--set",
        "board=4..5",
        "--instance-format",
        "wcnf",
        "--verify",
        "60",
        "-o",
        s(&fam),
    ];
    let out = run(&args);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(fam.join("manifest.json")).unwrap()).unwrap();
    for (e, board) in manifest["instances"]
        .as_array()
        .unwrap()
        .iter()
        .zip(["4x4", "5x5"])
    {
        // pq-sat's own optimisation of the same problem is the expectation.
        let own = run(&[
            "solve",
            "--problem",
            problem,
            "--set",
            &format!("board={board}"),
            "--format",
            "json",
        ]);
        assert_eq!(e["optimum"], crate::util::json(&own)["optimum"], "{e}");
        assert!(e["source"].as_str().unwrap().contains("optimiser"), "{e}");
        assert!(
            e["file"]
                .as_str()
                .unwrap()
                .ends_with("-max-lines-totalizer-lex-leader.wcnf"),
            "{e}"
        );
    }
    let readme = std::fs::read_to_string(fam.join("README.md")).unwrap();
    assert!(readme.contains("an optimisation family (wcnf)"), "{readme}");
    // Without --verify a problem family has no optimum to record: written all the same.
    let out = run(&[
        "-q",
        "family",
        "--problem",
        problem,
        "--set",
        "board=4",
        "--instance-format",
        "opb",
        "-o",
        s(&dir.path().join("bare")),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}
