//! [`BackendSpec`]: which backend the user named, looked up on this machine by
//! [`BackendSpec::resolve`].

use std::fmt;
use std::str::FromStr;

use crate::backend::{placed, Backend, Cadical, CadicalTuned, Tuning, Varisat};
use crate::error::SolveError;
use crate::external::ExternalSolver;

/// Which backend the user asked for, before it is looked up on this machine.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum BackendSpec {
    /// varisat 0.2, in-process (pure Rust).
    Varisat,
    /// CaDiCaL 2.2 through rustsat-cadical, in-process: the default (see BENCHMARKS.md).
    #[default]
    Cadical,
    /// The `kissat` executable.
    Kissat,
    /// The `minisat` executable.
    Minisat,
    /// The `cadical` executable.
    CadicalBin,
    /// The in-process CaDiCaL with one of its pre-set option configurations
    /// (`cadical-sat`, `cadical-unsat`: CaDiCaL's `--sat` and `--unsat`).
    CadicalTuned(Tuning),
    /// The native line engine ([`crate::lines`]), for pq-sat's colouring formulas of the
    /// peaceable queens and their cubes.
    Lines,
    /// Any command that follows the SAT competition output conventions.
    Command(String),
}

impl BackendSpec {
    /// The backends `--backend` names, in the order its error message lists them.
    const NAMED: [BackendSpec; 8] = [
        BackendSpec::Cadical,
        BackendSpec::CadicalTuned(Tuning::Sat),
        BackendSpec::CadicalTuned(Tuning::Unsat),
        BackendSpec::Varisat,
        BackendSpec::Kissat,
        BackendSpec::Minisat,
        BackendSpec::CadicalBin,
        BackendSpec::Lines,
    ];

    /// Looks the backend up (external programs on the PATH).
    pub fn resolve(&self) -> Result<Box<dyn Backend>, SolveError> {
        Ok(match self {
            BackendSpec::Varisat => Box::new(Varisat),
            BackendSpec::Cadical => Box::new(Cadical),
            BackendSpec::CadicalTuned(tuning) => Box::new(CadicalTuned(*tuning)),
            BackendSpec::Kissat => Box::new(ExternalSolver::kissat()?),
            BackendSpec::Minisat => Box::new(ExternalSolver::minisat()?),
            BackendSpec::CadicalBin => Box::new(ExternalSolver::cadical()?),
            BackendSpec::Lines => Box::new(crate::lines::Lines::new(1)),
            // Without a proof wanted, a proof the command writes goes nowhere.
            BackendSpec::Command(cmd) => Box::new(placed(
                ExternalSolver::from_command(cmd)?,
                std::path::Path::new("/dev/null"),
            )),
        })
    }
}

/// Reads a backend's name, or a command in its `Display` form `command 'CMD'` (as results
/// record their prover), so that `parse` inverts `to_string`.
impl FromStr for BackendSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        if let Some(cmd) = s
            .strip_prefix("command '")
            .and_then(|c| c.strip_suffix('\''))
        {
            return Ok(BackendSpec::Command(cmd.to_string()));
        }
        let names = BackendSpec::NAMED.map(|b| b.to_string());
        match names.iter().position(|name| name == s) {
            Some(i) => Ok(BackendSpec::NAMED[i].clone()),
            None => Err(format!(
                "unknown backend '{s}' (expected one of: {}; or use --solver-cmd 'CMD ARGS')",
                names.join(", ")
            )),
        }
    }
}

impl fmt::Display for BackendSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BackendSpec::Varisat => f.write_str("varisat"),
            BackendSpec::Cadical => f.write_str("cadical"),
            BackendSpec::CadicalTuned(tuning) => write!(f, "cadical-{}", tuning.name()),
            BackendSpec::Kissat => f.write_str("kissat"),
            BackendSpec::Minisat => f.write_str("minisat"),
            BackendSpec::CadicalBin => f.write_str("cadical-bin"),
            BackendSpec::Lines => f.write_str("lines"),
            BackendSpec::Command(cmd) => write!(f, "command '{cmd}'"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_inverts_display_for_every_backend_and_a_command() {
        let mut specs = BackendSpec::NAMED.to_vec();
        specs.push(BackendSpec::Command(
            "my-solver --proof {proof} 'x y'".into(),
        ));
        for spec in specs {
            assert_eq!(
                spec.to_string().parse::<BackendSpec>(),
                Ok(spec.clone()),
                "{spec}"
            );
        }
        assert!("command 'unterminated".parse::<BackendSpec>().is_err());
    }
}
