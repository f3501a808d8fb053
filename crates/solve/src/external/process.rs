//! One supervisor for every child process pq-sat starts: SAT solvers, proof checkers and the
//! `--version` probes alike.
//!
//! Each child runs in its own process group with `PR_SET_PDEATHSIG = SIGKILL`, is registered
//! (so that [`kill_all_running`] reaches it from a Ctrl-C handler), has its stdout and stderr
//! drained on threads of their own (a full pipe would block it forever; stdout is read up to a
//! cap, so a flooding child cannot exhaust memory), and is killed with its whole group when the
//! [`Limits`] say stop. Whatever way [`supervise`] is left, the child is killed and reaped.
//!
//! A process group does not hold everything: a solver's helper can call `setsid` (or
//! `setpgid`) and leave it. So pq-sat makes itself a child subreaper
//! (`PR_SET_CHILD_SUBREAPER`): a descendant whose parent dies is re-parented to pq-sat rather
//! than to init, and is then found among pq-sat's children, killed and reaped (`sweep`).
//!
//! Only strays are swept, never another child of the process: pq-solve is a library, and
//! the program calling it (a test harness, a user's tool) has children of its own that are
//! none of its business; killing them, or reaping them under their owner's `wait`, once made
//! unrelated tests die with SIGKILL whenever a test solved in-process. So every supervised
//! child is marked by an environment variable, [`MARK`] = `PID.SEQ` (this process, the
//! supervision's number), which every descendant inherits and cannot change afterwards
//! (`/proc/PID/environ` is what was passed at `exec`). A child carrying our mark whose
//! supervision has ended is a stray: it is killed when that supervision ends (whatever else
//! runs meanwhile) and in [`end_all`] before pq-sat exits. A descendant that wipes its
//! environment before `exec` and leaves its group is not recognised; it is still killed by
//! its `PR_SET_PDEATHSIG`, if it kept that, when its parent dies.

use std::collections::HashSet;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Once, OnceLock};
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
/// process that left the group (e.g. via `setsid`) and was not swept yet (another child was
/// still running) can keep them open that long.
const PIPE_GRACE: Duration = Duration::from_secs(2);

/// How much a child may print on stdout when its reader sets no cap of its own: far more than
/// any answer pq-sat reads, far less than would strain memory.
pub const STDOUT_CAP: u64 = 64 * 1024 * 1024;

/// How long one sweep keeps killing strays; only a process stuck in the kernel (which SIGKILL
/// cannot end) makes it last that long.
const SWEEP_LIMIT: Duration = Duration::from_secs(2);

/// The environment variable that marks every process a supervision started, and their
/// descendants: `PID.SEQ`, pq-sat's process id and the supervision's number.
pub const MARK: &str = "PQ_SAT_SUPERVISED";

/// Numbers the supervisions, so a stray tells whose it was.
static NEXT_SEQ: AtomicU64 = AtomicU64::new(1);

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
    /// Its user plus system CPU seconds (with those of its own reaped children), also
    /// counted to this thread's [`crate::cpu::CpuClock`].
    pub cpu_seconds: f64,
}

/// A child's stdout as its reader sees it: it ends after `cap` bytes, and then the child is
/// killed ([`End::Cut`]). The reader can also give up on the child itself ([`Pipe::stop_child`]),
/// e.g. on a model longer than the formula has variables.
pub struct Pipe {
    inner: ChildStdout,
    left: u64,
    cap: u64,
    cut: Arc<OnceLock<String>>,
}

impl Pipe {
    /// Asks the supervisor to kill the child: its output is wrong already (`reason` says how)
    /// and reading on would only waste time and memory. The first reason given is kept.
    pub fn stop_child(&self, reason: String) {
        let _ = self.cut.set(reason);
    }
}

impl Read for Pipe {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.left == 0 {
            // Output of exactly `cap` bytes is fine: only a byte beyond it is too much.
            let mut probe = [0u8; 1];
            if self.inner.read(&mut probe)? == 0 {
                return Ok(0);
            }
            self.stop_child(format!(
                "printed more than {} on its standard output",
                byte_size(self.cap)
            ));
            return Ok(0);
        }
        let want = buf
            .len()
            .min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..want])?;
        self.left -= n as u64;
        Ok(n)
    }
}

/// `64 MiB`, `1.5 GiB`, `512 bytes`: a size for messages.
fn byte_size(bytes: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    match bytes {
        b if b >= 1024 * MIB => format!("{:.1} GiB", b as f64 / (1024 * MIB) as f64),
        b if b >= MIB && b % MIB == 0 => format!("{} MiB", b / MIB),
        b if b >= MIB => format!("{:.1} MiB", b as f64 / MIB as f64),
        b => format!("{b} bytes"),
    }
}

