//! Torus certificates (section 7 of the page, `board torus D`): the reference writer's
//! refutations verify exactly when brute force over placements on the torus finds none, the
//! searched pairs are the least ones of the group's orbits, and every change the format
//! forbids (a false leaf, a wrong group order, a square certificate called a torus one, a
//! diagonal index of `D` or more, a `paired` or `cube` line) is refused.

mod common;

use common::{
    family_sum, fits_on, inner, naive_accepts, subtree_end, torus_least, write, Cert, Random, Spec,
    CELLS_BLACK, CELLS_WHITE,
};
use pq_check::{check, combine, searched_pairs, Board, Claim, Failure, Rules, Together, Verified};

fn verify(bytes: &[u8]) -> Verified {
    match check(bytes) {
        Ok(verified) => verified,
        Err(failure) => panic!("refused: {failure}"),
    }
}

fn verifies(bytes: &[u8]) -> bool {
    match check(bytes) {
        Ok(_) => true,
        Err(Failure::Refused { .. }) => false,
        Err(Failure::Io(error)) => panic!("read error: {error}"),
    }
}

fn refused_with(bytes: &[u8], words: &str) -> u64 {
    match check(bytes) {
        Ok(verified) => panic!("verified: {verified:?}"),
        Err(Failure::Refused { offset, reason }) => {
            assert!(reason.contains(words), "expected {words:?} in {reason:?}");
            offset
        }
        Err(Failure::Io(error)) => panic!("read error: {error}"),
    }
}

fn refutation(spec: &Spec) -> Cert {
    let cert = write(spec, None).expect("UNSAT");
    assert!(verifies(&cert.bytes()), "{spec:?}");
    cert
}

/// The largest `m` with `m` white and `m` black queens on the `d × d` torus, for `d = 1 … 8`,
/// as the brute force of the tests finds it (checked there).
const LARGEST: [u64; 8] = [0, 0, 0, 2, 2, 4, 4, 8];

/// The (7, 5) step with the cells rules only: deep trees, with many inner nodes.
fn deep() -> Cert {
    refutation(&Spec::torus(7, 5, 5).cells_only())
}

fn with_header_line(cert: &Cert, from: &str, to: &str) -> Vec<u8> {
    let header = cert.spec.header();
    assert!(header.contains(from), "{from:?} not in the header");
    Cert::assemble(&header.replacen(from, to, 1), &cert.trees, &cert.trailer())
}

/// The offset in the whole stream of byte `at` of tree `k`.
fn offset_of(cert: &Cert, k: usize, at: usize) -> u64 {
    (cert.spec.header().len() + cert.trees[..k].iter().map(Vec::len).sum::<usize>() + at) as u64
}

fn torus_claim(side: u32, white: u64, black: u64) -> Claim {
    Claim {
        kind: Board::Torus,
        side,
        white,
        black,
        lo: 0,
        hi: 1 << side,
        cube: None,
        rules: Rules {
            weights: vec![(1, 1)],
            paired: Vec::new(),
        },
    }
}

