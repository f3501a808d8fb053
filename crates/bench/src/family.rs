//! Benchmark families: many DIMACS instances of one placement problem with a manifest (CSV
//! and JSON) and a README, in the manner of SAT-competition benchmark submissions. The
//! problem is the peaceable queens on a list of board sides ([`FamilyKind::Queens`],
//! `pq-sat family --dim`), or a problem file with some of its settings ranging over values
//! ([`FamilyKind::Problem`], `pq-sat family --problem FILE --set KEY=VALUES`, expanded by
//! [`expand_settings`] into the cartesian product of problems).
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
use pq_encode::{dimacs, encode, Instance, Model, Options};
use serde::{Deserialize, Serialize};

use pq_engine::pipeline::{solve_formula, Status};
use pq_io::compress::{self, Compression};
use pq_io::hashing::gbd_hash;
use pq_io::output;
use pq_solve::backend::Backend;
use pq_solve::control::{check_interrupt, Limits};
use pq_solve::error::SolveError;

use pq_engine::known::{known_optimum, A250000, A250000_SOURCE};
use pq_io::hashing::sha256_hex;
use pq_io::staging::{check_target, distinct_plain_names, move_into_place, stage};

/// The name of the JSON manifest in a family directory (the one [`Manifest::read`] reads).
pub const MANIFEST_JSON: &str = "manifest.json";

/// How `--force` recognises a family directory pq-sat wrote ([`output::Marker`]).
pub const MARKER: output::Marker = output::Marker {
    file: MANIFEST_JSON,
    key: "family",
};
/// The name of the CSV manifest beside it ([`Manifest::to_csv`]).
pub const MANIFEST_CSV: &str = "manifest.csv";

/// One instance of a family.
///
/// A peaceable-queens family ([`FamilyKind::Queens`]) fills `dim` and leaves the
/// placement-problem fields out; a placement-problem family fills `problem`, `settings`,
/// `rows`, `cols` and `torus` and leaves `dim` out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The file name, relative to the family directory.
    pub file: String,
    /// The problem's name (placement-problem families).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// The `--set` values that made this instance's problem, `KEY=VALUE` separated by
    /// spaces, e.g. `board=5x5 red=3` (empty when none was given; placement-problem
    /// families).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<String>,
    /// The board's rows (placement-problem families).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<usize>,
    /// The board's columns (placement-problem families).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cols: Option<usize>,
    /// Whether the board is a torus (placement-problem families).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub torus: Option<bool>,
    /// The board side d (peaceable-queens families).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dim: Option<usize>,
    /// Queens of each colour; for a placement problem, the size of its maximised groups (0
    /// when it maximises none).
    pub n: usize,
    /// The attack model's name.
    pub model: String,
    /// The cardinality encoding's name.
    pub card: String,
    /// The symmetry breaking's name.
    pub symmetry: String,
    /// The number of variables in the file.
    pub variables: u32,
    /// The number of clauses in the file.
    pub clauses: usize,
    /// The proven status, `sat`, `unsat` or `unknown` in JSON (nothing else is read).
    pub expected: Status,
    /// Who proved `expected` (empty when unknown).
    pub source: String,
    /// SHA-256 of the file as written (the compressed bytes of a compressed family, which a
    /// downloader verifies), lower-case hex.
    pub sha256: String,
    /// The file's GBD hash ([`pq_io::hashing::gbd_hash`]), the id the SAT competitions
    /// use; empty in a manifest written before pq-sat recorded it.
    #[serde(default)]
    pub gbd: String,
    /// `wcnf` or `opb` for an optimisation instance (`family --instance-format`); absent
    /// for DIMACS. Such an instance states the whole optimisation (its `n` is 0, and its
    /// `gbd` empty: the GBD hash is of CNF), and `expected` is `sat` once it is known to
    /// have a solution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// The optimum of an optimisation instance, where known (from the table of proven
    /// values, or pq-sat's own optimiser with `--verify`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optimum: Option<usize>,
}

impl Entry {
    /// An entry for the file `file` that says nothing of the problem it encodes: status
    /// unknown, every other field empty, for the caller to fill in.
    pub fn of_file(file: String) -> Entry {
        Entry {
            file,
            problem: None,
            settings: None,
            rows: None,
            cols: None,
            torus: None,
            dim: None,
            n: 0,
            model: String::new(),
            card: String::new(),
            symmetry: String::new(),
            variables: 0,
            clauses: 0,
            expected: Status::Unknown,
            source: String::new(),
            sha256: String::new(),
            gbd: String::new(),
            format: None,
            optimum: None,
        }
    }

