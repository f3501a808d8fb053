//! The independent validator for general placement problems: which squares each kind of
//! piece attacks, and whether a [`Placement`] obeys a set of [`Rules`].
//!
//! # Why this is independent of the encoder
//!
//! Every placement the SAT side produces for a general problem is checked here before it
//! is trusted, so this module is written from the problem statement alone, without
//! reading the encoder or the solver:
//!
//! * it depends only on the plain data of [`crate::placement`];
//! * an attack is decided square by square from the definition ([`attacks`]): same row or
//!   column for rooks, a walk of `k` diagonal steps for bishops (wrapping on a torus), one
//!   of the leaps for knights and kings; there is no numbering of lines, no
//!   variables and no precomputed attack lists shared with anything else.
//!
//! A mistake in the encoding (a missing attack clause, a wrongly wrapped diagonal, a
//! wrong count) therefore shows up here as a [`RuleViolation`] instead of being
//! confirmed by the same mistake.
//!
//! Squares are 0-based `(row, col)`, row 0 at the top; messages print them as pq-sat
//! prints boards ([`crate::square_name`]: `(0, 2)` is `c1`).
//!
//! ```
//! use pq_board::placement::{Placement, Rules};
//! use pq_board::rules::check_placement;
//! let rules = Rules::peaceable_queens(3);
//! let mut p = Placement::empty(&rules.layout);
//! p.set(0, 0, Some(0));
//! p.set(1, 2, Some(1));
//! assert!(check_placement(&rules, &p, &[Some(1), Some(1)]).is_ok());
//! p.set(2, 2, Some(1));
//! assert!(check_placement(&rules, &p, &[]).is_err());
//! ```

use crate::placement::{Kind, Layout, Placement, Rules};
use crate::square_name;

/// Does a bishop on `from` reach `to` by `k` steps of `(1, dc_step)` for some integer `k`
/// (coordinates wrapping mod rows / cols)? `from != to` is checked by the caller.
///
/// The row must come out right, so `k ≡ dr (mod rows)`: `k = dr + m·rows`. Modulo
/// `lcm(rows, cols)` (after which the walk repeats) those are the `m` in `0..cols`, so
/// trying each of them and comparing the column decides it.
fn torus_diagonal(
    layout: &Layout,
    from: (usize, usize),
    to: (usize, usize),
    dc_step: isize,
) -> bool {
    let (rows, cols) = (layout.rows as isize, layout.cols as isize);
    let dr = (to.0 as isize - from.0 as isize).rem_euclid(rows);
    (0..cols).any(|m| {
        let k = dr + m * rows;
        (from.1 as isize + dc_step * k).rem_euclid(cols) == to.1 as isize
    })
}

/// Does a leap `(dr, dc)` with `is_leap(|dr|, |dc|)` take a piece from `from` to `to`? On a
/// plain board the target must be on the board (the caller has checked that `to` is); on a
/// torus it wraps. A leap that lands back on `from` (tiny tori) is not an attack, which the
/// caller ensures by requiring `from != to`.
fn leaps_to(
    layout: &Layout,
    is_leap: fn(usize, usize) -> bool,
    from: (usize, usize),
    to: (usize, usize),
) -> bool {
    let (rows, cols) = (layout.rows as isize, layout.cols as isize);
    let offsets = (-2..=2).flat_map(|dr| (-2..=2).map(move |dc| (dr, dc)));
    offsets
        .filter(|&(dr, dc): &(isize, isize)| is_leap(dr.unsigned_abs(), dc.unsigned_abs()))
        .any(|(dr, dc)| {
            let (mut r, mut c) = (from.0 as isize + dr, from.1 as isize + dc);
            if layout.torus {
                (r, c) = (r.rem_euclid(rows), c.rem_euclid(cols));
            }
            (r, c) == (to.0 as isize, to.1 as isize)
        })
}

