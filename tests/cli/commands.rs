//! End to end through the real `pq-sat` binary: encode → solver → decode, output shapes,
//! exit codes, and every kind of bad input.

use crate::oracle;

use crate::util::*;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// A bad input: one clear line on stderr (no panic, no backtrace) and the given exit code.
fn assert_clean_failure(out: &Output, expected_code: i32, needle: &str) {
    let err = stderr(out);
    assert_eq!(code(out), expected_code, "stderr: {err}");
    assert!(err.contains(needle), "expected '{needle}' in: {err}");
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "nothing on stdout: {}", stdout(out));
}

#[test]
fn encode_writes_a_documented_dimacs_file() {
    let out = run(&["encode", "--dim", "8", "--n", "10"]);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    for line in [
        "c dim 8",
        "c n 10",
        "c model colouring",
        "c card totalizer",
        "c symmetry lex-leader",
        "c lex-leader over the line variables for the 15 non-identity elements of the 16-element group (8 board symmetries x colour swap): at least one solution of every orbit is kept",
        "c var 1 white 1 1",
        "c var 8 white 1 8",
        "c var 64 white 8 8",
        "c var 65 black 1 1",
        "c var 128 black 8 8",
    ] {
        assert!(text.lines().any(|l| l == line), "missing '{line}'");
    }
    assert!(text.starts_with("c pq-sat "));
    assert_eq!(
        text.lines().filter(|l| l.starts_with("c var ")).count(),
        128
    );
    let header = text.lines().find(|l| l.starts_with("p cnf ")).unwrap();
    let fields: Vec<usize> = header[6..].split(' ').map(|x| x.parse().unwrap()).collect();
    let body: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
        .collect();
    assert_eq!(body.len(), fields[1]);
    assert!(body.iter().all(|l| l.ends_with(" 0") || *l == "0"));
}

#[test]
fn encode_pipes_into_an_external_solver_and_back() {
    for (n, expected) in [(5, 10), (6, 20)] {
        let cnf = run(&["encode", "--dim", "6", "--n", &n.to_string()]);
        assert_eq!(code(&cnf), 0);
        for backend in [
            "kissat",
            "minisat",
            "cadical-bin",
            "cadical",
            "cadical-sat",
            "cadical-unsat",
            "varisat",
        ] {
            let out = run_with_stdin(
                &["solve", "--backend", backend, "--format", "json"],
                Some(&cnf.stdout),
            );
            assert_eq!(code(&out), expected, "{backend}: {}", stderr(&out));
            let v = json(&out);
            assert_eq!(v["dim"], 6);
            assert_eq!(v["n"], n);
            if expected == 10 {
                let board = board_of(&v);
                assert!(oracle::is_peaceable(&board, 6, 5));
                assert_eq!(board.count(0), 5);
                assert_eq!(board.count(1), 5);
            } else {
                assert!(v.get("board").is_none());
            }
        }
    }
}

#[test]
fn solve_cnf_file_decodes_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("q.cnf");
    let out = run(&[
        "encode",
        "--dim",
        "5",
        "--n",
        "4",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 0);
    assert!(out.stdout.is_empty());
    let out = run(&[
        "solve",
        "--cnf",
        path.to_str().unwrap(),
        "--backend",
        "minisat",
    ]);
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("SAT"), "{text}");
    let rows: Vec<String> = text
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().skip(1).collect())
        .collect();
    let board = oracle::board(&rows);
    assert!(oracle::is_peaceable(&board, 5, 4), "{text}");
}

#[test]
fn a_foreign_cnf_without_a_variable_map_is_solved_without_a_board() {
    let out = run_with_stdin(
        &["solve", "--format", "json"],
        Some(b"p cnf 2 2\n1 2 0\n-1 0\n"),
    );
    assert_eq!(code(&out), 10);
    let v = json(&out);
    assert_eq!(v["status"], "sat");
    assert!(v.get("board").is_none());
    assert_eq!(v["variables"], 2);
    let out = run_with_stdin(
        &["solve", "--backend", "kissat"],
        Some(b"p cnf 1 2\n1 0\n-1 0\n"),
    );
    assert_eq!(code(&out), 20);
    assert!(stdout(&out).starts_with("UNSAT"));
}

