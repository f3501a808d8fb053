//! The splitter of `pq-sat cube`: a formula into cubes whose disjunction it implies (up to
//! symmetry where the formula does not break it), in two stages.
//!
//! 1. **Line colours** (the colouring model of the peaceable queens, whose `6d − 2` line
//!    variables, true = white-only, decide everything else): every assignment of a prefix
//!    of the lex-leader sequence (the rows; or rows, then columns, then diagonals), less
//!    - the cubes a symmetry that maps the prefix onto itself sends to a lex-smaller cube
//!      (with lex-leader clauses in the formula those cubes hold no lex-leader solution;
//!      without, they are the same problem as their smaller image: encodings/README.md,
//!      "Cubes and symmetry", has the argument and why no other symmetry may be used);
//!    - the cubes whose counts rule them out: a white queen needs a white row and a white
//!      column, so `k_r` white rows and `k_c` white columns hold at most `k_r · k_c` white
//!      queens (and `(d − k_r)(d − k_c)` black ones), fewer than `n` refutes the cube;
//!    - the cubes unit propagation refutes.
//! 2. **Look-ahead** (the march_cu idea: Heule, Kullmann, Wieringa & Biere, "Cube and
//!    conquer: guiding CDCL SAT solvers by lookaheads", HVC 2011): a cube that is not yet
//!    easy is split on the variable whose two branches assign the most by propagation (the
//!    product of the two counts, march's measure: Heule & van Maaren, "March_dl", JSAT
//!    2006), until at most `free` search variables are left or `depth` look-ahead
//!    decisions are made; failed literals are kept and branches refuted by propagation
//!    are dropped. Works on any CNF: the search variables are the line variables when the
//!    formula is the colouring model, else every variable (each node tries the
//!    [`CANDIDATES`] free ones that occur most).
//!
//! Every cube dropped is refuted by the formula, except the symmetry drops of a formula
//! without lex-leader clauses (then the cubes are complete up to symmetry only:
//! [`Record::implied`] says which).

mod lookahead;

use lookahead::{occurrences, Lookahead};
use rustsat::encodings::card::{BoundBoth, Totalizer};
use rustsat::instances::{BasicVarManager, ManageVars};
use rustsat::types::{Lit, Var};
use serde::Serialize;

use pq_encode::geometry::{BoardSymmetry, Geometry};
use pq_encode::problem::Extent;
use pq_encode::{Formula, Instance};

use super::propagate::Propagator;

/// The default cutoff of the look-ahead on the colouring model: a line cube is split
/// further while more than this many line variables are free after propagation. 53 =
/// 5·11 − 2 is what a row cube leaves free at d = 11, where the largest row cube took 3–5 s
/// (kissat, measured when the splitter was planned): row cubes stay whole up to d = 11, and
/// the look-ahead splits them from d = 12 on.
pub const DEFAULT_FREE_LINES: usize = 53;
/// The default number of look-ahead decisions on top of a cube's line prefix: at most
/// `2^8` cubes from one line cube (or from a whole formula without line structure).
pub const DEFAULT_DEPTH: usize = 8;
/// The board sides on which `auto` splits the colouring model on the rows and the first
/// two columns (a prefix of `d + 2` line variables) rather than on the rows alone. Measured
/// on two workers (BENCHMARKS.md, "Cube variables"): 0.87 of the rows' wall time at
/// 10/15 and 0.83 at 11/18; at 9/13 the extra cubes cost more than they save (1.3x); from
/// d = 12 on, where the look-ahead splits the row cubes anyway, it was not measured, so
/// the rows stay.
pub const AUTO_TWO_COLUMNS: std::ops::RangeInclusive<usize> = 10..=11;
/// Line cubes are enumerated one by one: at most this many prefix variables.
pub const MAX_PREFIX: usize = 24;
/// Look-ahead candidates per node on a formula without line structure: the free
/// variables with the most occurrences (march's pre-selection, simplified).
pub const CANDIDATES: usize = 64;

/// The colouring model's line variables in a formula, as the splitter uses them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lines {
    /// The board's side.
    pub dim: usize,
    /// The army size the formula demands at least.
    pub n: usize,
    /// The line variables in line order ([`Geometry::lines_through`]): rows, columns,
    /// diagonals, anti-diagonals; the lex-leader sequence of the colouring model.
    pub vars: Vec<Lit>,
    /// The formula carries lex-leader clauses over them.
    pub lex_leader: bool,
}

impl Lines {
    /// The line variables of a formula pq-sat encoded, from its [`pq_encode::LineMap`] (`None`
    /// for any model but the colouring model's), the formula demanding `n` of each colour.
    pub fn of(formula: &Formula, n: usize) -> Option<Lines> {
        let map = formula.lines.as_ref()?;
        Some(Lines {
            dim: map.dim,
            n,
            vars: map.vars.clone(),
            lex_leader: map.lex_leader,
        })
    }

