//! One supervisor for every child process pq-sat starts: SAT solvers and proof checkers alike.
//!
//! Each child runs in its own process group with `PR_SET_PDEATHSIG = SIGKILL`, is registered
//! (so that [`kill_all_running`] reaches it from a Ctrl-C handler), has its stdout and stderr
//! drained on threads of their own (a full pipe would block it forever), and is killed with its
//! whole group when the [`Limits`] say stop. Whatever way [`supervise`] is left, the child is
//! killed and reaped.

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::control::Limits;
use crate::error::SolveError;

/// How much of a child's stderr (and of a checker's stdout) is kept for messages.
pub const STDERR_KEEP: usize = 64 * 1024;

/// Longest polling interval while waiting for a child; short enough that a quick solve does
/// not pay a noticeable latency, long enough not to burn CPU on a long one.
const MAX_POLL: Duration = Duration::from_millis(20);

/// How long to wait for the output pipes to close once the child's whole group is dead. Only a
/// process that left the group (e.g. via `setsid`) can keep them open that long.
const PIPE_GRACE: Duration = Duration::from_secs(2);

/// What a supervised child left behind.
pub struct Supervised<T> {
    /// How it ended.
    pub end: End,
    /// What the stdout reader made of its output; `None` when a process it started kept the
    /// pipe open after the group died (its output is then untrustworthy).
    pub stdout: Option<T>,
    /// The tail of its stderr (at most [`STDERR_KEEP`] bytes).
    pub stderr: String,
    /// Wall-clock seconds from spawn to exit.
    pub seconds: f64,
}

/// Runs `cmd` under supervision: `stdin` (if any) is written to it, its stdout goes to
/// `read_stdout` on a thread of its own, its stderr is kept (the tail), and it is killed with
/// its whole group when `limits` say stop or [`kill_all_running`] is called. `name` names it
/// in errors.
pub fn supervise<T: Send + 'static>(
    name: &str,
    mut cmd: Command,
    stdin: Option<Vec<u8>>,
    limits: &Limits,
    read_stdout: fn(ChildStdout) -> T,
) -> Result<Supervised<T>, SolveError> {
    let parent = std::process::id();
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .process_group(0);
    // SAFETY: the closure runs between fork and exec and only makes async-signal-safe
    // system calls, allocating nothing.
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // The parent may have died before prctl took effect; then nobody would kill us.
            if libc::getppid() as u32 != parent {
                return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        });
    }

    let spawn_error = |source| SolveError::Spawn {
        program: name.to_string(),
        source,
    };
    let start = Instant::now();
    // Spawning under the registry lock means kill_all_running cannot slip in between the
    // fork and the registration and miss this child.
    let mut child = {
        let mut running = registry();
        let child = cmd.spawn().map_err(spawn_error)?;
        let pgid = child.id() as i32;
        running.push(Entry {
            pgid,
            killed: false,
        });
        Guard {
            child,
            pgid,
            reaped: false,
        }
    };

    let (Some(stdout), Some(stderr)) = (child.child.stdout.take(), child.child.stderr.take())
    else {
        return Err(spawn_error(std::io::Error::other("no pipe to the child")));
    };
    let thread = |name: &str| std::thread::Builder::new().name(format!("child-{name}"));
    if let (Some(bytes), Some(mut pipe)) = (stdin, child.child.stdin.take()) {
        // On a thread: a child that does not read its input must not block us.
        thread("stdin")
            .spawn(move || pipe.write_all(&bytes))
            .map_err(spawn_error)?;
    }
    let stdout_reader = thread("stdout")
        .spawn(move || read_stdout(stdout))
        .map_err(spawn_error)?;
    let stderr_reader = thread("stderr")
        .spawn(move || read_tail(stderr))
        .map_err(spawn_error)?;

    let end = child.wait(limits).map_err(spawn_error)?;
    let seconds = start.elapsed().as_secs_f64();

    // The whole group is dead now, so the pipes are closed unless something escaped it.
    let grace = Instant::now() + PIPE_GRACE;
    while !(stdout_reader.is_finished() && stderr_reader.is_finished()) && Instant::now() < grace {
        std::thread::sleep(Duration::from_millis(5));
    }
    Ok(Supervised {
        end,
        stdout: join_finished(stdout_reader),
        stderr: join_finished(stderr_reader).unwrap_or_default(),
        seconds,
    })
}

/// Kills every external solver process group still running, e.g. from a Ctrl-C handler thread.
///
/// Safe to call from any thread and any number of times; the `solve_file` calls concerned return
/// `Unknown`. It takes a lock, so it must not be called from inside a raw signal handler (the
/// `ctrlc` crate runs its handler on an ordinary thread, which is fine).
pub fn kill_all_running() {
    let mut running = registry();
    for entry in running.iter_mut() {
        entry.killed = true;
        // SAFETY: plain system call. The group cannot have been recycled: its leader is removed
        // from the registry before it is reaped, and an unreaped leader keeps the pgid taken.
        unsafe {
            libc::kill(-entry.pgid, libc::SIGKILL);
        }
    }
}

/// A process group we started and have not reaped yet.
pub(crate) struct Entry {
    pub(crate) pgid: i32,
    /// Set by `kill_all_running`, so the waiter reports an interruption rather than a crash.
    killed: bool,
}

