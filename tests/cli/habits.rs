//! A SAT solver's habits: `solve FILE` and `solve -`, standard input solved exactly as a
//! file is, and the SAT competition's output (`--format competition`) that `decode` and
//! any competition tool read back.

use crate::util::{
    assert_fails_saying, code, encode_to, json, run, run_with_stdin, s, stderr, stdout,
};

#[test]
fn a_positional_file_and_standard_input_take_the_path_of_cnf() {
    let dir = tempfile::tempdir().unwrap();
    let q = dir.path().join("q.cnf");
    encode_to("6", "4", &q);
    let text = std::fs::read(&q).unwrap();
    let by_flag = run(&[
        "solve",
        "--cnf",
        s(&q),
        "--backend",
        "kissat",
        "--format",
        "json",
    ]);
    let by_name = run(&["solve", s(&q), "--backend", "kissat", "--format", "json"]);
    let by_stdin = run_with_stdin(
        &["solve", "-", "--backend", "kissat", "--format", "json"],
        Some(&text),
    );
    let implicit = run_with_stdin(
        &["solve", "--backend", "kissat", "--format", "json"],
        Some(&text),
    );
    for out in [&by_flag, &by_name, &by_stdin, &implicit] {
        assert_eq!(code(out), 10, "{}", stderr(out));
        let v = json(out);
        // The one solver asked, not a split into cubes.
        assert_eq!(
            (&v["backend"], &v["solver"]),
            (&"kissat".into(), &"kissat".into()),
            "{v}"
        );
        assert!(crate::oracle::is_peaceable(
            &crate::util::board_of(&v),
            6,
            4
        ));
    }
    let out = run(&["solve", s(&q), "--cnf", s(&q)]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let out = run(&["solve", s(&q), "--dim", "6"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
}

#[test]
fn competition_output_is_read_back_by_decode_and_says_unsat_in_an_s_line() {
    let dir = tempfile::tempdir().unwrap();
    let q = dir.path().join("q.cnf");
    encode_to("6", "4", &q);
    let out = run(&["solve", s(&q), "--format", "competition"]);
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with('c') || l.starts_with("s ") || l.starts_with("v ")),
        "{text}"
    );
    let status: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("s "))
        .collect();
    assert_eq!(status, ["s SATISFIABLE"]);
    assert!(lines.iter().all(|l| l.len() <= 80), "{text}");
    assert!(lines.last().unwrap().ends_with(" 0"), "{text}");
    // Every variable the formula declares has a value.
    let declared: usize = std::fs::read_to_string(&q)
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("p cnf "))
        .and_then(|r| r.split_whitespace().next()?.parse().ok())
        .unwrap();
    let values = lines
        .iter()
        .filter_map(|l| l.strip_prefix("v "))
        .flat_map(str::split_whitespace)
        .filter(|t| *t != "0")
        .count();
    assert_eq!(values, declared);
    let answer = dir.path().join("answer");
    std::fs::write(&answer, &text).unwrap();
    let back = run(&["decode", s(&q), s(&answer), "--format", "json"]);
    assert_eq!(code(&back), 10, "{}", stderr(&back));
    assert_eq!(json(&back)["answer_form"], "SAT competition output");

    let u = dir.path().join("u.cnf");
    encode_to("6", "6", &u);
    let out = run(&["solve", s(&u), "--format", "competition"]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.lines().any(|l| l == "s UNSATISFIABLE"), "{text}");
    assert!(!text.lines().any(|l| l.starts_with('v')), "{text}");

    // A board pq-sat encodes itself has no file whose variables the v lines could name.
    assert_fails_saying(
        &run(&["solve", "--dim", "6", "--n", "4", "--format", "competition"]),
        2,
        "pq-sat encode",
    );
}

/// No option is silently ignored: each one the SAT path alone uses makes `auto` choose it,
/// and each one the line engine alone uses makes it choose the line engine or is refused.
#[test]
fn every_engine_specific_option_is_used_or_refused() {
    let backend = |extra: &[&str]| {
        let mut args = vec!["solve", "--dim", "6", "--format", "json", "--jobs", "2"];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert_eq!(code(&out), 30, "{extra:?}: {}", stderr(&out));
        json(&out)["backend"].as_str().unwrap().to_string()
    };
    assert!(backend(&[]).starts_with("lines"), "{}", backend(&[]));
    for sat_only in [
        &["--cubes", "never"][..],
        &["--cubes=never"],
        &["--cubes", "always"],
        &["--cube-after", "1"],
        &["--backend", "kissat"],
        &["--model", "lines"],
        &["--card", "seqcounter"],
        &["--symmetry", "none"],
        &["--strategy", "bisect"],
    ] {
        let b = backend(sat_only);
        assert!(!b.starts_with("lines"), "{sat_only:?} answered by {b}");
    }
    // An option no engine here uses is refused, naming the conflict.
    assert_fails_saying(
        &run(&[
            "solve",
            "--dim",
            "6",
            "--cube-after",
            "1",
            "--cubes",
            "never",
        ]),
        2,
        "--cube-after",
    );
    assert_fails_saying(
        &run(&[
            "solve", "--dim", "6", "--engine", "lines", "--cubes", "never",
        ]),
        2,
        "--cubes",
    );
    // The line engine's own options are refused on the SAT path.
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    for line_only in [["--journal", s(&journal)], ["--unit-budget", "5"]] {
        let mut args = vec!["solve", "--dim", "6", "--n", "5", "--engine", "sat"];
        args.extend_from_slice(&line_only);
        assert_fails_saying(&run(&args), 2, line_only[0]);
    }
}

