//! Benchmark families and solver races, end to end through the real binary: the manifest
//! must match the files (hashes by the system's `sha256sum`, sizes by each file's `p cnf`
//! line, statuses by brute force), and a race must flag a lying solver. The same for
//! families of placement problems (`--problem FILE --set KEY=VALUES`), whose statuses are
//! checked against the placement oracle; the queens family is pinned byte for byte.

use crate::oracle;
use crate::oracle::placement as placement_oracle;

use crate::util::*;
use std::path::Path;

use pq_board::placement::{Group, Kind, Layout, Rules};
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

fn make_family(dir: &Path, extra: &[&str]) -> Value {
    let dir = dir.to_str().unwrap();
    let mut args = vec![
        "family",
        "--dim",
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

    let on_disk = cnf_files(&dir);
    let listed = listed_files(instances);
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
        "file,dim,n,model,card,symmetry,variables,clauses,expected,source,sha256,gbd"
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 24);
    for (row, e) in rows.iter().zip(instances) {
        assert!(row.starts_with(e["file"].as_str().unwrap()), "{row}");
        let ids = format!(
            ",{},{}",
            e["sha256"].as_str().unwrap(),
            e["gbd"].as_str().unwrap()
        );
        assert!(row.ends_with(&ids), "{row}");
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
        "--dim",
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
        "--dim",
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
    let out = run(&["family", "--dim", "16", "-o", d]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("a(16) is not proven"),
        "{}",
        stderr(&out)
    );
    for (args, msg) in [
        (vec!["family", "--dim", "9..4", "-o", d], "empty"),
        (vec!["family", "--dim", "0..3", "-o", d], "at least 1"),
        (vec!["family", "--dim", "8", "--n", "x", "-o", d], "range"),
        (
            vec!["family", "--dim", "8", "--model", "bogus", "-o", d],
            "unknown model",
        ),
        (
            vec!["family", "--dim", "8", "--around-optimum", "0", "-o", d],
            "at least 1",
        ),
        (
            vec!["family", "--dim", "8", "--n", "40..50", "-o", d],
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
    let out = run(&["family", "--dim", "4", "-o", d]);
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
        "--backend",
        "kissat",
        "--backend",
        "minisat",
        "--backend",
        "cadical -q",
        "--backend",
        &always_sat,
        "--backend",
        &always_unsat,
        "--run-timeout",
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
    let out = run(&["race", dir.to_str().unwrap(), "--backend", "kissat"]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("SHA-256"), "{}", stderr(&out));

    let out = run(&["race", tmp.path().to_str().unwrap(), "--backend", "kissat"]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("manifest.json"), "{}", stderr(&out));
    let out = run(&["race", dir.to_str().unwrap()]);
    assert_eq!(code(&out), 2, "--solver is required");
}

/// The path of an example problem file.
fn example(file: &str) -> String {
    format!("{}/encodings/{file}", env!("CARGO_MANIFEST_DIR"))
}

/// SHA-256 of `bytes` by the system's `sha256sum`.
fn sha256_of(bytes: &[u8]) -> String {
    let tmp = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(tmp.path(), bytes).unwrap();
    sha256sum(tmp.path())
}

/// Runs `pq-sat family ARGS -o DIR --format json`, which must succeed; its manifest.
fn family_json(dir: &Path, args: &[&str]) -> Value {
    let mut all = vec!["family"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", dir.to_str().unwrap(), "--format", "json"]);
    let out = run(&all);
    assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
    let v = json(&out);
    let on_disk: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(v, on_disk, "the summary is the manifest");
    v
}

/// The CNF files in a family directory, sorted.
fn cnf_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".cnf"))
        .collect();
    names.sort();
    names
}

/// The files a manifest's instances name, sorted.
fn listed_files(instances: &[Value]) -> Vec<String> {
    let mut names: Vec<String> = instances
        .iter()
        .map(|e| e["file"].as_str().unwrap().to_string())
        .collect();
    names.sort();
    names
}

/// Every placement-problem entry lists a file that is there, with its hash and `p cnf`
/// sizes, the problem's fields and no `dim`; the CSV has one row per entry.
fn check_problem_manifest(dir: &Path, v: &Value) {
    let instances = v["instances"].as_array().unwrap();
    let on_disk = cnf_files(dir);
    let mut listed = listed_files(instances);
    listed.dedup();
    assert_eq!(
        on_disk, listed,
        "every file listed once, nothing else there"
    );
    assert_eq!(listed.len(), instances.len());
    for e in instances {
        let path = dir.join(e["file"].as_str().unwrap());
        assert_eq!(e["sha256"].as_str().unwrap(), sha256sum(&path));
        let (vars, clauses) = header(&path);
        assert_eq!(e["variables"].as_u64().unwrap(), vars);
        assert_eq!(e["clauses"].as_u64().unwrap(), clauses);
        assert!(e.get("dim").is_none(), "{e}");
        for key in ["problem", "settings", "rows", "cols", "torus"] {
            assert!(e.get(key).is_some(), "{key} missing: {e}");
        }
        assert!(["sat", "unsat", "unknown"].contains(&e["expected"].as_str().unwrap()));
        if e["expected"] == "unknown" {
            assert_eq!(e["source"], "");
        } else {
            // Never a table: pq-sat's own proof of this very file.
            assert!(e["source"].as_str().unwrap().starts_with("pq-sat "), "{e}");
        }
    }
    let csv = std::fs::read_to_string(dir.join("manifest.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "file,problem,settings,rows,cols,torus,n,model,card,symmetry,variables,clauses,expected,source,sha256,gbd"
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), instances.len());
    for (row, e) in rows.iter().zip(instances) {
        assert!(row.starts_with(e["file"].as_str().unwrap()), "{row}");
        let ids = format!(
            ",{},{}",
            e["sha256"].as_str().unwrap(),
            e["gbd"].as_str().unwrap()
        );
        assert!(row.ends_with(&ids), "{row}");
    }
}

/// `count` queens in each group, every pair of groups at peace: the rules, built by hand.
fn queen_armies(names: &[&str], layout: Layout) -> Rules {
    let mut no_attack = Vec::new();
    for a in 0..names.len() {
        for b in a + 1..names.len() {
            no_attack.push((a, b));
        }
    }
    Rules {
        layout,
        groups: names
            .iter()
            .map(|n| Group {
                name: n.to_string(),
                kind: Kind::Queen,
            })
            .collect(),
        no_attack,
    }
}

fn layout_of(e: &Value) -> Layout {
    Layout {
        rows: e["rows"].as_u64().unwrap() as usize,
        cols: e["cols"].as_u64().unwrap() as usize,
        torus: e["torus"].as_bool().unwrap(),
    }
}

#[test]
fn family_of_the_queens_is_unchanged_byte_for_byte() {
    // The digests were taken from the family pq-sat wrote before placement problems came
    // in (commit 82120be), with the version in each file's first line (and the command
    // line in the README) written as placeholders. A deliberate change to the queens
    // encoder or to the README text changes them (the README digests changed when the
    // README named the manifest's GBD hash, d6e5982, and when it stopped promising k
    // satisfiable and k unsatisfiable sizes, which the smallest boards do not have, and
    // when its race command took `--backend` and `--run-timeout`; the files' digests did
    // not).
    let version = format!("pq-sat {}", env!("CARGO_PKG_VERSION"));
    let tmp = tempfile::tempdir().unwrap();
    for (args, files, digest, readme_digest) in [
        (
            &["--dim", "4..6"][..],
            12,
            "a77290fdf3be33058e276b322c8b47be8ea938f683d8a5477d834dcfe302e34d",
            "1114ddea9d974b8e89a7c5273dbfdbe0b1c5ef6a2fbdaff6afb01ef3d580b477",
        ),
        (
            &[
                "--dim",
                "3,5",
                "--n",
                "1..6",
                "--model",
                "colouring,lines,pairwise",
                "--card",
                "totalizer,seqcounter",
            ][..],
            60,
            "2a4f6b9c51aeaab3f2b2dbf1af98cc48c00f08d546dabf32fd0525ebe76cddbe",
            "d20931c065cfcb7ba90acd5ff1aef77eab1f0da4550a10b7a322e41b9b37d25d",
        ),
    ] {
        let dir = tmp.path().join(format!("q{files}"));
        let v = family_json(&dir, args);
        assert_eq!(v["family"], "peaceable-queens");
        assert!(v.get("problem_file").is_none());
        // Field order and nothing new, in the file as written.
        let text = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
        let top: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("  \"") && !l.starts_with("   "))
            .map(|l| l.trim().split('"').nth(1).unwrap())
            .collect();
        assert_eq!(top, ["family", "generator", "command", "instances"]);
        let keys: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("      \""))
            .take(12)
            .map(|l| l.trim().split('"').nth(1).unwrap())
            .collect();
        assert_eq!(
            keys,
            [
                "file",
                "dim",
                "n",
                "model",
                "card",
                "symmetry",
                "variables",
                "clauses",
                "expected",
                "source",
                "sha256",
                "gbd"
            ]
        );
        // Every file's bytes and every manifest value, through the CSV.
        let csv = std::fs::read_to_string(dir.join("manifest.csv")).unwrap();
        let mut all = String::new();
        let rows: Vec<&str> = csv.lines().skip(1).collect();
        assert_eq!(rows.len(), files);
        for row in rows {
            // The ids (sha256, gbd) follow from the file's bytes, which are hashed here.
            let (rest, _gbd) = row.rsplit_once(',').unwrap();
            let (rest, _sha) = rest.rsplit_once(',').unwrap();
            all.push_str(rest);
            all.push('\n');
            let file = row.split(',').next().unwrap();
            let text = std::fs::read_to_string(dir.join(file)).unwrap();
            all.push_str(&text.replace(&format!("c {version}:"), "c pq-sat VERSION:"));
        }
        assert_eq!(sha256_of(all.as_bytes()), digest, "{args:?}");
        let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
        let mut lines: Vec<&str> = readme.split('\n').collect();
        assert!(lines[4].starts_with("    ") && lines[4].contains("family"));
        lines[4] = "    COMMAND";
        let readme = lines.join("\n").replace(&version, "pq-sat VERSION");
        assert_eq!(sha256_of(readme.as_bytes()), readme_digest, "{readme}");
    }
    // On boards whose a(d) is 0 the sizes below 1 are left out: the README promises no
    // satisfiable file there, and counts what it holds.
    let dir = tmp.path().join("small");
    let out = run(&["family", "--dim", "1..2", "-o", dir.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(!readme.contains("satisfiable and"), "{readme}");
    assert!(
        readme.contains("0 satisfiable, 2 unsatisfiable, 0 unknown"),
        "{readme}"
    );
    assert_eq!(
        names(&dir).iter().filter(|n| n.ends_with(".cnf")).count(),
        2
    );
    // The text summary names no problem for the queens, as before.
    let dir = tmp.path().join("text");
    let out = run(&["family", "--dim", "4", "-o", dir.to_str().unwrap()]);
    assert_eq!(code(&out), 0);
    assert!(
        stdout(&out).starts_with(&format!("wrote 4 instances to {} (", dir.display())),
        "{}",
        stdout(&out)
    );
}

#[test]
fn family_of_three_armies_verified_agrees_with_the_oracle() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("three");
    let file = example("three-armies.toml");
    let v = family_json(
        &dir,
        &[
            "--problem",
            &file,
            "--set",
            "board=4..5",
            "--set",
            "red=1,max",
            "--n",
            "1..3",
            "--symmetry",
            "lex-leader,none",
            "--verify",
            "30",
        ],
    );
    check_problem_manifest(&dir, &v);
    assert_eq!(v["family"], "three peaceable armies of queens");
    assert_eq!(v["problem_file"], file.as_str());
    let instances = v["instances"].as_array().unwrap();
    // 2 boards × 2 counts of red × 3 sizes × 2 symmetry settings.
    assert_eq!(instances.len(), 24);
    assert_eq!(
        instances[0]["file"],
        "three-armies-4x4-red1-n1-lines-totalizer-lex-leader.cnf"
    );
    assert_eq!(
        instances[23]["file"],
        "three-armies-5x5-redmax-n3-lines-totalizer-none.cnf"
    );
    assert_eq!(instances[0]["settings"], "board=4x4 red=1");
    let mut seen = std::collections::HashMap::new();
    for e in instances {
        let layout = layout_of(e);
        let red_fixed = e["settings"].as_str().unwrap().ends_with("red=1");
        let rules = queen_armies(&["red", "green", "blue"], layout);
        let (fixed, tied): (&[usize], &[usize]) = if red_fixed {
            (&[1, 0, 0], &[1, 2])
        } else {
            (&[], &[0, 1, 2])
        };
        let best = *seen
            .entry((layout.rows, red_fixed))
            .or_insert_with(|| placement_oracle::max_tied(&rules, fixed, tied));
        let n = e["n"].as_u64().unwrap() as usize;
        let truth = if best.is_some_and(|b| n <= b) {
            "sat"
        } else {
            "unsat"
        };
        assert_eq!(e["expected"], truth, "{e}");
        assert_eq!(e["model"], "lines", "colouring is written as lines: {e}");
    }
    // Both statuses occur, so the check above means something.
    assert!(instances.iter().any(|e| e["expected"] == "sat"));
    assert!(instances.iter().any(|e| e["expected"] == "unsat"));
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(readme.contains("# three peaceable armies of queens: a benchmark family"));
    assert!(readme.contains("every combination of `board` = 4x4, 5x5; `red` = 1, max"));

    // Without --verify: the three armies' statuses come from OEIS A328283's table (the
    // oracle's too: one army of each colour fits on 4x4, two do not) ...
    let dir2 = tmp.path().join("unverified");
    let v = family_json(
        &dir2,
        &["--problem", &file, "--set", "board=4", "--n", "1..2"],
    );
    let got: Vec<(&str, bool)> = v["instances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let source = e["source"].as_str().unwrap();
            (e["expected"].as_str().unwrap(), source.contains("A328283"))
        })
        .collect();
    assert_eq!(got, [("sat", true), ("unsat", true)], "{v}");
    // ... and where no table knows the problem (the same armies on a torus), nothing is
    // claimed.
    let dir3 = tmp.path().join("torus");
    let v = family_json(
        &dir3,
        &[
            "--problem",
            &file,
            "--set",
            "board=4",
            "--set",
            "torus=true",
            "--n",
            "1..2",
        ],
    );
    assert!(v["instances"]
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e["expected"] == "unknown" && e["source"] == ""));
}

