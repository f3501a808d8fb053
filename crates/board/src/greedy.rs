//! A quick greedy placement of the peaceable queens that gives pq-sat's optimiser a lower
//! bound and a witness.
//!
//! White queens are added one at a time on the square that newly attacks the fewest
//! squares (the "fewest attacked" heuristic that Smith, Petrie & Gent report finds good
//! solutions fast); after each white queen, every square no white queen attacks is free for
//! a black queen. The best balance `min(white, free)` over the run is the bound.

use crate::placement::{Placement, Rules};

/// A placement of the peaceable queens ([`Rules::peaceable_queens`]) with `n` white and `n`
/// black queens and no attack between the colours (to be checked by the validator like every
/// other placement).
pub fn greedy_placement(dim: usize) -> (usize, Placement) {
    let d = dim;
    let n_lines = 6 * d - 2;
    let lines_of = |r: usize, c: usize| [r, d + c, 2 * d + (r + d - 1 - c), 4 * d - 1 + (r + c)];
    // uncovered[l]: squares on line l that no white queen attacks or occupies.
    let mut uncovered = vec![0usize; n_lines];
    for r in 0..d {
        for c in 0..d {
            for l in lines_of(r, c) {
                uncovered[l] += 1;
            }
        }
    }
    let mut covered = vec![false; d * d];
    let mut white = vec![false; d * d];
    let mut free = d * d;
    // The best balance so far, its white queens and the squares they cover.
    let mut best = (0usize, Vec::new(), Vec::new());
    for k in 1..=d * d {
        // The square whose queen covers the fewest new squares; two lines through a square
        // share only that square, so the new cover is the sum over its lines, minus the
        // square itself counted four times (when it is still uncovered).
        let pick = (0..d * d).filter(|&i| !white[i]).min_by_key(|&i| {
            let (r, c) = (i / d, i % d);
            let sum: usize = lines_of(r, c).iter().map(|&l| uncovered[l]).sum();
            if covered[i] {
                sum
            } else {
                sum - 3
            }
        });
        let Some(i) = pick else { break };
        white[i] = true;
        let (r, c) = (i / d, i % d);
        for (j, cov) in covered.iter_mut().enumerate() {
            let (r2, c2) = (j / d, j % d);
            let on_line = r2 == r || c2 == c || r2.abs_diff(r) == c2.abs_diff(c);
            if on_line && !*cov {
                *cov = true;
                free -= 1;
                for l in lines_of(r2, c2) {
                    uncovered[l] -= 1;
                }
            }
        }
        let balance = k.min(free);
        if balance > best.0 {
            best = (balance, white.clone(), covered.clone());
        }
        if free < k {
            break;
        }
    }
    let (n, whites, attacked) = best;
    let mut board = Placement::empty(&Rules::peaceable_queens(d).layout);
    if n == 0 {
        return (0, board);
    }
    for (i, _) in whites.iter().enumerate().filter(|(_, &w)| w) {
        board.set(i / d, i % d, Some(0));
    }
    for i in (0..d * d).filter(|&i| !attacked[i]) {
        board.set(i / d, i % d, Some(1));
    }
    board.keep_first(0, n);
    board.keep_first(1, n);
    (n, board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::check_placement;

    #[test]
    fn greedy_boards_are_valid_and_not_trivial() {
        for d in 1..=20 {
            let (n, board) = greedy_placement(d);
            assert!(
                check_placement(&Rules::peaceable_queens(d), &board, &[Some(n), Some(n)]).is_ok(),
                "d={d} n={n}\n{board:?}"
            );
            assert_eq!(board.count(0), n);
            assert_eq!(board.count(1), n);
            if d >= 4 {
                assert!(n >= 1, "d={d}");
            }
        }
    }
}
