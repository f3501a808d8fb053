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
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    assert_fails_saying(
        &run(&[
            "solve",
            "--dim",
            "6",
            "--n",
            "5",
            "--engine",
            "sat",
            "--journal",
            s(&journal),
        ]),
        2,
        "--journal",
    );
    assert_fails_saying(
        &run(&[
            "solve",
            "--dim",
            "6",
            "--n",
            "5",
            "--engine",
            "sat",
            "--unit-budget",
            "5",
        ]),
        2,
        "--unit-budget",
    );
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