#[test]
fn check_json_has_the_documented_shape() {
    let out = run(&[
        "solve", "--dim", "7", "--n", "7", "--format", "json", "--model", "lines", "--jobs", "1",
    ]);
    assert_eq!(code(&out), 10);
    let v = json(&out);
    for key in [
        "dim", "n", "status", "board", "backend", "solver", "model", "card", "symmetry", "seconds",
    ] {
        assert!(v.get(key).is_some(), "missing {key}: {v}");
    }
    assert_eq!(v["status"], "sat");
    assert_eq!(v["backend"], "cadical");
    assert_eq!(v["solver"], "cadical");
    assert_eq!(v["model"], "lines");
    let board = board_of(&v);
    assert_eq!(board.rows, 7);
    assert!(oracle::is_peaceable(&board, 7, 7));

    let out = run(&["solve", "--dim", "7", "--n", "8", "--format", "json"]);
    assert_eq!(code(&out), 20);
    let v = json(&out);
    assert_eq!(v["status"], "unsat");
    assert!(v.get("board").is_none());
}

#[test]
fn optimise_reports_steps_and_a_witness() {
    let out = run(&["solve", "--dim", "7", "--format", "json"]);
    assert_eq!(code(&out), 30, "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["optimum"], 7);
    assert_eq!(v["status"], "sat");
    let board = board_of(&v);
    assert!(oracle::is_peaceable(&board, 7, 7));
    assert_eq!(board.count(0), 7);
    let steps = v["steps"].as_array().unwrap();
    let last = steps.last().unwrap();
    assert_eq!(last["n"], 8);
    assert_eq!(last["status"], "unsat");
    // Each step also went to stderr as it finished.
    assert!(stderr(&out).contains("n = 8: unsat"), "{}", stderr(&out));

    let out = run(&["solve", "--dim", "6"]);
    assert_eq!(code(&out), 30);
    assert!(stdout(&out).starts_with("a(6) = 5:"), "{}", stdout(&out));
}

#[test]
fn optimise_agrees_with_brute_force_on_tiny_boards() {
    for d in 1..=4 {
        let out = run(&[
            "solve",
            "--dim",
            &d.to_string(),
            "--format",
            "json",
            "--backend",
            "kissat",
        ]);
        assert_eq!(code(&out), 30, "{}", stderr(&out));
        assert_eq!(json(&out)["optimum"], oracle::optimum(d), "d={d}");
    }
}

#[test]
fn timeout_gives_unknown_with_every_backend() {
    // d = 10, n = 15 is UNSAT and takes any of these solvers far longer than a second.
    for backend in ["cadical", "varisat", "kissat", "minisat", "cadical-bin"] {
        let start = Instant::now();
        let out = run(&[
            "solve",
            "--dim",
            "10",
            "--n",
            "15",
            "--backend",
            backend,
            "--timeout",
            "1",
            "--format",
            "json",
        ]);
        let elapsed = start.elapsed();
        assert_eq!(code(&out), 0, "{backend}: {}", stderr(&out));
        let v = json(&out);
        assert_eq!(v["status"], "unknown", "{backend}");
        assert!(v.get("board").is_none());
        assert!(
            elapsed < Duration::from_secs(20),
            "{backend} took {elapsed:?}"
        );
    }
    for limit in ["--timeout", "--step-timeout"] {
        // The SAT path: the line engine answers a(11) well within the limit.
        let out = run(&[
            "solve", "--dim", "11", limit, "1", "--engine", "sat", "--format", "json",
        ]);
        assert_eq!(code(&out), 10);
        let v = json(&out);
        assert_eq!(v["status"], "unknown", "{limit}");
        assert!(v["optimum"].is_null(), "a run cut short claims no optimum");
        assert!(v["lower_bound"].as_u64().unwrap() >= 1);
        assert!(v["seconds"].as_f64().unwrap() > 0.0);
        assert!(v["reason"].as_str().unwrap().contains("time limit"), "{v}");
        let last = v["steps"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(last["status"], "unknown", "{limit}");
    }
}

/// The processes whose parent is `pid` (from /proc).
fn children_of(pid: u32) -> Vec<i32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // The command name may contain spaces; the fields after its closing ')' do not.
        let after = &stat[stat.rfind(')').unwrap() + 2..];
        let ppid: u32 = after.split_whitespace().nth(1).unwrap().parse().unwrap();
        if ppid == pid {
            out.push(child);
        }
    }
    out
}

