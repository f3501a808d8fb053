//! Adversarial tests: claims (see mod.rs). A certificate's claim is derived from its files,
//! never read (class 1); hostile numbers in a manifest are refused, not a panic (class 1,
//! class 7's `unsat.n`); a race blames a solver only on checked evidence, and a manifest
//! that a solver contradicts makes the instance "disputed" (class 3); manifests name only
//! plain files in their own directory, each once, with a known status (class 21).

use std::path::Path;

use serde_json::Value;

use crate::util::{
    assert_fails_saying, code, copy_dir, edit_json, encode_to, json, run, s, stderr, stdout,
};

/// An edit of a manifest.
type Edit<'a> = &'a dyn Fn(&mut Value);

/// A named tampering: the edit, and what the refusal must say.
type Case<'a> = (&'a str, Edit<'a>, &'a str);

/// The bundle of `solve --dim 5 --certify` in `root/c5`.
fn bundle(root: &Path) -> std::path::PathBuf {
    let dir = root.join("c5");
    let out = run(&["solve", "--dim", "5", "--certify", s(&dir)]);
    assert_eq!(code(&out), 30, "{}", stderr(&out));
    dir
}

/// No panic, no backtrace: pq-sat refused with its own words.
fn no_panic(out: &std::process::Output) {
    let err = stderr(out);
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "{err}"
    );
}

/// Class 1: `check-certificate` prints only the claim it derived; any field of
/// certificate.json that disagrees with the files is a failed check and exit 1.
#[test]
fn check_certificate_derives_the_claim_and_refuses_any_other_text() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = bundle(tmp.path());
    let out = run(&["check-certificate", s(&dir)]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(stdout(&out).contains("valid: a(5) = 4 (4 white and 4 black queens fit"));

    let tampered: &[Case] = &[
        // The review's reproductions.
        (
            "claim",
            &|m| m["claim"] = "a(5) = 7".into(),
            "the manifest's claim follows from the files: the manifest says \"a(5) = 7\", the files show \"a(5) = 4\"",
        ),
        (
            "certified_formula",
            &|m| {
                m["unsat"]["certified_formula"] =
                    "the plain encoding (colouring model, totalizer cardinality, without symmetry breaking)".into();
            },
            "the manifest's unsat.certified_formula follows from the files",
        ),
        (
            "statement",
            &|m| {
                let t = m["statement"].as_str().unwrap().replace("5 do not", "6 do not");
                m["statement"] = t.into();
            },
            "the manifest's statement follows from the files",
        ),
        (
            "counts",
            &|m| m["witness"]["white"] = 5.into(),
            "the manifest's witness.white follows from the files: the manifest says 5, the files show 4",
        ),
        (
            "variables",
            &|m| m["unsat"]["variables"] = 1.into(),
            "the manifest's unsat.variables follows from the files",
        ),
        (
            "symmetry_group",
            &|m| m["unsat"]["symmetry_group"] = Value::Null,
            "the manifest's unsat.symmetry_group follows from the files",
        ),
        (
            "problem beside dim",
            &|m| m["problem"] = "name = \"a(5) = 7\"".into(),
            "the problem",
        ),
    ];
    for (name, edit, expect) in tampered {
        let copy = tmp.path().join(name.replace(' ', "-"));
        copy_dir(&dir, &copy);
        edit_json(&copy.join("certificate.json"), *edit);
        let out = run(&["check-certificate", s(&copy)]);
        assert_eq!(code(&out), 1, "{name}: {}", stdout(&out));
        let text = stdout(&out);
        assert!(text.contains(expect), "{name}: {text}");
        assert!(text.contains("INVALID: the bundle in"), "{name}: {text}");
        assert!(!text.contains("valid: a(5)"), "{name}: {text}");
        assert!(!text.contains("a(5) = 7\n"), "{name}: {text}");
        let v = json(&run(&["check-certificate", s(&copy), "--format", "json"]));
        assert_eq!(v["valid"], false, "{name}");
        assert_ne!(v["claim"], "a(5) = 7", "{name}: the claim shown is derived");
    }
}

