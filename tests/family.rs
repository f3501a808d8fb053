//! Benchmark families and solver races, end to end through the real binary: the manifest
//! must match the files (hashes by the system's `sha256sum`, sizes by each file's `p cnf`
//! line, statuses by brute force), and a race must flag a lying solver.

mod common;

mod oracle;

use common::*;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// `(variables, clauses)` from a DIMACS file's `p cnf` line.
fn header(path: &Path) -> (u64, u64) {
    let text = std::fs::read_to_string(path).unwrap();
    let line = text.lines().find(|l| l.starts_with("p cnf")).unwrap();
    let nums: Vec<u64> = line[5..]
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    (nums[0], nums[1])
}

fn sha256sum(path: &Path) -> String {
    let out = Command::new("sha256sum").arg(path).output().unwrap();
    String::from_utf8(out.stdout).unwrap()[..64].to_string()
}

fn make_family(dir: &Path, extra: &[&str]) -> Value {
    let dir = dir.to_str().unwrap();
    let mut args = vec![
        "family",
        "--dims",
        "4..6",
        "--around-optimum",
        "2",
        "--symmetry",
        "lex-leader,none",
        "-o",
        dir,
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let out = run(&args);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    json(&out)
}

#[test]
fn family_manifest_matches_the_files() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("fam");
    let manifest = make_family(&dir, &[]);
    let instances = manifest["instances"].as_array().unwrap();
    // 3 board sizes × 4 army sizes × 2 symmetry settings.
    assert_eq!(instances.len(), 24);

    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".cnf"))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = instances
        .iter()
        .map(|e| e["file"].as_str().unwrap().to_string())
        .collect();
    listed.sort();
    assert_eq!(
        on_disk, listed,
        "every file is listed once, nothing else is there"
    );

    let mut sat = 0;
    for e in instances {
        let path = dir.join(e["file"].as_str().unwrap());
        assert_eq!(e["sha256"].as_str().unwrap(), sha256sum(&path));
        let (vars, clauses) = header(&path);
        assert_eq!(e["variables"].as_u64().unwrap(), vars);
        assert_eq!(e["clauses"].as_u64().unwrap(), clauses);
        let (d, n) = (
            e["dim"].as_u64().unwrap() as usize,
            e["n"].as_u64().unwrap() as usize,
        );
        let expected = if oracle::feasible(d, n) {
            "sat"
        } else {
            "unsat"
        };
        assert_eq!(e["expected"], expected, "{e}");
        sat += usize::from(expected == "sat");
    }
    assert_eq!(sat, 12, "k = 2 sizes on each side of the optimum");

    // The CSV says the same as the JSON.
    let csv = std::fs::read_to_string(dir.join("manifest.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "file,dim,n,model,card,symmetry,variables,clauses,expected,source,sha256"
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 24);
    for (row, e) in rows.iter().zip(instances) {
        assert!(row.starts_with(e["file"].as_str().unwrap()), "{row}");
        assert!(row.ends_with(e["sha256"].as_str().unwrap()), "{row}");
    }
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(
        readme.contains("12 satisfiable, 12 unsatisfiable, 0 unknown"),
        "{readme}"
    );
}