    /// The line structure of a formula read from a file: only when its header names the
    /// peaceable queens in the colouring model and its clauses are exactly those pq-sat
    /// writes for that header (so a hand-edited file is split by look-ahead alone).
    pub fn recognise(formula: &Formula) -> Option<Lines> {
        use pq_encode::header;
        let (problem, n) = header::subject(formula);
        let (problem, n) = (problem?, n?);
        let d = problem.shape().queens_side()?;
        let options = header::options(&formula.comments);
        let instance = Instance::new(d, n).ok()?;
        [Extent::AtLeast, Extent::Exactly, Extent::Maximal]
            .into_iter()
            .map(|e| instance.with_extent(e))
            .find_map(|i| {
                let mine = pq_encode::encode(&i, &options);
                (mine.n_vars == formula.n_vars && mine.cnf == formula.cnf).then_some(mine)
            })
            .and_then(|mine| Lines::of(&mine, n))
    }

    /// The 16 elements of the group (8 board symmetries × colour swap) acting on line
    /// positions as the lex-leader clauses read them (`pq_encode::symmetry`): position
    /// `l` of the image is line `perm[l]` of the original, negated when `swap`.
    fn group(&self) -> Vec<(Vec<usize>, bool)> {
        let g = Geometry::new(self.dim);
        let mut out = Vec::new();
        for swap in [false, true] {
            for b in BoardSymmetry::ALL {
                let perm = (0..g.n_lines()).map(|l| g.image_of_line(b, l)).collect();
                out.push((perm, swap));
            }
        }
        out
    }
}

/// How to split.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// Rows (and the first two columns on the boards of [`AUTO_TWO_COLUMNS`]), then
    /// look-ahead, for the colouring model; look-ahead alone otherwise.
    Auto,
    /// The row colours, then look-ahead.
    Rows,
    /// A prefix of the line colours (rows, columns, diagonals), then look-ahead.
    Lines,
    /// The numbers of white rows and of white columns, `(k_r, k_c)`, through counters
    /// added to the formula, then look-ahead.
    Counts,
    /// Look-ahead alone.
    Lookahead,
}

/// The splitter's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The method.
    pub method: Method,
    /// For [`Method::Lines`]: how many line variables the prefix has [default: `2d`, the
    /// rows and columns].
    pub prefix: Option<usize>,
    /// At most this many look-ahead decisions per cube [default: [`DEFAULT_DEPTH`]].
    pub depth: Option<usize>,
    /// A cube is easy when at most this many search variables are free after
    /// propagation [default: [`DEFAULT_FREE_LINES`] on the colouring model; 0 otherwise,
    /// so that the depth decides].
    pub free: Option<usize>,
}

/// What the splitter did: the manifest's `split` record.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Record {
    /// `rows`, `lines`, `counts` or `lookahead` (what ran, after `auto` chose).
    pub method: String,
    /// The number of line variables the line cubes assign (0: none).
    pub prefix: usize,
    /// The first stage's cubes before any was dropped: `2^prefix` line cubes, or
    /// `(d + 1)²` pairs of counts with `counts`.
    pub line_cubes: u64,
    /// Line cubes dropped by symmetry.
    pub dropped_by_symmetry: u64,
    /// Line cubes dropped by the counting bound.
    pub dropped_by_counts: u64,
    /// Cubes (line cubes and look-ahead branches) refuted by unit propagation.
    pub refuted_by_propagation: u64,
    /// The symmetries used on the line cubes (those mapping the prefix onto itself), out
    /// of 16.
    pub symmetries: usize,
    /// The look-ahead's depth limit.
    pub depth: usize,
    /// The look-ahead's free-variable cutoff.
    pub free: usize,
    /// Look-ahead decisions made (each one cube split in two).
    pub lookahead_splits: u64,
    /// The formula implies the disjunction of the cubes (every dropped cube is refuted by
    /// it); false after symmetry drops on a formula without lex-leader clauses, where the
    /// cubes are complete up to symmetry only.
    pub implied: bool,
    /// The number of cubes written.
    pub cubes: usize,
}

/// The cubes, DIMACS literals, and the record of how they were made.
#[derive(Clone, Debug)]
pub struct Split {
    /// The cubes in order (ids 1..=N).
    pub cubes: Vec<Vec<i32>>,
    /// How.
    pub record: Record,
    /// The formula the cubes are over when the splitter extended the one it was given
    /// ([`Method::Counts`] adds counters of the white rows and columns); `None` when the
    /// cubes are over the given formula itself.
    pub extended: Option<Formula>,
}

