//! Search certificates end to end: the line engine writes them (`--proof-format search`, to a
//! file or to standard output), the independent `pq-check` (its own crate, written from
//! docs/search-certificate.md alone) verifies them, a cut one is refused, and every way of
//! asking for one where it cannot be written is refused by name.

use crate::util::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// `pq-check` beside the pq-sat under test (where pq-sat looks for it too), built first when
/// this test binary runs alone.
fn pq_check() -> PathBuf {
    let beside = Path::new(BIN).with_file_name("pq-check");
    if !beside.is_file() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo)
            .args(["build", "-q", "-p", "pq-check"])
            .status()
            .unwrap();
        assert!(status.success());
    }
    assert!(beside.is_file(), "{}", beside.display());
    beside
}

/// pq-check's exit code and standard output on `bytes`, given on standard input.
fn check(bytes: &[u8]) -> (i32, String) {
    use std::io::Write;
    let mut child = Command::new(pq_check())
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    // A refused stream may end pq-check before it has read everything.
    let _ = pipe.write_all(bytes);
    drop(pipe);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// a(d) for d = 1..13 (OEIS A250000).
const A: [usize; 13] = [0, 0, 1, 2, 4, 5, 7, 9, 12, 14, 17, 21, 24];

#[test]
fn the_unsat_step_of_every_board_from_2_to_13_is_certified_and_verified() {
    // From d = 2: one queen of each colour does not fit on 1 × 1 at all (a usage error).
    for d in 2..=13 {
        let n = A[d - 1] + 1;
        let (dim, n) = (d.to_string(), n.to_string());
        let out = run(&[
            "solve",
            "--dim",
            &dim,
            "--n",
            &n,
            "--proof",
            "-",
            "--proof-format",
            "search",
            "--format",
            "json",
        ]);
        assert_eq!(code(&out), 20, "{d}: {}", stderr(&out));
        // The report goes to standard error: standard output is the certificate alone.
        let report: serde_json::Value = serde_json::from_str(stderr(&out).trim()).unwrap();
        assert_eq!(report["proof"]["format"], "search");
        assert_eq!(report["proof"]["bytes"], out.stdout.len() as u64);
        let (rc, said) = check(&out.stdout);
        assert_eq!(rc, 0, "{d}/{n}: {said}");
        // The whole claim, stated as the last claim line before the status.
        assert!(
            said.contains(&format!(
                "\nc claim: board square {d} armies {n} {n}\ns VERIFIED\n"
            )),
            "{said}"
        );
        if d == 10 {
            // Cut anywhere, or one node changed, it is refused.
            let cert = &out.stdout;
            for cut in [cert.len() / 3, cert.len() - 20, cert.len() - 1] {
                assert_eq!(check(&cert[..cut]).0, 1, "{d}: cut at {cut}");
            }
            let begin = cert.windows(6).position(|w| w == b"begin\n").unwrap() + 6;
            let mut wrong = cert.clone();
            // The first tree's root is a leaf or a branch; either way another rule there is
            // a claim its counts do not back (or a tree shape the rest does not follow).
            wrong[begin] = if wrong[begin] == 0x80 { 0x81 } else { 0x80 };
            assert_eq!(check(&wrong).0, 1);
        }
    }
}

#[test]
fn a_file_is_written_only_when_unsat_and_checked_with_check_unsat() {
    let tmp = tempfile::tempdir().unwrap();
    let cert = tmp.path().join("q.cert");
    let args = |n: &'static str| {
        vec![
            "solve",
            "--dim",
            "9",
            "--n",
            n,
            "--proof",
            s(&cert),
            "--proof-format",
            "search",
            "--check-unsat",
            "--format",
            "json",
        ]
    };
    let out = run(&args("12"));
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    assert!(!cert.exists(), "a SAT step has no certificate");
    let out = run(&args("13"));
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["verified"], true, "{v}");
    assert_eq!(v["proof"]["file"], s(&cert));
    let bytes = std::fs::read(&cert).unwrap();
    assert_eq!(v["proof"]["bytes"], bytes.len() as u64);
    assert_eq!(check(&bytes).0, 0);
    // The same file again needs --force, as every output does.
    assert_fails_saying(&run(&args("13")), 1, "--force");
}