/// Does a piece of `kind` on `from` attack the square `to`? Pieces in between never
/// block; a piece never attacks its own square; squares off the board are never attacked
/// (and a square off the board attacks nothing).
pub fn attacks(layout: &Layout, kind: Kind, from: (usize, usize), to: (usize, usize)) -> bool {
    let on_board = |sq: (usize, usize)| sq.0 < layout.rows && sq.1 < layout.cols;
    if from == to || !on_board(from) || !on_board(to) {
        return false;
    }
    let rook = || from.0 == to.0 || from.1 == to.1;
    let bishop = || {
        if layout.torus {
            torus_diagonal(layout, from, to, 1) || torus_diagonal(layout, from, to, -1)
        } else {
            from.0.abs_diff(to.0) == from.1.abs_diff(to.1)
        }
    };
    match kind {
        Kind::Rook => rook(),
        Kind::Bishop => bishop(),
        Kind::Queen => rook() || bishop(),
        // Two squares one way and one the other; one step in any of the 8 directions.
        Kind::Knight => leaps_to(layout, |dr, dc| dr * dc == 2, from, to),
        Kind::King => leaps_to(layout, |dr, dc| dr.max(dc) == 1, from, to),
    }
}

/// One thing wrong with a placement. Squares are 0-based `(row, col)`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleViolation {
    /// The placement's size does not match the layout (or its cell vector does not match
    /// its own size). Nothing else is checked then.
    #[error(
        "the placement is {found_rows}×{found_cols}, expected {expected_rows}×{expected_cols}{}",
        cells_note(*found_rows, *found_cols, *found_cells)
    )]
    WrongSize {
        /// The layout's number of rows.
        expected_rows: usize,
        /// The layout's number of columns.
        expected_cols: usize,
        /// The placement's number of rows.
        found_rows: usize,
        /// The placement's number of columns.
        found_cols: usize,
        /// The length of the placement's cell vector.
        found_cells: usize,
    },
    /// A square holds a group index that is not in the group list.
    #[error(
        "square {} holds a piece of group {group}, but there are only {groups} groups",
        square_name(square.0, square.1)
    )]
    UnknownGroupInCell {
        /// The square holding the piece.
        square: (usize, usize),
        /// The group index found there.
        group: usize,
        /// The number of groups in the rules.
        groups: usize,
    },
    /// A `no_attack` pair names a group index that is not in the group list.
    #[error(
        "the no-attack rule ({}, {}) names a group that does not exist (there are {groups} groups)",
        pair.0,
        pair.1
    )]
    UnknownGroupInRule {
        /// The pair as written in `no_attack`.
        pair: (usize, usize),
        /// The number of groups in the rules.
        groups: usize,
    },
    /// `counts` asks for pieces of a group index that is not in the group list.
    #[error("{expected} pieces are required of group {group}, but there are only {groups} groups")]
    UnknownGroupInCounts {
        /// The index into `counts`.
        group: usize,
        /// The number of pieces asked for.
        expected: usize,
        /// The number of groups in the rules.
        groups: usize,
    },
    /// A group does not have the required number of pieces.
    #[error("group '{group}' has {found} pieces, expected {expected}")]
    WrongCount {
        /// The group's name.
        group: String,
        /// The number of pieces required.
        expected: usize,
        /// The number on the board.
        found: usize,
    },
    /// A piece attacks a piece it must not attack.
    #[error(
        "the {attacker_kind} of '{attacker_group}' on {} attacks the piece of '{victim_group}' on {}",
        square_name(attacker.0, attacker.1),
        square_name(victim.0, victim.1)
    )]
    Attack {
        /// The name of the attacking piece's group.
        attacker_group: String,
        /// The kind of the attacking piece.
        attacker_kind: Kind,
        /// The attacking piece's square: of the pair, the first in row-major order that
        /// attacks the other.
        attacker: (usize, usize),
        /// The name of the attacked piece's group.
        victim_group: String,
        /// The attacked piece's square.
        victim: (usize, usize),
    },
}

/// The end of [`RuleViolation::WrongSize`]'s message: a cell vector that does not match the
/// placement's own size is named too.
fn cells_note(rows: usize, cols: usize, cells: usize) -> String {
    if cells == rows * cols {
        String::new()
    } else {
        format!(" (and it holds {cells} squares, not {})", rows * cols)
    }
}

