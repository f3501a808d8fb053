//! Placement problems described as data: a board, groups of pieces with their counts, and
//! which groups must not attack which. Read from TOML (see `encodings/*.toml`), adjusted
//! from the command line with `--set KEY=VALUE`.
//!
//! ```
//! use pq_encode::spec::Problem;
//! let text = r#"
//! name = "peaceable rooks"
//! no_attack = [["white", "black"]]
//! [board]
//! size = "4x4"
//! [[group]]
//! name = "white"
//! kind = "rook"
//! count = "max"
//! [[group]]
//! name = "black"
//! kind = "rook"
//! count = "max"
//! "#;
//! let mut p = Problem::from_toml(text).unwrap();
//! p.set("board", "5x5").unwrap();
//! assert_eq!(p.rules.layout.rows, 5);
//! assert_eq!(p.maximised(), vec![0, 1]);
//! ```

use std::collections::HashSet;

use pq_board::limits::{self, MAX_GROUPS, PIECES, SIDE};
use pq_board::placement::{Group, Kind, Layout, Rules};
use serde::{Deserialize, Serialize};

use pq_board::limits::MAX_SIDE;

/// How many pieces a group must have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// Exactly this many. Every problem here is monotone (taking a piece away never creates
    /// an attack), so the formula says "at least" and the printed board keeps exactly `n`.
    Exactly(usize),
    /// As many as possible; all maximised groups share one size `n` (tied armies).
    Maximise,
}

/// A placement problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// A short title (`placement problem` if the file gives none); written in the formula
    /// header.
    pub name: String,
    /// Free text from the problem file; empty if it gives none.
    pub description: String,
    /// The board, the groups and which groups must not attack which.
    pub rules: Rules,
    /// One per group.
    pub counts: Vec<Count>,
}

/// A problem file or `--set` that does not make sense; the message names the key.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SpecError(pub String);