#[test]
fn family_around_the_optimum_of_a_problem_finds_it_first() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("around");
    let file = example("three-armies.toml");
    let out = run(&[
        "family",
        "--problem",
        &file,
        "--set",
        "board=4..5",
        "--around-optimum",
        "1",
        "--verify",
        "30",
        "-o",
        dir.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("board=4x4: optimum n = "),
        "{}",
        stderr(&out)
    );
    let v = json(&out);
    check_problem_manifest(&dir, &v);
    for board in [4, 5] {
        let layout = Layout {
            rows: board,
            cols: board,
            torus: false,
        };
        let rules = queen_armies(&["red", "green", "blue"], layout);
        let a = placement_oracle::max_tied(&rules, &[], &[0, 1, 2]).unwrap();
        let got: Vec<(u64, &str)> = v["instances"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["rows"] == board)
            .map(|e| (e["n"].as_u64().unwrap(), e["expected"].as_str().unwrap()))
            .collect();
        let a = a as u64;
        assert_eq!(got, [(a, "sat"), (a + 1, "unsat")], "{board}x{board}");
    }
}

#[test]
fn family_of_dudeneys_chessboard_fixed_and_maximised() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("dudeney");
    let v = family_json(
        &dir,
        &[
            "--problem",
            &example("crowded-chessboard.toml"),
            "--set",
            "queens=2",
            "--set",
            "rooks=2",
            "--set",
            "bishops=2",
            "--set",
            "board=4x4",
            "--set",
            "knights=6,max",
            "--n",
            "7..9",
            "--verify",
            "30",
        ],
    );
    check_problem_manifest(&dir, &v);
    assert_eq!(v["family"], "Dudeney's crowded chessboard");
    let instances = v["instances"].as_array().unwrap();
    let names: Vec<&str> = instances
        .iter()
        .map(|e| e["file"].as_str().unwrap())
        .collect();
    // The fixed problem is one file (size 0, no n in its name); the maximised one has 3.
    assert_eq!(
        names,
        [
            "crowded-chessboard-4x4-queens2-rooks2-bishops2-knights6-lines-totalizer-lex-leader.cnf",
            "crowded-chessboard-4x4-queens2-rooks2-bishops2-knightsmax-n7-lines-totalizer-lex-leader.cnf",
            "crowded-chessboard-4x4-queens2-rooks2-bishops2-knightsmax-n8-lines-totalizer-lex-leader.cnf",
            "crowded-chessboard-4x4-queens2-rooks2-bishops2-knightsmax-n9-lines-totalizer-lex-leader.cnf",
        ]
    );
    assert_eq!(instances[0]["n"], 0);
    assert_eq!(
        instances[0]["settings"],
        "queens=2 rooks=2 bishops=2 board=4x4 knights=6"
    );
    // The rules by hand: each kind at peace with itself only.
    let rules = Rules::with_kinds(
        Layout {
            rows: 4,
            cols: 4,
            torus: false,
        },
        &[Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight],
        &[(0, 0), (1, 1), (2, 2), (3, 3)],
    );
    let truth = |ok: bool| if ok { "sat" } else { "unsat" };
    assert_eq!(
        instances[0]["expected"],
        truth(placement_oracle::feasible(&rules, &[2, 2, 2, 6]))
    );
    let most = placement_oracle::max_tied(&rules, &[2, 2, 2, 0], &[3]);
    for e in &instances[1..] {
        let n = e["n"].as_u64().unwrap() as usize;
        assert_eq!(e["expected"], truth(most.is_some_and(|m| n <= m)), "{e}");
    }
}

