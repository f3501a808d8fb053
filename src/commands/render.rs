//! `pq-sat render`: an SVG picture of a placement read back from pq-sat's output.

use anyhow::Result;
use pq_board::svg::placement_svg;
use pq_encode::spec::Problem;
use pq_solve::output::WritePolicy;

use crate::cli::RenderArgs;
use crate::report::input::read_placement;
use crate::report::is_queens_preset;

/// Draws the placement in `path` (or standard input) into `output` (or standard output).
pub fn run(a: &RenderArgs, problem: Option<&Problem>) -> Result<u8> {
    let read = read_placement(&super::read_input(a.file.as_deref())?, problem)?;
    let svg = picture(&read.problem, &read.placement, None);
    match &a.output {
        Some(p) => crate::files::write_svg(p, &svg, WritePolicy::from_force(a.force))?,
        None => crate::report::emit_text(&svg)?,
    }
    Ok(0)
}

/// The picture of a placement of `problem`, titled with the problem's name; the queens
/// preset's picture is titled `title`, by default `peaceable queens on DxD`.
pub fn picture(
    problem: &Problem,
    p: &pq_board::placement::Placement,
    title: Option<&str>,
) -> String {
    let title = match title {
        _ if !is_queens_preset(problem) => problem.name.clone(),
        Some(title) => title.to_string(),
        None => {
            let d = problem.rules.layout.rows;
            format!("peaceable queens on {d}x{d}")
        }
    };
    placement_svg(&problem.rules, p, Some(&title))
}
