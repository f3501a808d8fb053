//! `pq-sat cube`: the cube directory it writes, its summary, its refusals, and above all
//! that no symmetry class of solutions is lost: every orbit of the brute-force oracle's
//! boards has a member that some cube, together with the formula, admits.

use std::collections::BTreeSet;
use std::path::Path;

use pq_board::placement::Placement;
use pq_engine::cube::{Manifest, CUBES_ICNF, FORMULA_CNF};
use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
use rustsat::types::Lit;

use crate::oracle;
use crate::util::{code, json, run, s, stderr, stdout};

/// Runs `pq-sat cube ARGS -o DIR`, which must succeed, and reads the directory back.
fn cube(dir: &Path, args: &[&str]) -> (Manifest, pq_encode::Formula) {
    let mut all = vec!["cube", "-o", s(dir)];
    all.extend(args);
    let out = run(&all);
    assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
    let manifest = Manifest::read(dir).unwrap();
    let text = std::fs::read(dir.join(FORMULA_CNF)).unwrap();
    let formula = pq_encode::dimacs::parse(&text[..]).unwrap();
    (manifest, formula)
}

/// The literals that put `board`'s queens on their squares (empty squares left open).
fn queens_of(formula: &pq_encode::Formula, board: &Placement) -> Vec<Lit> {
    let map = formula.pieces.as_ref().expect("a pq-sat formula");
    (map.vars.iter())
        .filter(|v| board.get(v.row, v.col) == Some(v.group))
        .map(|v| Lit::from_ipasir(v.dimacs as i32).unwrap())
        .collect()
}

/// Every orbit of the boards with exactly `n` queens of each colour has a member that the
/// formula admits together with some cube (with more queens allowed around it: the
/// formula asks for at least `n`, and the colouring model fills what its lines allow).
fn no_orbit_lost(d: usize, n: usize, manifest: &Manifest, formula: &pq_encode::Formula) {
    let mut solver = rustsat_cadical::CaDiCaL::default();
    solver.add_cnf(formula.cnf.clone()).unwrap();
    let cubes: Vec<Vec<Lit>> = (manifest.cubes.iter())
        .map(|c| {
            c.lits
                .iter()
                .map(|&l| Lit::from_ipasir(l).unwrap())
                .collect()
        })
        .collect();
    let orbits: BTreeSet<Placement> = oracle::all_boards_exact(d, n)
        .iter()
        .map(oracle::canonical)
        .collect();
    assert!(!orbits.is_empty(), "{d}/{n}: the oracle finds boards");
    for orbit in &orbits {
        let found = oracle::images(orbit).iter().any(|board| {
            let queens = queens_of(formula, board);
            cubes.iter().any(|cube| {
                let assumed: Vec<Lit> = queens.iter().chain(cube).copied().collect();
                solver.solve_assumps(&assumed).unwrap() == SolverResult::Sat
            })
        });
        assert!(
            found,
            "{d}/{n} {:?}: orbit lost:\n{orbit:?}",
            manifest.split
        );
    }
}

#[test]
fn cubes_lose_no_orbit_of_solutions() {
    let tmp = tempfile::tempdir().unwrap();
    let configs: &[&[&str]] = &[
        &[],
        &["--split", "lines"],
        &["--split", "lines", "--prefix", "7"],
        &["--symmetry", "none"],
        &["--symmetry", "none", "--split", "lines"],
        &["--free", "0", "--depth", "3"],
        &["--split", "lookahead", "--depth", "4"],
        &["--model", "pairwise", "--depth", "4"],
        &["--split", "counts", "--depth", "0"],
        &["--split", "counts", "--free", "0", "--depth", "2"],
        &["--symmetry", "none", "--split", "counts", "--depth", "0"],
    ];
    for (d, n) in [(4, 1), (4, 2), (5, 3), (5, 4), (6, 5)] {
        for (k, config) in configs.iter().enumerate() {
            let dir = tmp.path().join(format!("{d}-{n}-{k}"));
            let (ds, ns) = (d.to_string(), n.to_string());
            let mut args = vec!["--dim", &ds, "--n", &ns];
            args.extend(config.iter());
            let (manifest, formula) = cube(&dir, &args);
            no_orbit_lost(d, n, &manifest, &formula);
        }
    }
}

