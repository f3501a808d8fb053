//! The line engine through the binary: it answers by default where it applies, agrees with
//! the SAT path and the brute-force oracle, reports its node counts, and refuses what it
//! cannot do with a clear message.

use crate::oracle;
use crate::util::*;

use serde_json::Value;

fn step(engine: &str, d: usize, n: usize) -> (i32, Value) {
    let out = run(&[
        "solve",
        "--dim",
        &d.to_string(),
        "--n",
        &n.to_string(),
        "--engine",
        engine,
        "--format",
        "json",
        "--jobs",
        "1",
    ]);
    (code(&out), json(&out))
}

#[test]
fn by_default_the_line_engine_answers_the_queens() {
    let out = run(&[
        "solve", "--dim", "7", "--n", "7", "--format", "json", "--jobs", "2",
    ]);
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["solver"], "lines x 2");
    assert!(v["search"]["nodes"].as_u64().unwrap() > 0);
    assert!(v.get("model").is_none(), "no formula was built: {v}");
    assert!(oracle::is_peaceable(&board_of(&v), 7, 7));
    // A SAT-only option sends the step to the solvers.
    let out = run(&[
        "solve",
        "--dim",
        "7",
        "--n",
        "7",
        "--format",
        "json",
        "--backend",
        "cadical",
        "--jobs",
        "1",
    ]);
    assert_eq!(json(&out)["solver"], "cadical");
}

/// a(1..7), OEIS A250000.
const A: [usize; 7] = [0, 0, 1, 2, 4, 5, 7];

#[test]
fn each_step_agrees_with_the_sat_path_and_the_oracle() {
    for d in 1..=7 {
        let a = A[d - 1];
        if d <= 5 {
            assert_eq!(oracle::optimum(d), a, "the oracle, d = {d}");
        }
        // A size that needs more squares than the board has is refused before any engine.
        for n in [a.saturating_sub(1), a, a + 1]
            .into_iter()
            .filter(|n| 2 * n <= d * d)
        {
            let (lines, v) = step("lines", d, n);
            let (sat, _) = step("sat", d, n);
            assert_eq!(lines, sat, "d = {d}, n = {n}");
            assert_eq!(lines, if n <= a { 10 } else { 20 }, "d = {d}, n = {n}");
            if lines == 10 && n > 0 {
                assert!(
                    oracle::is_peaceable(&board_of(&v), d, n),
                    "d = {d}, n = {n}: {v}"
                );
            }
        }
    }
}

#[test]
fn the_optimum_is_a_d_with_steps_and_counts() {
    for (d, a) in [(1, 0), (2, 0), (3, 1), (6, 5), (8, 9), (9, 12), (10, 14)] {
        let out = run(&[
            "solve",
            "--dim",
            &d.to_string(),
            "--format",
            "json",
            "--progress",
            "none",
        ]);
        assert_eq!(code(&out), 30, "{}", stderr(&out));
        let v = json(&out);
        assert_eq!(v["optimum"], a, "d = {d}: {v}");
        assert_eq!(
            v["backend"].as_str().unwrap().split(' ').next(),
            Some("lines")
        );
        let steps = v["steps"].as_array().unwrap();
        let last = steps.last().unwrap();
        assert_eq!(
            (last["n"].as_u64(), last["status"].as_str()),
            (Some(a as u64 + 1), Some("unsat"))
        );
    }
    let out = run(&["solve", "--dim", "8", "--progress", "none"]);
    let text = stdout(&out);
    assert!(text.starts_with("a(8) = 9: "), "{text}");
}

#[test]
fn rectangles_and_unequal_armies_agree_with_the_sat_path() {
    for (board, set) in [
        ("4x6", None),
        ("5x3", None),
        ("5x6", Some("white=5")),
        ("4x7", Some("black=2")),
    ] {
        let mut base = vec![
            "solve",
            "--problem",
            "encodings/peaceable-queens.toml",
            "--set",
        ];
        let b = format!("board={board}");
        base.push(&b);
        if let Some(s) = set {
            base.extend(["--set", s]);
        }
        base.extend(["--format", "json", "--progress", "none", "--jobs", "1"]);
        let answers: Vec<Value> = ["lines", "sat"]
            .iter()
            .map(|engine| {
                let mut args = base.clone();
                args.extend(["--engine", engine]);
                let out = run(&args);
                assert_eq!(code(&out), 30, "{board} {engine}: {}", stderr(&out));
                json(&out)
            })
            .collect();
        assert_eq!(
            answers[0]["optimum"], answers[1]["optimum"],
            "{board} {set:?}"
        );
        assert!(answers[0]["backend"].as_str().unwrap().starts_with("lines"));
    }
}

