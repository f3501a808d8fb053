//! Running an external SAT solver process on a DIMACS file.
//!
//! Every solver runs in its own process group, so that a timeout or Ctrl-C kills the solver
//! together with anything it started (wrapper scripts, portfolio workers). The child also gets
//! `PR_SET_PDEATHSIG = SIGKILL`, so it cannot outlive pq-sat even if pq-sat is killed outright.
//! The time limit is enforced by killing the group ourselves; no solver-specific limit flags are
//! passed, because each solver spells them differently and some ignore them in places.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::answer::{Answer, Assignment};
use crate::control::Limits;
use crate::error::SolveError;

/// Which output convention a solver follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convention {
    /// SAT competition: `s SATISFIABLE` / `s UNSATISFIABLE` / `s UNKNOWN` on stdout, the model
    /// in `v ... 0` lines, exit code 10 / 20 / 0.
    Competition,
    /// MiniSat: `minisat [args] FILE RESULT`; RESULT holds `SAT` and a model line, `UNSAT` or
    /// `INDET`; exit code 10 / 20 / 0.
    Minisat,
}

/// A fully resolved external solver: program path, fixed arguments, output convention and the
/// name used in messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalSolver {
    /// Name shown in messages (`kissat`, or the user's command string).
    pub name: String,
    /// The executable, resolved through `PATH` when it was given as a bare name.
    pub program: PathBuf,
    /// Arguments placed before the input file.
    pub args: Vec<String>,
    /// Arguments placed after the input file (a proof file and its options).
    pub args_after: Vec<String>,
    /// How to read the solver's answer.
    pub convention: Convention,
}

/// Hint attached to `NotInstalled` for the solvers the project installs itself.
const SETUP_HINT: &str = "run scripts/setup.sh to install it";

/// How much of the solver's stderr is kept for error messages.
const STDERR_KEEP: usize = 64 * 1024;

/// How many non-model stdout lines are kept to explain a missing `s` line.
const STDOUT_TAIL_LINES: usize = 5;

/// Longest polling interval while waiting for the solver; short enough that a quick solve does
/// not pay a noticeable latency, long enough not to burn CPU on a long one.
const MAX_POLL: Duration = Duration::from_millis(20);

/// How long to wait for the output pipes to close once the solver's whole group is dead. Only a
/// process that left the group (e.g. via `setsid`) can keep them open that long.
const PIPE_GRACE: Duration = Duration::from_secs(2);

impl ExternalSolver {
    /// kissat, quiet (`-q`: only the `s` and `v` lines on stdout), found on `PATH`.
    pub fn kissat() -> Result<Self, SolveError> {
        Self::installed("kissat", &["-q"], Convention::Competition)
    }

    /// minisat (`-verb=0`), which reports the model through a result file.
    pub fn minisat() -> Result<Self, SolveError> {
        Self::installed("minisat", &["-verb=0"], Convention::Minisat)
    }

    /// The `cadical` binary, quiet (`-q`).
    pub fn cadical() -> Result<Self, SolveError> {
        Self::installed("cadical", &["-q"], Convention::Competition)
    }

    fn installed(name: &str, args: &[&str], convention: Convention) -> Result<Self, SolveError> {
        let program = which::which(name).map_err(|_| SolveError::NotInstalled {
            program: name.to_string(),
            hint: SETUP_HINT.to_string(),
        })?;
        Ok(ExternalSolver {
            name: name.to_string(),
            program,
            args: args.iter().map(|a| a.to_string()).collect(),
            args_after: Vec::new(),
            convention,
        })
    }

    /// A solver from a user command such as `cadical -q` or `/opt/foo --bar 'x y'`.
    ///
    /// The string is split like a shell would (single quotes, double quotes, backslash escapes)
    /// but no shell runs it: operators such as `|`, `>`, `;`, `&`, `$` and backquotes are
    /// rejected unless quoted, since they would silently become plain arguments. The program is
    /// looked up on `PATH` unless it contains a `/`. The solver must follow the competition
    /// convention.
    pub fn from_command(cmd: &str) -> Result<Self, SolveError> {
        let words = split_command(cmd).map_err(|e| SolveError::BadCommand(cmd.to_string(), e))?;
        let Some((program, args)) = words.split_first() else {
            return Err(SolveError::BadCommand(
                cmd.to_string(),
                "no program given".to_string(),
            ));
        };
        let resolved = which::which(program).map_err(|_| SolveError::NotInstalled {
            program: program.clone(),
            hint: if program.contains('/') {
                "no executable file at that path".to_string()
            } else {
                "install it or give its full path".to_string()
            },
        })?;
        Ok(ExternalSolver {
            name: cmd.trim().to_string(),
            program: resolved,
            args: args.to_vec(),
            args_after: Vec::new(),
            convention: Convention::Competition,
        })
    }