/// Runs `cmd` under supervision: `stdin` (if any) is written to it, its stdout goes to
/// `read_stdout` on a thread of its own (at most `stdout_cap` bytes of it, see [`Pipe`]), its
/// stderr is kept (the tail), and it is killed with its whole group when `limits` say stop,
/// the reader gives up on it, or [`kill_all_running`] is called. `name` names it in errors.
pub fn supervise<T: Send + 'static>(
    name: &str,
    mut cmd: Command,
    stdin: Option<Vec<u8>>,
    limits: &Limits,
    stdout_cap: u64,
    read_stdout: impl FnOnce(Pipe) -> T + Send + 'static,
) -> Result<Supervised<T>, SolveError> {
    become_subreaper();
    let parent = std::process::id();
    let seq = NEXT_SEQ.fetch_add(1, Ordering::Relaxed);
    cmd.env(MARK, format!("{parent}.{seq}"));
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

    let spawn_error = |error| SolveError::Spawn {
        program: name.to_string(),
        error,
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
            seq,
            killed: false,
            closing: false,
        });
        Guard {
            child,
            pgid,
            reaped: false,
            cpu_seconds: 0.0,
        }
    };

    let (Some(stdout), Some(stderr)) = (child.child.stdout.take(), child.child.stderr.take())
    else {
        return Err(spawn_error(std::io::Error::other("no pipe to the child")));
    };
    let cut = Arc::new(OnceLock::new());
    let stdout = Pipe {
        inner: stdout,
        left: stdout_cap,
        cap: stdout_cap,
        cut: Arc::clone(&cut),
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

    let end = child.wait(limits, &cut).map_err(spawn_error)?;
    let seconds = start.elapsed().as_secs_f64();

    // The whole group is dead now, so the pipes are closed unless something escaped it.
    let grace = Instant::now() + PIPE_GRACE;
    while !(stdout_reader.is_finished() && stderr_reader.is_finished()) && Instant::now() < grace {
        std::thread::sleep(Duration::from_millis(5));
    }
    // The reader may hit the cap (or give up) only after the child exited: its output is
    // incomplete all the same.
    let end = match (end, cut.get()) {
        (End::Exited(_), Some(reason)) => End::Cut(reason.clone()),
        (end, _) => end,
    };
    Ok(Supervised {
        end,
        stdout: join_finished(stdout_reader),
        stderr: join_finished(stderr_reader).unwrap_or_default(),
        seconds,
        cpu_seconds: child.cpu_seconds,
    })
}

/// Kills every external solver process group still running, e.g. from a Ctrl-C handler thread.
///
/// Safe to call from any thread and any number of times; the `solve_file` calls concerned return
/// `Unknown` (and their supervisors then sweep what left the groups). It takes a lock, so it
/// must not be called from inside a raw signal handler (the `ctrlc` crate runs its handler on an
/// ordinary thread, which is fine).
pub fn kill_all_running() {
    let mut running = registry();
    kill_groups(&mut running);
}

/// Kills every child process pq-sat started and everything they started, also what left their
/// process groups, waiting (at most a few seconds) until the strays are gone, and keeps any
/// other child from being started afterwards: the last call before pq-sat exits (normally, or
/// at once on a second Ctrl-C).
pub fn end_all() {
    let mut running = registry();
    kill_groups(&mut running);
    sweep(&running, true);
    // Held until the process exits: no supervise call can start a child after this.
    std::mem::forget(running);
}

fn kill_groups(running: &mut [Entry]) {
    for entry in running.iter_mut().filter(|e| !e.closing) {
        entry.killed = true;
        // SAFETY: plain system call. The group cannot have been recycled: an entry is marked
        // closing before its leader is reaped, and an unreaped leader keeps the pgid taken.
        unsafe {
            libc::kill(-entry.pgid, libc::SIGKILL);
        }
    }
}

/// Makes this process a child subreaper, once: orphaned descendants come to it, not to init.
fn become_subreaper() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: plain system call with integer arguments. If it fails (a kernel before 3.4)
        // the process groups still hold the ordinary solvers; only escapees would be missed.
        let on: libc::c_ulong = 1;
        unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, on, 0, 0, 0);
        }
    });
}

