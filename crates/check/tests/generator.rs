//! Certificates from the reference writer: UNSAT steps verify, SAT steps have none, and the
//! writer agrees with brute force on small boards.

mod common;

use common::{fits, write, Spec, CELLS_BLACK, CELLS_WHITE};
use pq_check::{check, combine, Failure, Verified};

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
        let spec = Spec::new(side, m, m).weights(&[(1, 1), (2, 1)]);
        assert!(write(&spec, None).is_err(), "d = {side}, m = {m} is SAT");
        // A writer that puts a leaf on the solution anyway: whatever rule it names is refused.
        for byte in [CELLS_WHITE, CELLS_BLACK, 0xC0, 0xC1, 0xC8, 0xC9] {
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
fn cubes_verify_and_combine() {
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
        assert!(combine(&claims).is_ok(), "split at {split}");
    }
    let gap = [part(0, 13), part(14, whole)];
    assert!(combine(&gap).unwrap_err().contains("[13, 14)"));
    let short = [part(0, 13), part(13, whole - 1)];
    assert!(combine(&short).is_err());
    // An empty range is a valid (empty) certificate: no pairs, no nodes.
    let empty = verify(
        &write(&Spec::new(side, m, m).rows(9, 9), None)
            .unwrap()
            .bytes(),
    );
    assert_eq!((empty.pairs, empty.nodes), (0, 0));
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
            if cells_only {
                spec = spec.cells_only();
            }
            let cert = write(&spec, None).unwrap();
            let name = if cells_only { "cells" } else { "sums" };
            std::fs::write(format!("{dir}/d{side}-m{m}-{name}.cert"), cert.bytes()).unwrap();
        }
    }
}