/// `forbidden[a][b]`: pieces of `a` and `b` must not attack each other (symmetric).
/// Pairs naming unknown groups are skipped.
pub(crate) fn forbidden_matrix(rules: &Rules) -> Vec<Vec<bool>> {
    let n = rules.groups.len();
    let mut m = vec![vec![false; n]; n];
    for &(a, b) in &rules.no_attack {
        if a < n && b < n {
            m[a][b] = true;
            m[b][a] = true;
        }
    }
    m
}

/// The pieces of known groups, `(square, group)`, in row-major order.
fn pieces(rules: &Rules, p: &Placement) -> Vec<((usize, usize), usize)> {
    let known = |g: &usize| *g < rules.groups.len();
    p.cells
        .iter()
        .enumerate()
        .filter_map(|(i, cell)| Some(((i / p.cols, i % p.cols), cell.filter(known)?)))
        .collect()
}

/// Checks `p` against `rules`; `counts[g] = Some(n)` requires exactly n pieces of group g
/// (None: any number; `counts` may be shorter than the group list, missing = None).
/// Returns every violation found (each attacking pair once).
///
/// Order: unknown groups in `no_attack`, a wrong size (after which nothing else is
/// checked), unknown groups in cells, counts, then attacks by pairs of squares in
/// row-major order. For an attacking pair the attacker is the first piece (row-major)
/// that attacks the other; pieces of unknown groups take part in no attack.
pub fn check_placement(
    rules: &Rules,
    p: &Placement,
    counts: &[Option<usize>],
) -> Result<(), Vec<RuleViolation>> {
    let groups = rules.groups.len();
    let mut out = Vec::new();
    for &pair in &rules.no_attack {
        if pair.0 >= groups || pair.1 >= groups {
            out.push(RuleViolation::UnknownGroupInRule { pair, groups });
        }
    }
    if !p.fits(&rules.layout) {
        out.push(RuleViolation::WrongSize {
            expected_rows: rules.layout.rows,
            expected_cols: rules.layout.cols,
            found_rows: p.rows,
            found_cols: p.cols,
            found_cells: p.cells.len(),
        });
        return Err(out);
    }
    for (i, cell) in p.cells.iter().enumerate() {
        if let Some(g) = cell.filter(|&g| g >= groups) {
            out.push(RuleViolation::UnknownGroupInCell {
                square: (i / p.cols, i % p.cols),
                group: g,
                groups,
            });
        }
    }
    for (g, want) in counts.iter().enumerate() {
        let Some(expected) = *want else { continue };
        if g >= groups {
            out.push(RuleViolation::UnknownGroupInCounts {
                group: g,
                expected,
                groups,
            });
            continue;
        }
        let found = p.count(g);
        if found != expected {
            out.push(RuleViolation::WrongCount {
                group: rules.groups[g].name.clone(),
                expected,
                found,
            });
        }
    }
    let forbidden = forbidden_matrix(rules);
    let layout = &rules.layout;
    let ps = pieces(rules, p);
    for (i, &(s, gs)) in ps.iter().enumerate() {
        for &(t, gt) in &ps[i + 1..] {
            if !forbidden[gs][gt] {
                continue;
            }
            let hit = [(s, gs, t, gt), (t, gt, s, gs)]
                .into_iter()
                .find(|&(a, ga, v, _)| attacks(layout, rules.groups[ga].kind, a, v));
            if let Some((a, ga, v, gv)) = hit {
                out.push(RuleViolation::Attack {
                    attacker_group: rules.groups[ga].name.clone(),
                    attacker_kind: rules.groups[ga].kind,
                    attacker: a,
                    victim_group: rules.groups[gv].name.clone(),
                    victim: v,
                });
            }
        }
    }
    if out.is_empty() {
        Ok(())
    } else {
        Err(out)
    }
}