/// Every step and unequal armies on tori up to 7 × 7 (and some on 8 × 8): the reference
/// writer finds a refutation exactly when brute force over placements finds none, and the
/// checker verifies each refutation; for a step that fits, the writer reaches a solution (so
/// no refutation of it exists).
#[test]
fn the_writer_agrees_with_brute_force_on_the_torus() {
    let (mut refuted, mut placed) = (0, 0);
    for side in 1..=8u32 {
        let cells = u64::from(side * side);
        let largest = LARGEST[side as usize - 1];
        let mut cases: Vec<(u64, u64)> = if side <= 7 {
            (1..=cells / 2 + 1).map(|m| (m, m)).collect()
        } else {
            // The smallest black army that no white army of 2 or 3 leaves room for.
            vec![
                (largest, largest),
                (largest + 1, largest + 1),
                (2, 25),
                (3, 19),
            ]
        };
        let whites = if side <= 6 { cells.min(8) } else { 3 };
        for white in 1..=whites {
            for black in [1, 2, 3, 4, 5, 7, 9, 12, 16, 20] {
                if white != black && black <= cells && (side <= 6 || black % 4 == 1) {
                    cases.push((white, black));
                }
            }
        }
        for (white, black) in cases {
            let placement = fits_on(side, true, white, black);
            if white == black {
                assert_eq!(placement, white <= largest, "d = {side}, m = {white}");
            }
            for spec in [
                Spec::torus(side, white, black),
                Spec::torus(side, white, black)
                    .cells_only()
                    .weights(&[(1, 1)]),
            ] {
                match write(&spec, None) {
                    Ok(cert) => {
                        assert!(
                            !placement,
                            "d = {side}, armies {white} {black}: refuted, but brute force fits"
                        );
                        let verified = verify(&cert.bytes());
                        assert!(verified.claim.is_whole());
                        assert_eq!(verified.claim.kind, Board::Torus);
                        assert_eq!(verified.pairs, cert.trees.len() as u64);
                        assert_eq!(verified.nodes, cert.nodes() as u64);
                        refuted += 1;
                    }
                    Err(_) => assert!(
                        placement,
                        "d = {side}, armies {white} {black}: a solution, but brute force finds \
                         no placement"
                    ),
                }
            }
            placed += usize::from(placement);
        }
    }
    assert!(
        refuted > 200 && placed > 50,
        "{refuted} refuted, {placed} placed"
    );
}

/// A writer that puts a leaf on a solution anyway: whatever rule it names is refused.
#[test]
fn a_leaf_on_a_solution_is_refused() {
    for side in 4..=7u32 {
        let m = LARGEST[side as usize - 1];
        let spec = Spec::torus(side, m, m);
        assert!(write(&spec, None).is_err(), "d = {side}, m = {m} is SAT");
        for byte in [CELLS_WHITE, CELLS_BLACK, 0xC0, 0xC3, 0xC8, 0xCB] {
            let cert = write(&spec, Some(byte)).unwrap();
            refused_with(&cert.bytes(), "does not hold");
        }
    }
    // The refutation of the next step does not prove the SAT step.
    let mut cert = refutation(&Spec::torus(6, 5, 5));
    (cert.spec.white, cert.spec.black) = (4, 4);
    assert!(!verifies(&cert.bytes()));
}

/// The searched pairs of the checker are the least pairs (by the orbit of the group, closed
/// under its generators) that pass the product bound, on tori up to 6 × 6, equal and unequal
/// armies; and the group's order is the formula of T6.
#[test]
fn the_searched_pairs_are_the_least_of_their_orbits() {
    for side in 1..=6u32 {
        for swap in [true, false] {
            let least = torus_least(side, swap);
            let cells = u64::from(side * side);
            let armies: Vec<(u64, u64)> = if swap {
                (1..=cells / 2).map(|m| (m, m)).collect()
            } else {
                vec![
                    (1, 2),
                    (2, 1),
                    (1, cells.max(2) - 1),
                    (3, 5),
                    (side.into(), 1),
                ]
            };
            for (white, black) in armies {
                let claim = torus_claim(side, white, black);
                let mut checker = Vec::new();
                searched_pairs::<()>(&claim, |s, t| {
                    checker.push((s, t));
                    Ok(())
                })
                .unwrap();
                let d = u64::from(side);
                let expected: Vec<(u32, u32)> = least
                    .iter()
                    .copied()
                    .filter(|&(s, t)| {
                        let (rows, columns) =
                            (u64::from(s.count_ones()), u64::from(t.count_ones()));
                        rows * columns >= white && (d - rows) * (d - columns) >= black
                    })
                    .collect();
                assert_eq!(checker, expected, "d = {side}, armies {white} {black}");
                assert_eq!(
                    u64::from(claim.group_order()),
                    Spec::torus(side, white, black).order()
                );
            }
        }
    }
    for (side, equal, unequal) in [(1, 4, 2), (2, 16, 8), (3, 144, 72), (5, 800, 400)] {
        assert_eq!(torus_claim(side, 3, 3).group_order(), equal);
        assert_eq!(torus_claim(side, 3, 4).group_order(), unequal);
    }
    assert_eq!(torus_claim(15, 1, 1).group_order(), 14_400);
    assert_eq!(torus_claim(15, 1, 2).group_order(), 7_200);
}

