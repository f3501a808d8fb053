//! Issue 13: the conventions people expect of a command-line tool and of a library:
//! shell completions, a man page, NO_COLOR, --quiet / -v.

use std::process::Command;

use crate::util::{code, run, stderr, stdout, BIN};

/// Every subcommand a completion script or the man page must name.
const COMMANDS: &[&str] = &[
    "encode",
    "solve",
    "enumerate",
    "canon",
    "family",
    "check-proof",
    "check-certificate",
    "race",
    "render",
    "solvers",
    "hash",
    "completions",
    "man",
];

#[test]
fn completions_for_each_shell_name_every_command() {
    for shell in ["bash", "zsh", "fish"] {
        let out = run(&["completions", shell]);
        assert_eq!(code(&out), 0, "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        assert!(!script.trim().is_empty(), "{shell}: empty script");
        for command in COMMANDS {
            assert!(script.contains(command), "{shell}: no '{command}'");
        }
        // The global options are completed too.
        assert!(script.contains("quiet"), "{shell}: no --quiet");
    }
}

#[test]
fn bash_completion_script_parses() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pq-sat.bash");
    std::fs::write(&path, run(&["completions", "bash"]).stdout).unwrap();
    let check = Command::new("bash").arg("-n").arg(&path).output().unwrap();
    assert!(
        check.status.success(),
        "bash -n: {}",
        String::from_utf8_lossy(&check.stderr)
    );
}