/// Splits `formula` (`lines`: its colouring-model structure, if it has one).
///
/// # Errors
/// A method that needs line variables on a formula without them, or a prefix longer than
/// the lines or than [`MAX_PREFIX`].
pub fn split(
    formula: &Formula,
    lines: Option<&Lines>,
    settings: &Settings,
    tick: Tick<'_>,
) -> Result<Split, String> {
    let mut auto_prefix = None;
    let method = match (settings.method, lines) {
        (Method::Auto, Some(l)) if AUTO_TWO_COLUMNS.contains(&l.dim) => {
            auto_prefix = Some(l.dim + 2);
            Method::Lines
        }
        (Method::Auto, Some(_)) => Method::Rows,
        (Method::Auto, None) => Method::Lookahead,
        (m @ (Method::Rows | Method::Lines | Method::Counts), None) => {
            return Err(format!(
                "--split {}: needs the colouring model's line variables (the peaceable queens with --model colouring); use --split lookahead for this formula",
                m.name()
            ))
        }
        (m, _) => m,
    };
    let prefix = match (method, lines) {
        (Method::Rows, Some(l)) => l.dim,
        (Method::Lines, Some(l)) => {
            let p = (settings.prefix.or(auto_prefix)).unwrap_or(2 * l.dim);
            if p == 0 || p > l.vars.len() || p > MAX_PREFIX {
                return Err(format!(
                    "--prefix {p}: give 1 to {} line variables (at most {MAX_PREFIX}: the line cubes are listed one by one)",
                    l.vars.len().min(MAX_PREFIX)
                ));
            }
            p
        }
        _ => 0,
    };
    if prefix > MAX_PREFIX {
        return Err(format!(
            "the rows of a {prefix}x{prefix} board are {prefix} line variables, more than the {MAX_PREFIX} whose cubes pq-sat lists one by one; use --split lookahead"
        ));
    }
    let depth = settings.depth.unwrap_or(DEFAULT_DEPTH);
    let free = settings.free.unwrap_or(if lines.is_some() {
        DEFAULT_FREE_LINES
    } else {
        0
    });
    let mut record = Record {
        method: method.name().into(),
        prefix,
        line_cubes: 1 << prefix,
        dropped_by_symmetry: 0,
        dropped_by_counts: 0,
        refuted_by_propagation: 0,
        symmetries: 1,
        depth,
        free,
        lookahead_splits: 0,
        implied: true,
        cubes: 0,
    };
    let counters = match (method, lines) {
        (Method::Counts, Some(l)) => Some(Counters::add(formula, l)),
        _ => None,
    };
    let over = counters.as_ref().map_or(formula, |c| &c.formula);
    let mut prop = Propagator::new(&over.cnf, over.n_vars);
    let search: Vec<Lit> = match lines {
        Some(l) => l.vars.clone(),
        None => (0..formula.n_vars).map(Lit::positive).collect(),
    };
    let occurrences = occurrences(over);
    let mut ahead = Lookahead {
        prop: &mut prop,
        search: &search,
        preselect: lines.is_none(),
        occurrences: &occurrences,
        depth,
        free,
        cubes: Vec::new(),
        refuted: 0,
        splits: 0,
        tick,
        stage: (0, 0),
        stopped: false,
    };
    if ahead.prop.refuted_at_root() {
        // The formula refutes itself: no cube is needed.
        record.refuted_by_propagation = 1;
        return Ok(Split {
            cubes: Vec::new(),
            record,
            extended: counters.map(|c| c.formula),
        });
    }
    let first = match (lines, &counters) {
        (Some(l), Some(c)) => count_cubes(l, c, &mut record),
        (Some(l), None) if prefix > 0 => line_cubes(l, prefix, &mut record, tick)?,
        _ => vec![Vec::new()],
    };
    ahead.stage.1 = first.len() as u64;
    for cube in first {
        if ahead.stopped {
            return Err(STOPPED.into());
        }
        ahead.stage.0 += 1;
        let mark = ahead.prop.level_mark();
        if ahead.prop.assume(&cube) {
            let mut cube = cube;
            ahead.grow(&mut cube, 0);
        } else {
            record.refuted_by_propagation += 1;
        }
        ahead.prop.backtrack(mark);
    }
    if ahead.stopped {
        return Err(STOPPED.into());
    }
    record.refuted_by_propagation += ahead.refuted;
    record.lookahead_splits = ahead.splits;
    let cubes: Vec<Vec<i32>> = (ahead.cubes.iter())
        .map(|c| c.iter().map(|l| l.to_ipasir()).collect())
        .collect();
    record.cubes = cubes.len();
    Ok(Split {
        cubes,
        record,
        extended: counters.map(|c| c.formula),
    })
}

