//! Proofs and certificates end to end: every backend that writes proofs produces one that the
//! independent checker verifies; corrupted proofs and tampered certificate bundles are
//! rejected; a SAT answer writes no proof.

use crate::oracle::placement as placement_oracle;

use crate::util::*;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// a(d) for the boards used here (OEIS A250000).
fn a(d: usize) -> usize {
    [0, 0, 0, 1, 2, 4, 5, 7, 9][d]
}

/// Runs `check-proof` and returns (verified, the whole JSON report).
fn check_proof(cnf: &Path, proof: &Path) -> (bool, Value) {
    let out = run(&["check-proof", s(cnf), s(proof), "--format", "json"]);
    let v = json(&out);
    let verified = v["verified"].as_bool().unwrap();
    assert_eq!(code(&out), i32::from(!verified), "{v}");
    (verified, v)
}

/// Flips the sign of the first literal of the first lemma (not a deletion).
fn flip_first_literal(proof: &Path, lrat: bool) -> String {
    let text = std::fs::read_to_string(proof).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let i = lines
        .iter()
        .position(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            // DRAT: `lits 0`, deletions `d ...`; LRAT: `id lits 0 hints 0`, deletions `id d ...`.
            let body = if lrat {
                words.get(1..)
            } else {
                Some(&words[..])
            };
            body.is_some_and(|b| b.first().is_some_and(|w| *w != "d" && *w != "0"))
        })
        .expect("a lemma");
    let mut words: Vec<String> = lines[i].split_whitespace().map(str::to_string).collect();
    let k = usize::from(lrat);
    words[k] = (-words[k].parse::<i64>().unwrap()).to_string();
    lines[i] = words.join(" ");
    lines.join("\n") + "\n"
}

#[test]
fn proofs_from_every_backend_are_verified_and_corruptions_rejected() {
    let tmp = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str)] = &[
        ("kissat", "drat"),
        ("cadical", "drat"),
        ("cadical", "lrat"),
        ("cadical-sat", "drat"),
        ("cadical-unsat", "drat"),
        ("cadical-bin", "drat"),
        ("varisat", "drat"),
    ];
    for d in [5, 6, 7] {
        let n = (a(d) + 1).to_string();
        for &(backend, format) in cases {
            for symmetry in ["lex-leader", "none"] {
                if symmetry == "none" && d == 7 {
                    continue;
                }
                // One stem per format: the CNF beside a proof is an output that is not
                // replaced without --force, and cadical writes both formats.
                let stem = format!("{backend}-{format}-{d}-{symmetry}");
                let proof = tmp.path().join(format!("{stem}.{format}"));
                let cnf = tmp.path().join(format!("{stem}.cnf"));
                let out = run(&[
                    "solve",
                    "--dim",
                    &d.to_string(),
                    "--n",
                    &n,
                    "--backend",
                    backend,
                    "--symmetry",
                    symmetry,
                    "--proof",
                    s(&proof),
                    "--format",
                    "json",
                ]);
                assert_eq!(code(&out), 20, "{stem}: {}", stderr(&out));
                let v = json(&out);
                assert_eq!(v["proof"]["format"], format);
                assert!(v["proof"]["bytes"].as_u64().unwrap() > 0);
                let certifies = v["proof"]["certifies"].as_str().unwrap();
                assert_eq!(certifies.contains("lex-leader"), symmetry == "lex-leader");
                assert!(
                    cnf.exists(),
                    "the CNF the proof refers to is written beside it"
                );
                use std::os::unix::fs::PermissionsExt;
                for f in [&cnf, &proof] {
                    let mode = std::fs::metadata(f).unwrap().permissions().mode() & 0o777;
                    assert_eq!(
                        mode,
                        0o644,
                        "{} is an ordinary, shareable file",
                        f.display()
                    );
                }
                let (verified, report) = check_proof(&cnf, &proof);
                assert!(verified, "{stem}: {report}");
                assert_eq!(report["verdict"], "s VERIFIED");
                assert!(report["seconds"].as_f64().unwrap() > 0.0);

                if d == 6 && symmetry == "lex-leader" {
                    // A literal changed.
                    let bad = tmp.path().join(format!("{stem}-flipped.{format}"));
                    std::fs::write(&bad, flip_first_literal(&proof, format == "lrat")).unwrap();
                    let (verified, report) = check_proof(&cnf, &bad);
                    assert!(!verified, "{stem}: a flipped literal passed: {report}");
                    // Lines removed: the proof cut short.
                    let text = std::fs::read_to_string(&proof).unwrap();
                    let lines: Vec<&str> = text.lines().collect();
                    let cut = tmp.path().join(format!("{stem}-cut.{format}"));
                    std::fs::write(&cut, lines[..lines.len() / 10].join("\n") + "\n").unwrap();
                    let (verified, report) = check_proof(&cnf, &cut);
                    assert!(!verified, "{stem}: a truncated proof passed: {report}");
                }
            }
        }
    }
}

