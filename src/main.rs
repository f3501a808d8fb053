//! `pq-sat`: the command-line front end. Arguments become a validated job in [`cli`], each
//! command runs in [`commands`], and everything printed on stdout is a type in [`report`].

mod cli;
mod commands;
mod compress;
mod files;
mod plot;
mod progress;
mod report;

use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

use clap::Parser;

fn main() -> ExitCode {
    // Ctrl-C (and SIGTERM) must not leave an external solver running. While a solver runs,
    // the first one stops every solver and lets pq-sat print what it knows (best witness,
    // last proven bound); a second one, or one at any other time, ends pq-sat at once.
    let presses = AtomicUsize::new(0);
    let _ = ctrlc::set_handler(move || {
        if presses.fetch_add(1, Ordering::SeqCst) == 0 && commands::interruptible() {
            eprintln!("pq-sat: interrupted; stopping the solvers (Ctrl-C again to quit at once)");
            pq_solve::control::interrupt();
        } else {
            pq_solve::external::kill_all_running();
            eprintln!("pq-sat: interrupted");
            std::process::exit(commands::EXIT_INTERRUPTED.into());
        }
    });
    let args = match cli::Args::try_parse() {
        Ok(args) => args,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    progress::set_verbosity(args.verbosity());
    let job = match args.into_job() {
        Ok(job) => job,
        Err(message) => {
            eprintln!("pq-sat: error: {message}");
            return ExitCode::from(2);
        }
    };
    match commands::run(job) {
        Ok(code) => ExitCode::from(code),
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