/// `auto` answers the question, however it is spelled: a size given as `--set GROUP=K`
/// reaches the line engine as `--n K` does.
#[test]
fn a_size_given_with_set_reaches_the_engine_as_n_does() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/encodings/crowded-chessboard.toml"
    );
    let ask = |size: &[&str]| {
        let mut args = vec![
            "solve",
            "--problem",
            file,
            "--set",
            "board=6x6",
            "--set",
            "queens=6",
            "--set",
            "rooks=6",
            "--set",
            "bishops=10",
            "--format",
            "json",
        ];
        args.extend_from_slice(size);
        let out = run(&args);
        assert!(matches!(code(&out), 10 | 20), "{size:?}: {}", stderr(&out));
        let v = json(&out);
        (
            v["status"].clone(),
            v["backend"].as_str().unwrap().to_string(),
            v["n"].clone(),
        )
    };
    let by_n = ask(&["--n", "8"]);
    let by_set = ask(&["--set", "knights=8"]);
    assert!(by_n.1.starts_with("lines"), "{by_n:?}");
    assert_eq!(by_set, by_n);
    assert_fails_saying(
        &run(&["solve", "--problem", file, "--set", "knights=8", "--n", "8"]),
        2,
        "twice",
    );
}

/// An optimisation with `--format competition` prints the MaxSAT Evaluation's lines: the
/// `o` cost, `s OPTIMUM FOUND` and a `v` line of 0s and 1s that is a model of the WCNF
/// `encode --format wcnf` writes, with that cost (checked here clause by clause).
#[test]
fn an_optimisation_prints_the_maxsat_evaluations_lines_for_the_wcnf() {
    let dir = tempfile::tempdir().unwrap();
    let wcnf = dir.path().join("q.wcnf");
    let out = run(&["encode", "--dim", "6", "--format", "wcnf", "-o", s(&wcnf)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = run(&["solve", "--dim", "6", "--format", "competition"]);
    assert_eq!(code(&out), 30, "{}", stderr(&out));
    let text = stdout(&out);
    let line = |prefix: &str| {
        let found: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix(prefix))
            .collect();
        assert_eq!(found.len(), 1, "one '{prefix}' line in {text}");
        found[0].to_string()
    };
    assert_eq!(line("s "), "OPTIMUM FOUND");
    let cost: u64 = line("o ").parse().unwrap();
    let bits = line("v ");
    assert!(bits.chars().all(|c| c == '0' || c == '1'), "{bits}");
    let holds = |lit: i64| {
        let v = usize::try_from(lit.unsigned_abs()).unwrap();
        (bits.as_bytes()[v - 1] == b'1') == (lit > 0)
    };
    let (mut hard, mut falsified) = (0, 0);
    for l in std::fs::read_to_string(&wcnf).unwrap().lines() {
        let tokens: Vec<&str> = l.split_whitespace().collect();
        let Some((&first, rest)) = tokens.split_first() else {
            continue;
        };
        if first == "c" {
            continue;
        }
        let lits: Vec<i64> = rest[..rest.len() - 1]
            .iter()
            .map(|t| t.parse().unwrap())
            .collect();
        let satisfied = lits.iter().any(|&x| holds(x));
        if first == "h" {
            assert!(satisfied, "hard clause {l} falsified");
            hard += 1;
        } else if !satisfied {
            falsified += first.parse::<u64>().unwrap();
        }
    }
    assert!(hard > 0);
    assert_eq!(falsified, cost, "the o line is the model's cost");
    // K = 9 on 6x6 (⌊36/4⌋): cost K − a(6) = 9 − 5.
    assert_eq!(cost, 4);
    assert_fails_saying(
        &run(&[
            "solve",
            "--dim",
            "5",
            "--backend",
            "rc2",
            "--format",
            "competition",
        ]),
        2,
        "--format competition",
    );
}
