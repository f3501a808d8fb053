//! Running the real `pq-sat` binary from the integration tests, shared by every test module.

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_pq-sat");

/// Runs pq-sat with `args` and an empty standard input.
pub(crate) fn run(args: &[&str]) -> Output {
    run_with_stdin(args, None)
}

/// Runs pq-sat with `args`, feeding `stdin` if given.
pub(crate) fn run_with_stdin(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the pq-sat binary runs");
    let mut pipe = child.stdin.take().unwrap();
    if let Some(bytes) = stdin {
        pipe.write_all(bytes).unwrap();
    }
    drop(pipe);
    child.wait_with_output().unwrap()
}

/// The exit code (pq-sat must not die from a signal).
pub(crate) fn code(out: &Output) -> i32 {
    out.status.code().expect("pq-sat exits normally")
}

pub(crate) fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

pub(crate) fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// Standard output as one JSON value.
pub(crate) fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(out)))
}

/// An executable shell script `dir/name` with `body`, standing in for a solver; returns
/// its path.
pub(crate) fn fake_solver(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_str().unwrap().to_string()
}

/// A path as the `&str` an argument list takes (every test path is UTF-8).
pub(crate) fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The names in `dir`, sorted, to show what a run left behind.
pub(crate) fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Makes a FIFO at `path`.
pub(crate) fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(s(path)).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

/// A copy of the directory `from` (flat, files only) at `to`.
pub(crate) fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

/// Rewrites the JSON file `path` with `edit`.
pub(crate) fn edit_json(path: &Path, edit: &dyn Fn(&mut Value)) {
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    edit(&mut v);
    std::fs::write(path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

/// Waits until `path` holds a pid, and returns it.
pub(crate) fn read_pid(path: &Path) -> i32 {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(pid) = std::fs::read_to_string(path)
            .ok()
            .and_then(|t| t.trim().parse().ok())
        {
            return pid;
        }
        assert!(
            Instant::now() < deadline,
            "no pid appeared in {}",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// True once `pid` has ended (a zombie counts as ended: reaping it is its new parent's job).
pub(crate) fn gone(pid: i32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let state = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| s.rsplit(')').next().and_then(|r| r.trim().chars().next()));
        if matches!(state, None | Some('Z' | 'X')) {
            return true;
        }
        if Instant::now() >= deadline {
            // Not left running for the next test either.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Sends `signal` to pq-sat once `ready` says the job is under way, and waits for the end.
pub(crate) fn signal_when(mut child: Child, signal: i32, ready: impl Fn() -> bool) -> Output {
    let deadline = Instant::now() + Duration::from_mins(1);
    while !ready() {
        if child.try_wait().unwrap().is_some() {
            let out = child.wait_with_output().unwrap();
            panic!(
                "pq-sat ended before the signal: exit {:?}\n{}",
                out.status.code(),
                stderr(&out)
            );
        }
        assert!(Instant::now() < deadline, "the job never got under way");
        std::thread::sleep(Duration::from_millis(10));
    }
    unsafe { libc::kill(child.id() as i32, signal) };
    child.wait_with_output().unwrap()
}

/// pq-sat exited with `want` and said `needle` on standard error.
pub(crate) fn assert_fails_saying(out: &Output, want: i32, needle: &str) {
    assert_eq!(code(out), want, "{}", stderr(out));
    assert!(stderr(out).contains(needle), "{}", stderr(out));
}

/// `encode --dim D --n N -o path`, which must succeed.
pub(crate) fn encode_to(dim: &str, n: &str, path: &Path) {
    let out = run(&["encode", "--dim", dim, "--n", n, "-o", s(path)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

/// The board of a JSON answer (`board`: its rows), as a placement of the queens.
pub(crate) fn board_of(v: &serde_json::Value) -> pq_board::placement::Placement {
    let rows: Vec<String> = v["board"]
        .as_array()
        .expect("a board")
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect();
    crate::oracle::board(&rows)
}

/// The SHA-256 of the file at `path`, by the system's `sha256sum` (not pq-sat's own
/// hashing, which the tests check).
pub(crate) fn sha256sum(path: &Path) -> String {
    let out = Command::new("sha256sum").arg(path).output().unwrap();
    String::from_utf8(out.stdout).unwrap()[..64].to_string()
}