    /// Runs the solver on the DIMACS file `cnf`, whose header declares `n_vars` variables.
    ///
    /// The file is the last argument (minisat: `minisat [args] cnf resultfile`). When `limits`
    /// say stop (deadline, stop request, interrupt), the solver's process group is killed and
    /// the answer is `Unknown`; likewise when [`kill_all_running`] stops it. A model may omit variables (they are taken as false), but
    /// it must end with `0`, which is how a truncated model is told from a complete one.
    pub fn solve_file(
        &self,
        cnf: &Path,
        n_vars: usize,
        limits: &Limits,
    ) -> Result<Answer, SolveError> {
        // A clear "no such file" beats whatever each solver prints for it.
        std::fs::metadata(cnf).map_err(|source| SolveError::Io {
            path: cnf.to_path_buf(),
            source,
        })?;

        let result_file = match self.convention {
            Convention::Competition => None,
            Convention::Minisat => Some(
                tempfile::Builder::new()
                    .prefix("pq-minisat-")
                    .suffix(".out")
                    .tempfile()
                    .map_err(|source| SolveError::Io {
                        path: std::env::temp_dir(),
                        source,
                    })?,
            ),
        };

        let mut cmd = Command::new(&self.program);
        cmd.args(&self.args).arg(cnf).args(&self.args_after);
        if let Some(f) = &result_file {
            cmd.arg(f.path());
        }
        let run = self.run(cmd, limits)?;

        match run.end {
            End::Stopped(reason) => return Ok(Answer::Unknown(reason)),
            End::Interrupted => {
                return Ok(Answer::Unknown(
                    "interrupted: the solver was stopped on request".to_string(),
                ))
            }
            End::Exited(_) => {}
        }
        if let Some(reason) = run.pipe_problem {
            return Err(self.failed(reason, run.stderr));
        }
        let status = run.end.status();
        if let Some(sig) = status.and_then(|s| s.signal()) {
            return Err(self.failed(
                format!("killed by signal {sig}{}", signal_name(sig)),
                run.stderr,
            ));
        }
        let Some(code) = status.and_then(|s| s.code()) else {
            return Err(self.failed("ended without an exit code".to_string(), run.stderr));
        };
        match self.convention {
            Convention::Competition => {
                self.competition_answer(code, run.stdout, n_vars, run.stderr)
            }
            Convention::Minisat => {
                // `result_file` is always Some here; the fallback keeps this panic-free.
                let path = result_file
                    .as_ref()
                    .map(|f| f.path().to_path_buf())
                    .unwrap_or_default();
                self.minisat_answer(code, &path, n_vars, run.stderr)
            }
        }
    }

    fn failed(&self, reason: String, stderr: String) -> SolveError {
        SolveError::SolverFailed {
            program: self.name.clone(),
            reason,
            stderr,
        }
    }

    /// Spawns `cmd`, drains its output, and waits for it (or kills it at the deadline).
    fn run(&self, mut cmd: Command, limits: &Limits) -> Result<Run, SolveError> {
        let parent = std::process::id();
        cmd.stdin(Stdio::null())
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
            program: self.name.clone(),
            source,
        };
        // Spawning under the registry lock means kill_all_running cannot slip in between the
        // fork and the registration and miss this child.
        let mut child = {
            let mut running = registry();
            let child = cmd.spawn().map_err(spawn_error)?;
            running.push(Entry {
                pgid: child.id() as i32,
                killed: false,
            });
            Guard::new(child)
        };

        let (Some(stdout), Some(stderr)) = (child.child.stdout.take(), child.child.stderr.take())
        else {
            return Err(spawn_error(std::io::Error::other("no pipe to the solver")));
        };
        let stdout_reader = std::thread::Builder::new()
            .name("solver-stdout".to_string())
            .spawn(move || read_stdout(stdout))
            .map_err(spawn_error)?;
        let stderr_reader = std::thread::Builder::new()
            .name("solver-stderr".to_string())
            .spawn(move || read_stderr(stderr))
            .map_err(spawn_error)?;

        let end = child.wait(limits).map_err(spawn_error)?;

