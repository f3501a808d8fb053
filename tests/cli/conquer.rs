//! Conquering cube directories: `solve-cube`, `conquer`, `cube-status`, GNU parallel and
//! Slurm, and the checked bundle (cube proofs and the completeness proof).
//!
//! The splitter (`pq-sat cube`) is not needed here: [`cube_dir`] writes a cube directory
//! by hand, with the formula from `pq-sat encode` and the simplest complete cube set there
//! is, every sign pattern of the first `k` variables (the first `k` white-queen squares),
//! so that exactly one cube holds each assignment of those variables.

use serde_json::{json, Value};
use std::path::Path;

use crate::util::{code, json, run, s, stderr, stdout};

/// Every sign pattern over variables 1..=k, as cubes with ids 1..=2^k.
fn all_patterns(k: u32) -> Vec<Vec<i32>> {
    (0..1u32 << k)
        .map(|bits| {
            (1..=k as i32)
                .map(|v| if bits >> (v - 1) & 1 == 1 { v } else { -v })
                .collect()
        })
        .collect()
}

/// Writes a cube directory at `dir` for the queens on `d`×`d` with `n` of each colour, its
/// formula from `pq-sat encode` and `cubes` as its cubes; returns the number of cubes.
fn cube_dir_with(dir: &Path, d: usize, n: usize, cubes: &[Vec<i32>]) -> usize {
    std::fs::create_dir_all(dir).unwrap();
    let formula = dir.join("formula.cnf");
    crate::util::encode_to(&d.to_string(), &n.to_string(), &formula);
    write_manifest(dir, &format!("the queens, {n} of each on {d}x{d}"), cubes);
    cubes.len()
}

/// Writes `dir/manifest.json` for the `formula.cnf` already there.
fn write_manifest(dir: &Path, problem: &str, cubes: &[Vec<i32>]) {
    let formula = dir.join("formula.cnf");
    let hashed = json(&run(&["hash", "--format", "json", s(&formula)]));
    let text = std::fs::read_to_string(&formula).unwrap();
    let header = text.lines().find(|l| l.starts_with("p cnf")).unwrap();
    let sizes: Vec<u64> = header[6..]
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    let cubes: Vec<Value> = (cubes.iter().enumerate())
        .map(|(i, lits)| json!({"id": i + 1, "lits": lits}))
        .collect();
    let manifest = json!({
        "format": "pq-sat cubes 1",
        "generator": "tests/cli/conquer.rs",
        "command": "by hand",
        "formula": "formula.cnf",
        "icnf": "cubes.icnf",
        "sha256": hashed[0]["sha256"],
        "gbd": hashed[0]["gbd"],
        "variables": sizes[0],
        "clauses": sizes[1],
        "problem": problem,
        "split": {"how": "every sign pattern of the first variables"},
        "cubes": cubes,
    });
    std::fs::write(
        dir.join("manifest.json"),
        serde_json::to_string_pretty(&manifest).unwrap(),
    )
    .unwrap();
}

/// A cube directory of every sign pattern over the first `k` variables.
fn cube_dir(dir: &Path, d: usize, n: usize, k: u32) -> usize {
    cube_dir_with(dir, d, n, &all_patterns(k))
}