impl Method {
    /// The name the CLI and the manifest use.
    pub fn name(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Rows => "rows",
            Method::Lines => "lines",
            Method::Counts => "counts",
            Method::Lookahead => "lookahead",
        }
    }
}

/// `formula` with the counters [`Method::Counts`] adds (what its cube directory holds).
pub(crate) fn with_counters(formula: &Formula, lines: &Lines) -> Formula {
    Counters::add(formula, lines).formula
}

impl Settings {
    /// The settings that reproduce a split from its [`Record`] (a manifest's `split`), the
    /// method as it ran (after `auto` chose) and every default made explicit.
    ///
    /// # Errors
    /// A record that names no method pq-sat knows, or lacks a parameter.
    pub fn of_record(record: &serde_json::Value) -> Result<Settings, String> {
        let bad = |what: &str| format!("the manifest's split record has no valid {what}");
        let method = match record.get("method").and_then(|m| m.as_str()) {
            Some("rows") => Method::Rows,
            Some("lines") => Method::Lines,
            Some("counts") => Method::Counts,
            Some("lookahead") => Method::Lookahead,
            _ => return Err(bad("method")),
        };
        let number = |key: &str| {
            (record.get(key).and_then(serde_json::Value::as_u64))
                .and_then(|v| usize::try_from(v).ok())
                .ok_or_else(|| bad(key))
        };
        Ok(Settings {
            method,
            prefix: (method == Method::Lines)
                .then(|| number("prefix"))
                .transpose()?,
            depth: Some(number("depth")?),
            free: Some(number("free")?),
        })
    }
}

/// The formula with two counters added for [`Method::Counts`]: totalizers (Bailleux &
/// Boufkhad, "Efficient CNF encoding of Boolean cardinality constraints", CP 2003) over the
/// row and the column line variables, with both directions of every output, so that each
/// output is defined as "at least k white rows" (columns). Every clause added mentions a
/// fresh variable it defines, so each model of the formula extends to exactly one model of
/// the extended formula: the two are UNSAT together, and a cube over the outputs says
/// exactly how many rows and columns are white.
struct Counters {
    formula: Formula,
    rows: Totalizer,
    cols: Totalizer,
}

impl Counters {
    fn add(formula: &Formula, lines: &Lines) -> Counters {
        let d = lines.dim;
        let mut cnf = formula.cnf.clone();
        let mut vars = BasicVarManager::from_next_free(Var::new(formula.n_vars));
        let mut count = |lits: &[Lit]| {
            let mut tot: Totalizer = lits.iter().copied().collect();
            tot.encode_both(0..=d, &mut cnf, &mut vars)
                .expect("a Cnf collector does not run out of memory");
            tot
        };
        let rows = count(&lines.vars[..d]);
        let cols = count(&lines.vars[d..2 * d]);
        let n_vars = vars.max_var().map_or(formula.n_vars, |v| v.idx32() + 1);
        let mut comments = formula.comments.clone();
        comments.push(format!(
            "counters (pq-sat cube --split counts): variables {} to {n_vars} are two totalizers (Bailleux & Boufkhad 2003, both directions) defining \"at least k white rows\" and \"at least k white columns\"; each model of the formula without them extends to exactly one model with them",
            formula.n_vars + 1
        ));
        Counters {
            formula: Formula {
                cnf,
                n_vars,
                comments,
                pieces: formula.pieces.clone(),
                lines: formula.lines.clone(),
            },
            rows,
            cols,
        }
    }

    /// The cube "exactly `kr` white rows and exactly `kc` white columns".
    fn exactly(&self, kr: usize, kc: usize) -> Vec<Lit> {
        let mut cube = self.rows.enforce_eq(kr).expect("every count is encoded");
        cube.extend(self.cols.enforce_eq(kc).expect("every count is encoded"));
        cube
    }
}

/// The count cubes: one per pair `(k_r, k_c)` of numbers of white rows and columns, in
/// lex order, less the pairs the counting bound rules out and, without lex-leader
/// clauses, those a symmetry maps to a smaller pair. The lex-leader clauses allow no
/// symmetry drop here: a transposed board has `(k_c, k_r)`, but whether the lex-leader
/// of an orbit is the board or its transpose depends on the board, not on its counts
/// (encodings/README.md, "Cubes and symmetry").
fn count_cubes(lines: &Lines, counters: &Counters, record: &mut Record) -> Vec<Vec<Lit>> {
    let (d, n) = (lines.dim, lines.n);
    record.line_cubes = ((d + 1) * (d + 1)) as u64;
    if !lines.lex_leader {
        // The whole group maps count pairs to count pairs: the quarter turns and the
        // diagonal mirrors exchange rows and columns, the colour swap complements.
        record.symmetries = 16;
        record.implied = false;
    }
    let mut out = Vec::new();
    for kr in 0..=d {
        for kc in 0..=d {
            let images = [(kc, kr), (d - kr, d - kc), (d - kc, d - kr)];
            if !lines.lex_leader && images.iter().any(|&p| p < (kr, kc)) {
                record.dropped_by_symmetry += 1;
            } else if kr * kc < n || (d - kr) * (d - kc) < n {
                record.dropped_by_counts += 1;
            } else {
                out.push(counters.exactly(kr, kc));
            }
        }
    }
    out
}

