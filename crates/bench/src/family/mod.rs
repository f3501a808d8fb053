//! Benchmark families: many DIMACS instances of one placement problem with a manifest (CSV
//! and JSON) and a README, in the manner of SAT-competition benchmark submissions. The
//! problem is the peaceable queens on a list of board sides ([`FamilyKind::Queens`],
//! `pq-sat family --dim`), or a problem file with some of its settings ranging over values
//! ([`FamilyKind::Problem`], `pq-sat family --problem FILE --set KEY=VALUES`, expanded by
//! [`settings::expand_settings`] into the cartesian product of problems).
//!
//! An instance's expected status is known only where it has been proven: by pq-sat itself
//! (`verify`: the written file solved and, if SAT, its model decoded and validated), or, for
//! the peaceable queens only, by the table of proven values [`A250000`] that pq-sat carries
//! with its source. Everything else is `unknown`.

use std::fs;
use std::path::Path;
use std::time::Duration;

use pq_encode::general::encode_problem;
use pq_encode::maxsat::{self, Export};
use pq_encode::spec::Problem;
use pq_encode::{dimacs, encode, Instance, Options};

use pq_engine::capability::Status;
use pq_engine::sat::pipeline::solve_formula;
use pq_io::compress::{self, Compression};
use pq_io::hashing::gbd_hash;
use pq_solve::backend::Backend;
use pq_solve::control::{check_interrupt, Limits};
use pq_solve::error::SolveError;

use pq_io::hashing::sha256_hex;
use pq_io::staging::{check_target, move_into_place, stage};
use pq_solve::known::{known_optimum, A250000, A250000_SOURCE};

pub mod manifest;
mod readme;
pub mod settings;

use manifest::{Entry, Manifest, MANIFEST_CSV, MANIFEST_JSON, MARKER};
use readme::readme;
use settings::{file_safe, Member, BOARD_KEYS};
/// Errors while writing or reading a family.
#[derive(Debug, thiserror::Error)]
pub enum FamilyError {
    /// The spec or the family on disk does not hold up: an optimum not in the table, an
    /// empty family, a bad `--set`, a `manifest.json` that is not valid JSON of the
    /// [`Manifest`] shape, a file changed since its manifest was written; or pq-sat's own answer on a file contradicts the table of proven
    /// values or the optimum pq-sat proved first (a bug somewhere). The message says which.
    #[error("{0}")]
    Invalid(String),
    /// Solving an instance for `verify` failed, or reading or writing a file of the family
    /// ([`SolveError::Io`]), or the target directory is not empty.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

impl From<pq_io::IoError> for FamilyError {
    fn from(e: pq_io::IoError) -> FamilyError {
        FamilyError::Solve(e.into())
    }
}

fn invalid<T>(message: impl Into<String>) -> Result<T, FamilyError> {
    Err(FamilyError::Invalid(message.into()))
}

/// Which sizes a family covers for each problem (army sizes for the queens; the size of
/// the maximised groups for a placement problem, the single size 0 when it has none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sizes {
    /// a(d)−k+1 ..= a(d)+k, at least 1: k satisfiable and k unsatisfiable sizes around the
    /// optimum (from the table for the queens; found by pq-sat first, with `verify`, for a
    /// placement problem).
    AroundOptimum(usize),
    /// Every n in this range.
    Range(usize, usize),
}

/// What a family is made of. Both are written the same way; the kind decides only what the
/// outputs look like (file names, manifest columns, README) and whether [`A250000`] applies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FamilyKind {
    /// The peaceable-queens preset ([`Problem::peaceable_queens`], `--dim`): files
    /// `queens-dDD-nNNN-…`, manifest column `dim`, statuses also from [`A250000`].
    Queens,
    /// A placement problem from a file (`--problem`), with its settings in the manifest.
    Problem {
        /// The file name without its extension, the start of every instance's name
        /// (characters other than letters, digits, `-` and `_` replaced by `-`).
        stem: String,
        /// The file as given on the command line.
        file: String,
    },
}

/// What to put in a family.
#[derive(Clone, Debug)]
pub struct Spec {
    /// The peaceable queens or a placement problem.
    pub family: FamilyKind,
    /// The problems, in file order (for the queens, one per board side).
    pub members: Vec<Member>,
    /// The sizes for each problem.
    pub sizes: Sizes,
    /// Every combination of encoding options to write. For a placement problem other than
    /// the peaceable queens, `colouring` is written as `lines` (the general encoder's line
    /// model; see `pq_encode::general`), and combinations that then coincide appear once.
    pub encodings: Vec<Options>,
    /// The command line, recorded in the manifest and README.
    pub command: String,
    /// How the instance files are compressed (`--compress`): each is written as
    /// `NAME.cnf.xz` (`.gz`, `.bz2`), or plain.
    pub compress: Compression,
    /// `Some`: each member's optimisation as one WCNF or OPB file (`NAME.wcnf`,
    /// `NAME.opb`; [`pq_encode::maxsat`]) instead of a DIMACS file per size.
    pub export: Option<Export>,
}

