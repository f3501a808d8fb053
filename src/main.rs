//! `pq-sat`: the command-line front end. Argument parsing lives in [`cli`], the jobs in
//! [`run`], and everything printed on stdout in [`output`].

mod cli;
mod output;
mod run;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // Ctrl-C (and SIGTERM) must not leave an external solver running.
    let _ = ctrlc::set_handler(|| {
        pq_solve::external::kill_all_running();
        eprintln!("pq-sat: interrupted");
        std::process::exit(130);
    });
    let args = match cli::Args::try_parse() {
        Ok(args) => args,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let job = match args.into_job() {
        Ok(job) => job,
        Err(message) => {
            eprintln!("pq-sat: error: {message}");
            return ExitCode::from(2);
        }
    };
    match run::run(job) {
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
