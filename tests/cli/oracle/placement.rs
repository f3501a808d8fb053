//! Brute-force oracle for general placement problems ([`Rules`]), for integration tests.
//!
//! Written from the problem statement alone: it uses `pq_board::placement` only as a data
//! carrier and calls neither the encoder nor the validator in `pq_board::rules`, so the
//! three cannot share a mistake. Attacks are computed here in a third way: by walking
//! from each square along each slider direction step by step (wrapping on a torus, until
//! the walk comes back to its start) and by applying each leap, marking what is reached.
//!
//! The search places pieces square by square in row-major order; each square is left
//! empty or gets a piece of a group that still needs pieces and that clashes with no piece
//! placed so far; a branch is cut when some group has fewer usable squares left than it
//! still needs. Meant for small boards (up to 5×5 with 2–3 groups, 4×4 with 4 groups).
//!
//! Test modules use it as `crate::oracle::placement`.

use pq_board::placement::{Kind, Layout, Placement, Rules};

/// A step or leap `(dr, dc)`.
type Offset = (isize, isize);

/// For each group `g` that must not attack a given piece: `(g, squares g may not use)`.
type Clashes = Vec<(usize, Vec<usize>)>;

/// `table[from][to]`: a piece of `kind` on square `from` attacks square `to`
/// (squares numbered `row * cols + col`).
fn attack_table(layout: &Layout, kind: Kind) -> Vec<Vec<bool>> {
    let (rows, cols) = (layout.rows as isize, layout.cols as isize);
    let n = layout.rows * layout.cols;
    let mut table = vec![vec![false; n]; n];
    let rook: &[Offset] = &[(0, 1), (0, -1), (1, 0), (-1, 0)];
    let bishop: &[Offset] = &[(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let knight: &[Offset] = &[
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    let king: &[Offset] = &[
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ];
    let (slides, leaps): (Vec<Offset>, &[Offset]) = match kind {
        Kind::Queen => ([rook, bishop].concat(), &[]),
        Kind::Rook => (rook.to_vec(), &[]),
        Kind::Bishop => (bishop.to_vec(), &[]),
        Kind::Knight => (Vec::new(), knight),
        Kind::King => (Vec::new(), king),
    };
    // One step from (r, c): None when it leaves a plain board.
    let step = |r: isize, c: isize, dr: isize, dc: isize| -> Option<Offset> {
        let (r, c) = (r + dr, c + dc);
        if layout.torus {
            Some((r.rem_euclid(rows), c.rem_euclid(cols)))
        } else if (0..rows).contains(&r) && (0..cols).contains(&c) {
            Some((r, c))
        } else {
            None
        }
    };
    for r0 in 0..rows {
        for c0 in 0..cols {
            let from = (r0 * cols + c0) as usize;
            for &(dr, dc) in &slides {
                // A wrapped walk returns to its start after lcm(rows, cols) steps at most.
                let (mut r, mut c) = (r0, c0);
                while let Some((r1, c1)) = step(r, c, dr, dc) {
                    if (r1, c1) == (r0, c0) {
                        break;
                    }
                    table[from][(r1 * cols + c1) as usize] = true;
                    (r, c) = (r1, c1);
                }
            }
            for &(dr, dc) in leaps {
                if let Some((r1, c1)) = step(r0, c0, dr, dc) {
                    if (r1, c1) != (r0, c0) {
                        table[from][(r1 * cols + c1) as usize] = true;
                    }
                }
            }
        }
    }
    table
}

/// The search state for one problem and one exact demand per group.
struct Search {
    rows: usize,
    cols: usize,
    squares: usize,
    /// `clash[h][s]`: for each group `g`, the squares where a piece of `g` may no longer
    /// stand once a piece of `h` stands on `s`, as `(g, squares)`.
    clash: Vec<Vec<Clashes>>,
    /// `blocked[g][t]`: how many placed pieces forbid a piece of `g` on `t`.
    blocked: Vec<Vec<u32>>,
    need: Vec<usize>,
    cells: Vec<Option<usize>>,
}

impl Search {
    /// None when `demand` asks for pieces of a group that does not exist.
    fn new(rules: &Rules, demand: &[usize]) -> Option<Search> {
        let groups = rules.groups.len();
        if demand.iter().skip(groups).any(|&d| d > 0) {
            return None;
        }
        let layout = &rules.layout;
        let squares = layout.rows * layout.cols;
        let tables: Vec<Vec<Vec<bool>>> = rules
            .groups
            .iter()
            .map(|g| attack_table(layout, g.kind))
            .collect();
        let mut forbidden = vec![vec![false; groups]; groups];
        for &(a, b) in &rules.no_attack {
            assert!(
                a < groups && b < groups,
                "no_attack pair ({a}, {b}) names an unknown group"
            );
            forbidden[a][b] = true;
            forbidden[b][a] = true;
        }
        let clash = (0..groups)
            .map(|h| {
                (0..squares)
                    .map(|s| {
                        (0..groups)
                            .filter(|&g| forbidden[g][h])
                            .map(|g| {
                                let ts = (0..squares)
                                    .filter(|&t| tables[g][t][s] || tables[h][s][t])
                                    .collect();
                                (g, ts)
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let need = (0..groups)
            .map(|g| demand.get(g).copied().unwrap_or(0))
            .collect();
        Some(Search {
            rows: layout.rows,
            cols: layout.cols,
            squares,
            clash,
            blocked: vec![vec![0; squares]; groups],
            need,
            cells: vec![None; squares],
        })
    }

    fn placement(&self) -> Placement {
        Placement {
            rows: self.rows,
            cols: self.cols,
            cells: self.cells.clone(),
        }
    }

    fn put(&mut self, h: usize, s: usize) {
        self.cells[s] = Some(h);
        self.need[h] -= 1;
        for (g, ts) in &self.clash[h][s] {
            for &t in ts {
                self.blocked[*g][t] += 1;
            }
        }
    }

    fn take(&mut self, h: usize, s: usize) {
        self.cells[s] = None;
        self.need[h] += 1;
        for (g, ts) in &self.clash[h][s] {
            for &t in ts {
                self.blocked[*g][t] -= 1;
            }
        }
    }

    /// Can squares `i..` still hold every piece needed? (Each group needs as many
    /// unblocked squares as pieces, and all groups together need as many squares usable
    /// by at least one of them.)
    fn may_complete(&self, i: usize) -> bool {
        let mut total = 0;
        let mut usable = 0;
        for t in i..self.squares {
            if self
                .need
                .iter()
                .enumerate()
                .any(|(g, &n)| n > 0 && self.blocked[g][t] == 0)
            {
                usable += 1;
            }
        }
        for (g, &n) in self.need.iter().enumerate() {
            if n == 0 {
                continue;
            }
            total += n;
            let free = (i..self.squares)
                .filter(|&t| self.blocked[g][t] == 0)
                .count();
            if free < n {
                return false;
            }
        }
        usable >= total
    }

    /// Explores completions from square `i`; `found` gets each complete placement and
    /// returns true to stop the search. Returns true when stopped.
    fn run(&mut self, i: usize, found: &mut dyn FnMut(Placement) -> bool) -> bool {
        if self.need.iter().all(|&n| n == 0) {
            // Every remaining square stays empty: exactly one completion.
            return found(self.placement());
        }
        if i == self.squares || !self.may_complete(i) {
            return false;
        }
        for g in 0..self.need.len() {
            if self.need[g] > 0 && self.blocked[g][i] == 0 {
                self.put(g, i);
                let stop = self.run(i + 1, found);
                self.take(g, i);
                if stop {
                    return true;
                }
            }
        }
        self.run(i + 1, found)
    }
}

/// Is there a placement obeying `rules` with at least `at_least[g]` pieces of each group g?
/// (`at_least` may be shorter than the group list: missing entries are 0.)
pub(crate) fn feasible(rules: &Rules, at_least: &[usize]) -> bool {
    find(rules, at_least).is_some()
}

/// A witness placement for `feasible`, if any. It has exactly `at_least[g]` pieces of each
/// group: removing pieces never creates an attack, so "at least" and "exactly" agree.
pub(crate) fn find(rules: &Rules, at_least: &[usize]) -> Option<Placement> {
    let mut search = Search::new(rules, at_least)?;
    let mut witness = None;
    search.run(0, &mut |p| {
        witness = Some(p);
        true
    });
    witness
}

/// The largest n such that the groups in `tied` can each have n pieces while group g
/// outside `tied` has at least `fixed[g]` (fixed[g] ignored for tied groups); None if even
/// n = 0 is infeasible. Panics if `tied` is empty (n would be unbounded) or names an
/// unknown group.
pub(crate) fn max_tied(rules: &Rules, fixed: &[usize], tied: &[usize]) -> Option<usize> {
    assert!(!tied.is_empty(), "max_tied needs at least one tied group");
    assert!(
        tied.iter().all(|&g| g < rules.groups.len()),
        "max_tied: a tied group does not exist"
    );
    let groups = rules.groups.len().max(fixed.len());
    let demand = |n: usize| -> Vec<usize> {
        (0..groups)
            .map(|g| {
                if tied.contains(&g) {
                    n
                } else {
                    fixed.get(g).copied().unwrap_or(0)
                }
            })
            .collect()
    };
    if !feasible(rules, &demand(0)) {
        return None;
    }
    let mut best = 0;
    while feasible(rules, &demand(best + 1)) {
        best += 1;
    }
    Some(best)
}

/// Every placement with exactly `exact[g]` pieces of each group (for counting tests on
/// tiny boards), in no particular order. (`exact` may be shorter than the group list:
/// missing entries are 0.)
pub(crate) fn all_exact(rules: &Rules, exact: &[usize]) -> Vec<Placement> {
    let Some(mut search) = Search::new(rules, exact) else {
        return Vec::new();
    };
    let mut all = Vec::new();
    search.run(0, &mut |p| {
        all.push(p);
        false
    });
    all
}

/// Every maximal configuration: each group in `tied` has at least `n` pieces, each other
/// group g exactly `fixed[g]`, the rules hold, and no piece of a tied group can be added
/// (every empty square would put it in an attack with a piece it must not meet). Built
/// from [`all_exact`] over every count vector, then filtered with this module's own
/// attack tables.
pub(crate) fn all_maximal(
    rules: &Rules,
    fixed: &[usize],
    tied: &[usize],
    n: usize,
) -> Vec<Placement> {
    let groups = rules.groups.len();
    let squares = rules.layout.rows * rules.layout.cols;
    let tables: Vec<Vec<Vec<bool>>> = rules
        .groups
        .iter()
        .map(|g| attack_table(&rules.layout, g.kind))
        .collect();
    let at_war = |a: usize, b: usize| {
        rules
            .no_attack
            .iter()
            .any(|&(x, y)| (x, y) == (a, b) || (x, y) == (b, a))
    };
    let addable = |p: &Placement, g: usize| {
        (0..squares).any(|s| {
            p.cells[s].is_none()
                && (0..squares).all(|t| match p.cells[t] {
                    Some(h) if at_war(g, h) => !tables[g][s][t] && !tables[h][t][s],
                    _ => true,
                })
        })
    };
    // Every count vector: tied groups from n up to the board, the others fixed.
    let mut vectors: Vec<Vec<usize>> = vec![Vec::new()];
    for g in 0..groups {
        let range: Vec<usize> = if tied.contains(&g) {
            (n..=squares).collect()
        } else {
            vec![fixed.get(g).copied().unwrap_or(0)]
        };
        vectors = vectors
            .into_iter()
            .flat_map(|v| {
                range.iter().map(move |&k| {
                    let mut w = v.clone();
                    w.push(k);
                    w
                })
            })
            .filter(|v: &Vec<usize>| v.iter().sum::<usize>() <= squares)
            .collect();
    }
    let mut out = Vec::new();
    for counts in vectors {
        for p in all_exact(rules, &counts) {
            if !tied.iter().any(|&g| addable(&p, g)) {
                out.push(p);
            }
        }
    }
    out
}