#[test]
fn a_certificate_where_none_can_be_written_is_refused_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let cert = tmp.path().join("q.cert");
    let c = s(&cert);
    for (args, needle) in [
        (vec!["--dim", "8", "--n", "10"], "give --proof FILE"),
        (
            vec!["--dim", "8", "--n", "10", "--proof", c, "--engine", "sat"],
            "cannot be used with --engine sat",
        ),
        (
            vec![
                "--dim",
                "8",
                "--n",
                "10",
                "--proof",
                c,
                "--backend",
                "kissat",
            ],
            "cannot be used with --backend",
        ),
        (
            vec![
                "--problem",
                "encodings/peaceable-queens-torus.toml",
                "--set",
                "board=7x7",
                "--n",
                "5",
                "--proof",
                c,
            ],
            "square board",
        ),
        (
            vec!["--dim", "8", "--n", "10", "--proof", "-", "--check-unsat"],
            "pq-check -",
        ),
        (
            vec!["--dim", "8", "--n", "10", "--proof", "q.cert.xz"],
            "stream it",
        ),
    ] {
        let mut all = vec!["solve", "--proof-format", "search"];
        all.extend(args);
        assert_fails_saying(&run(&all), 2, needle);
        assert!(!cert.exists());
    }
    // A DRAT proof does not stream.
    assert_fails_saying(
        &run(&["solve", "--dim", "8", "--n", "10", "--proof", "-"]),
        2,
        "only a search certificate",
    );
}

/// `check-certificate DIR`'s exit code and the lines of its text report.
fn recheck(dir: &Path) -> (i32, String) {
    let out = run(&["check-certificate", s(dir)]);
    (code(&out), stdout(&out))
}