/// The line cubes over the first `prefix` line variables, in lex order (row 0 the most
/// significant), less those dropped by symmetry and by counts (counted in `record`).
fn line_cubes(
    lines: &Lines,
    prefix: usize,
    record: &mut Record,
    tick: Tick<'_>,
) -> Result<Vec<Vec<Lit>>, String> {
    // Only the symmetries that map the prefix onto itself: for them the image of a cube
    // is again a cube over the prefix (encodings/README.md, "Cubes and symmetry").
    let stabiliser: Vec<(Vec<usize>, bool)> = (lines.group().into_iter())
        .filter(|(perm, _)| perm[..prefix].iter().all(|&q| q < prefix))
        .collect();
    record.symmetries = stabiliser.len();
    if !lines.lex_leader && stabiliser.len() > 1 {
        record.implied = false;
    }
    let mut out = Vec::new();
    for bits in 0..1u64 << prefix {
        let progress = Progress {
            done: bits,
            total: 1 << prefix,
            cubes: out.len(),
        };
        if bits % 4096 == 0 && tick(progress) {
            return Err(STOPPED.into());
        }
        // Position i is bit prefix − 1 − i: numeric order is lex order.
        let c: Vec<bool> = (0..prefix)
            .map(|i| bits >> (prefix - 1 - i) & 1 == 1)
            .collect();
        let smaller_image = stabiliser.iter().any(|(perm, swap)| {
            let image = (0..prefix).map(|i| c[perm[i]] ^ swap);
            image.lt(c.iter().copied())
        });
        if smaller_image {
            record.dropped_by_symmetry += 1;
        } else if !counts_allow(lines, &c) {
            record.dropped_by_counts += 1;
        } else {
            let cube = (0..prefix)
                .map(|i| if c[i] { lines.vars[i] } else { !lines.vars[i] })
                .collect();
            out.push(cube);
        }
    }
    Ok(out)
}

/// Whether the rows and columns a line cube colours leave room for `n` queens of each
/// colour: at most (white or open rows) × (white or open columns) white queens, and the
/// same for black.
fn counts_allow(lines: &Lines, c: &[bool]) -> bool {
    let d = lines.dim;
    let tally = |range: std::ops::Range<usize>| {
        let set: Vec<bool> = range.filter_map(|i| c.get(i).copied()).collect();
        let white = set.iter().filter(|&&w| w).count();
        let open = d - set.len();
        (white + open, set.len() - white + open)
    };
    let (white_rows, black_rows) = tally(0..d);
    let (white_cols, black_cols) = tally(d..2 * d);
    white_rows * white_cols >= lines.n && black_rows * black_cols >= lines.n
}

/// How far a split has got: the first stage's cubes looked at (line cubes, or pairs of
/// counts) out of how many, and the cubes made so far.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// First-stage cubes looked at.
    pub done: u64,
    /// First-stage cubes in all.
    pub total: u64,
    /// Cubes made so far.
    pub cubes: usize,
}

/// Called at every step of a split with how far it has got; `true` stops it (a deadline,
/// Ctrl-C), and [`split`] then returns [`STOPPED`]. Steps are short: the look-ahead's
/// nodes and the line cubes one by one.
pub(crate) type Tick<'a> = &'a dyn Fn(Progress) -> bool;

/// The error of a split its [`Tick`] stopped.
pub(crate) const STOPPED: &str = "stopped before the split was done";

#[cfg(test)]
mod tests {
    use super::*;
    use pq_encode::{Model, Options, Symmetry};
    use rustsat::solvers::{Solve, SolveIncremental, SolverResult};

    fn queens(d: usize, n: usize, symmetry: Symmetry) -> (Formula, Lines) {
        let instance = Instance::new(d, n).unwrap();
        let options = Options {
            symmetry,
            ..Options::default()
        };
        let f = pq_encode::encode(&instance, &options);
        let lines = Lines::of(&f, n).unwrap();
        (f, lines)
    }

    fn settings(method: Method) -> Settings {
        Settings {
            method,
            prefix: None,
            depth: None,
            free: None,
        }
    }

    fn lit(d: i32) -> Lit {
        Lit::from_ipasir(d).unwrap()
    }

