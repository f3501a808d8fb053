//! The commands on one placement read back from pq-sat's output: `canon` (its canonical
//! form and orbit) and `render` (its picture).

use std::path::Path;

use anyhow::Result;
use pq_board::placement::Placement;
use pq_board::symmetry::SymmetryGroup;
use pq_encode::spec::Problem;
use pq_io::output::WritePolicy;
use pq_report::input::read_placement;
use pq_report::{emit, Canon, Format, Subject};

use crate::{picture, read_input};

/// `canon`: the canonical form of the placement in `file` (standard input when `None`
/// or `-`) under the symmetries of its problem, and its orbit's size; exit 0.
pub fn canon(file: Option<&Path>, problem: Option<&Problem>, format: Format) -> Result<u8> {
    let read = read_placement(&read_input(file)?, problem)?;
    let (problem, p) = (&read.problem, &read.placement);
    let report = canonical(problem, p)?;
    emit(format, &report, || {
        let mut text = format!("# orbit of {}\n", report.orbit_size);
        for row in &report.canonical {
            text.push_str(row);
            text.push('\n');
        }
        if problem.preset().needs_legend() {
            let symbols = pq_board::placement::Placement::symbols(&problem.rules);
            text.push_str(&pq_report::legend(&problem.rules, &symbols, None));
        }
        text
    })?;
    Ok(0)
}

/// The canonical form of `p` under the symmetries of `problem`, its orbit's size and
/// whether `p` is already canonical: `canon`'s report.
pub fn canonical(problem: &Problem, p: &Placement) -> Result<Canon> {
    // Groups are interchangeable when their demands agree; the maximised groups share one
    // size, so any size of theirs tells the same symmetries.
    let n = problem
        .maximised()
        .iter()
        .map(|&g| p.count(g))
        .min()
        .unwrap_or(0);
    let demands = problem.demands(n);
    let group = SymmetryGroup::bounded(&problem.rules, &demands)?;
    let canonical = group.canonical(p);
    Ok(Canon {
        subject: Subject::of(problem, Some(n)),
        canonical: pq_report::rows(&problem.rules, &canonical),
        orbit_size: group.orbit_size(p),
        is_canonical: group.is_canonical(p),
    })
}

/// `render`: the SVG picture of the placement in `file` (standard input when `None` or
/// `-`), into `output` or standard output; exit 0.
pub fn render(
    file: Option<&Path>,
    problem: Option<&Problem>,
    output: Option<&Path>,
    force: bool,
) -> Result<u8> {
    let read = read_placement(&read_input(file)?, problem)?;
    let svg = picture(&read.problem, &read.placement, None);
    match output {
        Some(p) => pq_report::files::write_svg(p, &svg, WritePolicy::from_force(force))?,
        None => pq_report::emit_text(&svg)?,
    }
    Ok(0)
}