/// One planned instance.
#[derive(Clone, Copy, Debug)]
pub struct Planned {
    /// Index into [`Spec::members`].
    pub member: usize,
    /// The size of the maximised groups (queens of each colour).
    pub n: usize,
    /// The encoding it is written with (as the encoder really builds it).
    pub options: Options,
}

/// True when `n` pieces in each maximised group, with the fixed counts, fit on the board
/// at all (one square per piece); the queens' `2n ≤ d²`.
fn fits(problem: &Problem, n: usize) -> bool {
    let squares = problem.rules.layout.squares();
    pq_board::limits::total(problem.demands(n), squares).is_some()
}

impl Spec {
    /// A peaceable-queens family on these board sides (the `--dim` family).
    pub fn queens(dims: &[usize], sizes: Sizes, encodings: Vec<Options>, command: String) -> Spec {
        let members = dims.iter().map(|&d| Member {
            problem: Problem::peaceable_queens(d),
            settings: Vec::new(),
        });
        Spec {
            family: FamilyKind::Queens,
            members: members.collect(),
            sizes,
            encodings,
            command,
            compress: Compression::None,
            export: None,
        }
    }

    /// Made by `--dim` (not from a problem file): what decides the file names, the
    /// specialised encoder's header and the words of the messages, never the problem's value.
    fn made_by_dim(&self) -> bool {
        self.family == FamilyKind::Queens
    }

    /// The optimum of each member from [`A250000`]: a(d) for the queens (where the table
    /// has it), none for a placement problem.
    fn table(&self) -> Vec<Option<usize>> {
        // `--around-optimum` centres on the queens' table only (a placement problem finds
        // its optimum with --verify); statuses come from every table ([`write_cnf`]).
        let queens = self.made_by_dim();
        let a = |m: &Member| known_optimum(m.problem.rules.layout.rows).filter(|_| queens);
        self.members.iter().map(a).collect()
    }

    /// True when planning needs each problem's optimum found first: `--around-optimum` on a
    /// placement problem that maximises some group (there is a table for the queens only).
    pub fn needs_optima(&self) -> bool {
        self.export.is_none()
            && !self.made_by_dim()
            && matches!(self.sizes, Sizes::AroundOptimum(_))
            && self
                .members
                .iter()
                .any(|m| !m.problem.maximised().is_empty())
    }

    /// Every instance of the family, in file order; errors name what cannot be built.
    /// A placement problem with `--around-optimum` needs [`Spec::plan_with`].
    pub fn plan(&self) -> Result<Vec<Planned>, FamilyError> {
        self.plan_with(&self.table())
    }

    /// [`Spec::plan`] with the optimum of each member (by index, `None` where unknown) for
    /// `--around-optimum`: a(d) from the table for the queens, the optimum pq-sat found for
    /// a placement problem.
    pub fn plan_with(&self, optima: &[Option<usize>]) -> Result<Vec<Planned>, FamilyError> {
        let mut out = Vec::new();
        for (i, m) in self.members.iter().enumerate() {
            let sizes: Vec<usize> = if m.problem.maximised().is_empty() {
                if self.export.is_some() {
                    return invalid(format!(
                        "{}: maximises no group, so there is no optimisation to write; maximise one with --set GROUP=max",
                        m.label()
                    ));
                }
                vec![0]
            } else if self.export.is_some() {
                // One file states every size.
                vec![0]
            } else {
                let (lo, hi) = match self.sizes {
                    Sizes::AroundOptimum(k) => {
                        let a = optima.get(i).copied().flatten().ok_or_else(|| {
                            FamilyError::Invalid(if self.made_by_dim() {
                                format!(
                                    "a({}) is not proven (the table of proven values covers d = 1..{}); give the army sizes with --n LO..HI instead of --around-optimum",
                                    m.problem.rules.layout.rows,
                                    A250000.len()
                                )
                            } else {
                                format!(
                                    "{}: --around-optimum needs the optimum, and pq-sat has a table of proven optima only for the peaceable queens (--dim); give the sizes with --n LO..HI, or add --verify SEC to find each optimum first",
                                    m.label()
                                )
                            })
                        })?;
                        ((a + 1).saturating_sub(k).max(1), a.saturating_add(k))
                    }
                    Sizes::Range(lo, hi) => (lo, hi),
                };
                // Sizes whose pieces cannot all have a square are not formulas; none above
                // the number of squares fits, so the walk stops there whatever HI is.
                let squares = m.problem.rules.layout.squares();
                (lo..=hi.min(squares))
                    .filter(|&n| fits(&m.problem, n))
                    .collect()
            };
            for n in sizes {
                let mut seen: Vec<Options> = Vec::new();
                for &options in &self.encodings {
                    let options = options.for_problem(&m.problem);
                    if !seen.contains(&options) {
                        seen.push(options);
                        out.push(Planned {
                            member: i,
                            n,
                            options,
                        });
                    }
                }
            }
        }
        if out.is_empty() {
            let size = if self.made_by_dim() {
                "army size"
            } else {
                "size of the maximised groups"
            };
            return invalid(format!(
                "the family would be empty (no {size} fits on these boards)"
            ));
        }
        let mut names: Vec<String> = out.iter().map(|p| self.file_name(p)).collect();
        names.sort();
        if let Some([name, _]) = names.windows(2).find(|w| w[0] == w[1]) {
            return invalid(format!(
                "two instances would both be named {name}; group names that differ only in characters not kept in file names?"
            ));
        }
        Ok(out)
    }