#[test]
fn unknown_shell_is_a_usage_error() {
    let out = run(&["completions", "tcsh"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("tcsh"), "{}", stderr(&out));
}

#[test]
fn man_page_is_roff_and_lists_the_commands() {
    let out = run(&["man"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let page = stdout(&out);
    assert!(
        page.lines().any(|l| l.starts_with(".TH pq-sat 1")),
        "{page}"
    );
    assert!(page.contains(".SH NAME"));
    assert!(page.contains(".SH SUBCOMMANDS"));
    // roff escapes hyphens in text: check-proof is written check\-proof.
    for command in COMMANDS {
        let roff = command.replace('-', "\\-");
        assert!(
            page.contains(&format!("pq\\-sat\\-{roff}(1)")),
            "no {command}"
        );
    }
}

#[test]
fn man_page_of_one_command_and_of_an_unknown_one() {
    let out = run(&["man", "solve"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let page = stdout(&out);
    assert!(
        page.lines().any(|l| l.starts_with(".TH pq-sat-solve 1")),
        "{page}"
    );
    assert!(page.contains("\\-\\-backend"), "{page}");
    let out = run(&["man", "solvr"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("no command 'solvr'"),
        "{}",
        stderr(&out)
    );
}

/// pq-sat itself prints no colour; clap's (usage errors, help) is switched off by NO_COLOR
/// even where it would be forced on.
#[test]
fn no_color_turns_off_clap_colours() {
    let with = |vars: &[(&str, &str)]| {
        let mut command = Command::new(BIN);
        command.args(["solve", "--no-such-option"]);
        command.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
        for (k, v) in vars {
            command.env(k, v);
        }
        let out = command.output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8(out.stderr).unwrap()
    };
    // The control: forced colour does colour the error, so the test can see a difference.
    assert!(with(&[("CLICOLOR_FORCE", "1")]).contains('\x1b'));
    let plain = with(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]);
    assert!(!plain.contains('\x1b'), "{plain:?}");
    assert!(plain.contains("--no-such-option"));
}

const OPTIMISE: &[&str] = &[
    "solve",
    "--dim",
    "5",
    "--backend",
    "varisat",
    "--progress",
    "lines",
];

fn with(global: &[&str]) -> std::process::Output {
    let args: Vec<&str> = OPTIMISE.iter().chain(global).copied().collect();
    run(&args)
}

#[test]
fn quiet_silences_progress_but_not_the_answer() {
    let normal = with(&[]);
    assert_eq!(code(&normal), 0);
    assert!(
        stderr(&normal).contains("pq-sat: n = 5: unsat"),
        "{}",
        stderr(&normal)
    );
    for flag in ["--quiet", "-q"] {
        let quiet = with(&[flag]);
        assert_eq!(code(&quiet), 0);
        assert_eq!(stderr(&quiet), "", "{flag}");
        // The answer stays (its first line carries the time, which varies).
        let board = |out: &std::process::Output| {
            stdout(out)
                .lines()
                .skip(1)
                .map(String::from)
                .collect::<Vec<_>>()
        };
        assert!(stdout(&quiet).starts_with("a(5) = 4: "), "{flag}");
        assert_eq!(board(&quiet), board(&normal), "{flag}");
    }
    // A global option: before the command too.
    let mut args = vec!["-q"];
    args.extend_from_slice(OPTIMISE);
    assert_eq!(stderr(&run(&args)), "");
}

#[test]
fn quiet_keeps_errors() {
    let out = run(&["-q", "check-proof", "/nonexistent.cnf", "/nonexistent.drat"]);
    assert_ne!(code(&out), 0);
    assert!(stderr(&out).contains("pq-sat: error:"), "{}", stderr(&out));
}

#[test]
fn verbose_adds_the_steps_as_they_start_and_formula_sizes() {
    let out = with(&["-v"]);
    assert_eq!(code(&out), 0);
    let err = stderr(&out);
    assert!(err.contains("pq-sat: n = 5: solving (varisat)"), "{err}");
    assert!(err.contains("pq-sat: n = 5: unsat"), "{err}");
    let normal = stderr(&with(&[]));
    assert!(!normal.contains("solving"), "{normal}");
    let out = run(&["encode", "--dim", "5", "--n", "2", "-v"]);
    assert_eq!(code(&out), 0);
    assert!(
        stderr(&out).contains("variables,") && stderr(&out).contains("clauses"),
        "{}",
        stderr(&out)
    );
    assert_eq!(stderr(&run(&["encode", "--dim", "5", "--n", "2"])), "");
}

#[test]
fn quiet_and_verbose_conflict() {
    let out = run(&["-q", "-v", "solvers"]);
    assert_eq!(code(&out), 2);
}

// Compressed instances (.cnf.xz, .cnf.gz, .cnf.bz2).

/// Each format with the first bytes of its files.
const COMPRESSED: &[(&str, &[u8])] = &[
    ("xz", &[0xfd, b'7', b'z', b'X', b'Z', 0x00]),
    ("gz", &[0x1f, 0x8b]),
    ("bz2", b"BZh"),
];

#[test]
fn encode_writes_compressed_files_that_solve_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("q.cnf");
    assert_eq!(
        code(&run(&[
            "encode",
            "--dim",
            "6",
            "--n",
            "5",
            "-o",
            plain.to_str().unwrap()
        ])),
        0
    );
    let plain_size = std::fs::metadata(&plain).unwrap().len();
    let expect = crate::util::json(&run(&[
        "solve",
        "--cnf",
        plain.to_str().unwrap(),
        "--backend",
        "varisat",
        "--format",
        "json",
    ]));
    for (ext, magic) in COMPRESSED {
        let path = dir.path().join(format!("q.cnf.{ext}"));
        let path = path.to_str().unwrap();
        let out = run(&["encode", "--dim", "6", "--n", "5", "-o", path]);
        assert_eq!(code(&out), 0, "{ext}: {}", stderr(&out));
        let bytes = std::fs::read(path).unwrap();
        assert!(bytes.starts_with(magic), "{ext}: not compressed");
        assert!(
            (bytes.len() as u64) < plain_size,
            "{ext}: no smaller than the plain file"
        );
        let out = run(&[
            "solve",
            "--cnf",
            path,
            "--backend",
            "varisat",
            "--format",
            "json",
        ]);
        assert_eq!(code(&out), 10, "{ext}: {}", stderr(&out));
        let got = crate::util::json(&out);
        // The same formula, and its `c var` lines survived: the board is decoded.
        for key in ["variables", "clauses", "status", "dim", "n"] {
            assert_eq!(got[key], expect[key], "{ext}: {key}");
        }
        assert!(got["board"].is_array(), "{ext}: no board decoded");
    }
}

#[test]
fn compressed_standard_input_is_read_too() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("q.cnf.gz");
    let path = path.to_str().unwrap();
    assert_eq!(
        code(&run(&["encode", "--dim", "5", "--n", "5", "-o", path])),
        0
    );
    let bytes = std::fs::read(path).unwrap();
    let out = crate::util::run_with_stdin(&["solve", "--backend", "varisat"], Some(&bytes));
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    let out = run(&["solve", "--cnf", "-", "--backend", "varisat"]);
    assert_eq!(
        code(&out),
        1,
        "an empty input is no formula: {}",
        stderr(&out)
    );
}

/// A misnamed file still reads (the format is told by its bytes); a cut-off one is an
/// error naming the file, not a formula with half its clauses.
#[test]
fn compressed_input_goes_by_content_and_truncation_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let xz = dir.path().join("q.cnf.xz");
    assert_eq!(
        code(&run(&[
            "encode",
            "--dim",
            "6",
            "--n",
            "5",
            "-o",
            xz.to_str().unwrap()
        ])),
        0
    );
    let misnamed = dir.path().join("q.cnf");
    std::fs::copy(&xz, &misnamed).unwrap();
    assert_eq!(
        code(&run(&[
            "solve",
            "--cnf",
            misnamed.to_str().unwrap(),
            "--backend",
            "varisat"
        ])),
        10
    );
    let bytes = std::fs::read(&xz).unwrap();
    let cut = dir.path().join("cut.cnf.xz");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let out = run(&[
        "solve",
        "--cnf",
        cut.to_str().unwrap(),
        "--backend",
        "varisat",
    ]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("cannot read") && stderr(&out).contains("cut.cnf.xz"),
        "{}",
        stderr(&out)
    );
}

/// External solvers are given plain DIMACS, whatever the input's compression.
#[test]
fn external_solvers_get_plain_dimacs() {
    let dir = tempfile::tempdir().unwrap();
    let xz = dir.path().join("q.cnf.xz");
    assert_eq!(
        code(&run(&[
            "encode",
            "--dim",
            "4",
            "--n",
            "2",
            "-o",
            xz.to_str().unwrap()
        ])),
        0
    );
    let seen = dir.path().join("seen.cnf");
    let cmd = crate::util::fake_solver(
        dir.path(),
        "copy",
        &format!("cp \"$1\" {}; echo 's UNKNOWN'; exit 0", seen.display()),
    );
    run(&["solve", "--cnf", xz.to_str().unwrap(), "--solver-cmd", &cmd]);
    let text = std::fs::read_to_string(&seen).expect("the solver saw a text file");
    assert!(text.contains("\np cnf "), "{text}");
}

/// `check-proof` hands the checker plain copies of compressed files (compressed here by the
/// system's gzip and xz), and tells the proof format by the name under the compression.
#[test]
fn check_proof_reads_compressed_cnf_and_proof() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("p.drat");
    let out = run(&[
        "solve",
        "--dim",
        "5",
        "--n",
        "5",
        "--symmetry",
        "none",
        "--backend",
        "varisat",
        "--proof",
        proof.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    for (tool, file) in [("xz", "p.cnf"), ("gzip", "p.drat")] {
        let status = Command::new(tool)
            .arg(file)
            .current_dir(dir.path())
            .status();
        assert!(status.unwrap().success(), "{tool} {file}");
    }
    let (cnf, proof) = (dir.path().join("p.cnf.xz"), dir.path().join("p.drat.gz"));
    let out = run(&[
        "check-proof",
        cnf.to_str().unwrap(),
        proof.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let report = crate::util::json(&out);
    assert_eq!(report["verified"], true);
    assert_eq!(report["proof_format"], "drat");
    // The report names the files given, not the temporary copies.
    assert_eq!(report["cnf"], cnf.to_str().unwrap());
}