#[test]
fn what_the_engine_cannot_do_is_refused_by_name() {
    for (args, needle) in [
        (
            vec!["--dim", "6", "--engine", "lines", "--backend", "kissat"],
            "cannot take --backend",
        ),
        (
            vec![
                "--problem",
                "encodings/peaceable-queens-torus.toml",
                "--set",
                "board=5x5",
                "--n",
                "2",
                "--engine",
                "lines",
                "--proof",
                "/tmp/pq-lines-x.drat",
            ],
            "cannot take --proof (it writes proofs for the peaceable queens on a square board",
        ),
        (
            vec![
                "--dim",
                "6",
                "--n",
                "6",
                "--engine",
                "lines",
                "--proof",
                "/tmp/pq-lines-x.lrat",
            ],
            "cannot take an LRAT proof",
        ),
        (
            vec![
                "--dim",
                "6",
                "--n",
                "6",
                "--engine",
                "lines",
                "--check-unsat",
            ],
            "cannot take --check-unsat without --proof",
        ),
        (
            vec!["--dim", "6", "--engine", "lines", "--model", "pairwise"],
            "cannot take --model",
        ),
        (
            vec!["--dim", "6", "--engine", "lines", "--strategy", "bisect"],
            "cannot take --strategy",
        ),
        (
            vec![
                "--problem",
                "encodings/peaceable-queens-torus.toml",
                "--set",
                "board=4x6",
                "--engine",
                "lines",
            ],
            "square toroidal boards only",
        ),
        (
            vec![
                "--problem",
                "encodings/peaceable-knights.toml",
                "--engine",
                "lines",
            ],
            "2 to 4 armies of queens, and Dudeney's crowded chessboard (n queens, n rooks, 2n − 2 bishops",
        ),
        (
            vec![
                "--problem",
                "encodings/crowded-chessboard.toml",
                "--set",
                "bishops=13",
                "--engine",
                "lines",
            ],
            "and the most knights on n × n, n ≤ 19",
        ),
    ] {
        let mut all = vec!["solve"];
        all.extend(args);
        let out = run(&all);
        assert_fails_saying(&out, 2, needle);
    }
    // Under auto, such problems go to the SAT path.
    let out = run(&[
        "solve",
        "--problem",
        "encodings/peaceable-knights.toml",
        "--set",
        "board=4x4",
        "--format",
        "json",
        "--progress",
        "none",
    ]);
    assert_eq!(code(&out), 30, "{}", stderr(&out));
    assert!(!json(&out)["backend"].as_str().unwrap().starts_with("lines"));
}