    /// The start of every instance's file name: `queens`, or the problem file's stem.
    pub fn stem(&self) -> &str {
        match &self.family {
            FamilyKind::Queens => "queens",
            FamilyKind::Problem { stem, .. } => stem,
        }
    }

    /// The file name of an instance: what it is, not what its answer is. The queens:
    /// `queens-d05-n003-colouring-totalizer-lex-leader.cnf`; a placement problem: the
    /// problem file's stem, the board (`-torus` on a torus), every group count set by
    /// `--set`, the size (when something is maximised) and the encoding, e.g.
    /// `three-armies-5x5-n3-lines-totalizer-lex-leader.cnf`; a compressed family's names
    /// end in the compression's extension after `.cnf` (`.cnf.xz`).
    pub fn file_name(&self, p: &Planned) -> String {
        let kind = self.export.map_or("cnf", Export::name);
        format!("{}.{kind}{}", self.name_stem(p), self.compress.extension())
    }

    /// [`Spec::file_name`] without `.cnf` and the compression's extension.
    fn name_stem(&self, p: &Planned) -> String {
        let o = &p.options;
        let encoding = format!("{}-{}-{}", o.model, o.card, o.symmetry);
        let member = &self.members[p.member];
        let l = &member.problem.rules.layout;
        let stem = self.stem();
        if self.family == FamilyKind::Queens {
            if self.export.is_some() {
                return format!("{stem}-d{:02}-max-{encoding}", l.rows);
            }
            return format!("{stem}-d{:02}-n{:03}-{encoding}", l.rows, p.n);
        }
        let mut parts = vec![stem.to_string(), format!("{}x{}", l.rows, l.cols)];
        if l.torus {
            parts.push("torus".into());
        }
        for (k, v) in &member.settings {
            if !BOARD_KEYS.contains(&k.as_str()) {
                parts.push(format!("{}{}", file_safe(k), file_safe(v)));
            }
        }
        if self.export.is_some() {
            parts.push("max".into());
        } else if !member.problem.maximised().is_empty() {
            parts.push(format!("n{}", p.n));
        }
        parts.push(encoding);
        parts.join("-")
    }
}

/// pq-sat's own check of an instance: which solver to use and for how long.
pub struct Verify<'a> {
    /// The solver.
    pub backend: &'a dyn Backend,
    /// The limit per instance (and, when optima are found first, per optimisation step); an
    /// instance not solved in time stays as the table has it (`unknown` without one).
    pub timeout: Duration,
}

impl Verify<'_> {
    /// The optimum of `problem` encoded with `options`, climbing up with the limit per step.
    /// An interrupted optimisation proves nothing: that is an error, no fault of the problem.
    fn optimise(
        &self,
        problem: &Problem,
        options: &Options,
    ) -> Result<pq_engine::capability::climb::OptimiseOutcome, SolveError> {
        let limits = pq_engine::capability::climb::RunLimits {
            run: Limits::none(),
            step: Some(self.timeout),
        };
        let outcome = pq_engine::sat::optimise::optimise(
            problem,
            options,
            pq_engine::capability::climb::Strategy::Up,
            self.backend,
            &limits,
            &mut |_| {},
        )?;
        check_interrupt()?;
        Ok(outcome)
    }
}

/// What [`write_family`] reports while it works.
pub enum Event<'a> {
    /// The optimum of a member was found (`--around-optimum` on a placement problem).
    Optimum {
        /// The member.
        member: &'a Member,
        /// Its proven optimum.
        optimum: usize,
        /// Seconds the optimisation took.
        seconds: f64,
    },
    /// An instance was written (and checked, with `verify`).
    Instance(&'a Entry),
}

/// The optimum of each member (by index): found by [`pq_engine::sat::optimise::optimise`] with the
/// verifying solver, each step within its timeout, when the plan needs them; else the table.
fn find_optima(
    spec: &Spec,
    verify: Option<&Verify>,
    on_event: &mut dyn FnMut(Event),
) -> Result<Vec<Option<usize>>, FamilyError> {
    if !spec.needs_optima() {
        return Ok(spec.table());
    }
    let Some(v) = verify else {
        return invalid("--around-optimum on a placement problem finds each optimum first, which needs --verify SEC; or give the sizes with --n LO..HI");
    };
    let mut optima = Vec::with_capacity(spec.members.len());
    for m in &spec.members {
        if m.problem.maximised().is_empty() {
            optima.push(None);
            continue;
        }
        let outcome = v.optimise(&m.problem, &spec.encodings[0].for_problem(&m.problem))?;
        let a = match outcome.optimum {
            Some(a) => a,
            None if outcome.infeasible => {
                return invalid(format!(
                    "{}: the fixed counts cannot be met even with no piece in the maximised groups, so there is no optimum to centre on; give the sizes with --n LO..HI",
                    m.label()
                ))
            }
            None => {
                return invalid(format!(
                    "{}: pq-sat could not prove the optimum with at most {} s per step ({}); raise --verify or give the sizes with --n LO..HI",
                    m.label(),
                    v.timeout.as_secs_f64(),
                    outcome.reason.unwrap_or_else(|| "no answer".into())
                ))
            }
        };
        on_event(Event::Optimum {
            member: m,
            optimum: a,
            seconds: outcome.seconds,
        });
        optima.push(Some(a));
    }
    Ok(optima)
}