/// Class 1 (and 7): hostile numbers in certificate.json are refused with a clear line,
/// never a panic.
#[test]
fn check_certificate_refuses_hostile_numbers() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = bundle(tmp.path());
    let huge: &[Case] = &[
        (
            "n",
            &|m| m["unsat"]["n"] = Value::from(1u64 << 63),
            "the manifest's sizes: unsat.n must be a whole number from 0 to 4096 (got 9223372036854775808)",
        ),
        (
            "optimum",
            &|m| m["optimum"] = Value::from(usize::MAX),
            "the manifest's sizes: optimum must be a whole number from 0 to 4096 (got 18446744073709551615)",
        ),
        (
            // Within the limit on any count, beyond this board.
            "optimum-1000",
            &|m| m["optimum"] = Value::from(1000),
            "the optimum fits on the board: the manifest's optimum is 1000, but the board has 25 squares",
        ),
        (
            "both",
            &|m| {
                m["optimum"] = Value::from((1u64 << 63) - 1);
                m["unsat"]["n"] = Value::from(1u64 << 63);
            },
            "the manifest's sizes: optimum must be a whole number from 0 to 4096",
        ),
        (
            "dim",
            &|m| m["dim"] = Value::from(usize::MAX),
            "is not a board size pq-sat handles",
        ),
    ];
    for (name, edit, expect) in huge {
        let copy = tmp.path().join(name);
        copy_dir(&dir, &copy);
        edit_json(&copy.join("certificate.json"), *edit);
        let out = run(&["check-certificate", s(&copy)]);
        no_panic(&out);
        assert_eq!(code(&out), 1, "{name}: {}", stdout(&out));
        assert!(stdout(&out).contains(expect), "{name}: {}", stdout(&out));
    }
    // Beyond the JSON field's range: refused when read.
    let copy = tmp.path().join("variables");
    copy_dir(&dir, &copy);
    edit_json(&copy.join("certificate.json"), &|m| {
        m["unsat"]["variables"] = Value::from(u64::MAX);
    });
    let out = run(&["check-certificate", s(&copy)]);
    no_panic(&out);
    assert_fails_saying(&out, 1, "not a pq-sat certificate");
}

/// Class 1 for any problem: the problem text in certificate.json is evidence of nothing
/// either; hostile sizes in it are refused on one line, and a renamed problem is caught.
#[test]
fn check_certificate_of_a_problem_refuses_hostile_problem_text() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("p3");
    let toml = format!("{}/encodings/three-armies.toml", env!("CARGO_MANIFEST_DIR"));
    let out = run(&[
        "solve",
        "--problem",
        &toml,
        "--set",
        "board=4x4",
        "--certify",
        s(&dir),
    ]);
    assert_eq!(code(&out), 30, "{}", stderr(&out));
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "count",
            "count = \"max\"",
            "count = 9223372036854775807",
            "count: number of pieces must be a whole number from 0 to 4096 (got 9223372036854775807)",
        ),
        ("rows", "rows = 4", "rows = 4000000000", "too large"),
        (
            "cols",
            "cols = 4",
            "cols = 18446744073709551615",
            "number too large",
        ),
        (
            "name",
            "name = \"three peaceable armies of queens\"",
            "name = \"three armies\"",
            "the manifest's claim follows from the files",
        ),
    ];
    for (name, from, to, expect) in cases {
        let copy = tmp.path().join(name);
        copy_dir(&dir, &copy);
        edit_json(&copy.join("certificate.json"), &|m| {
            let text = m["problem"].as_str().unwrap().replacen(from, to, 1);
            assert_ne!(m["problem"], text.as_str(), "{name}");
            m["problem"] = text.into();
        });
        let out = run(&["check-certificate", s(&copy)]);
        no_panic(&out);
        assert_eq!(code(&out), 1, "{name}: {}", stdout(&out));
        let text = stdout(&out);
        let fail: Vec<&str> = text.lines().filter(|l| l.starts_with("FAIL")).collect();
        assert!(fail.iter().any(|l| l.contains(expect)), "{name}: {text}");
        assert!(
            text.lines().all(|l| l.starts_with("ok  ")
                || l.starts_with("FAIL")
                || l.starts_with("INVALID")),
            "{name}: one line per check: {text}"
        );
    }
}

