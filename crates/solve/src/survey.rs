//! Which backends this machine has, with versions and how to install the missing ones.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::control::Limits;
use crate::external::process::{supervise, End, Pipe, STDOUT_CAP};

use rustsat::solvers::Solve;

/// One backend as found on this machine (an entry of `pq-sat solvers --format json`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct SolverInfo {
    /// The `--backend` name.
    pub name: &'static str,
    /// `in-process`, `external`, `native` (the line engine, `--engine lines`: no formula,
    /// no solver) or `optimiser` (rc2, clasp: a whole optimisation from a WCNF or OPB file).
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
            name: "cadical-sat",
            kind: "in-process",
            available: true,
            path: None,
            version: Some(cadical_signature.trim_start_matches("cadical-").to_string()),
            install: "built into pq-sat (CaDiCaL with its sat options)",
        },
        SolverInfo {
            name: "cadical-unsat",
            kind: "in-process",
            available: true,
            path: None,
            version: Some(cadical_signature.trim_start_matches("cadical-").to_string()),
            install: "built into pq-sat (CaDiCaL with its unsat options)",
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
    // The native line engine answers without a formula (`--engine lines`), beside the
    // solvers `--backend` names.
    out.push(SolverInfo {
        name: "lines",
        kind: "native",
        available: true,
        path: None,
        version: Some(env!("CARGO_PKG_VERSION").to_string()),
        install: "built into pq-sat (--engine lines: the line engine's own search)",
    });
    // The external optimisers (`--backend rc2|clasp`, pq-engine's optimisers module): they
    // solve a whole optimisation from pq-sat's WCNF or OPB, not one formula.
    let python = which::which("python3").ok();
    let mut pysat = Command::new(python.clone().unwrap_or_else(|| "python3".into()));
    pysat.args([
        "-c",
        "import pysat, pysat.examples.rc2; print(pysat.__version__)",
    ]);
    let pysat = python.as_ref().and_then(|_| probe(pysat));
    out.push(SolverInfo {
        name: "rc2",
        kind: "optimiser",
        available: pysat.is_some(),
        path: python.filter(|_| pysat.is_some()),
        version: pysat.map(|v| format!("python-sat {}", v.trim())),
        install: "scripts/setup.sh (PyPI python-sat)",
    });
    let clasp = which::which("clasp").ok();
    out.push(SolverInfo {
        name: "clasp",
        kind: "optimiser",
        available: clasp.is_some(),
        version: clasp
            .as_ref()
            .and(debian_version("clasp").map(|v| format!("{v} (Debian)"))),
        path: clasp,
        install: "scripts/setup.sh (Debian package clasp)",
    });
    out
}

/// The first line `program FLAG` prints (e.g. `rate 0.3.0` for `rate --version`), if it
/// runs and succeeds.
pub fn program_version(program: &Path, flag: &str) -> Option<String> {
    let mut cmd = Command::new(program);
    cmd.arg(flag);
    let text = probe(cmd)?;
    let line = text.lines().next()?.trim();
    (!line.is_empty()).then(|| line.to_string())
}

/// An installed Debian package's version, e.g. `1.5.3-1`.
pub fn debian_version(package: &str) -> Option<String> {
    let mut cmd = Command::new("dpkg-query");
    cmd.args(["-W", "-f", "${Version}", package]);
    let version = probe(cmd)?.trim().to_string();
    (!version.is_empty()).then_some(version)
}

/// What `cmd` prints on stdout (the first 64 KiB), if it exits with 0 within a few seconds.
/// It runs under the same supervision as the solvers, so that nothing it starts outlives it
/// and a hanging program costs only those seconds.
fn probe(cmd: Command) -> Option<String> {
    use std::io::Read;
    const KEEP: u64 = 64 * 1024;
    let name = cmd.get_program().to_string_lossy().into_owned();
    let limits = Limits::timeout(Some(Duration::from_secs(10)));
    let read = |pipe: Pipe| {
        let mut bytes = Vec::new();
        // The rest is drained, so the program never blocks on a full pipe.
        let mut pipe = pipe;
        let _ = pipe.by_ref().take(KEEP).read_to_end(&mut bytes);
        let _ = std::io::copy(&mut pipe, &mut std::io::sink());
        String::from_utf8_lossy(&bytes).into_owned()
    };
    let run = supervise(&name, cmd, None, &limits, STDOUT_CAP, read).ok()?;
    match run.end {
        End::Exited(status) if status.success() => run.stdout,
        _ => None,
    }
}
