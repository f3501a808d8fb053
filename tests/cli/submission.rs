//! `pq-sat submission` end to end with the real solvers: every instance written as
//! `.cnf.xz` with the GBD id `pq-sat hash` computes, every status proven (the table, a
//! checked DRAT proof, a validated model or the line engine's witness) and agreeing with
//! the known optima, the grades and the extrapolation of a hard instance, the description as
//! Markdown and PDF, the directory raced again by `pq-sat race`; and bad pools and solvers
//! refused before anything is written.

use crate::util::*;
use std::path::Path;

use serde_json::Value;

/// The repository's encodings directory (the problem files a pool names).
fn encodings() -> String {
    format!("{}/encodings", env!("CARGO_MANIFEST_DIR"))
}

/// A pool file in `dir` with `body`, its problem files named relative to the repository.
fn pool(dir: &Path, body: &str) -> String {
    pool_named(dir, "pool.toml", body)
}

fn pool_named(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, body.replace("ENC", &encodings())).unwrap();
    path.to_str().unwrap().to_string()
}

const SMALL: &str = r#"
[[instance]]
series = "queens, a(d) + 1"
problem = "peaceable-queens"
dim = 4
n = 3

[[instance]]
series = "queens, a(d) + 1"
problem = "peaceable-queens"
dim = 7
n = 8

[[instance]]
series = "queens, a(d) + 1"
problem = "peaceable-queens"
dim = 12
n = 22

[[instance]]
series = "queens, a(d)"
problem = "peaceable-queens"
dim = 6
n = 5

[[instance]]
series = "three armies, optimum"
problem = "ENC/three-armies.toml"
set = ["board=6x6"]
n = 2

[[instance]]
series = "three armies, optimum + 1"
problem = "ENC/three-armies.toml"
set = ["board=6x6"]
n = 3

[[instance]]
series = "torus"
problem = "ENC/peaceable-queens-torus.toml"
set = ["board=6x6"]
n = 4

[[instance]]
series = "crowded"
problem = "ENC/crowded-chessboard.toml"
set = ["board=5x5", "queens=5", "rooks=5", "bishops=8"]
n = 6
"#;

fn instances(v: &Value) -> &Vec<Value> {
    v["instances"].as_array().unwrap()
}