/// The counts add up: every line cube is kept or dropped once; the iCNF holds the formula's
/// clauses and one `a` line per cube, in id order.
#[test]
fn counts_add_up_and_the_icnf_matches_the_manifest() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("c");
    let (m, formula) = cube(&dir, &["--dim", "6", "--n", "5", "--depth", "0"]);
    let split = &m.split;
    let n = |k: &str| split[k].as_u64().unwrap();
    assert_eq!(split["method"], "rows");
    assert_eq!(n("line_cubes"), 64);
    assert_eq!(
        n("cubes"),
        64 - n("dropped_by_symmetry") - n("dropped_by_counts") - n("refuted_by_propagation")
    );
    assert_eq!(n("cubes") as usize, m.cubes.len());
    assert!(n("dropped_by_symmetry") > 0 && split["implied"] == true);
    assert_eq!(m.variables, formula.n_vars);
    assert_eq!(m.clauses, formula.n_clauses());
    let icnf = std::fs::read_to_string(dir.join(CUBES_ICNF)).unwrap();
    let lines: Vec<&str> = icnf.lines().filter(|l| !l.starts_with('c')).collect();
    assert_eq!(lines[0], "p inccnf");
    assert_eq!(lines.len(), 1 + m.clauses + m.cubes.len());
    let a_lines: Vec<Vec<i32>> = (lines.iter())
        .filter_map(|l| l.strip_prefix("a "))
        .map(|l| l.split_whitespace().map(|t| t.parse().unwrap()).collect())
        .collect();
    for (i, (cube, line)) in m.cubes.iter().zip(&a_lines).enumerate() {
        assert_eq!(cube.id, i + 1);
        assert_eq!(line.last(), Some(&0));
        assert_eq!(cube.lits, line[..line.len() - 1]);
    }
    let sha = pq_io::hashing::sha256_file(&dir.join(FORMULA_CNF)).unwrap();
    assert_eq!(m.sha256, sha);
}

/// The same step from --dim, from its DIMACS file and from the problem file gives the same
/// cubes; a file whose clauses were edited, or without pq-sat's header, is split by
/// look-ahead alone (its line structure is not taken on trust).
#[test]
fn every_input_is_split_and_only_pq_sats_own_files_on_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let (m, _) = cube(&tmp.path().join("dim"), &["--dim", "6", "--n", "4"]);
    let cnf = tmp.path().join("dim").join(FORMULA_CNF);
    let (from_file, _) = cube(&tmp.path().join("file"), &["--cnf", s(&cnf)]);
    assert_eq!(from_file.cubes, m.cubes);
    assert_eq!(from_file.sha256, m.sha256);
    let problem = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/encodings/peaceable-queens.toml"
    );
    let (from_problem, _) = cube(
        &tmp.path().join("problem"),
        &["--problem", problem, "--set", "board=6x6", "--n", "4"],
    );
    assert_eq!(from_problem.cubes, m.cubes);

    let text = std::fs::read_to_string(&cnf).unwrap();
    let edited = tmp.path().join("edited.cnf");
    // One clause more (`1 0`), the header's count raised to match.
    let edited_text: String = (text.lines())
        .map(|l| match l.strip_prefix("p cnf ") {
            Some(rest) => {
                let (v, c) = rest.split_once(' ').unwrap();
                format!("p cnf {v} {}\n", c.trim().parse::<usize>().unwrap() + 1)
            }
            None => format!("{l}\n"),
        })
        .collect();
    std::fs::write(&edited, edited_text + "1 0\n").unwrap();
    let bare = tmp.path().join("bare.cnf");
    let body: String = text
        .lines()
        .filter(|l| !l.starts_with('c'))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&bare, body).unwrap();
    for file in [&edited, &bare] {
        let out = run(&[
            "cube",
            "--cnf",
            s(file),
            "--depth",
            "3",
            "-o",
            s(&tmp.path().join(file.file_name().unwrap())).trim_end_matches(".cnf"),
            "--format",
            "json",
        ]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let v = json(&out);
        assert_eq!(v["split"]["method"], "lookahead", "{file:?}");
        assert!(v["cubes"].as_u64().unwrap() <= 8);
        assert!(stderr(&out).contains("look-ahead"), "{}", stderr(&out));
    }
}

