//! `pq-sat`: the command-line front end. Arguments become a validated job in [`cli`], each
//! command runs in [`commands`], and everything printed on stdout is a type in
//! [`pq_report`].

mod args;
mod cli;
mod commands;

use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

use clap::Parser;
use pq_solve::control::interrupted;
use pq_solve::external::process::end_all;

fn main() -> ExitCode {
    // Ctrl-C (and SIGTERM, SIGHUP) must not leave an external solver running. While a job
    // that watches for it runs, the first one stops every solver and lets the job end: solve
    // and optimise print what they know (best witness, last proven bound), every other job
    // stops without writing what it has not finished; either way the exit code is 130. A
    // second one, or one at any other time, ends pq-sat at once.
    let presses = AtomicUsize::new(0);
    let _ = ctrlc::set_handler(move || {
        if presses.fetch_add(1, Ordering::SeqCst) == 0 && pq_ops::interruptible() {
            eprintln!("pq-sat: interrupted; stopping the solvers (Ctrl-C again to quit at once)");
            pq_solve::interrupt();
            // Stopping takes a moment (solvers answer, reports are printed); a command
            // blocked in a system call (an open that waits for a FIFO's writer) would never
            // look at the flag, so one signal is enough to end it after a grace period.
            std::thread::spawn(|| {
                std::thread::sleep(INTERRUPT_GRACE);
                end_all();
                eprintln!(
                    "pq-sat: still running {} s after the interrupt; quitting",
                    INTERRUPT_GRACE.as_secs()
                );
                std::process::exit(pq_ops::EXIT_INTERRUPTED.into());
            });
        } else {
            end_all();
            eprintln!("pq-sat: interrupted");
            std::process::exit(pq_ops::EXIT_INTERRUPTED.into());
        }
    });
    let code = run();
    // Nothing a solver started outlives pq-sat, not even what left the solver's process
    // group (pq-sat is its subreaper by now).
    end_all();
    code
}

/// How long an interrupted command may take to stop by itself before it is ended.
const INTERRUPT_GRACE: std::time::Duration = std::time::Duration::from_secs(10);

/// Parses the arguments and runs the job; the exit code.
fn run() -> ExitCode {
    let args = match cli::Args::try_parse() {
        Ok(args) => args,
        Err(e) => {
            // `--help` and `--version` print to standard output: text lost there (a full
            // disk) is an error, a reader that left early (`| head`) is not.
            return match e.print() {
                Err(write) if write.kind() != std::io::ErrorKind::BrokenPipe => {
                    eprintln!("pq-sat: error: cannot write the text: {write}");
                    ExitCode::from(1)
                }
                _ => ExitCode::from(if e.use_stderr() { 2 } else { 0 }),
            };
        }
    };
    pq_report::progress::set_verbosity(args.verbosity());
    let job = match args.into_job() {
        Ok(job) => job,
        Err(message) => {
            eprintln!("pq-sat: error: {message}");
            return ExitCode::from(2);
        }
    };
    match cli::run(job) {
        Ok(code) => ExitCode::from(code),
        // After Ctrl-C, whatever failed failed because of it: a stopped solver, a cut check.
        Err(_) if interrupted() => {
            eprintln!("pq-sat: interrupted; what was not finished was not written");
            ExitCode::from(pq_ops::EXIT_INTERRUPTED)
        }
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pq-sat: error: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// A reader that went away (`pq-sat ... | head`) is not an error.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    let broken = |io: &std::io::Error| io.kind() == std::io::ErrorKind::BrokenPipe;
    e.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().is_some_and(broken)
            || matches!(cause.downcast_ref::<pq_report::Error>(), Some(pq_report::Error::Io(io)) if broken(io))
    })
}