    /// An entry for the instance `file` of `member`, with the fields that say which problem
    /// it is filled as a queens family (`dim`) or a placement-problem family (`problem`,
    /// `settings`, `rows`, `cols`, `torus`) has them; the rest is left for the caller.
    fn of_member(file: String, member: &Member, queens: bool) -> Entry {
        let l = &member.problem.rules.layout;
        Entry {
            problem: (!queens).then(|| member.problem.name.clone()),
            settings: (!queens).then(|| member.settings_line()),
            rows: (!queens).then_some(l.rows),
            cols: (!queens).then_some(l.cols),
            torus: (!queens).then_some(l.torus),
            dim: queens.then_some(l.rows),
            ..Entry::of_file(file)
        }
    }
}

/// A family's manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The problem the family is made of: `peaceable-queens`, or a problem file's name.
    pub family: String,
    /// The problem file a placement-problem family was made from, as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem_file: Option<String>,
    /// The pq-sat version that wrote it (`pq-sat X.Y.Z`).
    pub generator: String,
    /// The command line that made the family.
    pub command: String,
    /// Every instance, in file order.
    pub instances: Vec<Entry>,
}

impl Manifest {
    /// Reads `DIR/manifest.json`: an `expected` other than `sat`, `unsat` or `unknown`, a
    /// file name that is not a plain name in `DIR` ([`pq_io::staging::plain_file_name`]) or a file listed
    /// twice is an error.
    pub fn read(dir: &Path) -> Result<Manifest, FamilyError> {
        let path = dir.join(MANIFEST_JSON);
        let bytes = pq_io::output::read_regular(&path, pq_io::output::MAX_TEXT_INPUT)
            .map_err(SolveError::from)?;
        let text = String::from_utf8_lossy(&bytes);
        let manifest: Manifest = serde_json::from_str(&text).map_err(|e| {
            FamilyError::Invalid(format!(
                "{}: not a pq-sat family manifest: {e}",
                path.display()
            ))
        })?;
        let files: Vec<&str> = manifest.instances.iter().map(|e| e.file.as_str()).collect();
        distinct_plain_names(&files).map_err(|e| {
            FamilyError::Invalid(format!(
                "{}: instance file {e}; a family's manifest names only files in its own directory, each once",
                path.display()
            ))
        })?;
        Ok(manifest)
    }

    /// True for a peaceable-queens family (`--dim`): no instance names a problem.
    pub fn is_queens(&self) -> bool {
        self.instances.iter().all(|e| e.problem.is_none())
    }

    /// The CSV form: a header and one row per instance. A peaceable-queens family has the
    /// columns `file,dim,n,…`; a placement-problem family
    /// `file,problem,settings,rows,cols,torus,n,…`. The columns are the JSON fields of an
    /// [`Entry`] in their order, so the two manifests cannot drift apart.
    pub fn to_csv(&self) -> String {
        let rows: Vec<serde_json::Map<String, serde_json::Value>> = self
            .instances
            .iter()
            .map(|e| match serde_json::to_value(e) {
                Ok(serde_json::Value::Object(row)) => row,
                _ => unreachable!("an entry serialises to an object"),
            })
            .collect();
        let header: Vec<&str> = rows
            .first()
            .map_or(Vec::new(), |r| r.keys().map(String::as_str).collect());
        let mut out = header.join(",") + "\n";
        for row in &rows {
            let cells: Vec<String> = row
                .values()
                .map(|v| match v {
                    serde_json::Value::String(s) => csv_field(s),
                    v => v.to_string(),
                })
                .collect();
            out += &(cells.join(",") + "\n");
        }
        out
    }
}

/// Quotes a CSV field when it needs it (RFC 4180).
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

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

/// One problem of a family: a board, groups and counts, and the `--set` values that made it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The problem, every setting applied.
    pub problem: Problem,
    /// `(KEY, VALUE)` in the order of the `--set` flags (`size` written `board`, a board
    /// written `RxC`); empty for the queens and for a problem file taken as it is.
    pub settings: Vec<(String, String)>,
}