#[test]
fn family_on_the_torus_and_the_plain_board() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("torus");
    let v = family_json(
        &dir,
        &[
            "--problem",
            &example("peaceable-queens-torus.toml"),
            "--set",
            "board=4..5",
            "--set",
            "torus=true,false",
            "--n",
            "1..3",
            "--verify",
            "30",
        ],
    );
    check_problem_manifest(&dir, &v);
    let instances = v["instances"].as_array().unwrap();
    assert_eq!(instances.len(), 12);
    assert_eq!(
        instances[0]["file"],
        "peaceable-queens-torus-4x4-torus-n1-lines-totalizer-lex-leader.cnf"
    );
    assert_eq!(
        instances[3]["file"],
        "peaceable-queens-torus-4x4-n1-colouring-totalizer-lex-leader.cnf"
    );
    for e in instances {
        let layout = layout_of(e);
        let rules = queen_armies(&["white", "black"], layout);
        let n = e["n"].as_u64().unwrap() as usize;
        let best = placement_oracle::max_tied(&rules, &[], &[0, 1]);
        let truth = if best.is_some_and(|b| n <= b) {
            "sat"
        } else {
            "unsat"
        };
        assert_eq!(e["expected"], truth, "{e}");
        // The plain board is the peaceable queens: its own encoder and model, and the
        // queens oracle agrees.
        if layout.torus {
            assert_eq!(e["model"], "lines", "{e}");
        } else {
            assert_eq!(e["model"], "colouring", "{e}");
            assert_eq!(
                e["expected"],
                if oracle::feasible(layout.rows, n) {
                    "sat"
                } else {
                    "unsat"
                }
            );
        }
    }
}

