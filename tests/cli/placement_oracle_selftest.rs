//! Self-tests of the brute-force placement oracle in `tests/cli/oracle/placement.rs`: known
//! values from the literature, and agreement with an exhaustive enumeration filtered by
//! the independent validator `pq_board::rules` (the oracle itself does not use it).

use crate::oracle::placement as placement_oracle;

use std::collections::{BTreeMap, BTreeSet};

use placement_oracle::{all_exact, feasible, find, max_tied};
use pq_board::placement::{Kind, Layout, Placement, Rules};
use pq_board::rules::check_placement;

fn layout(rows: usize, cols: usize, torus: bool) -> Layout {
    Layout { rows, cols, torus }
}

fn rules(layout: Layout, kinds: &[Kind], no_attack: &[(usize, usize)]) -> Rules {
    Rules::with_kinds(layout, kinds, no_attack)
}

/// Two armies of `kind` that must not attack each other (same-army attacks allowed).
fn armies(kind: Kind, d: usize) -> Rules {
    rules(layout(d, d, false), &[kind, kind], &[(0, 1)])
}

/// One group of `kind` whose pieces must not attack each other.
fn alone(kind: Kind, d: usize, torus: bool) -> Rules {
    rules(layout(d, d, torus), &[kind], &[(0, 0)])
}

/// `find` gives a placement the validator accepts, with at least the demanded pieces.
fn assert_witness(r: &Rules, at_least: &[usize]) {
    let p = find(r, at_least).unwrap_or_else(|| panic!("no witness for {at_least:?} in {r:?}"));
    assert_eq!(check_placement(r, &p, &[]), Ok(()), "{p:?}");
    for (g, &n) in at_least.iter().enumerate() {
        assert!(p.count(g) >= n, "group {g}: {} < {n}", p.count(g));
    }
}

/// Checks a maximum by definition: `n` is feasible (with a validated witness), `n + 1` not.
fn assert_max_alone(kind: Kind, d: usize, torus: bool, want: usize) {
    let r = alone(kind, d, torus);
    assert_eq!(
        max_tied(&r, &[], &[0]),
        Some(want),
        "{kind} d={d} torus={torus}"
    );
    assert_witness(&r, &[want]);
    assert!(!feasible(&r, &[want + 1]));
}

#[test]
fn peaceable_queens_a250000() {
    for (d, want) in [(1, 0), (2, 0), (3, 1), (4, 2), (5, 4)] {
        let r = armies(Kind::Queen, d);
        assert_eq!(max_tied(&r, &[], &[0, 1]), Some(want), "d = {d}");
        assert_witness(&r, &[want, want]);
    }
}

#[test]
fn peaceable_rooks_quarter_board() {
    for d in 1..=5 {
        let r = armies(Kind::Rook, d);
        assert_eq!(max_tied(&r, &[], &[0, 1]), Some(d * d / 4), "d = {d}");
        assert_witness(&r, &[d * d / 4, d * d / 4]);
    }
}

#[test]
fn non_attacking_queens() {
    for (d, want) in [(1, 1), (2, 1), (3, 2), (4, 4), (5, 5)] {
        assert_max_alone(Kind::Queen, d, false, want);
    }
}

#[test]
fn non_attacking_knights() {
    for (d, want) in [(1, 1), (2, 4), (3, 5), (4, 8), (5, 13)] {
        assert_max_alone(Kind::Knight, d, false, want);
    }
}

#[test]
fn non_attacking_kings() {
    for d in 1..=5usize {
        let half = d.div_ceil(2);
        assert_max_alone(Kind::King, d, false, half * half);
    }
}

#[test]
fn non_attacking_bishops() {
    assert_max_alone(Kind::Bishop, 1, false, 1);
    for d in 2..=5 {
        assert_max_alone(Kind::Bishop, d, false, 2 * d - 2);
    }
}

#[test]
fn non_attacking_rooks() {
    for d in 1..=5 {
        assert_max_alone(Kind::Rook, d, false, d);
    }
}