/// Runs pq-sat until it exits, sending it SIGINT after `interrupt_after` if given, and
/// records every child process it starts. Returns the output and the children seen.
fn run_watching_children(args: &[&str], interrupt_after: Option<Duration>) -> (Output, Vec<i32>) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let mut seen = std::collections::BTreeSet::new();
    let mut interrupted = false;
    while child.try_wait().unwrap().is_none() {
        seen.extend(children_of(child.id()));
        if let Some(after) = interrupt_after {
            if !interrupted && start.elapsed() >= after {
                unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
                interrupted = true;
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    (
        child.wait_with_output().unwrap(),
        seen.into_iter().collect(),
    )
}

#[test]
fn portfolio_answers_and_leaves_no_child_behind() {
    // kissat answers 8/10 in under a second; minisat needs far longer and must be killed.
    let (out, children) = run_watching_children(
        &[
            "solve",
            "--dim",
            "8",
            "--n",
            "10",
            "--backend",
            "kissat",
            "--backend",
            "minisat",
            "--backend",
            "cadical-bin",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["backend"], "portfolio(kissat, minisat, cadical-bin)");
    assert!(
        ["kissat", "minisat", "cadical-bin"].contains(&v["solver"].as_str().unwrap()),
        "{v}"
    );
    assert!(
        children.len() >= 2,
        "the solvers ran as children: {children:?}"
    );
    for pid in children {
        assert!(!process_alive(pid), "solver {pid} outlived pq-sat");
    }

    // The default portfolio (as many solvers as cores) reaches the same optimum.
    let out = run(&[
        "solve", "--dim", "7", "--jobs", "2", "--engine", "sat", "--format", "json",
    ]);
    assert_eq!(code(&out), 30, "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["optimum"], 7);
    assert_eq!(
        v["backend"],
        "cubes(cadical-sat x 2), else portfolio(cadical, kissat)"
    );
}

#[test]
fn ctrl_c_prints_the_best_so_far_and_stops_every_solver() {
    // a(11) = 17; the greedy start finds 17, and proving 18 impossible takes minutes.
    let (out, children) = run_watching_children(
        &[
            "solve",
            "--dim",
            "11",
            "--backend",
            "kissat",
            "--backend",
            "cadical",
            "--format",
            "json",
            "--progress",
            "none",
        ],
        Some(Duration::from_secs(2)),
    );
    assert_eq!(code(&out), 130, "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["status"], "unknown");
    assert!(
        v["optimum"].is_null(),
        "an interrupted run claims no optimum"
    );
    let best = v["lower_bound"].as_u64().unwrap() as usize;
    assert!(best >= 1);
    let board = board_of(&v);
    assert!(oracle::is_peaceable(&board, 11, best));
    assert!(v["reason"].as_str().unwrap().contains("interrupted"), "{v}");
    assert!(!children.is_empty(), "kissat ran as a child");
    for pid in children {
        assert!(!process_alive(pid), "solver {pid} outlived pq-sat");
    }
}

#[test]
fn help_explains_the_options() {
    let out = run(&["solve", "--help"]);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    for word in [
        "--backend",
        "kissat",
        "--timeout",
        "--format",
        "--cnf",
        "--solver-cmd",
        "colouring",
        "--jobs",
        "--step-timeout",
        "portfolio",
    ] {
        assert!(text.contains(word), "{word}");
    }
}

#[test]
fn usage_errors_exit_2_with_one_clear_line() {
    let cases: &[(&[&str], &str)] = &[
        (&["solve", "--dim", "0"], "board size must be at least 1"),
        (&["solve", "--dim", "65"], "too large"),
        (
            &["solve", "--dim", "x"],
            "board size must be a whole number",
        ),
        (
            &["solve", "--dim", "8", "--n", "-3"],
            "army size must be 0 or more",
        ),
        (&["solve", "--dim", "8", "--jobs", "0"], "--jobs must be"),
        (
            &[
                "solve",
                "--dim",
                "8",
                "--jobs",
                "1",
                "--backend",
                "kissat",
                "--backend",
                "minisat",
            ],
            "2 solvers were named but --jobs is 1",
        ),
        (
            &["solve", "--dim", "8", "--n", "9", "--step-timeout", "5"],
            "--step-timeout applies to optimisation",
        ),
        (&["encode", "--dim", "8", "--n", "33"], "need 66 squares"),
        (
            &["encode", "--dim", "8", "--n", "10", "--model", "pairs"],
            "unknown model 'pairs'",
        ),
        (
            &["encode", "--dim", "8", "--n", "10", "--card", "adder"],
            "unknown cardinality encoding",
        ),
        (
            &["encode", "--dim", "8", "--n", "10", "--symmetry", "all"],
            "unknown symmetry",
        ),
        (
            &["solve", "--dim", "8", "--backend", "glucose"],
            "unknown backend 'glucose'",
        ),
        (&["solve", "--n", "3"], "--dim"),
        (&["solve", "--dim", "5", "--timeout", "-1"], "timeout"),
        (
            &["solve", "--cnf", "x.cnf", "--model", "lines"],
            "--model only applies",
        ),
        (&["encode", "--dim", "8"], "--n"),
        (&["solve", "--dim", "4..8"], "pq-sat family --dim 4..8"),
        (&["enumerate", "--dim", "6,7"], "answers one board size"),
    ];
    for (args, needle) in cases {
        let out = run(args);
        assert_clean_failure(&out, 2, needle);
    }
}

#[test]
fn missing_solver_names_the_setup_script() {
    let out = Command::new(BIN)
        .args(["solve", "--dim", "4", "--n", "2", "--backend", "kissat"])
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    assert_clean_failure(&out, 1, "scripts/setup.sh");
    let out = run(&[
        "solve",
        "--dim",
        "4",
        "--n",
        "2",
        "--solver-cmd",
        "no-such-solver-xyz -q",
    ]);
    assert_clean_failure(&out, 1, "no-such-solver-xyz");
}

#[test]
fn unreadable_or_malformed_cnf_files_are_errors_with_line_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&[
        "solve",
        "--cnf",
        dir.path().join("missing.cnf").to_str().unwrap(),
    ]);
    assert_clean_failure(&out, 1, "missing.cnf");
    let bad = dir.path().join("bad.cnf");
    std::fs::write(&bad, "c hello\np cnf 3 2\n1 2 0\n1 x 0\n").unwrap();
    let out = run(&["solve", "--cnf", bad.to_str().unwrap()]);
    assert_clean_failure(&out, 1, "line 4: 'x' is not a literal");
    let out = run_with_stdin(&["solve"], Some(b"p cnf 2 1\n1 5 0\n"));
    assert_clean_failure(&out, 1, "line 2: literal 5 is beyond the 2 variables");
}

#[test]
fn broken_solvers_are_reported_with_their_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "crash",
            "echo 'segfault ahead' >&2; kill -SEGV $$",
            "signal",
        ),
        ("silent", "echo 'nothing to say' >&2; exit 0", "no s line"),
        ("weird", "echo 'weird failure' >&2; exit 3", "code 3"),
        (
            "liar",
            "echo 's SATISFIABLE'; echo 'v 1 2 3 0'; exit 10",
            "violates clause",
        ),
    ];
    for (name, body, needle) in cases {
        let cmd = fake_solver(dir.path(), name, body);
        let out = run(&["solve", "--dim", "4", "--n", "2", "--solver-cmd", &cmd]);
        assert_clean_failure(&out, 1, needle);
        if name != "liar" {
            let first = body.split('\'').nth(1).unwrap();
            assert!(
                stderr(&out).contains(first),
                "{name}: solver stderr missing: {}",
                stderr(&out)
            );
        }
    }
}

