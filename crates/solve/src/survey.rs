//! Which backends this machine has, with versions and how to install the missing ones.

use std::path::{Path, PathBuf};
use std::process::Command;

use rustsat::solvers::Solve;

/// One backend as found on this machine (an entry of `pq-sat solvers --format json`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct SolverInfo {
    /// The `--backend` name.
    pub name: &'static str,
    /// `in-process` or `external`.
    pub kind: &'static str,
    /// Whether it can be used now: always for in-process ones, if found for external ones.
    pub available: bool,
    /// The executable, for external solvers that were found.
    pub path: Option<PathBuf>,
    /// The version, if known (Debian's package version when it has one).
    pub version: Option<String>,
    /// How to get it when it is missing.
    pub install: &'static str,
}

/// Looks every backend up. External programs are run once with `--version` (or asked of
/// Debian's package database, whose version is more telling for minisat and cadical).
pub fn survey() -> Vec<SolverInfo> {
    let cadical_signature = rustsat_cadical::CaDiCaL::default().signature().to_string();
    let mut out = vec![
        SolverInfo {
            name: "cadical",
            kind: "in-process",
            available: true,
            path: None,
            version: Some(cadical_signature.trim_start_matches("cadical-").to_string()),
            install: "built into pq-sat (rustsat-cadical)",
        },
        SolverInfo {
            name: "varisat",
            kind: "in-process",
            available: true,
            path: None,
            version: Some("0.2.2".to_string()),
            install: "built into pq-sat",
        },
    ];
    for (name, program, package, install) in [
        (
            "kissat",
            "kissat",
            None,
            "scripts/setup.sh (PyPI passagemath-kissat)",
        ),
        (
            "minisat",
            "minisat",
            Some("minisat"),
            "scripts/setup.sh (Debian package minisat)",
        ),
        (
            "cadical-bin",
            "cadical",
            Some("cadical"),
            "scripts/setup.sh (Debian package cadical)",
        ),
    ] {
        let path = which::which(program).ok();
        let version = path.as_ref().and_then(|p| {
            package
                .and_then(debian_version)
                .map(|v| format!("{v} (Debian)"))
                .or_else(|| program_version(p, "--version"))
        });
        out.push(SolverInfo {
            name,
            kind: "external",
            available: path.is_some(),
            path,
            version,
            install,
        });
    }
    out
}

/// The first line `program FLAG` prints (e.g. `rate 0.3.0` for `rate --version`), if it
/// runs and succeeds.
pub fn program_version(program: &Path, flag: &str) -> Option<String> {
    let output = Command::new(program).arg(flag).output().ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    let line = text.lines().next()?.trim();
    (output.status.success() && !line.is_empty()).then(|| line.to_string())
}

/// An installed Debian package's version, e.g. `1.5.3-1`.
pub fn debian_version(package: &str) -> Option<String> {
    let output = Command::new("dpkg-query")
        .args(["-W", "-f", "${Version}", package])
        .output()
        .ok()?;
    let version = String::from_utf8_lossy(&output.stdout).trim().to_string();
    (output.status.success() && !version.is_empty()).then_some(version)
}