/// Class 21: a certificate names only plain files in its own directory, each part its own
/// file, and nothing beyond the fields pq-sat writes.
#[test]
fn certificate_names_only_its_own_files() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = bundle(tmp.path());
    // The same witness one level up, so that only the name check can object.
    std::fs::copy(dir.join("witness.txt"), tmp.path().join("witness.txt")).unwrap();
    let outside = tmp.path().join("witness.txt");
    let proof = json(&run(&["check-certificate", s(&dir), "--format", "json"]));
    assert_eq!(proof["valid"], true);
    let cases: &[(&str, Value, &str)] = &[
        ("dotdot", "../witness.txt".into(), "not a plain file name"),
        ("absolute", s(&outside).into(), "not a plain file name"),
        ("subdir", "./witness.txt".into(), "not a plain file name"),
        ("dot", ".".into(), "not a plain file name"),
        ("newline", "wit\nness.txt".into(), "not a plain file name"),
        ("twice", "unsat-d05-n005.cnf".into(), "named twice"),
    ];
    for (name, file, expect) in cases {
        let copy = tmp.path().join(name);
        copy_dir(&dir, &copy);
        edit_json(&copy.join("certificate.json"), &|m| {
            m["witness"]["file"] = file.clone();
        });
        let out = run(&["check-certificate", s(&copy)]);
        no_panic(&out);
        assert_eq!(code(&out), 1, "{name}");
        let err = stderr(&out);
        assert!(err.contains(expect), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: one line: {err}");
        assert!(stdout(&out).is_empty(), "{name}: {}", stdout(&out));
    }
    let copy = tmp.path().join("extra");
    copy_dir(&dir, &copy);
    edit_json(&copy.join("certificate.json"), &|m| {
        m["unsat"]["note"] = "a(5) = 7, proven".into();
    });
    let out = run(&["check-certificate", s(&copy)]);
    assert_fails_saying(&out, 1, "unknown field `note`");
}