#[test]
fn output_file_is_never_half_written() {
    let dir = tempfile::tempdir().unwrap();
    // The target is a directory: the write must fail cleanly and leave no temporary file.
    let target = dir.path().join("taken");
    std::fs::create_dir(&target).unwrap();
    let out = run(&[
        "encode",
        "--dim",
        "6",
        "--n",
        "5",
        "-o",
        target.to_str().unwrap(),
    ]);
    assert_clean_failure(&out, 1, "taken");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 1, "only the directory itself remains");
    // A missing directory is an error too.
    let out = run(&[
        "encode",
        "--dim",
        "6",
        "--n",
        "5",
        "-o",
        dir.path().join("no/such/file.cnf").to_str().unwrap(),
    ]);
    assert_clean_failure(&out, 1, "cannot create");
    // An existing file is replaced whole (with --force: without it, it is refused).
    let file = dir.path().join("q.cnf");
    std::fs::write(&file, "old").unwrap();
    let out = run(&[
        "encode",
        "--dim",
        "6",
        "--n",
        "5",
        "-o",
        file.to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(code(&out), 0);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with("c pq-sat") && text.ends_with(" 0\n"));
}

fn process_alive(pid: i32) -> bool {
    // A zombie is already dead; only a running or sleeping process counts.
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat.split(") ").nth(1).unwrap_or("").starts_with('Z'),
        Err(_) => false,
    }
}