#[test]
fn family_of_a_problem_bad_requests_are_clear_and_leave_nothing_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("fam");
    let d = dir.to_str().unwrap();
    let three = example("three-armies.toml");
    let dudeney = example("crowded-chessboard.toml");
    let missing = tmp.path().join("nope.toml");
    let missing = missing.to_str().unwrap();
    let fixed = [
        "--problem",
        dudeney.as_str(),
        "--set",
        "board=4x4",
        "--set",
        "queens=2",
        "--set",
        "rooks=2",
        "--set",
        "bishops=2",
        "--set",
        "knights=3",
    ];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--problem", &three, "--set", "board=6..4", "--n", "1"],
            "the range 6..4 is empty",
        ),
        (
            vec!["--problem", &three, "--set", "board=axb", "--n", "1"],
            "--set board: expected ROWSxCOLS",
        ),
        (
            vec!["--problem", &three, "--set", "red=lots", "--n", "1"],
            "expected a number of pieces or \"max\", got 'lots'",
        ),
        (
            vec!["--problem", &three, "--set", "dragons=3", "--n", "1"],
            "unknown key 'dragons'",
        ),
        (
            vec!["--problem", &three, "--set", "red=2,,3", "--n", "1"],
            "an empty value",
        ),
        (
            vec!["--problem", &three, "--set", "board", "--n", "1"],
            "expected KEY=VALUE",
        ),
        (
            vec![
                "--problem",
                &three,
                "--set",
                "board=4",
                "--set",
                "board=5",
                "--n",
                "1",
            ],
            "--set board is given twice",
        ),
        (
            vec![
                "--problem",
                &three,
                "--set",
                "board=1..64",
                "--set",
                "red=0..200",
                "--n",
                "1",
            ],
            "more than 10000 problems",
        ),
        (
            vec!["--problem", &three, "--set", "board=4"],
            "give the sizes of the maximised groups with --n LO..HI",
        ),
        (
            vec!["--problem", &three, "--around-optimum", "2"],
            "table of proven optima only for the peaceable queens",
        ),
        (
            vec!["--problem", &three, "--set", "board=4", "--n", "9..10"],
            "the family would be empty",
        ),
        (
            vec!["--problem", &dudeney, "--set", "board=4", "--n", "1"],
            "the counts ask for 30 pieces but the 4x4 board has 16 squares",
        ),
        (
            [&fixed[..], &["--n", "1..2"]].concat(),
            "--n: this problem maximises no group",
        ),
        (
            [&fixed[..], &["--around-optimum", "1"]].concat(),
            "--around-optimum: this problem maximises no group",
        ),
        (vec!["--problem", missing, "--n", "1"], "cannot read"),
        (
            vec!["--dim", "4", "--set", "board=4"],
            "--set needs --problem",
        ),
        (
            vec!["--dim", "4", "--problem", &three],
            "cannot be used with",
        ),
    ];
    for (args, msg) in cases {
        let mut all = vec!["family"];
        all.extend_from_slice(&args);
        all.extend_from_slice(&["-o", d]);
        let out = run(&all);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(msg), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?}");
    }
    assert!(!dir.exists());
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert!(left.is_empty(), "no staging directory is left behind");

    // A fixed problem needs no --n: one file per encoding, size 0.
    let v = family_json(&dir, &fixed);
    check_problem_manifest(&dir, &v);
    assert_eq!(v["instances"].as_array().unwrap().len(), 1);
    assert_eq!(v["instances"][0]["n"], 0);
}

