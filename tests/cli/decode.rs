//! `pq-sat decode`: a real solver's answer to a formula pq-sat wrote, read back into a board
//! that the brute-force oracle accepts; and each refusal with its own exit code.

use std::path::Path;
use std::process::Command;

use crate::util::{assert_fails_saying, code, encode_to, json, run, run_with_stdin, s, stderr};

/// Runs the external solver `program` with `args`; its standard output, whatever its exit
/// code (10 and 20 are answers).
fn solver_stdout(program: &str, args: &[&str]) -> Vec<u8> {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{program}: {e} (run scripts/setup.sh)"));
    assert!(
        matches!(out.status.code(), Some(10 | 20)),
        "{program}: {:?}",
        out.status
    );
    out.stdout
}

/// The decoded board of a SAT answer, checked by the oracle: `n` of each colour on `d`×`d`.
fn assert_decodes_to_a_board(formula: &Path, answer: &Path, d: usize, n: usize, form: &str) {
    let out = run(&["decode", s(formula), s(answer), "--format", "json"]);
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["status"], "sat");
    assert_eq!(v["answer_form"], form);
    assert_eq!(v["n"], n);
    let board = crate::util::board_of(&v);
    assert!(crate::oracle::is_peaceable(&board, d, n), "{v}");
}

#[test]
fn kissat_and_minisat_answers_decode_into_boards_the_oracle_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let q = dir.path().join("q.cnf");
    encode_to("7", "7", &q);
    let k = dir.path().join("k.out");
    std::fs::write(&k, solver_stdout("kissat", &[s(&q)])).unwrap();
    assert_decodes_to_a_board(&q, &k, 7, 7, "SAT competition output");
    let m = dir.path().join("m.out");
    solver_stdout("minisat", &[s(&q), s(&m)]);
    assert_decodes_to_a_board(&q, &m, 7, 7, "MiniSat result file");
    // The model alone, on standard input, with the text board.
    let text = std::fs::read_to_string(&m).unwrap();
    let bare = text.lines().nth(1).unwrap().to_string();
    let out = run_with_stdin(&["decode", s(&q)], Some(bare.as_bytes()));
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    let shown = crate::util::stdout(&out);
    assert!(
        shown.starts_with(
            "SAT: 7 white and 7 black queens fit on a 7x7 board (standard input, bare model"
        ),
        "{shown}"
    );
    assert_eq!(shown.matches('W').count(), 7, "{shown}");
}

#[test]
fn a_placement_problem_and_a_cube_directory_formula_decode_too() {
    let dir = tempfile::tempdir().unwrap();
    let problem = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/encodings/crowded-chessboard.toml"
    );
    let c = dir.path().join("c.cnf");
    let out = run(&[
        "encode",
        "--problem",
        problem,
        "--set",
        "board=8x8",
        "--n",
        "21",
        "-o",
        s(&c),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let answer = dir.path().join("c.out");
    std::fs::write(&answer, solver_stdout("kissat", &[s(&c)])).unwrap();
    let out = run(&["decode", s(&c), s(&answer), "--format", "json"]);
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    let board: String = json(&out)["placement"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert_eq!(board.matches('N').count(), 21, "{board}");

    let cubes = dir.path().join("cubes");
    let out = run(&["cube", "--dim", "6", "--n", "4", "-o", s(&cubes)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let formula = cubes.join("formula.cnf");
    let answer = dir.path().join("cube.out");
    std::fs::write(&answer, solver_stdout("kissat", &[s(&formula)])).unwrap();
    assert_decodes_to_a_board(&formula, &answer, 6, 4, "SAT competition output");
}

#[test]
fn unsat_unknown_and_each_refusal_have_their_own_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let q = dir.path().join("q.cnf");
    encode_to("6", "4", &q);
    let k = dir.path().join("k.out");
    let answer = solver_stdout("kissat", &[s(&q)]);
    std::fs::write(&k, &answer).unwrap();

    let u = dir.path().join("u.cnf");
    encode_to("6", "6", &u);
    let ku = dir.path().join("ku.out");
    std::fs::write(&ku, solver_stdout("kissat", &[s(&u)])).unwrap();
    let out = run(&["decode", s(&u), s(&ku)]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    assert!(crate::util::stdout(&out).contains("a solver's unchecked word"));
    assert!(stderr(&out).contains("--check-unsat"), "{}", stderr(&out));

    let out = run_with_stdin(&["decode", s(&q), "-"], Some(b"s UNKNOWN\n"));
    assert_eq!(code(&out), 0, "{}", stderr(&out));

    // Every variable false falsifies a clause (the armies are empty): a wrong answer.
    let vars: usize = std::fs::read_to_string(&q)
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("p cnf "))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        .unwrap();
    let wrong: String = (1..=vars).map(|v| format!("-{v} ")).collect::<String>() + "0\n";
    let bad = dir.path().join("bad.out");
    std::fs::write(&bad, wrong).unwrap();
    assert_fails_saying(&run(&["decode", s(&q), s(&bad)]), 3, "falsifies clause");

    // The same formula without its comments is not pq-sat's any more: exit code 4.
    let plain = dir.path().join("plain.cnf");
    let body: String = std::fs::read_to_string(&q)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('c'))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&plain, body).unwrap();
    assert_fails_saying(&run(&["decode", s(&plain), s(&k)]), 4, "no variable map");

    // What is not an answer, an answer for another formula, a SAT without a model: errors.
    for (text, says) in [
        ("hello\n", "not a solver's answer"),
        ("s SATISFIABLE\nv 1 2 99999 0\n", "another formula"),
        ("s SATISFIABLE\n", "no complete model"),
        ("SATISFIABLE\n", "minisat FORMULA RESULT"),
    ] {
        let out = run_with_stdin(&["decode", s(&q)], Some(text.as_bytes()));
        assert_fails_saying(&out, 1, says);
    }
    // The picture may not replace an input.
    let out = run(&["decode", s(&q), s(&k), "--svg", s(&k)]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
}
