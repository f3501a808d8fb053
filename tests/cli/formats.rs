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
