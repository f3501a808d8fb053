//! General placement problems ([`Problem`]) as CNF: several groups of pieces of any kind on a
//! rectangular or toroidal board.
//!
//! - One variable per group and square (`c var K GROUP KIND R C`), group-major, row-major.
//! - At most one piece per square: pairwise clauses over the groups.
//! - For each pair of groups that must not attack each other, along every line (row,
//!   column, diagonal, anti-diagonal; wrapped on a torus) of a slider's directions: with
//!   [`Model::Lines`] a line indicator per group, implied by each of its pieces on the line
//!   (the "combined" model of Smith, Petrie & Gent, CPAIOR 2004, extended to pieces of
//!   different kinds); within one group, at most one piece per line (pairwise for short
//!   lines, Sinz's sequential encoding for long ones). With [`Model::Pairwise`], one binary
//!   clause per attacking pair of squares. Leapers (knight, king) always get pairwise clauses.
//! - Each group's count: "at least" through the chosen cardinality encoding. Removing a piece
//!   never creates an attack, so "at least n" and "exactly n" are equisatisfiable; the
//!   decoder keeps exactly n. For a group at peace with itself, implied pigeonhole clauses
//!   (`pigeonhole_parts`) say which lines must be full when the count reaches the most the
//!   lines allow; they make Dudeney's 22 knights UNSAT 17x faster (BENCHMARKS.md).
//! - [`encode_problem_incremental`]: the same clauses for every size of the maximised groups
//!   in a range, each maximised group counted by a totalizer whose outputs are assumed per
//!   solver call ([`crate::incremental`]); its pigeonhole clauses are guarded by the output
//!   for the size that fills the lines.
//! - Lex-leader symmetry breaking (Crawford, Ginsberg, Luks & Roy, KR 1996) over the piece
//!   variables for the symmetries the problem has: the board's (8 for a square, 4 for a
//!   rectangle; on a torus also the translations) combined with permutations of
//!   interchangeable groups (same kind, same count, same place in the no-attack relation).
//!   When that group has more than [`MAX_FULL_GROUP`] elements, a subset is used (every board
//!   symmetry with every group permutation, then translations alone, at most
//!   [`MAX_FULL_GROUP`] in all); constraints for any subset of the group keep each orbit's
//!   lex-least member, so this stays sound.
//!
//! Two equal armies of queens at peace on a square plain board are the peaceable-queens
//! problem: [`encode_problem`] hands them to the specialised encoder ([`crate::encode`]), with
//! its colouring model and line-based symmetry breaking.

use std::collections::HashSet;
use std::f64::consts::TAU;

use pq_board::placement::{Kind, Layout};
use rustsat::instances::Cnf;
use rustsat::types::Lit;

use crate::formula::{Formula, PieceMap, VarAlloc};
use crate::geometry::BoardSymmetry;
use crate::incremental::{Counters, IncrementalFormula};
use crate::problem::{Extent, Instance, Model, Options, Symmetry};
use crate::spec::group_permutations;
pub use crate::spec::group_size;
use crate::spec::Problem;
use crate::{card, header, symmetry};

/// Above this many symmetries, lex-leader uses the sound subset described in the module docs,
/// of at most this many elements.
pub const MAX_FULL_GROUP: usize = 128;

/// A direction of lines (the four a queen moves in).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Along a row (step `(0, 1)`).
    Row,
    /// Along a column (step `(1, 0)`).
    Column,
    /// Down and to the right (step `(1, 1)`; `row - col` constant on a plain board).
    Diagonal,
    /// Down and to the left (step `(1, -1)`; `row + col` constant on a plain board).
    AntiDiagonal,
}

impl Direction {
    /// The directions along which `kind` attacks (none for leapers).
    pub fn of(kind: Kind) -> &'static [Direction] {
        match kind {
            Kind::Queen => &[
                Direction::Row,
                Direction::Column,
                Direction::Diagonal,
                Direction::AntiDiagonal,
            ],
            Kind::Rook => &[Direction::Row, Direction::Column],
            Kind::Bishop => &[Direction::Diagonal, Direction::AntiDiagonal],
            Kind::Knight | Kind::King => &[],
        }
    }

    fn step(self) -> (isize, isize) {
        match self {
            Direction::Row => (0, 1),
            Direction::Column => (1, 0),
            Direction::Diagonal => (1, 1),
            Direction::AntiDiagonal => (1, -1),
        }
    }
}