#[test]
fn parts_of_the_torus_verify_and_combine() {
    let (side, m) = (6, 5);
    let whole = 1u64 << side;
    let part = |lo, hi| verify(&refutation(&Spec::torus(side, m, m).rows(lo, hi)).bytes()).claim;
    for split in [0, 1, 7, 33, 64] {
        let claims = [part(0, split), part(split, whole)];
        assert_eq!(combine(&claims), Ok(Together::Whole), "split at {split}");
    }
    assert_eq!(
        combine(&[part(0, 13), part(14, whole)]),
        Ok(Together::Part {
            covered: vec![(0, 13), (14, whole)],
            missing: vec![(13, 14)]
        })
    );
    // A square certificate of the same side and armies is another claim.
    let square = verify(
        &write(&Spec::new(side, 7, 7).rows(13, whole), None)
            .unwrap()
            .bytes(),
    )
    .claim;
    let torus = Claim {
        white: 7,
        black: 7,
        ..part(0, 13)
    };
    let reason = combine(&[torus, square]).unwrap_err();
    assert!(
        reason.contains("board square 6 armies 7 7") && reason.contains("board torus 6"),
        "{reason}"
    );
}

/// Every leaf of torus certificates replaced by every leaf byte: the checker verifies the
/// result exactly when the rule holds by the definition (the cells recounted with the torus
/// incidence); paired-cells bytes and weights beyond the list never hold.
#[test]
fn every_torus_leaf_rule_is_judged_as_the_definition_says() {
    let specs = [
        Spec::torus(6, 5, 5),
        Spec::torus(6, 5, 5).cells_only(),
        Spec::torus(7, 5, 5).weights(&[(1, 1), (2, 3)]),
        Spec::torus(5, 2, 4).cells_only(),
        Spec::torus(4, 3, 3),
        Spec::torus(8, 2, 25).cells_only(),
    ];
    let bytes = [
        CELLS_WHITE,
        CELLS_BLACK,
        family_sum(0, 0),
        family_sum(0, 1),
        family_sum(0, 3),
        family_sum(0, 4),
        family_sum(1, 0),
        family_sum(1, 2),
        family_sum(1, 3),
        family_sum(1, 7),
        0xD0,
        0xD7,
    ];
    for spec in specs {
        let cert = refutation(&spec);
        let (mut held, mut failed) = (0, 0);
        for leaf in &cert.leaves {
            for byte in bytes {
                let mut trees = cert.trees.clone();
                trees[leaf.tree][leaf.at] = byte;
                let expected = common::holds(&spec, leaf.s, leaf.t, &leaf.labels, byte);
                assert_eq!(
                    verifies(&cert.with_trees(&trees)),
                    expected,
                    "{spec:?} leaf {leaf:?} byte {byte:#04x}"
                );
                if expected {
                    held += 1;
                } else {
                    failed += 1;
                }
            }
        }
        assert!(
            held > 0 && failed > 0,
            "{spec:?}: {held} held, {failed} failed"
        );
    }
}