fn err<T>(message: impl Into<String>) -> Result<T, SpecError> {
    Err(SpecError(message.into()))
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct FileProblem {
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    #[serde(default)]
    no_attack: Vec<Vec<String>>,
    board: FileBoard,
    #[serde(default)]
    group: Vec<FileGroup>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct FileBoard {
    #[serde(skip_serializing_if = "Option::is_none")]
    size: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rows: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cols: Option<usize>,
    #[serde(default)]
    torus: bool,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct FileGroup {
    name: String,
    kind: String,
    count: toml::Value,
}

impl Problem {
    /// Reads a problem file.
    pub fn from_toml(text: &str) -> Result<Problem, SpecError> {
        let file: FileProblem = toml::from_str(text).map_err(|e| SpecError(e.to_string()))?;
        let (rows, cols) = match (&file.board.size, file.board.rows, file.board.cols) {
            (Some(size), None, None) => {
                parse_size(size).map_err(|e| SpecError(format!("board.size: {e}")))?
            }
            (None, Some(r), Some(c)) => (r, c),
            (Some(_), _, _) => {
                return err("board: give either size = \"RxC\" or rows and cols, not both")
            }
            (None, _, _) => {
                return err("board: missing size (e.g. size = \"8x8\") or rows and cols")
            }
        };
        let mut groups = Vec::new();
        for g in &file.group {
            let kind: Kind = g
                .kind
                .parse()
                .map_err(|e| SpecError(format!("group '{}': kind: {e}", g.name)))?;
            let count = parse_count(&g.count)
                .map_err(|e| SpecError(format!("group '{}': count: {e}", g.name)))?;
            let name = g.name.clone();
            groups.push((Group { name, kind }, count));
        }
        let mut pairs = Vec::new();
        for pair in &file.no_attack {
            pairs.push(match pair.as_slice() {
                [a] => (a.clone(), a.clone()),
                [a, b] => (a.clone(), b.clone()),
                _ => return err(format!("no_attack: each entry names one group (within it) or two (between them), got {pair:?}")),
            });
        }
        let layout = Layout {
            rows,
            cols,
            torus: file.board.torus,
        };
        let name = file.name.unwrap_or_else(|| "placement problem".into());
        let mut problem = Problem::from_parts(name, layout, groups, &pairs)?;
        problem.description = file.description.unwrap_or_default();
        Ok(problem)
    }

    /// The problem with these groups (and counts) on `layout`, `no_attack` naming pairs of
    /// groups by name (a name twice: within the group); checked.
    pub fn from_parts(
        name: String,
        layout: Layout,
        groups: Vec<(Group, Count)>,
        no_attack: &[(String, String)],
    ) -> Result<Problem, SpecError> {
        let mut seen = HashSet::new();
        if let Some((g, _)) = groups.iter().find(|(g, _)| !seen.insert(g.name.as_str())) {
            return err(format!("two groups are named '{}'", g.name));
        }
        let index = |name: &str| groups.iter().position(|(g, _)| g.name == name);
        let mut pairs = Vec::new();
        for (a, b) in no_attack {
            let (Some(i), Some(j)) = (index(a), index(b)) else {
                let unknown = if index(a).is_none() { a } else { b };
                return err(format!("no_attack: no group named '{unknown}'"));
            };
            let p = (i.min(j), i.max(j));
            if !pairs.contains(&p) {
                pairs.push(p);
            }
        }
        let (groups, counts) = groups.into_iter().unzip();
        let problem = Problem {
            name,
            description: String::new(),
            rules: Rules {
                layout,
                groups,
                no_attack: pairs,
            },
            counts,
        };
        problem.check()?;
        Ok(problem)
    }

    /// The problem in the problem-file format: [`Problem::from_toml`] reads it back as the
    /// same problem.
    pub fn to_toml(&self) -> String {
        let rules = &self.rules;
        let name = |g: usize| rules.groups[g].name.clone();
        let file = FileProblem {
            name: Some(self.name.clone()),
            description: (!self.description.is_empty()).then(|| self.description.clone()),
            no_attack: rules
                .no_attack
                .iter()
                .map(|&(a, b)| {
                    if a == b {
                        vec![name(a)]
                    } else {
                        vec![name(a), name(b)]
                    }
                })
                .collect(),
            board: FileBoard {
                size: None,
                rows: Some(rules.layout.rows),
                cols: Some(rules.layout.cols),
                torus: rules.layout.torus,
            },
            group: rules
                .groups
                .iter()
                .zip(&self.counts)
                .map(|(g, c)| FileGroup {
                    name: g.name.clone(),
                    kind: g.kind.name().into(),
                    count: match c {
                        Count::Exactly(k) => toml::Value::Integer(*k as i64),
                        Count::Maximise => toml::Value::String("max".into()),
                    },
                })
                .collect(),
        };
        toml::to_string(&file).expect("a problem serialises as TOML")
    }

    /// How the problem presents itself in reports, headlines and pictures: the
    /// peaceable-queens preset (its [`Shape`] with both armies maximised, the armies named
    /// `white` and `black`: `--dim D` and `encodings/peaceable-queens.toml` alike) or any
    /// other.
    pub fn preset(&self) -> Preset {
        match self.shape() {
            Shape::PeaceableQueens { dim, tied: true }
                if self.rules.groups[0].name == "white" && self.rules.groups[1].name == "black" =>
            {
                Preset::Queens { dim }
            }
            _ => Preset::General,
        }
    }

    /// What the problem is, from its rules and counts alone (never its name or
    /// description): the one place that tells the peaceable queens from other problems.
    pub fn shape(&self) -> Shape {
        let l = &self.rules.layout;
        let queens_at_peace = self.rules.groups.len() == 2
            && self.rules.groups.iter().all(|g| g.kind == Kind::Queen)
            && self.rules.no_attack == [(0, 1)];
        if queens_at_peace && l.rows == l.cols && !l.torus && self.counts[0] == self.counts[1] {
            return Shape::PeaceableQueens {
                dim: l.rows,
                tied: self.counts[0] == Count::Maximise,
            };
        }
        Shape::General
    }

    /// The peaceable armies of queens on a `dim × dim` board (the problem of
    /// `encodings/peaceable-queens.toml`).
    pub fn peaceable_queens(dim: usize) -> Problem {
        Problem {
            name: "peaceable armies of queens".into(),
            description: String::new(),
            rules: Rules::peaceable_queens(dim),
            counts: vec![Count::Maximise, Count::Maximise],
        }
    }

    /// Overrides one setting: `board` (`RxC`), `rows`, `cols`, `torus` (`true`/`false`), or
    /// a group's count (`N`, or `max`).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), SpecError> {
        self.set_all([(key, value)])
    }

    /// Applies several settings, checking the result once at the end (so that shrinking
    /// the board and then the counts works in either order); a rejected setting leaves the
    /// problem as it was.
    pub fn set_all<'a>(
        &mut self,
        items: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<(), SpecError> {
        let mut next = self.clone();
        for (key, value) in items {
            next.apply(key.trim(), value.trim())?;
        }
        next.check()?;
        *self = next;
        Ok(())
    }

    fn apply(&mut self, key: &str, value: &str) -> Result<(), SpecError> {
        let layout = &mut self.rules.layout;
        match key {
            "board" | "size" => {
                let (r, c) =
                    parse_size(value).map_err(|e| SpecError(format!("--set {key}: {e}")))?;
                layout.rows = r;
                layout.cols = c;
            }
            "rows" | "cols" => {
                let n = whole_side(value).ok_or_else(|| {
                    SpecError(format!(
                        "--set {key}: expected a whole number, got '{value}'"
                    ))
                })?;
                let n = n.map_err(|e| SpecError(format!("--set {key}: {e}")))?;
                if key == "rows" {
                    layout.rows = n;
                } else {
                    layout.cols = n;
                }
            }
            "torus" => {
                layout.torus = match value {
                    "true" | "yes" | "1" => true,
                    "false" | "no" | "0" => false,
                    _ => {
                        return err(format!(
                            "--set torus: expected true or false, got '{value}'"
                        ))
                    }
                };
            }
            _ => {
                let Some(g) = self.rules.groups.iter().position(|g| g.name == key) else {
                    let mut keys = vec!["board", "rows", "cols", "torus"];
                    keys.extend(self.rules.groups.iter().map(|g| g.name.as_str()));
                    return err(format!(
                        "--set: unknown key '{key}' (this problem has: {})",
                        keys.join(", ")
                    ));
                };
                self.counts[g] = parse_count(&toml::Value::String(value.to_string()))
                    .map_err(|e| SpecError(format!("--set {key}: {e}")))?;
            }
        }
        Ok(())
    }

    /// The groups whose (shared) size is maximised.
    pub fn maximised(&self) -> Vec<usize> {
        (0..self.counts.len())
            .filter(|&g| self.counts[g] == Count::Maximise)
            .collect()
    }

    /// The largest size the maximised groups can have: the counting bound (every piece needs
    /// a square of its own), and for two equal armies of queens at peace on a square plain
    /// board the theorem `n ≤ ⌊d²/4⌋` (the bound behind OEIS A250000). `None` when nothing is
    /// maximised.
    pub fn upper_bound(&self) -> Option<usize> {
        let tied = self.maximised().len();
        if tied == 0 {
            return None;
        }
        let squares = self.rules.layout.squares();
        // A checked problem's counts add up to at most its squares.
        let fixed = limits::total(self.demands(0), squares).unwrap_or(squares);
        let counting = (squares - fixed) / tied;
        Some(if self.shape().optimum_is_a_of_d().is_some() {
            counting.min(squares / 4)
        } else {
            counting
        })
    }

    /// The lower bound each group must reach when the maximised groups have `n` pieces.
    pub fn demands(&self, n: usize) -> Vec<usize> {
        self.counts
            .iter()
            .map(|c| match c {
                Count::Exactly(k) => *k,
                Count::Maximise => n,
            })
            .collect()
    }

    /// Contradictions and impossible sizes, each named.
    pub fn check(&self) -> Result<(), SpecError> {
        let l = &self.rules.layout;
        for (what, v) in [("rows", l.rows), ("cols", l.cols)] {
            if v == 0 {
                return err(format!("board: {what} must be at least 1"));
            }
            if v > MAX_SIDE {
                return err(format!(
                    "board: {what} = {v} is too large (at most {MAX_SIDE})"
                ));
            }
        }
        if self.rules.groups.is_empty() {
            return err("the problem has no [[group]]");
        }
        // The name is a one-line title: it goes into every formula's header (a line break
        // would start a forged header line, e.g. a second `p cnf`), manifests and pictures.
        // Refused here, where the user can be told which key to fix, rather than escaped
        // on the way out, which would make the header read back as another name.
        if let Some(c) = self.name.chars().find(|c| c.is_control()) {
            return err(format!(
                "name {:?} contains the control character '{}'; the name is a one-line title: remove it",
                self.name,
                c.escape_default()
            ));
        }
        if self.rules.groups.len() > MAX_GROUPS {
            return err(format!(
                "the problem has {} groups (at most {MAX_GROUPS})",
                self.rules.groups.len()
            ));
        }
        // Two groups of one name: refused by `from_parts`, the only way to name groups.
        for g in &self.rules.groups {
            if g.name.is_empty()
                || g.name.contains(char::is_whitespace)
                || g.name.contains(char::is_control)
            {
                return err(format!("group name '{}' must be one word", g.name));
            }
            if ["board", "size", "rows", "cols", "torus"].contains(&g.name.as_str()) {
                return err(format!(
                    "group name '{}' is reserved for a board setting",
                    g.name
                ));
            }
        }
        for (g, &k) in self.rules.groups.iter().zip(&self.demands(0)) {
            PIECES
                .check(k)
                .map_err(|e| SpecError(format!("group '{}': count: {e}", g.name)))?;
        }
        // Every count is at most MAX_PIECES and there are at most MAX_GROUPS: no overflow.
        let fixed: usize = self.demands(0).iter().sum();
        if limits::total(self.demands(0), l.squares()).is_none() {
            return err(format!(
                "the counts ask for {fixed} pieces but the {}x{} board has {} squares",
                l.rows,
                l.cols,
                l.squares()
            ));
        }
        Ok(())
    }

    /// The problem with its maximised groups fixed at `n` pieces each.
    pub fn sized(&self, n: usize) -> Problem {
        let mut p = self.clone();
        for c in &mut p.counts {
            if *c == Count::Maximise {
                *c = Count::Exactly(n);
            }
        }
        p
    }

    /// A one-line description: board and groups.
    pub fn summary(&self) -> String {
        let l = &self.rules.layout;
        let groups: Vec<String> = self
            .rules
            .groups
            .iter()
            .zip(&self.counts)
            .map(|(g, c)| match c {
                Count::Exactly(k) => format!("{k} {} ({})", g.name, g.kind),
                Count::Maximise => format!("max {} ({})", g.name, g.kind),
            })
            .collect();
        format!(
            "{}x{}{} board, {}",
            l.rows,
            l.cols,
            if l.torus { " torus" } else { "" },
            groups.join(", ")
        )
    }
}

/// `RxC` (also `R×C`, or `N` for a square board).
fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected ROWSxCOLS such as 8x8, got '{s}'");
    let parts: Vec<&str> = s.split(['x', 'X', '×']).map(str::trim).collect();
    let nums: Vec<usize> = parts
        .iter()
        .map(|p| match whole_side(p) {
            Some(side) => side.map_err(|e| e.to_string()),
            None => Err(bad()),
        })
        .collect::<Result<_, _>>()?;
    match nums.as_slice() {
        [n] => Ok((*n, *n)),
        [r, c] => Ok((*r, *c)),
        _ => Err(bad()),
    }
}

/// A board side as written: `None` when `text` is not a whole number; a number beyond
/// `usize` is the limit's error, not malformed. Sides within `usize` are checked (with the
/// problem's own messages) by [`Problem::check`].
fn whole_side(text: &str) -> Option<Result<usize, limits::SizeError>> {
    match text.trim().parse::<usize>() {
        Ok(v) => Some(Ok(v)),
        Err(_) if text.trim().bytes().all(|b| b.is_ascii_digit()) && !text.trim().is_empty() => {
            Some(SIDE.parse(text))
        }
        Err(_) => None,
    }
}

/// `N` (exactly, at most [`limits::MAX_PIECES`]), or `"max"` / `"maximise"` / `"maximize"`.
fn parse_count(v: &toml::Value) -> Result<Count, String> {
    match v {
        toml::Value::Integer(n) if *n >= 0 => PIECES
            .check_i128(i128::from(*n))
            .map(Count::Exactly)
            .map_err(|e| e.to_string()),
        toml::Value::String(s) => match s.trim() {
            "max" | "maximise" | "maximize" => Ok(Count::Maximise),
            t if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => PIECES
                .parse(t)
                .map(Count::Exactly)
                .map_err(|e| e.to_string()),
            t => Err(format!("expected a number of pieces or \"max\", got '{t}'")),
        },
        other => Err(format!(
            "expected a number of pieces or \"max\", got {other}"
        )),
    }
}

/// What a problem is, structurally ([`Problem::shape`]): what decides the encoder, the table
/// of proven values, the line engine's proofs and the bounds that apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Two armies of queens at peace with each other on a plain square board of side `dim`,
    /// both of one size: the specialised peaceable-queens encoder's problem. `tied`: both
    /// armies maximised, so that the optimum is a(dim) (OEIS A250000).
    PeaceableQueens {
        /// The board's side.
        dim: usize,
        /// Both armies maximised (rather than fixed at one count).
        tied: bool,
    },
    /// Any other problem.
    General,
}