    /// The formula and the negation of every cube: UNSAT exactly when the formula implies
    /// the cubes' disjunction.
    fn implied(f: &Formula, cubes: &[Vec<i32>]) -> bool {
        let mut s = rustsat_cadical::CaDiCaL::default();
        s.add_cnf(f.cnf.clone()).unwrap();
        for c in cubes {
            let negated: Vec<Lit> = c.iter().map(|&d| !lit(d)).collect();
            s.add_clause(negated.as_slice().into()).unwrap();
        }
        s.solve().unwrap() == SolverResult::Unsat
    }

    #[test]
    fn line_variables_are_the_colouring_models() {
        let (f, lines) = queens(5, 3, Symmetry::LexLeader);
        let g = Geometry::new(5);
        let clauses: std::collections::HashSet<Vec<i32>> = (f.cnf.iter())
            .map(|c| {
                let mut v: Vec<i32> = c.iter().map(|l| l.to_ipasir()).collect();
                v.sort_unstable();
                v
            })
            .collect();
        for s in 0..25 {
            for l in g.lines_through(s) {
                // A white queen on s makes each of its lines white-only.
                let mut c = vec![-(s as i32 + 1), lines.vars[l].to_ipasir()];
                c.sort_unstable();
                assert!(clauses.contains(&c), "square {s} line {l}");
            }
        }
        let other = Options {
            model: Model::Lines,
            ..Options::default()
        };
        let f = pq_encode::encode(&Instance::new(5, 3).unwrap(), &other);
        assert!(Lines::of(&f, 3).is_none());
    }

    #[test]
    fn a_written_formula_is_recognised_and_an_edited_one_is_not() {
        let (f, lines) = queens(5, 3, Symmetry::LexLeader);
        let mut bytes = Vec::new();
        pq_encode::dimacs::write(&f, &mut bytes).unwrap();
        let read = pq_encode::dimacs::parse(&bytes[..]).unwrap();
        assert_eq!(Lines::recognise(&read), Some(lines));
        let mut edited = read.clone();
        edited.cnf.add_unit(lit(1));
        assert_eq!(Lines::recognise(&edited), None);
        let bare = pq_encode::dimacs::parse(&b"p cnf 2 1\n1 2 0\n"[..]).unwrap();
        assert_eq!(Lines::recognise(&bare), None);
    }

    /// Rows: 2^d line cubes, each dropped once or kept; with lex-leader every dropped cube
    /// is refuted by the formula (formula ∧ ¬cubes is UNSAT), for rows, rows and columns,
    /// and look-ahead on top.
    #[test]
    fn lex_leader_cubes_are_implied_by_the_formula() {
        for (d, n) in [(4, 2), (5, 3), (5, 4), (6, 4), (6, 5), (6, 6)] {
            let (f, lines) = queens(d, n, Symmetry::LexLeader);
            for s in [
                settings(Method::Rows),
                settings(Method::Lines),
                Settings {
                    prefix: Some(d + 2),
                    ..settings(Method::Lines)
                },
                Settings {
                    free: Some(0),
                    depth: Some(3),
                    ..settings(Method::Rows)
                },
                Settings {
                    depth: Some(4),
                    ..settings(Method::Lookahead)
                },
            ] {
                let split = split(&f, Some(&lines), &s, &|_| false).unwrap();
                let r = &split.record;
                assert!(r.implied);
                if r.lookahead_splits == 0 && r.prefix > 0 {
                    assert_eq!(
                        r.cubes as u64,
                        r.line_cubes
                            - r.dropped_by_symmetry
                            - r.dropped_by_counts
                            - r.refuted_by_propagation,
                        "{d} {n} {s:?}"
                    );
                }
                assert!(implied(&f, &split.cubes), "{d} {n} {s:?}");
            }
        }
    }

    /// Without lex-leader, symmetry drops leave the lex-least cube of every orbit under
    /// the prefix's stabiliser, and the record says the cubes are not implied.
    #[test]
    fn without_lex_leader_each_orbit_keeps_its_least_cube() {
        let (f, lines) = queens(6, 4, Symmetry::None);
        for prefix in [6, 12] {
            let s = Settings {
                prefix: Some(prefix),
                depth: Some(0),
                ..settings(Method::Lines)
            };
            let split = split(&f, Some(&lines), &s, &|_| false).unwrap();
            assert!(!split.record.implied);
            assert_eq!(split.record.symmetries, if prefix == 6 { 8 } else { 16 });
            let kept: std::collections::HashSet<Vec<bool>> = (split.cubes.iter())
                .map(|c| c.iter().map(|&l| l > 0).collect())
                .collect();
            let stabiliser: Vec<_> = (lines.group().into_iter())
                .filter(|(perm, _)| perm[..prefix].iter().all(|&q| q < prefix))
                .collect();
            for bits in 0..1u64 << prefix {
                let c: Vec<bool> = (0..prefix)
                    .map(|i| bits >> (prefix - 1 - i) & 1 == 1)
                    .collect();
                if !counts_allow(&lines, &c) {
                    continue;
                }
                let least: Vec<bool> = (stabiliser.iter())
                    .map(|(perm, swap)| (0..prefix).map(|i| c[perm[i]] ^ swap).collect())
                    .min()
                    .unwrap();
                // The least image passes the counts too (they are symmetric).
                let mut p = Propagator::new(&f.cnf, f.n_vars);
                let refuted = !p.assume(
                    &(0..prefix)
                        .map(|i| {
                            if least[i] {
                                lines.vars[i]
                            } else {
                                !lines.vars[i]
                            }
                        })
                        .collect::<Vec<_>>(),
                );
                assert!(refuted || kept.contains(&least), "{least:?}");
            }
        }
    }