static RUNNING: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

pub(crate) fn registry() -> MutexGuard<'static, Vec<Entry>> {
    // The registry stays consistent even if a holder panicked: every update is a single push,
    // flag or removal.
    RUNNING.lock().unwrap_or_else(|e| e.into_inner())
}

/// How a supervised process ended.
pub enum End {
    /// It exited (or died from a signal) by itself.
    Exited(ExitStatus),
    /// Killed because the limits said stop; the reason comes from them.
    Stopped(String),
    /// Killed by [`kill_all_running`].
    Interrupted,
}

/// A spawned solver that is killed and reaped however `run` is left (error return or panic).
struct Guard {
    child: Child,
    pgid: i32,
    reaped: bool,
}

impl Guard {
    /// Waits for the group leader to exit, killing the group when the limits say stop.
    fn wait(&mut self, limits: &Limits) -> std::io::Result<End> {
        let mut stopped = None;
        let mut pause = Duration::from_millis(1);
        loop {
            if self.has_exited()? {
                break;
            }
            if let Some(reason) = limits.stop_reason() {
                // `reap` kills the group.
                stopped = Some(reason);
                break;
            }
            if let Some(left) = limits.remaining() {
                pause = pause.min(left);
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(MAX_POLL);
        }
        let (killed, status) = self.reap()?;
        Ok(match stopped {
            Some(reason) => End::Stopped(reason),
            None if killed => End::Interrupted,
            None => End::Exited(status),
        })
    }

    /// True once the leader has exited, without reaping it: while it is a zombie its pid (and so
    /// the pgid) cannot be reused, which keeps every group kill aimed at our processes.
    fn has_exited(&self) -> std::io::Result<bool> {
        loop {
            // SAFETY: siginfo_t is plain data, zero is a valid value, and waitid only writes it.
            let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
            let rc = unsafe {
                libc::waitid(
                    libc::P_PID,
                    self.pgid as libc::id_t,
                    &mut info,
                    libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
                )
            };
            if rc == 0 {
                // SAFETY: after a successful waitid the sigchld fields are the valid ones.
                return Ok(unsafe { info.si_pid() } != 0);
            }
            let err = std::io::Error::last_os_error();
            if err.kind() != std::io::ErrorKind::Interrupted {
                return Err(err);
            }
        }
    }

    /// Deregisters, kills what is left of the group (a solver's helpers, or a wrapper script's
    /// background jobs that would keep our pipes open) and reaps the leader. Returns whether
    /// `kill_all_running` had killed it, and the leader's exit status.
    fn reap(&mut self) -> std::io::Result<(bool, ExitStatus)> {
        let killed = {
            let mut running = registry();
            let killed = running
                .iter()
                .find(|e| e.pgid == self.pgid)
                .is_some_and(|e| e.killed);
            running.retain(|e| e.pgid != self.pgid);
            killed
        };
        // SAFETY: plain system call on a group whose leader we have not reaped.
        unsafe {
            libc::kill(-self.pgid, libc::SIGKILL);
        }
        self.reaped = true;
        let status = self.child.wait()?;
        Ok((killed, status))
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if !self.reaped {
            let _ = self.reap();
        }
    }
}

fn join_finished<T>(handle: JoinHandle<T>) -> Option<T> {
    if handle.is_finished() {
        handle.join().ok()
    } else {
        // Detached: the thread ends by itself when the last writer closes the pipe.
        None
    }
}

/// Reads a pipe to the end, keeping only its last [`STDERR_KEEP`] bytes (as text).
pub fn read_tail(mut pipe: impl Read) -> String {
    let mut kept: Vec<u8> = Vec::new();
    let mut truncated = false;
    let mut buf = [0u8; 8192];
    loop {
        match pipe.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                kept.extend_from_slice(&buf[..n]);
                // Trim in big steps so the copying stays linear in the output size.
                if kept.len() > 2 * STDERR_KEEP {
                    kept.drain(..kept.len() - STDERR_KEEP);
                    truncated = true;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    if kept.len() > STDERR_KEEP {
        kept.drain(..kept.len() - STDERR_KEEP);
        truncated = true;
    }
    let text = String::from_utf8_lossy(&kept);
    if truncated {
        // Drop the partial first line left by the cut.
        let start = text.find('\n').map_or(0, |i| i + 1);
        format!("[...]\n{}", &text[start..])
    } else {
        text.into_owned()
    }
}

/// A short explanation of signal `sig`, e.g. ` (SIGSEGV: segmentation fault)`.
pub fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGSEGV => " (SIGSEGV: segmentation fault)",
        libc::SIGABRT => " (SIGABRT: aborted)",
        libc::SIGKILL => " (SIGKILL: perhaps out of memory)",
        libc::SIGBUS => " (SIGBUS)",
        libc::SIGFPE => " (SIGFPE)",
        libc::SIGILL => " (SIGILL)",
        libc::SIGTERM => " (SIGTERM)",
        libc::SIGINT => " (SIGINT)",
        libc::SIGXCPU => " (SIGXCPU: CPU time limit)",
        _ => "",
    }
}
