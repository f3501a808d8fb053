//! General placement problems: the SAT pipeline (every encoding option) agrees with the
//! brute-force oracle on small boards for every piece kind, torus boards included; closed
//! forms for rooks and bishops; Dudeney's crowded chessboard; the problem files, `--set`,
//! their errors, and the SVG pictures, through the real binary.

use crate::oracle::placement as placement_oracle;

use crate::util::*;
use std::process::{Command, Output};

use pq_board::placement::{Group, Kind, Layout, Rules};
use pq_board::rules::check_placement;
use pq_encode::spec::{Count, Problem};
use pq_encode::{Card, Model, Options, Symmetry};
use pq_engine::capability::climb::RunLimits;
use pq_engine::capability::climb::Strategy;
use pq_engine::capability::Status;
use pq_engine::sat::optimise::optimise;
use pq_engine::sat::pipeline::solve;
use pq_solve::backend::Cadical;
use pq_solve::control::Limits;
use serde_json::Value;

fn problem(
    rows: usize,
    cols: usize,
    torus: bool,
    groups: &[(Kind, Count)],
    no_attack: &[(usize, usize)],
) -> Problem {
    Problem {
        name: "test".into(),
        description: String::new(),
        rules: Rules {
            layout: Layout { rows, cols, torus },
            groups: groups
                .iter()
                .enumerate()
                .map(|(i, &(kind, _))| Group {
                    name: format!("g{i}"),
                    kind,
                })
                .collect(),
            no_attack: no_attack.to_vec(),
        },
        counts: groups.iter().map(|&(_, c)| c).collect(),
    }
}

/// Every encoding option the general encoder distinguishes.
fn all_options() -> Vec<Options> {
    let mut out = Vec::new();
    for model in [Model::Lines, Model::Pairwise] {
        for card in [Card::Totalizer, Card::SeqCounter] {
            for symmetry in [Symmetry::LexLeader, Symmetry::None] {
                out.push(Options {
                    model,
                    card,
                    symmetry,
                    ..Options::default()
                });
            }
        }
    }
    out
}

/// The optimum by every strategy, which must agree (`None`: the fixed counts are
/// impossible).
fn maximum(p: &Problem, options: &Options) -> Option<usize> {
    let mut answers = Vec::new();
    for strategy in [Strategy::Up, Strategy::Bisect, Strategy::Incremental] {
        let limits = RunLimits::default();
        let r = optimise(p, options, strategy, &Cadical, &limits, &mut |_| {}).unwrap();
        if let Some((n, placement)) = &r.best {
            let counts: Vec<Option<usize>> = p.demands(*n).into_iter().map(Some).collect();
            assert!(check_placement(&p.rules, placement, &counts).is_ok());
        }
        answers.push(if r.infeasible {
            None
        } else {
            Some(r.optimum.expect("no time limit: the optimum is proven"))
        });
    }
    assert!(
        answers.windows(2).all(|w| w[0] == w[1]),
        "strategies disagree on {}: {answers:?}",
        p.summary()
    );
    answers[0]
}

#[test]
fn two_armies_of_every_kind_agree_with_brute_force() {
    let boards = [
        (3, 3, false),
        (4, 4, false),
        (3, 5, false),
        (4, 4, true),
        (3, 4, true),
        (5, 5, true),
    ];
    for kind in [
        Kind::Queen,
        Kind::Rook,
        Kind::Bishop,
        Kind::Knight,
        Kind::King,
    ] {
        for &(rows, cols, torus) in &boards {
            let p = problem(
                rows,
                cols,
                torus,
                &[(kind, Count::Maximise), (kind, Count::Maximise)],
                &[(0, 1)],
            );
            let expected = placement_oracle::max_tied(&p.rules, &[0, 0], &[0, 1]);
            for options in all_options() {
                assert_eq!(
                    maximum(&p, &options),
                    expected,
                    "{kind} {rows}x{cols} torus={torus} {options:?}"
                );
            }
        }
    }
}

