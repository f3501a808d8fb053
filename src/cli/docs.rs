//! `pq-sat completions SHELL` and `pq-sat man`: the shell completion scripts and the manual
//! page, generated from the same clap definition as the argument parser, so they never
//! drift from the options pq-sat really takes.

use std::io::{self, Write};

use anyhow::{Context, Result};
use clap::CommandFactory;
use clap_complete::Shell;

use super::Args;

/// Writes the completion script for `shell` on standard output.
pub(crate) fn completions(shell: Shell) -> Result<u8> {
    let mut command = Args::command();
    let mut out = io::stdout().lock();
    clap_complete::generate(shell, &mut command, "pq-sat", &mut out);
    out.flush()?;
    Ok(0)
}

/// Writes the manual page (roff, section 1) of pq-sat, or of its subcommand `command`
/// (named `pq-sat-COMMAND`, as pq-sat's own page refers to it), on standard output.
pub(crate) fn man(command: Option<&str>) -> Result<u8> {
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