/// `family --dim 5 --n 3..5` in `root/fam`: n = 3, 4 SAT and n = 5 UNSAT.
fn family(root: &Path) -> std::path::PathBuf {
    let dir = root.join("fam");
    let out = run(&["family", "--dim", "5", "--n", "3..5", "-o", s(&dir)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    dir
}

/// Class 3: a wrong manifest does not make a correct solver wrong: the instance is
/// disputed, the solver keeps its time in PAR-2, and the exit code is 0.
#[test]
fn race_disputes_the_manifest_instead_of_blaming_the_solver() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = family(tmp.path());
    // n = 3 (SAT) claimed unsat; n = 5 (UNSAT) claimed sat.
    edit_json(&dir.join("manifest.json"), &|m| {
        m["instances"][0]["expected"] = "unsat".into();
        m["instances"][2]["expected"] = "sat".into();
    });
    let race = [
        "race",
        s(&dir),
        "--backend",
        "kissat",
        "--run-timeout",
        "10",
    ];
    let out = run(&[&race[..], &["--format", "json"]].concat());
    assert_eq!(code(&out), 0, "not a failure: {}", stderr(&out));
    assert!(!stderr(&out).contains("WRONG"), "{}", stderr(&out));
    let v = json(&out);
    let kissat = &v["solvers"][0];
    assert_eq!(kissat["wrong"], 0, "{kissat}");
    assert_eq!(kissat["sat"], 2, "{kissat}");
    assert_eq!(kissat["disputed"], 1, "{kissat}");
    assert!(
        kissat["par2"].as_f64().unwrap() < 20.0,
        "no penalty: {kissat}"
    );
    let verdicts: Vec<&str> = v["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["sat", "sat", "disputed"]);
    let disputed = v["disputed"].as_array().unwrap();
    assert_eq!(disputed.len(), 2, "{v}");
    assert!(disputed[0]["file"].as_str().unwrap().contains("n003"));
    assert!(disputed[0]["detail"]
        .as_str()
        .unwrap()
        .ends_with("the manifest is wrong"));
    assert_eq!(disputed[1]["expected"], "sat");

    let text = stdout(&run(&race));
    assert!(text.contains("disputed: queens-d05-n003"), "{text}");
    assert!(text.contains("disputed: queens-d05-n005"), "{text}");
    assert!(!text.contains("WRONG:"), "{text}");
}

/// Class 3, the other side: an UNSAT that a second solver's checked model refutes is
/// wrong, whatever the manifest says.
#[test]
fn race_still_blames_a_solver_refuted_by_a_checked_model() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = family(tmp.path());
    edit_json(&dir.join("manifest.json"), &|m| {
        m["instances"][0]["expected"] = "unknown".into();
    });
    let liar = crate::util::fake_solver(tmp.path(), "liar", "echo 's UNSATISFIABLE'; exit 20");
    let out = run(&[
        "race",
        s(&dir),
        "--backend",
        "kissat",
        "--backend",
        &liar,
        "--run-timeout",
        "10",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["solvers"][0]["wrong"], 0);
    assert_eq!(v["solvers"][1]["wrong"], 2, "{}", v["solvers"][1]);
    assert_eq!(v["solvers"][1]["disputed"], 0);
    assert_eq!(v["disputed"].as_array().unwrap().len(), 0, "{v}");
}

/// Class 21: a family manifest names only plain files in its directory, each once, with
/// an expected status of sat, unsat or unknown (and the sizes its file has).
#[test]
fn race_refuses_a_manifest_with_bad_names_statuses_or_duplicates() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = family(tmp.path());
    let first: String = {
        let m: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap())
                .unwrap();
        m["instances"][0]["file"].as_str().unwrap().into()
    };
    // A copy of the first instance outside the family, so that its hash matches.
    std::fs::copy(dir.join(&first), tmp.path().join(&first)).unwrap();
    let outside = s(&tmp.path().join(&first)).to_string();
    type Owned = (&'static str, Box<dyn Fn(&mut Value)>, String);
    let cases: Vec<Owned> = vec![
        (
            "maybe",
            Box::new(|m| m["instances"][0]["expected"] = "maybe".into()),
            "unknown variant `maybe`, expected one of `sat`, `unsat`, `unknown`".into(),
        ),
        (
            "dotdot",
            Box::new({
                let f = first.clone();
                move |m| m["instances"][0]["file"] = format!("../{f}").into()
            }),
            "not a plain file name".into(),
        ),
        (
            "absolute",
            Box::new({
                let o = outside.clone();
                move |m| m["instances"][0]["file"] = o.clone().into()
            }),
            "not a plain file name".into(),
        ),
        (
            "variables",
            Box::new(|m| m["instances"][0]["variables"] = 1.into()),
            "manifest.json says 1 variables and 976 clauses, the file has 365 and 976".into(),
        ),
        (
            "duplicate",
            Box::new(|m| {
                let e = m["instances"][0].clone();
                m["instances"].as_array_mut().unwrap().push(e);
            }),
            format!("'{first}' is named twice"),
        ),
    ];
    for (name, edit, expect) in &cases {
        let copy = tmp.path().join(name);
        copy_dir(&dir, &copy);
        edit_json(&copy.join("manifest.json"), edit.as_ref());
        let out = run(&[
            "race",
            s(&copy),
            "--backend",
            "kissat",
            "--run-timeout",
            "10",
        ]);
        no_panic(&out);
        assert_eq!(code(&out), 1, "{name}: {}", stdout(&out));
        let err = stderr(&out);
        assert!(err.contains(expect), "{name}: {err}");
        assert!(err.contains("manifest.json"), "{name}: {err}");
        assert_eq!(
            err.lines().count(),
            1,
            "{name}: one line, before any run: {err}"
        );
        assert!(stdout(&out).is_empty(), "{name}");
    }
}

/// A plausible lie in a header (`c dim 6` in a 5x5 file) is caught by the variable map it
/// contradicts, never reported as a 6x6 board.
#[test]
fn a_header_stating_a_larger_board_than_its_map_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("q.cnf");
    crate::util::encode_to("5", "4", &path);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("c dim 5\n", "c dim 6\n")).unwrap();
    let out = run(&["solve", "--cnf", s(&path), "--format", "json"]);
    assert_fails_saying(&out, 1, "covers 5x5: the header is wrong");
}

/// `check-proof CNF CERT` with a whole step's formula demands that step's claim of the
/// certificate (it once compared it with an empty cube and refused the step's own); with a
/// formula of another step it refuses, naming both claims.
#[test]
fn check_proof_reads_a_whole_steps_claim_from_its_formula() {
    let tmp = tempfile::tempdir().unwrap();
    let (cert, own, other) = (
        tmp.path().join("s.search"),
        tmp.path().join("q5.cnf"),
        tmp.path().join("q6.cnf"),
    );
    let out = run(&[
        "solve",
        "--dim",
        "5",
        "--n",
        "5",
        "--proof",
        s(&cert),
        "--proof-format",
        "search",
    ]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    encode_to("5", "5", &own);
    encode_to("6", "6", &other);
    let out = run(&["check-proof", s(&own), s(&cert)]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    let out = run(&["check-proof", s(&other), s(&cert)]);
    assert_eq!(code(&out), 1, "{}{}", stdout(&out), stderr(&out));
    let said = stdout(&out) + &stderr(&out);
    assert!(
        said.contains("expected board square 6 armies 6 6"),
        "{said}"
    );
}