/// Writes the family into `dir`, which must not exist, be empty, or hold an earlier family
/// (replaced; [`check_target`]): everything goes into a
/// temporary directory beside it first and is renamed into place at the end, so a failure
/// or an interrupt never leaves a half-written family. `on_event` sees each optimum found
/// and each entry.
pub fn write_family(
    spec: &Spec,
    dir: &Path,
    verify: Option<&Verify>,
    policy: pq_io::output::WritePolicy,
    on_event: &mut dyn FnMut(Event),
) -> Result<Manifest, FamilyError> {
    // Solving (the optima, --verify) comes after: fail on the directory first.
    check_target(dir, MARKER, policy)?;
    let optima = find_optima(spec, verify, on_event)?;
    let planned = spec.plan_with(&optima)?;
    let staging = stage(dir, "family", MARKER, policy)?;

    let mut instances = Vec::with_capacity(planned.len());
    for p in &planned {
        // An interrupted family is not written at all (the staging directory goes with it).
        check_interrupt()?;
        if let Some(format) = spec.export {
            let entry = write_optimisation(spec, p, format, staging.path(), verify)?;
            on_event(Event::Instance(&entry));
            instances.push(entry);
            continue;
        }
        let (mut entry, formula) = write_cnf(spec, p, staging.path())?;
        let member = &spec.members[p.member];
        let (problem, n) = (&member.problem, p.n);
        let (name, optimum) = (entry.file.clone(), optima[p.member]);
        let (mut expected, mut source) = (entry.expected, std::mem::take(&mut entry.source));
        if let Some(v) = verify {
            let outcome = solve_formula(
                Some(problem),
                n,
                &formula,
                v.backend,
                &Limits::timeout(Some(v.timeout)),
            )?;
            if outcome.status != Status::Unknown {
                let found = outcome.status.name();
                if let Some(a) = optimum.filter(|&a| (n <= a) != (outcome.status == Status::Sat)) {
                    // `optimum` is the queens' table's (or pq-sat's own optimisation's).
                    return invalid(if spec.made_by_dim() {
                        format!(
                            "{name}: pq-sat found it {found} but {A250000_SOURCE} says {}",
                            expected.name()
                        )
                    } else {
                        format!("{name}: pq-sat found it {found}, but pq-sat's own optimisation proved the optimum {a} for this problem")
                    });
                }
                let witness = match (outcome.status, outcome.verified) {
                    (Status::Sat, _) => ", witness validated",
                    (_, Some(true)) => ", proof checked",
                    _ => "",
                };
                source = format!(
                    "pq-sat {} ({}, {:.2} s{witness})",
                    env!("CARGO_PKG_VERSION"),
                    outcome.solver,
                    outcome.seconds
                );
                expected = outcome.status;
            }
        }
        (entry.expected, entry.source) = (expected, source);
        on_event(Event::Instance(&entry));
        instances.push(entry);
    }
    let (family, problem_file) = match &spec.family {
        FamilyKind::Queens => ("peaceable-queens".to_string(), None),
        FamilyKind::Problem { file, .. } => {
            (spec.members[0].problem.name.clone(), Some(file.clone()))
        }
    };
    let manifest = Manifest {
        family,
        problem_file,
        generator: format!("pq-sat {}", env!("CARGO_PKG_VERSION")),
        command: spec.command.clone(),
        instances,
    };
    let json = serde_json::to_string_pretty(&manifest).expect("a manifest serialises");
    for (name, text) in [
        (MANIFEST_JSON, json + "\n"),
        (MANIFEST_CSV, manifest.to_csv()),
        ("README.md", readme(spec, &manifest, &optima)),
    ] {
        let path = staging.path().join(name);
        fs::write(&path, text).map_err(SolveError::io(&path))?;
    }
    check_interrupt()?;
    move_into_place(staging, dir, MARKER, policy)?;
    Ok(manifest)
}

