//! `pq-sat`: the command-line front end. Arguments become a validated job in [`cli`], each
//! command runs in [`commands`], and everything printed on stdout is a type in
//! [`pq_report`].

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
        if presses.fetch_add(1, Ordering::SeqCst) == 0 && commands::interruptible() {
            eprintln!("pq-sat: interrupted; stopping the solvers (Ctrl-C again to quit at once)");
            pq_solve::control::interrupt();
        } else {
            end_all();
            eprintln!("pq-sat: interrupted");
            std::process::exit(commands::EXIT_INTERRUPTED.into());
        }
    });
    let code = run();
    // Nothing a solver started outlives pq-sat, not even what left the solver's process
    // group (pq-sat is its subreaper by now).
    end_all();
    code
}

/// Parses the arguments and runs the job; the exit code.
fn run() -> ExitCode {
    let args = match cli::Args::try_parse() {
        Ok(args) => args,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
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
    match commands::run(job) {
        Ok(code) => ExitCode::from(code),
        // After Ctrl-C, whatever failed failed because of it: a stopped solver, a cut check.
        Err(_) if interrupted() => {
            eprintln!("pq-sat: interrupted; what was not finished was not written");
            ExitCode::from(commands::EXIT_INTERRUPTED)
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
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