#[test]
fn drat_proof_without_the_empty_clause_is_not_accepted() {
    let tmp = tempfile::tempdir().unwrap();
    let proof = tmp.path().join("p.drat");
    let cnf = tmp.path().join("p.cnf");
    let out = run(&[
        "solve",
        "--dim",
        "6",
        "--n",
        "6",
        "--backend",
        "kissat",
        "--proof",
        s(&proof),
    ]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    let text = std::fs::read_to_string(&proof).unwrap();
    let without: Vec<&str> = text.lines().filter(|l| l.trim() != "0").collect();
    assert!(
        without.len() < text.lines().count(),
        "kissat ends with the empty clause"
    );
    std::fs::write(&proof, without.join("\n") + "\n").unwrap();
    let (verified, report) = check_proof(&cnf, &proof);
    assert!(!verified, "{report}");
    assert!(report["note"].as_str().unwrap().contains("empty clause"));
}

#[test]
fn sat_with_proof_writes_nothing_and_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let proof = tmp.path().join("p.drat");
    for backend in ["kissat", "cadical", "varisat"] {
        let out = run(&[
            "solve",
            "--dim",
            "6",
            "--n",
            "5",
            "--backend",
            backend,
            "--proof",
            s(&proof),
            "--format",
            "json",
        ]);
        assert_eq!(code(&out), 10, "{}", stderr(&out));
        let v = json(&out);
        assert!(v["proof"]["file"].is_null(), "{v}");
        assert!(v["proof"]["note"].as_str().unwrap().contains("no proof"));
        let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
        assert!(left.is_empty(), "{backend} left {left:?}");
    }
    let out = run(&["solve", "--dim", "6", "--n", "5", "--proof", s(&proof)]);
    assert!(
        stdout(&out).contains("no proof written"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn proof_requests_that_cannot_work_are_usage_errors() {
    for (args, msg) in [
        (
            &[
                "solve",
                "--dim",
                "6",
                "--n",
                "6",
                "--backend",
                "minisat",
                "--proof",
                "p.drat",
            ][..],
            "minisat cannot write DRAT proofs",
        ),
        (
            &[
                "solve",
                "--dim",
                "6",
                "--n",
                "6",
                "--backend",
                "kissat",
                "--proof",
                "p.lrat",
            ],
            "kissat cannot write LRAT proofs",
        ),
        (
            &[
                "solve",
                "--dim",
                "6",
                "--n",
                "6",
                "--backend",
                "cadical-sat",
                "--proof",
                "p.lrat",
            ],
            "cadical-sat cannot write LRAT proofs; use --backend cadical",
        ),
        (&["solve", "--dim", "6", "--proof", "p.drat"], "--certify"),
        (
            &["solve", "--dim", "6", "--n", "6", "--proof", "p.cnf"],
            "must not end in .cnf",
        ),
        (
            &[
                "solve",
                "--dim",
                "6",
                "--n",
                "6",
                "--backend",
                "kissat",
                "--backend",
                "cadical",
                "--proof",
                "p.drat",
            ],
            "one --backend",
        ),
    ] {
        let out = run(args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(msg), "{args:?}: {}", stderr(&out));
    }
    let out = run(&["check-proof", "/nonexistent.cnf", "/nonexistent.drat"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("/nonexistent.cnf"),
        "{}",
        stderr(&out)
    );
}

/// The SAT path's bundle (the line engine's is tested in `lines.rs`).
fn certify(dir: &Path, extra: &[&str]) -> Value {
    let mut args = vec![
        "solve",
        "--engine",
        "sat",
        "--dim",
        "6",
        "--certify",
        s(dir),
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let out = run(&args);
    assert_eq!(code(&out), 30, "{}", stderr(&out));
    json(&out)
}

fn check_certificate(dir: &Path) -> (i32, Value) {
    let out = run(&["check-certificate", s(dir), "--format", "json"]);
    (code(&out), json(&out))
}

#[test]
fn certificate_round_trip_and_tampering() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cert");
    let v = certify(&dir, &[]);
    assert_eq!(v["optimum"], 5);
    assert_eq!(v["certificate"]["claim"], "a(6) = 5");
    assert_eq!(v["certificate"]["verdict"], "s VERIFIED");
    let (code_ok, report) = check_certificate(&dir);
    assert_eq!(code_ok, 0, "{report}");
    assert_eq!(report["valid"], true);
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("certificate.json")).unwrap())
            .unwrap();
    assert!(manifest["unsat"]["symmetry_group"]
        .as_str()
        .unwrap()
        .contains("16"));
    assert!(manifest["unsat"]["checker_version"].as_str().is_some());

    // Each tampering, on a fresh copy of the bundle, makes the check fail.
    let tamper = |name: &str, edit: &dyn Fn(&Path)| {
        let copy = tmp.path().join(name);
        std::fs::create_dir(&copy).unwrap();
        for e in std::fs::read_dir(&dir).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), copy.join(e.file_name())).unwrap();
        }
        edit(&copy);
        let (status, report) = check_certificate(&copy);
        assert_eq!(status, 1, "{name}: {report}");
        assert_eq!(report["valid"], false, "{name}");
        report
    };
    let edit_manifest = |dir: &Path, f: &dyn Fn(&mut Value)| {
        let path = dir.join("certificate.json");
        let mut m: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        f(&mut m);
        std::fs::write(&path, serde_json::to_string_pretty(&m).unwrap()).unwrap();
    };
    let proof_name = manifest["unsat"]["proof"].as_str().unwrap().to_string();
    let cnf_name = manifest["unsat"]["cnf"].as_str().unwrap().to_string();

    tamper("witness-file", &|d| {
        let p = d.join("witness.txt");
        let t = std::fs::read_to_string(&p).unwrap().replacen('W', ".", 1);
        std::fs::write(&p, t).unwrap();
    });
    // A board with one queen fewer, hashes updated so that only the validator can object.
    tamper("witness-board", &|d| {
        edit_manifest(d, &|m| {
            let rows = m["witness"]["board"].as_array_mut().unwrap();
            let row = rows
                .iter_mut()
                .find(|r| r.as_str().unwrap().contains('W'))
                .unwrap();
            *row = Value::from(row.as_str().unwrap().replacen('W', ".", 1));
        });
    });
    tamper("claim", &|d| {
        edit_manifest(d, &|m| m["optimum"] = Value::from(4));
    });
    tamper("proof", &|d| {
        let p = d.join(&proof_name);
        std::fs::write(&p, flip_first_literal(&p, false)).unwrap();
    });
    // A genuine proof for a different formula (n = 7 is easier), with the hashes made to
    // match: the hashes pass, the fresh encoding of the claim does not.
    let other = tmp.path().join("other");
    std::fs::create_dir(&other).unwrap();
    let out = run(&[
        "solve",
        "--dim",
        "6",
        "--n",
        "7",
        "--backend",
        "kissat",
        "--proof",
        s(&other.join("o.drat")),
    ]);
    assert_eq!(code(&out), 20);
    let report = tamper("other-formula", &|d| {
        std::fs::copy(other.join("o.cnf"), d.join(&cnf_name)).unwrap();
        std::fs::copy(other.join("o.drat"), d.join(&proof_name)).unwrap();
        let hash = |p: &Path| {
            let out = Command::new("sha256sum").arg(p).output().unwrap();
            String::from_utf8(out.stdout).unwrap()[..64].to_string()
        };
        let (ch, ph) = (hash(&d.join(&cnf_name)), hash(&d.join(&proof_name)));
        // proof_bytes is derived from the proof file too: keep it in step.
        let bytes = std::fs::metadata(d.join(&proof_name)).unwrap().len();
        edit_manifest(d, &|m| {
            m["unsat"]["cnf_sha256"] = Value::from(ch.clone());
            m["unsat"]["proof_sha256"] = Value::from(ph.clone());
            m["unsat"]["proof_bytes"] = Value::from(bytes);
        });
    });
    let failed: Vec<&str> = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["ok"] == false)
        .map(|c| c["check"].as_str().unwrap())
        .collect();
    assert_eq!(failed.len(), 1, "{report}");
    assert!(failed[0].contains("encoding"), "{report}");
}