fn result_json(dir: &Path, id: usize) -> Value {
    let path = dir.join("results").join(format!("{id}.json"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn result_count(dir: &Path) -> usize {
    match std::fs::read_dir(dir.join("results")) {
        Ok(entries) => entries
            .filter(|e| {
                let name = e.as_ref().unwrap().file_name();
                let name = name.to_string_lossy();
                name.ends_with(".json") && !name.starts_with('.')
            })
            .count(),
        Err(_) => 0,
    }
}

#[test]
fn solve_cube_records_unsat_cubes_and_a_validated_sat_cube() {
    let tmp = tempfile::tempdir().unwrap();
    // a(5) = 4: five of each do not fit, so every cube is UNSAT.
    let unsat = tmp.path().join("unsat");
    let count = cube_dir(&unsat, 5, 5, 2);
    for id in 1..=count {
        let out = run(&["solve-cube", s(&unsat), &id.to_string(), "--format", "json"]);
        assert_eq!(code(&out), 20, "{}", stderr(&out));
        let report = json(&out);
        assert_eq!(report["status"], "unsat");
        assert_eq!(report["recorded"], true);
        let r = result_json(&unsat, id);
        assert_eq!(
            (r["id"].as_u64(), r["status"].as_str()),
            (Some(id as u64), Some("unsat"))
        );
        assert_eq!(r["verified"], false);
        assert!(r["worker"].as_str().unwrap().contains(':'));
    }
    // Four of each fit: some cube has a model, decoded and validated into a board.
    let sat = tmp.path().join("sat");
    let count = cube_dir(&sat, 5, 4, 2);
    let mut boards = 0;
    for id in 1..=count {
        let out = run(&["solve-cube", s(&sat), &id.to_string()]);
        match code(&out) {
            10 => {
                boards += 1;
                let text = stdout(&out);
                assert!(text.starts_with(&format!("cube {id}: SAT")), "{text}");
                assert_eq!(text.matches('W').count(), 4, "{text}");
                let r = result_json(&sat, id);
                let model: Vec<i64> = serde_json::from_value(r["model"].clone()).unwrap();
                // Only the piece variables are kept: the 4 + 4 queens of the trimmed
                // board or more (the solver may place extra ones).
                assert!(model.len() >= 8 && model.iter().all(|&v| (1..=50).contains(&v)));
                // The cube's own piece literals hold in the model.
                let cube = &all_patterns(2)[id - 1];
                for &l in cube {
                    assert_eq!(model.contains(&(l.abs() as i64)), l > 0, "cube {cube:?}");
                }
            }
            20 => {}
            other => panic!("exit {other}: {}", stderr(&out)),
        }
    }
    assert!(boards >= 1, "no cube of a satisfiable formula was SAT");
}

#[test]
fn solve_cube_runs_external_solvers_and_checks_their_unsat() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cubes");
    cube_dir(&dir, 5, 5, 1);
    let out = run(&[
        "solve-cube",
        s(&dir),
        "1",
        "--backend",
        "kissat",
        "--check-unsat",
    ]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    assert!(stdout(&out).contains("proof checked"), "{}", stdout(&out));
    let r = result_json(&dir, 1);
    assert_eq!(
        (r["solver"].as_str(), r["verified"].as_bool()),
        (Some("kissat"), Some(true))
    );
    // Any competition-style command, the cube as unit clauses of the CNF it is given.
    let out = run(&[
        "solve-cube",
        s(&dir),
        "2",
        "--solver-cmd",
        "cadical -q",
        "--exit-zero",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(result_json(&dir, 2)["status"], "unsat");
    // --resume: a decided cube is not solved again.
    let before = std::fs::read_to_string(dir.join("results/2.json")).unwrap();
    let out = run(&["solve-cube", s(&dir), "2", "--resume"]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    assert!(stdout(&out).contains("already decided"), "{}", stdout(&out));
    assert_eq!(
        before,
        std::fs::read_to_string(dir.join("results/2.json")).unwrap()
    );
}

#[test]
fn a_formula_without_pq_sat_header_gets_the_clause_check_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("plain");
    std::fs::create_dir(&dir).unwrap();
    // (x1 or x2) and (not x1 or x2): x2 must be true.
    std::fs::write(dir.join("formula.cnf"), "p cnf 2 2\n1 2 0\n-1 2 0\n").unwrap();
    write_manifest(&dir, "a small formula", &all_patterns(2));
    let outcomes: Vec<i32> = (1..=4)
        .map(|id| code(&run(&["solve-cube", s(&dir), &id.to_string()])))
        .collect();
    // Cubes 3 and 4 set x2; 1 and 2 do not.
    assert_eq!(outcomes, [20, 20, 10, 10]);
    let model = &result_json(&dir, 3)["model"];
    assert_eq!(model, &json!([-1, 2]), "every variable's literal is kept");
    let out = run(&["cube-status", s(&dir), "--format", "json"]);
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    assert_eq!(json(&out)["status"], "sat");
}

#[test]
fn solve_cube_refuses_bad_input_with_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cubes");
    cube_dir(&dir, 4, 3, 1);
    let out = run(&["solve-cube", s(&dir), "9"]);
    crate::util::assert_fails_saying(&out, 1, "no cube 9: the directory has cubes 1 to 2");
    let out = run(&["solve-cube", s(&tmp.path().join("nowhere")), "1"]);
    crate::util::assert_fails_saying(&out, 1, "no such cube directory");
    let out = run(&["solve-cube", s(tmp.path()), "1"]);
    crate::util::assert_fails_saying(&out, 1, "not a cube directory");
    let out = run(&[
        "solve-cube",
        s(&dir),
        "1",
        "--backend",
        "minisat",
        "--proof",
    ]);
    crate::util::assert_fails_saying(&out, 2, "cannot write DRAT proofs");
    // A formula changed after the split.
    let formula = dir.join("formula.cnf");
    let text = std::fs::read_to_string(&formula).unwrap();
    std::fs::write(&formula, text.replace("c dim 4", "c dim 4 ")).unwrap();
    let out = run(&["solve-cube", s(&dir), "1"]);
    crate::util::assert_fails_saying(&out, 1, "the formula was changed after it was split");
    assert_eq!(result_count(&dir), 0, "nothing was recorded");
}