    /// The row cubes kept, counted independently: the row stabiliser acts on a row
    /// colouring `c` as reversal (mirror top–bottom, half turn) and complement (colour
    /// swap), and the mirror left–right fixes every row; so a cube is kept when it is ≤lex
    /// its reverse, its complement and its reversed complement, and has room for `n` queens
    /// of each colour (`k · d ≥ n` and `(d − k) · d ≥ n` for `k` white rows).
    #[test]
    fn row_cubes_are_those_least_under_reversal_and_complement() {
        for (d, n) in [(4, 2), (5, 4), (6, 5), (7, 7), (8, 10)] {
            let (f, lines) = queens(d, n, Symmetry::LexLeader);
            let s = Settings {
                depth: Some(0),
                ..settings(Method::Rows)
            };
            let split = split(&f, Some(&lines), &s, &|_| false).unwrap();
            let expected = (0..1u32 << d)
                .filter(|&bits| {
                    let c: Vec<bool> = (0..d).map(|i| bits >> (d - 1 - i) & 1 == 1).collect();
                    let rev: Vec<bool> = c.iter().rev().copied().collect();
                    let not = |v: &[bool]| v.iter().map(|b| !b).collect::<Vec<bool>>();
                    let k = c.iter().filter(|&&w| w).count();
                    c <= rev && c <= not(&c) && c <= not(&rev) && k * d >= n && (d - k) * d >= n
                })
                .count();
            let r = &split.record;
            assert_eq!(
                r.cubes as u64 + r.refuted_by_propagation,
                expected as u64,
                "{d} {n}"
            );
        }
    }

    /// Counts: the counters say exactly how many rows and columns are white. The pairs
    /// whose cube the extended formula admits are exactly the pairs some model of the
    /// formula has (found by trying every colouring of the rows and columns on the formula
    /// without counters); the cubes are one per pair the bound allows, and implied by the
    /// extended formula under lex-leader.
    #[test]
    fn count_cubes_fix_the_numbers_of_white_rows_and_columns() {
        for (d, n, symmetry) in [
            (4, 2, Symmetry::LexLeader),
            (5, 3, Symmetry::LexLeader),
            (5, 4, Symmetry::None),
        ] {
            let (f, lines) = queens(d, n, symmetry);
            let s = Settings {
                depth: Some(0),
                ..settings(Method::Counts)
            };
            let split = split(&f, Some(&lines), &s, &|_| false).unwrap();
            let r = &split.record;
            let ext = split.extended.as_ref().expect("counters added");
            assert_eq!(r.method, "counts");
            assert!(ext.n_vars > f.n_vars && ext.cnf.len() > f.cnf.len());
            assert_eq!(ext.pieces, f.pieces);
            let counters = Counters::add(&f, &lines);
            let mut plain = rustsat_cadical::CaDiCaL::default();
            plain.add_cnf(f.cnf.clone()).unwrap();
            let mut real = std::collections::BTreeSet::new();
            for bits in 0..1u32 << (2 * d) {
                let assumed: Vec<Lit> = (0..2 * d)
                    .map(|i| {
                        let v = lines.vars[i];
                        if bits >> i & 1 == 1 {
                            v
                        } else {
                            !v
                        }
                    })
                    .collect();
                if plain.solve_assumps(&assumed).unwrap() == SolverResult::Sat {
                    let white =
                        |r: std::ops::Range<usize>| r.filter(|&i| bits >> i & 1 == 1).count();
                    real.insert((white(0..d), white(d..2 * d)));
                }
            }
            let mut counted = rustsat_cadical::CaDiCaL::default();
            counted.add_cnf(ext.cnf.clone()).unwrap();
            let mut admitted = std::collections::BTreeSet::new();
            for kr in 0..=d {
                for kc in 0..=d {
                    let cube = counters.exactly(kr, kc);
                    if counted.solve_assumps(&cube).unwrap() == SolverResult::Sat {
                        admitted.insert((kr, kc));
                    }
                }
            }
            assert_eq!(admitted, real, "{d} {n}");
            let bound = (0..=d)
                .flat_map(|kr| (0..=d).map(move |kc| (kr, kc)))
                .filter(|&(kr, kc)| kr * kc >= n && (d - kr) * (d - kc) >= n);
            if symmetry == Symmetry::LexLeader {
                assert!(r.implied);
                assert_eq!(r.dropped_by_symmetry, 0);
                assert_eq!(
                    r.cubes as u64 + r.refuted_by_propagation,
                    bound.count() as u64
                );
                assert!(implied(ext, &split.cubes), "{d} {n}");
            } else {
                // One pair per orbit of transposition and complement.
                assert!(!r.implied);
                let least = bound
                    .filter(|&(kr, kc)| {
                        [(kc, kr), (d - kr, d - kc), (d - kc, d - kr)]
                            .iter()
                            .all(|&p| p >= (kr, kc))
                    })
                    .count();
                assert_eq!(r.cubes as u64 + r.refuted_by_propagation, least as u64);
            }
        }
        let e = split(
            &queens(4, 2, Symmetry::LexLeader).0,
            None,
            &settings(Method::Counts),
            &|_| false,
        )
        .unwrap_err();
        assert!(e.contains("--split counts"), "{e}");
    }

