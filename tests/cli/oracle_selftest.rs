//! Self-tests of the brute-force oracle in `tests/cli/oracle`, against known values and
//! against a second, naive enumeration.

use crate::oracle;

use std::collections::BTreeSet;

use pq_board::placement::Placement;

/// a(d) for d = 0..=6 (OEIS A250000; a(0) = 0 by convention).
const KNOWN: [usize; 7] = [0, 0, 0, 1, 2, 4, 5];

/// Squares of one colour, 0-based (row, col).
fn squares(b: &Placement, cell: Option<usize>) -> Vec<(usize, usize)> {
    let d = b.rows;
    (0..d)
        .flat_map(|r| (0..d).map(move |c| (r, c)))
        .filter(|&(r, c)| b.get(r, c) == cell)
        .collect()
}

/// A third formulation of an attack, by coordinates.
fn conflict(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 == b.0 || a.1 == b.1 || a.0 + b.1 == b.0 + a.1 || a.0 + a.1 == b.0 + b.1
}

fn peaceable(b: &Placement) -> bool {
    let ws = squares(b, oracle::WHITE);
    let bs = squares(b, oracle::BLACK);
    ws.iter().all(|&w| bs.iter().all(|&x| !conflict(w, x)))
}

fn combinations(cells: usize, k: usize) -> Vec<Vec<usize>> {
    fn rec(cells: usize, k: usize, start: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for s in start..cells {
            cur.push(s);
            rec(cells, k, s + 1, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    rec(cells, k, 0, &mut Vec::new(), &mut out);
    out
}

/// Naive enumeration: every pair (white n-set, black n-set), disjoint and peaceable.
fn naive_exact(d: usize, n: usize) -> BTreeSet<Placement> {
    let sets = combinations(d * d, n);
    let mut out = BTreeSet::new();
    for w in &sets {
        for bl in &sets {
            if w.iter().any(|s| bl.contains(s)) {
                continue;
            }
            let ok = w.iter().all(|&a| {
                bl.iter()
                    .all(|&b| !conflict((a / d, a % d), (b / d, b % d)))
            });
            if ok {
                let mut board = oracle::empty(d);
                for &a in w {
                    board.set(a / d, a % d, oracle::WHITE);
                }
                for &b in bl {
                    board.set(b / d, b % d, oracle::BLACK);
                }
                out.insert(board);
            }
        }
    }
    out
}

#[test]
fn optimum_matches_known_values() {
    for (d, &a) in KNOWN.iter().enumerate().skip(1) {
        assert_eq!(oracle::optimum(d), a, "a({d})");
    }
}

#[test]
fn feasible_is_tight() {
    for (d, &a) in KNOWN.iter().enumerate().skip(1) {
        for n in 0..=a {
            assert!(oracle::feasible(d, n), "feasible({d}, {n})");
        }
        assert!(!oracle::feasible(d, a + 1), "feasible({d}, {})", a + 1);
        assert!(!oracle::feasible(d, a + 2), "feasible({d}, {})", a + 2);
    }
}

#[test]
fn exact_boards_exist_iff_feasible() {
    for (d, &a) in KNOWN.iter().enumerate().skip(1).take(5) {
        for n in 0..=a + 1 {
            let boards = oracle::all_boards_exact(d, n);
            assert_eq!(!boards.is_empty(), n <= a, "d={d} n={n}");
        }
    }
    // d = 6 at the optimum and one above.
    assert!(!oracle::all_boards_exact(6, 5).is_empty());
    assert!(oracle::all_boards_exact(6, 6).is_empty());
}

#[test]
fn exact_boards_are_valid_and_distinct() {
    for (d, n) in [(3, 1), (4, 2), (5, 3), (5, 4), (6, 5)] {
        let boards = oracle::all_boards_exact(d, n);
        let set: BTreeSet<_> = boards.iter().cloned().collect();
        assert_eq!(set.len(), boards.len(), "duplicates for d={d} n={n}");
        for b in &boards {
            assert_eq!(b.rows, d);
            assert_eq!(b.count(0), n, "{b:?}");
            assert_eq!(b.count(1), n, "{b:?}");
            assert!(peaceable(b), "not peaceable:\n{b:?}");
        }
    }
}

#[test]
fn exact_enumeration_matches_naive() {
    for (d, n) in [
        (2, 0),
        (2, 1),
        (3, 1),
        (3, 2),
        (4, 1),
        (4, 2),
        (4, 3),
        (5, 3),
    ] {
        let fast: BTreeSet<_> = oracle::all_boards_exact(d, n).into_iter().collect();
        let slow = naive_exact(d, n);
        assert_eq!(fast.len(), slow.len(), "count for d={d} n={n}");
        assert_eq!(fast, slow, "d={d} n={n}");
    }
}

#[test]
fn small_counts_by_hand() {
    // d = 1: only the empty board for n = 0; nothing for n = 1.
    assert_eq!(oracle::all_boards_exact(1, 0).len(), 1);
    assert!(oracle::all_boards_exact(1, 1).is_empty());
    // d = 3, n = 1: a white queen in a corner leaves 2 safe squares (knight moves),
    // on an edge centre 2 (the far corners), in the centre 0: 4*2 + 4*2 = 16 boards.
    assert_eq!(oracle::all_boards_exact(3, 1).len(), 16);
    // d = 2: every pair of squares attacks, so n = 1 is infeasible.
    assert!(!oracle::feasible(2, 1));
}

#[test]
fn images_has_16_with_identity_first() {
    let b = oracle::board(&["WW..", "...B", "....", "..B."]);
    let imgs = oracle::images(&b);
    assert_eq!(imgs.len(), 16);
    assert_eq!(imgs[0], b);
    assert!(imgs.contains(&b));
    // This board has no symmetry: all 16 images differ.
    assert_eq!(imgs.iter().collect::<BTreeSet<_>>().len(), 16);
    // Images preserve peaceability and swap counts as expected.
    for img in &imgs {
        assert!(peaceable(img));
        assert_eq!(img.count(0), 2);
        assert_eq!(img.count(1), 2);
    }
    // The colour-swapped copy of the identity is among them.
    let swapped = oracle::board(&["BB..", "...W", "....", "..W."]);
    assert!(imgs.contains(&swapped));
    // A rotation by 90 degrees clockwise: (r, c) -> (c, d-1-r).
    let rot = oracle::board(&["...W", "...W", "B...", "..B."]);
    assert!(imgs.contains(&rot), "rotation missing");
    // The group is closed: images of images are images.
    let all: BTreeSet<_> = imgs.iter().cloned().collect();
    for img in &imgs {
        for img2 in oracle::images(img) {
            assert!(all.contains(&img2));
        }
    }
}

#[test]
fn symmetric_board_has_small_orbit() {
    // The empty board is fixed by everything.
    assert_eq!(oracle::orbit_size(&oracle::empty(4)), 1);
    assert_eq!(oracle::count_orbits(&[oracle::empty(4)]), 1);
    // Whites in two opposite corners, blacks in the other two: fixed by the 4
    // symmetries that map {(0,0),(3,3)} to itself; the colour swap composed with a
    // 90-degree rotation also fixes it. So the stabiliser has 8 elements, orbit 2.
    let b = oracle::board(&["W..B", "....", "....", "B..W"]);
    assert_eq!(oracle::orbit_size(&b), 2);
}

#[test]
fn orbits_for_d4_n2() {
    let boards = oracle::all_boards_exact(4, 2);
    let set: BTreeSet<_> = boards.iter().cloned().collect();
    // The full enumeration is closed under the group.
    for b in &boards {
        for img in oracle::images(b) {
            assert!(
                set.contains(&img),
                "image missing from enumeration:\n{img:?}"
            );
        }
    }
    let orbits = oracle::count_orbits(&boards);
    assert!(orbits >= 1 && orbits <= boards.len());
    assert!(boards.len() <= 16 * orbits);
    // Orbit sizes divide 16, and they partition the set.
    let mut seen = BTreeSet::new();
    let mut total = 0;
    for b in &boards {
        let size = oracle::orbit_size(b);
        assert_eq!(16 % size, 0, "orbit size {size}");
        let canon = oracle::images(b).into_iter().min().unwrap();
        if seen.insert(canon) {
            total += size;
        }
    }
    assert_eq!(seen.len(), orbits);
    assert_eq!(total, boards.len());
    // Burnside: #orbits = (1/16) * sum over the 16 group elements of #fixed boards.
    let mut fixed = 0;
    for b in &boards {
        fixed += oracle::images(b).iter().filter(|img| *img == b).count();
    }
    assert_eq!(fixed % 16, 0);
    assert_eq!(fixed / 16, orbits);
    // Duplicates and repeated orbit members do not change the count.
    let mut doubled = boards.clone();
    doubled.extend(boards.iter().flat_map(oracle::images));
    assert_eq!(oracle::count_orbits(&doubled), orbits);
    // Also matched by `naive_exact` above and by a separate throw-away script.
    assert_eq!((boards.len(), orbits), (112, 10));
}

#[test]
fn orbit_sizes_divide_16_on_larger_sets() {
    // Expected (boards, orbits) were also computed by a separate throw-away script.
    for (d, n, expected) in [(5, 4, (18, 3)), (6, 5, (560, 35))] {
        let boards = oracle::all_boards_exact(d, n);
        let orbits = oracle::count_orbits(&boards);
        let mut fixed = 0;
        for b in &boards {
            let size = oracle::orbit_size(b);
            assert_eq!(16 % size, 0);
            fixed += 16 / size; // size of the stabiliser
        }
        assert_eq!(fixed % 16, 0);
        assert_eq!(fixed / 16, orbits, "Burnside for d={d} n={n}");
        eprintln!("d={d} n={n}: {} boards, {} orbits", boards.len(), orbits);
        assert_eq!((boards.len(), orbits), expected, "d={d} n={n}");
    }
}