#[test]
fn toroidal_queens_exist_iff_gcd_with_6_is_1() {
    // d non-attacking queens on a d×d torus exist iff gcd(d, 6) = 1.
    assert_witness(&alone(Kind::Queen, 5, true), &[5]);
    assert!(feasible(&alone(Kind::Queen, 1, true), &[1]));
    for d in [2, 3, 4, 6] {
        assert!(!feasible(&alone(Kind::Queen, d, true), &[d]), "d = {d}");
    }
    // On the 5×5 torus all solutions are the 10 lines col = a·row + b, a ∈ {2, 3}.
    let sols: BTreeSet<Placement> = all_exact(&alone(Kind::Queen, 5, true), &[5])
        .into_iter()
        .collect();
    let lines: BTreeSet<Placement> = [2, 3]
        .into_iter()
        .flat_map(|a| (0..5).map(move |b| (a, b)))
        .map(|(a, b)| {
            let mut p = Placement::empty(&layout(5, 5, true));
            for row in 0..5 {
                p.set(row, (a * row + b) % 5, Some(0));
            }
            p
        })
        .collect();
    assert_eq!(sols, lines);
}

#[test]
fn n_queens_solution_counts() {
    // OEIS A000170: 1, 0, 0, 2, 10, 4, 40, 92.
    for (d, want) in [
        (1, 1),
        (2, 0),
        (3, 0),
        (4, 2),
        (5, 10),
        (6, 4),
        (7, 40),
        (8, 92),
    ] {
        let sols = all_exact(&alone(Kind::Queen, d, false), &[d]);
        assert_eq!(sols.len(), want, "d = {d}");
        let distinct: BTreeSet<&Placement> = sols.iter().collect();
        assert_eq!(distinct.len(), want);
        for p in &sols {
            assert_eq!(
                check_placement(&alone(Kind::Queen, d, false), p, &[Some(d)]),
                Ok(())
            );
        }
    }
}

#[test]
fn demands_beyond_the_groups() {
    let r = armies(Kind::Queen, 4);
    // Shorter demand vectors mean 0 for the rest; a demand for a missing group fails.
    assert!(feasible(&r, &[3]));
    assert!(feasible(&r, &[]));
    assert!(feasible(&r, &[2, 2, 0]));
    assert!(!feasible(&r, &[0, 0, 1]));
    assert!(all_exact(&r, &[0, 0, 1]).is_empty());
    assert_eq!(all_exact(&r, &[]), vec![Placement::empty(&r.layout)]);
    // `fixed` entries of tied groups are ignored; an impossible fixed demand gives None.
    assert_eq!(max_tied(&r, &[16, 0], &[0, 1]), Some(2));
    let three = rules(layout(4, 4, false), &[Kind::Queen; 3], &[(0, 1), (2, 2)]);
    assert_eq!(max_tied(&three, &[0, 0, 5], &[0, 1]), None);
    assert_eq!(
        max_tied(&three, &[0, 0, 4], &[0, 1]),
        Some(max_with_four_queens(&three))
    );
}

/// The largest n for two peaceable armies on 4×4 next to 4 non-attacking queens of a
/// third group, searched downwards (max_tied searches upwards).
fn max_with_four_queens(r: &Rules) -> usize {
    (0..=8)
        .rev()
        .find(|&n| feasible(r, &[n, n, 4]))
        .expect("n = 0 is feasible")
}

/// Every assignment of `groups.len() + 1` options to every square, filtered by the
/// validator, bucketed by the count vector.
fn brute_force(r: &Rules) -> BTreeMap<Vec<usize>, BTreeSet<Placement>> {
    let squares = r.layout.rows * r.layout.cols;
    let options = r.groups.len() + 1;
    let mut out: BTreeMap<Vec<usize>, BTreeSet<Placement>> = BTreeMap::new();
    let mut code = vec![0usize; squares];
    loop {
        let p = Placement {
            rows: r.layout.rows,
            cols: r.layout.cols,
            cells: code.iter().map(|&c| c.checked_sub(1)).collect(),
        };
        if check_placement(r, &p, &[]).is_ok() {
            let counts = (0..r.groups.len()).map(|g| p.count(g)).collect();
            out.entry(counts).or_default().insert(p);
        }
        // Next assignment (odometer).
        let mut i = 0;
        while i < squares && code[i] + 1 == options {
            code[i] = 0;
            i += 1;
        }
        if i == squares {
            return out;
        }
        code[i] += 1;
    }
}