impl Shape {
    /// The side of the peaceable queens' board, for any count of the two armies.
    pub fn queens_side(self) -> Option<usize> {
        match self {
            Shape::PeaceableQueens { dim, .. } => Some(dim),
            Shape::General => None,
        }
    }

    /// The side `d` when the problem's optimum is a(d): the peaceable queens with both
    /// armies maximised.
    pub fn optimum_is_a_of_d(self) -> Option<usize> {
        match self {
            Shape::PeaceableQueens { dim, tied: true } => Some(dim),
            _ => None,
        }
    }
}

/// How a problem presents itself. The peaceable-queens preset keeps the words pq-sat has
/// always used for it (a(d), white and black queens, a board of `W` and `B` without a
/// legend); every other problem is named by its file and its groups. Reports, headlines and
/// pictures ask the preset for their words, so no caller asks "is this the queens?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// The peaceable queens on `dim` × `dim`, both armies maximised.
    Queens {
        /// The board's side.
        dim: usize,
    },
    /// Any other placement problem.
    General,
}

impl Preset {
    /// Whether this is the peaceable-queens preset.
    pub fn is_queens(self) -> bool {
        matches!(self, Preset::Queens { .. })
    }

    /// One step of `problem` at size `n`: `peaceable queens, d = 8, n = 10`, or the
    /// problem's summary `at size n`.
    pub fn step(self, problem: &Problem, n: usize) -> String {
        match self {
            Preset::Queens { dim } => format!("peaceable queens, d = {dim}, n = {n}"),
            Preset::General => format!("{} at size {n}", problem.summary()),
        }
    }