#[test]
fn random_changes_of_a_torus_body_are_judged_as_the_naive_judge_does() {
    for (spec, changes) in [
        (Spec::torus(7, 5, 5).cells_only(), 3000),
        (Spec::torus(6, 5, 5), 2000),
        (Spec::torus(6, 3, 9).cells_only(), 2000),
    ] {
        let cert = refutation(&spec);
        let header = spec.header().len();
        let good = cert.bytes();
        let mut random = Random::new(0x7045 + u64::from(spec.side));
        let (mut accepted, mut refused) = (0, 0);
        for _ in 0..changes {
            let mut bytes = good.clone();
            let body = cert.nodes();
            let at = header + random.below(body);
            bytes[at] = match random.below(4) {
                // Another diagonal, perhaps one beyond the torus's D - 1.
                0 => inner(
                    random.below(2) as u8,
                    random.below(2 * spec.side as usize) as u8,
                ),
                1 => [CELLS_WHITE, CELLS_BLACK][random.below(2)],
                2 => family_sum(random.below(2) as u8, random.below(5) as u8),
                _ => random.below(256) as u8,
            };
            let naive = naive_accepts(&spec, &cert.pairs, &bytes[header..]);
            assert_eq!(
                verifies(&bytes),
                naive,
                "{spec:?}: byte {at} set to {}",
                bytes[at]
            );
            if naive {
                accepted += 1;
            } else {
                refused += 1;
            }
        }
        assert!(
            accepted > 0 && refused > 0,
            "{accepted} accepted, {refused} refused"
        );
    }
}

/// A leaf flipped to the other cells rule, or to the other family, where that rule fails.
#[test]
fn a_flipped_leaf_is_refused() {
    let cert = deep();
    let mut flipped = 0;
    for leaf in &cert.leaves {
        let byte = cert.trees[leaf.tree][leaf.at];
        let other = match byte {
            CELLS_WHITE => CELLS_BLACK,
            CELLS_BLACK => CELLS_WHITE,
            _ => byte ^ 0x08,
        };
        if common::holds(&cert.spec, leaf.s, leaf.t, &leaf.labels, other) {
            continue;
        }
        let mut trees = cert.trees.clone();
        trees[leaf.tree][leaf.at] = other;
        let offset = refused_with(&cert.with_trees(&trees), "does not hold");
        assert_eq!(offset, offset_of(&cert, leaf.tree, leaf.at));
        flipped += 1;
    }
    assert!(flipped > 100, "{flipped} leaves flipped");
    // The two subtrees of an inner node exchanged (the W child's below the B label).
    let mut exchanged = 0;
    for (k, tree) in cert.trees.iter().enumerate() {
        if tree[0] >= 0x80 {
            continue;
        }
        let w_end = subtree_end(tree, 1);
        let mut trees = cert.trees.clone();
        trees[k] = [&tree[..1], &tree[w_end..], &tree[1..w_end]].concat();
        let naive = naive_accepts(
            &cert.spec,
            &cert.pairs,
            &cert.with_trees(&trees)[cert.spec.header().len()..],
        );
        assert_eq!(verifies(&cert.with_trees(&trees)), naive);
        exchanged += usize::from(!naive);
    }
    assert!(exchanged > 5, "{exchanged} exchanged trees refused");
}

#[test]
fn a_wrong_torus_group_order_is_refused() {
    let cert = deep();
    // 8·φ(7)·49 = 2352; the square's 16, the other armies' half, the smaller group's 8·49.
    assert!(cert.spec.header().contains("\nsymmetry 2352\n"));
    for order in ["16", "8", "1176", "392", "2351", "4704", "02352"] {
        refused_with(
            &with_header_line(&cert, "symmetry 2352", &format!("symmetry {order}")),
            "symmetry",
        );
    }
    let unequal = refutation(&Spec::torus(6, 3, 9));
    // 4·φ(6)·36 = 288.
    assert!(unequal.spec.header().contains("\nsymmetry 288\n"));
    refused_with(
        &with_header_line(&unequal, "symmetry 288", "symmetry 576"),
        "torus with armies 3 and 9 has order 288",
    );
    // d = 1 and 2 keep the formula's count of words.
    for (side, white, black, order) in [(1, 1, 1, 4), (1, 1, 2, 2), (2, 1, 1, 16), (2, 2, 1, 8)] {
        let cert = refutation(&Spec::torus(side, white, black));
        assert!(cert
            .spec
            .header()
            .contains(&format!("\nsymmetry {order}\n")));
    }
}