/// `all_exact` agrees with the brute force for every count vector, and `feasible` with
/// "some count vector dominates the demand".
fn assert_agrees_with_brute_force(r: &Rules) {
    let brute = brute_force(r);
    let groups = r.groups.len();
    let squares = r.layout.rows * r.layout.cols;
    let mut counts = vec![0usize; groups];
    loop {
        if counts.iter().sum::<usize>() <= squares {
            let got: BTreeSet<Placement> = all_exact(r, &counts).into_iter().collect();
            let want = brute.get(&counts).cloned().unwrap_or_default();
            assert_eq!(got, want, "{counts:?} in {r:?}");
            let dominated = brute
                .keys()
                .any(|k| k.iter().zip(&counts).all(|(a, b)| a >= b));
            assert_eq!(feasible(r, &counts), dominated, "{counts:?} in {r:?}");
        }
        let mut i = 0;
        while i < groups && counts[i] == squares {
            counts[i] = 0;
            i += 1;
        }
        if i == groups {
            return;
        }
        counts[i] += 1;
    }
}

#[test]
fn agrees_with_brute_force_on_tiny_boards() {
    use Kind::*;
    type Case = (Layout, Vec<Kind>, Vec<(usize, usize)>);
    let cases: Vec<Case> = vec![
        (
            layout(3, 3, false),
            vec![Queen, Knight, King],
            vec![(0, 1), (1, 1), (1, 2)],
        ),
        (
            layout(3, 3, true),
            vec![Queen, Knight, King],
            vec![(0, 1), (1, 1), (1, 2)],
        ),
        (
            layout(3, 3, false),
            vec![Bishop, Rook, Knight],
            vec![(0, 0), (1, 2), (0, 2)],
        ),
        (
            layout(2, 4, true),
            vec![Bishop, Knight, King],
            vec![(0, 0), (0, 1), (2, 2)],
        ),
        (layout(2, 3, true), vec![Bishop, Rook], vec![(0, 1), (1, 1)]),
        (layout(3, 4, false), vec![Queen, Queen], vec![(0, 1)]),
        (
            layout(2, 2, true),
            vec![Knight, King, Rook, Bishop],
            vec![(0, 0), (1, 2), (3, 3)],
        ),
    ];
    for (l, kinds, pairs) in cases {
        assert_agrees_with_brute_force(&rules(l, &kinds, &pairs));
    }
}

#[test]
fn four_groups_on_4x4() {
    use Kind::*;
    // Dudeney's crowded board on 4×4: queens, rooks, bishops and knights, each kind
    // non-attacking among itself (other kinds do not matter). With 4 queens and 4 rooks
    // at most 5 bishops fit (so the 2n − 2 = 6 of the n × n puzzle do not), then at most
    // 3 knights; with 4 bishops, 4 knights (values from a separate exhaustive
    // enumeration over queen and rook permutations and subsets of the rest).
    let dudeney = rules(
        layout(4, 4, false),
        &[Queen, Rook, Bishop, Knight],
        &[(0, 0), (1, 1), (2, 2), (3, 3)],
    );
    assert_eq!(max_tied(&dudeney, &[4, 4, 0, 0], &[2]), Some(5));
    assert_eq!(max_tied(&dudeney, &[4, 4, 6], &[3]), None);
    assert_eq!(max_tied(&dudeney, &[4, 4, 5], &[3]), Some(3));
    assert_eq!(max_tied(&dudeney, &[4, 4, 4], &[3]), Some(4));
    assert_witness(&dudeney, &[4, 4, 5, 3]);
    assert_witness(&dudeney, &[4, 4, 4, 4]);
    // Four mutually peaceable armies of queens.
    let pairs: Vec<(usize, usize)> = (0..4)
        .flat_map(|a| (a + 1..4).map(move |b| (a, b)))
        .collect();
    let four = rules(layout(4, 4, false), &[Queen; 4], &pairs);
    let n = max_tied(&four, &[], &[0, 1, 2, 3]).expect("n = 0");
    assert!(n >= 1, "4 non-attacking queens exist on 4×4");
    assert_witness(&four, &[n; 4]);
    assert!(!feasible(&four, &[n + 1; 4]));
    // Three groups of different kinds on 5×5, all pairs and each within itself.
    let mixed = rules(
        layout(5, 5, false),
        &[Queen, Knight, King],
        &[(0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2)],
    );
    let n = max_tied(&mixed, &[], &[0, 1, 2]).expect("n = 0");
    assert_witness(&mixed, &[n; 3]);
    assert!(!feasible(&mixed, &[n + 1; 3]));
}