    /// What an answer at size `n` claims, in the preset's words: `9 white and 9 black queens
    /// fit on a 8x8 board`, `... do not fit ...`, `whether ... fit ...` for `fits` true, false
    /// or unknown (`None`); another problem's summary at size `n` (`... is impossible` when it
    /// does not fit).
    pub fn claim(self, problem: &Problem, n: usize, fits: Option<bool>) -> String {
        match self {
            Preset::Queens { dim: d } => {
                let queens = format!("{n} white and {n} black queens");
                match fits {
                    Some(true) => format!("{queens} fit on a {d}x{d} board"),
                    Some(false) => format!("{queens} do not fit on a {d}x{d} board"),
                    None => format!("whether {queens} fit on a {d}x{d} board"),
                }
            }
            Preset::General => {
                let what = problem.sized(n).summary();
                match fits {
                    Some(false) => format!("{what} is impossible"),
                    _ => what,
                }
            }
        }
    }

    /// What an enumeration at size `n` counts: boards with exactly `n` of each army (or, with
    /// `maximal`, the maximal configurations with at least `n`), or placements of another
    /// problem at size `n`.
    pub fn counted(self, problem: &Problem, n: usize, maximal: bool) -> String {
        let l = &problem.rules.layout;
        match (self, maximal) {
            (Preset::Queens { .. }, true) => format!(
                "maximal configurations with at least {n} queens of each colour on a {}x{} board",
                l.rows, l.cols
            ),
            (Preset::Queens { .. }, false) => format!(
                "boards with exactly {n} white and {n} black queens on a {}x{} board",
                l.rows, l.cols
            ),
            (Preset::General, true) => format!(
                "maximal configurations with at least {n} of each maximised group, {}",
                problem.sized(n).summary()
            ),
            (Preset::General, false) => format!("placements of {}", problem.sized(n).summary()),
        }
    }

