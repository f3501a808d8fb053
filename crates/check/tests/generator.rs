//! Certificates from the reference writer: UNSAT steps verify, SAT steps have none, and the
//! writer agrees with brute force on small boards; the same for cubes' certificates and for
//! certificates with paired cells.

mod common;

use common::{
    fits, labelling_fits, paired, write, Cert, Cube, Spec, BLACK, CELLS_BLACK, CELLS_WHITE, WHITE,
};
use pq_check::{check, combine, Failure, Together, Verified};

fn verify(bytes: &[u8]) -> Verified {
    match check(bytes) {
        Ok(verified) => verified,
        Err(failure) => panic!("refused: {failure}"),
    }
}

fn refused(bytes: &[u8]) -> String {
    match check(bytes) {
        Ok(verified) => panic!("verified: {verified:?}"),
        Err(Failure::Refused { offset, reason }) => format!("{offset}: {reason}"),
        Err(Failure::Io(error)) => panic!("read error: {error}"),
    }
}

/// The largest m with m white and m black queens on d × d, for d = 1..8.
const LARGEST: [u64; 8] = [0, 0, 1, 2, 4, 5, 7, 9];

#[test]
fn unsat_steps_verify() {
    for (side, m) in [(3, 2), (4, 3), (5, 5), (6, 6), (7, 8)] {
        assert_eq!(LARGEST[side as usize - 1] + 1, m);
        for spec in [Spec::new(side, m, m), Spec::new(side, m, m).cells_only()] {
            let cert = write(&spec, None).expect("an UNSAT step has a refutation");
            let verified = verify(&cert.bytes());
            let claim = &verified.claim;
            assert!(claim.is_whole());
            assert_eq!((claim.side, claim.white, claim.black), (side, m, m));
            assert_eq!(verified.pairs, cert.trees.len() as u64);
            assert_eq!(verified.nodes, cert.nodes() as u64);
        }
    }
}

#[test]
fn other_weights_verify() {
    let lists: [&[(u64, u64)]; 4] = [
        &[(1, 2), (2, 1)],
        &[(3, 7)],
        &[
            (1, 1),
            (1, 2),
            (2, 1),
            (1, 3),
            (3, 1),
            (2, 3),
            (3, 2),
            (1000, 999),
        ],
        &[(1000, 1)],
    ];
    for weights in lists {
        for (side, white, black) in [(5, 5, 5), (5, 2, 9), (6, 6, 6)] {
            let spec = Spec::new(side, white, black).weights(weights);
            let cert = write(&spec, None).expect("UNSAT");
            verify(&cert.bytes());
        }
    }
}

#[test]
fn sat_steps_have_no_refutation_and_are_refused() {
    for (side, m) in [(3, 1), (4, 2), (5, 4), (6, 5)] {
        assert_eq!(LARGEST[side as usize - 1], m);
        let spec = Spec::new(side, m, m)
            .weights(&[(1, 1), (2, 1)])
            .paired(&[(1, 1), (1, 3)]);
        assert!(write(&spec, None).is_err(), "d = {side}, m = {m} is SAT");
        // A writer that puts a leaf on the solution anyway: whatever rule it names is refused.
        for byte in [CELLS_WHITE, CELLS_BLACK, 0xC0, 0xC1, 0xC8, 0xC9, 0xD0, 0xD1] {
            let cert = write(&spec, Some(byte)).unwrap();
            let reason = refused(&cert.bytes());
            assert!(reason.contains("does not hold"), "{reason}");
        }
    }
    // The refutation of the next step does not prove the SAT step.
    let cert = write(&Spec::new(6, 6, 6), None).unwrap();
    let mut claimed = cert.clone();
    claimed.spec.white = 5;
    claimed.spec.black = 5;
    refused(&claimed.bytes());
}

