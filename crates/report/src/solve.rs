//! The reports of `solve`: the answer at one size ([`Solved`], also for `solve --cnf`) and
//! an optimum ([`Optimum`]), for the queens and for every other problem alike.

use pq_encode::spec::{Preset, Problem};
use pq_encode::Options;
use pq_engine::capability::climb::{Method, OptimiseOutcome, Step, Strategy};
use pq_engine::capability::{Outcome, ProofFiles, Status};
use serde::{Deserialize, Serialize};

use super::{board_text, rows, CertificateSummary, Subject};

/// The placement a report shows, as rows of symbols: `board` for the peaceable queens (as
/// pq-sat has always reported them), `placement` for every other problem (whose `board`
/// is its shape).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Witness {
    /// A queens board (`W`, `B`, `.`).
    Board {
        /// One string per row.
        board: Vec<String>,
    },
    /// A placement in the problem's own symbols.
    Placement {
        /// One string per row.
        placement: Vec<String>,
    },
}

impl Witness {
    /// `p` as the report of a `problem` shows it.
    pub fn of(problem: &Problem, p: &pq_board::placement::Placement) -> Witness {
        let rows = rows(&problem.rules, p);
        match problem.preset() {
            Preset::Queens { .. } => Witness::Board { board: rows },
            Preset::General => Witness::Placement { placement: rows },
        }
    }
}

/// The work of the line engine's exhaustive search (`--engine lines`), in place of a
/// formula's size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Search {
    /// Search nodes (labelling steps visited).
    pub nodes: u64,
    /// (white rows, white columns) pairs searched, one per symmetry orbit.
    pub pairs: u64,
    /// Units of the step (row sets, row colourings) searched by earlier runs, by the
    /// journal (`--journal`); the counts above are this run's.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub resumed: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Search {
    /// The report of the engine's counts.
    pub fn of(stats: &pq_lines::Stats) -> Search {
        Search {
            nodes: stats.nodes,
            pairs: stats.pairs,
            resumed: stats.resumed,
        }
    }

    /// `11980249 nodes, 2994131 (S, T) pairs`.
    fn text(&self) -> String {
        let mut out = format!("{} nodes, {} (S, T) pairs", self.nodes, self.pairs);
        if self.resumed > 0 {
            out += &format!(
                " (this run; {} units searched by earlier runs, by the journal)",
                self.resumed
            );
        }
        out
    }
}

/// The encoding a formula was built with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Encoding {
    /// `colouring`, `lines` or `pairwise`.
    pub model: String,
    /// The cardinality encoding.
    pub card: String,
    /// The symmetry breaking.
    pub symmetry: String,
    /// The redundant bound clauses (`--bounds`), when any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounds: Option<String>,
}

impl Encoding {
    /// The names of `options`.
    pub fn of(options: &Options) -> Encoding {
        Encoding {
            model: options.model.name().into(),
            card: options.card.name().into(),
            symmetry: options.symmetry.name().into(),
            bounds: (options.bounds != pq_encode::Bounds::None)
                .then(|| options.bounds.name().to_string()),
        }
    }
}

