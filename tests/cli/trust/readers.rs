//! One reading policy for every input: a file the user names is followed through links but
//! must be a regular file of bounded size; the files inside pq-sat's own directories (a
//! bundle's parts, a family's instances) must be plain files; and one SIGTERM ends a command
//! that is blocked anyway. Before, each of these hung until killed or ran out of memory.

use crate::util::*;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs pq-sat and requires it to end within `secs` seconds (a hang fails the test instead
/// of blocking the suite).
fn run_within(args: &[&str], secs: u64) -> std::process::Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(secs) {
            child.kill().unwrap();
            panic!("pq-sat {args:?} still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn devices_and_fifos_named_as_inputs_are_refused_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let zero = tmp.path().join("zero.toml");
    symlink("/dev/zero", &zero).unwrap();
    let fifo = tmp.path().join("fifo");
    mkfifo(&fifo);
    let (z, f) = (s(&zero), s(&fifo));
    for args in [
        vec!["solve", "--problem", z, "--n", "1"],
        vec!["family", "--problem", z, "-o", "never"],
        vec!["enumerate", "--problem", z, "--n", "1"],
        vec!["canon", z],
        vec!["canon", f],
        vec!["solve", "--dim", "5", "--n", "4", "--journal", f],
        vec!["submission", "--pool", z, "-o", "never"],
    ] {
        let out = run_within(&args, 20);
        assert_ne!(code(&out), 0, "{args:?}");
        let err = stderr(&out);
        assert!(
            err.contains("not a regular file") || err.contains("regular file"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_bundle_part_that_is_a_fifo_or_a_link_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let bundle = tmp.path().join("c5");
    let out = run(&["solve", "--dim", "5", "--certify", s(&bundle)]);
    assert_eq!(code(&out), 30, "{}", stderr(&out));
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(bundle.join("certificate.json")).unwrap())
            .unwrap();
    let proof = manifest["unsat"]["proof"].as_str().unwrap().to_string();
    let witness = manifest["witness"]["file"].as_str().unwrap().to_string();
    // The proof replaced by a FIFO: refused, not waited on.
    let fifo_case = tmp.path().join("fifo");
    copy_dir(&bundle, &fifo_case);
    std::fs::remove_file(fifo_case.join(&proof)).unwrap();
    mkfifo(&fifo_case.join(&proof));
    let out = run_within(&["check-certificate", s(&fifo_case)], 20);
    assert_fails_saying(&out, 1, "not a regular file");
    // The witness a link to /dev/zero, or to a copy outside the bundle: refused either way.
    for target in [Path::new("/dev/zero").to_path_buf(), bundle.join(&witness)] {
        let link_case = tmp.path().join("link");
        let _ = std::fs::remove_dir_all(&link_case);
        copy_dir(&bundle, &link_case);
        std::fs::remove_file(link_case.join(&witness)).unwrap();
        symlink(&target, link_case.join(&witness)).unwrap();
        let out = run_within(&["check-certificate", s(&link_case)], 20);
        assert_fails_saying(&out, 1, "a link");
    }
    // The bundle as written still checks.
    assert_eq!(code(&run(&["check-certificate", s(&bundle)])), 0);
}

#[test]
fn a_family_instance_that_is_a_fifo_is_refused_by_race() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("fam");
    let out = run(&["family", "--dim", "4", "-o", s(&dir)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let first = names(&dir)
        .into_iter()
        .find(|n| n.ends_with(".cnf"))
        .unwrap();
    std::fs::remove_file(dir.join(&first)).unwrap();
    mkfifo(&dir.join(&first));
    let out = run_within(&["race", s(&dir), "--backend", "kissat"], 30);
    assert_ne!(code(&out), 0);
    assert!(stderr(&out).contains("regular"), "{}", stderr(&out));
}

/// A solve waiting on a FIFO that no one writes (standard input's twin, so a FIFO is allowed
/// there) ends at one SIGTERM; a command blocked where it cannot look at the interrupt flag
/// would end after the grace period of `main` (`INTERRUPT_GRACE`).
#[test]
fn one_sigterm_ends_a_solve_waiting_on_a_fifo() {
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("in.cnf");
    mkfifo(&fifo);
    let child = Command::new(BIN)
        .args(["solve", "--cnf", s(&fifo)])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let out = signal_when(child, libc::SIGTERM, || {
        start.elapsed() > Duration::from_millis(500)
    });
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(code(&out), 130, "{}", stderr(&out));
}