/// A square certificate under a torus header (with the torus's group order) and a torus one
/// under a square header: the trees belong to other pairs and other cells.
#[test]
fn a_certificate_of_the_other_board_is_refused() {
    for (side, m) in [(5, 5), (6, 6), (7, 8)] {
        let square = refutation(&Spec::new(side, m, m));
        let mut relabelled = square.clone();
        relabelled.spec.torus = true;
        assert!(
            !verifies(&relabelled.bytes()),
            "square {side}/{m} read as a torus"
        );
        // Only the board word changed: the group's order is then wrong as well.
        let header = square
            .spec
            .header()
            .replacen("board square", "board torus", 1);
        refused_with(
            &Cert::assemble(&header, &square.trees, &square.trailer()),
            "symmetry 16",
        );
    }
    for (side, m) in [(5, 3), (6, 5), (7, 5)] {
        let torus = refutation(&Spec::torus(side, m, m));
        let mut relabelled = torus.clone();
        relabelled.spec.torus = false;
        assert!(
            !verifies(&relabelled.bytes()),
            "torus {side}/{m} read as a square"
        );
    }
}

#[test]
fn a_diagonal_index_of_d_or_more_is_refused() {
    let cert = refutation(&Spec::torus(6, 5, 5));
    let side = cert.spec.side as u8;
    let k = cert
        .trees
        .iter()
        .position(|tree| tree.len() == 1)
        .expect("a one-leaf tree");
    let leaf = cert.trees[k][0];
    for family in 0..2 {
        let mut trees = cert.trees.clone();
        // A branch above a one-leaf tree, each child that leaf: valid up to index D - 1.
        trees[k] = vec![inner(family, side - 1), leaf, leaf];
        assert!(verifies(&cert.with_trees(&trees)));
        // D … 2D - 2 are diagonals of the square board, not of the torus.
        for index in [side, side + 1, 2 * side - 2, 2 * side - 1, 63] {
            trees[k] = vec![inner(family, index), leaf, leaf];
            assert_eq!(
                refused_with(&cert.with_trees(&trees), "beyond D - 1"),
                offset_of(&cert, k, 0)
            );
        }
    }
}

#[test]
fn a_paired_or_cube_line_is_refused() {
    let cert = deep();
    for paired in ["paired 1:1\n", "paired 1:2 2:1\n"] {
        let bytes = with_header_line(&cert, "\nrows ", &format!("\n{paired}rows "));
        refused_with(&bytes, "no `paired` line");
    }
    let rows = "rows 0 128\n";
    for cube in ["cube 0 0 0 0\n", "cube 1 1 0 0 0:3:W\n"] {
        let bytes = with_header_line(&cert, rows, &format!("{rows}{cube}"));
        refused_with(&bytes, "no `cube` line");
    }
    // A paired-cells leaf has no line to name its weight.
    let leaf = &cert.leaves[0];
    let mut trees = cert.trees.clone();
    trees[leaf.tree][leaf.at] = 0xD0;
    refused_with(&cert.with_trees(&trees), "no `paired` line");
}

#[test]
fn a_malformed_torus_board_line_is_refused() {
    let cert = refutation(&Spec::torus(5, 3, 3));
    for line in [
        "board torus 0",
        "board torus 33",
        "board torus 05",
        "board torus  5",
        "board torus",
        "board toroidal 5",
        "board Torus 5",
        "board torus 5 5",
    ] {
        assert!(
            !verifies(&with_header_line(&cert, "board torus 5", line)),
            "{line}"
        );
    }
}

/// The largest torus the format allows reads: its symmetry line is `8·φ(32)·32² = 131072`
/// (an empty range, since every `T` of one `S` would be four billion pairs to test).
#[test]
fn the_largest_torus_reads() {
    let mut bytes = b"pq-search-certificate 1\nboard torus 32\narmies 1 1\nsymmetry 131072\n\
                      weights 1:1\nrows 0 1\nbegin\n"
        .to_vec();
    bytes.extend_from_slice(b"\xffend 0 0\n");
    let verified = verify(&bytes);
    assert_eq!((verified.pairs, verified.nodes), (0, 0));
    assert_eq!(
        verified.claim.to_string(),
        "board torus 32 armies 1 1 rows 0 1 rules weights 1:1"
    );
}