#[test]
fn certificate_without_symmetry_breaking_certifies_the_plain_encoding() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cert");
    let v = certify(
        &dir,
        &[
            "--symmetry",
            "none",
            "--backend",
            "cadical",
            "--proof-format",
            "lrat",
        ],
    );
    assert!(v["certificate"]["certified_formula"]
        .as_str()
        .unwrap()
        .starts_with("the plain encoding"));
    assert_eq!(v["certificate"]["proof_format"], "lrat");
    let (status, report) = check_certificate(&dir);
    assert_eq!(status, 0, "{report}");

    // A directory that is not empty is refused, and nothing is written into it.
    std::fs::write(tmp.path().join("keep"), "x").unwrap();
    let out = run(&["solve", "--dim", "5", "--certify", s(tmp.path())]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("not empty"), "{}", stderr(&out));
}

/// `--certify` works for any problem that maximises something: three armies, a torus and
/// Dudeney's mixed kinds, each optimum against the brute-force oracle; the bundle re-checks,
/// and a claim or a certified_formula edited in the manifest is caught, as is a witness
/// that breaks the rules.
#[test]
fn certificates_for_placement_problems() {
    use pq_encode::spec::Problem;
    let tmp = tempfile::tempdir().unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    let cases: &[(&str, &[&str])] = &[
        ("three-armies.toml", &["board=4x4"]),
        ("peaceable-queens-torus.toml", &["board=4x5"]),
        (
            "crowded-chessboard.toml",
            &["board=4x4", "queens=2", "rooks=2", "bishops=2"],
        ),
    ];
    for (i, (file, sets)) in cases.iter().enumerate() {
        let path = format!("{root}/encodings/{file}");
        let mut problem = Problem::from_toml(&std::fs::read_to_string(&path).unwrap()).unwrap();
        problem
            .set_all(sets.iter().map(|s| s.split_once('=').unwrap()))
            .unwrap();
        let fixed = problem.demands(0);
        let expected =
            placement_oracle::max_tied(&problem.rules, &fixed, &problem.maximised()).unwrap();
        let dir = tmp.path().join(format!("c{i}"));
        let mut args = vec!["solve", "--problem", &path];
        for set in *sets {
            args.extend(["--set", set]);
        }
        args.extend([
            "--certify",
            s(&dir),
            "--backend",
            "kissat",
            "--format",
            "json",
        ]);
        let out = run(&args);
        assert_eq!(code(&out), 30, "{file}: {}", stderr(&out));
        let v = json(&out);
        assert_eq!(v["optimum"], expected, "{file}");
        assert_eq!(v["certificate"]["verdict"], "s VERIFIED", "{file}");
        let (status, report) = check_certificate(&dir);
        assert_eq!(status, 0, "{file}: {report}");

        let manifest_path = dir.join("certificate.json");
        let original = std::fs::read_to_string(&manifest_path).unwrap();
        let mut tampered: Value = serde_json::from_str(&original).unwrap();
        tampered["claim"] = Value::String(format!("the optimum is {}", expected + 1));
        std::fs::write(&manifest_path, tampered.to_string()).unwrap();
        let (status, report) = check_certificate(&dir);
        assert_eq!(status, 1, "{file}: an edited claim passed: {report}");
        let mut tampered: Value = serde_json::from_str(&original).unwrap();
        tampered["unsat"]["certified_formula"] = Value::String("the plain encoding".into());
        std::fs::write(&manifest_path, tampered.to_string()).unwrap();
        let (status, _) = check_certificate(&dir);
        assert_eq!(status, 1, "{file}: an edited certified_formula passed");
        std::fs::write(&manifest_path, &original).unwrap();
        assert_eq!(check_certificate(&dir).0, 0);
    }
    // Fixed counts only: nothing to certify.
    let path = format!("{root}/encodings/crowded-chessboard.toml");
    let dir = tmp.path().join("fixed");
    let out = run(&[
        "solve",
        "--problem",
        &path,
        "--set",
        "knights=3",
        "--certify",
        s(&dir),
    ]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("maximises no group"),
        "{}",
        stderr(&out)
    );
}