/// The lines of `layout` in `dir` with at least two squares, each as square indices
/// (row-major). On a torus a line is the orbit of a square under the direction's step.
pub fn lines(layout: &Layout, dir: Direction) -> Vec<Vec<usize>> {
    let (rows, cols) = (layout.rows as isize, layout.cols as isize);
    let (dr, dc) = dir.step();
    let mut seen = vec![false; layout.squares()];
    let mut out = Vec::new();
    let on_board = |r: isize, c: isize| (0..rows).contains(&r) && (0..cols).contains(&c);
    for start in 0..layout.squares() {
        let (mut r, mut c) = (
            (start / layout.cols) as isize,
            (start % layout.cols) as isize,
        );
        // A line is walked from its first square in row-major order (every step goes down
        // or right): on a plain board the one with no square before it.
        if seen[start] || (!layout.torus && on_board(r - dr, c - dc)) {
            continue;
        }
        let mut line = Vec::new();
        loop {
            let idx = (r * cols + c) as usize;
            if seen[idx] && layout.torus {
                break;
            }
            seen[idx] = true;
            line.push(idx);
            r += dr;
            c += dc;
            if layout.torus {
                r = r.rem_euclid(rows);
                c = c.rem_euclid(cols);
            } else if !on_board(r, c) {
                break;
            }
        }
        if line.len() >= 2 {
            line.sort_unstable();
            out.push(line);
        }
    }
    out
}