/// Writes the DIMACS instance `p` of `spec` into `dir` (compressed as the spec says) and
/// returns its manifest entry and formula. The expected status is the table's where
/// [`pq_solve::known::table`] knows the problem, `unknown` otherwise: proving it is the caller's
/// business.
pub(crate) fn write_cnf(
    spec: &Spec,
    p: &Planned,
    dir: &Path,
) -> Result<(Entry, pq_encode::Formula), FamilyError> {
    let member = &spec.members[p.member];
    let (problem, n) = (&member.problem, p.n);
    let (queens, l) = (spec.made_by_dim(), &problem.rules.layout);
    let formula = if queens {
        // The queens preset keeps the specialised encoder's own header, byte for byte.
        let instance = Instance::new(l.rows, n)
            .map_err(|e| FamilyError::Invalid(format!("d = {}, n = {n}: {e}", l.rows)))?;
        encode(&instance, &p.options)
    } else {
        encode_problem(problem, n, &p.options)
    };
    let name = spec.file_name(p);
    let path = dir.join(&name);
    let mut bytes = Vec::new();
    dimacs::write(&formula, &mut bytes).map_err(SolveError::io(&path))?;
    // The manifest's SHA-256 is of the file as written (compressed, when it is): the
    // bytes a downloader verifies before unpacking.
    let written = compress::compressed(spec.compress, &bytes).map_err(SolveError::io(&path))?;
    fs::write(&path, &written).map_err(SolveError::io(&path))?;
    let (expected, source) = match pq_solve::known::table(problem) {
        Some((a, t)) => {
            let status = if n <= a { Status::Sat } else { Status::Unsat };
            (status, t.source.to_string())
        }
        None => (Status::Unknown, String::new()),
    };
    let entry = Entry {
        n,
        model: p.options.model.name().into(),
        card: p.options.card.name().into(),
        symmetry: p.options.symmetry.name().into(),
        variables: formula.n_vars,
        clauses: formula.n_clauses(),
        expected,
        source,
        sha256: sha256_hex(&written),
        // pq-sat's DIMACS (a header, then clauses of integers) always has one.
        gbd: gbd_hash(&bytes[..]).expect("pq-sat's DIMACS has a GBD hash"),
        format: None,
        optimum: None,
        ..Entry::of_member(name, member, queens)
    };
    Ok((entry, formula))
}

/// Writes the optimisation instance `p` of `spec` in `format` into `staging` and returns its
/// manifest entry: the optimum from a table ([`pq_solve::known::table`]) and, with `verify`, from pq-sat's
/// own optimiser (each step within its time limit), which must agree with the table.
fn write_optimisation(
    spec: &Spec,
    p: &Planned,
    format: Export,
    staging: &Path,
    verify: Option<&Verify>,
) -> Result<Entry, FamilyError> {
    let member = &spec.members[p.member];
    let (problem, queens) = (&member.problem, spec.made_by_dim());
    let name = spec.file_name(p);
    let path = staging.join(&name);
    let opt = maxsat::export(problem, &p.options, format)
        .map_err(|e| FamilyError::Invalid(format!("{}: {e}", member.label())))?;
    let written_options = pq_encode::header::options(&opt.formula.comments);
    let mut bytes = Vec::new();
    opt.write(&mut bytes).map_err(SolveError::io(&path))?;
    let written = compress::compressed(spec.compress, &bytes).map_err(SolveError::io(&path))?;
    fs::write(&path, &written).map_err(SolveError::io(&path))?;
    let known = pq_solve::known::table(problem);
    let mut optimum = known.map(|(a, _)| a);
    let mut source = known.map_or_else(String::new, |(_, t)| t.source.to_string());
    if let Some(v) = verify {
        let outcome = v.optimise(problem, &p.options)?;
        if let Some(found) = outcome.optimum {
            if let Some((a, t)) = known.filter(|&(a, _)| a != found) {
                return invalid(format!(
                    "{name}: pq-sat's optimiser found the optimum {found} but {} says {a}",
                    t.source
                ));
            }
            let checked = outcome.steps.iter().rev().find(|s| s.n == found + 1);
            let proof = match checked.and_then(|s| s.verified) {
                Some(true) => ", proof checked",
                _ => "",
            };
            source = format!(
                "pq-sat {} (optimiser, {:.2} s, witness validated{proof})",
                env!("CARGO_PKG_VERSION"),
                outcome.seconds
            );
            optimum = Some(found);
        }
    }
    Ok(Entry {
        n: 0,
        // As the file's header says: the WCNF's general encoder writes colouring as lines.
        model: written_options.model.name().into(),
        card: written_options.card.name().into(),
        symmetry: written_options.symmetry.name().into(),
        variables: opt.formula.n_vars,
        clauses: opt.n_constraints(),
        expected: if optimum.is_some() {
            Status::Sat
        } else {
            Status::Unknown
        },
        source,
        sha256: sha256_hex(&written),
        gbd: String::new(),
        format: Some(format.name().into()),
        optimum,
        ..Entry::of_member(name, member, queens)
    })
}

#[cfg(test)]
mod tests {
    use super::manifest::csv_field;
    use super::settings::expand_settings;
    use super::*;
    use pq_encode::{Model, Symmetry};
    use pq_io::staging::distinct_plain_names;

    /// The file names `spec` plans, in order.
    fn file_names(spec: &Spec) -> Vec<String> {
        let plan = spec.plan().unwrap();
        plan.iter().map(|p| spec.file_name(p)).collect()
    }

    const THREE_ARMIES: &str = include_str!("../../../../encodings/three-armies.toml");
    const DUDENEY: &str = include_str!("../../../../encodings/crowded-chessboard.toml");

    fn three_armies() -> Problem {
        Problem::from_toml(THREE_ARMIES).unwrap()
    }

    fn sets(items: &[&str]) -> Vec<String> {
        items.iter().map(std::string::ToString::to_string).collect()
    }

