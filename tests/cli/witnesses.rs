//! The witness boards kept as data (docs/witnesses/) pass `scripts/check-witness.py`, a
//! checker written from the problems' statements alone; the checker passes its own
//! self-test (hand-made boards and a brute-force a(1..4)) and refuses broken copies.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn checker(args: &[&Path]) -> Output {
    Command::new("python3")
        .arg(root().join("scripts/check-witness.py"))
        .args(args)
        .output()
        .expect("python3 runs")
}

fn witnesses() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("docs/witnesses"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

#[test]
fn the_checker_passes_its_own_self_test() {
    let out = Command::new("python3")
        .arg(root().join("scripts/check-witness.py"))
        .arg("--self-test")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
}

#[test]
fn every_witness_kept_passes_the_independent_checker() {
    let files = witnesses();
    assert!(files.len() >= 4, "{files:?}");
    let paths: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let out = checker(&paths);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("ok")).count(),
        files.len()
    );
}

#[test]
fn a_broken_witness_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let file = root().join("docs/witnesses/A250000-19.json");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let rows: Vec<String> = v["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect();
    let write = |name: &str, v: &serde_json::Value| {
        let path = tmp.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, v.to_string()).unwrap();
        path
    };
    // One more queen claimed than the board holds.
    let mut more = v.clone();
    more["n"] = 53.into();
    // A white queen moved onto an empty square in a black queen's row.
    let r = rows.iter().position(|r| r.contains('B')).unwrap();
    let (from_r, from_c) = rows
        .iter()
        .enumerate()
        .find_map(|(i, row)| row.find('W').map(|c| (i, c)))
        .unwrap();
    let to_c = rows[r].find('.').unwrap();
    let mut moved = rows.clone();
    moved[from_r].replace_range(from_c..=from_c, ".");
    moved[r].replace_range(to_c..=to_c, "W");
    let mut attacked = v.clone();
    attacked["board"] = moved.into();
    // The board of a(19) named as a(18)'s.
    for (name, broken, needle) in [
        ("A250000-19.json", write("A250000-19.json", &more), "53"),
        (
            "A250000-19.json",
            write("x/A250000-19.json", &attacked),
            "share",
        ),
        ("A250000-18.json", write("A250000-18.json", &v), "rows"),
    ] {
        let out = checker(&[&broken]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{name}: {text}");
        assert!(
            text.starts_with("FAIL") && text.contains(needle),
            "{name}: {text}"
        );
    }
}

/// `scripts/fix-board.py` fixes a board into the formula pq-sat wrote for its problem: a
/// solution comes back from `solve --cnf` as itself, validated; a board with an attack makes
/// the fixed formula UNSAT.
#[test]
fn a_board_fixed_into_its_formula_comes_back_as_the_answer() {
    use crate::util::{code, run, stdout};
    let tmp = tempfile::tempdir().unwrap();
    let cnf = tmp.path().join("t.cnf");
    let torus = root().join("encodings/peaceable-queens-torus.toml");
    let step = |command: &str, rest: &[&str]| {
        let mut args = vec![command, "--problem", torus.to_str().unwrap()];
        args.extend(["--set", "board=8x8", "--n", "8"]);
        args.extend(rest);
        run(&args)
    };
    let out = step(
        "encode",
        &["--symmetry", "none", "-o", cnf.to_str().unwrap()],
    );
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    // The board: one the line engine finds (t(8) = 8), not one made by hand.
    let found = step("solve", &["--format", "json"]);
    assert_eq!(code(&found), 10);
    let answer: serde_json::Value = serde_json::from_str(&stdout(&found)).unwrap();
    let rows: Vec<String> = answer["placement"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect();
    let fix = |rows: &[String], name: &str| {
        let board = tmp.path().join(format!("{name}.txt"));
        std::fs::write(&board, rows.join("\n") + "\n").unwrap();
        let out = Command::new("python3")
            .arg(root().join("scripts/fix-board.py"))
            .args([&cnf, &board])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let fixed = tmp.path().join(format!("{name}.cnf"));
        std::fs::write(&fixed, &out.stdout).unwrap();
        run(&[
            "solve",
            "--cnf",
            fixed.to_str().unwrap(),
            "--format",
            "json",
        ])
    };
    let back = fix(&rows, "good");
    assert_eq!(code(&back), 10, "{}", String::from_utf8_lossy(&back.stderr));
    let back: serde_json::Value = serde_json::from_str(&stdout(&back)).unwrap();
    assert_eq!(back["placement"], answer["placement"]);
    // A black queen added in a row that holds a white one: an attack, so no model.
    let mut broken = rows.clone();
    let r = (0..8).find(|&r| rows[r].contains('W')).unwrap();
    let spot = rows[r].find('.').unwrap();
    broken[r].replace_range(spot..=spot, "B");
    assert_eq!(code(&fix(&broken, "broken")), 20);
}