        // The whole group is dead now, so the pipes are closed unless something escaped it.
        let grace = Instant::now() + PIPE_GRACE;
        while !(stdout_reader.is_finished() && stderr_reader.is_finished())
            && Instant::now() < grace
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        let mut pipe_problem = None;
        let stdout = join_finished(stdout_reader).unwrap_or_else(|| {
            pipe_problem = Some("a process it started kept its stdout open".to_string());
            StdoutSummary::default()
        });
        if let Some(e) = &stdout.read_error {
            pipe_problem = Some(format!("reading its stdout failed: {e}"));
        }
        let stderr = join_finished(stderr_reader).unwrap_or_default();
        Ok(Run {
            end,
            stdout,
            stderr,
            pipe_problem,
        })
    }

    fn competition_answer(
        &self,
        code: i32,
        out: StdoutSummary,
        n_vars: usize,
        stderr: String,
    ) -> Result<Answer, SolveError> {
        if let Some(bad) = out.bad_v_line {
            return Err(self.failed(format!("printed an unparsable v line: '{bad}'"), stderr));
        }
        if out.status_lines.len() > 1 && out.status_lines.iter().any(|s| *s != out.status_lines[0])
        {
            return Err(self.failed(
                format!(
                    "printed contradicting s lines: {}",
                    out.status_lines
                        .iter()
                        .map(|s| format!("'s {s}'"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                stderr,
            ));
        }
        let Some(status) = out.status_lines.first() else {
            if code == 0 && out.c_unknown {
                // CaDiCaL's way of saying it stopped on its own limit.
                return Ok(Answer::Unknown(
                    "the solver stopped without an answer (c UNKNOWN)".to_string(),
                ));
            }
            if !matches!(code, 0 | 10 | 20) {
                return Err(self.failed(format!("exited with code {code}"), stderr));
            }
            let mut reason = format!("printed no s line (exit code {code})");
            if let Some(bare) = &out.bare_status {
                reason.push_str(&format!(
                    "; it printed '{bare}' without the 's ' prefix, as minisat does"
                ));
            } else if let Some(last) = out.tail.back() {
                reason.push_str(&format!("; its last stdout line was '{last}'"));
            }
            return Err(self.failed(reason, stderr));
        };
        let expected_code = match status.as_str() {
            "SATISFIABLE" => 10,
            "UNSATISFIABLE" => 20,
            "UNKNOWN" => 0,
            other => {
                return Err(self.failed(
                    format!("printed an unrecognised s line 's {other}' (exit code {code})"),
                    stderr,
                ))
            }
        };
        if !matches!(code, 0 | 10 | 20) {
            return Err(self.failed(
                format!("exited with code {code} after printing 's {status}'"),
                stderr,
            ));
        }
        if code != expected_code {
            return Err(self.failed(
                format!(
                    "printed 's {status}' but exited with code {code} (expected {expected_code})"
                ),
                stderr,
            ));
        }
        match expected_code {
            10 if !out.model_terminated => Err(self.failed(
                "answered SATISFIABLE but printed no complete model (v lines ending with 0)"
                    .to_string(),
                stderr,
            )),
            10 => Ok(Answer::Sat(Assignment::from_dimacs_lits(
                n_vars, &out.model,
            ))),
            20 => Ok(Answer::Unsat),
            _ => Ok(Answer::Unknown("the solver answered UNKNOWN".to_string())),
        }
    }

    fn minisat_answer(
        &self,
        code: i32,
        result_path: &Path,
        n_vars: usize,
        stderr: String,
    ) -> Result<Answer, SolveError> {
        if !matches!(code, 0 | 10 | 20) {
            // minisat exits 1 when it cannot open the input and 3 on a parse error.
            return Err(self.failed(format!("exited with code {code}"), stderr));
        }
        let bytes = std::fs::read(result_path).map_err(|source| SolveError::Io {
            path: result_path.to_path_buf(),
            source,
        })?;
        let text = String::from_utf8_lossy(&bytes);
        let mut tokens = text.split_ascii_whitespace();
        let verdict = tokens.next();
        let expected_code = match verdict {
            Some("SAT") => 10,
            Some("UNSAT") => 20,
            Some("INDET") => 0,
            None => {
                return Err(self.failed(
                    format!("wrote nothing to its result file (exit code {code})"),
                    stderr,
                ))
            }
            Some(other) => {
                return Err(self.failed(
                    format!(
                        "wrote an unrecognised result '{}' (exit code {code})",
                        clip(other)
                    ),
                    stderr,
                ))
            }
        };
        let verdict = verdict.unwrap_or_default();
        if code != expected_code {
            return Err(self.failed(
                format!(
                    "wrote '{verdict}' to its result file but exited with code {code} \
                     (expected {expected_code})"
                ),
                stderr,
            ));
        }
        match expected_code {
            10 => {
                let mut lits = Vec::new();
                for tok in tokens {
                    match tok.parse::<i64>() {
                        Ok(0) => {
                            return Ok(Answer::Sat(Assignment::from_dimacs_lits(n_vars, &lits)))
                        }
                        Ok(l) => lits.push(l),
                        Err(_) => {
                            return Err(self.failed(
                                format!("wrote an unparsable model literal '{}'", clip(tok)),
                                stderr,
                            ))
                        }
                    }
                }
                Err(self.failed(
                    "answered SAT but its model does not end with 0".to_string(),
                    stderr,
                ))
            }
            20 => Ok(Answer::Unsat),
            _ => Ok(Answer::Unknown(
                "minisat answered INDETERMINATE".to_string(),
            )),
        }
    }
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
struct Entry {
    pgid: i32,
    /// Set by `kill_all_running`, so the waiter reports an interruption rather than a crash.
    killed: bool,
}

static RUNNING: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

fn registry() -> MutexGuard<'static, Vec<Entry>> {
    // The registry stays consistent even if a holder panicked: every update is a single push,
    // flag or removal.
    RUNNING.lock().unwrap_or_else(|e| e.into_inner())
}

/// How the solver's process ended.
enum End {
    Exited(ExitStatus),
    /// Killed because the limits said stop; the reason comes from them.
    Stopped(String),
    /// Killed by [`kill_all_running`].
    Interrupted,
}

impl End {
    fn status(&self) -> Option<ExitStatus> {
        match self {
            End::Exited(s) => Some(*s),
            _ => None,
        }
    }
}

struct Run {
    end: End,
    stdout: StdoutSummary,
    stderr: String,
    /// Something went wrong with the output pipes, which makes the output untrustworthy.
    pipe_problem: Option<String>,
}

/// A spawned solver that is killed and reaped however `run` is left (error return or panic).
struct Guard {
    child: Child,
    pgid: i32,
    reaped: bool,
}

impl Guard {
    fn new(child: Child) -> Guard {
        let pgid = child.id() as i32;
        Guard {
            child,
            pgid,
            reaped: false,
        }
    }

    /// Waits for the group leader to exit, killing the group when the limits say stop.
    fn wait(&mut self, limits: &Limits) -> std::io::Result<End> {
        let mut stopped = None;
        let mut pause = Duration::from_millis(1);
        loop {
            if self.has_exited()? {
                break;
            }
            if let Some(reason) = limits.stop_reason() {
                self.kill_group();
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

    fn kill_group(&self) {
        // SAFETY: plain system call on a group whose leader we have not reaped.
        unsafe {
            libc::kill(-self.pgid, libc::SIGKILL);
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
        self.kill_group();
        self.reaped = true;
        let status = self.child.wait()?;
        Ok((killed, status))
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if !self.reaped {
            self.kill_group();
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

/// What the solver printed on stdout, digested line by line so that a huge model is held only
/// once, as literals.
#[derive(Default)]
struct StdoutSummary {
    /// The text after `s ` of every `s` line.
    status_lines: Vec<String>,
    /// minisat's bare `SATISFIABLE` / `UNSATISFIABLE` / `INDETERMINATE`.
    bare_status: Option<String>,
    /// CaDiCaL prints `c UNKNOWN` instead of an `s` line when its own limit stops it.
    c_unknown: bool,
    model: Vec<i64>,
    /// A `0` ended the model: it is complete.
    model_terminated: bool,
    bad_v_line: Option<String>,
    /// The last few lines that were not model lines, to explain a missing `s` line.
    tail: VecDeque<String>,
    read_error: Option<std::io::Error>,
}

impl StdoutSummary {
    fn take_line(&mut self, raw: &[u8]) {
        let text = String::from_utf8_lossy(raw);
        let line = text.trim_end_matches(['\n', '\r']);
        if line == "v" || line.starts_with("v ") || line.starts_with("v\t") {
            self.take_v_line(line);
            return;
        }
        if let Some(rest) = line.strip_prefix("s ") {
            if self.status_lines.len() < 8 {
                self.status_lines.push(rest.trim().to_string());
            }
        } else if line.trim() == "c UNKNOWN" {
            self.c_unknown = true;
        } else if matches!(
            line.trim(),
            "SATISFIABLE" | "UNSATISFIABLE" | "INDETERMINATE"
        ) {
            self.bare_status = Some(line.trim().to_string());
        }
        if !line.trim().is_empty() {
            if self.tail.len() == STDOUT_TAIL_LINES {
                self.tail.pop_front();
            }
            self.tail.push_back(clip(line));
        }
    }

    fn take_v_line(&mut self, line: &str) {
        if self.model_terminated || self.bad_v_line.is_some() {
            return;
        }
        for tok in line[1..].split_ascii_whitespace() {
            match tok.parse::<i64>() {
                Ok(0) => {
                    self.model_terminated = true;
                    return;
                }
                Ok(l) => self.model.push(l),
                Err(_) => {
                    self.bad_v_line = Some(clip(line));
                    return;
                }
            }
        }
    }
}

fn read_stdout(pipe: impl Read) -> StdoutSummary {
    let mut summary = StdoutSummary::default();
    let mut reader = BufReader::with_capacity(64 * 1024, pipe);
    let mut line = Vec::new();
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => summary.take_line(&line),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                summary.read_error = Some(e);
                // Keep draining so the solver never blocks on a full pipe.
                let _ = std::io::copy(&mut reader, &mut std::io::sink());
                break;
            }
        }
    }
    summary
}

/// Reads stderr to the end, keeping only its last `STDERR_KEEP` bytes.
fn read_stderr(mut pipe: impl Read) -> String {
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

/// Shortens solver output quoted in a one-line message.
fn clip(s: &str) -> String {
    const MAX: usize = 120;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let cut: String = s.chars().take(MAX).collect();
        format!("{cut}...")
    }
}

fn signal_name(sig: i32) -> &'static str {
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

/// Splits a command line into words the way a POSIX shell would for a simple command, without
/// expansions. Unquoted shell operators are an error, since there is no shell to obey them.
fn split_command(cmd: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    // Distinguishes an empty quoted word ('') from no word at all.
    let mut in_word = false;
    let mut chars = cmd.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("unterminated single quote".to_string()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        // Inside double quotes a backslash only escapes these, as in sh.
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some('\n') => {}
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("unterminated double quote".to_string()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("unterminated double quote".to_string()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(c) => {
                    in_word = true;
                    word.push(c);
                }
                None => return Err("trailing backslash".to_string()),
            },
            '|' | '&' | ';' | '<' | '>' | '$' | '`' => {
                return Err(format!(
                    "'{c}' needs a shell, and none is used; quote it if it is meant literally"
                ))
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

    /// `kill_all_running` kills every solver of the process, so its test must run alone; all
    /// other tests that start solvers share this lock.
    static SERIAL: RwLock<()> = RwLock::new(());

    fn shared() -> RwLockReadGuard<'static, ()> {
        SERIAL.read().unwrap_or_else(|e| e.into_inner())
    }

    fn exclusive() -> RwLockWriteGuard<'static, ()> {
        SERIAL.write().unwrap_or_else(|e| e.into_inner())
    }

    const SAT_CNF: &str = "p cnf 2 2\n1 2 0\n-1 0\n";
    const UNSAT_CNF: &str = "p cnf 1 2\n1 0\n-1 0\n";

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    /// A fake solver: a shell script run through `/bin/sh` (not exec'd directly, which avoids
    /// ETXTBSY when another test thread forks while the script is still open for writing).
    fn fake(dir: &Path, name: &str, body: &str) -> ExternalSolver {
        let script = write(dir, &format!("{name}.sh"), body);
        ExternalSolver::from_command(&format!("/bin/sh '{}'", script.display())).unwrap()
    }

    fn fake_minisat(dir: &Path, name: &str, body: &str) -> ExternalSolver {
        ExternalSolver {
            convention: Convention::Minisat,
            ..fake(dir, name, body)
        }
    }

    fn failure(result: Result<Answer, SolveError>) -> String {
        match result {
            Err(e @ SolveError::SolverFailed { .. }) => e.to_string(),
            other => panic!("expected SolverFailed, got {other:?}"),
        }
    }

    fn read_pid(path: &Path) -> i32 {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            if let Ok(text) = std::fs::read_to_string(path) {
                if let Ok(pid) = text.trim().parse() {
                    return pid;
                }
            }
            assert!(Instant::now() < deadline, "no pid in {}", path.display());
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// True once `pid` has ended; a zombie counts as ended (its reaping is init's business).
    fn gone(pid: i32) -> bool {
        let deadline = Instant::now() + Duration::from_secs(2);
        loop {
            match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
                Err(_) => return true,
                Ok(stat) => {
                    let state = stat
                        .rsplit(')')
                        .next()
                        .and_then(|s| s.trim().chars().next());
                    if state == Some('Z') {
                        return true;
                    }
                }
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn check_real(solver: ExternalSolver) {
        let _g = shared();
        let dir = tempfile::tempdir().unwrap();
        let sat = write(dir.path(), "sat.cnf", SAT_CNF);
        let unsat = write(dir.path(), "unsat.cnf", UNSAT_CNF);
        match solver.solve_file(&sat, 2, &Limits::none()).unwrap() {
            Answer::Sat(a) => {
                assert_eq!(a.len(), 2);
                assert!(!a.value(1) && a.value(2), "wrong model {a:?}");
            }
            other => panic!("{}: expected SAT, got {other:?}", solver.name),
        }
        assert_eq!(
            solver.solve_file(&unsat, 1, &Limits::none()).unwrap(),
            Answer::Unsat
        );
    }

    #[test]
    fn external_kissat_sat_and_unsat() {
        check_real(ExternalSolver::kissat().unwrap());
    }

    #[test]
    fn external_minisat_sat_and_unsat() {
        check_real(ExternalSolver::minisat().unwrap());
    }

    #[test]
    fn external_cadical_sat_and_unsat() {
        check_real(ExternalSolver::cadical().unwrap());
    }

    #[test]
    fn external_from_command_runs_a_real_solver() {
        check_real(ExternalSolver::from_command("cadical -q").unwrap());
    }

    /// Pigeonhole 13 into 12: far beyond any CDCL solver in half a second.
    fn pigeonhole(pigeons: usize, holes: usize) -> String {
        let var = |p: usize, h: usize| p * holes + h + 1;
        let mut clauses = Vec::new();
        for p in 0..pigeons {
            clauses.push(
                (0..holes)
                    .map(|h| format!("{} ", var(p, h)))
                    .collect::<String>(),
            );
        }
        for h in 0..holes {
            for p in 0..pigeons {
                for q in p + 1..pigeons {
                    clauses.push(format!("-{} -{} ", var(p, h), var(q, h)));
                }
            }
        }
        let mut text = format!("p cnf {} {}\n", pigeons * holes, clauses.len());
        for c in clauses {
            text.push_str(&c);
            text.push_str("0\n");
        }
        text
    }

    #[test]
    fn external_kissat_timeout_gives_unknown() {
        let _g = shared();
        let dir = tempfile::tempdir().unwrap();
        let cnf = write(dir.path(), "php.cnf", &pigeonhole(13, 12));
        let start = Instant::now();
        let answer = ExternalSolver::kissat()
            .unwrap()
            .solve_file(
                &cnf,
                13 * 12,
                &Limits::timeout(Some(Duration::from_millis(500))),
            )
            .unwrap();
        assert!(
            matches!(answer, Answer::Unknown(ref r) if r.contains("time limit")),
            "{answer:?}"
        );
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn external_split_command() {
        let ok = |s: &str| split_command(s).unwrap();
        assert_eq!(ok("cadical -q"), ["cadical", "-q"]);
        assert_eq!(ok("  a   b\tc  "), ["a", "b", "c"]);
        assert_eq!(ok("/opt/foo --bar 'x y'"), ["/opt/foo", "--bar", "x y"]);
        assert_eq!(ok(r#"a "x \"y\" \\ \n $z""#), ["a", r#"x "y" \ \n $z"#]);
        assert_eq!(ok(r"a x\ y \'q"), ["a", "x y", "'q"]);
        assert_eq!(ok("a '' \"\""), ["a", "", ""]);
        assert_eq!(ok("a--x='1 2'\"3\""), ["a--x=1 23"]);
        assert_eq!(ok("a '|' \"> ;\""), ["a", "|", "> ;"]);
        assert_eq!(ok("   "), Vec::<String>::new());
        for bad in [
            "a 'b", "a \"b", "a b\\", "a | b", "a > out", "a; b", "a &", "a $X", "a `b`",
        ] {
            assert!(split_command(bad).is_err(), "{bad} should be rejected");
        }
    }

    #[test]
    fn external_from_command_resolution() {
        let s = ExternalSolver::from_command("sh -c 'exit 0'").unwrap();
        assert!(s.program.is_absolute(), "{:?}", s.program);
        assert_eq!(s.args, ["-c", "exit 0"]);
        assert_eq!(s.convention, Convention::Competition);
        assert_eq!(s.name, "sh -c 'exit 0'");
        let s = ExternalSolver::from_command("/bin/sh").unwrap();
        assert_eq!(s.program, PathBuf::from("/bin/sh"));
        assert!(s.args.is_empty());
        assert!(matches!(
            ExternalSolver::from_command("no-such-solver-pq-sat -q"),
            Err(SolveError::NotInstalled { .. })
        ));
        assert!(matches!(
            ExternalSolver::from_command("/nonexistent/solver"),
            Err(SolveError::NotInstalled { .. })
        ));
        assert!(matches!(
            ExternalSolver::from_command("  "),
            Err(SolveError::BadCommand(..))
        ));
        assert!(matches!(
            ExternalSolver::from_command("cadical 'x"),
            Err(SolveError::BadCommand(..))
        ));
    }

    #[test]
    fn external_missing_cnf_is_an_io_error() {
        let dir = tempfile::tempdir().unwrap();
        let solver = fake(dir.path(), "s", "echo 's UNSATISFIABLE'; exit 20\n");
        let result = solver.solve_file(&dir.path().join("missing.cnf"), 1, &Limits::none());
        assert!(matches!(result, Err(SolveError::Io { .. })), "{result:?}");
    }

    #[test]
    fn external_fake_competition_answers() {
        let _g = shared();
        let dir = tempfile::tempdir().unwrap();
        let cnf = write(dir.path(), "sat.cnf", SAT_CNF);
        // A model over several v lines, with CRLF endings and comments in between.
        let multi = fake(
            dir.path(),
            "multi",
            "printf 'c hello\\r\\ns SATISFIABLE\\r\\nv -1\\r\\nc x\\nv 2\\nv 0\\n'; exit 10\n",
        );
        match multi.solve_file(&cnf, 2, &Limits::none()).unwrap() {
            Answer::Sat(a) => assert!(!a.value(1) && a.value(2)),
            other => panic!("{other:?}"),
        }
        let unknown = fake(dir.path(), "unknown", "echo 's UNKNOWN'; exit 0\n");
        assert!(matches!(
            unknown.solve_file(&cnf, 2, &Limits::none()).unwrap(),
            Answer::Unknown(_)
        ));
        let c_unknown = fake(dir.path(), "cunknown", "echo 'c UNKNOWN'; exit 0\n");
        assert!(matches!(
            c_unknown.solve_file(&cnf, 2, &Limits::none()).unwrap(),
            Answer::Unknown(_)
        ));
    }

    #[test]
    fn external_fake_failures() {
        let _g = shared();
        let dir = tempfile::tempdir().unwrap();
        let cnf = write(dir.path(), "sat.cnf", SAT_CNF);
        let run = |name: &str, body: &str| {
            fake(dir.path(), name, body).solve_file(&cnf, 2, &Limits::none())
        };

        let msg = failure(run("nos", "echo 'c nothing'; echo 'oops' >&2; exit 10\n"));
        assert!(
            msg.contains("printed no s line") && msg.contains("oops"),
            "{msg}"
        );
        let msg = failure(run("bare", "echo SATISFIABLE; exit 10\n"));
        assert!(msg.contains("without the 's ' prefix"), "{msg}");
        let msg = failure(run("signal", "echo 'about to die' >&2; kill -9 $$\n"));
        assert!(
            msg.contains("killed by signal 9") && msg.contains("about to die"),
            "{msg}"
        );
        let msg = failure(run("segv", "kill -SEGV $$\n"));
        assert!(msg.contains("killed by signal 11"), "{msg}");
        let msg = failure(run("c139", "exit 139\n"));
        assert!(msg.contains("exited with code 139"), "{msg}");
        let msg = failure(run("c3", "echo 'parse error' >&2; exit 3\n"));
        assert!(
            msg.contains("exited with code 3") && msg.contains("parse error"),
            "{msg}"
        );
        let msg = failure(run("c1s", "echo 's SATISFIABLE'; echo 'v 1 0'; exit 1\n"));
        assert!(msg.contains("exited with code 1"), "{msg}");
        let msg = failure(run("nov", "echo 's SATISFIABLE'; exit 10\n"));
        assert!(msg.contains("no complete model"), "{msg}");
        let msg = failure(run(
            "nozero",
            "echo 's SATISFIABLE'; echo 'v -1 2'; exit 10\n",
        ));
        assert!(msg.contains("no complete model"), "{msg}");
        let msg = failure(run(
            "badv",
            "echo 's SATISFIABLE'; echo 'v -1 x 0'; exit 10\n",
        ));
        assert!(msg.contains("unparsable v line"), "{msg}");
        let msg = failure(run(
            "mismatch",
            "echo 's SATISFIABLE'; echo 'v -1 2 0'; exit 20\n",
        ));
        assert!(
            msg.contains("'s SATISFIABLE' but exited with code 20"),
            "{msg}"
        );
        let msg = failure(run("weird", "echo 's MAYBE'; exit 0\n"));
        assert!(msg.contains("unrecognised s line"), "{msg}");
        let msg = failure(run(
            "two",
            "echo 's SATISFIABLE'; echo 's UNSATISFIABLE'; exit 20\n",
        ));
        assert!(msg.contains("contradicting s lines"), "{msg}");
    }

    #[test]
    fn external_large_output_on_both_pipes() {
        let _g = shared();
        let dir = tempfile::tempdir().unwrap();
        let n = 200_000;
        let cnf = write(dir.path(), "big.cnf", "p cnf 200000 0\n");
        let solver = fake(
            dir.path(),
            "big",
            &format!(
                "seq 1 {n} | sed 's/^/noise /' >&2\n\
                 echo 's SATISFIABLE'\n\
                 seq 1 {n} | sed 's/^/v -/; s/$/ 0/; $!s/ 0$//'\n\
                 seq 1 {n} >&2\nexit 10\n"
            ),
        );
        match solver.solve_file(&cnf, n, &Limits::none()).unwrap() {
            Answer::Sat(a) => {
                assert_eq!(a.len(), n);
                assert!((1..=n).all(|v| !a.value(v)));
            }
            other => panic!("{other:?}"),
        }
        // The stderr kept for messages is bounded and ends with the last line.
        let stderr = read_stderr(std::io::Cursor::new(
            (1..=n).map(|i| format!("{i}\n")).collect::<String>(),
        ));
        assert!(stderr.len() <= STDERR_KEEP + 16 && stderr.ends_with("200000\n"));
        assert!(stderr.starts_with("[...]\n"));
    }

    #[test]
    fn external_timeout_kills_the_solver() {
        let _g = shared();
        let dir = tempfile::tempdir().unwrap();
        let cnf = write(dir.path(), "sat.cnf", SAT_CNF);
        let pid_file = dir.path().join("pid");
        let solver = fake(
            dir.path(),
            "sleepy",
            &format!("echo $$ > '{}'\nsleep 30\n", pid_file.display()),
        );
        let start = Instant::now();
        let answer = solver
            .solve_file(&cnf, 2, &Limits::timeout(Some(Duration::from_millis(500))))
            .unwrap();
        let elapsed = start.elapsed();
        assert!(
            matches!(answer, Answer::Unknown(ref r) if r.contains("time limit")),
            "{answer:?}"
        );
        assert!(elapsed < Duration::from_secs(2), "{elapsed:?}");
        let pid = read_pid(&pid_file);
        assert!(gone(pid));
        assert!(!registry().iter().any(|e| e.pgid == pid));
    }

    #[test]
    fn external_timeout_kills_the_whole_group() {
        let _g = shared();
        let dir = tempfile::tempdir().unwrap();
        let cnf = write(dir.path(), "sat.cnf", SAT_CNF);
        let pid_file = dir.path().join("pid");
        let child_file = dir.path().join("child");
        let solver = fake(
            dir.path(),
            "parent",
            &format!(
                "sleep 30 &\necho $! > '{}'\necho $$ > '{}'\nsleep 30\n",
                child_file.display(),
                pid_file.display()
            ),
        );
        let start = Instant::now();
        let answer = solver
            .solve_file(&cnf, 2, &Limits::timeout(Some(Duration::from_millis(500))))
            .unwrap();
        assert!(matches!(answer, Answer::Unknown(_)), "{answer:?}");
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "{:?}",
            start.elapsed()
        );
        assert!(gone(read_pid(&pid_file)), "solver survived");
        assert!(gone(read_pid(&child_file)), "solver's child survived");
    }

    #[test]
    fn external_leftover_child_does_not_hold_the_answer() {
        let _g = shared();
        let dir = tempfile::tempdir().unwrap();
        let cnf = write(dir.path(), "unsat.cnf", UNSAT_CNF);
        let child_file = dir.path().join("child");
        let solver = fake(
            dir.path(),
            "leaver",
            &format!(
                "sleep 30 &\necho $! > '{}'\necho 's UNSATISFIABLE'\nexit 20\n",
                child_file.display()
            ),
        );
        let start = Instant::now();
        assert_eq!(
            solver.solve_file(&cnf, 1, &Limits::none()).unwrap(),
            Answer::Unsat
        );
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "{:?}",
            start.elapsed()
        );
        assert!(gone(read_pid(&child_file)), "leftover child survived");
    }

    #[test]
    fn external_kill_all_running_interrupts() {
        let _g = exclusive();
        let dir = tempfile::tempdir().unwrap();
        let cnf = write(dir.path(), "sat.cnf", SAT_CNF);
        let pid_file = dir.path().join("pid");
        let solver = fake(
            dir.path(),
            "victim",
            &format!("echo $$ > '{}'\nsleep 30\n", pid_file.display()),
        );
        let start = Instant::now();
        let worker = std::thread::spawn(move || solver.solve_file(&cnf, 2, &Limits::none()));
        let pid = read_pid(&pid_file);
        kill_all_running();
        kill_all_running();
        let answer = worker.join().unwrap().unwrap();
        assert!(
            matches!(answer, Answer::Unknown(ref r) if r.contains("interrupted")),
            "{answer:?}"
        );
        assert!(start.elapsed() < Duration::from_secs(5));
        assert!(gone(pid));
        assert!(registry().is_empty());
        kill_all_running();
    }

    #[test]
    fn external_fake_minisat_convention() {
        let _g = shared();
        let dir = tempfile::tempdir().unwrap();
        let cnf = write(dir.path(), "sat.cnf", SAT_CNF);
        let run = |name: &str, body: &str| {
            fake_minisat(dir.path(), name, body).solve_file(&cnf, 2, &Limits::none())
        };
        match run(
            "sat",
            "printf 'SAT\\n-1 2 0\\n' > \"$2\"; echo SATISFIABLE; exit 10\n",
        )
        .unwrap()
        {
            Answer::Sat(a) => assert!(!a.value(1) && a.value(2)),
            other => panic!("{other:?}"),
        }
        let indet = run("indet", "printf 'INDET' > \"$2\"; exit 0\n").unwrap();
        assert!(matches!(indet, Answer::Unknown(_)), "{indet:?}");
        let msg = failure(run("mismatch", "printf 'UNSAT\\n' > \"$2\"; exit 10\n"));
        assert!(msg.contains("but exited with code 10"), "{msg}");
        let msg = failure(run("empty", "exit 10\n"));
        assert!(msg.contains("wrote nothing"), "{msg}");
        let msg = failure(run("nozero", "printf 'SAT\\n-1 2\\n' > \"$2\"; exit 10\n"));
        assert!(msg.contains("does not end with 0"), "{msg}");
        let msg = failure(run("parse", "echo 'PARSE ERROR!' >&2; exit 3\n"));
        assert!(
            msg.contains("exited with code 3") && msg.contains("PARSE ERROR"),
            "{msg}"
        );
    }

    #[test]
    fn external_real_minisat_parse_error() {
        let _g = shared();
        let dir = tempfile::tempdir().unwrap();
        let cnf = write(dir.path(), "junk.cnf", "p cnf 2 1\n1 x 0\n");
        let msg = failure(
            ExternalSolver::minisat()
                .unwrap()
                .solve_file(&cnf, 2, &Limits::none()),
        );
        assert!(msg.contains("exited with code 3"), "{msg}");
        let msg = failure(
            ExternalSolver::kissat()
                .unwrap()
                .solve_file(&cnf, 2, &Limits::none()),
        );
        assert!(
            msg.contains("exited with code 1") && msg.contains("parse error"),
            "{msg}"
        );
    }
}
