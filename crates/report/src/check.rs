//! The reports of `check-proof`, `check-certificate` and `solvers`.

use std::path::Path;

use pq_engine::proof::certificate::{Checked, Item};
use pq_engine::proof::{CheckReport, ProofFormat};
use pq_solve::survey::SolverInfo;
use serde::{Deserialize, Serialize};

/// `check-proof`'s verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProofCheck {
    /// The CNF file.
    pub cnf: String,
    /// The proof file.
    pub proof: String,
    /// `drat` or `lrat`.
    pub proof_format: String,
    /// The checker accepted the proof and pq-sat has nothing against it.
    pub verified: bool,
    /// `verified` or `not verified`.
    pub result: String,
    /// The checker.
    pub checker: String,
    /// Its version, if known.
    pub checker_version: Option<String>,
    /// The checker's verdict line.
    pub verdict: String,
    /// pq-sat's reason to refuse a proof the checker accepted.
    pub note: Option<String>,
    /// Wall-clock seconds of the check.
    pub seconds: f64,
}

impl ProofCheck {
    /// The report of checking `proof` against `cnf`.
    pub fn new(cnf: &Path, proof: &Path, format: ProofFormat, r: &CheckReport) -> ProofCheck {
        ProofCheck {
            cnf: cnf.display().to_string(),
            proof: proof.display().to_string(),
            proof_format: format.name().into(),
            verified: r.verified,
            result: if r.verified {
                "verified"
            } else {
                "not verified"
            }
            .into(),
            checker: r.checker.clone(),
            checker_version: r.checker_version.clone(),
            verdict: r.verdict.clone(),
            note: r.note.clone(),
            seconds: r.seconds,
        }
    }

    /// One line.
    pub fn text(&self) -> String {
        let version = self
            .checker_version
            .as_deref()
            .map(|v| format!(" ({v})"))
            .unwrap_or_default();
        let note = self
            .note
            .as_deref()
            .map(|n| format!("; {n}"))
            .unwrap_or_default();
        format!(
            "{}: {} proof {} of {}; {}{version} says: {} ({:.2} s){note}\n",
            self.result,
            self.proof_format.to_uppercase(),
            self.proof,
            self.cnf,
            self.checker,
            self.verdict,
            self.seconds
        )
    }
}

/// `check-certificate`'s verdict. Everything in it was derived from the bundle's files;
/// the manifest's own text shows only in the details of failed checks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CertificateCheck {
    /// The bundle's directory.
    pub dir: String,
    /// The claim, as re-derived from the bundle's problem and optimum (empty when those
    /// cannot be read).
    pub claim: String,
    /// Every check passed.
    pub valid: bool,
    /// The claim in words, as re-derived (empty unless every part could be derived).
    #[serde(default)]
    pub statement: String,
    /// What the proof certifies, as re-derived (empty unless every part could be derived).
    pub certified_formula: String,
    /// Every check, in order.
    pub checks: Vec<Item>,
}

impl CertificateCheck {
    /// The report of re-checking the bundle in `dir`.
    pub fn new(dir: &Path, c: &Checked) -> CertificateCheck {
        let derived = |f: fn(&pq_engine::proof::certificate::Certificate) -> &String| {
            c.derived.as_ref().map(f).cloned().unwrap_or_default()
        };
        CertificateCheck {
            dir: dir.display().to_string(),
            claim: c.claim.clone().unwrap_or_default(),
            valid: c.valid(),
            statement: derived(|d| &d.statement),
            certified_formula: derived(|d| &d.unsat.certified_formula),
            checks: c.items.clone(),
        }
    }

    /// One line per check, then the verdict.
    pub fn text(&self) -> String {
        let mut text = String::new();
        for i in &self.checks {
            let mark = if i.ok { "ok  " } else { "FAIL" };
            text.push_str(&format!("{mark}  {}: {}\n", i.what, i.detail));
        }
        let failed = self.checks.iter().filter(|i| !i.ok).count();
        text.push_str(&if self.valid {
            format!(
                "valid: {} ({})\ncertifies: {}\n",
                self.claim, self.statement, self.certified_formula
            )
        } else {
            format!(
                "INVALID: the bundle in {} does not establish its claim ({failed} failed check{}); make it again with --certify\n",
                self.dir,
                if failed == 1 { "" } else { "s" }
            )
        });
        text
    }
}

/// The text table of `solvers`.
pub fn solver_table(list: &[SolverInfo]) -> String {
    let mut text = format!(
        "{:<12} {:<11} {:<10} {:<22} {}\n",
        "backend", "kind", "status", "version", "where / how to install"
    );
    for s in list {
        let place = match (&s.path, s.available) {
            (Some(p), true) => p.display().to_string(),
            (None, true) => s.install.to_string(),
            _ => format!("missing: {}", s.install),
        };
        text.push_str(&format!(
            "{:<12} {:<11} {:<10} {:<22} {}\n",
            s.name,
            s.kind,
            if s.available { "available" } else { "missing" },
            s.version.as_deref().unwrap_or("-"),
            place
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::super::tests::round_trip;
    use super::*;

    #[test]
    fn check_reports_round_trip() {
        let check = ProofCheck::new(
            "a.cnf".as_ref(),
            "a.drat".as_ref(),
            ProofFormat::Drat,
            &CheckReport {
                verified: true,
                checker: "rate".into(),
                checker_version: None,
                verdict: "s VERIFIED".into(),
                seconds: 0.1,
                cpu_seconds: 0.1,
                note: None,
            },
        );
        round_trip(&check);
        assert!(check
            .text()
            .starts_with("verified: DRAT proof a.drat of a.cnf"));
        round_trip(&CertificateCheck {
            dir: "c5".into(),
            claim: "a(5) = 4".into(),
            valid: false,
            statement: String::new(),
            certified_formula: "the plain encoding".into(),
            checks: vec![Item {
                what: "sha256 witness.txt".into(),
                ok: false,
                detail: "changed".into(),
            }],
        });
        let solvers = serde_json::to_value(pq_solve::survey::survey()).unwrap();
        assert_eq!(solvers[0]["name"], "cadical");
        assert_eq!(solvers[0]["path"], serde_json::Value::Null);
    }
}