impl Member {
    /// The settings as `KEY=VALUE` separated by spaces (`board=5x5 red=3`).
    pub fn settings_line(&self) -> String {
        let items: Vec<String> = self
            .settings
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        items.join(" ")
    }

    /// How messages name this member: its settings, or its board when it has none.
    pub fn label(&self) -> String {
        if self.settings.is_empty() {
            self.problem.summary()
        } else {
            self.settings_line()
        }
    }
}

/// The most problems one `--set` product may hold.
pub const MAX_PROBLEMS: usize = 10_000;

/// The keys `--set` takes besides group names.
const BOARD_KEYS: [&str; 5] = ["board", "size", "rows", "cols", "torus"];

/// Expands `--set KEY=VALUES` items into the cartesian product of problems, each one `base`
/// with one value of every key applied by [`Problem::set_all`] (checked once per
/// combination, so the settings may come in any order). VALUES is a comma-separated list
/// whose items are single values or inclusive ranges of whole numbers `A..B` (`A..=B`
/// too): `board=4..6` is 4x4, 5x5, 6x6; `board=5x5,6x8`; `red=2..4`; `torus=true,false`.
/// The first key varies slowest. No items: `base` alone. Errors name the item or the
/// combination: no `=`, a key given twice, an empty value or range, a bad value, a
/// combination the problem rejects (more pieces than squares), more than [`MAX_PROBLEMS`]
/// problems.
pub fn expand_settings(base: &Problem, items: &[String]) -> Result<Vec<Member>, FamilyError> {
    let mut keys: Vec<(String, Vec<String>)> = Vec::new();
    for item in items {
        let Some((key, values)) = item.split_once('=') else {
            return invalid(format!("--set {item}: expected KEY=VALUE"));
        };
        let key = match key.trim() {
            "size" => "board",
            k => k,
        };
        if key.is_empty() {
            return invalid(format!("--set {item}: the key is missing"));
        }
        if keys.iter().any(|(k, _)| k == key) {
            return invalid(format!(
                "--set {key} is given twice; list its values in one --set ({key}=A,B or {key}=A..B)"
            ));
        }
        let values = setting_values(key, values)
            .map_err(|e| FamilyError::Invalid(format!("--set {key}={}: {e}", values.trim())))?;
        keys.push((key.to_string(), values));
    }
    let total = keys.iter().try_fold(1usize, |acc, (_, v)| {
        acc.checked_mul(v.len()).filter(|&t| t <= MAX_PROBLEMS)
    });
    let Some(total) = total else {
        let sizes: Vec<String> = keys
            .iter()
            .map(|(k, v)| format!("{} {k}", v.len()))
            .collect();
        return invalid(format!(
            "--set: {} make more than {MAX_PROBLEMS} problems; narrow the ranges",
            sizes.join(" × ")
        ));
    };
    let mut members = Vec::with_capacity(total);
    for index in 0..total {
        // `index` in mixed radix, the last key's digit the fastest.
        let mut rest = index;
        let mut settings: Vec<(String, String)> = Vec::with_capacity(keys.len());
        for (k, values) in keys.iter().rev() {
            settings.insert(0, (k.clone(), values[rest % values.len()].clone()));
            rest /= values.len();
        }
        let mut member = Member {
            problem: base.clone(),
            settings,
        };
        let pairs = member
            .settings
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()));
        if let Err(e) = member.problem.set_all(pairs) {
            return invalid(format!("the problem with {}: {e}", member.settings_line()));
        }
        members.push(member);
    }
    Ok(members)
}