    /// The optimum stated: `a(8) = 9`, or `the optimum is 9`.
    pub fn optimum_is(self, n: usize) -> String {
        match self {
            Preset::Queens { dim } => format!("a({dim}) = {n}"),
            Preset::General => format!("the optimum is {n}"),
        }
    }

    /// What the maximised groups are called: `armies`, or `maximised groups`.
    pub fn groups(self) -> &'static str {
        match self {
            Preset::Queens { .. } => "armies",
            Preset::General => "maximised groups",
        }
    }

    /// Whether a text board needs a legend of its symbols (the queens' `W` and `B` do not).
    pub fn needs_legend(self) -> bool {
        !self.is_queens()
    }

    /// A picture's title: `given` for the preset (its pictures take a title of their own),
    /// else [`Preset::title`] (other problems show their name).
    pub fn title_or(self, problem: &Problem, given: Option<&str>) -> String {
        match (self, given) {
            (Preset::Queens { .. }, Some(given)) => given.to_string(),
            _ => self.title(problem),
        }
    }

    /// A picture's title when none is given: `peaceable queens on 8x8`, or the problem's
    /// name.
    pub fn title(self, problem: &Problem) -> String {
        match self {
            Preset::Queens { dim } => format!("peaceable queens on {dim}x{dim}"),
            Preset::General => problem.name.clone(),
        }
    }
}