#[test]
fn a_submission_is_graded_proven_described_and_races_again() {
    let tmp = tempfile::tempdir().unwrap();
    let pool = pool(tmp.path(), SMALL);
    let dir = tmp.path().join("sub");
    let d = s(&dir);
    let out = run(&[
        "submission",
        "--pool",
        &pool,
        "-o",
        d,
        "--run-timeout",
        "1",
        "--easy",
        "0.5",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v = json(&out);
    let got: Vec<(&str, &str)> = instances(&v)
        .iter()
        .map(|g| {
            (
                g["expected"].as_str().unwrap(),
                g["grade"].as_str().unwrap(),
            )
        })
        .collect();
    // a(4) = 2, a(7) = 7, a(12) = 21, a(6) = 5; three armies on 6x6: 2; the 6x6 torus: 4; the 5x5
    // crowded chessboard: 5 knights.
    let want = [
        "unsat", "unsat", "unsat", "sat", "sat", "unsat", "sat", "unsat",
    ];
    assert_eq!(got.iter().map(|g| g.0).collect::<Vec<_>>(), want, "{v}");
    // 12/22 takes a SAT solver hours: hard, its time extrapolated from d = 4 and 7
    // (hundredths of a second against tenths: the fit rises whatever the noise).
    let hard = &instances(&v)[2];
    assert_eq!(hard["grade"], "hard");
    assert!(hard["extrapolated"].as_f64().unwrap() >= 1.0, "{hard}");
    assert!(
        hard["source"].as_str().unwrap().contains("A250000"),
        "{hard}"
    );
    for (k, g) in instances(&v).iter().enumerate() {
        let source = g["source"].as_str().unwrap();
        if k != 2 {
            assert_ne!(g["grade"], "hard", "{g}");
        }
        match (k, g["expected"].as_str().unwrap()) {
            // The queens' UNSAT rests on the table; the others' on a checked proof.
            (0..=2, _) => assert!(source.contains("A250000"), "{g}"),
            // The three armies' too, on OEIS A328283's.
            (5, _) => assert!(source.contains("A328283"), "{g}"),
            (_, "unsat") => assert!(source.contains("DRAT proof, checked by rate"), "{g}"),
            _ => assert!(source.contains("validated"), "{g}"),
        }
    }
    assert_eq!(v["solvers"], serde_json::json!(["kissat", "cadical-bin"]));

    // Every file is xz with the GBD id that `hash` computes, as the manifest says.
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let files: Vec<String> = instances(&manifest)
        .iter()
        .map(|e| s(&dir.join(e["file"].as_str().unwrap())).to_string())
        .collect();
    assert!(files.iter().all(|f| f.ends_with(".cnf.xz")));
    let mut args = vec!["hash", "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    let hashes = json(&run(&args));
    for (k, h) in hashes.as_array().unwrap().iter().enumerate() {
        assert_eq!(h["gbd"], instances(&v)[k]["gbd"]);
        assert_eq!(h["gbd"], instances(&manifest)[k]["gbd"]);
        assert_eq!(
            instances(&manifest)[k]["expected"],
            instances(&v)[k]["expected"]
        );
    }

    // The description names every instance by its GBD id; the PDF is a PDF.
    let md = std::fs::read_to_string(dir.join("description.md")).unwrap();
    for g in instances(&v) {
        assert!(md.contains(g["gbd"].as_str().unwrap()));
    }
    for needle in ["Bailleux", "Crawford", "A328283", "A279405", "Dudeney", "~"] {
        assert!(md.contains(needle), "{needle}: {md}");
    }
    let pdf = std::fs::read(dir.join("description.pdf")).unwrap();
    assert!(pdf.starts_with(b"%PDF-") && pdf.ends_with(b"%%EOF\n") || pdf.ends_with(b"%%EOF"));

    // The directory is a family: a race on it checks every answer against the statuses.
    let out = run(&["race", d, "--backend", "kissat", "--run-timeout", "20"]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));

    // A second run over it needs --force; with it, the submission is replaced.
    let out = run(&["submission", "--pool", &pool, "-o", d, "--run-timeout", "1"]);
    assert_fails_saying(&out, 1, "--force");
}

#[test]
fn what_no_solver_answers_goes_to_the_table_or_the_line_engine() {
    let tmp = tempfile::tempdir().unwrap();
    // A solver that never answers: every instance is hard.
    let mute = fake_solver(tmp.path(), "mute", "echo 's UNKNOWN'");
    let pool = pool(
        tmp.path(),
        r#"
[[instance]]
series = "q"
problem = "peaceable-queens"
dim = 6
n = 5

[[instance]]
series = "torus"
problem = "ENC/peaceable-queens-torus.toml"
set = ["board=6x6"]
n = 4

[[instance]]
series = "torus"
problem = "ENC/peaceable-queens-torus.toml"
set = ["board=6x6"]
n = 5
"#,
    );
    let dir = tmp.path().join("sub");
    let solver = format!("{mute} {{cnf}} {{proof}}");
    let out = run(&[
        "submission",
        "--pool",
        &pool,
        "-o",
        s(&dir),
        "--backend",
        &solver,
        "--run-timeout",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v = json(&out);
    let g = instances(&v);
    assert!(g
        .iter()
        .all(|g| g["grade"] == "hard" && g.get("extrapolated").is_none()));
    assert_eq!(g[0]["expected"], "sat");
    assert!(g[0]["source"].as_str().unwrap().contains("A250000"));
    assert_eq!(g[1]["expected"], "sat");
    assert!(g[1]["source"]
        .as_str()
        .unwrap()
        .contains("line engine, witness validated"));
    // The engine's UNSAT is an exhaustive search, not a checked proof: left unknown, and said.
    assert_eq!(g[2]["expected"], "unknown");
    assert!(g[2]["source"]
        .as_str()
        .unwrap()
        .contains("without a checked proof"));
    assert!(
        stderr(&out).contains("1 instance(s) have no proven status"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn bad_pools_and_solvers_are_refused_before_anything_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sub");
    let d = s(&dir);
    let pools = tempfile::tempdir().unwrap();
    let made = std::cell::Cell::new(0);
    let one = |body: &str| {
        made.set(made.get() + 1);
        pool_named(pools.path(), &format!("pool-{}.toml", made.get()), body)
    };
    let queens = "[[instance]]\nseries = \"q\"\nproblem = \"peaceable-queens\"\ndim = 5\nn = 4\n";
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["--pool".into(), s(&tmp.path().join("nope.toml")).into()],
            "nope.toml",
        ),
        (
            vec!["--pool".into(), one("[[instance]]\nseries = 1\n")],
            "pool-1.toml",
        ),
        (
            vec!["--pool".into(), one(&format!("{queens}colour = 3\n"))],
            "unknown field",
        ),
        (
            vec!["--pool".into(), one(&queens.replace("n = 4", "n = 13"))],
            "instance 1 (q)",
        ),
        (
            vec!["--pool".into(), one(&queens.replace("dim = 5\n", ""))],
            "needs dim",
        ),
        (
            vec!["--pool".into(), one(&queens.repeat(2))],
            "listed twice",
        ),
        (
            vec![
                "--pool".into(),
                one(&queens.replace("\"peaceable-queens\"\ndim = 5", "\"missing.toml\"")),
            ],
            "missing.toml",
        ),
        (
            vec![
                "--pool".into(),
                one(queens),
                "--backend".into(),
                "minisat".into(),
            ],
            "minisat",
        ),
        (
            vec![
                "--pool".into(),
                one(queens),
                "--run-timeout".into(),
                "30".into(),
                "--easy".into(),
                "90".into(),
            ],
            "--easy 90 is above --run-timeout 30",
        ),
    ];
    for (extra, msg) in cases {
        let mut args = vec!["submission", "-o", d];
        args.extend(extra.iter().map(String::as_str));
        let out = run(&args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(msg), "{args:?}: {}", stderr(&out));
    }
    assert!(!dir.exists());

    // A user's non-empty directory is never touched, and no staging is left behind.
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("keep.txt"), "mine").unwrap();
    let out = run(&[
        "submission",
        "--pool",
        &one(queens),
        "-o",
        d,
        "--run-timeout",
        "1",
    ]);
    assert_fails_saying(&out, 1, "not empty");
    let left: Vec<String> = names(tmp.path());
    assert_eq!(left, ["sub"], "{left:?}");
}

#[test]
fn a_hard_unsat_is_proven_by_a_longer_run_with_a_proof() {
    let tmp = tempfile::tempdir().unwrap();
    // 9 of each colour on the 8x8 torus (the optimum is 8): kissat needs about 1 s, so a
    // race of 0.3 s leaves it hard; the line engine's "no" is no proof, kissat's checked DRAT
    // is. (No table knows the torus.)
    let pool = pool(
        tmp.path(),
        r#"
[[instance]]
series = "torus"
problem = "ENC/peaceable-queens-torus.toml"
set = ["board=8x8"]
n = 9
"#,
    );
    let dir = tmp.path().join("sub");
    let out = run(&[
        "submission",
        "--pool",
        &pool,
        "-o",
        s(&dir),
        "--backend",
        "kissat",
        "--run-timeout",
        "0.3",
        "--prove-timeout",
        "300",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v = json(&out);
    let g = &instances(&v)[0];
    assert_eq!(g["grade"], "hard", "{g}");
    assert_eq!(g["expected"], "unsat", "{g}");
    let source = g["source"].as_str().unwrap();
    assert!(
        source.contains("line engine found no placement"),
        "{source}"
    );
    assert!(
        source.contains("DRAT proof in a longer run, checked by rate"),
        "{source}"
    );
}