/// The values of one `--set` key: its list, ranges expanded, duplicates dropped, boards
/// written `RxC`.
fn setting_values(key: &str, text: &str) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    let value = |v: usize| {
        if key == "board" {
            format!("{v}x{v}")
        } else {
            v.to_string()
        }
    };
    for item in text.split(',') {
        let item = item.trim();
        if item.is_empty() {
            return Err("an empty value in the list".into());
        }
        let values: Vec<String> = if let Some((lo, hi)) = item.split_once("..") {
            let hi = hi.strip_prefix('=').unwrap_or(hi);
            let bad =
                || format!("expected a range LO..HI of whole numbers, e.g. 4..6 (got '{item}')");
            let lo: usize = lo.trim().parse().map_err(|_| bad())?;
            let hi: usize = hi.trim().parse().map_err(|_| bad())?;
            if lo > hi {
                return Err(format!("the range {item} is empty (LO must not exceed HI)"));
            }
            if hi - lo >= MAX_PROBLEMS {
                return Err(format!(
                    "the range {item} has more than {MAX_PROBLEMS} values"
                ));
            }
            (lo..=hi).map(value).collect()
        } else if key == "board" {
            let normal: String = item
                .chars()
                .filter(|c| !c.is_whitespace())
                .map(|c| if c == 'X' || c == '×' { 'x' } else { c })
                .collect();
            vec![normal.parse().map_or(normal, value)]
        } else {
            vec![item.to_string()]
        };
        for v in values {
            if !out.contains(&v) {
                out.push(v);
            }
        }
        if out.len() > MAX_PROBLEMS {
            return Err(format!("more than {MAX_PROBLEMS} values"));
        }
    }
    Ok(out)
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