/// The number of symmetries of the problem: board symmetries (8 for a square, 4 for a
/// rectangle), times translations on a torus, times the group permutations that keep it.
pub fn group_size(problem: &Problem) -> usize {
    let l = problem.rules.layout;
    let point = if l.rows == l.cols { 8 } else { 4 };
    let translations = if l.torus { l.squares() } else { 1 };
    point * translations * group_permutations(problem).len()
}

/// Permutations of the groups that map the problem to itself.
pub(crate) fn group_permutations(problem: &Problem) -> Vec<Vec<usize>> {
    let k = problem.rules.groups.len();
    let relation: HashSet<(usize, usize)> = problem.rules.no_attack.iter().copied().collect();
    let mut out = Vec::new();
    let mut perm: Vec<usize> = (0..k).collect();
    permute(&mut perm, 0, &mut |p| {
        let same = (0..k).all(|g| {
            problem.rules.groups[p[g]].kind == problem.rules.groups[g].kind
                && problem.counts[p[g]] == problem.counts[g]
        });
        let keeps = relation.iter().all(|&(a, b)| {
            let (x, y) = (p[a].min(p[b]), p[a].max(p[b]));
            relation.contains(&(x, y))
        });
        if same && keeps {
            out.push(p.to_vec());
        }
    });
    out
}