/// `--engine lines --proof` writes the search tree as a DRAT proof and the formula it refutes
/// beside it; `--check-unsat` has the independent checker verify them before the UNSAT
/// counts; `check-proof` accepts the pair and rejects it cut short; a SAT step leaves no
/// file; under `auto`, `--proof` still means the SAT path.
#[test]
fn the_engine_writes_its_search_tree_as_a_checked_proof() {
    let tmp = tempfile::tempdir().unwrap();
    let proof = tmp.path().join("q.drat");
    let cnf = tmp.path().join("q.cnf");
    let p = proof.to_str().unwrap();
    let args = |n: &'static str| -> Vec<&str> {
        vec![
            "solve", "--dim", "6", "--n", n, "--engine", "lines", "--proof", p, "--format", "json",
        ]
    };
    let mut unsat = args("6");
    unsat.push("--check-unsat");
    let out = run(&unsat);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["solver"], "lines");
    assert_eq!(v["verified"], true, "{v}");
    assert_eq!(v["bounds"], "sums");
    assert!(v["proof"]["certifies"]
        .as_str()
        .unwrap()
        .contains("family-sum"));
    let text = std::fs::read_to_string(&cnf).unwrap();
    assert!(
        text.contains("c bounds sums"),
        "the CNF states its bound clauses"
    );
    let out = run(&["check-proof", cnf.to_str().unwrap(), p]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // Cut short (binary DRAT: the last two bytes are the empty clause), it no longer checks.
    let bytes = std::fs::read(&proof).unwrap();
    assert_eq!(bytes[bytes.len() - 2..], [b'a', 0]);
    std::fs::write(&proof, &bytes[..bytes.len() - 2]).unwrap();
    let out = run(&["check-proof", cnf.to_str().unwrap(), p]);
    assert_ne!(code(&out), 0, "{}", stdout(&out));
    std::fs::remove_file(&proof).unwrap();
    std::fs::remove_file(&cnf).unwrap();
    // SAT: no proof, no file.
    let out = run(&args("5"));
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    assert!(!proof.exists() && !cnf.exists());
    // Under auto too, the square queens' proof is the tree; --engine sat gives the SAT
    // solver's.
    let out = run(&[
        "solve", "--dim", "6", "--n", "6", "--proof", p, "--format", "json",
    ]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    assert!(json(&out)["solver"].as_str().unwrap().starts_with("lines"));
    std::fs::remove_file(&proof).unwrap();
    std::fs::remove_file(&cnf).unwrap();
    let out = run(&[
        "solve", "--dim", "6", "--n", "6", "--proof", p, "--engine", "sat", "--format", "json",
    ]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    assert!(!json(&out)["solver"].as_str().unwrap().starts_with("lines"));
}

/// The optimum of `file` on a `d × d` board by each engine must be the same, and `auto`
/// must pick the line engine.
fn engines_agree(file: &str, d: usize) {
    let board = format!("board={d}x{d}");
    let optimum = |engine: &str| {
        let out = run(&[
            "solve",
            "--problem",
            file,
            "--set",
            &board,
            "--engine",
            engine,
            "--format",
            "json",
            "--progress",
            "none",
            "--jobs",
            "1",
        ]);
        assert_eq!(code(&out), 30, "{file} {d} {engine}: {}", stderr(&out));
        json(&out)
    };
    let (lines, sat, auto) = (optimum("lines"), optimum("sat"), optimum("auto"));
    assert_eq!(lines["optimum"], sat["optimum"], "{file} {d}");
    assert_eq!(auto["backend"], "lines", "{file} {d}");
}

#[test]
fn the_torus_agrees_with_the_sat_path() {
    for d in 2..=7 {
        engines_agree("encodings/peaceable-queens-torus.toml", d);
    }
}

#[test]
fn three_and_four_armies_agree_with_the_sat_path() {
    let four = std::fs::read_to_string("encodings/three-armies.toml").unwrap().replace(
        "no_attack = [[\"red\", \"green\"], [\"red\", \"blue\"], [\"green\", \"blue\"]]",
        "no_attack = [[\"red\", \"green\"], [\"red\", \"blue\"], [\"green\", \"blue\"], [\"red\", \"gold\"], [\"green\", \"gold\"], [\"blue\", \"gold\"]]",
    ) + "\n[[group]]\nname = \"gold\"\nkind = \"queen\"\ncount = \"max\"\n";
    let tmp = tempfile::tempdir().unwrap();
    let four_path = tmp.path().join("four.toml");
    std::fs::write(&four_path, four).unwrap();
    for d in 3..=6 {
        engines_agree("encodings/three-armies.toml", d);
    }
    // Two threads share the row colourings and reach the same optimum.
    let out = run(&[
        "solve",
        "--problem",
        "encodings/three-armies.toml",
        "--set",
        "board=6x6",
        "--jobs",
        "2",
        "--format",
        "json",
        "--progress",
        "none",
    ]);
    let v = json(&out);
    assert_eq!(
        (v["optimum"].as_u64(), v["backend"].as_str()),
        (Some(2), Some("lines x 2"))
    );
    for d in 3..=5 {
        engines_agree(s(&four_path), d);
    }
}

#[test]
fn a_timeout_gives_unknown_with_the_reason() {
    let out = run(&[
        "solve",
        "--dim",
        "16",
        "--n",
        "38",
        "--engine",
        "lines",
        "--timeout",
        "0.5",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["status"], "unknown");
    assert!(v["reason"].as_str().unwrap().contains("time limit"), "{v}");
}

/// A cube directory of `pq-sat cube` for `d`, `n` in a fresh temporary directory.
fn cubed(d: usize, n: usize, extra: &[&str]) -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cubes");
    let (d, n) = (d.to_string(), n.to_string());
    let mut args = vec!["cube", "--dim", &d, "--n", &n];
    args.extend_from_slice(extra);
    args.extend(["-o", s(&dir)]);
    let out = run(&args);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    (tmp, dir)
}

/// `conquer DIR --backend lines --proof --jobs 2 --progress none` plus `extra`: the line
/// engine's trees as the cubes' proofs, on two workers.
fn conquered(dir: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["conquer", s(dir), "--backend", "lines", "--proof"];
    args.extend(["--jobs", "2", "--progress", "none"]);
    args.extend_from_slice(extra);
    run(&args)
}

/// `--engine lines --certify DIR`: the optimum's bundle with the search tree of the step
/// above as its proof, against the formula with bound clauses; `check-certificate`
/// re-derives and re-checks it from the files, and fails once the proof is damaged.
#[test]
fn the_engine_certifies_an_optimum() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("c6");
    let out = run(&[
        "solve",
        "--dim",
        "6",
        "--engine",
        "lines",
        "--certify",
        s(&dir),
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 30, "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["optimum"], 5, "{v}");
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("certificate.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["unsat"]["bounds"], "sums");
    assert_eq!(manifest["unsat"]["solver"], "lines");
    let out = run(&["check-certificate", s(&dir)]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).contains("bounds sums: identical"),
        "{}",
        stdout(&out)
    );
    let proof = dir.join("unsat-d06-n006.drat");
    let bytes = std::fs::read(&proof).unwrap();
    std::fs::write(&proof, &bytes[..bytes.len() - 2]).unwrap();
    let out = run(&["check-certificate", s(&dir)]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    // Under auto, --certify of the square queens is the engine's too; --engine sat keeps
    // the SAT path's bundle (no bound clauses).
    for (engine, bounds) in [("auto", true), ("sat", false)] {
        let dir = tmp.path().join(format!("c5-{engine}"));
        let out = run(&[
            "solve",
            "--dim",
            "5",
            "--engine",
            engine,
            "--certify",
            s(&dir),
            "--format",
            "json",
        ]);
        assert_eq!(code(&out), 30, "{}", stderr(&out));
        let manifest = std::fs::read_to_string(dir.join("certificate.json")).unwrap();
        assert_eq!(
            manifest.contains("\"bounds\": \"sums\""),
            bounds,
            "{engine}: {manifest}"
        );
        let out = run(&["check-certificate", s(&dir)]);
        assert_eq!(code(&out), 0, "{engine}: {}", stdout(&out));
    }
}

/// Every cube's search tree as a checked proof: `conquer --backend lines --proof
/// --check-unsat` on a directory written with `--bounds sums`, then the completeness proof,
/// then `cube-status --check` passes; without the bound clauses the engine says what to do.
#[test]
fn cube_proofs_come_from_the_line_engine_too() {
    let (_tmp, dir) = cubed(
        7,
        8,
        &["--bounds", "sums", "--split", "rows", "--depth", "0"],
    );
    let out = conquered(&dir, &["--check-unsat"]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    let out = run(&["solve-cube", s(&dir), "--completeness", "--proof"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = run(&["cube-status", s(&dir), "--check"]);
    assert_eq!(code(&out), 20, "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).contains("bundle checked: every check passed"),
        "{}",
        stdout(&out)
    );
    // A cube's proof damaged: the check fails.
    let proof = dir.join("proofs").join("1.drat");
    let bytes = std::fs::read(&proof).unwrap();
    std::fs::write(&proof, &bytes[..bytes.len() / 2]).unwrap();
    let out = run(&["cube-status", s(&dir), "--check"]);
    assert_ne!(code(&out), 20, "{}", stdout(&out));
    // The plain formula: the tree is no proof of it.
    let (_tmp, dir) = cubed(6, 6, &["--split", "rows", "--depth", "0"]);
    let out = run(&["solve-cube", s(&dir), "1", "--backend", "lines", "--proof"]);
    assert_fails_saying(&out, 1, "--bounds sums");
}

/// Every cube's search certificate (docs/search-certificate.md), checked by pq-check as it
/// is solved: `conquer --backend lines --proof --proof-format search --check-unsat` on a
/// split whose look-ahead fixes columns and diagonals too, with no bound clauses needed;
/// `cube-status --check` passes, and makes a dropped certificate again. A cube's certificate
/// put in another's place fails even with its record's hash made to fit: pq-check verifies
/// it, but it claims the other cube.
#[test]
fn cube_search_certificates_are_checked_as_they_are_solved() {
    let (_tmp, dir) = cubed(7, 8, &["--split", "rows", "--free", "0", "--depth", "2"]);
    let out = conquered(&dir, &["--proof-format", "search", "--check-unsat"]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    let proofs = dir.join("proofs");
    let cubes = std::fs::read_dir(&proofs).unwrap().count();
    let headers: Vec<String> = (1..=cubes)
        .map(|id| {
            let bytes = std::fs::read(proofs.join(format!("{id}.search"))).unwrap();
            let end = bytes.windows(6).position(|w| w == b"begin\n").unwrap();
            String::from_utf8(bytes[..end].to_vec()).unwrap()
        })
        .collect();
    assert!(headers.iter().all(|h| h.contains("\ncube ")), "{headers:?}");
    assert!(
        headers.iter().any(|h| h.contains(":W") || h.contains(":B")),
        "no cube fixes a diagonal: {headers:?}"
    );
    let result: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results").join("1.json")).unwrap())
            .unwrap();
    assert_eq!(result["proof_record"]["format"], "search");
    assert_eq!(result["proof_record"]["checker"], "pq-check");
    let out = run(&["solve-cube", s(&dir), "--completeness", "--proof"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = run(&["cube-status", s(&dir), "--check"]);
    assert_eq!(code(&out), 20, "{}{}", stdout(&out), stderr(&out));
    assert!(stdout(&out).contains("bundle checked: every check passed"));
    assert!(stdout(&out).contains("1.search: s CUBE VERIFIED (pq-check"));

    // Cube 2's certificate as cube 1's, its record's hash made to fit.
    std::fs::copy(proofs.join("2.search"), proofs.join("1.search")).unwrap();
    let hash = crate::util::sha256sum(&proofs.join("1.search"));
    crate::util::edit_json(&dir.join("results").join("1.json"), &|r| {
        r["proof_record"]["sha256"] = hash.clone().into();
    });
    let out = run(&["cube-status", s(&dir), "--check"]);
    assert_ne!(code(&out), 20, "{}", stdout(&out));
    let report = stdout(&out);
    let failed: Vec<&str> = report.lines().filter(|l| l.starts_with("FAILED")).collect();
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert!(
        failed[0].contains(
            "cube 1: 1.search does not check: pq-check accepted it, but its header claims"
        ),
        "{failed:?}"
    );

    // Dropped after their check: made again by the engine and checked again.
    let (_tmp, dir) = cubed(6, 6, &["--split", "rows", "--depth", "0"]);
    let extra = [
        "--proof-format",
        "search",
        "--check-unsat",
        "--keep-proof",
        "none",
    ];
    let out = conquered(&dir, &extra);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    assert!(!dir.join("proofs").join("1.search").exists());
    let out = run(&["solve-cube", s(&dir), "--completeness", "--proof"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = run(&["cube-status", s(&dir), "--check"]);
    assert_eq!(code(&out), 20, "{}{}", stdout(&out), stderr(&out));
    assert!(stdout(&out).contains("dropped after its check, made again by lines"));
}

/// `--keep-proof xz` keeps each cube's checked proof compressed and `--keep-proof none`
/// keeps only its record; `cube-status --check` checks the first as it is and makes the
/// second again. A proof swapped for another cube's, or a record whose prover is unknown,
/// fails the check; dropping a proof nobody checked is refused.
#[test]
fn checked_proofs_are_kept_compressed_or_dropped() {
    let split = ["--bounds", "sums", "--split", "rows", "--depth", "0"];
    let conquer = |dir: &std::path::Path, keep: &str, check: bool| {
        let check: &[&str] = if check { &["--check-unsat"] } else { &[] };
        conquered(dir, &[&["--keep-proof", keep], check].concat())
    };
    let status_check = |dir: &std::path::Path| run(&["cube-status", s(dir), "--check"]);

    let (_tmp, dir) = cubed(6, 6, &split);
    let out = conquer(&dir, "none", false);
    assert_fails_saying(&out, 2, "needs --check-unsat");
    assert!(!dir.join("results").join("1.json").exists());

    // xz: the proofs are .drat.xz, each recorded with its SHA-256 and check.
    let out = conquer(&dir, "xz", true);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    let out = run(&["solve-cube", s(&dir), "--completeness", "--proof"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let result: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results").join("1.json")).unwrap())
            .unwrap();
    assert_eq!(result["proof"], "1.drat.xz", "{result}");
    assert_eq!(result["proof_record"]["kept"], "xz", "{result}");
    assert_eq!(result["proof_record"]["verdict"], "s VERIFIED", "{result}");
    // CPU times beside the wall times: the cube's (search, writing, check) and rate's.
    let cpu = |v: &Value| v.as_f64().unwrap_or(-1.0);
    let check_cpu = cpu(&result["proof_record"]["check_cpu_seconds"]);
    assert!(check_cpu >= 0.0, "{result}");
    assert!(cpu(&result["cpu_seconds"]) >= check_cpu, "{result}");
    let packed = std::fs::read(dir.join("proofs").join("1.drat.xz")).unwrap();
    assert!(packed.starts_with(b"\xfd7zXZ\0"));
    let out = status_check(&dir);
    assert_eq!(code(&out), 20, "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).contains("ok: cube 1: 1.drat.xz: s VERIFIED"),
        "{}",
        stdout(&out)
    );
    // Another cube's proof in its place: the hash gives it away.
    std::fs::copy(
        dir.join("proofs").join("2.drat.xz"),
        dir.join("proofs").join("1.drat.xz"),
    )
    .unwrap();
    let out = status_check(&dir);
    assert_ne!(code(&out), 20, "{}", stdout(&out));
    assert!(
        stdout(&out).contains("is not the proof its result records"),
        "{}",
        stdout(&out)
    );

    // none: nothing kept but the completeness proof; the check makes each proof again.
    let (_tmp2, dir) = cubed(6, 6, &split);
    let out = conquer(&dir, "none", true);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    let out = run(&["solve-cube", s(&dir), "--completeness", "--proof"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        names(&dir.join("proofs")),
        ["completeness.drat", "completeness.json"]
    );
    let out = run(&["cube-status", s(&dir), "--format", "json"]);
    let v = json(&out);
    assert_eq!(v["proofs_on_disk"], 0, "{v}");
    assert_eq!(v["proofs_dropped"], v["cubes"], "{v}");
    let out = status_check(&dir);
    assert_eq!(code(&out), 20, "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).contains("dropped after its check, made again by lines")
            && stdout(&out).contains("the recorded SHA-256): s VERIFIED"),
        "{}",
        stdout(&out)
    );
    // A proof made again with another SHA-256 than the recorded one (another version of
    // the prover wrote the record) still counts when it checks, and the finding says so.
    edit_json(&dir.join("results").join("1.json"), &|v| {
        v["proof_record"]["sha256"] = "0".repeat(64).into();
    });
    let out = status_check(&dir);
    assert_eq!(code(&out), 20, "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).contains("not the recorded 0000")
            && stdout(&out).contains("another version of the prover"),
        "{}",
        stdout(&out)
    );
    edit_json(&dir.join("results").join("1.json"), &|v| {
        v["proof_record"]["prover"] = "nonsense".into();
    });
    let out = status_check(&dir);
    assert_ne!(code(&out), 20, "{}", stdout(&out));
    assert!(
        stdout(&out).contains("no prover pq-sat can run"),
        "{}",
        stdout(&out)
    );
}

/// `cube-status --check --sample K` spot-checks K of the recorded UNSAT cubes (making the
/// dropped proofs again), also before the last cube, and says it was a sample: `checked`
/// stays absent and `spot_checked` carries the verdict. The same seed draws the same cubes;
/// a bad record that the sample meets fails it; a sample without `--check` is refused.
#[test]
fn a_spot_check_draws_a_sample_and_says_so() {
    let split = ["--bounds", "sums", "--split", "rows", "--depth", "0"];
    let (_tmp, dir) = cubed(6, 6, &split);
    let out = conquered(&dir, &["--check-unsat", "--keep-proof", "none"]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    // One cube without its answer: the directory is open.
    std::fs::remove_file(dir.join("results").join("3.json")).unwrap();
    let out = run(&["cube-status", s(&dir), "--check"]);
    assert_eq!(
        code(&out),
        1,
        "a full check of an open bundle fails: {}",
        stdout(&out)
    );

    let spot = |seed: &str| {
        let out = run(&[
            "cube-status",
            s(&dir),
            "--check",
            "--sample",
            "2",
            "--seed",
            seed,
            "--format",
            "json",
        ]);
        assert_eq!(
            code(&out),
            0,
            "open, and the sample passed: {}",
            stderr(&out)
        );
        let v = json(&out);
        assert_eq!(v["spot_checked"], true, "{v}");
        assert!(
            v.get("checked").is_none(),
            "a sample does not check the bundle: {v}"
        );
        let checks = v["checks"].as_array().unwrap().clone();
        let sample = checks.iter().find(|c| c["what"] == "sample").unwrap();
        assert!(
            sample["detail"].as_str().unwrap().starts_with("2 of the "),
            "{sample}"
        );
        let cubes: Vec<String> = checks
            .iter()
            .filter_map(|c| c["what"].as_str().filter(|w| w.starts_with("cube ")))
            .map(String::from)
            .collect();
        assert_eq!(cubes.len(), 2, "{v}");
        assert!(
            !cubes.contains(&"cube 3".to_string()),
            "cube 3 has no record: {v}"
        );
        cubes
    };
    assert_eq!(spot("5"), spot("5"), "one seed, one draw");

    let out = run(&["cube-status", s(&dir), "--check", "--sample", "1"]);
    assert!(
        stdout(&out).contains("spot check passed")
            && stdout(&out).contains("not a check of every cube"),
        "{}",
        stdout(&out)
    );

    // Every record spoiled: whichever cubes the sample draws, it fails.
    for entry in std::fs::read_dir(dir.join("results")).unwrap() {
        edit_json(&entry.unwrap().path(), &|v| {
            v["proof_record"]["prover"] = "nonsense".into();
        });
    }
    let out = run(&["cube-status", s(&dir), "--check", "--sample", "2"]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(
        stdout(&out).contains("spot check FAILED"),
        "{}",
        stdout(&out)
    );

    for bad in [
        &["cube-status", s(&dir), "--sample", "2"][..],
        &["cube-status", s(&dir), "--check", "--sample", "0"],
        &["cube-status", s(&dir), "--check", "--seed", "3"],
    ] {
        let out = run(bad);
        assert_eq!(code(&out), 2, "{bad:?}: {}", stderr(&out));
    }
}

/// `cube --estimate --check-unsat` predicts the cost of checked proofs: each sampled UNSAT
/// cube is proved and its proof checked; a solver that writes no proofs, or `--check-unsat`
/// on a split without `--estimate`, is refused.
#[test]
fn the_estimate_can_price_checked_proofs() {
    let (_tmp, dir) = cubed(
        6,
        6,
        &["--bounds", "sums", "--split", "rows", "--depth", "0"],
    );
    let estimate = |extra: &[&str]| {
        let mut args = vec!["cube", s(&dir), "--estimate", "--sample", "3"];
        args.extend_from_slice(extra);
        args.extend(["--format", "json"]);
        run(&args)
    };
    let out = estimate(&["--backend", "lines", "--check-unsat"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["proofs_checked"], true, "{v}");
    assert_eq!(v["sample"].as_array().unwrap().len(), 3, "{v}");
    let out = estimate(&["--backend", "lines"]);
    assert_eq!(json(&out)["proofs_checked"], false);
    let out = estimate(&["--backend", "minisat", "--check-unsat"]);
    assert_fails_saying(&out, 2, "minisat cannot write DRAT proofs");
    let other = dir.with_file_name("other");
    let out = run(&[
        "cube",
        "--dim",
        "6",
        "--n",
        "6",
        "-o",
        s(&other),
        "--check-unsat",
    ]);
    assert_fails_saying(&out, 2, "`cube --estimate`");
    assert!(!other.exists());
}

#[test]
fn cubes_are_conquered_by_the_line_engine() {
    // UNSAT: every cube UNSAT, merged by cube-status as for any solver.
    let (_tmp, dir) = cubed(8, 10, &[]);
    let out = run(&[
        "conquer",
        s(&dir),
        "--backend",
        "lines",
        "--jobs",
        "2",
        "--progress",
        "none",
    ]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    let status = run(&["cube-status", s(&dir), "--format", "json"]);
    let v = json(&status);
    assert_eq!(v["status"], "unsat", "{v}");
    let first: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results").join("1.json")).unwrap())
            .unwrap();
    assert_eq!(first["solver"], "lines");
    // SAT: the first SAT cube's board, validated.
    let (_tmp, dir) = cubed(7, 7, &["--split", "lines", "--prefix", "7", "--depth", "0"]);
    let out = run(&[
        "conquer",
        s(&dir),
        "--backend",
        "lines",
        "--jobs",
        "1",
        "--progress",
        "none",
    ]);
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    // One cube at a time (what GNU parallel and Slurm run), and the estimate.
    let (_tmp, dir) = cubed(7, 8, &[]);
    let out = run(&["solve-cube", s(&dir), "1", "--backend", "lines"]);
    assert!([10, 20].contains(&code(&out)), "{}", stderr(&out));
    assert!(stdout(&out).contains("(lines, "), "{}", stdout(&out));
    let out = run(&[
        "cube",
        s(&dir),
        "--estimate",
        "--backend",
        "lines",
        "--sample",
        "3",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = run(&["conquer", s(&dir), "--backend", "lines", "--emit", "slurm"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("--backend lines"), "{}", stdout(&out));
}

#[test]
fn the_line_backend_refuses_what_it_cannot_read() {
    let (_tmp, dir) = cubed(6, 6, &["--model", "lines"]);
    let out = run(&["solve-cube", s(&dir), "1", "--backend", "lines"]);
    assert_fails_saying(&out, 1, "the line engine reads pq-sat's colouring formulas");
    let (_tmp, dir) = cubed(6, 6, &[]);
    let out = run(&[
        "solve-cube",
        s(&dir),
        "1",
        "--backend",
        "lines",
        "--proof",
        "--proof-format",
        "lrat",
    ]);
    assert_fails_saying(&out, 2, "lines cannot write LRAT proofs");
}

/// `estimate` searches a sample of the line engine's units one at a time and extrapolates:
/// with every unit sampled, the predicted CPU time is their sum, and a SAT step shows its
/// SAT unit; what the engine cannot answer is refused with the SAT path's way named.
#[test]
fn estimate_predicts_a_step_from_a_sample_of_its_units() {
    // Three armies on 6×6: A328283 gives 2, so 3 of each is UNSAT in every row colouring.
    let out = run(&[
        "estimate",
        "--problem",
        "encodings/three-armies.toml",
        "--set",
        "board=6x6",
        "--n",
        "3",
        "--sample",
        "1000",
        "--format",
        "json",
        "-q",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let e = json(&out);
    assert_eq!(e["unit"], "row colouring");
    let sample = e["sample"].as_array().unwrap();
    assert_eq!(sample.len() as u64, e["cubes"].as_u64().unwrap());
    assert!(sample.iter().all(|u| u["status"] == "unsat"), "{e}");
    let sum: f64 = sample
        .iter()
        .map(|u| u["cpu_seconds"].as_f64().unwrap())
        .sum();
    let total = e["total_cpu"]["estimate"].as_f64().unwrap();
    assert!((total - sum).abs() <= 1e-9 + 1e-6 * sum, "{total} {sum}");
    assert_eq!(e["sat"], Value::Null);

    // The queens on 6×6 with 5 of each (a(6) = 5): some row set has a solution.
    let out = run(&[
        "estimate", "--dim", "6", "--n", "5", "--sample", "1000", "--format", "json", "-q",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let e = json(&out);
    assert_eq!(e["unit"], "row set");
    let sat = e["sat"].as_u64().expect("a SAT row set");
    assert!(e["sample"]
        .as_array()
        .unwrap()
        .iter()
        .any(|u| u["id"] == sat && u["status"] == "sat"));

    // The text table, and the picture.
    let tmp = tempfile::tempdir().unwrap();
    let plot = tmp.path().join("e.svg");
    let out = run(&[
        "estimate",
        "--dim",
        "7",
        "--n",
        "8",
        "--sample",
        "3",
        "--seed",
        "5",
        "--plot",
        s(&plot),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("row sets from a sample of 3 (lines") && text.contains("1024"),
        "{text}"
    );
    assert!(
        stderr(&out).contains("(3 of the sample)"),
        "{}",
        stderr(&out)
    );
    assert!(std::fs::read_to_string(&plot).unwrap().contains("<svg"));

    for (args, needle) in [
        (vec!["--dim", "6"], "give its size, --n N"),
        (vec![], "estimate needs a step"),
        (
            vec!["--problem", "encodings/peaceable-knights.toml", "--n", "2"],
            "pq-sat cube ... -o DIR --estimate",
        ),
    ] {
        let mut all = vec!["estimate"];
        all.extend(args);
        let out = run(&all);
        assert_fails_saying(&out, 2, needle);
    }
}

/// Dudeney's crowded chessboard goes to the engine by default (no formula), which finds the
/// SAT path's optimum on 6×6 and the published ones on 9×9 and 10×10 (Gecode's table of
/// Hansen & Schimpf's values), every board through the validator; a variant of the puzzle
/// (a fixed count of knights, or other counts) stays on the SAT path.
#[test]
fn the_engine_answers_dudeneys_crowded_chessboard() {
    let crowded = |n: usize, extra: &[&str]| {
        let board = format!("board={n}x{n}");
        let (q, b) = (format!("queens={n}"), format!("bishops={}", 2 * n - 2));
        let r = format!("rooks={n}");
        let mut all = vec![
            "solve",
            "--problem",
            "encodings/crowded-chessboard.toml",
            "--format",
            "json",
        ];
        for set in [&board, &q, &r, &b] {
            all.extend(["--set", set]);
        }
        all.extend(extra);
        let out = run(&all);
        assert_eq!(code(&out), 30, "{}", stderr(&out));
        json(&out)
    };
    for (n, knights) in [(6, 9), (9, 29), (10, 37)] {
        let v = crowded(n, &["--jobs", "2"]);
        assert_eq!(v["optimum"], knights, "{v}");
        let steps = v["steps"].as_array().unwrap();
        assert!(steps.iter().all(|s| s["solver"] == "lines x 2"), "{v}");
        assert_eq!(steps.last().unwrap()["status"], "unsat");
        assert_eq!(
            steps.last().unwrap()["verified"],
            false,
            "an exhaustive search"
        );
        assert!(v["search"]["nodes"].as_u64().unwrap() > 0);
        assert_eq!(count_of(&v, 'N'), knights, "{v}");
    }
    // The first pass's budget changes the order of the work, not the answer: none, and
    // one so small that most units go on to the second pass.
    for budget in ["0", "1"] {
        let v = crowded(10, &["--jobs", "2", "--unit-budget", budget]);
        assert_eq!(v["optimum"], 37, "--unit-budget {budget}: {v}");
        assert_eq!(count_of(&v, 'N'), 37, "{v}");
    }
    let sat = crowded(6, &["--engine", "sat"]);
    assert_eq!(sat["optimum"], 9, "{sat}");
    assert!(sat["steps"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["solver"] != "lines x 2"));
}

fn count_of(v: &Value, symbol: char) -> usize {
    v["placement"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            row.as_str()
                .unwrap()
                .chars()
                .filter(|&c| c == symbol)
                .count()
        })
        .sum()
}

/// `--journal` records each unit of a line-engine step as it finishes and skips the units
/// it lists: a step cut short goes on where it stopped, to the same answer; a journal of
/// another step is refused.
#[test]
fn a_journal_resumes_a_step_where_it_stopped() {
    let tmp = tempfile::tempdir().unwrap();
    let journal = tmp.path().join("j");
    let j = s(&journal);
    let step = |args: &[&str]| {
        let mut all = vec![
            "solve",
            "--format",
            "json",
            "--progress",
            "none",
            "--journal",
            j,
        ];
        all.extend(args);
        run(&all)
    };
    for (args, units) in [
        (vec!["--dim", "7", "--n", "8", "--jobs", "2"], "row sets"),
        (
            vec![
                "--problem",
                "encodings/three-armies.toml",
                "--set",
                "board=7x7",
                "--n",
                "4",
            ],
            "row colourings",
        ),
        (
            vec![
                "--problem",
                "encodings/crowded-chessboard.toml",
                "--set",
                "board=9x9",
                "--set",
                "queens=9",
                "--set",
                "rooks=9",
                "--set",
                "bishops=16",
                "--n",
                "30",
            ],
            "queens' orbits",
        ),
    ] {
        let _ = std::fs::remove_file(&journal);
        // The whole step: every unit recorded.
        let out = step(&args);
        assert_eq!(code(&out), 20, "{}", stderr(&out));
        let text = std::fs::read_to_string(&journal).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "pq-sat journal 2");
        assert!(
            lines[4].starts_with("units: ") && lines[4].contains(units),
            "{text}"
        );
        let total: usize = lines[4]["units: ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(lines.len(), 5 + total, "{text}");
        // Cut short after five units (the last line half written): the rest is searched,
        // the five are not, and the answer is the same.
        let cut = lines[..10].join("\n") + "\ndone 1";
        std::fs::write(&journal, cut).unwrap();
        let out = step(&args);
        assert_eq!(code(&out), 20, "{}", stderr(&out));
        assert_eq!(json(&out)["search"]["resumed"], 5, "{}", stdout(&out));
        let again = std::fs::read_to_string(&journal).unwrap();
        assert_eq!(again.lines().count(), 5 + total, "{again}");
        // Nothing left: UNSAT at once.
        let out = step(&args);
        assert_eq!(code(&out), 20);
        assert_eq!(json(&out)["search"]["nodes"], 0);
    }
    // A SAT step stops at its witness, which is validated as always.
    let _ = std::fs::remove_file(&journal);
    let out = step(&["--dim", "6", "--n", "5"]);
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    // That journal is 6×6's with 5 of each: another step refuses it.
    let out = step(&["--dim", "6", "--n", "6"]);
    assert_fails_saying(&out, 1, "the journal of another claim");
    // The journal of 7×7 with 8 of each (UNSAT) edited to claim 7 of each: its records
    // were written for n = 8, so they answer nothing for n = 7.
    let _ = std::fs::remove_file(&journal);
    assert_eq!(code(&step(&["--dim", "7", "--n", "8"])), 20);
    let text = std::fs::read_to_string(&journal).unwrap();
    let edited = text
        .replacen("n = 8", "n = 7", 1)
        .replacen("[8, 8]", "[7, 7]", 1);
    std::fs::write(&journal, edited).unwrap();
    let out = step(&["--dim", "7", "--n", "7"]);
    assert_fails_saying(&out, 1, "recorded for another claim");
    for (args, needle) in [
        (vec!["--dim", "6"], "--n"),
        (
            vec!["--dim", "6", "--n", "6", "--engine", "sat"],
            "cannot be used with --engine sat",
        ),
        (
            vec!["--problem", "encodings/peaceable-knights.toml", "--n", "2"],
            "--journal needs the line engine, which cannot answer this problem",
        ),
        (
            vec!["--dim", "6", "--n", "6", "--cubes", "always"],
            "the line engine cannot take --cubes",
        ),
    ] {
        let mut all = vec!["solve", "--journal", j];
        all.extend(args);
        let out = run(&all);
        assert_fails_saying(&out, 2, needle);
    }
}

/// `--unit-budget` orders the line engine's units; the SAT path and the problems the engine
/// cannot answer refuse it by name.
#[test]
fn a_unit_budget_needs_the_line_engine() {
    for (args, needle) in [
        (
            vec!["--dim", "6", "--engine", "sat"],
            "--unit-budget orders the line engine's units of work; it cannot be used with --engine sat",
        ),
        (
            vec!["--problem", "encodings/peaceable-knights.toml"],
            "--unit-budget needs the line engine, which cannot answer this problem",
        ),
        (
            vec!["--dim", "6", "--cubes", "always"],
            "--unit-budget needs the line engine, which answers without a SAT solver: it cannot take --cubes",
        ),
        // Two armies are searched row set by row set: a budget would change nothing, so it
        // is refused rather than ignored.
        (
            vec!["--dim", "6"],
            "--unit-budget orders the units of three or more armies",
        ),
    ] {
        let mut all = vec!["solve", "--unit-budget", "1000"];
        all.extend(args);
        let out = run(&all);
        assert_fails_saying(&out, 2, needle);
    }
    let out = run(&["solve", "--dim", "6", "--unit-budget", "lots"]);
    assert_fails_saying(&out, 2, "invalid value 'lots' for '--unit-budget <NODES>'");
}