/// Every step and some unequal armies on boards up to 5 × 5: the writer finds a refutation
/// exactly when brute force finds no placement, and the checker verifies each refutation.
#[test]
fn writer_agrees_with_brute_force() {
    let (mut refuted, mut placed) = (0, 0);
    for side in 1..=5u32 {
        let cells = u64::from(side * side);
        let mut cases: Vec<(u64, u64)> = (1..=LARGEST[side as usize - 1] + 2)
            .map(|m| (m, m))
            .collect();
        for white in 1..=cells.min(6) {
            for black in [1, 2, 3, 5, 8, 12] {
                if white != black && black <= cells {
                    cases.push((white, black));
                }
            }
        }
        for (white, black) in cases {
            let spec = Spec::new(side, white, black).weights(&[(1, 1), (1, 2)]);
            let placement = fits(side, white, black);
            match write(&spec, None) {
                Ok(cert) => {
                    assert!(
                        !placement,
                        "d = {side}, armies {white} {black}: refuted but brute force fits"
                    );
                    verify(&cert.bytes());
                    refuted += 1;
                }
                Err(_) => assert!(
                    placement,
                    "d = {side}, armies {white} {black}: solution but brute force finds none"
                ),
            }
            placed += usize::from(placement);
            if white == black {
                assert_eq!(
                    placement,
                    white <= LARGEST[side as usize - 1],
                    "d = {side}, m = {white}"
                );
            }
        }
    }
    assert!(
        refuted > 20 && placed > 20,
        "{refuted} refuted, {placed} placed"
    );
}

#[test]
fn parts_verify_and_combine() {
    let (side, m) = (6, 6);
    let whole = 1u64 << side;
    let part = |lo, hi| {
        let cert = write(&Spec::new(side, m, m).rows(lo, hi), None).unwrap();
        let verified = verify(&cert.bytes());
        assert_eq!(verified.claim.is_whole(), lo == 0 && hi == whole);
        verified.claim
    };
    for split in [0, 1, 5, 13, 31, 64] {
        let claims = [part(0, split), part(split, whole)];
        assert_eq!(combine(&claims), Ok(Together::Whole), "split at {split}");
    }
    let gap = [part(0, 13), part(14, whole)];
    assert_eq!(
        combine(&gap),
        Ok(Together::Part {
            covered: vec![(0, 13), (14, whole)],
            missing: vec![(13, 14)]
        })
    );
    let short = [part(0, 13), part(13, whole - 1)];
    assert_eq!(
        combine(&short),
        Ok(Together::Part {
            covered: vec![(0, whole - 1)],
            missing: vec![(whole - 1, whole)]
        })
    );
    // An empty range is a valid (empty) certificate: no pairs, no nodes.
    let empty = verify(
        &write(&Spec::new(side, m, m).rows(9, 9), None)
            .unwrap()
            .bytes(),
    );
    assert_eq!((empty.pairs, empty.nodes), (0, 0));
}

/// The cube as pq-check read it, in the writer's terms.
fn read_back(cube: &pq_check::Cube) -> Cube {
    let diagonals: Vec<(u8, u8, u8)> = cube
        .diagonals
        .iter()
        .map(|&(f, i, black)| (f, i, if black { BLACK } else { WHITE }))
        .collect();
    Cube::new(cube.rows, cube.columns, &diagonals)
}

