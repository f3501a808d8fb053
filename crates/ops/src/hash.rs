//! `pq-sat hash FILE...`: the two ids of an instance file, its GBD hash and its SHA-256, for
//! any CNF file, pq-sat's or not, plain or compressed. A command of its own rather than an
//! option of `encode`, because organisers name the files they already have (downloaded,
//! compressed, written by other generators) and check a family's manifest against them.

use std::path::PathBuf;

use anyhow::{Context, Result};
use pq_io::compress;
use pq_io::hashing::{gbd_hash, sha256_file, sha256_hex};
use pq_report::emit;
use serde::Serialize;

/// The ids of one file.
#[derive(Serialize)]
struct Ids {
    file: String,
    gbd: String,
    sha256: String,
}

/// Prints the ids of every file, in the order given; the first file without one (unreadable,
/// or not a CNF that GBD can hash) stops the command with exit code 1.
pub fn hash(files: &[PathBuf], format: pq_report::Format) -> Result<u8> {
    let mut all = Vec::with_capacity(files.len());
    for path in files {
        let shown = path.display();
        let regular = std::fs::metadata(path).is_ok_and(|m| m.is_file());
        let (gbd, sha256) = if regular {
            let text = compress::open(path).with_context(|| format!("cannot read {shown}"))?;
            let gbd = gbd_hash(text).with_context(|| format!("{shown}: no GBD hash"))?;
            let sha = sha256_file(path).with_context(|| format!("cannot read {shown}"))?;
            (gbd, sha)
        } else {
            // A pipe (`/dev/stdin`, `<(...)`) can be read only once: both ids come from
            // the same bytes.
            let mut bytes = Vec::new();
            std::fs::File::open(path)
                .and_then(|mut f| std::io::Read::read_to_end(&mut f, &mut bytes))
                .with_context(|| format!("cannot read {shown}"))?;
            let text = compress::decompressed(&bytes[..])
                .with_context(|| format!("cannot read {shown}"))?;
            let gbd = gbd_hash(text).with_context(|| format!("{shown}: no GBD hash"))?;
            (gbd, sha256_hex(&bytes))
        };
        all.push(Ids {
            file: shown.to_string(),
            gbd,
            sha256,
        });
    }
    emit(format, &all, || {
        all.iter()
            .map(|i| format!("{}  {}  {}\n", i.gbd, i.sha256, i.file))
            .collect()
    })?;
    Ok(0)
}