/// Kills and reaps the strays: children of this process that carry its [`MARK`] but are no
/// supervision's group leader, whose supervision has ended (with `everything`, those of
/// running supervisions too, and the owned leaders, whose reaping stays with their
/// supervisors). Killing one re-parents its own children here, so it repeats until a scan
/// finds no stray (or [`SWEEP_LIMIT`] passes). The caller holds the registry lock, so no
/// child is started meanwhile and no owned pid is reaped (and recycled) under it.
fn sweep(running: &[Entry], everything: bool) {
    let deadline = Instant::now() + SWEEP_LIMIT;
    let me = std::process::id();
    // Strays seen alive and killed, to be reaped once they are zombies: a zombie's
    // environment cannot be read any more, and any other zombie may be awaited by its owner.
    let mut killed = killed_strays();
    loop {
        let mut found = false;
        for (pid, state) in children() {
            if state == b'Z' {
                if killed.remove(&pid) {
                    // SAFETY: our own child, marked as ours when it was alive; a zombie's pid
                    // cannot have been recycled.
                    unsafe { libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG) };
                }
                continue;
            }
            let owner = running.iter().find(|e| e.pgid == pid);
            if owner.is_some_and(|o| !everything || o.closing) {
                // Its supervisor kills and reaps it.
                continue;
            }
            let Some(seq) = mark_of(pid, me) else {
                continue;
            };
            if !everything && running.iter().any(|e| e.seq == seq && !e.closing) {
                // A running solver's helper, re-parented here because its own parent ended:
                // its supervision decides when it goes.
                continue;
            }
            found = true;
            if owner.is_none() {
                // An owned leader is reaped by its supervisor, never here.
                killed.insert(pid);
            }
            // SAFETY: plain system call on our own child, which nobody else reaps (it carries
            // our mark, and only `sweep` reaps marked non-leaders), so its pid is not recycled.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        if !found && !killed.iter().any(|p| children().iter().any(|c| c.0 == *p)) {
            return;
        }
        if Instant::now() >= deadline {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// `end_all`'s sweep of everything, without keeping the registry locked afterwards.
#[cfg(test)]
pub(crate) fn sweep_everything_for_test() {
    let running = registry();
    sweep(&running, true);
}

/// The strays killed but not reaped yet (a sweep that hit its limit leaves them for the next).
fn killed_strays() -> MutexGuard<'static, HashSet<i32>> {
    static KILLED: OnceLock<Mutex<HashSet<i32>>> = OnceLock::new();
    let lock = KILLED.get_or_init(|| Mutex::new(HashSet::new()));
    lock.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The supervision number in `pid`'s [`MARK`] when the mark is this process's (`me`), read
/// from the environment it was started with.
fn mark_of(pid: i32, me: u32) -> Option<u64> {
    let environ = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
    let prefix = format!("{MARK}={me}.");
    environ
        .split(|&b| b == 0)
        .find_map(|var| var.strip_prefix(prefix.as_bytes()))
        .and_then(|seq| std::str::from_utf8(seq).ok()?.parse().ok())
}

/// This process's children and their states (`R`, `S`, `Z`, ...), read from `/proc`.
pub(crate) fn children() -> Vec<(i32, u8)> {
    let me = std::process::id() as i32;
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|entry| {
            let pid: i32 = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read(format!("/proc/{pid}/stat")).ok()?;
            let (state, ppid) = parse_stat(&stat)?;
            (ppid == me).then_some((pid, state))
        })
        .collect()
}

/// The state and the parent's pid from a `/proc/PID/stat` line, `PID (COMM) STATE PPID ...`;
/// the command name may hold spaces and parentheses, so the fields start after the last `)`.
fn parse_stat(stat: &[u8]) -> Option<(u8, i32)> {
    let close = stat.iter().rposition(|&b| b == b')')?;
    let rest = std::str::from_utf8(&stat[close + 1..]).ok()?;
    let mut fields = rest.split_ascii_whitespace();
    let state = *fields.next()?.as_bytes().first()?;
    let ppid = fields.next()?.parse().ok()?;
    Some((state, ppid))
}

/// A process group we started and have not reaped yet.
pub(crate) struct Entry {
    pub(crate) pgid: i32,
    /// The supervision's number in its children's [`MARK`].
    seq: u64,
    /// Set by `kill_all_running`, so the waiter reports an interruption rather than a crash.
    killed: bool,
    /// Its supervisor is killing and reaping it: nobody else may signal the pgid any more.
    closing: bool,
}

static RUNNING: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

pub(crate) fn registry() -> MutexGuard<'static, Vec<Entry>> {
    // The registry stays consistent even if a holder panicked: every update is a single push,
    // flag or removal.
    RUNNING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// How a supervised process ended.
pub enum End {
    /// It exited (or died from a signal) by itself.
    Exited(ExitStatus),
    /// Killed because the limits said stop; the reason comes from them.
    Stopped(String),
    /// Killed by [`kill_all_running`].
    Interrupted,
    /// Killed because of what it printed on stdout (too much of it, or something the reader
    /// gave up on); the reason says which.
    Cut(String),
}

/// A spawned solver that is killed and reaped however `run` is left (error return or panic).
struct Guard {
    child: Child,
    pgid: i32,
    reaped: bool,
    /// The leader's CPU seconds, known once it is reaped.
    cpu_seconds: f64,
}

impl Guard {
    /// Waits for the group leader to exit, killing the group when the limits say stop or the
    /// stdout reader sets `cut`.
    fn wait(&mut self, limits: &Limits, cut: &OnceLock<String>) -> std::io::Result<End> {
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
            if cut.get().is_some() {
                break;
            }
            if let Some(left) = limits.remaining() {
                pause = pause.min(left);
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(MAX_POLL);
        }
        let (killed, status) = self.reap()?;
        Ok(match (stopped, cut.get()) {
            (Some(reason), _) => End::Stopped(reason),
            (None, _) if killed => End::Interrupted,
            // Even if it exited by itself (a closed pipe kills it): its output is incomplete.
            (None, Some(reason)) => End::Cut(reason.clone()),
            (None, None) => End::Exited(status),
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
                    &raw mut info,
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

    /// Kills what is left of the group (a solver's helpers, or a wrapper script's background
    /// jobs that would keep our pipes open), reaps the leader, deregisters it and sweeps
    /// what left the group. Returns whether `kill_all_running` had
    /// killed it, and the leader's exit status.
    fn reap(&mut self) -> std::io::Result<(bool, ExitStatus)> {
        let killed = {
            let mut running = registry();
            let entry = running.iter_mut().find(|e| e.pgid == self.pgid);
            entry.is_some_and(|e| {
                e.closing = true;
                e.killed
            })
        };
        // SAFETY: plain system call on a group whose leader we have not reaped.
        unsafe {
            libc::kill(-self.pgid, libc::SIGKILL);
        }
        self.reaped = true;
        let status = self.wait4();
        let mut running = registry();
        running.retain(|e| e.pgid != self.pgid);
        sweep(&running, false);
        Ok((killed, status?))
    }

    /// Reaps the leader with `wait4`, which (unlike `Child::wait`) also says what CPU time
    /// it used; that is kept and counted to this thread ([`crate::cpu`]).
    fn wait4(&mut self) -> std::io::Result<ExitStatus> {
        use std::os::unix::process::ExitStatusExt;
        // Nothing is written to the child from here on (stdin went to its own thread).
        drop(self.child.stdin.take());
        let mut status: libc::c_int = 0;
        // SAFETY: rusage is plain data, zero is a valid value, and wait4 only writes it.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        loop {
            // SAFETY: our own unreaped child (the registry entry is `closing`, so nobody else
            // signals or reaps it); wait4 writes only the two out-parameters.
            let rc = unsafe { libc::wait4(self.pgid, &raw mut status, 0, &raw mut usage) };
            if rc == self.pgid {
                break;
            }
            let err = std::io::Error::last_os_error();
            if err.kind() != std::io::ErrorKind::Interrupted {
                return Err(err);
            }
        }
        self.cpu_seconds = crate::cpu::rusage_seconds(&usage);
        crate::cpu::add_child(self.cpu_seconds);
        Ok(ExitStatus::from_raw(status))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_with_odd_command_names() {
        assert_eq!(parse_stat(b"42 (sh) S 7 42 42 0"), Some((b'S', 7)));
        assert_eq!(parse_stat(b"42 (a) b (c) Z 1 42 42 0"), Some((b'Z', 1)));
        assert_eq!(parse_stat(b"42 (x"), None);
        assert_eq!(parse_stat(b"42 (x) R"), None);
    }

    #[test]
    fn byte_sizes_for_messages() {
        assert_eq!(byte_size(STDOUT_CAP), "64 MiB");
        assert_eq!(byte_size(10_000), "10000 bytes");
        assert_eq!(byte_size(3 * 1024 * 1024 / 2), "1.5 MiB");
        assert_eq!(byte_size(3 << 30), "3.0 GiB");
    }
}