    /// Auto takes the rows and two columns exactly on the boards where that was measured
    /// faster, and an explicit --prefix still wins over it.
    #[test]
    fn auto_adds_two_columns_on_the_measured_boards_only() {
        for (d, n) in [(9, 13), (10, 15), (11, 18), (12, 22)] {
            let (f, lines) = queens(d, n, Symmetry::LexLeader);
            let s = Settings {
                depth: Some(0),
                ..settings(Method::Auto)
            };
            let r = split(&f, Some(&lines), &s, &|_| false).unwrap().record;
            if AUTO_TWO_COLUMNS.contains(&d) {
                assert_eq!((r.method.as_str(), r.prefix), ("lines", d + 2), "{d}");
            } else {
                assert_eq!((r.method.as_str(), r.prefix), ("rows", d), "{d}");
            }
        }
        assert!(AUTO_TWO_COLUMNS.contains(&10) && !AUTO_TWO_COLUMNS.contains(&9));
    }

    #[test]
    fn counts_rule_out_too_few_rows_and_columns() {
        let (_, lines) = queens(4, 3, Symmetry::LexLeader);
        // 1 white row: at most 4 white queens; with 1 white column, at most 1.
        assert!(counts_allow(&lines, &[true, false, false, false]));
        assert!(!counts_allow(
            &lines,
            &[true, false, false, false, true, false, false, false]
        ));
        // No black row: no black queen.
        assert!(!counts_allow(&lines, &[true, true, true, true]));
        assert!(counts_allow(&lines, &[true, true]));
    }

    #[test]
    fn lookahead_alone_works_on_any_cnf_and_drops_refuted_branches() {
        let (f, _) = queens(5, 4, Symmetry::LexLeader);
        let general = Formula {
            pieces: None,
            comments: Vec::new(),
            ..f
        };
        let s = Settings {
            depth: Some(5),
            ..settings(Method::Auto)
        };
        let split = split(&general, None, &s, &|_| false).unwrap();
        assert_eq!(split.record.method, "lookahead");
        assert!(split.record.lookahead_splits > 0);
        assert!(split.cubes.iter().all(|c| c.len() <= 5));
        assert!(implied(&general, &split.cubes));
        let e = super::split(&general, None, &settings(Method::Rows), &|_| false).unwrap_err();
        assert!(e.contains("--split lookahead"), "{e}");
        // An unsatisfiable formula refuted by propagation needs no cube.
        let unsat = pq_encode::dimacs::parse(&b"p cnf 1 2\n1 0\n-1 0\n"[..]).unwrap();
        assert!(super::split(&unsat, None, &s, &|_| false)
            .unwrap()
            .cubes
            .is_empty());
    }

    /// The row cube counts of 9/13, 10/15 and 11/18 that the splitter was planned on, for
    /// the record: `cargo test -p pq-engine -- --ignored row_cube_counts --nocapture`.
    #[test]
    #[ignore = "a record of the row cube counts the splitter was planned on, not a check"]
    fn row_cube_counts() {
        for (d, n) in [(9, 13), (10, 15), (11, 18)] {
            let (f, lines) = queens(d, n, Symmetry::LexLeader);
            let s = split(&f, Some(&lines), &settings(Method::Auto), &|_| false).unwrap();
            println!("{d}/{n}: {:?}", s.record);
        }
    }
}