#[test]
fn the_summary_and_json_say_what_was_split() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("c");
    let out = run(&["cube", "--dim", "7", "--n", "7", "-o", s(&dir)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(&format!(
            "{} cubes in ",
            Manifest::read(&dir).unwrap().cubes.len()
        )),
        "{text}"
    );
    assert!(
        text.contains("dropped by symmetry") && text.contains("implies"),
        "{text}"
    );
    // An existing cube directory is refused without --force, replaced with it.
    let again = run(&["cube", "--dim", "7", "--n", "7", "-o", s(&dir)]);
    assert_eq!(code(&again), 1);
    assert!(stderr(&again).contains("--force"), "{}", stderr(&again));
    let out = run(&[
        "cube",
        "--dim",
        "7",
        "--n",
        "7",
        "--symmetry",
        "none",
        "-o",
        s(&dir),
        "--force",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["split"]["implied"], false);
    assert_eq!(v["cubes"], v["split"]["cubes"]);
    assert_eq!(Manifest::read(&dir).unwrap().split, v["split"]);
    // Counts: the summary says so, and the directory's formula carries the counters.
    let counted = tmp.path().join("k");
    let out = run(&[
        "cube",
        "--dim",
        "7",
        "--n",
        "7",
        "--split",
        "counts",
        "-o",
        s(&counted),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("split on the numbers of white rows and columns")
            && text.contains("64 pairs")
            && text.contains("implies"),
        "{text}"
    );
    let m = Manifest::read(&counted).unwrap();
    assert_eq!(m.split["method"], "counts");
    assert!(m.variables > Manifest::read(&dir).unwrap().variables);
    let cnf = std::fs::read_to_string(counted.join(FORMULA_CNF)).unwrap();
    assert!(cnf.contains("\nc counters (pq-sat cube --split counts)"));
}

#[test]
fn bad_requests_are_refused_with_what_to_do() {
    let tmp = tempfile::tempdir().unwrap();
    let o = tmp.path().join("o");
    let cases: &[(&[&str], &str)] = &[
        (&["--dim", "6"], "--n N"),
        (&[], "--cnf FILE"),
        (
            &["--dim", "6", "--n", "4", "--prefix", "3"],
            "--split lines",
        ),
        (
            &[
                "--dim", "6", "--n", "4", "--split", "lines", "--prefix", "99",
            ],
            "1 to 24",
        ),
        (
            &[
                "--dim", "6", "--n", "4", "--model", "lines", "--split", "rows",
            ],
            "--split lookahead",
        ),
        (
            &[
                "--dim", "6", "--n", "4", "--model", "pairwise", "--split", "counts",
            ],
            "--split counts: needs the colouring model",
        ),
        (&["--dim", "4", "--n", "9"], "queens"),
    ];
    for (args, says) in cases {
        let mut all = vec!["cube", "-o", s(&o)];
        all.extend(args.iter());
        let out = run(&all);
        assert!(code(&out) == 1 || code(&out) == 2, "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
        assert!(!o.exists(), "{args:?} left {o:?}");
    }
}

/// `--estimate`: a repeatable sample of distinct cubes, a total of N times the sample's
/// mean, wall times falling with the workers down to the largest sampled cube.
#[test]
fn estimate_predicts_from_a_repeatable_sample() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("c");
    let (m, _) = cube(&dir, &["--dim", "6", "--n", "6"]);
    let n_cubes = m.cubes.len() as f64;
    let args = [
        "cube",
        s(&dir),
        "--estimate",
        "--sample",
        "4",
        "--seed",
        "9",
        "--format",
        "json",
    ];
    let first = run(&args);
    assert_eq!(code(&first), 0, "{}", stderr(&first));
    let e = json(&first);
    let ids = |v: &serde_json::Value| -> Vec<u64> {
        (v["sample"].as_array().unwrap().iter())
            .map(|c| c["id"].as_u64().unwrap())
            .collect()
    };
    let sampled = ids(&e);
    assert_eq!(
        sampled,
        ids(&json(&run(&args))),
        "the seed repeats the sample"
    );
    assert_eq!(sampled.len(), 4);
    assert_eq!(sampled.iter().collect::<BTreeSet<_>>().len(), 4);
    assert!(sampled
        .iter()
        .all(|&i| i >= 1 && i as usize <= m.cubes.len()));
    let times: Vec<f64> = (e["sample"].as_array().unwrap().iter())
        .map(|c| {
            assert_eq!(c["status"], "unsat");
            c["cpu_seconds"].as_f64().unwrap()
        })
        .collect();
    let total = &e["total_cpu"];
    let mean = times.iter().sum::<f64>() / 4.0;
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-6 + 1e-6 * b;
    assert!(
        close(total["estimate"].as_f64().unwrap(), n_cubes * mean),
        "{e}"
    );
    assert!(total["low"].as_f64() <= total["high"].as_f64());
    let wall: Vec<f64> = (e["wall"].as_array().unwrap().iter())
        .map(|w| w["seconds"]["estimate"].as_f64().unwrap())
        .collect();
    let workers: Vec<u64> = (e["wall"].as_array().unwrap().iter())
        .map(|w| w["workers"].as_u64().unwrap())
        .collect();
    assert_eq!(workers, [1, 2, 16, 128, 1024]);
    assert!(close(wall[0], n_cubes * mean));
    assert!(wall.windows(2).all(|w| w[1] <= w[0] + 1e-9), "{wall:?}");
    let largest = times.iter().copied().fold(0.0, f64::max);
    assert!(close(wall[4], largest), "{wall:?} {largest}");
    assert_eq!(e["sat"], serde_json::Value::Null);
    assert_eq!(e["lower_bound"], false);

    // The text table, with the solver named.
    let out = run(&["cube", s(&dir), "--estimate", "--sample", "2", "-q"]);
    let text = stdout(&out);
    assert!(
        text.contains("from a sample of 2 (cadical") && text.contains("1024"),
        "{text}"
    );
}

#[test]
fn estimate_after_a_split_finds_a_sat_cube_and_refuses_a_changed_formula() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("c");
    // a(5) = 4: some cube is SAT; a sample of every cube finds it and validates its board.
    let out = run(&[
        "cube",
        "--dim",
        "5",
        "--n",
        "4",
        "-o",
        s(&dir),
        "--estimate",
        "--sample",
        "100",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["split"]["method"], "rows");
    let e = &v["estimate"];
    assert_eq!(
        e["sample"].as_array().unwrap().len(),
        v["cubes"].as_u64().unwrap() as usize
    );
    let sat = e["sat"].as_u64().expect("a SAT cube");
    assert!(e["sample"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["id"] == sat && c["status"] == "sat"));

    let cnf = dir.join(FORMULA_CNF);
    let text = std::fs::read_to_string(&cnf).unwrap();
    std::fs::write(&cnf, text.replacen("c ", "c edited ", 1)).unwrap();
    let out = run(&["cube", s(&dir), "--estimate"]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("SHA-256"), "{}", stderr(&out));
    let out = run(&["cube", s(&tmp.path().join("none")), "--estimate"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("no such cube directory"),
        "{}",
        stderr(&out)
    );
    let out = run(&[
        "cube",
        "--dim",
        "5",
        "--n",
        "4",
        "-o",
        s(&dir),
        "--sample",
        "3",
    ]);
    assert_eq!(code(&out), 2, "--sample needs --estimate");
}
