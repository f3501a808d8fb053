//! Adversarial tests: processes (see mod.rs). A flooding solver, a solver whose helper
//! leaves its process group, and Ctrl-C / SIGTERM during every kind of long job.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::util::{
    assert_fails_saying, code, fake_solver, gone, names, read_pid, signal_when, stderr, stdout, BIN,
};

/// pq-sat with `args`, its temporary files in `tmp`, its address space capped at `memory`
/// bytes (so a run that buffers without limit dies instead of thrashing the machine).
fn pq_sat(args: &[&str], tmp: &Path, memory: Option<u64>) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .env("TMPDIR", tmp)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(bytes) = memory {
        // SAFETY: setrlimit is async-signal-safe and allocates nothing.
        unsafe {
            cmd.pre_exec(move || {
                let limit = libc::rlimit {
                    rlim_cur: bytes,
                    rlim_max: bytes,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &raw const limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    cmd
}

// Class 9: solver output is read with a cap; the solver is killed, temporary files removed.

/// `solve --dim 5 --n 4` with `solver`, its temporary files in `tmp`, under a 1 GiB cap on
/// pq-sat's memory; it must exit 1. Returns the run and its standard error.
fn refused_under_a_memory_cap(solver: &str, tmp: &Path) -> (Output, String) {
    let out = pq_sat(
        &["solve", "--dim", "5", "--n", "4", "--solver-cmd", solver],
        tmp,
        Some(1 << 30),
    )
    .output()
    .unwrap();
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let err = stderr(&out);
    (out, err)
}

#[test]
fn endless_model_is_refused_and_the_solver_killed() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let pid = dir.path().join("pid");
    let solver = fake_solver(
        dir.path(),
        "flood",
        &format!(
            "echo $$ > '{}'\necho 's SATISFIABLE'\nwhile :; do echo 'v 1 -2 3 -4 5 -6 7 -8'; done",
            pid.display()
        ),
    );
    let (out, err) = refused_under_a_memory_cap(&solver, tmp.path());
    assert!(
        err.contains("printed a model of more than") && err.contains("pq-sat killed it"),
        "{err}"
    );
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    assert!(gone(read_pid(&pid)), "the flooding solver survived");
    assert!(names(tmp.path()).is_empty(), "{:?}", names(tmp.path()));
}

#[test]
fn endless_output_is_cut_at_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    // One endless line: no newline ever comes, so only a byte cap can stop it.
    let solver = fake_solver(dir.path(), "noise", "exec tr '\\0' x < /dev/zero");
    let (_, err) = refused_under_a_memory_cap(&solver, tmp.path());
    assert!(
        err.contains("printed more than 64") && err.contains("standard output"),
        "{err}"
    );
    assert!(names(tmp.path()).is_empty(), "{:?}", names(tmp.path()));
}

// Class 10: the limits hold while a formula is read and loaded, not only while it is solved.

/// pq-sat reading a formula from a pipe that trickles comment lines for a minute: only the
/// limits can end the read.
fn reading_a_trickle(args: &[&str], dir: &Path) -> Child {
    let mut child = pq_sat(args, dir, None)
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    std::thread::spawn(move || {
        use std::io::Write;
        let _ = pipe.write_all(b"p cnf 2 1\n");
        for _ in 0..600 {
            if pipe.write_all(b"c still coming\n").is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    child
}

#[test]
fn timeout_ends_a_slow_read_of_the_formula() {
    let dir = tempfile::tempdir().unwrap();
    let start = Instant::now();
    let out = reading_a_trickle(&["solve", "--timeout", "1"], dir.path())
        .wait_with_output()
        .unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    assert_fails_saying(
        &out,
        1,
        "time limit of 1.0 s reached before the formula was read",
    );
}

#[test]
fn ctrl_c_ends_a_slow_read_of_the_formula() {
    let dir = tempfile::tempdir().unwrap();
    let child = reading_a_trickle(&["solve", "--cnf", "-"], dir.path());
    let start = Instant::now();
    let out = signal_when(child, libc::SIGINT, || {
        start.elapsed() > Duration::from_millis(500)
    });
    assert_eq!(code(&out), 130, "{}", stderr(&out));
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
}

// Class 11: what leaves the solver's process group is still found and killed.

/// A solver in `dir` whose helper calls `setsid` (writing its pid to `dir/pid`, and that of
/// a child of its own to `dir/grandchild`), then does `then`; returns the solver and the two
/// pid files.
fn escaping_solver(dir: &Path, then: &str) -> (String, PathBuf, PathBuf) {
    let (pid, grandchild) = (dir.join("pid"), dir.join("grandchild"));
    let solver = fake_solver(
        dir,
        "escaper",
        &format!(
            "setsid sh -c 'sleep 300 & echo $! > \"{}\"; echo $$ > \"{}\"; wait' &\n\
             while [ ! -s '{}' ]; do sleep 0.01; done\n{then}",
            grandchild.display(),
            pid.display(),
            pid.display(),
        ),
    );
    (solver, pid, grandchild)
}

/// `solve --dim 4 --n 3` (UNSAT) with the escaping `solver` and `extra` arguments.
fn escaper_run(solver: &str, extra: &[&str], dir: &Path) -> Command {
    let args = ["solve", "--dim", "4", "--n", "3", "--solver-cmd", solver];
    pq_sat(&[&args[..], extra].concat(), dir, None)
}

/// Neither the escaped helper nor its child outlived pq-sat.
fn assert_escapers_gone(pid: &Path, grandchild: &Path) {
    assert!(gone(read_pid(pid)), "the setsid helper outlived pq-sat");
    assert!(
        gone(read_pid(grandchild)),
        "the helper's child outlived pq-sat"
    );
}

#[test]
fn escaped_helper_is_killed_when_the_solver_answers() {
    let dir = tempfile::tempdir().unwrap();
    let (solver, pid, grandchild) = escaping_solver(dir.path(), "echo 's UNSATISFIABLE'; exit 20");
    let out = escaper_run(&solver, &[], dir.path()).output().unwrap();
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    assert_escapers_gone(&pid, &grandchild);
}

#[test]
fn escaped_helper_is_killed_at_the_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let (solver, pid, grandchild) = escaping_solver(dir.path(), "sleep 300");
    let out = escaper_run(&solver, &["--timeout", "1"], dir.path())
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("UNKNOWN") || stdout(&out).contains("unknown"));
    assert_escapers_gone(&pid, &grandchild);
}

#[test]
fn escaped_helper_is_killed_on_ctrl_c() {
    let dir = tempfile::tempdir().unwrap();
    let (solver, pid, grandchild) = escaping_solver(dir.path(), "sleep 300");
    let child = escaper_run(&solver, &[], dir.path()).spawn().unwrap();
    let out = signal_when(child, libc::SIGINT, || grandchild.exists() && pid.exists());
    assert_eq!(code(&out), 130, "{}", stderr(&out));
    assert_escapers_gone(&pid, &grandchild);
}

// Class 12: SIGINT and SIGTERM stop every command with exit 130 and no partial output.

/// True once a family's staging directory in `parent` holds an instance: the job is under
/// way.
fn staging_has_an_instance(parent: &Path) -> bool {
    names(parent)
        .iter()
        .filter(|n| n.starts_with(".pq-family-"))
        .any(|n| !names(&parent.join(n)).is_empty())
}

#[test]
fn family_interrupted_writes_nothing() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("fam");
        // Big boards, each verified: far more work than the signal leaves time for.
        let child = pq_sat(
            &[
                "family",
                "--dim",
                "9..14",
                "--around-optimum",
                "3",
                "--verify",
                "120",
                "-o",
                target.to_str().unwrap(),
            ],
            dir.path(),
            None,
        )
        .spawn()
        .unwrap();
        // Under way once the staging directory holds an instance.
        let parent = dir.path().to_path_buf();
        let out = signal_when(child, signal, || staging_has_an_instance(&parent));
        assert_eq!(code(&out), 130, "signal {signal}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{}", stdout(&out));
        assert!(!target.exists(), "an interrupted family was written");
        // No staging directory, no solver's temporary file.
        assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
    }
}

#[test]
fn family_without_verify_interrupted_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("fam");
    // Only encoding: many large instances, so the signal comes while they are written.
    let child = pq_sat(
        &[
            "family",
            "--dim",
            "10..15",
            "--n",
            "1..25",
            "--symmetry",
            "lex-leader,none",
            "--card",
            "totalizer,seqcounter",
            "-o",
            target.to_str().unwrap(),
        ],
        dir.path(),
        None,
    )
    .spawn()
    .unwrap();
    let parent = dir.path().to_path_buf();
    let out = signal_when(child, libc::SIGINT, || staging_has_an_instance(&parent));
    assert_eq!(code(&out), 130, "{}", stderr(&out));
    assert!(!target.exists(), "an interrupted family was written");
    assert!(
        !names(dir.path()).iter().any(|n| n.starts_with(".pq-")),
        "{:?}",
        names(dir.path())
    );
}

