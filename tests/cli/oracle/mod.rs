//! Brute-force oracle for the peaceable-queens problem, for integration tests.
//!
//! Written from the problem statement alone and independent of the rest of the
//! workspace: it uses only `pq_board::placement::Placement` as a data carrier (a board is a
//! placement of the peaceable queens: group 0 white, group 1 black). It does not
//! call pq-board's validator (`pq_board::rules`); attacks are computed differently here,
//! by walking from each square along the 8 queen directions and marking every square
//! reached (pieces never block), and sets of squares are `u64` bit masks.
//!
//! Everything is exhaustive and meant for small boards (`d <= 6`; the masks limit
//! `d` to 8).
//!
//! Test modules use it as `crate::oracle`; the oracle for general placement problems is
//! the submodule [`placement`].

use std::collections::BTreeSet;

use pq_board::placement::{Placement, Rules};

pub(crate) mod placement;

/// A square holding a white queen.
pub(crate) const WHITE: Option<usize> = Some(0);
/// A square holding a black queen.
pub(crate) const BLACK: Option<usize> = Some(1);

/// An empty `d × d` board.
pub(crate) fn empty(d: usize) -> Placement {
    Placement::empty(&Rules::peaceable_queens(d).layout)
}

/// The board drawn by `rows` of `W`, `B` and `.`.
pub(crate) fn board(rows: &[impl AsRef<str>]) -> Placement {
    Placement::from_rows(
        &Rules::peaceable_queens(rows.len()).layout,
        rows,
        &['W', 'B'],
    )
    .unwrap()
}

/// Largest side length the bit masks can hold.
const MAX_DIM: usize = 8;

/// `attack[s]`: mask of the squares attacked from square `s = row * d + col`
/// (excluding `s` itself), found by walking the 8 directions to the edge.
fn attack_masks(d: usize) -> Vec<u64> {
    assert!(d <= MAX_DIM, "oracle supports d <= {MAX_DIM}, got {d}");
    let dirs: [(isize, isize); 8] = [
        (-1, -1),
        (-1, 0),
        (-1, 1),
        (0, -1),
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
    ];
    let di = d as isize;
    let mut masks = vec![0u64; d * d];
    for r0 in 0..di {
        for c0 in 0..di {
            let mut m = 0u64;
            for &(dr, dc) in &dirs {
                let (mut r, mut c) = (r0 + dr, c0 + dc);
                while r >= 0 && r < di && c >= 0 && c < di {
                    m |= 1u64 << (r * di + c);
                    r += dr;
                    c += dc;
                }
            }
            masks[(r0 * di + c0) as usize] = m;
        }
    }
    masks
}

/// Mask of all `d * d` squares.
fn full_mask(d: usize) -> u64 {
    if d * d == 64 {
        u64::MAX
    } else {
        (1u64 << (d * d)) - 1
    }
}

/// Calls `visit(white_mask, safe_mask)` for every set of exactly `n` white squares
/// whose safe set (squares neither white nor attacked by a white queen) has at least
/// `need` squares. Returns early (with `true`) as soon as `visit` returns `true`.
///
/// Pruning is sound because adding a white queen can only shrink the safe set.
fn for_each_white_set(
    d: usize,
    n: usize,
    need: usize,
    visit: &mut dyn FnMut(u64, u64) -> bool,
) -> bool {
    let attack = attack_masks(d);
    // `covered[s]` = the square itself plus everything it attacks.
    let covered: Vec<u64> = attack
        .iter()
        .enumerate()
        .map(|(s, &a)| a | (1u64 << s))
        .collect();
    let full = full_mask(d);
    if n > d * d {
        return false;
    }
    #[allow(clippy::too_many_arguments)]
    fn rec(
        covered: &[u64],
        full: u64,
        start: usize,
        left: usize,
        need: usize,
        whites: u64,
        cover: u64,
        visit: &mut dyn FnMut(u64, u64) -> bool,
    ) -> bool {
        let safe = full & !cover;
        if (safe.count_ones() as usize) < need {
            return false;
        }
        if left == 0 {
            return visit(whites, safe);
        }
        let cells = covered.len();
        // Leave room for the remaining `left - 1` whites after this one.
        for s in start..=cells - left {
            if rec(
                covered,
                full,
                s + 1,
                left - 1,
                need,
                whites | (1u64 << s),
                cover | covered[s],
                visit,
            ) {
                return true;
            }
        }
        false
    }
    rec(&covered, full, 0, n, need, 0, 0, visit)
}