#[test]
fn race_on_a_problem_family_checks_models_against_its_rules() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("fam");
    let v = family_json(
        &dir,
        &[
            "--problem",
            &example("three-armies.toml"),
            "--set",
            "board=4..5",
            "--set",
            "torus=false,true",
            "--n",
            "1..2",
            "--verify",
            "30",
        ],
    );
    let instances = v["instances"].as_array().unwrap().len();
    assert_eq!(instances, 8);
    let sat = v["instances"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["expected"] == "sat")
        .count();
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
    let out = run(&[
        "race",
        dir.to_str().unwrap(),
        "--backend",
        "cadical",
        "--backend",
        "kissat",
        "--backend",
        &always_sat,
        "--backend",
        &always_unsat,
        "--run-timeout",
        "30",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 1, "the liars make it 1: {}", stderr(&out));
    let r = json(&out);
    assert_eq!(r["instances"], instances);
    let solvers = r["solvers"].as_array().unwrap();
    for s in &solvers[..2] {
        assert_eq!(s["solved"], instances, "{s}");
        assert_eq!(s["wrong"], 0, "{s}");
        assert_eq!(s["sat"], sat, "{s}");
    }
    // The all-false model leaves every army empty: it violates each instance (n ≥ 1).
    assert_eq!(solvers[2]["wrong"], instances, "{}", solvers[2]);
    assert_eq!(solvers[3]["wrong"], sat, "{}", solvers[3]);

    // The real solvers' models were decoded with the rules from each file's header: a
    // file whose header claims more red queens than can be at peace with the other armies
    // (every other square red; its hash updated in the manifest) has its SAT answers judged
    // against that claim, and fails.
    let manifest_path = dir.join("manifest.json");
    let mut m: Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest_path).unwrap()).unwrap();
    let mut tightened = 0;
    for e in m["instances"].as_array_mut().unwrap() {
        if e["expected"] != "sat" {
            continue;
        }
        let path = dir.join(e["file"].as_str().unwrap());
        let text = std::fs::read_to_string(&path).unwrap();
        let n = e["n"].as_u64().unwrap();
        let squares = e["rows"].as_u64().unwrap() * e["cols"].as_u64().unwrap();
        let line = format!("c group red queen at least {n} (maximised)\n");
        let claim = format!(
            "c group red queen at least {} (maximised)\n",
            squares - 2 * n
        );
        assert!(text.contains(&line), "{text:.600}");
        std::fs::write(&path, text.replacen(&line, &claim, 1)).unwrap();
        e["sha256"] = Value::String(sha256sum(&path));
        tightened += 1;
    }
    assert!(tightened > 0);
    std::fs::write(&manifest_path, serde_json::to_string_pretty(&m).unwrap()).unwrap();
    let out = run(&[
        "race",
        dir.to_str().unwrap(),
        "--backend",
        "cadical",
        "--run-timeout",
        "30",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let r = json(&out);
    assert_eq!(r["solvers"][0]["wrong"], tightened, "{}", stdout(&out));
    assert!(
        stderr(&out).contains("fails the independent validator"),
        "{}",
        stderr(&out)
    );
}

/// The README names the command as `pq-sat family …` (not the path of the binary that ran)
/// and states `--around-optimum 1` as `a(d)..a(d)+1`.
#[test]
fn the_readme_records_a_command_to_run_again_and_the_sizes_plainly() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("fam");
    let out = crate::util::run(&[
        "family",
        "--dim",
        "4",
        "--around-optimum",
        "1",
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(crate::util::code(&out), 0, "{}", crate::util::stderr(&out));
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(readme.contains("pq-sat family --dim 4"), "{readme}");
    assert!(!readme.contains(crate::util::BIN), "{readme}");
    assert!(readme.contains("n = a(d)..a(d)+1"), "{readme}");
    assert!(!readme.contains("a(d)−0"), "{readme}");
}

/// `race` on a plain folder of CNF files (no manifest): statuses unknown until solved,
/// every SAT model checked, a liar's UNSAT contradicted by a checked model called wrong;
/// CSV with one row per run; a folder with no CNF file refused.
#[test]
fn race_on_a_plain_folder_of_cnf_files() {
    use crate::util::{code, encode_to, fake_solver, run, s, stderr, stdout};
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("mine");
    std::fs::create_dir(&dir).unwrap();
    encode_to("5", "4", &dir.join("sat.cnf"));
    encode_to("5", "5", &dir.join("unsat.cnf"));
    std::fs::write(dir.join("notes.txt"), "not an instance").unwrap();
    let liar = fake_solver(tmp.path(), "liar", "echo 's UNSATISFIABLE'; exit 20");
    let out = run(&[
        "race",
        s(&dir),
        "--backend",
        "kissat",
        "--backend",
        &liar,
        "--format",
        "csv",
    ]);
    assert_eq!(code(&out), 1, "the liar is caught: {}", stderr(&out));
    let csv = stdout(&out);
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(
        rows[0],
        "file,solver,expected,verdict,seconds,optimum,detail"
    );
    assert_eq!(rows.len(), 5, "{csv}");
    let verdict = |file: &str, solver: &str| {
        rows.iter()
            .find(|r| r.starts_with(&format!("{file},{solver},")))
            .unwrap_or_else(|| panic!("{file} {solver} in {csv}"))
            .split(',')
            .nth(3)
            .unwrap()
            .to_string()
    };
    assert_eq!(verdict("sat.cnf", "kissat"), "sat");
    assert_eq!(verdict("unsat.cnf", "kissat"), "unsat");
    assert_eq!(verdict("sat.cnf", &liar), "wrong");
    assert!(rows
        .iter()
        .all(|r| r.split(',').nth(2) == Some("unknown") || r.starts_with("file,")));

    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = run(&["race", s(&empty), "--backend", "kissat"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("no *.cnf"), "{}", stderr(&out));
}
