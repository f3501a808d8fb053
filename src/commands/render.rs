//! `pq-sat render`: an SVG picture of a placement read back from pq-sat's output.

use std::io::{self, Write};
use std::path::Path;

use anyhow::Result;
use pq_board::svg::{placement_svg, queens_svg};
use pq_board::Board;
use pq_encode::spec::Problem;

use crate::report::input::read_placement;
use crate::report::is_queens_preset;

/// Draws the placement in `path` (or standard input) into `output` (or standard output).
pub fn run(path: Option<&Path>, problem: Option<&Problem>, output: Option<&Path>) -> Result<u8> {
    let read = read_placement(&super::read_input(path)?, problem)?;
    let svg = picture(&read.problem, &read.placement, None);
    match output {
        Some(p) => crate::files::write_svg(p, &svg)?,
        None => {
            let mut out = io::stdout().lock();
            out.write_all(svg.as_bytes())?;
            out.flush()?;
        }
    }
    Ok(0)
}

/// The picture of a placement of `problem`: the queens' own picture for the preset.
pub fn picture(
    problem: &Problem,
    p: &pq_board::placement::Placement,
    title: Option<&str>,
) -> String {
    match Board::from_placement(p).filter(|_| is_queens_preset(problem)) {
        Some(board) => {
            let d = board.dim();
            let title = title.map_or_else(|| format!("peaceable queens on {d}x{d}"), String::from);
            queens_svg(&board, Some(&title))
        }
        None => placement_svg(&problem.rules, p, Some(title.unwrap_or(&problem.name))),
    }
}
