//! Running an external SAT solver process on a DIMACS file.
//!
//! Every solver runs in its own process group, so that a timeout or Ctrl-C kills the solver
//! together with anything it started (wrapper scripts, portfolio workers). The child also gets
//! `PR_SET_PDEATHSIG = SIGKILL`, so it cannot outlive pq-sat even if pq-sat is killed outright.
//! The time limit is enforced by killing the group ourselves; no solver-specific limit flags are
//! passed, because each solver spells them differently and some ignore them in places.

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::answer::Answer;
use crate::control::Limits;
use crate::error::SolveError;

mod command;
mod conventions;
#[cfg(test)]
mod conventions_fuzz;
pub mod process;

pub use conventions::{read_answer, AnswerForm, Convention, SavedAnswer};
pub use process::kill_all_running;
use process::{signal_name, End};

/// The program `name` as `PATH` finds it (a name with a `/` is taken as a path); when it is
/// not there, the [`SolveError::NotInstalled`] names it as `shown`, with `hint` on how to
/// install it.
pub fn find_program(name: &str, shown: &str, hint: &str) -> Result<PathBuf, SolveError> {
    which::which(name).map_err(|_| SolveError::NotInstalled {
        program: shown.to_string(),
        hint: hint.to_string(),
    })
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

impl ExternalSolver {
    /// kissat, quiet (`-q`: only the `s` and `v` lines on stdout), found on `PATH`.
    pub fn kissat() -> Result<Self, SolveError> {
        Self::installed("kissat", &["-q"], Convention::Competition)
    }

    /// minisat (`-verb=0`), which reports the model through a result file.
    pub fn minisat() -> Result<Self, SolveError> {
        Self::installed("minisat", &["-verb=0"], Convention::Minisat)
    }

    /// The `cadical` binary, quiet (`-q`), named `cadical-bin` apart from the in-process
    /// `cadical` in every output.
    pub fn cadical() -> Result<Self, SolveError> {
        Ok(ExternalSolver {
            name: "cadical-bin".to_string(),
            ..Self::installed("cadical", &["-q"], Convention::Competition)?
        })
    }

    fn installed(name: &str, args: &[&str], convention: Convention) -> Result<Self, SolveError> {
        let program = find_program(name, name, SETUP_HINT)?;
        Ok(ExternalSolver {
            name: name.to_string(),
            program,
            args: args.iter().map(std::string::ToString::to_string).collect(),
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
        let words =
            command::split_command(cmd).map_err(|e| SolveError::BadCommand(cmd.to_string(), e))?;
        let Some((program, args)) = words.split_first() else {
            return Err(SolveError::BadCommand(
                cmd.to_string(),
                "no program given".to_string(),
            ));
        };
        let hint = if program.contains('/') {
            "no executable file at that path"
        } else {
            "install it or give its full path"
        };
        let resolved = find_program(program, program, hint)?;
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
        std::fs::metadata(cnf).map_err(SolveError::io(cnf))?;

        let result_file = match self.convention {
            Convention::Competition => None,
            Convention::Minisat => Some(pq_io::output::scratch_file(".out")?),
        };

        let mut cmd = Command::new(&self.program);
        cmd.args(&self.args).arg(cnf).args(&self.args_after);
        if let Some(f) = &result_file {
            cmd.arg(f.path());
        }
        let read = move |mut pipe: process::Pipe| {
            let summary = conventions::read_stdout(&mut pipe, n_vars);
            if let Some(reason) = &summary.gave_up {
                pipe.stop_child(reason.clone());
            }
            summary
        };
        let cap = conventions::stdout_cap(n_vars);
        let run = process::supervise(&self.name, cmd, None, limits, cap, read)?;

        let status = match run.end {
            End::Stopped(reason) => return Ok(Answer::Unknown(reason)),
            End::Interrupted => {
                return Ok(Answer::Unknown(
                    "interrupted: the solver was stopped on request".to_string(),
                ))
            }
            End::Cut(reason) => {
                return Err(self.failed(format!("{reason}; pq-sat killed it"), run.stderr))
            }
            End::Exited(status) => status,
        };
        let Some(stdout) = run.stdout else {
            return Err(self.failed(
                "a process it started kept its stdout open".to_string(),
                run.stderr,
            ));
        };
        if let Some(e) = &stdout.read_error {
            return Err(self.failed(format!("reading its stdout failed: {e}"), run.stderr));
        }
        if let Some(sig) = status.signal() {
            return Err(self.failed(
                format!("killed by signal {sig}{}", signal_name(sig)),
                run.stderr,
            ));
        }
        let Some(code) = status.code() else {
            return Err(self.failed("ended without an exit code".to_string(), run.stderr));
        };
        match &result_file {
            None => self.competition_answer(code, stdout, n_vars, run.stderr),
            Some(f) => self.minisat_answer(code, f.path(), n_vars, run.stderr),
        }
    }

    fn failed(&self, reason: String, stderr: String) -> SolveError {
        SolveError::SolverFailed {
            program: self.name.clone(),
            reason,
            stderr,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};
    use std::time::{Duration, Instant};

    /// `kill_all_running` kills every solver of the process, so its test must run alone; all
    /// other tests that start solvers share this lock.
    static SERIAL: RwLock<()> = RwLock::new(());

    pub(crate) fn shared() -> RwLockReadGuard<'static, ()> {
        SERIAL
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// For tests that must run with no solver of another test running (a sweep of
    /// everything, `kill_all_running`).
    pub(crate) fn exclusive() -> RwLockWriteGuard<'static, ()> {
        SERIAL
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
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

    /// `solver` on `cnf` (two variables) with a time limit of half a second, which must end
    /// it within two seconds.
    fn half_a_second(solver: &ExternalSolver, cnf: &Path) -> Answer {
        let start = Instant::now();
        let answer = solver
            .solve_file(cnf, 2, &Limits::timeout(Some(Duration::from_millis(500))))
            .unwrap();
        let elapsed = start.elapsed();
        assert!(elapsed < Duration::from_secs(2), "{elapsed:?}");
        answer
    }

    /// A temporary directory holding `sat.cnf` ([`SAT_CNF`]), and the path of a pid file in it
    /// for a fake solver to write.
    fn sat_with_pid_file() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let cnf = write(dir.path(), "sat.cnf", SAT_CNF);
        let pid_file = dir.path().join("pid");
        (dir, cnf, pid_file)
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

        // Each fake solver's script, and what the error must say (every part of it).
        let cases: &[(&str, &str, &[&str])] = &[
            (
                "nos",
                "echo 'c nothing'; echo 'oops' >&2; exit 10",
                &["printed no s line", "oops"],
            ),
            (
                "bare",
                "echo SATISFIABLE; exit 10",
                &["without the 's ' prefix"],
            ),
            (
                "signal",
                "echo 'about to die' >&2; kill -9 $$",
                &["killed by signal 9", "about to die"],
            ),
            ("segv", "kill -SEGV $$", &["killed by signal 11"]),
            ("c139", "exit 139", &["exited with code 139"]),
            (
                "c3",
                "echo 'parse error' >&2; exit 3",
                &["exited with code 3", "parse error"],
            ),
            (
                "c1s",
                "echo 's SATISFIABLE'; echo 'v 1 0'; exit 1",
                &["exited with code 1"],
            ),
            (
                "nov",
                "echo 's SATISFIABLE'; exit 10",
                &["no complete model"],
            ),
            (
                "nozero",
                "echo 's SATISFIABLE'; echo 'v -1 2'; exit 10",
                &["no complete model"],
            ),
            (
                "badv",
                "echo 's SATISFIABLE'; echo 'v -1 x 0'; exit 10",
                &["unparsable v line"],
            ),
            (
                "mismatch",
                "echo 's SATISFIABLE'; echo 'v -1 2 0'; exit 20",
                &["'s SATISFIABLE' but exited with code 20"],
            ),
            ("weird", "echo 's MAYBE'; exit 0", &["unrecognised s line"]),
            (
                "two",
                "echo 's SATISFIABLE'; echo 's UNSATISFIABLE'; exit 20",
                &["contradicting s lines"],
            ),
        ];
        for (name, script, says) in cases {
            let msg = failure(run(name, &format!("{script}\n")));
            for part in *says {
                assert!(msg.contains(part), "{name}: {msg}");
            }
        }
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
        let stderr = process::read_tail(std::io::Cursor::new(
            (1..=n).map(|i| format!("{i}\n")).collect::<String>(),
        ));
        assert!(stderr.len() <= process::STDERR_KEEP + 16 && stderr.ends_with("200000\n"));
        assert!(stderr.starts_with("[...]\n"));
    }

    #[test]
    fn external_timeout_kills_the_solver() {
        let _g = shared();
        let (dir, cnf, pid_file) = sat_with_pid_file();
        let solver = fake(
            dir.path(),
            "sleepy",
            &format!("echo $$ > '{}'\nsleep 30\n", pid_file.display()),
        );
        let answer = half_a_second(&solver, &cnf);
        assert!(
            matches!(answer, Answer::Unknown(ref r) if r.contains("time limit")),
            "{answer:?}"
        );
        let pid = read_pid(&pid_file);
        assert!(gone(pid));
        assert!(!process::registry().iter().any(|e| e.pgid == pid));
    }

    #[test]
    fn external_timeout_kills_the_whole_group() {
        let _g = shared();
        let (dir, cnf, pid_file) = sat_with_pid_file();
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
        let answer = half_a_second(&solver, &cnf);
        assert!(matches!(answer, Answer::Unknown(_)), "{answer:?}");
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
    fn external_escaped_descendants_are_swept() {
        let _g = exclusive();
        let dir = tempfile::tempdir().unwrap();
        let cnf = write(dir.path(), "unsat.cnf", UNSAT_CNF);
        let (helper, grandchild) = (dir.path().join("helper"), dir.path().join("grandchild"));
        // The helper leaves the solver's session and process group; the group kill cannot
        // reach it or the child it starts.
        let solver = fake(
            dir.path(),
            "escaper",
            &format!(
                "setsid sh -c 'sleep 30 & echo $! > \"{}\"; echo $$ > \"{}\"; wait' &\n\
                 while [ ! -s '{}' ]; do sleep 0.01; done\n\
                 echo 's UNSATISFIABLE'\nexit 20\n",
                grandchild.display(),
                helper.display(),
                helper.display()
            ),
        );
        assert_eq!(
            solver.solve_file(&cnf, 1, &Limits::none()).unwrap(),
            Answer::Unsat
        );
        assert!(gone(read_pid(&helper)), "the setsid helper survived");
        assert!(gone(read_pid(&grandchild)), "the helper's child survived");
    }

    /// pq-solve is a library: the sweep of strays must leave the calling program's own
    /// children alone, running or ended. It once killed them (and reaped their zombies under
    /// their owner's `wait`), which made end-to-end tests die with SIGKILL whenever another
    /// test solved in-process.
    #[test]
    fn external_sweeps_spare_children_they_did_not_start() {
        // Exclusive: its sweep of everything also kills the solvers other tests run.
        let _g = exclusive();
        let mut running = Command::new("sleep").arg("30").spawn().unwrap();
        let mut ended = Command::new("true").spawn().unwrap();
        let ended_pid = ended.id() as i32;
        let pid = running.id() as i32;
        assert!(process::children().iter().any(|&(p, _)| p == pid));
        // Wait until `true` is a zombie, awaiting our `wait`.
        let deadline = Instant::now() + Duration::from_secs(10);
        while !process::children().contains(&(ended_pid, b'Z')) {
            assert!(Instant::now() < deadline, "`true` did not end");
            std::thread::sleep(Duration::from_millis(5));
        }
        // A solver whose helper escapes its group: its end sweeps, and so does end_all's
        // sweep of everything (without end_all's lock, which would stop the other tests).
        let dir = tempfile::tempdir().unwrap();
        let cnf = write(dir.path(), "unsat.cnf", UNSAT_CNF);
        let helper = dir.path().join("helper");
        let solver = fake(
            dir.path(),
            "escaper",
            &format!(
                "setsid sleep 30 &
echo $! > '{}'
echo 's UNSATISFIABLE'
exit 20
",
                helper.display()
            ),
        );
        assert_eq!(
            solver.solve_file(&cnf, 1, &Limits::none()).unwrap(),
            Answer::Unsat
        );
        assert!(gone(read_pid(&helper)), "the escaped helper survived");
        process::sweep_everything_for_test();
        assert!(
            running.try_wait().unwrap().is_none(),
            "our own child was killed"
        );
        assert!(
            ended.wait().unwrap().success(),
            "our own zombie was reaped by the sweep"
        );
        running.kill().unwrap();
        running.wait().unwrap();
    }

    #[test]
    fn external_endless_model_is_cut() {
        let _g = shared();
        let (dir, cnf, pid_file) = sat_with_pid_file();
        let solver = fake(
            dir.path(),
            "flood",
            &format!(
                "echo $$ > '{}'\necho 's SATISFIABLE'\nwhile :; do echo 'v 1 -2'; done\n",
                pid_file.display()
            ),
        );
        let msg = failure(solver.solve_file(&cnf, 2, &Limits::none()));
        assert!(
            msg.contains("a model of more than 2 literals") && msg.contains("killed it"),
            "{msg}"
        );
        assert!(gone(read_pid(&pid_file)), "the flooding solver survived");
    }

    #[test]
    fn external_output_beyond_the_cap_is_cut() {
        let _g = shared();
        let command = |script: &str| {
            let mut cmd = Command::new("/bin/sh");
            cmd.args(["-c", script]);
            cmd
        };
        let limits = Limits::none();
        // No newline ever: only the byte cap stops it.
        let run = process::supervise(
            "noise",
            command("exec tr '\\0' x < /dev/zero"),
            None,
            &limits,
            10_000,
            process::read_tail,
        )
        .unwrap();
        match run.end {
            process::End::Cut(reason) => assert!(
                reason.contains("more than 10000 bytes on its standard output"),
                "{reason}"
            ),
            _ => panic!("not cut"),
        }
        assert_eq!(run.stdout.unwrap().len(), 10_000);
        // One byte beyond the cap is too much; exactly the cap is fine.
        let hello = |cap| {
            process::supervise(
                "quiet",
                command("printf 'hello'"),
                None,
                &limits,
                cap,
                process::read_tail,
            )
            .unwrap()
        };
        assert!(matches!(hello(4).end, process::End::Cut(_)));
        let run = hello(5);
        assert!(matches!(run.end, process::End::Exited(s) if s.success()));
        assert_eq!(run.stdout.as_deref(), Some("hello"));
    }

    #[test]
    fn external_kill_all_running_interrupts() {
        let _g = exclusive();
        let (dir, cnf, pid_file) = sat_with_pid_file();
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
        assert!(process::registry().is_empty());
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