/// Cubes of every kind on UNSAT steps verify, claim their cube as written, and search exactly
/// the pairs of the whole search that agree with them (fewer, when rows or columns are fixed).
#[test]
fn cube_certificates_verify() {
    let cubes = [
        Cube::new((0, 0), (0, 0), &[]),
        Cube::new((0b101, 0b001), (0, 0), &[]),
        Cube::new((0, 0), (0b10, 0b10), &[]),
        Cube::new((0b1001, 0b1000), (0b110, 0b010), &[]),
        Cube::new((0, 0), (0, 0), &[(0, 4, WHITE)]),
        Cube::new(
            (1, 1),
            (0, 0),
            &[(0, 0, BLACK), (0, 3, WHITE), (1, 2, BLACK)],
        ),
        Cube::new((0b11, 0), (0b1, 0b1), &[(1, 4, WHITE)]),
    ];
    for (side, white, black) in [(4, 3, 3), (5, 5, 5), (6, 6, 6), (5, 2, 9)] {
        let whole = write(&Spec::new(side, white, black), None).expect("UNSAT");
        // The last diagonal of each family (index 2d − 2) may be fixed too.
        let last = 2 * side as u8 - 2;
        let edge = Cube::new((0, 0), (0, 0), &[(0, last, BLACK), (1, last, WHITE)]);
        for cube in cubes.iter().chain([&edge]) {
            let spec = Spec::new(side, white, black)
                .weights(&[(1, 1), (1, 2)])
                .cube(cube.clone());
            let cert = write(&spec, None).expect("a cube of an UNSAT step is UNSAT");
            let verified = verify(&cert.bytes());
            let claim = &verified.claim;
            assert_eq!(read_back(claim.cube.as_ref().unwrap()), *cube);
            assert_eq!(claim.cube.as_ref().unwrap().to_string(), cube.line());
            assert!(claim.all_rows() && !claim.is_whole());
            assert_eq!(verified.pairs, cert.trees.len() as u64);
            assert_eq!(verified.nodes, cert.nodes() as u64);
            let agree = whole.pairs.iter().filter(|&&(s, t)| cube.agrees(s, t));
            assert!(cert.pairs.iter().eq(agree), "d = {side}, {}", cube.line());
            if cube.rows.0 | cube.columns.0 != 0 {
                assert!(cert.pairs.len() < whole.pairs.len());
            }
        }
    }
}

/// For UNSAT steps, the cubes of every assignment of two rows, one column and one diagonal
/// (16 cubes that together contain every labelling) each verify; the rows and columns split
/// the searched pairs among them; and, given together, they prove their cubes' parts only.
#[test]
fn cubes_that_partition_every_labelling_each_verify() {
    for (side, m) in [(5, 5), (6, 6)] {
        let whole = write(&Spec::new(side, m, m), None).unwrap();
        let (rows, column, diagonal) = (1 | 1 << (side - 2), 0b100, (1, side as u8 - 1));
        let mut claims = Vec::new();
        for label in [WHITE, BLACK] {
            let mut pairs = 0;
            for rv in [0, 1, 1 << (side - 2), rows] {
                for cv in [0, column] {
                    let cube =
                        Cube::new((rows, rv), (column, cv), &[(diagonal.0, diagonal.1, label)]);
                    let cert = write(&Spec::new(side, m, m).cube(cube), None).expect("UNSAT");
                    let verified = verify(&cert.bytes());
                    pairs += verified.pairs;
                    claims.push(verified.claim);
                }
            }
            assert_eq!(pairs, whole.pairs.len() as u64, "d = {side}");
        }
        assert_eq!(combine(&claims), Ok(Together::Cubes(16)));
        // With the whole certificate among them, the claim is made by that one alone.
        claims.push(verify(&whole.bytes()).claim);
        assert_eq!(combine(&claims), Ok(Together::Whole));
    }
}

/// On boards up to 4 × 4, SAT and UNSAT steps and unequal armies: the writer refutes a cube
/// exactly when no labelling that agrees with it has enough cells (brute force over
/// labellings), and the checker verifies each refutation.
#[test]
fn cubes_agree_with_brute_force_over_labellings() {
    let (mut refuted, mut solved) = (0, 0);
    for side in 3..=4u32 {
        let last = 2 * side as u8 - 2;
        let cubes = [
            Cube::new((0b11, 0b01), (0, 0), &[]),
            Cube::new((0, 0), (0b101, 0b100), &[(0, 2, WHITE)]),
            Cube::new((0, 0), (0, 0), &[(0, side as u8 - 1, BLACK)]),
            Cube::new(
                (0, 0),
                (0, 0),
                &[(0, side as u8 - 1, WHITE), (1, side as u8 - 1, WHITE)],
            ),
            Cube::new((1, 1), (1, 0), &[(0, 1, BLACK), (1, last, WHITE)]),
        ];
        let m = LARGEST[side as usize - 1];
        for (white, black) in [(m, m), (m + 1, m + 1), (1, 3), (2, 4), (3, 2)] {
            for cube in &cubes {
                let spec = Spec::new(side, white, black)
                    .weights(&[(1, 1), (2, 1)])
                    .cube(cube.clone());
                let brute = labelling_fits(&spec);
                match write(&spec, None) {
                    Ok(cert) => {
                        assert!(
                            !brute,
                            "d = {side}, {white} {black}, {}: refuted but a labelling fits",
                            cube.line()
                        );
                        verify(&cert.bytes());
                        refuted += 1;
                    }
                    Err(solution) => {
                        assert!(cube.agrees(solution.s, solution.t));
                        assert!(
                            brute,
                            "d = {side}, {white} {black}, {}: no labelling fits",
                            cube.line()
                        );
                        // A false leaf on the solution is refused.
                        refused(&write(&spec, Some(CELLS_WHITE)).unwrap().bytes());
                        solved += 1;
                    }
                }
            }
        }
    }
    assert!(
        refuted > 5 && solved > 5,
        "{refuted} refuted, {solved} solved"
    );
}