/// Where a proof requested with `--proof` went, and what it certifies.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProofReport {
    /// The proof file; `null` when none was written (only UNSAT has a proof).
    pub file: Option<String>,
    /// The CNF file the proof refers to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cnf: Option<String>,
    /// `drat` or `lrat`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// The proof's size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    /// What exactly the proof certifies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certifies: Option<String>,
    /// Why there is no proof.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl ProofReport {
    /// The proof written to `files`, of `bytes` bytes; with `bytes` `None`, the report that
    /// none was written. `certifies` says what a clausal proof certifies (a search
    /// certificate states its claim in its header).
    pub fn written(
        files: &ProofFiles,
        bytes: Option<u64>,
        certifies: impl FnOnce() -> String,
    ) -> ProofReport {
        let Some(bytes) = bytes else {
            return ProofReport {
                note: Some("no proof written: only an UNSAT answer has a proof".into()),
                ..ProofReport::default()
            };
        };
        let certifies = match files {
            ProofFiles::Clausal { .. } => certifies(),
            ProofFiles::Search { .. } => "the claim in its header: no placement of the two armies on the board, by the lemmas of docs/search-certificate.md; pq-check verifies every pair, branch and leaf from the certificate alone".into(),
        };
        ProofReport {
            file: Some(files.proof().display().to_string()),
            cnf: files.cnf().map(|c| c.display().to_string()),
            format: Some(files.format().name().into()),
            bytes: Some(bytes),
            certifies: Some(certifies),
            note: None,
        }
    }

    /// The lines under a text answer.
    pub fn text(&self) -> String {
        if let (Some(file), None, Some(bytes)) = (&self.file, &self.cnf, self.bytes) {
            let check = if file == "-" {
                "pipe it into `pq-check -`".to_string()
            } else {
                format!("check it with `pq-check {file}`")
            };
            let shown = if file == "-" { "standard output" } else { file };
            return format!(
                "search certificate: {shown} ({bytes} bytes); {check}\ncertifies: {}\n",
                self.certifies.as_deref().unwrap_or("")
            );
        }
        match (&self.file, &self.cnf, &self.format, self.bytes) {
            (Some(file), Some(cnf), Some(format), Some(bytes)) => format!(
                "proof: {file} ({}, {bytes} bytes) of {cnf}; check it with `pq-sat check-proof {cnf} {file}`\ncertifies: {}\n",
                format.to_uppercase(),
                self.certifies.as_deref().map_or(String::new(), short_claim)
            ),
            _ => format!("{}\n", self.note.as_deref().unwrap_or("no proof written")),
        }
    }
}

/// The answer for one formula: a problem at one size, or a DIMACS file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Solved {
    /// The problem, when pq-sat built the formula or its header names one.
    #[serde(flatten)]
    pub subject: Option<Subject>,
    /// The size of the maximised groups (each army, for the queens).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<usize>,
    /// `sat`, `unsat` or `unknown`.
    pub status: String,
    /// The validated placement, for SAT.
    #[serde(flatten)]
    pub witness: Option<Witness>,
    /// The backend asked (a portfolio's name, or the solver's).
    pub backend: String,
    /// The solver that answered.
    pub solver: String,
    /// The encoding, when pq-sat built the formula or its header says.
    #[serde(flatten)]
    pub encoding: Option<Encoding>,
    /// The formula's variables.
    pub variables: u32,
    /// The formula's clauses.
    pub clauses: usize,
    /// Wall-clock seconds in the solver.
    pub seconds: f64,
    /// Why the answer is unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The proof requested with `--proof`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<ProofReport>,
    /// The line engine's counts, when it answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search: Option<Search>,
    /// For UNSAT: true when the independent checker verified a proof of it
    /// (`--check-unsat`), false when the solver's word is all there is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verified: Option<bool>,
    /// How the answer is known ([`known`]): set by [`Solved::mark_known`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub known: Option<String>,
}

/// The text answer's one line on what a proof certifies; the JSON's `certifies` has it in
/// full, and docs/certificates.md why.
fn short_claim(certifies: &str) -> String {
    let mut text = if certifies.starts_with("the plain encoding") {
        "the plain encoding in the CNF file".to_string()
    } else {
        "the formula in the CNF file".to_string()
    };
    let mut rests_on = Vec::new();
    if certifies.contains("lex-leader") {
        rests_on.push("the lex-leader theorem");
    }
    if certifies.contains("family-sum") {
        rests_on.push("the family-sum counting argument");
    }
    if !rests_on.is_empty() {
        text += &format!(
            "; the plain problem follows by {}, which the checker does not check (docs/certificates.md)",
            rests_on.join(" and ")
        );
    }
    if certifies.contains("use --engine sat --symmetry none") {
        text += "; for a proof of the plain encoding use --engine sat --symmetry none";
    }
    text
}