/// Ctrl-C during a race keeps what finished: kissat's run on the first instance is in the
/// JSON (marked incomplete) and in the plot, the slow solver is stopped, and the exit code
/// is 130.
#[test]
fn race_interrupted_keeps_the_finished_runs() {
    let dir = tempfile::tempdir().unwrap();
    let fam = dir.path().join("fam");
    let out = pq_sat(
        &["family", "--dim", "4..5", "-o", fam.to_str().unwrap()],
        dir.path(),
        None,
    )
    .output()
    .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let started = dir.path().join("started");
    let slow = fake_solver(
        dir.path(),
        "slow",
        &format!("echo $$ >> '{}'\nsleep 300", started.display()),
    );
    let plot = dir.path().join("cactus.svg");
    // One run at a time, instance by instance: kissat on the first instance, then the slow
    // solver on it, which is where Ctrl-C comes.
    let child = pq_sat(
        &[
            "race",
            fam.to_str().unwrap(),
            "--backend",
            "kissat",
            "--backend",
            &slow,
            "--jobs",
            "1",
            "--run-timeout",
            "200",
            "--plot",
            plot.to_str().unwrap(),
            "--format",
            "json",
        ],
        dir.path(),
        None,
    )
    .spawn()
    .unwrap();
    let out = signal_when(child, libc::SIGINT, || started.exists());
    assert_eq!(code(&out), 130, "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["complete"], false, "{report}");
    let runs = report["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1, "{report}");
    assert_eq!(runs[0]["solver"], "kissat");
    assert!(
        matches!(runs[0]["verdict"].as_str(), Some("sat" | "unsat")),
        "{report}"
    );
    assert!(plot.exists(), "the finished runs are drawn");
    let pids = std::fs::read_to_string(&started).unwrap();
    for pid in pids.lines() {
        assert!(gone(pid.parse().unwrap()), "raced solver {pid} survived");
    }
}

#[test]
fn enumerate_interrupted_prints_no_summary() {
    let dir = tempfile::tempdir().unwrap();
    let child = pq_sat(
        &[
            "enumerate",
            "--dim",
            "11",
            "--n",
            "8",
            "--up-to",
            "total",
            "--format",
            "json",
        ],
        dir.path(),
        None,
    )
    .spawn()
    .unwrap();
    let start = Instant::now();
    let out = signal_when(child, libc::SIGTERM, || {
        start.elapsed() > Duration::from_millis(500)
    });
    assert_eq!(code(&out), 130, "{}", stderr(&out));
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
}

#[test]
fn optimise_with_certify_interrupted_prints_the_bound_and_writes_no_bundle() {
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("cert");
    let child = pq_sat(
        &[
            "solve",
            "--engine",
            "sat",
            "--dim",
            "12",
            "--certify",
            cert.to_str().unwrap(),
            "--format",
            "json",
            "--progress",
            "lines",
        ],
        dir.path(),
        None,
    )
    .spawn()
    .unwrap();
    let start = Instant::now();
    let out = signal_when(child, libc::SIGINT, || {
        start.elapsed() > Duration::from_millis(1500)
    });
    // docs/usage.md, "Limits and interruptions": the first Ctrl-C prints what is known, with
    // status "unknown" and exit 130.
    assert_eq!(code(&out), 130, "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "unknown", "{v}");
    assert!(v["optimum"].is_null(), "{v}");
    assert!(!cert.exists(), "an interrupted run wrote a certificate");
    assert!(
        !names(dir.path()).iter().any(|n| n.starts_with(".pq-")),
        "{:?}",
        names(dir.path())
    );
}