#[test]
fn family_verify_records_pq_sats_own_proofs() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("fam");
    let out = run(&[
        "family",
        "--dims",
        "17",
        "--n",
        "1..2",
        "--verify",
        "20",
        "-o",
        dir.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v = json(&out);
    for e in v["instances"].as_array().unwrap() {
        // a(17) is not in the table: only pq-sat's own solution can give the status.
        assert_eq!(e["expected"], "sat");
        assert!(e["source"].as_str().unwrap().starts_with("pq-sat"), "{e}");
        assert!(e["source"].as_str().unwrap().contains("witness validated"));
    }
    // Without --verify the same family has unknown statuses.
    let dir2 = tmp.path().join("fam2");
    let out = run(&[
        "family",
        "--dims",
        "17",
        "--n",
        "1..2",
        "-o",
        dir2.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0);
    assert!(json(&out)["instances"]
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e["expected"] == "unknown" && e["source"] == ""));
}

#[test]
fn family_bad_requests_are_clear_and_leave_nothing_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("fam");
    let d = dir.to_str().unwrap();
    let out = run(&["family", "--dims", "16", "-o", d]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("a(16) is not proven"),
        "{}",
        stderr(&out)
    );
    for (args, msg) in [
        (vec!["family", "--dims", "9..4", "-o", d], "empty"),
        (vec!["family", "--dims", "0..3", "-o", d], "at least 1"),
        (vec!["family", "--dims", "8", "--n", "x", "-o", d], "range"),
        (
            vec!["family", "--dims", "8", "--model", "bogus", "-o", d],
            "unknown model",
        ),
        (
            vec!["family", "--dims", "8", "--around-optimum", "0", "-o", d],
            "at least 1",
        ),
        (
            vec!["family", "--dims", "8", "--n", "40..50", "-o", d],
            "empty",
        ),
    ] {
        let out = run(&args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(msg), "{args:?}: {}", stderr(&out));
    }
    assert!(!dir.exists());

    // A non-empty directory is never touched.
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("keep.txt"), "mine").unwrap();
    let out = run(&["family", "--dims", "4", "-o", d]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("not empty"), "{}", stderr(&out));
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert_eq!(left.len(), 1, "no staging directory is left behind");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
}

#[test]
fn race_checks_every_answer_and_flags_liars() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("fam");
    make_family(&dir, &[]);
    let always_sat = fake_solver(
        tmp.path(),
        "always-sat",
        "echo 's SATISFIABLE'; echo 'v 0'; exit 10",
    );
    let always_unsat = fake_solver(
        tmp.path(),
        "always-unsat",
        "echo 's UNSATISFIABLE'; exit 20",
    );
    let plot = tmp.path().join("cactus.svg");
    let out = run(&[
        "race",
        dir.to_str().unwrap(),
        "--solver",
        "kissat",
        "--solver",
        "minisat",
        "--solver",
        "cadical -q",
        "--solver",
        &always_sat,
        "--solver",
        &always_unsat,
        "--timeout",
        "30",
        "--plot",
        plot.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(
        code(&out),
        1,
        "wrong answers make the exit code 1: {}",
        stderr(&out)
    );
    let v = json(&out);
    assert_eq!(v["instances"], 24);
    assert_eq!(v["complete"], true);
    let solvers = v["solvers"].as_array().unwrap();
    for s in &solvers[..3] {
        assert_eq!(s["solved"], 24, "{s}");
        assert_eq!(s["wrong"], 0, "{s}");
        assert!(s["par2"].as_f64().unwrap() < 30.0);
    }
    // Its all-false model violates every instance; the SAT ones too (n ≥ 1 queens needed).
    assert_eq!(solvers[3]["wrong"], 24, "{}", solvers[3]);
    assert_eq!(solvers[3]["par2"].as_f64().unwrap(), 24.0 * 60.0);
    // UNSAT for everything is right on the 12 UNSAT instances only.
    assert_eq!(solvers[4]["wrong"], 12, "{}", solvers[4]);
    assert_eq!(solvers[4]["unsat"], 12);
    assert_eq!(v["runs"].as_array().unwrap().len(), 5 * 24);
    assert!(
        stderr(&out).contains("WRONG ANSWER from"),
        "{}",
        stderr(&out)
    );

    // The cactus plot is well-formed SVG naming every solver.
    let svg = std::fs::read_to_string(&plot).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    assert!(svg.contains("kissat") && svg.contains("always-unsat"));
}

#[test]
fn race_refuses_a_tampered_family() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("fam");
    let manifest = make_family(&dir, &[]);
    let first = manifest["instances"][0]["file"].as_str().unwrap();
    let path = dir.join(first);
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("1 0\n");
    std::fs::write(&path, text).unwrap();
    let out = run(&["race", dir.to_str().unwrap(), "--solver", "kissat"]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("SHA-256"), "{}", stderr(&out));

    let out = run(&["race", tmp.path().to_str().unwrap(), "--solver", "kissat"]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("manifest.json"), "{}", stderr(&out));
    let out = run(&["race", dir.to_str().unwrap()]);
    assert_eq!(code(&out), 2, "--solver is required");
}
