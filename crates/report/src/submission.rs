//! What `pq-sat submission` prints: one line per instance and the totals, or the grading
//! record as JSON.

use std::fmt::Write;
use std::path::Path;

use crate::Result;
use pq_bench::submission::Submission;

use crate::Format;

/// The graded instances and where they went.
pub fn summary(s: &Submission, dir: &Path, format: Format) -> Result<()> {
    super::emit(format, s, || {
        let mut out = String::new();
        for g in &s.instances {
            let times: Vec<String> = s
                .solvers
                .iter()
                .zip(&g.seconds)
                .map(|(l, t)| match t {
                    Some(t) => format!("{l} {t:.2} s"),
                    None => format!("{l} >{} s", s.timeout),
                })
                .collect();
            let guess = g
                .extrapolated
                .map_or_else(String::new, |e| format!(", about {e:.0} s extrapolated"));
            let _ = writeln!(
                out,
                "{:<60} {:<7} {:<6} {}{guess}",
                g.file,
                g.expected.name(),
                g.grade.name(),
                times.join(", ")
            );
        }
        let [easy, medium, hard] = s.counts();
        let _ = writeln!(
            out,
            "wrote {} instances to {} ({easy} easy, {medium} medium, {hard} hard; {} unproven); manifest.csv, manifest.json, submission.json, description.md, description.pdf",
            s.instances.len(),
            dir.display(),
            s.unproven()
        );
        out
    })
}