/// Advice that works: `--certify` on a board whose UNSAT step only counting refutes (one
/// queen of each colour on 1 × 1) is certified with the default engine too (a SAT solver
/// proves the general formula the line engine does not read), where it once told the user
/// to write the formula with `--bounds sums`, which the engine refused.
#[test]
fn certify_works_where_counting_alone_refutes_the_step() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("c1");
    let out = run(&["solve", "--dim", "1", "--certify", s(&dir)]);
    assert_eq!(code(&out), 30, "{}", stderr(&out));
    assert!(!stderr(&out).contains("--bounds sums"), "{}", stderr(&out));
    assert_eq!(code(&run(&["check-certificate", s(&dir)])), 0);
}

/// A bundle's `unsat.solver` is recorded, not derived, but it must fit the proof's form: the
/// line engine writes binary DRAT, the SAT solvers pq-sat runs write text. An edit that names
/// the other kind is refused (it was once accepted).
#[test]
fn a_bundle_naming_the_wrong_kind_of_prover_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    for (engine, forged) in [("lines", "kissat 4.0.4"), ("sat", "lines")] {
        let dir = tmp.path().join(engine);
        let out = run(&[
            "solve",
            "--dim",
            "5",
            "--engine",
            engine,
            "--certify",
            s(&dir),
        ]);
        assert_eq!(code(&out), 30, "{}", stderr(&out));
        assert_eq!(code(&run(&["check-certificate", s(&dir)])), 0, "{engine}");
        edit_json(&dir.join("certificate.json"), &|v| {
            v["unsat"]["solver"] = serde_json::json!(forged);
        });
        let out = run(&["check-certificate", s(&dir)]);
        assert_eq!(code(&out), 1, "{engine}: {}", stdout(&out));
        assert!(stdout(&out).contains("unsat.solver"), "{}", stdout(&out));
    }
}

/// The way to a proof of the plain encoding that a proof report suggests is a command that
/// runs, from the line engine's report too (it once said `--symmetry none`, which the engine
/// refuses).
#[test]
fn the_suggested_way_to_a_plain_proof_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let proof = tmp.path().join("q.drat");
    let out = run(&["solve", "--dim", "5", "--n", "5", "--proof", s(&proof)]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    let advice = "use --engine sat --symmetry none";
    assert!(stdout(&out).contains(advice), "{}", stdout(&out));
    let plain = tmp.path().join("plain.drat");
    let mut args = vec!["solve", "--dim", "5", "--n", "5", "--proof", s(&plain)];
    args.extend(advice["use ".len()..].split(' '));
    let out = run(&args);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("the plain encoding"),
        "{}",
        stdout(&out)
    );
}