#[test]
fn ctrl_c_leaves_no_solver_running() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let cmd = fake_solver(
        dir.path(),
        "slow",
        &format!("echo $$ > {}; sleep 60 & wait", pidfile.display()),
    );
    let mut child = Command::new(BIN)
        .args(["solve", "--dim", "4", "--n", "2", "--solver-cmd", &cmd])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !pidfile.exists() || std::fs::read_to_string(&pidfile).unwrap().trim().is_empty() {
        assert!(Instant::now() < deadline, "the fake solver never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let solver_pid: i32 = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(process_alive(solver_pid));
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert_ne!(status.code(), Some(0));
    let deadline = Instant::now() + Duration::from_secs(5);
    while process_alive(solver_pid) {
        assert!(
            Instant::now() < deadline,
            "solver {solver_pid} outlived pq-sat"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn enumerate_counts_orbits_and_totals() {
    let out = run(&["enumerate", "--dim", "6", "--count"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let expected = oracle::all_boards_exact(6, 5);
    assert_eq!(
        stdout(&out).trim(),
        oracle::count_orbits(&expected).to_string()
    );
    assert!(
        stderr(&out).contains("a(6) = 5"),
        "n defaults to a(d), found first"
    );
    let out = run(&[
        "enumerate",
        "--dim",
        "6",
        "--n",
        "5",
        "--up-to",
        "total",
        "--count",
    ]);
    assert_eq!(stdout(&out).trim(), expected.len().to_string());
}

#[test]
fn enumerate_json_lists_canonical_boards_with_orbit_sizes() {
    let out = run(&["enumerate", "--dim", "5", "--n", "4", "--format", "json"]);
    assert_eq!(code(&out), 0);
    let v = json(&out);
    assert_eq!(v["dim"], 5);
    assert_eq!(v["n"], 4);
    assert_eq!(v["up_to"], "symmetry");
    let boards = v["boards"].as_array().unwrap();
    let sizes = v["orbit_sizes"].as_array().unwrap();
    assert_eq!(v["count"].as_u64().unwrap() as usize, boards.len());
    assert_eq!(sizes.len(), boards.len());
    let mut total = 0;
    for (rows, size) in boards.iter().zip(sizes) {
        let board = board_of(&serde_json::json!({ "board": rows }));
        assert!(oracle::is_peaceable(&board, 5, 4));
        let size = size.as_u64().unwrap() as usize;
        assert_eq!(size, oracle::orbit_size(&board));
        total += size;
    }
    assert_eq!(total, oracle::all_boards_exact(5, 4).len());
    // --limit stops early and says so.
    let out = run(&[
        "enumerate",
        "--dim",
        "6",
        "--n",
        "4",
        "--limit",
        "2",
        "--format",
        "json",
    ]);
    let v = json(&out);
    assert_eq!(v["count"], 2);
    assert_eq!(v["complete"], false);
}

#[test]
fn enumerate_on_the_line_engine_counts_what_brute_force_counts() {
    for (d, n) in [(5, 4), (6, 5), (6, 4)] {
        let expected = oracle::all_boards_exact(d, n);
        for (up_to, want) in [
            ("symmetry", oracle::count_orbits(&expected)),
            ("total", expected.len()),
        ] {
            let (d_arg, n_arg) = (d.to_string(), n.to_string());
            let out = run(&[
                "enumerate",
                "--dim",
                &d_arg,
                "--n",
                &n_arg,
                "--engine",
                "lines",
                "--up-to",
                up_to,
                "--jobs",
                "2",
                "--format",
                "json",
            ]);
            assert_eq!(code(&out), 0, "{}", stderr(&out));
            let v = json(&out);
            assert_eq!(
                v["count"].as_u64().unwrap() as usize,
                want,
                "{d}/{n} {up_to}"
            );
            assert_eq!(v["complete"], true);
            for rows in v["boards"].as_array().unwrap() {
                let board = board_of(&serde_json::json!({ "board": rows }));
                assert!(oracle::is_peaceable(&board, d, n));
            }
        }
    }
    // Without --n, the line engine finds the optimum first.
    let out = run(&["enumerate", "--dim", "6", "--engine", "lines", "--count"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let orbits = oracle::count_orbits(&oracle::all_boards_exact(6, 5));
    assert_eq!(stdout(&out).trim(), orbits.to_string());
    assert!(stderr(&out).contains("a(6) = 5"), "{}", stderr(&out));
}

#[test]
fn enumerate_on_the_line_engine_refuses_what_it_cannot_list() {
    let out = run(&[
        "enumerate",
        "--dim",
        "5",
        "--engine",
        "lines",
        "--model",
        "lines",
    ]);
    assert_clean_failure(
        &out,
        2,
        "--engine lines reads no formula: it cannot take --model",
    );
    let out = run(&["enumerate", "--dim", "5", "--engine", "lines", "--maximal"]);
    assert_clean_failure(&out, 2, "maximal configurations");
    let out = run(&[
        "enumerate",
        "--problem",
        "encodings/three-armies.toml",
        "--engine",
        "lines",
    ]);
    assert_clean_failure(&out, 2, "two armies only");
}

#[test]
fn canon_gives_one_form_per_orbit() {
    let board = oracle::board(&["W.B..", ".....", "..W..", ".....", "B...."]);
    let mut forms = std::collections::BTreeSet::new();
    for image in oracle::images(&board) {
        let text = image.to_labelled_text(&['W', 'B']);
        let out = run_with_stdin(&["canon", "--format", "json"], Some(text.as_bytes()));
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let v = json(&out);
        assert_eq!(
            v["orbit_size"].as_u64().unwrap() as usize,
            oracle::orbit_size(&board)
        );
        forms.insert(v["canonical"].to_string());
    }
    assert_eq!(forms.len(), 1, "every image has the same canonical form");
    // The canonical form is its own canonical form.
    let out = run_with_stdin(
        &["canon", "--format", "json"],
        Some(forms.iter().next().unwrap().as_bytes()),
    );
    assert_eq!(json(&out)["is_canonical"], true);
}

#[test]
fn enumerate_and_canon_reject_bad_input() {
    let out = run(&["enumerate", "--dim", "5", "--model", "colouring"]);
    assert_clean_failure(&out, 2, "lines or pairwise");
    let out = run(&["enumerate", "--dim", "5", "--limit", "0"]);
    assert_clean_failure(&out, 2, "--limit");
    let out = run(&["enumerate", "--dim", "5", "--n", "13"]);
    assert_clean_failure(&out, 2, "need 26 squares");
    let out = run_with_stdin(&["canon"], Some(b"W..\n.x.\n...\n"));
    assert_clean_failure(&out, 1, "unknown square 'x'");
    let out = run_with_stdin(&["canon"], Some(b"W..\n..\n...\n"));
    assert_clean_failure(&out, 1, "row 2 has 2 squares");
    let out = run_with_stdin(&["canon"], Some(b"{\"rows\": 1}"));
    assert_clean_failure(&out, 1, "JSON board");
}

#[test]
fn every_strategy_reports_the_optimum() {
    for strategy in ["up", "incremental", "bisect"] {
        let out = run(&[
            "solve",
            "--dim",
            "7",
            "--strategy",
            strategy,
            "--format",
            "json",
        ]);
        assert_eq!(code(&out), 30, "{strategy}: {}", stderr(&out));
        let v = json(&out);
        assert_eq!(v["optimum"], 7, "{strategy}");
        assert_eq!(v["strategy"], strategy);
        assert!(oracle::is_peaceable(&board_of(&v), 7, 7));
    }
    let out = run(&[
        "solve",
        "--dim",
        "7",
        "--strategy",
        "incremental",
        "--backend",
        "kissat",
    ]);
    assert_clean_failure(&out, 2, "in-process CaDiCaL");
    let out = run(&[
        "solve",
        "--dim",
        "7",
        "--strategy",
        "incremental",
        "--card",
        "seqcounter",
    ]);
    assert_clean_failure(&out, 2, "--card totalizer");
    let out = run(&["solve", "--dim", "7", "--strategy", "sideways"]);
    assert_clean_failure(&out, 2, "unknown strategy");
    let out = run(&[
        "solve",
        "--dim",
        "11",
        "--strategy",
        "incremental",
        "--timeout",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 10);
    let v = json(&out);
    assert_eq!(v["status"], "unknown");
    assert!(v["optimum"].is_null());
}

#[test]
fn solvers_lists_backends_and_how_to_install_the_missing_ones() {
    let out = run(&["solvers", "--format", "json"]);
    assert_eq!(code(&out), 0);
    let list = json(&out);
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "cadical",
            "cadical-sat",
            "cadical-unsat",
            "varisat",
            "kissat",
            "minisat",
            "cadical-bin",
            "lines",
            "rc2",
            "clasp"
        ]
    );
    assert!(
        list.as_array()
            .unwrap()
            .iter()
            .all(|s| s["available"] == true),
        "setup installs all: {list}"
    );
    let out = Command::new(BIN)
        .args(["solvers", "--format", "json"])
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    let kissat = list
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "kissat")
        .unwrap();
    assert_eq!(kissat["available"], false);
    assert!(kissat["install"]
        .as_str()
        .unwrap()
        .contains("scripts/setup.sh"));
    assert_eq!(
        list[0]["available"], true,
        "in-process backends need nothing on PATH"
    );
}

#[test]
fn progress_is_a_live_line_on_a_terminal_and_plain_lines_otherwise() {
    // Not a terminal: one plain line per step, or nothing.
    let out = run(&["solve", "--dim", "6", "--jobs", "1"]);
    assert!(
        stderr(&out).contains("pq-sat: n = 6: unsat"),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains('\x1b'), "no terminal codes in a log");
    let out = run(&["solve", "--dim", "6", "--jobs", "1", "--progress", "none"]);
    assert!(!stderr(&out).contains("n = 6"), "{}", stderr(&out));

    // A terminal (a pseudo-terminal from util-linux `script`): the live line is drawn and
    // cleared before the answer.
    let probe = Command::new("script")
        .args(["-qec", "test -t 2", "/dev/null"])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        eprintln!("skipping the terminal half: no pseudo-terminal from util-linux `script` here");
        return;
    }
    let cmd = format!("{BIN} solve --dim 8 --jobs 1");
    let out = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("n = 10: solving (lines)"), "{text}");
    assert!(text.contains("\x1b[2K"), "the live line is cleared: {text}");
    assert!(text.contains("a(8) = 9"), "{text}");
}

#[test]
fn render_draws_queens_boards_from_json_and_text() {
    let out = run(&["solve", "--dim", "6", "--format", "json", "--jobs", "1"]);
    assert_eq!(code(&out), 30);
    for input in [
        out.stdout.clone(),
        run(&["solve", "--dim", "6", "--jobs", "1"]).stdout,
    ] {
        let svg = run_with_stdin(&["render"], Some(&input));
        assert_eq!(code(&svg), 0, "{}", stderr(&svg));
        let text = stdout(&svg);
        let doc = roxmltree::Document::parse(&text).expect("well-formed SVG");
        let pieces = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("piece"))
            .count();
        assert_eq!(pieces, 10, "a(6) = 5 of each colour");
    }
    let bad = run_with_stdin(&["render"], Some(b"{\"nothing\": 1}"));
    assert_eq!(code(&bad), 1);
    assert!(stderr(&bad).contains("board"), "{}", stderr(&bad));
}

/// `solve -h` is short enough to read (one line an option, in groups: input, engine,
/// encoding, limits, proofs, output); `--help` keeps the long explanations.
#[test]
fn solve_short_help_is_grouped_and_short() {
    let short = stdout(&run(&["solve", "-h"]));
    assert!(short.lines().count() <= 60, "{short}");
    for group in [
        "Input:",
        "Engine:",
        "Encoding:",
        "Limits:",
        "Proofs:",
        "Output:",
    ] {
        assert!(short.lines().any(|l| l == group), "{group} in {short}");
    }
    let long = stdout(&run(&["solve", "--help"]));
    assert!(long.lines().count() > 2 * short.lines().count());
    assert!(long.contains("native branch-and-bound on the line labelling"));
}