#[test]
fn mixed_kinds_and_within_group_rules_agree_with_brute_force() {
    // Dudeney-style on small boards: each kind alone must be peaceful, fixed counts.
    let kinds = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight];
    for &(rows, cols, torus) in &[(4, 4, false), (3, 5, false), (4, 4, true)] {
        for counts in [
            [2, 2, 3, 0],
            [3, 3, 2, 1],
            [2, 3, 4, 2],
            [1, 1, 6, 3],
            [4, 4, 5, 1],
        ] {
            let groups: Vec<(Kind, Count)> = kinds
                .iter()
                .zip(counts)
                .map(|(&k, c)| (k, Count::Exactly(c)))
                .collect();
            let p = problem(
                rows,
                cols,
                torus,
                &groups,
                &[(0, 0), (1, 1), (2, 2), (3, 3)],
            );
            let expected = placement_oracle::feasible(&p.rules, &counts);
            for options in all_options() {
                let out = solve(&p, 0, &options, &Cadical, &Limits::none()).unwrap();
                assert_eq!(
                    out.status == Status::Sat,
                    expected,
                    "{rows}x{cols} torus={torus} {counts:?} {options:?}"
                );
            }
        }
    }
    // Different kinds at peace with each other: queen vs knight vs king armies.
    for &(rows, cols, torus) in &[(4, 4, false), (4, 5, false), (4, 4, true)] {
        let p = problem(
            rows,
            cols,
            torus,
            &[
                (Kind::Queen, Count::Maximise),
                (Kind::Knight, Count::Maximise),
                (Kind::King, Count::Exactly(1)),
            ],
            &[(0, 1), (0, 2), (1, 2), (1, 1)],
        );
        let expected = placement_oracle::max_tied(&p.rules, &[0, 0, 1], &[0, 1]);
        for options in all_options() {
            assert_eq!(
                maximum(&p, &options),
                expected,
                "{rows}x{cols} torus={torus} {options:?}"
            );
        }
    }
}

#[test]
fn three_armies_agree_with_brute_force() {
    for &(d, torus) in &[(4, false), (5, false), (4, true)] {
        let q = (Kind::Queen, Count::Maximise);
        let p = problem(d, d, torus, &[q, q, q], &[(0, 1), (0, 2), (1, 2)]);
        let expected = placement_oracle::max_tied(&p.rules, &[0, 0, 0], &[0, 1, 2]);
        for options in all_options() {
            assert_eq!(
                maximum(&p, &options),
                expected,
                "{d} torus={torus} {options:?}"
            );
        }
    }
}

#[test]
fn rooks_and_bishops_match_their_closed_forms() {
    for d in 2..=8 {
        let armies = |kind| {
            problem(
                d,
                d,
                false,
                &[(kind, Count::Maximise), (kind, Count::Maximise)],
                &[(0, 1)],
            )
        };
        let options = Options::default();
        assert_eq!(
            maximum(&armies(Kind::Rook), &options),
            Some(d * d / 4),
            "rooks d={d}"
        );
        assert_eq!(
            maximum(&armies(Kind::Bishop), &options),
            Some(d * d / 2),
            "bishops d={d}"
        );
    }
}

const CROWDED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/encodings/crowded-chessboard.toml"
);