/// The options the encoder really uses for `problem`: `colouring` is the peaceable queens'
/// model; the general encoder reads it as `lines`.
fn effective(problem: &Problem, options: Options) -> Options {
    if options.model == Model::Colouring && problem.shape().queens_side().is_none() {
        Options {
            model: Model::Lines,
            ..options
        }
    } else {
        options
    }
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

    fn is_queens(&self) -> bool {
        self.family == FamilyKind::Queens
    }

    /// The optimum of each member from [`A250000`]: a(d) for the queens (where the table
    /// has it), none for a placement problem.
    fn table(&self) -> Vec<Option<usize>> {
        // `--around-optimum` centres on the queens' table only (a placement problem finds
        // its optimum with --verify); statuses come from every table ([`write_cnf`]).
        let queens = self.is_queens();
        let a = |m: &Member| known_optimum(m.problem.rules.layout.rows).filter(|_| queens);
        self.members.iter().map(a).collect()
    }

    /// True when planning needs each problem's optimum found first: `--around-optimum` on a
    /// placement problem that maximises some group (there is a table for the queens only).
    pub fn needs_optima(&self) -> bool {
        self.export.is_none()
            && !self.is_queens()
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
                            FamilyError::Invalid(if self.is_queens() {
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
                    let options = effective(&m.problem, options);
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
            let size = if self.is_queens() {
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

/// `s` with every character other than an ASCII letter, digit, `-` or `_` replaced by `-`
/// (`problem` when nothing is left).
pub fn file_safe(s: &str) -> String {
    let out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if out.trim_matches('-').is_empty() {
        "problem".into()
    } else {
        out
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
    ) -> Result<pq_engine::optimise::OptimiseOutcome, SolveError> {
        let limits = pq_engine::optimise::RunLimits {
            run: Limits::none(),
            step: Some(self.timeout),
        };
        let outcome = pq_engine::optimise::optimise(
            problem,
            options,
            pq_engine::optimise::Strategy::Up,
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

/// The optimum of each member (by index): found by [`pq_engine::optimise::optimise`] with the
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
        let outcome = v.optimise(&m.problem, &effective(&m.problem, spec.encodings[0]))?;
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
                    return invalid(if spec.is_queens() {
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
/// [`pq_engine::known::table`] knows the problem, `unknown` otherwise: proving it is the caller's
/// business.
pub(crate) fn write_cnf(
    spec: &Spec,
    p: &Planned,
    dir: &Path,
) -> Result<(Entry, pq_encode::Formula), FamilyError> {
    let member = &spec.members[p.member];
    let (problem, n) = (&member.problem, p.n);
    let (queens, l) = (spec.is_queens(), &problem.rules.layout);
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
    let (expected, source) = match pq_engine::known::table(problem) {
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
/// manifest entry: the optimum from a table ([`pq_engine::known::table`]) and, with `verify`, from pq-sat's
/// own optimiser (each step within its time limit), which must agree with the table.
fn write_optimisation(
    spec: &Spec,
    p: &Planned,
    format: Export,
    staging: &Path,
    verify: Option<&Verify>,
) -> Result<Entry, FamilyError> {
    let member = &spec.members[p.member];
    let (problem, queens) = (&member.problem, spec.is_queens());
    let name = spec.file_name(p);
    let path = staging.join(&name);
    let opt = maxsat::export(problem, &p.options, format)
        .map_err(|e| FamilyError::Invalid(format!("{}: {e}", member.label())))?;
    let written_options = pq_encode::header::options(&opt.formula.comments);
    let mut bytes = Vec::new();
    opt.write(&mut bytes).map_err(SolveError::io(&path))?;
    let written = compress::compressed(spec.compress, &bytes).map_err(SolveError::io(&path))?;
    fs::write(&path, &written).map_err(SolveError::io(&path))?;
    let known = pq_engine::known::table(problem);
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

/// The lowest size of `--around-optimum k` in words: `a(d)` itself for k = 1, else
/// `a(d)−(k−1)`.
fn offset(what: &str, k: usize) -> String {
    match k {
        0 | 1 => what.to_string(),
        k => format!("{what}−{}", k - 1),
    }
}

/// What a README says that depends on the kind of family.
struct ReadmeText {
    title: String,
    problem: String,
    instances: String,
    models: &'static str,
    header: &'static str,
    status: String,
    columns: &'static str,
}

/// The family's README, in the manner of a SAT-competition benchmark description.
fn readme(spec: &Spec, m: &Manifest, optima: &[Option<usize>]) -> String {
    if let Some(format) = spec.export {
        return optimisation_readme(spec, m, format);
    }
    let count = |s: Status| m.instances.iter().filter(|e| e.expected == s).count();
    let mut encodings: Vec<String> = Vec::new();
    for e in &m.instances {
        let name = format!("`{}` + `{}` + `{}`", e.model, e.card, e.symmetry);
        if !encodings.contains(&name) {
            encodings.push(name);
        }
    }
    let t = match spec.family {
        FamilyKind::Queens => queens_readme(spec),
        FamilyKind::Problem { .. } => problem_readme(spec, m, optima),
    };
    format!(
        "# {title}: a benchmark family\n\
\n\
Generated by {generator} with\n\n    {command}\n\n\
## The problem\n\
\n\
{problem}\n\
\n\
## The instances\n\
\n\
- {n_inst} files: {instances}.\n\
- Encodings: {encodings}. {models}\n\
- Sizes: up to {max_vars} variables and {max_clauses} clauses.\n\
- Every file starts with comment lines naming {header}\n\
\n\
## Expected status\n\
\n\
{sat} satisfiable, {unsat} unsatisfiable, {unknown} unknown. A status is given only where it\n\
is proven: from pq-sat's own solution of the file {status}\n\
\n\
## Files\n\
\n\
- `manifest.json`, `manifest.csv`: {columns}, its source, SHA-256 of the file and its GBD hash (the instance id of the Global Benchmark Database and the SAT competitions).\n\
- `*.cnf`: DIMACS CNF{compressed}.\n\
\n\
Run any solver on the family and check its answers with\n\
`pq-sat race DIR --backend kissat --backend minisat --run-timeout 60`.\n",
        title = t.title,
        compressed = match spec.compress {
            Compression::None => String::new(),
            c => format!(
                " compressed with {} (`*.cnf{}`; the SHA-256 is of the compressed file)",
                c.name(),
                c.extension()
            ),
        },
        generator = m.generator,
        command = m.command,
        problem = t.problem,
        n_inst = m.instances.len(),
        instances = t.instances,
        encodings = encodings.join(", "),
        models = t.models,
        max_vars = m.instances.iter().map(|e| e.variables).max().unwrap_or(0),
        max_clauses = m.instances.iter().map(|e| e.clauses).max().unwrap_or(0),
        header = t.header,
        sat = count(Status::Sat),
        unsat = count(Status::Unsat),
        unknown = count(Status::Unknown),
        status = t.status,
        columns = t.columns,
    )
}

/// The README of an optimisation family (`--instance-format wcnf|opb`): one file per
/// board, each stating the whole optimisation, its optimum in the manifest where known.
fn optimisation_readme(spec: &Spec, m: &Manifest, format: Export) -> String {
    let known = m.instances.iter().filter(|e| e.optimum.is_some()).count();
    let (what, solvers) = match format {
        Export::Wcnf => (
            "weighted partial MaxSAT in the MaxSAT Evaluation 2022+ format (`h` hard clauses, soft unit clauses of weight 1 on a unary ladder y_1 >= ... >= y_K that counts n; cost = K - n)",
            "--backend rc2",
        ),
        Export::Opb => (
            "linear pseudo-Boolean optimisation in the PB competition's OPB format (the rules as clauses, each maximised group's pieces >= y_1 + ... + y_K, objective min: -(y_1 + ... + y_K) = -n)",
            "--backend clasp",
        ),
    };
    let subject = match &spec.family {
        FamilyKind::Queens => "the peaceable armies of queens: the largest n such that n white and n black queens fit on a d x d board, none attacking the other colour (a(d), OEIS A250000)".to_string(),
        FamilyKind::Problem { .. } => format!("{}: the largest common size n of its maximised groups", m.family),
    };
    let compressed = match spec.compress {
        Compression::None => String::new(),
        c => format!(
            ", compressed with {} (the SHA-256 is of the compressed file)",
            c.name()
        ),
    };
    format!(
        "# {family}: an optimisation family ({name})

Generated by {generator} with

    {command}

Each of the {n} files states the optimisation of {subject}, as {what}{compressed}. Every file starts with pq-sat's header and `var` lines (as comments) mapping the piece variables to squares, so a model decodes into a board; encodings/README.md in pq-sat explains the formulation.

`manifest.json` / `manifest.csv` give per file its board, encoding, variables, constraints, `optimum` (known for {known} of {n}: from OEIS A250000, or pq-sat's own optimiser with its witness validated; the `source` column says which), SHA-256 and `format`. There is no GBD hash: GBD hashes CNF.

Race optimisers on the family, each optimum checked (model, decoded board, claimed value):
`pq-sat race DIR {solvers} --backend cadical --run-timeout 600` (cadical: pq-sat's own optimiser).
",
        family = m.family,
        name = format.name(),
        generator = m.generator,
        command = m.command,
        n = m.instances.len(),
    )
}

/// The README's own text for the peaceable queens.
fn queens_readme(spec: &Spec) -> ReadmeText {
    let dims: Vec<String> = spec
        .members
        .iter()
        .map(|m| m.problem.rules.layout.rows.to_string())
        .collect();
    let sizes = match spec.sizes {
        // Sizes below 1 are left out (a(d) is 0 on the smallest boards): the README's count
        // of statuses says how many of each the files are, not k and k.
        Sizes::AroundOptimum(k) => format!(
            "for each d, n = {}..a(d)+{k} (at least 1): the sizes around the optimum a(d)",
            offset("a(d)", k)
        ),
        Sizes::Range(lo, hi) => format!("n = {lo}..{hi} for each d (sizes with 2n > d² left out)"),
    };
    ReadmeText {
        title: "Peaceable armies of queens".into(),
        problem: "Place n white and n black queens on a d × d board so that no queen attacks a queen of the\n\
other colour (same row, column, diagonal or anti-diagonal; pieces in between do not block).\n\
Each file asks whether at least n queens of each colour fit. The largest such n is a(d),\n\
OEIS A250000; proving that a(d)+1 does not fit is the hard, unsatisfiable part, and its\n\
difficulty grows steeply with d (d = 10 takes a modern solver about a minute, d = 11 over\n\
ten minutes).".into(),
        instances: format!("board sizes d = {}; {sizes}", dims.join(", ")),
        models: "`colouring` gives each line (row, column, diagonal) one\n\
  colour variable; `lines` uses per-colour line indicators; `pairwise` forbids every\n\
  attacking pair directly. `totalizer` / `seqcounter` encode \"at least n\" per colour.\n\
  `lex-leader` adds symmetry-breaking clauses for the 16 symmetries (8 of the board × the\n\
  colour swap): these preserve satisfiability, so the status of a file with and without them\n\
  is the same, but a proof of unsatisfiability certifies the formula with those clauses.",
        header: "d, n and the encoding, and `c var K white R C`\n\
  lines mapping the queen variables to squares, so a model can be decoded and checked.",
        status: format!("(a satisfiable answer's model was decoded\n\
and checked by an independent validator) or from {A250000_SOURCE}. The `source` column of\n\
`manifest.csv` / `manifest.json` says which, per file."),
        columns: "file, d, n, model, card, symmetry, variables, clauses,\n\
  expected status",
    }
}

/// The README's own text for a placement problem.
fn problem_readme(spec: &Spec, m: &Manifest, optima: &[Option<usize>]) -> ReadmeText {
    let file = m.problem_file.clone().unwrap_or_default();
    let base = &spec.members[0].problem;
    let mut keys: Vec<(String, Vec<String>)> = Vec::new();
    for member in &spec.members {
        for (k, v) in &member.settings {
            match keys.iter_mut().find(|(key, _)| key == k) {
                Some((_, values)) if !values.contains(v) => values.push(v.clone()),
                Some(_) => {}
                None => keys.push((k.clone(), vec![v.clone()])),
            }
        }
    }
    let problems = if keys.is_empty() {
        format!("the problem as the file states it ({})", base.summary())
    } else {
        let listed: Vec<String> = keys
            .iter()
            .map(|(k, v)| format!("`{k}` = {}", v.join(", ")))
            .collect();
        format!(
            "{} problem{}, every combination of {}",
            spec.members.len(),
            if spec.members.len() == 1 { "" } else { "s" },
            listed.join("; ")
        )
    };
    let maximising = spec
        .members
        .iter()
        .any(|member| !member.problem.maximised().is_empty());
    let sizes = match spec.sizes {
        _ if !maximising => {
            "every count is fixed (no group is maximised), so each problem is one file per encoding"
                .to_string()
        }
        Sizes::Range(lo, hi) => format!(
            "n = {lo}..{hi} pieces in each maximised group (sizes whose pieces cannot all have a square left out)"
        ),
        Sizes::AroundOptimum(k) => {
            let found: Vec<String> = spec
                .members
                .iter()
                .zip(optima)
                .filter_map(|(member, a)| a.map(|a| format!("{}: {a}", member.label())))
                .collect();
            format!(
                "n = {}..optimum+{k} pieces in each maximised group, around the optimum pq-sat proved first for each problem ({})",
                offset("optimum", k),
                found.join("; ")
            )
        }
    };
    let name_of = |g: usize| base.rules.groups[g].name.as_str();
    let groups: Vec<String> = base
        .rules
        .groups
        .iter()
        .map(|g| format!("{} ({})", g.name, g.kind))
        .collect();
    let no_attack: Vec<String> = base
        .rules
        .no_attack
        .iter()
        .map(|&(a, b)| {
            if a == b {
                format!("within {}", name_of(a))
            } else {
                format!("between {} and {}", name_of(a), name_of(b))
            }
        })
        .collect();
    let description = if base.description.is_empty() {
        String::new()
    } else {
        format!("{}\n\n", base.description)
    };
    ReadmeText {
        title: m.family.clone(),
        problem: format!("{description}From `{file}`: groups {}; no attacks {}. Each file asks whether the pieces fit with every\n\
fixed count met and at least n pieces in each maximised group (the groups with count\n\
`max`, which share one size n), no piece attacking one it must not attack (pieces in between\n\
do not block).", groups.join(", "), no_attack.join(", ")),
        instances: format!("{problems}; {sizes}"),
        models: "`lines` uses line indicators per group (`colouring`, the\n\
  peaceable queens' own model, is written as `lines` for other problems); `pairwise` forbids\n\
  every attacking pair directly. `totalizer` / `seqcounter` encode \"at least n\" per group.\n\
  `lex-leader` adds symmetry-breaking clauses for the problem's symmetries: these preserve\n\
  satisfiability, so the status of a file with and without them is the same, but a proof\n\
  of unsatisfiability certifies the formula with those clauses.",
        header: "the board, the groups with their counts,\n\
  which groups must not attack which, and the encoding, and `c var` lines mapping the piece\n\
  variables to squares, so a model can be decoded and checked (`pq-sat solve --cnf FILE`).",
        status: "(`--verify`; a satisfiable answer's model\n\
was decoded and checked by an independent validator). There is no table of known values\n\
for this problem. The `source` column of `manifest.csv` / `manifest.json` says who proved\n\
each status.".into(),
        columns: "file, problem, settings, rows, cols, torus, n, model,\n\
  card, symmetry, variables, clauses, expected status",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pq_encode::{Model, Symmetry};

    /// The file names `spec` plans, in order.
    fn file_names(spec: &Spec) -> Vec<String> {
        let plan = spec.plan().unwrap();
        plan.iter().map(|p| spec.file_name(p)).collect()
    }

    const THREE_ARMIES: &str = include_str!("../../../encodings/three-armies.toml");
    const DUDENEY: &str = include_str!("../../../encodings/crowded-chessboard.toml");

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
