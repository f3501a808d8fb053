//! `enumerate`'s text: one block per board found, and the closing count.

use pq_encode::spec::Problem;
use pq_engine::capability::listing::{Found, Request, Summary, UpTo};

/// The `count`-th board found, with its counts per group (and its orbit's size, up to
/// symmetry).
pub fn found_text(problem: &Problem, found: &Found, count: usize, up_to: UpTo) -> String {
    let mut counts: Vec<String> = problem
        .rules
        .groups
        .iter()
        .enumerate()
        .map(|(g, group)| format!("{} {}", found.placement.count(g), group.name))
        .collect();
    if up_to == UpTo::Symmetry {
        counts.push(format!("orbit of {}", found.orbit_size));
    }
    format!(
        "# {count} ({})\n{}",
        counts.join(", "),
        crate::board_text(problem, &found.placement)
    )
}

/// What was counted, in one line.
pub fn summary_line(request: &Request, summary: &Summary) -> String {
    let (problem, n) = (&request.problem, request.n);
    let counted = match request.up_to {
        UpTo::Symmetry => format!(
            "{} orbits ({} boards counting every symmetric image)",
            summary.count, summary.total_boards
        ),
        UpTo::Total => format!("{} boards", summary.count),
    };
    let unequal = if request.maximal {
        let what = problem.preset().groups();
        format!(", {} with {what} of different sizes", summary.unequal)
    } else {
        String::new()
    };
    let what = problem.preset().counted(problem, n, request.maximal);
    let stopped = match (&summary.stopped, summary.complete) {
        (Some(reason), _) => format!(" (stopped, {reason}: not all)"),
        (None, false) => " (stopped at --limit: not all)".to_string(),
        (None, true) => String::new(),
    };
    let split = if summary.cubes > 1 {
        format!(", {} cubes on {} threads", summary.cubes, request.jobs)
    } else {
        String::new()
    };
    format!(
        "{counted}{unequal}: {what}{stopped} ({:.2} s{split})\n",
        summary.seconds
    )
}
