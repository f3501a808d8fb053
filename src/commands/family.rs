//! `pq-sat family`: a benchmark family of DIMACS files with its manifest.

use anyhow::Result;
use pq_engine::family::{write_family, Event, Spec, Verify};
use pq_solve::portfolio::default_portfolio;

use super::Interruptible;
use crate::cli::FamilyArgs;
use crate::progress::note;

/// Writes the family of `spec` into `--output`; with `--verify`, each status is solved first
/// (within that time per instance).
pub fn run(spec: &Spec, a: &FamilyArgs) -> Result<u8> {
    let portfolio;
    let verify = match a.verify {
        Some(timeout) => {
            portfolio = default_portfolio(crate::cli::default_jobs());
            Some(Verify {
                backend: &portfolio,
                timeout,
            })
        }
        None => None,
    };
    let manifest = {
        let _guard = Interruptible::enter();
        write_family(spec, &a.output, verify.as_ref(), &mut |event| match event {
            Event::Instance(e) if verify.is_some() => {
                note!("pq-sat: {}: {} ({})", e.file, e.expected.name(), e.source)
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
        })?
    };
    crate::report::race::family(&manifest, &a.output, a.format)?;
    Ok(0)
}