/// Squares where a piece of `group` could be added without breaking the rules (empty,
/// and no attack with any piece under the no_attack pairs involving `group`), in
/// row-major order. Empty when `group` is unknown or `p` does not fit the layout; pieces
/// of unknown groups are ignored.
pub fn addable_squares(rules: &Rules, p: &Placement, group: usize) -> Vec<(usize, usize)> {
    if group >= rules.groups.len() || !p.fits(&rules.layout) {
        return Vec::new();
    }
    let forbidden = forbidden_matrix(rules);
    let layout = &rules.layout;
    let kind = rules.groups[group].kind;
    let ps = pieces(rules, p);
    (0..p.rows)
        .flat_map(|r| (0..p.cols).map(move |c| (r, c)))
        .filter(|&(r, c)| p.get(r, c).is_none())
        .filter(|&s| {
            ps.iter().all(|&(t, g)| {
                !forbidden[group][g]
                    || (!attacks(layout, kind, s, t)
                        && !attacks(layout, rules.groups[g].kind, t, s))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::placement::Group;

    fn plain(rows: usize, cols: usize) -> Layout {
        Layout {
            rows,
            cols,
            torus: false,
        }
    }

    fn torus(rows: usize, cols: usize) -> Layout {
        Layout {
            rows,
            cols,
            torus: true,
        }
    }

    /// Every square `kind` attacks from `from` (in row-major order, without duplicates).
    fn attacked_squares(layout: &Layout, kind: Kind, from: (usize, usize)) -> Vec<(usize, usize)> {
        all_squares(layout)
            .into_iter()
            .filter(|&to| attacks(layout, kind, from, to))
            .collect()
    }

    fn count(layout: &Layout, kind: Kind, from: (usize, usize)) -> usize {
        attacked_squares(layout, kind, from).len()
    }

    fn all_squares(l: &Layout) -> Vec<(usize, usize)> {
        (0..l.rows)
            .flat_map(|r| (0..l.cols).map(move |c| (r, c)))
            .collect()
    }

    fn gcd(a: usize, b: usize) -> usize {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }

    fn group(name: &str, kind: Kind) -> Group {
        Group {
            name: name.into(),
            kind,
        }
    }

    /// Two armies of queens on 5×5 that must not attack each other.
    fn armies() -> Rules {
        Rules {
            layout: plain(5, 5),
            groups: vec![group("white", Kind::Queen), group("black", Kind::Queen)],
            no_attack: vec![(0, 1)],
        }
    }

    #[test]
    fn plain_8x8_counts() {
        let l = plain(8, 8);
        // Knight and king from the corner a1 (top left).
        assert_eq!(
            attacked_squares(&l, Kind::Knight, (0, 0)),
            vec![(1, 2), (2, 1)]
        );
        assert_eq!(
            attacked_squares(&l, Kind::King, (0, 0)),
            vec![(0, 1), (1, 0), (1, 1)]
        );
        assert_eq!(count(&l, Kind::Knight, (3, 3)), 8);
        assert_eq!(count(&l, Kind::King, (3, 3)), 8);
        assert_eq!(count(&l, Kind::King, (0, 4)), 5);
        // Bishop on c1 = (0, 2): 5 squares down-right, 2 down-left.
        assert_eq!(
            attacked_squares(&l, Kind::Bishop, (0, 2)),
            vec![(1, 1), (1, 3), (2, 0), (2, 4), (3, 5), (4, 6), (5, 7)]
        );
        // Queen on d4 = (3, 3): 14 rook squares + 13 bishop squares.
        assert_eq!(count(&l, Kind::Rook, (3, 3)), 14);
        assert_eq!(count(&l, Kind::Bishop, (3, 3)), 13);
        assert_eq!(count(&l, Kind::Queen, (3, 3)), 27);
        assert_eq!(count(&l, Kind::Queen, (0, 0)), 21);
        // Pieces in between never block.
        assert!(attacks(&l, Kind::Rook, (0, 0), (0, 7)));
        assert!(attacks(&l, Kind::Bishop, (0, 0), (7, 7)));
        assert!(attacks(&l, Kind::Bishop, (7, 0), (0, 7)));
        assert!(!attacks(&l, Kind::Bishop, (0, 0), (0, 2)));
        assert!(!attacks(&l, Kind::Knight, (0, 0), (1, 1)));
        // No piece attacks its own square, nor a square off the board.
        for k in Kind::ALL {
            assert!(!attacks(&l, k, (4, 4), (4, 4)));
            assert!(!attacks(&l, k, (0, 0), (0, 8)));
            assert!(!attacks(&l, k, (8, 0), (7, 0)));
        }
    }

    #[test]
    fn attacks_are_symmetric_and_queen_is_rook_or_bishop() {
        for l in [
            plain(5, 5),
            plain(3, 6),
            torus(4, 6),
            torus(5, 3),
            torus(2, 2),
        ] {
            for s in all_squares(&l) {
                for t in all_squares(&l) {
                    for k in Kind::ALL {
                        assert_eq!(
                            attacks(&l, k, s, t),
                            attacks(&l, k, t, s),
                            "{l:?} {k} {s:?} {t:?}"
                        );
                    }
                    assert_eq!(
                        attacks(&l, Kind::Queen, s, t),
                        attacks(&l, Kind::Rook, s, t) || attacks(&l, Kind::Bishop, s, t)
                    );
                }
            }
        }
    }

    #[test]
    fn rectangular_plain_board() {
        let l = plain(2, 4);
        assert_eq!(attacked_squares(&l, Kind::Bishop, (0, 0)), vec![(1, 1)]);
        assert_eq!(count(&l, Kind::Rook, (0, 0)), 4);
        assert_eq!(attacked_squares(&l, Kind::Knight, (0, 0)), vec![(1, 2)]);
    }

    #[test]
    fn torus_rook_is_the_plain_rook() {
        for (r, c) in [(4, 4), (3, 5), (1, 6)] {
            for s in all_squares(&plain(r, c)) {
                assert_eq!(
                    attacked_squares(&plain(r, c), Kind::Rook, s),
                    attacked_squares(&torus(r, c), Kind::Rook, s)
                );
            }
        }
    }

    #[test]
    fn torus_bishop_by_hand() {
        // 4×4 torus from a1: diagonal b2 c3 d4, anti-diagonal d2 (= (1, 3)) c3 b4; c3 lies
        // on both wrapped lines, so 5 squares, not 6.
        let l = torus(4, 4);
        assert_eq!(
            attacked_squares(&l, Kind::Bishop, (0, 0)),
            vec![(1, 1), (1, 3), (2, 2), (3, 1), (3, 3)]
        );
        // 2×4 torus from (0, 0): the diagonal runs (1,1) (0,2) (1,3) and back after
        // lcm(2, 4) = 4 steps; the anti-diagonal (1,3) (0,2) (1,1) is the same set.
        let l = torus(2, 4);
        assert_eq!(
            attacked_squares(&l, Kind::Bishop, (0, 0)),
            vec![(0, 2), (1, 1), (1, 3)]
        );
        assert!(!attacks(&l, Kind::Bishop, (0, 0), (0, 1)));
        assert!(!attacks(&l, Kind::Bishop, (0, 0), (1, 0)));
        // 2×3 torus: gcd 1, so the diagonal passes through all 6 squares.
        assert_eq!(count(&torus(2, 3), Kind::Bishop, (0, 0)), 5);
        // 8×8 torus: each wrapped line has 8 squares; from (0,0) the two meet again at (4,4).
        assert_eq!(count(&torus(8, 8), Kind::Bishop, (0, 0)), 13);
        // Odd square torus: the two lines meet only at the piece: 2·(d−1).
        assert_eq!(count(&torus(5, 5), Kind::Bishop, (2, 3)), 8);
        assert_eq!(count(&torus(5, 5), Kind::Queen, (2, 3)), 16);
    }

    #[test]
    fn torus_bishop_matches_the_gcd_criterion() {
        // t = s + k·(1, ±1) is solvable iff dr ≡ ±dc (mod gcd(rows, cols)) (Chinese
        // remainder theorem): a second formulation of the same definition.
        for rows in 1..=7 {
            for cols in 1..=7 {
                let l = torus(rows, cols);
                let g = gcd(rows, cols) as isize;
                for s in all_squares(&l) {
                    for t in all_squares(&l) {
                        let dr = t.0 as isize - s.0 as isize;
                        let dc = t.1 as isize - s.1 as isize;
                        let want = s != t
                            && ((dr - dc).rem_euclid(g) == 0 || (dr + dc).rem_euclid(g) == 0);
                        assert_eq!(
                            attacks(&l, Kind::Bishop, s, t),
                            want,
                            "{rows}x{cols} {s:?} {t:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn torus_leapers_by_hand() {
        // 3×3 torus: the knight from (0,0) reaches exactly the squares off its row and column.
        let l = torus(3, 3);
        assert_eq!(
            attacked_squares(&l, Kind::Knight, (0, 0)),
            vec![(1, 1), (1, 2), (2, 1), (2, 2)]
        );
        assert_eq!(count(&l, Kind::King, (0, 0)), 8);
        assert_eq!(count(&plain(3, 3), Kind::Knight, (1, 1)), 0);
        // 2×2 torus: knight leaps fold onto (1,0) and (0,1); king steps onto the other three.
        let l = torus(2, 2);
        assert_eq!(
            attacked_squares(&l, Kind::Knight, (0, 0)),
            vec![(0, 1), (1, 0)]
        );
        assert_eq!(
            attacked_squares(&l, Kind::King, (0, 0)),
            vec![(0, 1), (1, 0), (1, 1)]
        );
        // 1×1 torus: every move lands back on the piece, which is no attack.
        for k in Kind::ALL {
            assert!(attacked_squares(&torus(1, 1), k, (0, 0)).is_empty());
        }
        // 1×3 torus: the knight reaches both other squares.
        assert_eq!(
            attacked_squares(&torus(1, 3), Kind::Knight, (0, 0)),
            vec![(0, 1), (0, 2)]
        );
        // 8×8 torus: the knight in a corner has all 8 leaps, e.g. (−1, −2) wraps to (7, 6).
        let l = torus(8, 8);
        assert_eq!(count(&l, Kind::Knight, (0, 0)), 8);
        assert!(attacks(&l, Kind::Knight, (0, 0), (7, 6)));
        assert!(attacks(&l, Kind::King, (0, 0), (7, 7)));
        assert!(!attacks(&plain(8, 8), Kind::King, (0, 0), (7, 7)));
    }

    #[test]
    fn peaceful_armies_accepted() {
        let rules = armies();
        let mut p = Placement::empty(&rules.layout);
        // White a1 b1, black e3 d5: no white queen shares a row, column or diagonal with a
        // black one (differences (2,4), (4,3), (2,3), (4,2)).
        p.set(0, 0, Some(0));
        p.set(0, 1, Some(0));
        p.set(2, 4, Some(1));
        p.set(4, 3, Some(1));
        // White a1 and b1 attack each other, which is allowed: there is no (0, 0) rule.
        assert_eq!(check_placement(&rules, &p, &[Some(2), Some(2)]), Ok(()));
        assert_eq!(check_placement(&rules, &p, &[]), Ok(()));
        assert_eq!(check_placement(&rules, &p, &[None, Some(2)]), Ok(()));
    }

    #[test]
    fn attack_between_groups_reported_once() {
        let rules = armies();
        let mut p = Placement::empty(&rules.layout);
        p.set(0, 0, Some(0));
        p.set(2, 2, Some(1)); // on a1's diagonal
        p.set(3, 4, Some(1)); // safe from a1
        let err = check_placement(&rules, &p, &[Some(1), Some(2)]).unwrap_err();
        assert_eq!(
            err,
            vec![RuleViolation::Attack {
                attacker_group: "white".into(),
                attacker_kind: Kind::Queen,
                attacker: (0, 0),
                victim_group: "black".into(),
                victim: (2, 2),
            }]
        );
        assert_eq!(
            err[0].to_string(),
            "the queen of 'white' on a1 attacks the piece of 'black' on c3"
        );
        // Listing the pair twice, or backwards, changes nothing.
        let mut twice = rules.clone();
        twice.no_attack = vec![(1, 0), (0, 1)];
        assert_eq!(check_placement(&twice, &p, &[]).unwrap_err(), err);
    }

    #[test]
    fn attack_within_one_group() {
        let rules = Rules {
            layout: plain(4, 4),
            groups: vec![group("knights", Kind::Knight), group("kings", Kind::King)],
            no_attack: vec![(0, 0)],
        };
        let mut p = Placement::empty(&rules.layout);
        p.set(0, 0, Some(0));
        p.set(1, 1, Some(0)); // no knight move: fine
        p.set(2, 1, Some(0)); // a knight move from (0,0)
        p.set(0, 1, Some(1)); // kings are unconstrained
        p.set(1, 0, Some(1));
        let err = check_placement(&rules, &p, &[Some(3)]).unwrap_err();
        assert_eq!(err.len(), 1);
        assert!(matches!(
            &err[0],
            RuleViolation::Attack {
                attacker: (0, 0),
                victim: (2, 1),
                attacker_kind: Kind::Knight,
                ..
            }
        ));
        assert_eq!(
            err[0].to_string(),
            "the knight of 'knights' on a1 attacks the piece of 'knights' on b3"
        );
    }

    #[test]
    fn one_sided_attack_names_the_attacker() {
        // A queen and a knight: the queen attacks along the line, the knight does not.
        let rules = Rules {
            layout: plain(5, 5),
            groups: vec![group("k", Kind::Knight), group("q", Kind::Queen)],
            no_attack: vec![(0, 1)],
        };
        let mut p = Placement::empty(&rules.layout);
        p.set(0, 0, Some(0));
        p.set(0, 4, Some(1));
        let err = check_placement(&rules, &p, &[]).unwrap_err();
        assert!(matches!(
            &err[..],
            [RuleViolation::Attack {
                attacker: (0, 4),
                attacker_kind: Kind::Queen,
                victim: (0, 0),
                ..
            }]
        ));
        // And a knight leap from the knight onto a queen off its lines.
        let mut p = Placement::empty(&rules.layout);
        p.set(0, 0, Some(0));
        p.set(1, 2, Some(1));
        let err = check_placement(&rules, &p, &[]).unwrap_err();
        assert!(matches!(
            &err[..],
            [RuleViolation::Attack {
                attacker: (0, 0),
                attacker_kind: Kind::Knight,
                victim: (1, 2),
                ..
            }]
        ));
    }

    #[test]
    fn torus_attack_detected() {
        let mut rules = armies();
        rules.layout = torus(5, 5);
        let mut p = Placement::empty(&rules.layout);
        p.set(0, 0, Some(0));
        p.set(4, 1, Some(1)); // (0,0) + (−1, +1) on the torus
        assert!(check_placement(&rules, &p, &[]).is_err());
        rules.layout = plain(5, 5);
        assert!(check_placement(&rules, &p, &[]).is_ok());
    }

    #[test]
    fn counts_checked() {
        let rules = armies();
        let mut p = Placement::empty(&rules.layout);
        p.set(0, 0, Some(0));
        let err = check_placement(&rules, &p, &[Some(2), Some(0), None]).unwrap_err();
        assert_eq!(
            err,
            vec![RuleViolation::WrongCount {
                group: "white".into(),
                expected: 2,
                found: 1
            }]
        );
        assert_eq!(err[0].to_string(), "group 'white' has 1 pieces, expected 2");
        let err = check_placement(&rules, &p, &[Some(1), Some(1)]).unwrap_err();
        assert!(matches!(
            &err[..],
            [RuleViolation::WrongCount {
                expected: 1,
                found: 0,
                ..
            }]
        ));
        let err = check_placement(&rules, &p, &[Some(1), None, Some(3)]).unwrap_err();
        assert!(matches!(
            &err[..],
            [RuleViolation::UnknownGroupInCounts {
                group: 2,
                expected: 3,
                ..
            }]
        ));
    }

    #[test]
    fn bad_sizes_and_groups_reported() {
        let rules = armies();
        let p = Placement::empty(&plain(4, 5));
        let err = check_placement(&rules, &p, &[Some(1)]).unwrap_err();
        assert!(matches!(
            &err[..],
            [RuleViolation::WrongSize {
                expected_rows: 5,
                expected_cols: 5,
                found_rows: 4,
                found_cols: 5,
                ..
            }]
        ));
        assert_eq!(err[0].to_string(), "the placement is 4×5, expected 5×5");
        // Inconsistent cell vector: reported, not a panic.
        let p = Placement {
            rows: 5,
            cols: 5,
            cells: vec![None; 7],
        };
        let err = check_placement(&rules, &p, &[]).unwrap_err();
        assert!(matches!(
            &err[..],
            [RuleViolation::WrongSize { found_cells: 7, .. }]
        ));
        assert!(err[0].to_string().contains("holds 7 squares"));
        assert!(addable_squares(&rules, &p, 0).is_empty());

        let mut p = Placement::empty(&rules.layout);
        p.set(1, 2, Some(7));
        p.set(1, 3, Some(0));
        let err = check_placement(&rules, &p, &[]).unwrap_err();
        assert_eq!(
            err,
            vec![RuleViolation::UnknownGroupInCell {
                square: (1, 2),
                group: 7,
                groups: 2
            }]
        );
        assert_eq!(
            err[0].to_string(),
            "square c2 holds a piece of group 7, but there are only 2 groups"
        );

        let mut bad = rules.clone();
        bad.no_attack.push((1, 5));
        let err = check_placement(&bad, &Placement::empty(&bad.layout), &[]).unwrap_err();
        assert_eq!(
            err,
            vec![RuleViolation::UnknownGroupInRule {
                pair: (1, 5),
                groups: 2
            }]
        );
        assert!(addable_squares(&bad, &Placement::empty(&bad.layout), 9).is_empty());
    }

    #[test]
    fn addable_squares_by_hand() {
        let rules = Rules {
            layout: plain(3, 3),
            groups: vec![group("white", Kind::Queen), group("black", Kind::Queen)],
            no_attack: vec![(0, 1)],
        };
        let mut p = Placement::empty(&rules.layout);
        p.set(0, 0, Some(0));
        // Black may not go on a1's row, column or diagonal; white may go anywhere empty.
        assert_eq!(addable_squares(&rules, &p, 1), vec![(1, 2), (2, 1)]);
        assert_eq!(addable_squares(&rules, &p, 0).len(), 8);
        // Knights within one group, plus a king group that must not attack them.
        let rules = Rules {
            layout: plain(3, 3),
            groups: vec![group("n", Kind::Knight), group("k", Kind::King)],
            no_attack: vec![(0, 0), (0, 1)],
        };
        let mut p = Placement::empty(&rules.layout);
        p.set(1, 1, Some(1));
        // A knight may not stand next to the king.
        assert!(addable_squares(&rules, &p, 0).is_empty());
        let mut p = Placement::empty(&rules.layout);
        p.set(0, 0, Some(0));
        // Knight on a1 attacks (1,2) and (2,1); a king must not stand next to it.
        assert_eq!(
            addable_squares(&rules, &p, 0),
            vec![(0, 1), (0, 2), (1, 0), (1, 1), (2, 0), (2, 2)]
        );
        assert_eq!(addable_squares(&rules, &p, 1), vec![(0, 2), (2, 0), (2, 2)]);
        // Every addable square really can be added, and every other empty one cannot.
        for g in 0..2 {
            let ok = addable_squares(&rules, &p, g);
            for s in all_squares(&rules.layout) {
                if p.get(s.0, s.1).is_some() {
                    continue;
                }
                let mut q = p.clone();
                q.set(s.0, s.1, Some(g));
                assert_eq!(
                    check_placement(&rules, &q, &[]).is_ok(),
                    ok.contains(&s),
                    "{g} {s:?}"
                );
            }
        }
    }
}