/// The placement in a JSON answer, checked by the independent validator against the
/// problem file's rules.
fn check_json_placement(v: &Value, file: &str, sets: &[&str]) {
    let text = std::fs::read_to_string(file).unwrap();
    let mut p = Problem::from_toml(&text).unwrap();
    p.set_all(sets.iter().map(|s| s.split_once('=').unwrap()))
        .unwrap();
    // The queens' file reports as `--dim` does: `dim`, `n` and a `board` of W and B.
    if v.get("groups").is_none() {
        assert_eq!(
            p.preset(),
            pq_encode::spec::Preset::Queens {
                dim: v["dim"].as_u64().unwrap() as usize
            },
            "{file}"
        );
        let n = v["n"]
            .as_u64()
            .or(v["lower_bound"].as_u64())
            .map_or(0, |n| n as usize);
        let board = crate::util::board_of(v);
        assert!(
            crate::oracle::is_peaceable(&board, p.rules.layout.rows, n),
            "{v}"
        );
        return;
    }
    let symbols: Vec<char> = v["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["symbol"].as_str().unwrap().chars().next().unwrap())
        .collect();
    let mut placement = pq_board::placement::Placement::empty(&p.rules.layout);
    for (r, row) in v["placement"].as_array().unwrap().iter().enumerate() {
        for (c, ch) in row.as_str().unwrap().chars().enumerate() {
            if ch != '.' {
                placement.set(r, c, Some(symbols.iter().position(|&s| s == ch).unwrap()));
            }
        }
    }
    let counts: Vec<Option<usize>> = v["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["count"].as_u64().map(|c| c as usize))
        .collect();
    let counts: Vec<Option<usize>> = if counts.iter().all(Option::is_some) {
        counts
    } else {
        vec![]
    };
    assert!(
        check_placement(&p.rules, &placement, &counts).is_ok(),
        "{v}"
    );
}

#[test]
fn crowded_chessboard_21_knights_fit_22_do_not() {
    let out = run(&[
        "solve",
        "--problem",
        CROWDED,
        "--set",
        "knights=21",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["status"], "sat");
    check_json_placement(&v, CROWDED, &["knights=21"]);

    let out = run(&[
        "solve",
        "--problem",
        CROWDED,
        "--set",
        "knights=22",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    assert_eq!(json(&out)["status"], "unsat");

    // With a proof that the independent checker verifies.
    let tmp = tempfile::tempdir().unwrap();
    let proof = tmp.path().join("d22.drat");
    let out = run(&[
        "solve",
        "--problem",
        CROWDED,
        "--set",
        "knights=22",
        "--backend",
        "kissat",
        "--proof",
        proof.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    assert!(json(&out)["proof"]["bytes"].as_u64().unwrap() > 0);
    let cnf = tmp.path().join("d22.cnf");
    let check = run(&[
        "check-proof",
        cnf.to_str().unwrap(),
        proof.to_str().unwrap(),
    ]);
    assert_eq!(
        code(&check),
        0,
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    let out = run(&[
        "solve",
        "--problem",
        CROWDED,
        "--proof",
        proof.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("--proof needs one formula"),
        "{}",
        stderr(&out)
    );
}

/// The example problem files, each with settings that keep it small enough for the oracle.
const EXAMPLES: &[(&str, &[&str])] = &[
    ("peaceable-queens.toml", &["board=5x5"]),
    ("peaceable-knights.toml", &["board=4x4"]),
    ("three-armies.toml", &["board=4x4"]),
    ("peaceable-queens-torus.toml", &["board=5x5"]),
    (
        "crowded-chessboard.toml",
        &["board=4x4", "queens=4", "rooks=4", "bishops=4"],
    ),
];

/// An example file's path and its problem with `sets` applied.
fn example(file: &str, sets: &[&str]) -> (String, Problem) {
    let path = format!("{}/encodings/{file}", env!("CARGO_MANIFEST_DIR"));
    let mut p = Problem::from_toml(&std::fs::read_to_string(&path).unwrap()).unwrap();
    p.set_all(sets.iter().map(|s| s.split_once('=').unwrap()))
        .unwrap();
    (path, p)
}

#[test]
fn problem_files_solve_and_draw() {
    let tmp = tempfile::tempdir().unwrap();
    // The expected optimum comes from the brute-force oracle.
    for &(file, sets) in EXAMPLES {
        let (path, p) = example(file, sets);
        let tied = p.maximised();
        let fixed = p.demands(0);
        let expected = placement_oracle::max_tied(&p.rules, &fixed, &tied).expect("feasible");
        let svg = tmp.path().join(format!("{file}.svg"));
        let mut args = vec![
            "solve",
            "--problem",
            &path,
            "--format",
            "json",
            "--svg",
            svg.to_str().unwrap(),
        ];
        for s in sets {
            args.extend(["--set", s]);
        }
        let out = run(&args);
        assert_eq!(code(&out), 30, "{file}: {}", stderr(&out));
        let v = json(&out);
        assert_eq!(v["optimum"], expected, "{file}: {v}");
        check_json_placement(&v, &path, sets);
        let doc = std::fs::read_to_string(&svg).unwrap();
        let xml = roxmltree::Document::parse(&doc).expect("well-formed SVG");
        assert_eq!(xml.root_element().tag_name().name(), "svg");
        // `render` draws the same answer from the JSON alone.
        let rendered = Command::new(BIN)
            .arg("render")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                child.stdin.take().unwrap().write_all(&out.stdout)?;
                child.wait_with_output()
            })
            .unwrap();
        assert_eq!(code(&rendered), 0, "{}", stderr(&rendered));
        roxmltree::Document::parse(std::str::from_utf8(&rendered.stdout).unwrap()).unwrap();
    }
}

#[test]
fn problem_errors_name_the_key() {
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("bad.toml");
    let cases: &[(&str, &[&str], &str)] = &[
        ("name = \"x\"\n[board]\nsize = \"4x4\"\ncolour = 1\n", &[], "colour"),
        ("[board]\nsize = \"4x4\"\n[[group]]\nname = \"a\"\nkind = \"dragon\"\ncount = 1\n", &[], "dragon"),
        ("no_attack = [[\"a\", \"z\"]]\n[board]\nsize = \"4x4\"\n[[group]]\nname = \"a\"\nkind = \"rook\"\ncount = 1\n", &[], "no group named 'z'"),
        ("[board]\nsize = \"2x2\"\n[[group]]\nname = \"a\"\nkind = \"rook\"\ncount = 5\n", &[], "5 pieces"),
    ];
    for &(text, sets, needle) in cases {
        std::fs::write(&bad, text).unwrap();
        let mut args = vec!["solve", "--problem", bad.to_str().unwrap()];
        for s in sets {
            args.extend(["--set", s]);
        }
        let out = run(&args);
        assert_eq!(code(&out), 2, "{needle}: {}", stderr(&out));
        assert!(stderr(&out).contains(needle), "{needle}: {}", stderr(&out));
    }
    for (set, needle) in [
        ("dragons=3", "unknown key 'dragons'"),
        ("knights", "expected KEY=VALUE"),
        ("board=0x8", "rows must be at least 1"),
        ("queens=lots", "--set queens"),
    ] {
        let out = run(&["solve", "--problem", CROWDED, "--set", set]);
        assert_eq!(code(&out), 2, "{set}: {}", stderr(&out));
        assert!(stderr(&out).contains(needle), "{set}: {}", stderr(&out));
    }
    let out = run(&["solve", "--problem", "/nonexistent.toml"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("/nonexistent.toml"));
    let out = run(&["encode", "--problem", CROWDED]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("--n"), "{}", stderr(&out));
}

#[test]
fn problem_cnf_names_group_kind_and_square_and_decodes_back() {
    let out = run(&["encode", "--problem", CROWDED, "--set", "knights=21"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.lines().any(|l| l == "c var 1 queens queen 1 1"),
        "{}",
        &text[..400]
    );
    assert!(text
        .lines()
        .any(|l| l.starts_with("c var ") && l.contains(" knights knight 8 8")));
    // Solving the file alone decodes and validates the placement: the header carries the rules.
    let tmp = tempfile::tempdir().unwrap();
    let cnf = tmp.path().join("d21.cnf");
    std::fs::write(&cnf, &text).unwrap();
    let out = run(&["solve", "--cnf", cnf.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["groups"][3]["count"], 21);
    check_json_placement(&v, CROWDED, &["knights=21"]);
    let formula = pq_encode::dimacs::parse(text.as_bytes()).unwrap();
    let map = formula.pieces.expect("a piece map");
    assert_eq!((map.rows, map.cols), (8, 8));
    assert_eq!(map.groups.len(), 4);
    assert_eq!(map.groups[3], ("knights".to_string(), Kind::Knight));
}

#[test]
fn peaceable_queens_file_is_the_queens_formula() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/encodings/peaceable-queens.toml"
    );
    let body = |out: Output| -> Vec<String> {
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('c'))
            .map(str::to_string)
            .collect()
    };
    for model in ["colouring", "lines", "pairwise"] {
        let general = body(run(&[
            "encode",
            "--problem",
            file,
            "--n",
            "9",
            "--model",
            model,
        ]));
        let queens = body(run(&["encode", "--dim", "8", "--n", "9", "--model", model]));
        assert_eq!(general, queens, "{model}");
    }
}

#[test]
fn every_strategy_solves_every_problem_file() {
    for &(file, sets) in EXAMPLES {
        let (path, p) = example(file, sets);
        let expected = placement_oracle::max_tied(&p.rules, &p.demands(0), &p.maximised());
        for strategy in ["up", "bisect", "incremental"] {
            let mut args = vec!["solve", "--problem", &path, "--format", "json"];
            args.extend(["--strategy", strategy]);
            for s in sets {
                args.extend(["--set", s]);
            }
            let out = run(&args);
            assert_eq!(code(&out), 30, "{file} {strategy}: {}", stderr(&out));
            let v = json(&out);
            assert_eq!(v["optimum"], expected.unwrap(), "{file} {strategy}: {v}");
            assert_eq!(v["strategy"], strategy, "{file}: {v}");
            check_json_placement(&v, &path, sets);
        }
    }
}

/// Every placement (and every orbit) of `p` at size `n`, and every maximal configuration,
/// as the SAT enumeration finds them, against the brute-force oracle; the orbits of the
/// oracle's list are counted with pq-board's symmetry group, which never saw the encoder.
fn enumeration_agrees_with_brute_force(p: &Problem, n: usize, optimum: usize) {
    use pq_board::symmetry::SymmetryGroup;
    use pq_engine::capability::listing::{Request, UpTo};
    use pq_engine::sat::enumerate::enumerate;
    use std::collections::BTreeSet;
    let demands = p.demands(n);
    let group = SymmetryGroup::new(&p.rules, &demands);
    let tied = p.maximised();
    for maximal in [false, true] {
        // Maximal configurations only at the optimum: below it, the oracle's list of every
        // count vector grows past what a test should wait for.
        if maximal && (tied.is_empty() || n < optimum) {
            continue;
        }
        let expected = if maximal {
            placement_oracle::all_maximal(&p.rules, &demands, &tied, n)
        } else {
            placement_oracle::all_exact(&p.rules, &demands)
        };
        let key = |q: &pq_board::placement::Placement| q.cells.clone();
        let all: BTreeSet<_> = expected.iter().map(key).collect();
        let orbits: BTreeSet<_> = expected.iter().map(|q| key(&group.canonical(q))).collect();
        // The pairwise runs split the search into cubes on 3 squares: each orbit must still
        // be counted once, in the cube of its lex-leader member.
        for (model, split) in [(Model::Lines, 0), (Model::Pairwise, 3)] {
            for up_to in [UpTo::Total, UpTo::Symmetry] {
                let request = Request {
                    problem: p.clone(),
                    n,
                    up_to,
                    maximal,
                    options: Options {
                        model,
                        ..Options::default()
                    },
                    limit: None,
                    split,
                    jobs: 2,
                };
                let mut found = Vec::new();
                let summary =
                    enumerate(&request, &Limits::none(), &mut |f, _| found.push(f.clone()))
                        .unwrap();
                let what = format!(
                    "{} n={n} maximal={maximal} {model:?} {up_to:?} split={split}",
                    p.summary()
                );
                assert!(summary.complete, "{what}");
                let got: BTreeSet<_> = found.iter().map(|f| key(&f.placement)).collect();
                assert_eq!(got.len(), found.len(), "{what}: a placement found twice");
                match up_to {
                    UpTo::Total => assert_eq!(got, all, "{what}"),
                    UpTo::Symmetry => {
                        assert_eq!(got, orbits, "{what}");
                        assert_eq!(summary.total_boards, all.len(), "{what}: orbit sizes");
                    }
                }
            }
        }
    }
}

#[test]
fn enumeration_of_every_example_kind_agrees_with_brute_force() {
    // Three armies, a torus, Dudeney's mixed kinds (fixed counts, knights maximised),
    // knights: each small enough for the oracle.
    let cases: &[(&str, &[&str], &[usize])] = &[
        ("three-armies.toml", &["board=4x4"], &[0, 1, 2]),
        ("three-armies.toml", &["board=3x4"], &[1]),
        ("three-armies.toml", &["board=5x5"], &[2, 3]),
        ("peaceable-queens-torus.toml", &["board=5x5"], &[1, 2]),
        ("peaceable-queens-torus.toml", &["board=4x4"], &[0, 1, 2]),
        ("peaceable-queens-torus.toml", &["board=3x5"], &[1, 2]),
        (
            "crowded-chessboard.toml",
            &["board=3x3", "queens=1", "rooks=1", "bishops=1"],
            &[4, 5],
        ),
        (
            "crowded-chessboard.toml",
            &["board=3x4", "queens=1", "rooks=1", "bishops=2"],
            &[6],
        ),
        ("peaceable-knights.toml", &["board=3x3"], &[1, 2, 3]),
        ("peaceable-queens.toml", &["board=4x4"], &[1, 2]),
    ];
    for (file, sets, sizes) in cases {
        let (_, p) = example(file, sets);
        let fixed = p.demands(0);
        let optimum = placement_oracle::max_tied(&p.rules, &fixed, &p.maximised()).unwrap();
        for &n in *sizes {
            let started = std::time::Instant::now();
            enumeration_agrees_with_brute_force(&p, n, optimum);
            let seconds = started.elapsed().as_secs_f64();
            eprintln!("{file} {sets:?} n={n}: {seconds:.1} s");
        }
    }
}

#[test]
fn enumerate_canon_and_render_take_a_problem_file() {
    let (path, _) = example("three-armies.toml", &[]);
    let out = run(&[
        "enumerate",
        "--problem",
        &path,
        "--set",
        "board=4x4",
        "--n",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["problem"], "three peaceable armies of queens");
    assert_eq!(v["board"]["rows"], 4);
    assert_eq!(v["count"], v["boards"].as_array().unwrap().len());
    assert_eq!(
        v["orbit_sizes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap())
            .sum::<u64>(),
        v["total_boards"].as_u64().unwrap()
    );
    // A board enumerated is canonical: canon, reading the same JSON shape, agrees.
    let first = &v["boards"][0];
    let mut solve_like = v.clone();
    solve_like["placement"] = first.clone();
    let out = run_with_stdin(
        &["canon", "--format", "json"],
        Some(solve_like.to_string().as_bytes()),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let c = json(&out);
    assert_eq!(c["canonical"], *first);
    assert_eq!(c["is_canonical"], true);
    assert_eq!(c["orbit_size"], v["orbit_sizes"][0]);
    // A text board with the problem's symbols, through --problem.
    let text: String = first
        .as_array()
        .unwrap()
        .iter()
        .map(|r| format!("{}\n", r.as_str().unwrap()))
        .collect();
    let out = run_with_stdin(
        &["canon", "--problem", &path, "--set", "board=4x4"],
        Some(text.as_bytes()),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).starts_with("# orbit of"), "{}", stdout(&out));
    let out = run_with_stdin(
        &["render", "--problem", &path, "--set", "board=4x4"],
        Some(text.as_bytes()),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("<svg"));
    // Maximal needs a maximised group; a symbol the problem lacks is named.
    let (dudeney, _) = example("crowded-chessboard.toml", &[]);
    let out = run(&[
        "enumerate",
        "--problem",
        &dudeney,
        "--set",
        "knights=1",
        "--maximal",
    ]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("--maximal needs"), "{}", stderr(&out));
    let out = run_with_stdin(
        &["canon", "--problem", &path, "--set", "board=2x2"],
        Some(b"RX\n..\n"),
    );
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("unknown symbol 'X'"),
        "{}",
        stderr(&out)
    );
}

/// `--strategy incremental` once refused every problem but the peaceable queens; on a
/// problem file it must find what `--strategy up` finds.
#[test]
fn incremental_strategy_matches_up_on_a_problem_file() {
    let path = format!("{}/encodings/three-armies.toml", env!("CARGO_MANIFEST_DIR"));
    let optimum = |strategy: &str| {
        let args = ["solve", "--problem", &path, "--strategy", strategy];
        let out = run(&[&args[..], &["--format", "json"]].concat());
        assert_eq!(code(&out), 30, "{strategy}: {}", stderr(&out));
        let v = json(&out);
        assert_eq!(v["strategy"], strategy, "{v}");
        v["optimum"].clone()
    };
    let up = optimum("up");
    assert!(up.is_u64(), "up proves an optimum: {up}");
    assert_eq!(optimum("incremental"), up);
}