    fn settings(members: &[Member]) -> Vec<String> {
        members.iter().map(Member::settings_line).collect()
    }

    fn problem_spec(base: &Problem, items: &[&str], sizes: Sizes) -> Spec {
        Spec {
            family: FamilyKind::Problem {
                stem: "three-armies".into(),
                file: "encodings/three-armies.toml".into(),
            },
            members: expand_settings(base, &sets(items)).unwrap(),
            sizes,
            encodings: vec![Options::default()],
            command: String::new(),
            compress: Compression::None,
            export: None,
        }
    }

    #[test]
    fn family_table_and_sizes() {
        assert_eq!(known_optimum(8), Some(9));
        assert_eq!(known_optimum(16), None);
        assert_eq!(known_optimum(0), None);
        let spec = Spec::queens(
            &[3, 8],
            Sizes::AroundOptimum(2),
            vec![Options::default()],
            String::new(),
        );
        let ns: Vec<(usize, usize)> = spec
            .plan()
            .unwrap()
            .iter()
            .map(|p| (spec.members[p.member].problem.rules.layout.rows, p.n))
            .collect();
        // a(3) = 1: n = 1, 2, 3 (0 is not an instance, 2n > 9 drops nothing here).
        assert_eq!(
            ns,
            vec![(3, 1), (3, 2), (3, 3), (8, 8), (8, 9), (8, 10), (8, 11)]
        );
        let unknown = Spec::queens(&[16], spec.sizes, spec.encodings.clone(), String::new());
        assert!(unknown.plan().unwrap_err().to_string().contains("a(16)"));
    }

    /// Sizes at the end of `usize` neither wrap around nor walk 2^64 values:
    /// every size that fits on the board, and only those.
    #[test]
    fn huge_sizes_plan_every_fitting_size_and_stop() {
        let ns = |sizes| -> Vec<usize> {
            let spec = Spec::queens(&[3], sizes, vec![Options::default()], String::new());
            spec.plan().unwrap().iter().map(|p| p.n).collect()
        };
        assert_eq!(ns(Sizes::AroundOptimum(usize::MAX)), vec![1, 2, 3, 4]);
        assert_eq!(ns(Sizes::Range(3, usize::MAX)), vec![3, 4]);
        let spec = Spec::queens(
            &[3],
            Sizes::Range(usize::MAX, usize::MAX),
            vec![Options::default()],
            String::new(),
        );
        assert!(spec.plan().unwrap_err().to_string().contains("empty"));
    }

    #[test]
    fn family_queens_names_are_unchanged() {
        let spec = Spec::queens(
            &[4, 10],
            Sizes::Range(2, 2),
            vec![
                Options::default(),
                Options {
                    model: Model::Pairwise,
                    symmetry: Symmetry::None,
                    ..Options::default()
                },
            ],
            String::new(),
        );
        let names = file_names(&spec);
        assert_eq!(
            names,
            [
                "queens-d04-n002-colouring-totalizer-lex-leader.cnf",
                "queens-d04-n002-pairwise-totalizer-none.cnf",
                "queens-d10-n002-colouring-totalizer-lex-leader.cnf",
                "queens-d10-n002-pairwise-totalizer-none.cnf",
            ]
        );
    }

    #[test]
    fn family_set_expands_ranges_and_lists_into_the_product() {
        let base = three_armies();
        // No --set: the file's own problem.
        let alone = expand_settings(&base, &[]).unwrap();
        assert_eq!(alone.len(), 1);
        assert_eq!(alone[0].problem, base);
        assert_eq!(alone[0].settings_line(), "");

        let boards = expand_settings(&base, &sets(&["board=4..6"])).unwrap();
        assert_eq!(settings(&boards), ["board=4x4", "board=5x5", "board=6x6"]);
        assert_eq!(boards[2].problem.rules.layout.rows, 6);

        // Lists, the `size` alias, spelling of boards, duplicates dropped, `..=`.
        let m = expand_settings(&base, &sets(&["size=5X5, 6×8,5", "red=2..=3"])).unwrap();
        assert_eq!(
            settings(&m),
            [
                "board=5x5 red=2",
                "board=5x5 red=3",
                "board=6x8 red=2",
                "board=6x8 red=3"
            ],
            "the first key varies slowest"
        );
        let l = &m[3].problem.rules.layout;
        assert_eq!((l.rows, l.cols), (6, 8));
        assert_eq!(m[3].problem.counts[0], pq_encode::spec::Count::Exactly(3));
        assert_eq!(m[3].problem.maximised(), vec![1, 2]);

        let m = expand_settings(
            &base,
            &sets(&["rows=3..4", "cols=5", "torus=true,false", "green=max,1"]),
        )
        .unwrap();
        assert_eq!(m.len(), 8);
        assert_eq!(m[0].settings_line(), "rows=3 cols=5 torus=true green=max");
        assert!(m[0].problem.rules.layout.torus);
        assert!(!m[7].problem.rules.layout.torus);
        assert_eq!(
            (
                m[7].problem.rules.layout.rows,
                m[7].problem.rules.layout.cols
            ),
            (4, 5)
        );

        // Settings checked per combination, in any order: a board shrunk with counts to
        // match is fine.
        let dudeney = Problem::from_toml(DUDENEY).unwrap();
        let m = expand_settings(
            &dudeney,
            &sets(&[
                "queens=2",
                "rooks=2",
                "bishops=2",
                "board=4x4",
                "knights=3..5",
            ]),
        )
        .unwrap();
        assert_eq!(m.len(), 3);
        assert!(m.iter().all(|m| m.problem.maximised().is_empty()));
    }