fn permute(p: &mut Vec<usize>, i: usize, f: &mut dyn FnMut(&[usize])) {
    if i == p.len() {
        f(p);
        return;
    }
    for j in i..p.len() {
        p.swap(i, j);
        permute(p, i + 1, f);
        p.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_toml_reads_back_as_the_same_problem() {
        for file in [
            "crowded-chessboard",
            "peaceable-knights",
            "peaceable-queens-torus",
            "peaceable-queens",
            "three-armies",
        ] {
            let path = format!("{}/../../encodings/{file}.toml", env!("CARGO_MANIFEST_DIR"));
            let p = Problem::from_toml(&std::fs::read_to_string(path).unwrap()).unwrap();
            assert_eq!(Problem::from_toml(&p.to_toml()).unwrap(), p, "{file}");
        }
        let mut odd = Problem::peaceable_queens(3);
        odd.name = "quotes \" and 'apostrophes'".into();
        odd.description = "x = 1\nand a second line".into();
        assert_eq!(Problem::from_toml(&odd.to_toml()).unwrap(), odd);
    }

    /// A name is one line: a line break (or any control character) would go into the
    /// formula header as a line of its own, e.g. a second `p cnf` line.
    #[test]
    fn a_name_with_a_line_break_is_refused() {
        for name in ["two\nlines", "p\rcnf", "nul\u{0}", "tab\there"] {
            let mut odd = Problem::peaceable_queens(3);
            odd.name = name.into();
            let e = Problem::from_toml(&odd.to_toml()).unwrap_err().to_string();
            assert!(
                e.contains("control character") && e.contains("one-line"),
                "{e}"
            );
        }
        let text = "name = \"x\\np cnf 1 1\"\n[board]\nsize = 3\n[[group]]\nname = \"a\"\nkind = \"queen\"\ncount = 1\n";
        assert!(Problem::from_toml(text).is_err(), "{text}");
    }

    const DUDENEY: &str = r#"
name = "crowded chessboard"
no_attack = [["queens"], ["rooks"], ["bishops"], ["knights"]]
[board]
size = "8x8"
[[group]]
name = "queens"
kind = "queen"
count = 8
[[group]]
name = "rooks"
kind = "rook"
count = 8
[[group]]
name = "bishops"
kind = "bishop"
count = 14
[[group]]
name = "knights"
kind = "knight"
count = "max"
"#;

    /// Counts that add up beyond `usize` are refused like any other excess, in a file or
    /// with `--set`, with the same message (the sum used to wrap around to 0).
    #[test]
    fn huge_counts_are_refused_the_same_way_everywhere() {
        let three = DUDENEY.replace("count = 8\n", "count = 9223372036854775807\n");
        let e = Problem::from_toml(&three).unwrap_err().to_string();
        assert!(
            e.contains(&format!("from 0 to {}", limits::MAX_PIECES)),
            "{e}"
        );
        let mut p = Problem::from_toml(DUDENEY).unwrap();
        let e = p
            .set_all([
                ("queens", "9223372036854775807"),
                ("rooks", "9223372036854775807"),
                ("bishops", "2"),
            ])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!("from 0 to {}", limits::MAX_PIECES)),
            "{e}"
        );
        // From a header or a report (no text to parse): the check itself refuses.
        let huge = Problem::from_parts(
            "x".into(),
            p.rules.layout,
            vec![
                (p.rules.groups[0].clone(), Count::Exactly(usize::MAX)),
                (p.rules.groups[1].clone(), Count::Exactly(2)),
            ],
            &[],
        );
        assert!(huge.unwrap_err().to_string().contains("from 0 to"));
        let groups = (0..=MAX_GROUPS).map(|i| {
            let g = Group {
                name: format!("g{i}"),
                kind: Kind::King,
            };
            (g, Count::Exactly(0))
        });
        let many = Problem::from_parts("x".into(), p.rules.layout, groups.collect(), &[]);
        let e = many.unwrap_err().to_string();
        assert!(e.contains(&format!("at most {MAX_GROUPS}")), "{e}");
    }

    #[test]
    fn spec_reads_and_overrides() {
        let mut p = Problem::from_toml(DUDENEY).unwrap();
        assert_eq!(p.rules.groups.len(), 4);
        assert_eq!(p.rules.no_attack, vec![(0, 0), (1, 1), (2, 2), (3, 3)]);
        assert_eq!(p.maximised(), vec![3]);
        assert_eq!(p.demands(21), vec![8, 8, 14, 21]);
        p.set("knights", "22").unwrap();
        assert_eq!(p.counts[3], Count::Exactly(22));
        p.set("board", "9x9").unwrap();
        p.set("queens", "9").unwrap();
        assert_eq!((p.rules.layout.rows, p.rules.layout.cols), (9, 9));
        p.set("torus", "true").unwrap();
        assert!(p.rules.layout.torus);
    }

    #[test]
    fn spec_errors_name_the_key() {
        let cases = [
            (
                DUDENEY.replace("size = \"8x8\"", "size = \"8x8\"\ncolour = 3"),
                "colour",
            ),
            (
                DUDENEY.replace("kind = \"knight\"", "kind = \"dragon\""),
                "dragon",
            ),
            (DUDENEY.replace("[\"rooks\"]", "[\"castles\"]"), "castles"),
            (DUDENEY.replace("count = 14", "count = 70"), "86 pieces"),
            (DUDENEY.replace("count = 14", "count = -1"), "count"),
            (
                DUDENEY.replace("size = \"8x8\"", "size = \"8y8\""),
                "board.size",
            ),
            (
                DUDENEY.replace("size = \"8x8\"", "size = \"0x8\""),
                "rows must be at least 1",
            ),
            (
                DUDENEY.replace("name = \"rooks\"", "name = \"queens\""),
                "two groups",
            ),
        ];
        for (text, needle) in cases {
            let e = Problem::from_toml(&text).unwrap_err().to_string();
            assert!(e.contains(needle), "{needle}: {e}");
        }
        let mut p = Problem::from_toml(DUDENEY).unwrap();
        for (k, v, needle) in [
            ("dragons", "3", "unknown key 'dragons'"),
            ("board", "axb", "--set board"),
            ("knights", "many", "--set knights"),
            ("torus", "maybe", "--set torus"),
            ("board", "100x100", "too large"),
            ("board", "99999999999999999999x3", "from 1 to 64"),
            ("rows", "18446744073709551616", "from 1 to 64"),
            ("knights", "9223372036854775807", "from 0 to 4096"),
        ] {
            let e = p.set(k, v).unwrap_err().to_string();
            assert!(e.contains(needle), "{k}={v}: {e}");
        }
    }

    #[test]
    fn only_the_queens_preset_presents_itself_as_the_queens() {
        let queens = Problem::peaceable_queens(8);
        assert_eq!(queens.preset(), Preset::Queens { dim: 8 });
        assert_eq!(
            queens.preset().step(&queens, 10),
            "peaceable queens, d = 8, n = 10"
        );
        assert_eq!(queens.preset().optimum_is(9), "a(8) = 9");
        assert!(!queens.preset().needs_legend());
        // The same pieces with fixed counts, or another name, are a general problem.
        let mut fixed = queens.clone();
        fixed.set("white", "3").unwrap();
        assert_eq!(fixed.preset(), Preset::General);
        assert!(fixed.preset().step(&fixed, 3).ends_with("at size 3"));
        assert_eq!(fixed.preset().optimum_is(3), "the optimum is 3");
        assert_eq!(fixed.preset().title(&fixed), fixed.name);
    }

    fn example(file: &str) -> Problem {
        let path = format!("{}/../../encodings/{file}.toml", env!("CARGO_MANIFEST_DIR"));
        Problem::from_toml(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    /// The shape follows the rules and counts, never the name: the queens' TOML file is
    /// the queens of `--dim`, in every question and in how it presents itself.
    #[test]
    fn the_shape_is_structural() {
        let mut file = example("peaceable-queens");
        file.set("board", "6x6").unwrap();
        let dim = Problem::peaceable_queens(6);
        assert_ne!(file.name, "");
        for p in [&file, &dim] {
            assert_eq!(p.shape(), Shape::PeaceableQueens { dim: 6, tied: true });
            assert_eq!(p.shape().optimum_is_a_of_d(), Some(6));
            assert_eq!(p.preset(), Preset::Queens { dim: 6 });
        }
        // Both armies fixed at one count: still the queens' encoder, not a(d).
        let mut fixed = dim.clone();
        fixed.set("white", "3").unwrap();
        fixed.set("black", "3").unwrap();
        assert_eq!(
            fixed.shape(),
            Shape::PeaceableQueens {
                dim: 6,
                tied: false
            }
        );
        assert_eq!(fixed.shape().queens_side(), Some(6));
        assert_eq!(fixed.shape().optimum_is_a_of_d(), None);
        // Unequal armies, a rectangle, a torus, three armies, other pieces: general.
        let mut unequal = dim.clone();
        unequal.set("white", "3").unwrap();
        let mut rectangle = dim.clone();
        rectangle.set("board", "5x6").unwrap();
        for p in [
            unequal,
            rectangle,
            example("peaceable-queens-torus"),
            example("three-armies"),
            example("crowded-chessboard"),
            example("peaceable-knights"),
        ] {
            assert_eq!(p.shape(), Shape::General, "{}", p.summary());
            assert_eq!(p.preset(), Preset::General, "{}", p.summary());
            // Their formulas take the line model where the queens' take the colouring one.
            let options = crate::Options::default().for_problem(&p);
            assert_eq!(options.model, crate::Model::Lines, "{}", p.summary());
        }
        let options = crate::Options::default();
        assert_eq!(options.for_problem(&dim), options);
        assert_eq!(
            Preset::Queens { dim: 6 }.claim(&dim, 5, Some(true)),
            "5 white and 5 black queens fit on a 6x6 board"
        );
        assert_eq!(
            Preset::Queens { dim: 6 }.claim(&dim, 6, Some(false)),
            "6 white and 6 black queens do not fit on a 6x6 board"
        );
    }
}
