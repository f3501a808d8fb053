//! `pq-sat family`: a benchmark family of DIMACS files with its manifest
//! ([`pq_bench::family`]).

use std::path::Path;
use std::time::Duration;

use anyhow::Result;
use pq_bench::family::{write_family, Event, Spec, Verify};
use pq_engine::proof::ProofFormat;
use pq_report::progress::note;

use crate::Interruptible;

/// Writes the family of `spec` into `--output`; with `--verify`, each status is solved first
/// (within that time per instance) by the default portfolio.
/// With `check_unsat`, an UNSAT counts only with a checked proof in that format.
pub fn run(
    spec: &Spec,
    output: &Path,
    verify: Option<Duration>,
    check_unsat: Option<ProofFormat>,
    force: bool,
    format: pq_report::Format,
) -> Result<u8> {
    let portfolio;
    let verify = match verify {
        Some(timeout) => {
            let jobs = pq_io::cores();
            portfolio =
                pq_engine::sat::portfolio(&pq_engine::sat::Solvers::Default { jobs }, check_unsat)?;
            Some(Verify {
                backend: portfolio.as_ref(),
                timeout,
            })
        }
        None => None,
    };
    let manifest = {
        let _guard = Interruptible::enter();
        let policy = pq_io::output::WritePolicy::from_force(force);
        write_family(
            spec,
            output,
            verify.as_ref(),
            policy,
            &mut |event| match event {
                Event::Instance(e) if verify.is_some() => {
                    note!("pq-sat: {}: {} ({})", e.file, e.expected.name(), e.source);
                }
                Event::Instance(_) => {}
                Event::Optimum {
                    member,
                    optimum,
                    seconds,
                } => note!(
                    "pq-sat: {}: optimum n = {optimum} ({seconds:.2} s)",
                    member.label()
                ),
            },
        )
    };
    if let Some(v) = &verify {
        crate::warn_rejections(v.backend);
    }
    let manifest = manifest?;
    pq_report::race::family(&manifest, output, format)?;
    Ok(0)
}