    #[test]
    fn family_set_errors_are_clear() {
        let base = three_armies();
        for (items, needle) in [
            (&["board"][..], "expected KEY=VALUE"),
            (&["=4"][..], "key is missing"),
            (&["board=6..4"][..], "the range 6..4 is empty"),
            (&["red=1..x"][..], "expected a range LO..HI"),
            (&["red=2,,3"][..], "an empty value"),
            (&["red="][..], "an empty value"),
            (&["board=axb"][..], "--set board: expected ROWSxCOLS"),
            (&["red=many"][..], "--set red: expected a number of pieces"),
            (&["torus=maybe"][..], "--set torus"),
            (&["dragons=3"][..], "unknown key 'dragons'"),
            (&["board=0..2"][..], "rows must be at least 1"),
            (&["board=4", "size=5"][..], "--set board is given twice"),
            (
                &["board=2x2", "red=5"][..],
                "the problem with board=2x2 red=5: the counts ask for 5 pieces",
            ),
            (
                &["board=1..64", "red=0..200"][..],
                "more than 10000 problems",
            ),
            (&["red=0..100000"][..], "more than 10000 values"),
        ] {
            let e = expand_settings(&base, &sets(items))
                .unwrap_err()
                .to_string();
            assert!(e.contains(needle), "{items:?}: {e}");
        }
    }

    #[test]
    fn family_plan_of_a_problem() {
        let base = three_armies();
        let spec = problem_spec(&base, &["board=4..5"], Sizes::Range(4, 6));
        let plan = spec.plan().unwrap();
        let names: Vec<String> = plan.iter().map(|p| spec.file_name(p)).collect();
        // 3 armies of n need 3n squares: n = 6 does not fit on 4x4 (18 > 16).
        assert_eq!(
            names,
            [
                "three-armies-4x4-n4-lines-totalizer-lex-leader.cnf",
                "three-armies-4x4-n5-lines-totalizer-lex-leader.cnf",
                "three-armies-5x5-n4-lines-totalizer-lex-leader.cnf",
                "three-armies-5x5-n5-lines-totalizer-lex-leader.cnf",
                "three-armies-5x5-n6-lines-totalizer-lex-leader.cnf",
            ],
            "colouring is written as the lines model it is for a general problem"
        );

        // colouring and lines coincide for a general problem: one file, not two.
        let spec2 = Spec {
            encodings: vec![
                Options::default(),
                Options {
                    model: Model::Lines,
                    ..Options::default()
                },
                Options {
                    model: Model::Pairwise,
                    ..Options::default()
                },
            ],
            ..problem_spec(
                &base,
                &["board=4", "torus=true", "red=2"],
                Sizes::Range(1, 1),
            )
        };
        let names = file_names(&spec2);
        assert_eq!(
            names,
            [
                "three-armies-4x4-torus-red2-n1-lines-totalizer-lex-leader.cnf",
                "three-armies-4x4-torus-red2-n1-pairwise-totalizer-lex-leader.cnf",
            ]
        );

        // Around the optimum: a placement problem has no table.
        let around = problem_spec(&base, &["board=4..5"], Sizes::AroundOptimum(2));
        assert!(around.needs_optima());
        let e = around.plan().unwrap_err().to_string();
        assert!(e.contains("--n LO..HI") && e.contains("--verify"), "{e}");
        let plan = around.plan_with(&[Some(2), Some(4)]).unwrap();
        let ns: Vec<(usize, usize)> = plan.iter().map(|p| (p.member, p.n)).collect();
        assert_eq!(
            ns,
            [
                (0, 1),
                (0, 2),
                (0, 3),
                (0, 4),
                (1, 3),
                (1, 4),
                (1, 5),
                (1, 6)
            ]
        );

        // Nothing maximised: the single size 0, and no n in the name.
        let dudeney = Problem::from_toml(DUDENEY).unwrap();
        let mut spec = Spec {
            family: FamilyKind::Problem {
                stem: "crowded-chessboard".into(),
                file: "crowded-chessboard.toml".into(),
            },
            members: expand_settings(
                &dudeney,
                &sets(&[
                    "board=4x4",
                    "queens=2",
                    "rooks=2",
                    "bishops=2",
                    "knights=3,4",
                ]),
            )
            .unwrap(),
            sizes: Sizes::AroundOptimum(2),
            encodings: vec![Options::default()],
            command: String::new(),
            compress: Compression::None,
            export: None,
        };
        assert!(!spec.needs_optima());
        let plan = spec.plan().unwrap();
        assert!(plan.iter().all(|p| p.n == 0));
        let name = "crowded-chessboard-4x4-queens2-rooks2-bishops2-knights4-lines-totalizer-lex-leader.cnf";
        assert_eq!(spec.file_name(&plan[1]), name);
        // A compressed family's names end in the compression's extension after `.cnf`.
        for (compress, ext) in [
            (Compression::Xz, ".xz"),
            (Compression::Gzip, ".gz"),
            (Compression::Bzip2, ".bz2"),
        ] {
            spec.compress = compress;
            let named = spec.file_name(&plan[1]);
            assert_eq!(named, format!("{name}{ext}"));
            assert_eq!(Compression::of_name(Path::new(&named)), compress);
        }
    }