/// `solve --dim D --certify DIR --proof-format search`, with its manifest.
fn search_bundle(d: usize, dir: &Path) -> serde_json::Value {
    let dim = d.to_string();
    let out = run(&[
        "solve",
        "--dim",
        &dim,
        "--certify",
        s(dir),
        "--proof-format",
        "search",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 30, "{}", stderr(&out));
    let text = std::fs::read_to_string(dir.join("certificate.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Rewrites the manifest in `dir` with `change` applied.
fn edit_manifest(dir: &Path, change: impl FnOnce(&mut serde_json::Value)) {
    let path = dir.join("certificate.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    change(&mut m);
    std::fs::write(&path, serde_json::to_string_pretty(&m).unwrap()).unwrap();
}

#[test]
fn a_bundle_whose_unsat_half_is_a_search_certificate_is_written_and_rechecked() {
    let tmp = tempfile::tempdir().unwrap();
    for d in 4..=8 {
        let dir = tmp.path().join(format!("c{d}"));
        let m = search_bundle(d, &dir);
        let n = A[d - 1] + 1;
        assert_eq!(m["optimum"], A[d - 1]);
        assert_eq!(m["unsat"]["proof_format"], "search");
        assert_eq!(m["unsat"]["checker"], "pq-check");
        assert!(m["unsat"].get("cnf").is_none(), "no formula beside it: {m}");
        let proof = dir.join(m["unsat"]["proof"].as_str().unwrap());
        assert_eq!(check(&std::fs::read(&proof).unwrap()).0, 0);
        let (code, text) = recheck(&dir);
        assert_eq!(code, 0, "{text}");
        assert!(
            text.contains(&format!("{n} white and {n} black on {d}x{d}")),
            "{text}"
        );
    }
    // Packed after it was written (xz, the manifest's name kept and its hash and size made
    // to fit), the bundle still holds: the header is read and the proof checked unpacked.
    let dir = tmp.path().join("c8");
    let proof = dir.join("unsat-d08-n010.search");
    let status = std::process::Command::new("xz")
        .args(["-z", "-c"])
        .arg(&proof)
        .output()
        .unwrap();
    assert!(status.status.success());
    std::fs::write(&proof, &status.stdout).unwrap();
    let hash = sha256sum(&proof);
    edit_manifest(&dir, |m| {
        m["unsat"]["proof_sha256"] = hash.into();
        m["unsat"]["proof_bytes"] = std::fs::metadata(&proof).unwrap().len().into();
    });
    let (code, text) = recheck(&dir);
    assert_eq!(code, 0, "{text}");
}

#[test]
fn a_search_bundle_that_does_not_hold_up_is_invalid() {
    let tmp = tempfile::tempdir().unwrap();
    let fresh = |name: &str, d: usize| {
        let dir = tmp.path().join(name);
        let m = search_bundle(d, &dir);
        let proof = dir.join(m["unsat"]["proof"].as_str().unwrap());
        (dir, proof)
    };
    let invalid = |dir: &Path, needle: &str| {
        let (code, text) = recheck(dir);
        assert_eq!(code, 1, "{needle}: {text}");
        let failed: Vec<&str> = text.lines().filter(|l| l.starts_with("FAIL")).collect();
        assert!(
            failed.iter().any(|l| l.contains(needle)),
            "{needle}: {failed:?}"
        );
    };
    // A branch of the search dropped (its byte turned into a leaf), the hash made to fit.
    let (dir, proof) = fresh("cut", 7);
    let mut bytes = std::fs::read(&proof).unwrap();
    let body = bytes.windows(6).position(|w| w == b"begin\n").unwrap() + 6;
    let inner = (body..bytes.len()).find(|&i| bytes[i] < 0x80).unwrap();
    bytes[inner] = 0x80;
    std::fs::write(&proof, &bytes).unwrap();
    let hash = sha256sum(&proof);
    edit_manifest(&dir, |m| m["unsat"]["proof_sha256"] = hash.into());
    invalid(&dir, "checked by pq-check");
    // Another step's certificate (a(6)'s, 6 of each on 6x6) where a(7)'s should be.
    let (dir, proof) = fresh("other", 7);
    let (_, six) = fresh("six", 6);
    std::fs::copy(&six, &proof).unwrap();
    let hash = sha256sum(&proof);
    edit_manifest(&dir, |m| {
        m["unsat"]["proof_sha256"] = hash.into();
        m["unsat"]["proof_bytes"] = std::fs::metadata(&proof).unwrap().len().into();
    });
    invalid(&dir, "the step one above the optimum");
    // One cube's certificate of the right step (pq-check verifies it, but it claims only
    // that cube) where the whole step's should be.
    let cubes = tmp.path().join("cubes");
    let out = run(&["cube", "--dim", "7", "--n", "8", "-o", s(&cubes)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = run(&[
        "solve-cube",
        s(&cubes),
        "1",
        "--backend",
        "lines",
        "--proof",
        "--proof-format",
        "search",
    ]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    let (dir, proof) = fresh("cube", 7);
    std::fs::copy(cubes.join("proofs").join("1.search"), &proof).unwrap();
    // pq-check verifies it as what it is: a cube's part of the claim.
    assert_eq!(check(&std::fs::read(&proof).unwrap()).0, 4);
    let hash = sha256sum(&proof);
    edit_manifest(&dir, |m| {
        m["unsat"]["proof_sha256"] = hash.into();
        m["unsat"]["proof_bytes"] = std::fs::metadata(&proof).unwrap().len().into();
    });
    invalid(&dir, "the step one above the optimum");
    // The manifest lying about who wrote it, or about the optimum.
    let (dir, _) = fresh("solver", 6);
    edit_manifest(&dir, |m| m["unsat"]["solver"] = "kissat 4.0.4".into());
    invalid(&dir, "unsat.solver");
    let (dir, _) = fresh("optimum", 6);
    edit_manifest(&dir, |m| m["optimum"] = 4.into());
    invalid(&dir, "witness obeys the rules");
    // A clausal format claimed for it: no CNF to refute.
    let (dir, _) = fresh("format", 6);
    edit_manifest(&dir, |m| m["unsat"]["proof_format"] = "drat".into());
    invalid(&dir, "states no model for the CNF");
}

#[test]
fn a_search_bundle_where_none_can_be_written_is_refused_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("c");
    let c = s(&dir);
    for (args, needle) in [
        (vec!["--dim", "6", "--engine", "sat"], "--engine sat"),
        (vec!["--dim", "6", "--backend", "kissat"], "--backend"),
        (
            vec![
                "--problem",
                "encodings/peaceable-queens-torus.toml",
                "--set",
                "board=7x7",
            ],
            "square board",
        ),
    ] {
        let mut all = vec!["solve"];
        all.extend(args);
        all.extend(["--certify", c, "--proof-format", "search"]);
        assert_fails_saying(&run(&all), 2, needle);
        assert!(!dir.exists(), "{all:?}");
    }
}