/// Calls `visit(subset)` for every subset of exactly `k` bits of `mask`.
fn for_each_subset(mask: u64, k: usize, visit: &mut dyn FnMut(u64)) {
    fn rec(rest: u64, k: usize, acc: u64, visit: &mut dyn FnMut(u64)) {
        if k == 0 {
            visit(acc);
            return;
        }
        if (rest.count_ones() as usize) < k {
            return;
        }
        let low = rest & rest.wrapping_neg();
        // Either take the lowest remaining bit or skip it.
        rec(rest & !low, k - 1, acc | low, visit);
        rec(rest & !low, k, acc, visit);
    }
    rec(mask, k, 0, visit);
}

fn board_from_masks(d: usize, whites: u64, blacks: u64) -> Placement {
    assert_eq!(whites & blacks, 0, "a square holds two queens");
    let mut b = empty(d);
    for s in 0..d * d {
        if whites >> s & 1 == 1 {
            b.set(s / d, s % d, WHITE);
        } else if blacks >> s & 1 == 1 {
            b.set(s / d, s % d, BLACK);
        }
    }
    b
}

/// True when `b` is a `d × d` board with exactly `n` white and `n` black queens and no
/// white queen on a row, column or diagonal of a black one: the second opinion on boards
/// pq-sat prints, for any size (pairwise, no masks).
pub(crate) fn is_peaceable(b: &Placement, d: usize, n: usize) -> bool {
    let squares = |cell| {
        (0..d * d)
            .map(|s| (s / d, s % d))
            .filter(|&(r, c)| b.get(r, c) == cell)
            .collect::<Vec<_>>()
    };
    let (whites, blacks) = (squares(WHITE), squares(BLACK));
    let attack = |(r1, c1): (usize, usize), (r2, c2): (usize, usize)| {
        r1 == r2 || c1 == c2 || r1 + c2 == r2 + c1 || r1 + c1 == r2 + c2
    };
    b.rows == d
        && b.cols == d
        && whites.len() == n
        && blacks.len() == n
        && whites
            .iter()
            .all(|&w| blacks.iter().all(|&k| !attack(w, k)))
}

/// Can `n` white and `n` black queens be placed peaceably on a `d × d` board?
/// Exhaustive over the white sets; practical for `d <= 6`.
///
/// Black queens may go on any square that is neither white nor attacked by a white
/// queen (black queens never constrain each other), so a white set works iff it
/// leaves at least `n` such squares.
pub(crate) fn feasible(d: usize, n: usize) -> bool {
    if n == 0 {
        return true;
    }
    if 2 * n > d * d {
        return false;
    }
    for_each_white_set(d, n, n, &mut |_, _| true)
}

/// `a(d)`, the largest peaceable `n` on a `d × d` board, by exhaustive search;
/// practical for `d <= 6`.
pub(crate) fn optimum(d: usize) -> usize {
    // Feasibility is monotone in n (drop one queen of each colour), so climb.
    let mut n = 0;
    while feasible(d, n + 1) {
        n += 1;
    }
    n
}

/// Every board with exactly `n` white and exactly `n` black queens and no white–black
/// attack (colours distinguished, no symmetry reduction), in no particular order;
/// practical for `d <= 5`, or `d = 6` with `n` near `a(6)`.
pub(crate) fn all_boards_exact(d: usize, n: usize) -> Vec<Placement> {
    let mut out = Vec::new();
    if 2 * n > d * d {
        return out;
    }
    for_each_white_set(d, n, n, &mut |whites, safe| {
        for_each_subset(safe, n, &mut |blacks| {
            out.push(board_from_masks(d, whites, blacks));
        });
        false
    });
    out
}

/// Sends `(m, row, col)` to the image square, where `m = d - 1`.
type SquareMap = fn(usize, usize, usize) -> (usize, usize);