/// The squares a leaper of `kind` attacks from square `s` (index), without `s` itself.
pub fn leaps(layout: &Layout, kind: Kind, s: usize) -> Vec<usize> {
    let leap = |dr: isize, dc: isize| match kind {
        // Two squares one way and one the other; one step in any of the 8 directions.
        Kind::Knight => dr.abs() * dc.abs() == 2,
        Kind::King => dr.abs().max(dc.abs()) == 1,
        _ => false,
    };
    let mut moves: Vec<(isize, isize)> = (-2..=2)
        .flat_map(|dr| (-2..=2).map(move |dc| (dr, dc)))
        .filter(|&(dr, dc)| leap(dr, dc))
        .collect();
    // Clockwise from "right" (rows count downwards): the order pq-sat's formulas have always
    // had.
    let angle = |&(dr, dc): &(isize, isize)| (dr as f64).atan2(dc as f64).rem_euclid(TAU);
    moves.sort_by(|a, b| angle(a).total_cmp(&angle(b)));
    let (rows, cols) = (layout.rows as isize, layout.cols as isize);
    let (r, c) = ((s / layout.cols) as isize, (s % layout.cols) as isize);
    let mut out = Vec::new();
    for (dr, dc) in moves {
        let (mut r2, mut c2) = (r + dr, c + dc);
        if layout.torus {
            r2 = r2.rem_euclid(rows);
            c2 = c2.rem_euclid(cols);
        } else if r2 < 0 || r2 >= rows || c2 < 0 || c2 >= cols {
            continue;
        }
        let t = (r2 * cols + c2) as usize;
        if t != s && !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

/// Encodes `problem` with the maximised groups (if any) at least `n` pieces each.
pub fn encode_problem(problem: &Problem, n: usize, options: &Options) -> Formula {
    encode_extent(problem, n, options, Extent::AtLeast)
}

/// Whether the specialised peaceable-queens encoder ([`crate::encode`]) writes `problem`'s
/// formulas: two armies of queens at peace, of one size, on a square board
/// ([`crate::spec::Shape`]). Its formulas have the colouring model (the line variables that
/// the row split, the line engine and its proofs read) and a header of `dim` and `n`, and
/// a certificate names their board by its side; every other problem goes to the general
/// encoder.
pub fn specialised(problem: &Problem) -> bool {
    problem.shape().queens_side().is_some()
}

// Beside `specialised`, which decides it, rather than in problem.rs: the options would
// otherwise import the encoder that imports them.
impl Options {
    /// The options a formula of `problem` is really encoded with: the colouring model (and
    /// its bound clauses) belong to the peaceable queens alone; any other problem takes the
    /// line model in its place, as its header says.
    pub fn for_problem(self, problem: &Problem) -> Options {
        if self.model != Model::Colouring || specialised(problem) {
            return self;
        }
        Options {
            model: Model::Lines,
            bounds: crate::problem::Bounds::None,
            ..self
        }
    }
}

/// Encodes `problem` with the maximised groups at `n` pieces each, the counts read as
/// `extent` says.
pub fn encode_extent(problem: &Problem, n: usize, options: &Options, extent: Extent) -> Formula {
    let demands = problem.demands(n);
    if specialised(problem) {
        if let Ok(instance) = Instance::new(problem.rules.layout.rows, demands[0]) {
            let mut f = crate::encode(&instance.with_extent(extent), options);
            // The map names the problem's own groups.
            if let Some(map) = &mut f.pieces {
                for (entry, group) in map.groups.iter_mut().zip(&problem.rules.groups) {
                    *entry = (group.name.clone(), group.kind);
                }
            }
            f.comments
                .insert(1.min(f.comments.len()), format!("problem {}", problem.name));
            return f;
        }
    }
    let mut sk = Skeleton::new(problem, options);
    let maximised = problem.maximised();
    for (g, &k) in demands.iter().enumerate() {
        let exact = match extent {
            Extent::AtLeast => false,
            Extent::Exactly => true,
            Extent::Maximal => !maximised.contains(&g),
        };
        sk.count(g, k, exact, options);
    }
    if extent == Extent::Maximal {
        maximality(problem, &sk.lines_by_dir, &sk.x, &mut sk.cnf);
    }
    sk.finish(options, |lex_leader| {
        header::problem(problem, n, options, extent, lex_leader)
    })
}

/// Encodes `problem` for every size `n` in `lo ..= hi` of its maximised groups at once: the
/// clauses of [`encode_problem`] at any `n`, with each maximised group counted by a
/// totalizer (Bailleux & Boufkhad, "Efficient CNF encoding of Boolean cardinality
/// constraints", CP 2003) over its piece variables whose outputs for "at least `n`" are left
/// open; [`IncrementalFormula::assumptions`]`(n)` assumes them, so that one solver answers
/// every size under assumptions and keeps its learnt clauses between them (Martins, Joshi,
/// Manquinho & Lynce, "Incremental cardinality constraints for MaxSAT", CP 2014). Under
/// `assumptions(n)` the formula is satisfiable exactly when `encode_problem(problem, n,
/// options)` is, and its models decode with the same piece map.
///
/// The maximised groups are always counted by the totalizer; `options.card` counts the
/// fixed groups. The peaceable queens go through the general encoder here;
/// [`crate::encode_incremental`] is their specialised one.
///
/// # Panics
/// When `problem` maximises no group, `lo > hi`, or `hi` exceeds the number of squares.
pub fn encode_problem_incremental(
    problem: &Problem,
    options: &Options,
    lo: usize,
    hi: usize,
) -> IncrementalFormula {
    let maximised = problem.maximised();
    assert!(!maximised.is_empty(), "the problem maximises no group");
    let mut sk = Skeleton::new(problem, options);
    for (g, &k) in problem.demands(0).iter().enumerate() {
        if !maximised.contains(&g) {
            sk.count(g, k, false, options);
        }
    }
    let counters = Counters::new(
        maximised.iter().map(|&g| &sk.x[g][..]),
        lo,
        hi,
        &mut sk.cnf,
        &mut sk.vars,
    );
    // The pigeonhole clauses of a maximised group hold from the size that fills its lines
    // (`total`) on, so they are guarded by that size's output; larger sizes are refuted.
    for (i, &g) in maximised.iter().enumerate() {
        let Some((total, full)) = sk.pigeonhole_parts(g) else {
            continue;
        };
        if total == 0 || total > hi {
            continue;
        }
        if total >= lo {
            let guard = counters.at_least(i, total);
            add_full_parts(&full, &sk.x[g], &guard, &mut sk.cnf);
        }
        for n in (total + 1).max(lo)..=hi {
            let refuted: Vec<Lit> = counters.at_least(i, n).iter().map(|&l| !l).collect();
            sk.cnf.add_nary(&refuted);
        }
    }
    let formula = sk.finish(options, |lex_leader| {
        let mut comments = header::problem(problem, 0, options, Extent::AtLeast, lex_leader);
        comments.insert(
            2,
            format!(
                "incremental: each maximised group at least n for any n in {lo}..={hi}, chosen by assumptions on totalizer outputs"
            ),
        );
        comments
    });
    counters.finish(formula)
}

/// The piece variables and the clauses of the rules (one piece per square, no attacks):
/// what every general formula shares.
struct Skeleton<'p> {
    problem: &'p Problem,
    vars: VarAlloc,
    cnf: Cnf,
    /// `x[g][s]`: a piece of group `g` stands on square `s` (row-major).
    x: Vec<Vec<Lit>>,
    lines_by_dir: Vec<(Direction, Vec<Vec<usize>>)>,
}

impl<'p> Skeleton<'p> {
    fn new(problem: &'p Problem, options: &Options) -> Skeleton<'p> {
        let layout = problem.rules.layout;
        let n_sq = layout.squares();
        let n_groups = problem.rules.groups.len();
        let mut vars = VarAlloc::default();
        let mut cnf = Cnf::new();
        let x: Vec<Vec<Lit>> = (0..n_groups)
            .map(|_| (0..n_sq).map(|_| vars.fresh()).collect())
            .collect();

        // At most one piece per square.
        for a in 0..n_groups {
            for b in a + 1..n_groups {
                for (&p, &q) in x[a].iter().zip(&x[b]) {
                    cnf.add_binary(!p, !q);
                }
            }
        }

        let kind = |g: usize| problem.rules.groups[g].kind;
        let mut binary: HashSet<(Lit, Lit)> = HashSet::new();
        let mut add_pair = |cnf: &mut Cnf, p: Lit, q: Lit| {
            let key = if p < q { (p, q) } else { (q, p) };
            if p != q && binary.insert(key) {
                cnf.add_binary(!p, !q);
            }
        };
        // A queen moves in every direction.
        let lines_by_dir: Vec<(Direction, Vec<Vec<usize>>)> = Direction::of(Kind::Queen)
            .iter()
            .map(|&d| (d, lines(&layout, d)))
            .collect();
        for &(a, b) in &problem.rules.no_attack {
            for (dir, dir_lines) in &lines_by_dir {
                let a_slides = Direction::of(kind(a)).contains(dir);
                let b_slides = Direction::of(kind(b)).contains(dir);
                if !a_slides && !b_slides {
                    continue;
                }
                for line in dir_lines {
                    if a == b {
                        at_most_one(
                            &line.iter().map(|&s| x[a][s]).collect::<Vec<_>>(),
                            &mut cnf,
                            &mut vars,
                            options.model,
                        );
                        continue;
                    }
                    if options.model == Model::Pairwise {
                        for &s in line {
                            for &t in line {
                                if s != t {
                                    add_pair(&mut cnf, x[a][s], x[b][t]);
                                }
                            }
                        }
                        continue;
                    }
                    // A line indicator for each group that attacks along the line: implied
                    // by each of its pieces there, and excluding the other group from the
                    // line.
                    let indicator = |g: usize, cnf: &mut Cnf, vars: &mut VarAlloc| {
                        let u = vars.fresh();
                        for &s in line {
                            cnf.add_binary(!x[g][s], u);
                        }
                        u
                    };
                    if a_slides && b_slides {
                        let ua = indicator(a, &mut cnf, &mut vars);
                        let ub = indicator(b, &mut cnf, &mut vars);
                        cnf.add_binary(!ua, !ub);
                    } else {
                        let (slider, other) = if a_slides { (a, b) } else { (b, a) };
                        let u = indicator(slider, &mut cnf, &mut vars);
                        for &t in line {
                            cnf.add_binary(!u, !x[other][t]);
                        }
                    }
                }
            }
            // Leapers: one clause per attacking pair of squares.
            for s in 0..n_sq {
                // Within one group (`a == b`) the second loop repeats the first: `add_pair`
                // skips its pairs.
                for t in leaps(&layout, kind(a), s) {
                    add_pair(&mut cnf, x[a][s], x[b][t]);
                }
                for t in leaps(&layout, kind(b), s) {
                    add_pair(&mut cnf, x[b][s], x[a][t]);
                }
            }
        }
        Skeleton {
            problem,
            vars,
            cnf,
            x,
            lines_by_dir,
        }
    }

    /// Group `g` has at least (with `exact`: exactly) `k` pieces, with the chosen
    /// cardinality encoding and, for a group at peace with itself, the pigeonhole clauses.
    fn count(&mut self, g: usize, k: usize, exact: bool, options: &Options) {
        let n_sq = self.x[g].len();
        let k = k.min(n_sq + 1);
        if k > n_sq {
            // More pieces than squares: unsatisfiable, said as the empty clause.
            self.cnf.add_clause(rustsat::types::Clause::new());
        } else {
            card::count(
                options.card,
                &self.x[g],
                k,
                exact,
                &mut self.cnf,
                &mut self.vars,
            );
        }
        if k == 0 {
            return;
        }
        if let Some((total, full)) = self.pigeonhole_parts(g) {
            if k > total {
                self.cnf.add_clause(rustsat::types::Clause::new());
            } else if k == total {
                add_full_parts(&full, &self.x[g], &[], &mut self.cnf);
            }
        }
    }

    /// For a group of sliders at peace with itself, the most pieces its lines allow and the
    /// parts that are full at that count (see [`pigeonhole_parts`]); `None` otherwise.
    fn pigeonhole_parts(&self, g: usize) -> Option<(usize, Vec<Parts>)> {
        if !self.problem.rules.no_attack.contains(&(g, g)) {
            return None;
        }
        let dirs = Direction::of(self.problem.rules.groups[g].kind);
        pigeonhole_parts(&self.lines_by_dir, dirs, self.x[g].len())
    }

    /// Adds the lex-leader constraints (if chosen) and packs the formula, with the header
    /// `comments(number of lex-leader symmetries)`.
    fn finish(mut self, options: &Options, comments: impl FnOnce(usize) -> Vec<String>) -> Formula {
        let problem = self.problem;
        let layout = problem.rules.layout;
        let x = &self.x;
        let elements = symmetries(problem);
        if options.symmetry == Symmetry::LexLeader {
            for e in &elements {
                symmetry::lex_leader_pieces(
                    x,
                    &e.squares,
                    &e.groups,
                    &mut self.cnf,
                    &mut self.vars,
                );
            }
        }
        let groups = problem.rules.groups.iter();
        let groups = groups.map(|g| (g.name.clone(), g.kind)).collect();
        let map = PieceMap::of(layout.rows, layout.cols, groups, x);
        Formula {
            n_vars: self.vars.n_vars(),
            comments: comments(elements.len()),
            cnf: self.cnf,
            pieces: Some(map),
            lines: None,
        }
    }
}

/// The squares a piece of either of `kinds` on square `s` attacks, without `s` (every
/// kind's attack is symmetric: `t` is in the set of `s` iff `s` is in the set of `t`).
fn reach(
    layout: &Layout,
    lines_by_dir: &[(Direction, Vec<Vec<usize>>)],
    kinds: [Kind; 2],
    s: usize,
) -> Vec<usize> {
    let mut out = Vec::new();
    for kind in kinds {
        out.extend(leaps(layout, kind, s));
        for (dir, dir_lines) in lines_by_dir {
            if Direction::of(kind).contains(dir) {
                for line in dir_lines.iter().filter(|l| l.contains(&s)) {
                    out.extend(line.iter().copied().filter(|&t| t != s));
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Maximality: for each maximised group `g` and square `s`, the square is taken or some
/// piece that must not meet a piece of `g` shares an attack with `s` (a piece of `g` there
/// would attack it, or be attacked by it); so no piece of `g` can be added anywhere.
fn maximality(
    problem: &Problem,
    lines_by_dir: &[(Direction, Vec<Vec<usize>>)],
    x: &[Vec<Lit>],
    cnf: &mut Cnf,
) {
    let layout = &problem.rules.layout;
    let groups = &problem.rules.groups;
    let at_war = |a: usize, b: usize| problem.rules.no_attack.contains(&(a.min(b), a.max(b)));
    for g in problem.maximised() {
        for s in 0..layout.squares() {
            let mut clause: Vec<Lit> = (0..groups.len()).map(|h| x[h][s]).collect();
            for h in (0..groups.len()).filter(|&h| at_war(g, h)) {
                let near = reach(layout, lines_by_dir, [groups[g].kind, groups[h].kind], s);
                clause.extend(near.into_iter().map(|t| x[h][t]));
            }
            cnf.add_clause(clause.into_iter().collect());
        }
    }
}

/// One direction's partition of a component: its lines there, and the squares none covers.
type Parts = (Vec<Vec<usize>>, Vec<usize>);

/// Pigeonhole consequences of peace within one group of sliders: implied, but they
/// propagate long before the counter does. Returns the most pieces the group's lines allow,
/// `total`, and the parts that are full when the count reaches it; `None` for leapers.
///
/// Squares split into components: two squares are connected when they share a line the
/// kind slides along (for bishops: the two square colours; for rooks and queens: the whole
/// board). In a component `C`, the lines of one direction (with the squares no line of that
/// direction covers) partition `C`, and each part holds at most one piece, so `C` holds at
/// most `m(C)`, the fewest parts over the directions. With `k` pieces and `k = Σ m(C)`, every
/// component is full: each part of a direction achieving `m(C)` holds exactly one piece ("at
/// least one" clauses, [`add_full_parts`]; 8 queens on 8x8: one per row and one per column;
/// 14 bishops: one per diagonal of one direction on each colour). `k > Σ m(C)` is impossible
/// outright.
fn pigeonhole_parts(
    lines_by_dir: &[(Direction, Vec<Vec<usize>>)],
    dirs: &[Direction],
    n_sq: usize,
) -> Option<(usize, Vec<Parts>)> {
    if dirs.is_empty() {
        return None;
    }
    // Union-find over the squares, joined along every line of the kind's directions.
    let mut parent: Vec<usize> = (0..n_sq).collect();
    fn find(parent: &mut [usize], mut a: usize) -> usize {
        while parent[a] != a {
            parent[a] = parent[parent[a]];
            a = parent[a];
        }
        a
    }
    let used: Vec<&(Direction, Vec<Vec<usize>>)> = lines_by_dir
        .iter()
        .filter(|(d, _)| dirs.contains(d))
        .collect();
    for (_, lines) in &used {
        for line in lines {
            for w in line.windows(2) {
                let (a, b) = (find(&mut parent, w[0]), find(&mut parent, w[1]));
                parent[a] = b;
            }
        }
    }
    let comp: Vec<usize> = (0..n_sq).map(|s| find(&mut parent, s)).collect();
    let mut total = 0;
    let mut full: Vec<Parts> = Vec::new();
    // Each component once, by its root (its own representative), in square order.
    for root in (0..n_sq).filter(|&s| comp[s] == s) {
        let mut best: Option<(usize, Vec<Parts>)> = None;
        for (_, lines) in &used {
            let in_c: Vec<Vec<usize>> = lines
                .iter()
                .filter(|l| comp[l[0]] == root)
                .cloned()
                .collect();
            let covered = |s: usize| in_c.iter().any(|l| l.binary_search(&s).is_ok());
            let alone: Vec<usize> = (0..n_sq)
                .filter(|&s| comp[s] == root && !covered(s))
                .collect();
            let parts = in_c.len() + alone.len();
            match &mut best {
                Some((m, list)) if parts == *m => list.push((in_c, alone)),
                Some((m, _)) if parts > *m => {}
                _ => best = Some((parts, vec![(in_c, alone)])),
            }
        }
        if let Some((m, list)) = best {
            total += m;
            full.extend(list);
        }
    }
    Some((total, full))
}

/// "Each part holds a piece" over `lits` for the `full` parts of [`pigeonhole_parts`], each
/// clause weakened by the negation of `guard` (the literals that say the count is reached;
/// empty when it is demanded outright).
fn add_full_parts(full: &[Parts], lits: &[Lit], guard: &[Lit], cnf: &mut Cnf) {
    let unless = |mut clause: Vec<Lit>| {
        clause.extend(guard.iter().map(|&l| !l));
        clause
    };
    for (lines, alone) in full {
        for line in lines {
            cnf.add_nary(&unless(line.iter().map(|&s| lits[s]).collect()));
        }
        for &s in alone {
            cnf.add_nary(&unless(vec![lits[s]]));
        }
    }
}

/// At most one of `lits`: pairwise when short, else Sinz's sequential encoding.
fn at_most_one(lits: &[Lit], cnf: &mut Cnf, vars: &mut VarAlloc, model: Model) {
    if lits.len() <= 6 || model == Model::Pairwise {
        for i in 0..lits.len() {
            for j in i + 1..lits.len() {
                cnf.add_binary(!lits[i], !lits[j]);
            }
        }
        return;
    }
    // s_i: some of lits[..=i] is true.
    let s: Vec<Lit> = (0..lits.len() - 1).map(|_| vars.fresh()).collect();
    cnf.add_binary(!lits[0], s[0]);
    for i in 1..lits.len() - 1 {
        cnf.add_binary(!lits[i], s[i]);
        cnf.add_binary(!s[i - 1], s[i]);
        cnf.add_binary(!lits[i], !s[i - 1]);
    }
    cnf.add_binary(!lits[lits.len() - 1], !s[lits.len() - 2]);
}

/// A symmetry of a problem: where each square and each group goes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Element {
    /// The image of each square, by row-major index.
    pub squares: Vec<usize>,
    /// The image of each group, by group index.
    pub groups: Vec<usize>,
}

/// The non-identity symmetries used for lex-leader (see the module docs).
pub fn symmetries(problem: &Problem) -> Vec<Element> {
    use BoardSymmetry::{Rotate270, Rotate90};
    let l = problem.rules.layout;
    let (rows, cols) = (l.rows, l.cols);
    // Rectangles have four of the square's eight. The order (the rectangle's four, the
    // diagonal mirrors, the quarter turns) keeps the formulas pq-sat has always written (the
    // list may be cut at MAX_FULL_GROUP).
    let mut point: Vec<BoardSymmetry> = (BoardSymmetry::ALL.into_iter())
        .filter(|p| rows == cols || p.keeps_rectangles())
        .collect();
    let quarter_turn = |p: &BoardSymmetry| matches!(p, Rotate90 | Rotate270);
    point.sort_by_key(|p| (!p.keeps_rectangles(), quarter_turn(p)));
    let translations: Vec<(usize, usize)> = if l.torus {
        (0..rows)
            .flat_map(|i| (0..cols).map(move |j| (i, j)))
            .collect()
    } else {
        vec![(0, 0)]
    };
    let perms = group_permutations(problem);
    let full = point.len() * translations.len() * perms.len();
    let square_map = |p: BoardSymmetry, (ti, tj): (usize, usize)| {
        (0..l.squares())
            .map(|s| {
                let (r, c) = p.map(rows, cols, (s / cols, s % cols));
                ((r + ti) % rows) * cols + (c + tj) % cols
            })
            .collect::<Vec<usize>>()
    };
    let mut out: Vec<Element> = Vec::new();
    let mut seen = HashSet::new();
    let identity_perm: Vec<usize> = (0..problem.rules.groups.len()).collect();
    for (ti, &t) in translations.iter().enumerate() {
        for (pi, p) in point.iter().enumerate() {
            if full > MAX_FULL_GROUP && ti > 0 && pi > 0 {
                continue;
            }
            let squares = square_map(*p, t);
            for perm in &perms {
                if full > MAX_FULL_GROUP && ti > 0 && *perm != identity_perm {
                    continue;
                }
                let e = Element {
                    squares: squares.clone(),
                    groups: perm.clone(),
                };
                let is_identity =
                    e.groups == identity_perm && e.squares.iter().enumerate().all(|(i, &s)| i == s);
                if !is_identity && seen.insert(e.clone()) {
                    out.push(e);
                    if out.len() == MAX_FULL_GROUP {
                        // Enough: constraints for any subset are sound, and each costs a
                        // chain over every piece variable.
                        return out;
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Count;

    fn layout(rows: usize, cols: usize, torus: bool) -> Layout {
        Layout { rows, cols, torus }
    }

    #[test]
    fn general_lines_plain_and_torus() {
        let l = layout(3, 4, false);
        assert_eq!(lines(&l, Direction::Row).len(), 3);
        assert_eq!(lines(&l, Direction::Column).len(), 4);
        // Diagonals of a 3x4 board with at least two squares: 6 − 2 corners = 4.
        assert_eq!(lines(&l, Direction::Diagonal).len(), 4);
        let t = layout(4, 4, true);
        let diags = lines(&t, Direction::Diagonal);
        assert_eq!(diags.len(), 4);
        assert!(diags.iter().all(|d| d.len() == 4));
        // A 2x4 torus: the step (1,1) has orbits of lcm(2,4) = 4 squares, gcd = 2 of them.
        let t = layout(2, 4, true);
        let diags = lines(&t, Direction::Diagonal);
        assert_eq!(diags.len(), 2);
        assert!(diags.iter().all(|d| d.len() == 4));
    }

    #[test]
    fn general_leaps() {
        let l = layout(8, 8, false);
        assert_eq!(leaps(&l, Kind::Knight, 0).len(), 2);
        assert_eq!(leaps(&l, Kind::King, 0).len(), 3);
        assert_eq!(leaps(&l, Kind::Knight, 3 * 8 + 3).len(), 8);
        let t = layout(8, 8, true);
        assert_eq!(leaps(&t, Kind::Knight, 0).len(), 8);
    }

    fn alone(kind: Kind, d: usize, k: usize) -> Problem {
        Problem {
            name: "t".into(),
            description: String::new(),
            rules: pq_board::placement::Rules {
                layout: layout(d, d, false),
                groups: vec![pq_board::placement::Group {
                    name: "g".into(),
                    kind,
                }],
                no_attack: vec![(0, 0)],
            },
            counts: vec![Count::Exactly(k)],
        }
    }

    #[test]
    fn general_pigeonhole_clauses() {
        let opts = Options::default();
        let has_empty = |f: &Formula| f.cnf.iter().any(|c| c.is_empty());
        // One queen per row and column at most: 9 on 8x8 is refused outright, 8 fills them.
        assert!(has_empty(&encode_problem(
            &alone(Kind::Queen, 8, 9),
            0,
            &opts
        )));
        let f = encode_problem(&alone(Kind::Queen, 8, 8), 0, &opts);
        assert!(!has_empty(&f));
        let full_lines = f
            .cnf
            .iter()
            .filter(|c| c.len() == 8 && c.iter().all(|l| l.is_pos() && l.var().idx() < 64))
            .count();
        assert_eq!(full_lines, 16, "8 rows and 8 columns");
        // Bishops: 7 per square colour on 8x8, so 14 fill one direction on each colour.
        assert!(has_empty(&encode_problem(
            &alone(Kind::Bishop, 8, 15),
            0,
            &opts
        )));
        assert!(!has_empty(&encode_problem(
            &alone(Kind::Bishop, 8, 14),
            0,
            &opts
        )));
        // Knights have no lines: nothing to add.
        assert!(!has_empty(&encode_problem(
            &alone(Kind::Knight, 8, 40),
            0,
            &opts
        )));
    }

    #[test]
    fn general_symmetry_counts() {
        let mut p = Problem::peaceable_queens(5);
        // Square board, two interchangeable armies: 8 × 2 − 1.
        assert_eq!(symmetries(&p).len(), 15);
        assert_eq!(group_size(&p), 16);
        p.rules.layout.torus = true;
        assert_eq!(group_size(&p), 16 * 25);
        // 400 > MAX_FULL_GROUP: the 15 point-and-swap elements, then the 24 translations.
        assert_eq!(symmetries(&p).len(), 15 + 24);
        p.rules.layout.rows = 12;
        p.rules.layout.cols = 12;
        assert_eq!(symmetries(&p).len(), MAX_FULL_GROUP, "capped");
        p.rules.layout.rows = 5;
        p.rules.layout.cols = 5;
        p.rules.layout.torus = false;
        p.rules.layout.cols = 6;
        assert_eq!(symmetries(&p).len(), 7);
        p.counts[1] = Count::Exactly(3);
        assert_eq!(symmetries(&p).len(), 3);
    }

    /// Solves `cnf` under `assumptions` with CaDiCaL; the model's values when SAT.
    fn solve(
        solver: &mut rustsat_cadical::CaDiCaL,
        assumptions: &[Lit],
        n_vars: u32,
    ) -> Option<Vec<bool>> {
        use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
        match solver.solve_assumps(assumptions).unwrap() {
            SolverResult::Sat => Some(
                (0..n_vars)
                    .map(|v| {
                        let lit = rustsat::types::Var::new(v).pos_lit();
                        solver.lit_val(lit).unwrap() == rustsat::types::TernaryVal::True
                    })
                    .collect(),
            ),
            SolverResult::Unsat => None,
            SolverResult::Interrupted => unreachable!("no limits"),
        }
    }

    fn solver_for(f: &Formula) -> rustsat_cadical::CaDiCaL<'static, 'static> {
        use rustsat::solvers::Solve;
        let mut solver = rustsat_cadical::CaDiCaL::default();
        for clause in &f.cnf {
            solver.add_clause_ref(clause).unwrap();
        }
        solver
    }

    /// Problems with something maximised: three armies (interchangeable groups), a small
    /// crowded chessboard (fixed groups with pigeonhole clauses), and maximised rooks and
    /// bishops at peace within and between (guarded pigeonhole clauses).
    fn maximising_problems() -> Vec<Problem> {
        let three = Problem::from_toml(
            r#"
            no_attack = [["r", "g"], ["r", "b"], ["g", "b"]]
            board = { size = "4x4" }
            group = [{ name = "r", kind = "queen", count = "max" },
                     { name = "g", kind = "queen", count = "max" },
                     { name = "b", kind = "queen", count = "max" }]
            "#,
        )
        .unwrap();
        let crowded = Problem::from_toml(
            r#"
            no_attack = [["q"], ["r"], ["b"], ["n"]]
            board = { size = "4x4" }
            group = [{ name = "q", kind = "queen", count = 4 },
                     { name = "r", kind = "rook", count = 4 },
                     { name = "b", kind = "bishop", count = 4 },
                     { name = "n", kind = "knight", count = "max" }]
            "#,
        )
        .unwrap();
        let sliders = Problem::from_toml(
            r#"
            no_attack = [["r"], ["b"], ["r", "b"]]
            board = { size = "4x4", torus = true }
            group = [{ name = "r", kind = "rook", count = "max" },
                     { name = "b", kind = "bishop", count = "max" }]
            "#,
        )
        .unwrap();
        vec![three, crowded, sliders]
    }

    #[test]
    fn general_incremental_agrees_with_one_size_formulas() {
        let variants = [
            Options::default(),
            Options {
                model: Model::Pairwise,
                card: crate::Card::SeqCounter,
                symmetry: Symmetry::None,
                ..Options::default()
            },
        ];
        for problem in maximising_problems() {
            let squares = problem.rules.layout.squares();
            let hi = (problem.upper_bound().unwrap() + 1).min(squares);
            for options in &variants {
                for lo in [0, 2] {
                    let inc = encode_problem_incremental(&problem, options, lo, hi);
                    assert!(inc.assumptions(lo).is_some() && inc.assumptions(hi).is_some());
                    assert!(lo == 0 || inc.assumptions(lo - 1).is_none());
                    assert!(inc.assumptions(hi + 1).is_none());
                    let f = &inc.formula;
                    let map = f.pieces.as_ref().unwrap();
                    let mut solver = solver_for(f);
                    let mut answers = Vec::new();
                    for n in lo..=hi {
                        let one = encode_problem(&problem, n, options);
                        let expected = solve(&mut solver_for(&one), &[], one.n_vars).is_some();
                        let model = solve(&mut solver, inc.assumptions(n).unwrap(), f.n_vars);
                        let what = format!("{} {options:?} lo={lo} n={n}", problem.summary());
                        assert_eq!(model.is_some(), expected, "{what}");
                        answers.push(expected);
                        if let Some(model) = model {
                            // The model decodes with the piece map into a peaceful placement
                            // with at least n pieces in each maximised group.
                            let p = map.decode(|v| model[v as usize - 1]).unwrap();
                            pq_board::rules::check_placement(&problem.rules, &p, &[])
                                .unwrap_or_else(|v| panic!("{what}: {v:?}"));
                            for (g, &k) in problem.demands(n).iter().enumerate() {
                                assert!(p.count(g) >= k, "{what}: group {g}");
                            }
                        }
                    }
                    // The range ends with UNSAT, so both answers occur.
                    assert!(answers.contains(&false), "{}", problem.summary());
                    assert!(answers.contains(&true) || lo > 0, "{}", problem.summary());
                }
            }
        }
    }

    #[test]
    fn general_incremental_header_and_map_match_the_one_size_formula() {
        for problem in maximising_problems() {
            let options = Options::default();
            let inc = encode_problem_incremental(&problem, &options, 1, 3);
            let one = encode_problem(&problem, 1, &options);
            assert_eq!(inc.formula.pieces, one.pieces);
            // The header reads back as the problem with no maximised piece demanded.
            let mut sized = problem.sized(0);
            sized.name = "placement problem".into();
            assert_eq!(
                crate::header::read_problem(&inc.formula.comments),
                Some(sized)
            );
            assert!(inc.formula.comments.iter().any(|c| c.contains("1..=3")));
        }
    }
}