/// The leaves of a certificate cut by paired cells.
fn paired_leaves(cert: &Cert) -> usize {
    cert.leaves
        .iter()
        .filter(|leaf| (0xD0..=0xD7).contains(&cert.trees[leaf.tree][leaf.at]))
        .count()
}

/// UNSAT steps with paired cells verify, with and without the family sums before them, and
/// paired cells cut nodes that Lemma 4 does not (the trees are smaller than without them).
#[test]
fn unsat_steps_with_paired_cells_verify() {
    let (mut cut, mut smaller, mut specs) = (0, 0, 0);
    let lists: [&[(u64, u64)]; 4] = [
        &[(1, 1)],
        &[(1, 2), (2, 1)],
        &[
            (1, 1),
            (1, 2),
            (2, 1),
            (1, 3),
            (3, 1),
            (2, 3),
            (3, 2),
            (1000, 999),
        ],
        &[(3, 7)],
    ];
    for (side, white, black) in [
        (3, 2, 2),
        (4, 3, 3),
        (5, 5, 5),
        (6, 6, 6),
        (7, 8, 8),
        (6, 3, 14),
    ] {
        for paired in lists {
            for sums in [true, false] {
                let mut spec = Spec::new(side, white, black)
                    .weights(&[(1, 1), (1, 2)])
                    .paired(paired);
                spec.sums = sums;
                let cert = write(&spec, None).expect("an UNSAT step has a refutation");
                let verified = verify(&cert.bytes());
                assert_eq!(verified.claim.rules.paired, paired);
                assert_eq!(verified.pairs, cert.trees.len() as u64);
                assert_eq!(verified.nodes, cert.nodes() as u64);
                let mut without = spec.clone();
                without.paired.clear();
                let without = write(&without, None).unwrap();
                assert!(cert.nodes() <= without.nodes());
                cut += paired_leaves(&cert);
                smaller += usize::from(cert.nodes() < without.nodes());
                specs += 1;
            }
        }
    }
    assert!(
        cut > 1000 && smaller * 2 > specs,
        "{cut} paired leaves; smaller trees in {smaller} of {specs} certificates"
    );
}

