//! `pq-sat completions SHELL` and `pq-sat man`: the shell completion scripts and the manual
//! page, generated from the same clap definition as the argument parser, so they never
//! drift from the options pq-sat really takes.

use std::io::{self, Write};

use anyhow::{Context, Result};
use clap::CommandFactory;
use clap_complete::Shell;

use super::Args;

/// `pq-sat completions SHELL`.
#[derive(Debug)]
pub(crate) struct Completions(pub(crate) Shell);

impl crate::commands::Job for Completions {
    fn run(self: Box<Self>) -> Result<u8> {
        completions(self.0)
    }
}

/// `pq-sat man [COMMAND]`, the command checked to exist.
#[derive(Debug)]
pub(crate) struct Man(Option<String>);

impl Man {
    /// The page of `command` (pq-sat's own when `None`), refused when there is no such
    /// command.
    pub(crate) fn new(command: Option<String>) -> Result<Man, String> {
        if let Some(name) = &command {
            let cli = Args::command();
            if cli.find_subcommand(name).is_none() {
                let names: Vec<&str> = cli.get_subcommands().map(clap::Command::get_name).collect();
                return Err(format!(
                    "man: no command '{name}' (one of: {})",
                    names.join(", ")
                ));
            }
        }
        Ok(Man(command))
    }
}

impl crate::commands::Job for Man {
    fn run(self: Box<Self>) -> Result<u8> {
        man(self.0.as_deref())
    }
}

/// Writes the completion script for `shell` on standard output.
fn completions(shell: Shell) -> Result<u8> {
    let mut command = Args::command();
    // Made in memory first: clap_complete panics on a write error (a full disk, say), which
    // a plain write reports.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "pq-sat", &mut script);
    let mut out = io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(0)
}

/// Writes the manual page (roff, section 1) of pq-sat, or of its subcommand `command`
/// (named `pq-sat-COMMAND`, as pq-sat's own page refers to it), on standard output.
fn man(command: Option<&str>) -> Result<u8> {
    let mut cli = Args::command().disable_help_subcommand(true);
    // Building gives each subcommand its display name, `pq-sat-encode`.
    cli.build();
    let page = match command {
        Some(name) => cli
            .find_subcommand(name)
            .cloned()
            .with_context(|| format!("man: no command '{name}'"))?,
        None => cli,
    };
    let mut out = io::stdout().lock();
    clap_mangen::Man::new(page).render(&mut out)?;
    out.flush()?;
    Ok(0)
}