/// The 16 images of a board under the 8 symmetries of the square times the colour
/// swap, with repetitions; the first one is the board itself.
pub(crate) fn images(b: &Placement) -> Vec<Placement> {
    let d = b.rows;
    let m = d.saturating_sub(1);
    // Each map sends the source square (r, c) to a target square.
    let maps: [SquareMap; 8] = [
        |_, r, c| (r, c),         // identity
        |m, r, c| (c, m - r),     // rotate 90° clockwise
        |m, r, c| (m - r, m - c), // rotate 180°
        |m, r, c| (m - c, r),     // rotate 270° clockwise
        |m, r, c| (r, m - c),     // mirror left-right
        |m, r, c| (m - r, c),     // mirror top-bottom
        |_, r, c| (c, r),         // transpose (main diagonal)
        |m, r, c| (m - c, m - r), // anti-transpose
    ];
    let swap = |cell: Option<usize>| cell.map(|g| 1 - g);
    let mut out = Vec::with_capacity(16);
    for colour_swap in [false, true] {
        for map in maps {
            let mut img = empty(d);
            for r in 0..d {
                for c in 0..d {
                    let (r2, c2) = map(m, r, c);
                    let cell = b.get(r, c);
                    img.set(r2, c2, if colour_swap { swap(cell) } else { cell });
                }
            }
            out.push(img);
        }
    }
    out
}

/// The smallest image (by `Placement`'s `Ord`): a canonical representative of the orbit.
pub(crate) fn canonical(b: &Placement) -> Placement {
    images(b).into_iter().min().expect("16 images")
}

/// Number of distinct boards among the 16 images (the orbit size; divides 16).
pub(crate) fn orbit_size(b: &Placement) -> usize {
    images(b).into_iter().collect::<BTreeSet<_>>().len()
}

/// Number of orbits, under the 16-element group, met by `boards` (duplicates and
/// several members of one orbit count once).
pub(crate) fn count_orbits(boards: &[Placement]) -> usize {
    boards.iter().map(canonical).collect::<BTreeSet<_>>().len()
}

/// Every maximal configuration (no queen of either colour can be added) with at least `n`
/// queens of each colour.
///
/// With `S(X)` = the squares neither in `X` nor attacked from `X`, a configuration is maximal
/// iff black = `S(white)` and white = `S(black)`, i.e. white is a fixed point of
/// `W ↦ S(S(W))`. That map is a closure operator (`S` is antitone and `X ⊆ S(S(X))` because
/// attacks are symmetric), so its closed sets are listed by Ganter's NextClosure algorithm
/// in lectic order without trying all `2^(d²)` subsets. Practical for d <= 6.
pub(crate) fn all_maximal(d: usize, n: usize) -> Vec<Placement> {
    let masks = attack_masks(d);
    let full = full_mask(d);
    let m = d * d;
    let safe_from = |set: u64| -> u64 {
        let mut attacked = set;
        let mut rest = set;
        while rest != 0 {
            let s = rest.trailing_zeros() as usize;
            attacked |= masks[s];
            rest &= rest - 1;
        }
        full & !attacked
    };
    let close = |set: u64| safe_from(safe_from(set));
    let below = |i: usize| (1u64 << i) - 1;
    let mut out = Vec::new();
    let mut white = close(0);
    loop {
        let black = safe_from(white);
        if white.count_ones() as usize >= n && black.count_ones() as usize >= n {
            let mut b = empty(d);
            for s in 0..m {
                if white >> s & 1 == 1 {
                    b.set(s / d, s % d, WHITE);
                } else if black >> s & 1 == 1 {
                    b.set(s / d, s % d, BLACK);
                }
            }
            out.push(b);
        }
        // NextClosure: the lectically next closed set, or stop.
        let next = (0..m).rev().find_map(|i| {
            if white >> i & 1 == 1 {
                return None;
            }
            let candidate = close((white & below(i)) | 1 << i);
            (candidate & below(i) == white & below(i)).then_some(candidate)
        });
        match next {
            Some(w) => white = w,
            None => break,
        }
    }
    out
}