/// Every step and unequal armies on boards up to 5 × 5 (and unequal armies on 6 × 6): the
/// writer with paired cells finds a refutation exactly when brute force finds no placement,
/// and the checker verifies each refutation. Lemma 5 cutting a solution would show here as
/// a refutation of a step that fits.
#[test]
fn writer_with_paired_cells_agrees_with_brute_force() {
    let (mut refuted, mut placed, mut cut) = (0, 0, 0);
    for side in 1..=6u32 {
        let cells = u64::from(side * side);
        let mut cases: Vec<(u64, u64)> = Vec::new();
        if side <= 5 {
            cases.extend((1..=cells / 2 + 1).map(|m| (m, m)));
        } else {
            cases.extend([(5, 5), (6, 6)]);
        }
        for white in 1..=cells.min(if side <= 5 { 9 } else { 4 }) {
            for black in 1..=cells {
                if white != black && (side <= 5 || black % 3 == 0 || black < 8) {
                    cases.push((white, black));
                }
            }
        }
        for (white, black) in cases {
            let spec =
                Spec::new(side, white, black)
                    .weights(&[(1, 1)])
                    .paired(&[(1, 1), (1, 2), (2, 1)]);
            let placement = if side <= 5 || white != black {
                fits(side, white, black)
            } else {
                white <= LARGEST[side as usize - 1]
            };
            match write(&spec, None) {
                Ok(cert) => {
                    assert!(
                        !placement,
                        "d = {side}, armies {white} {black}: refuted but brute force fits"
                    );
                    verify(&cert.bytes());
                    refuted += 1;
                    cut += paired_leaves(&cert);
                }
                Err(_) => assert!(
                    placement,
                    "d = {side}, armies {white} {black}: solution but brute force finds none"
                ),
            }
            placed += usize::from(placement);
        }
    }
    assert!(
        refuted > 100 && placed > 50 && cut > 100,
        "{refuted} refuted, {placed} placed, {cut} paired leaves"
    );
}

/// Cubes with paired cells on boards up to 4 × 4 agree with brute force over labellings.
#[test]
fn cubes_with_paired_cells_agree_with_brute_force_over_labellings() {
    let (mut refuted, mut solved) = (0, 0);
    for side in 3..=4u32 {
        let cubes = [
            Cube::new((0b11, 0b01), (0, 0), &[]),
            Cube::new((0, 0), (0b101, 0b100), &[(0, 2, WHITE)]),
            Cube::new((0, 0), (0, 0), &[(0, side as u8 - 1, BLACK)]),
            Cube::new((1, 1), (1, 0), &[(0, 1, BLACK), (1, 2, WHITE)]),
        ];
        let m = LARGEST[side as usize - 1];
        for (white, black) in [(m, m), (m + 1, m + 1), (1, 3), (2, 4), (3, 2), (1, 6)] {
            for cube in &cubes {
                let spec = Spec::new(side, white, black)
                    .paired(&[(1, 1), (2, 1)])
                    .cube(cube.clone());
                let brute = labelling_fits(&spec);
                if let Ok(cert) = write(&spec, None) {
                    assert!(!brute, "d = {side}, {white} {black}, {}", cube.line());
                    verify(&cert.bytes());
                    refuted += 1;
                } else {
                    assert!(brute, "d = {side}, {white} {black}, {}", cube.line());
                    refused(&write(&spec, Some(paired(0))).unwrap().bytes());
                    solved += 1;
                }
            }
        }
    }
    assert!(
        refuted > 5 && solved > 5,
        "{refuted} refuted, {solved} solved"
    );
}

/// Writes large certificates for timing the binary:
/// `PQ_CHECK_CERTS=DIR cargo test -p pq-check --release -- --ignored write_large`.
#[test]
#[ignore = "slow; writes files for timing"]
fn write_large_certificates() {
    let dir = std::env::var("PQ_CHECK_CERTS").expect("set PQ_CHECK_CERTS to a directory");
    let steps: Vec<(u32, u64)> = std::env::var("PQ_CHECK_STEPS")
        .unwrap_or_else(|_| "7:8 8:10".into())
        .split(' ')
        .map(|step| {
            let (side, m) = step.split_once(':').unwrap();
            (side.parse().unwrap(), m.parse().unwrap())
        })
        .collect();
    for (side, m) in steps {
        for cells_only in [false, true] {
            let mut spec = Spec::new(side, m, m).weights(&[(1, 1), (1, 2), (2, 1)]);
            spec.leaves = false;
            if std::env::var("PQ_CHECK_PAIRED").is_ok() {
                spec = spec.paired(&[(1, 1), (1, 2), (2, 1)]);
            }
            if cells_only {
                spec = spec.cells_only();
            }
            let cert = write(&spec, None).unwrap();
            let name = if cells_only { "cells" } else { "sums" };
            std::fs::write(format!("{dir}/d{side}-m{m}-{name}.cert"), cert.bytes()).unwrap();
        }
    }
}