    #[test]
    fn family_manifest_fields_by_kind() {
        let queens = Entry {
            file: "q.cnf".into(),
            problem: None,
            settings: None,
            rows: None,
            cols: None,
            torus: None,
            dim: Some(5),
            n: 4,
            model: "colouring".into(),
            card: "totalizer".into(),
            symmetry: "none".into(),
            variables: 1,
            clauses: 2,
            expected: Status::Sat,
            source: "x, y".into(),
            sha256: "ab".into(),
            gbd: "cd".into(),
            format: None,
            optimum: None,
        };
        let json = serde_json::to_string(&queens).unwrap();
        assert!(
            json.starts_with(r#"{"file":"q.cnf","dim":5,"n":4,"#),
            "{json}"
        );
        let problem = Entry {
            problem: Some("three armies".into()),
            settings: Some("board=5x5 red=3".into()),
            rows: Some(5),
            cols: Some(5),
            torus: Some(false),
            dim: None,
            ..queens.clone()
        };
        let json = serde_json::to_string(&problem).unwrap();
        assert!(!json.contains("\"dim\""), "{json}");
        assert_eq!(serde_json::from_str::<Entry>(&json).unwrap(), problem);
        let mut m = Manifest {
            family: "three armies".into(),
            problem_file: Some("three-armies.toml".into()),
            generator: String::new(),
            command: String::new(),
            instances: vec![problem],
        };
        assert_eq!(
            m.to_csv(),
            "file,problem,settings,rows,cols,torus,n,model,card,symmetry,variables,clauses,expected,source,sha256,gbd\n\
             q.cnf,three armies,board=5x5 red=3,5,5,false,4,colouring,totalizer,none,1,2,sat,\"x, y\",ab,cd\n"
        );
        m.instances = vec![queens];
        assert!(m.to_csv().starts_with("file,dim,n,model"));
        assert!(m.to_csv().contains("\nq.cnf,5,4,colouring,"));
    }

    #[test]
    fn manifests_name_plain_files_once_with_a_known_status() {
        for ok in ["a.cnf", "queens-d05-n003.cnf", ".hidden", "a b"] {
            assert_eq!(pq_io::staging::plain_file_name(ok), Ok(()), "{ok}");
        }
        for bad in [
            "",
            ".",
            "..",
            "../a.cnf",
            "/etc/passwd",
            "d/a.cnf",
            "a\\b",
            "a\nb",
        ] {
            let e = pq_io::staging::plain_file_name(bad).unwrap_err();
            assert!(e.contains("not a plain file name"), "{bad}: {e}");
            assert!(!e.contains('\n'), "one line: {e}");
        }
        assert_eq!(distinct_plain_names(&["a", "b"]), Ok(()));
        assert_eq!(
            distinct_plain_names(&["a", "b", "a"]).unwrap_err(),
            "'a' is named twice"
        );

        let tmp = tempfile::tempdir().unwrap();
        let entry = |file: &str, expected: &str| {
            format!(
                r#"{{"file":"{file}","dim":5,"n":4,"model":"colouring","card":"totalizer","symmetry":"none","variables":1,"clauses":1,"expected":"{expected}","source":"","sha256":""}}"#
            )
        };
        let read = |entries: &[String]| {
            let json = format!(
                r#"{{"family":"peaceable-queens","generator":"","command":"","instances":[{}]}}"#,
                entries.join(",")
            );
            fs::write(tmp.path().join(MANIFEST_JSON), json).unwrap();
            Manifest::read(tmp.path()).map_err(|e| e.to_string())
        };
        let m = read(&[entry("a.cnf", "sat"), entry("b.cnf", "unknown")]).unwrap();
        assert_eq!(m.instances[1].expected, Status::Unknown);
        let e = read(&[entry("a.cnf", "maybe")]).unwrap_err();
        assert!(
            e.contains("unknown variant `maybe`, expected one of `sat`, `unsat`, `unknown`"),
            "{e}"
        );
        let e = read(&[entry("a.cnf", "sat"), entry("a.cnf", "sat")]).unwrap_err();
        assert!(e.contains("'a.cnf' is named twice"), "{e}");
        let e = read(&[entry("../a.cnf", "sat")]).unwrap_err();
        assert!(e.contains("'../a.cnf' is not a plain file name"), "{e}");
    }

    #[test]
    fn csv_fields_are_quoted_when_needed() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a, b"), "\"a, b\"");
        assert_eq!(csv_field("say \"x\""), "\"say \"\"x\"\"\"");
    }
}
