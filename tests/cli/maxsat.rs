//! The optimisation as MaxSAT (WCNF) and pseudo-Boolean (OPB) files, and the external
//! optimisers that solve them (issue 13, points 3 and 6): `encode --format wcnf|opb`, files
//! PySAT reads unchanged (decoded with their own `c var` lines, the board checked by pq-sat's
//! validator), and the optimum of each export against a(d) (OEIS A250000).
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
                .filter_map(|l| l.strip_prefix("o "))
                .last()
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