/// How an answer is known, said the same way in every report (the JSON field `known`, and
/// the text answer's first line): for SAT the check its witness passed, for UNSAT a proof
/// an independent checker verified (`checker`), the line engine's exhaustive search, or a
/// solver's unchecked word; `None` for unknown.
pub fn known(
    status: Status,
    verified: Option<bool>,
    exhaustive: bool,
    board: bool,
    checker: Option<&str>,
) -> Option<String> {
    Some(match status {
        Status::Sat if board => "board checked by the independent validator".into(),
        Status::Sat => "model checked against every clause".into(),
        Status::Unsat if verified == Some(true) => {
            format!(
                "proof checked by {}",
                checker.unwrap_or("the proof checker")
            )
        }
        Status::Unsat if exhaustive => "exhaustive search by the line engine".into(),
        Status::Unsat => "the solver's unchecked word (--check-unsat checks it)".into(),
        Status::Unknown => return None,
    })
}

/// What a text answer's first line talks about.
pub enum Headline<'a> {
    /// A problem at size `n` (the queens keep their own sentence).
    Problem(&'a Problem, usize),
    /// A DIMACS formula solved as it is, and the problem its header names, if any.
    Formula(Option<&'a Problem>),
}

impl Solved {
    /// The report of `outcome`; `problem` is what the formula encodes, if known.
    pub fn new(
        problem: Option<(&Problem, usize)>,
        options: Option<&Options>,
        backend: String,
        outcome: &Outcome,
        proof: Option<ProofReport>,
    ) -> Solved {
        Solved {
            subject: problem.map(|(p, n)| Subject::of(p, Some(n))),
            n: problem
                .filter(|(p, _)| !p.maximised().is_empty())
                .map(|(_, n)| n),
            status: outcome.status.name().into(),
            witness: problem
                .zip(outcome.placement.as_ref())
                .map(|((problem, _), p)| Witness::of(problem, p)),
            backend,
            solver: outcome.solver.clone(),
            // The options the formula was really encoded with (another problem than the
            // queens takes the line model for the colouring one).
            encoding: options.map(|o| match problem {
                Some((p, _)) => Encoding::of(&o.for_problem(p)),
                None => Encoding::of(o),
            }),
            variables: outcome.variables,
            clauses: outcome.clauses,
            seconds: outcome.seconds,
            reason: outcome.reason.clone(),
            proof,
            search: None,
            verified: outcome.verified,
            known: None,
        }
    }

    /// Says how the answer is known ([`known`]); `checker` checked the proof of a verified
    /// UNSAT. Call once the line engine's counts, if any, are in.
    pub fn mark_known(&mut self, checker: Option<&str>) {
        let status = match self.status.as_str() {
            "sat" => Status::Sat,
            "unsat" => Status::Unsat,
            _ => Status::Unknown,
        };
        let board = self.witness.is_some();
        self.known = known(status, self.verified, self.search.is_some(), board, checker);
    }

    /// The text answer: a headline, the labelled board (with a legend for problems other
    /// than the queens) and the proof's lines.
    pub fn text(&self, headline: Headline, outcome: &Outcome) -> String {
        let how = format!("{}, {:.2} s", outcome.solver, outcome.seconds);
        // How an UNSAT is known, before what it rests on.
        let unsat_known = self
            .known
            .as_deref()
            .unwrap_or("the solver's unchecked word");
        let unknown = outcome.reason.as_deref().unwrap_or("no answer");
        let mut text = match headline {
            Headline::Problem(problem, n) => {
                let fits = match outcome.status {
                    Status::Sat => Some(true),
                    Status::Unsat => Some(false),
                    Status::Unknown => None,
                };
                let claim = problem.preset().claim(problem, n, fits);
                // An UNSAT names how it is known and what that rests on: the search's
                // counts, or the formula's encoding.
                let rests_on = match (&self.search, &self.encoding) {
                    (Some(search), _) => format!(": {}", search.text()),
                    (None, Some(e)) => format!(
                        ": formula: {}, {}, {}{}",
                        e.model,
                        e.card,
                        e.symmetry,
                        e.bounds
                            .as_ref()
                            .map_or(String::new(), |b| format!(", bounds {b}"))
                    ),
                    (None, None) => String::new(),
                };
                match outcome.status {
                    Status::Sat => format!("SAT: {claim} ({how})\n"),
                    Status::Unsat => format!("UNSAT: {claim} ({how}; {unsat_known}{rests_on})\n"),
                    Status::Unknown => format!("UNKNOWN: {claim} ({how}: {unknown})\n"),
                }
            }
            Headline::Formula(_) => {
                let size = format!("{} variables, {} clauses", self.variables, self.clauses);
                match outcome.status {
                    Status::Sat => format!("SAT ({size}; {how})\n"),
                    Status::Unsat => format!("UNSAT ({size}; {how}; {unsat_known})\n"),
                    Status::Unknown => format!("UNKNOWN ({size}; {how}: {unknown})\n"),
                }
            }
        };
        let problem = match headline {
            Headline::Problem(p, _) | Headline::Formula(Some(p)) => Some(p),
            Headline::Formula(None) => None,
        };
        if let (Some(p), Some(placement)) = (problem, &outcome.placement) {
            text.push_str(&board_text(p, placement));
        }
        if let Some(proof) = &self.proof {
            text.push_str(&proof.text());
        }
        text
    }
}

/// The SAT competition's output for `outcome`: `report` (the text answer) as `c` lines,
/// the `s` line and, for SAT, the model in `v` lines ending with `0`, every variable the
/// formula declares given a value.
pub fn competition(report: &str, outcome: &Outcome) -> String {
    let mut out = String::new();
    for line in report.lines() {
        out.push_str(if line.is_empty() { "c" } else { "c " });
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(match outcome.status {
        Status::Sat => "s SATISFIABLE\n",
        Status::Unsat => "s UNSATISFIABLE\n",
        Status::Unknown => "s UNKNOWN\n",
    });
    if let (Status::Sat, Some(model)) = (outcome.status, &outcome.model) {
        // Lines of at most about 78 characters, as solvers print them.
        let mut line = String::from("v");
        for v in 1..=model.len() {
            let lit = if model.value(v) {
                format!(" {v}")
            } else {
                format!(" -{v}")
            };
            if line.len() + lit.len() > 78 {
                out.push_str(&line);
                out.push('\n');
                line = String::from("v");
            }
            line.push_str(&lit);
        }
        out.push_str(&line);
        out.push_str(" 0\n");
    }
    out
}

/// The MaxSAT Evaluation's output for an optimisation: `report` (the text answer) as `c`
/// lines, an `o` line with the cost of the best solution, the `s` line (`OPTIMUM FOUND`
/// when it is proven, `SATISFIABLE` when not, `UNSATISFIABLE`, `UNKNOWN`) and the model as
/// one `v` line of 0s and 1s, variable 1 first (the evaluations' format since 2020).
pub fn maxsat_competition(
    report: &str,
    status: &str,
    best: Option<(i64, &pq_solve::answer::Assignment)>,
) -> String {
    let mut out = String::new();
    for line in report.lines() {
        out.push_str(if line.is_empty() { "c" } else { "c " });
        out.push_str(line);
        out.push('\n');
    }
    if let Some((cost, _)) = best {
        out.push_str(&format!("o {cost}\n"));
    }
    out.push_str(&format!("s {status}\n"));
    if let Some((_, model)) = best {
        out.push_str("v ");
        out.extend((1..=model.len()).map(|v| if model.value(v) { '1' } else { '0' }));
        out.push('\n');
    }
    out
}

/// The optimum of a problem's maximised groups: a(d) for the queens.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
// `optimum` is the JSON report's field name.
#[allow(clippy::struct_field_names)]
pub struct Optimum {
    /// The problem.
    #[serde(flatten)]
    pub subject: Subject,
    /// The maximised groups' names.
    pub maximised: Vec<String>,
    /// The optimum, when proven (a witness at it, UNSAT one above).
    pub optimum: Option<usize>,
    /// `sat` (proven), `unsat` (even size 0 is impossible) or `unknown` (stopped).
    pub status: String,
    /// The largest size with a validated witness.
    pub lower_bound: Option<usize>,
    /// That witness.
    #[serde(flatten)]
    pub witness: Option<Witness>,
    /// The backend that solved the steps.
    pub backend: String,
    /// `up`, `incremental` or `bisect`.
    pub strategy: String,
    /// The encoding of every step (none for the line engine).
    #[serde(flatten)]
    pub encoding: Option<Encoding>,
    /// The line engine's counts over every step, when it answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search: Option<Search>,
    /// Wall-clock seconds of the whole run.
    pub seconds: f64,
    /// Every step, in order.
    pub steps: Vec<Step>,
    /// Why the run stopped without proof.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The certificate bundle written with `--certify`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certificate: Option<CertificateSummary>,
    /// How the UNSAT above the optimum is known ([`known`]): set by
    /// [`Optimum::mark_known`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub known: Option<String>,
}

impl Optimum {
    /// The report of an optimisation of `problem`.
    pub fn new(
        problem: &Problem,
        options: Option<&Options>,
        strategy: Strategy,
        backend: String,
        outcome: &OptimiseOutcome,
        certificate: Option<CertificateSummary>,
    ) -> Optimum {
        let status = if outcome.infeasible {
            Status::Unsat
        } else if outcome.optimum.is_some() {
            Status::Sat
        } else {
            Status::Unknown
        };
        Optimum {
            subject: Subject::of(problem, None),
            maximised: problem
                .maximised()
                .iter()
                .map(|&g| problem.rules.groups[g].name.clone())
                .collect(),
            optimum: outcome.optimum,
            status: status.name().into(),
            lower_bound: outcome.best.as_ref().map(|b| b.0),
            witness: outcome.best.as_ref().map(|(_, p)| Witness::of(problem, p)),
            backend,
            strategy: strategy.name().into(),
            encoding: options.map(|o| Encoding::of(&o.for_problem(problem))),
            search: None,
            seconds: outcome.seconds,
            steps: outcome.steps.clone(),
            reason: outcome.reason.clone(),
            certificate,
            known: None,
        }
    }

    /// The solver step whose UNSAT the claim rests on: the size above the optimum, or size
    /// 0 when even that is impossible.
    fn deciding_unsat(&self) -> Option<&Step> {
        let n = match (self.optimum, self.status.as_str()) {
            (Some(opt), _) => opt + 1,
            (None, "unsat") => 0,
            _ => return None,
        };
        self.steps
            .iter()
            .rev()
            .find(|s| s.n == n && s.status == Status::Unsat && s.method == Method::Solver)
    }

    /// Says how the UNSAT the claim rests on is known ([`known`]); `checker` checked its
    /// proof if it was verified. Call once the line engine's counts, if any, are in.
    pub fn mark_known(&mut self, checker: Option<&str>) {
        let verified = self.deciding_unsat().and_then(|s| s.verified);
        let decided = self.deciding_unsat().is_some();
        self.known = decided
            .then(|| {
                known(
                    Status::Unsat,
                    verified,
                    self.search.is_some(),
                    false,
                    checker,
                )
            })
            .flatten();
    }

    /// The text report: the optimum (or what is known), the witness, the certificate.
    pub fn text(&self, problem: &Problem, outcome: &OptimiseOutcome) -> String {
        let by = match &self.known {
            Some(known) => format!(
                "{}, {:.2} s; UNSAT above: {known}",
                self.backend, self.seconds
            ),
            None => format!("{}, {:.2} s", self.backend, self.seconds),
        };
        let stopped = self.reason.as_deref().unwrap_or("stopped");
        let mut text = match problem.preset() {
            Preset::Queens { dim: d } => match (self.optimum, self.lower_bound) {
                (Some(opt), _) => format!(
                    "a({d}) = {opt}: {opt} white and {opt} black queens fit on a {d}x{d} board, {} do not ({by})\n",
                    opt + 1
                ),
                (None, best) => format!(
                    "a({d}) >= {}, not proven optimal: {stopped} ({by})\n",
                    best.unwrap_or(0)
                ),
            },
            Preset::General => {
                let (who, what) = (self.maximised.join(" = "), problem.summary());
                match (self.optimum, self.lower_bound) {
                _ if outcome.infeasible => {
                    format!("UNSAT: {what} cannot be met even with no {who} ({by})\n")
                }
                (Some(opt), _) => format!(
                    "most {who}: {opt} ({what}: {opt} fit, {} do not; {by})\n",
                    opt + 1
                ),
                (None, Some(b)) => format!("{who} >= {b}, not proven optimal: {stopped} ({by})\n"),
                (None, None) => format!("UNKNOWN: {stopped} ({by})\n"),
                }
            }
        };
        if let Some((_, p)) = &outcome.best {
            text.push_str(&board_text(problem, p));
        }
        if let (Some(c), Some(opt)) = (&self.certificate, self.optimum) {
            text.push_str(&c.text(opt + 1));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::round_trip;
    use super::*;
    use pq_board::placement::Placement;

    fn outcome(placement: Option<Placement>) -> Outcome {
        Outcome {
            status: if placement.is_some() {
                Status::Sat
            } else {
                Status::Unsat
            },
            raw: placement.clone(),
            placement,
            witness_n: None,
            seconds: 0.5,
            solver: "kissat".into(),
            reason: None,
            variables: 10,
            clauses: 20,
            model: None,
            verified: None,
        }
    }

    #[test]
    fn answers_round_trip_for_queens_problems_and_formulas() {
        let queens = Problem::peaceable_queens(3);
        let mut board = Placement::empty(&queens.rules.layout);
        board.set(0, 0, Some(0));
        board.set(2, 1, Some(1));
        let three = super::super::tests::three_armies();
        let mut p = Placement::empty(&three.rules.layout);
        p.set(0, 0, Some(2));
        let files = ProofFiles::Clausal {
            format: pq_engine::proof::ProofFormat::Drat,
            proof: "p.drat".into(),
            cnf: "p.cnf".into(),
        };
        let proof = ProofReport::written(&files, Some(9), || "the plain encoding".into());
        let reports = [
            Solved::new(
                Some((&queens, 1)),
                Some(&Options::default()),
                "kissat".into(),
                &outcome(Some(board)),
                None,
            ),
            Solved::new(
                Some((&three, 1)),
                Some(&Options::default()),
                "cadical".into(),
                &outcome(Some(p)),
                Some(proof),
            ),
            Solved::new(None, None, "minisat".into(), &outcome(None), None),
        ];
        for report in &reports {
            round_trip(report);
        }
        let json = serde_json::to_value(&reports[0]).unwrap();
        assert_eq!(json["dim"], 3);
        assert_eq!(json["board"][0], "W..");
        assert_eq!(json["model"], "colouring");
        let json = serde_json::to_value(&reports[1]).unwrap();
        assert_eq!(json["board"]["rows"], 5);
        assert!(json["placement"][0].as_str().unwrap().len() == 5);
        assert_eq!(json["proof"]["bytes"], 9);
        let none = ProofReport::written(&files, None, String::new);
        assert_eq!(
            serde_json::to_value(&none).unwrap()["file"],
            serde_json::Value::Null
        );
        round_trip(&none);
    }

    #[test]
    fn optima_round_trip() {
        let queens = Problem::peaceable_queens(3);
        let mut board = Placement::empty(&queens.rules.layout);
        board.set(0, 0, Some(0));
        board.set(2, 1, Some(1));
        let outcome = OptimiseOutcome {
            optimum: Some(1),
            best: Some((1, board)),
            infeasible: false,
            steps: vec![pq_engine::capability::climb::Step {
                n: 2,
                status: Status::Unsat,
                method: pq_engine::capability::climb::Method::Solver,
                seconds: 0.1,
                witness_n: None,
                solver: Some("kissat".into()),
                verified: Some(false),
            }],
            reason: None,
            seconds: 0.2,
        };
        let report = Optimum::new(
            &queens,
            Some(&Options::default()),
            Strategy::Up,
            "kissat".into(),
            &outcome,
            None,
        );
        round_trip(&report);
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["optimum"], 1);
        assert_eq!(json["steps"][0]["method"], "solver");
        assert!(report.text(&queens, &outcome).starts_with("a(3) = 1:"));
    }
}
