//! k-army certificates: the reference writer's certificates verify exactly when brute force
//! finds no placement; the enumeration of row colourings, the orbit tests and the leastness
//! test against their definitions by brute force; tampered certificates refused; the binary's
//! verdicts.

// Counting bytes with a filter is plain, and the bytecount crate is not worth a dependency.
#![allow(clippy::naive_bytecount)]

#[path = "armies/writer.rs"]
mod writer;

use pq_check::armies::{self, check, Verified};
use pq_check::Failure;
use writer::*;

fn verify(bytes: &[u8]) -> Verified {
    match check(bytes) {
        Ok(verified) => verified,
        Err(failure) => panic!("refused: {failure}"),
    }
}

/// The refusal's offset and reason.
fn refused(bytes: &[u8]) -> (u64, String) {
    match check(bytes) {
        Ok(verified) => panic!("verified: {verified:?}"),
        Err(Failure::Refused { offset, reason }) => (offset, reason),
        Err(Failure::Io(error)) => panic!("read error: {error}"),
    }
}

fn accepted(bytes: &[u8]) -> bool {
    match check(bytes) {
        Ok(_) => true,
        Err(Failure::Refused { .. }) => false,
        Err(Failure::Io(error)) => panic!("read error: {error}"),
    }
}

/// A certificate of an UNSAT step, and that the checker's counts are the writer's.
fn verified_cert(spec: &Spec) -> (Cert, Verified) {
    let cert = write(spec, None)
        .unwrap_or_else(|solution| panic!("{spec:?}: the writer met a solution {solution:?}"));
    let verified = verify(&cert.bytes());
    assert_eq!(verified.rows, cert.trees.len() as u64);
    assert_eq!(verified.pairs, cert.pairs);
    assert_eq!(verified.nodes, cert.body_len() as u64);
    (cert, verified)
}

#[test]
fn unsat_steps_verify() {
    for (side, armies) in [(4, 3), (5, 3), (6, 3), (4, 4), (5, 4)] {
        let m = largest(side, armies) + 1;
        let (cert, verified) = verified_cert(&Spec::new(side, armies, m));
        let claim = &verified.claim;
        assert!(claim.is_whole());
        assert_eq!((claim.side, claim.armies, claim.size), (side, armies, m));
        assert_eq!(claim.weights, engine_weights(armies));
        eprintln!(
            "d = {side}, {armies} armies of {m}: {} rows, {} pairs, {} bytes",
            verified.rows,
            verified.pairs,
            cert.body_len()
        );
    }
}

/// Every step on boards up to 6 × 6 for three armies and 5 × 5 for four: the writer meets a
/// solution, a real one, exactly when brute force over placements finds one, and otherwise its
/// certificate verifies; with every combination of the writer's cuts.
#[test]
fn writer_agrees_with_brute_force() {
    let (mut refuted, mut solved, mut trees) = (0, 0, 0);
    for (armies, sides) in [(3, 1..=6), (4, 1..=5)] {
        for side in sides {
            let best = largest(side, armies);
            let mut sizes: Vec<u64> = (1..=best + 2).collect();
            sizes.push((side * side) as u64);
            for m in sizes {
                for variant in 0..4 {
                    let mut spec = Spec::new(side, armies, m);
                    match variant {
                        0 => {}
                        1 => spec.orbit = false,
                        2 => (spec.bounds, spec.sums) = (false, false),
                        _ => (spec.least, spec.orbit) = (false, false),
                    }
                    let context = format!("d = {side}, {armies} armies of {m}, {spec:?}");
                    match write(&spec, None) {
                        Ok(cert) => {
                            assert!(m > best, "{context}: refuted, but {best} fit");
                            let verified = verify(&cert.bytes());
                            assert!(verified.claim.is_whole());
                            refuted += 1;
                            trees += cert.trees.len();
                        }
                        Err(solution) => {
                            assert!(m <= best, "{context}: a solution, but only {best} fit");
                            let cells = solution.cells(armies);
                            assert!(
                                cells.iter().all(|army| army.len() as u64 >= m),
                                "{context}: the solution {solution:?} has too few cells"
                            );
                            // The cells of different armies do not attack each other.
                            for (a, b) in (0..armies).flat_map(|a| (0..a).map(move |b| (a, b))) {
                                for &(x, y) in &cells[a] {
                                    for &(p, q) in &cells[b] {
                                        assert!(
                                            x != p && y != q && x + y != p + q && x + q != p + y,
                                            "{context}: {solution:?}"
                                        );
                                    }
                                }
                            }
                            solved += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(
        refuted > 40 && solved > 20 && trees > 100,
        "{refuted} refuted, {solved} solved, {trees} trees"
    );
}

/// The claim of a spec, as the checker reads it from the header.
fn claim_of(spec: &Spec) -> armies::Claim {
    let mut empty = spec.clone();
    (empty.lo, empty.hi) = (0, 0);
    let mut bytes = empty.header().into_bytes();
    bytes.extend(b"\xffend 0 0 0\n");
    Claim {
        lo: spec.lo,
        hi: spec.hi,
        ..verify(&bytes).claim
    }
}

use pq_check::armies::Claim;

/// The checker's kept row colourings are those of the definition (every code filtered by
/// rules 1–3 of §A2.1 and the restricted-growth condition), in code order, for every range.
#[test]
fn kept_row_colourings_are_those_of_the_definition() {
    let mut kept = 0;
    for armies in [3, 4] {
        for side in 1..=8 {
            for m in [1, 2, 3, 5, 8] {
                let whole = Spec::new(side, armies, m);
                let all = kept_rows(&whole);
                kept += all.len();
                let total = codes(side, armies);
                let mut ranges = vec![(0, total), (0, 0), (total, total)];
                for code in all.iter().map(|(code, _)| *code).take(5) {
                    ranges.extend([
                        (code, code + 1),
                        (code, total),
                        (0, code),
                        (code + 1, total),
                    ]);
                }
                ranges.push((total / 3, 2 * total / 3));
                for (lo, hi) in ranges {
                    let spec = whole.clone().rows(lo, hi);
                    let mut listed = Vec::new();
                    armies::row_colourings::<()>(&claim_of(&spec), |code, rows| {
                        listed.push((code, rows.to_vec()));
                        Ok(())
                    })
                    .unwrap();
                    let expected: Vec<(u64, Vec<u8>)> = all
                        .iter()
                        .filter(|(code, _)| (lo..hi).contains(code))
                        .cloned()
                        .collect();
                    assert_eq!(
                        listed, expected,
                        "d = {side}, {armies} armies of {m}, [{lo}, {hi})"
                    );
                }
            }
        }
    }
    assert!(kept > 1000, "{kept}");
}

/// Lemma A4 by brute force: the row colouring of every least pair `(r, c)` in which every army
/// has at least `m` cells of `R_j × C_j` (so every pair a solution could have) is kept; and
/// every orbit of row colourings under reversal and renaming that passes rules 1 and 2 has a
/// kept member.
#[test]
fn every_row_colouring_that_could_be_least_is_kept() {
    let mut least_pairs = 0;
    for (armies, sides) in [(3, 1..=5), (4, 1..=4)] {
        for side in sides {
            let all: Vec<Vec<u8>> = (0..codes(side, armies))
                .map(|code| colouring_of(code, side, armies))
                .collect();
            for m in 1..=3 {
                let spec = Spec::new(side, armies, m);
                let kept: Vec<Vec<u8>> = kept_rows(&spec).into_iter().map(|(_, r)| r).collect();
                let mut listed = Vec::new();
                armies::row_colourings::<()>(&claim_of(&spec), |_, rows| {
                    listed.push(rows.to_vec());
                    Ok(())
                })
                .unwrap();
                assert_eq!(listed, kept);
                let count = |line: &[u8], j: u8| line.iter().filter(|&&a| a == j).count() as u64;
                for rows in &all {
                    let rule_2: u64 = (0..armies as u8)
                        .map(|j| m.div_ceil(count(rows, j).max(1)))
                        .sum();
                    if (0..armies as u8).any(|j| count(rows, j) == 0) || rule_2 > side as u64 {
                        continue;
                    }
                    let orbit = images(rows, rows, armies);
                    assert!(
                        orbit.iter().any(|(image, _)| listed.contains(image)),
                        "d = {side}, {armies} armies of {m}: no row colouring of the orbit of \
                         {rows:?} is kept"
                    );
                    for columns in &all {
                        let enough =
                            (0..armies as u8).all(|j| count(rows, j) * count(columns, j) >= m);
                        if enough && least(rows, columns, armies) {
                            least_pairs += 1;
                            assert!(
                                listed.contains(rows),
                                "d = {side}, {armies} armies of {m}: the least pair \
                                 ({rows:?}, {columns:?}) has a row colouring not kept"
                            );
                        }
                    }
                }
            }
        }
    }
    assert!(least_pairs > 500, "{least_pairs}");
}

/// The checker's leastness test (eight renamings by ν) against every one of the `8·k!`
/// images built one by one, on every pair of small boards.
#[test]
fn leastness_is_that_of_the_definition() {
    let (mut least_pairs, mut others) = (0, 0);
    for (armies, sides) in [(3, 1..=4), (4, 1..=3)] {
        for side in sides {
            let all: Vec<Vec<u8>> = (0..codes(side, armies))
                .map(|code| colouring_of(code, side, armies))
                .collect();
            for rows in &all {
                for columns in &all {
                    let expected = least(rows, columns, armies);
                    assert_eq!(
                        armies::is_least(rows, columns),
                        expected,
                        "({rows:?}, {columns:?})"
                    );
                    least_pairs += usize::from(expected);
                    others += usize::from(!expected);
                }
            }
        }
    }
    assert!(least_pairs > 100 && others > 1000, "{least_pairs} {others}");
}

/// The images of a pair under one of the eight board symmetries `σ` (bit 0: rows reversed,
/// bit 1: columns reversed, bit 2: transposed), with every renaming of the armies.
fn images_of(sigma: usize, rows: &[u8], columns: &[u8], armies: usize) -> Vec<(Vec<u8>, Vec<u8>)> {
    let r = if sigma & 1 == 1 {
        reversed(rows)
    } else {
        rows.to_vec()
    };
    let c = if sigma & 2 == 2 {
        reversed(columns)
    } else {
        columns.to_vec()
    };
    let (a, b) = if sigma & 4 == 4 { (c, r) } else { (r, c) };
    permutations(armies)
        .iter()
        .map(|pi| {
            let rename = |line: &[u8]| line.iter().map(|&j| pi[usize::from(j)]).collect::<Vec<_>>();
            (rename(&a), rename(&b))
        })
        .collect()
}

/// Each of the seven board symmetries other than the identity is needed: for each, some pair
/// of a kept row colouring is not least by that symmetry's images alone, and the checker
/// finds it not least. (On boards up to 4 × 4 one reflection is never alone, so the test of
/// every pair there cannot see it missing.)
#[test]
fn leastness_needs_every_board_symmetry() {
    let mut alone = [0usize; 8];
    for (armies, side) in [(3, 5), (3, 6), (3, 7), (4, 5), (4, 6)] {
        let rows = kept_rows(&Spec::new(side, armies, 1));
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for (_, r) in rows.iter().take(150) {
            for _ in 0..40 {
                // A column colouring in the row colouring's orbit (renamed, perhaps reversed),
                // perhaps with one column changed: the transposed images then tie with the
                // pair on their rows, and a single symmetry often decides.
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let pi = &permutations(armies)[(seed % 24) as usize % permutations(armies).len()];
                let mut c: Vec<u8> = r.iter().map(|&j| pi[usize::from(j)]).collect();
                if seed >> 20 & 1 == 1 {
                    c.reverse();
                }
                if seed >> 21 & 1 == 1 {
                    c[(seed >> 24) as usize % side] = (seed >> 32) as u8 % armies as u8;
                }
                let own = (inward(r), inward(&c));
                let smaller: Vec<usize> = (0..8)
                    .filter(|&sigma| {
                        images_of(sigma, r, &c, armies)
                            .iter()
                            .any(|(a, b)| (inward(a), inward(b)) < own)
                    })
                    .collect();
                assert_eq!(
                    armies::is_least(r, &c),
                    smaller.is_empty(),
                    "({r:?}, {c:?})"
                );
                if let [sigma] = smaller[..] {
                    alone[sigma] += 1;
                }
            }
        }
    }
    // The identity is never alone: a kept r^o is an RGS with every army in it, so no renaming
    // of the pair itself is smaller.
    assert!(
        alone[1..].iter().all(|&n| n > 0),
        "pairs not least by one symmetry alone: {alone:?}"
    );
}

/// Any map of `side` lines to armies, by its digits.
fn colouring_of(code: u64, side: usize, armies: usize) -> Vec<u8> {
    let mut line = vec![0u8; side];
    let mut rest = code;
    for place in &mut line {
        *place = (rest % armies as u64) as u8;
        rest /= armies as u64;
    }
    line
}

/// Lemma A5 by brute force: whenever the checker accepts an orbit-cut byte for a child's
/// prefix, no completion of that prefix is least; and it accepts exactly what the reference
/// writer's tests (from the definitions) find.
#[test]
fn orbit_cuts_the_checker_accepts_have_no_least_completion() {
    let mut accepted = [0usize; 3];
    for (armies, sides) in [(3, 1..=6), (4, 1..=5)] {
        for side in sides {
            let o = order(side);
            let all: Vec<Vec<u8>> = (0..codes(side, armies))
                .map(|code| colouring_of(code, side, armies))
                .collect();
            // Every row colouring with every army in it whose sequence r^o is an RGS.
            let rows_all: Vec<Vec<u8>> = (0..codes(side, armies))
                .filter_map(|code| colouring(code, side, armies))
                .filter(|rows| (0..armies as u8).all(|j| rows.contains(&j)))
                .collect();
            for rows in &rows_all {
                // The prefixes c^o[0..=t] of the least full column colourings.
                let mut has_least = std::collections::HashSet::new();
                for columns in &all {
                    if least(rows, columns, armies) {
                        let u = inward(columns);
                        for t in 0..side {
                            has_least.insert(u[..=t].to_vec());
                        }
                    }
                }
                // Every prefix: its columns o_0 … o_t coloured by the code's digits.
                for t in 0..side {
                    for code in 0..codes(t + 1, armies) {
                        let u = colouring_of(code, t + 1, armies);
                        let mut columns = vec![NONE; side];
                        for s in 0..=t {
                            columns[o[s]] = u[s];
                        }
                        for (k, byte) in [TRANSPOSITION, QUARTER_TURN, MIRROR]
                            .into_iter()
                            .enumerate()
                        {
                            let cut = armies::orbit_cut(byte, rows, &columns, t);
                            assert_eq!(
                                cut,
                                orbit_test(byte, rows, &columns, t),
                                "{byte:#04x}, rows {rows:?}, columns {columns:?}, t = {t}"
                            );
                            if cut {
                                accepted[k] += 1;
                                assert!(
                                    !has_least.contains(&u),
                                    "{byte:#04x} cuts rows {rows:?}, columns {columns:?} \
                                     (t = {t}), which has a least completion"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(accepted.iter().all(|&n| n > 100), "{accepted:?}");
}

/// Small certificates with nodes of every kind, for tampering: the writer as the engine
/// searches, and without orbit cuts, without column bounds (so that more pairs reach their
/// diagonals), with the A_j rules alone at the diagonals (so that diagonal trees branch), and
/// for four armies one row colouring without column bounds.
fn samples() -> Vec<Cert> {
    let mut specs = vec![Spec::new(6, 3, 3), Spec::new(8, 4, 4).rows(0, 2000)];
    let mut plain = Spec::new(6, 3, 3);
    plain.orbit = false;
    specs.push(plain);
    let mut open = Spec::new(6, 3, 3);
    (open.bounds, open.least) = (false, false);
    specs.push(open);
    let mut cells = Spec::new(7, 3, 4).rows(0, 100).weights("1:1:1 0:1:1");
    cells.sums = false;
    specs.push(cells);
    let four = Spec::new(8, 4, 4);
    let first = kept_rows(&four)[0].0;
    let mut four = four.rows(first, first + 1);
    (four.bounds, four.sums) = (false, false);
    specs.push(four);
    specs.iter().map(|spec| verified_cert(spec).0).collect()
}

/// About `count` of the items, evenly spread.
fn spread<T: Clone>(items: &[T], count: usize) -> Vec<T> {
    let step = items.len().div_ceil(count).max(1);
    items.iter().step_by(step).cloned().collect()
}

/// Whether a node is a diagonal tree's root (its pair node is recorded as a column node).
fn is_root(node: &Node) -> bool {
    node.kind == Kind::Diagonal && node.labels == [[NONE; 32]; 2]
}

/// Whether a one-byte entry or subtree `byte` in place of `node` holds by the spec, and the
/// pair nodes it makes. A cut child entry that becomes a subtree is judged as the column node
/// at depth `t + 1`; a child subtree that becomes an orbit-cut byte, by that test.
fn judge(spec: &Spec, node: &Node, byte: u8) -> (bool, u64) {
    let cut = (TRANSPOSITION..=MIRROR).contains(&byte);
    let (rows, columns) = (&node.rows[..], &node.columns[..]);
    match (&node.kind, cut) {
        (Kind::Cut, true) | (Kind::Diagonal, _) => (holds(spec, node, byte), 0),
        (Kind::Cut, false) => {
            let child = Node {
                kind: Kind::Column,
                depth: node.depth + 1,
                ..node.clone()
            };
            (
                holds(spec, &child, byte),
                u64::from(child.depth == spec.side),
            )
        }
        (Kind::Column, true) => (
            node.depth > 0 && orbit_test(byte, rows, columns, node.depth - 1),
            0,
        ),
        (Kind::Column, false) => (holds(spec, node, byte), u64::from(node.depth == spec.side)),
    }
}

/// Every leaf byte replaced by every other leaf byte (and some invalid ones): the checker
/// accepts the certificate exactly when the new byte's rule holds there by the spec.
#[test]
fn every_leaf_replaced_verifies_exactly_when_its_rule_holds() {
    let started = std::time::Instant::now();
    // Not 0x88, which would read the bytes after it as its entries; of the cap sums and FC,
    // the first weights, the last and those beyond the header's (all of them, 16 a family,
    // would take long).
    let mut candidates: Vec<u8> = (0x80..=0x8D).filter(|&byte| byte != COLUMN_INNER).collect();
    for weight in [0, 1, 2, 3, 6, 10, 11, 15] {
        for family in 0..2 {
            candidates.extend([cap_sum(family, weight), fixed_columns(family, weight)]);
        }
    }
    candidates.extend([0x8E, 0x9F, 0xE0, 0xFE, END]);
    let (mut held, mut failed) = (0, 0);
    let mut kinds = [0; 3];
    for cert in samples() {
        let mut leaves = Vec::new();
        for (kind, count) in [(Kind::Column, 30), (Kind::Cut, 20), (Kind::Diagonal, 40)] {
            let all: Vec<&Node> = cert
                .nodes
                .iter()
                .filter(|node| node.end - node.start == 1 && !is_root(node) && node.kind == kind)
                .collect();
            leaves.extend(spread(&all, count));
        }
        for node in leaves {
            let original = cert.trees[node.tree][node.start];
            for &byte in &candidates {
                let (expected, pairs) = judge(&cert.spec, node, byte);
                let bytes = cert.replaced(node, &[byte], pairs);
                let context = format!(
                    "{:?}: {original:#04x} -> {byte:#04x} at {node:?}",
                    cert.spec
                );
                if expected {
                    held += 1;
                    assert!(accepted(&bytes), "{context}: refused, but the rule holds");
                } else {
                    failed += 1;
                    let Err(Failure::Refused { offset, reason }) = check(&bytes[..]) else {
                        panic!("{context}: verified, but the rule does not hold");
                    };
                    assert_eq!(
                        offset,
                        cert.offset(node.tree, node.start),
                        "{context}: refused elsewhere: {reason}"
                    );
                }
            }
            kinds[node.kind.clone() as usize] += 1;
        }
    }
    assert!(
        held > 1000 && failed > 10000 && kinds.iter().all(|&n| n > 50),
        "{held} held, {failed} failed, leaves by kind {kinds:?}"
    );
    eprintln!(
        "{held} held, {failed} failed, leaves by kind {kinds:?} in {:?}",
        started.elapsed()
    );
}

/// Writes k-army certificates for timing the binary: `PQ_CHECK_CERTS=DIR cargo test -p
/// pq-check --release --test armies -- --ignored write_large`; `PQ_CHECK_ARMIES` lists the
/// steps as `D:k:m` (default `9:3:6`), `PQ_CHECK_OPEN` writes them without column bounds.
#[test]
#[ignore = "slow; writes files for timing"]
fn write_large_armies_certificates() {
    let dir = std::env::var("PQ_CHECK_CERTS").expect("set PQ_CHECK_CERTS to a directory");
    let steps = std::env::var("PQ_CHECK_ARMIES").unwrap_or_else(|_| "9:3:6".into());
    for step in steps.split(' ') {
        let numbers: Vec<u64> = step.split(':').map(|n| n.parse().unwrap()).collect();
        let (side, armies, m) = (numbers[0] as usize, numbers[1] as usize, numbers[2]);
        let mut spec = Spec::new(side, armies, m);
        spec.bounds = std::env::var("PQ_CHECK_OPEN").is_err();
        let cert = write(&spec, None).expect("UNSAT");
        let name = format!("{dir}/armies-d{side}-k{armies}-m{m}.cert");
        std::fs::write(name, cert.bytes()).unwrap();
    }
}

/// Whole subtrees replaced by one byte: a pair node's by 0x8A (accepted exactly when the
/// pair is not least), a child's by an orbit-cut byte (exactly when its test holds); a column
/// node's above depth D by 0x8A, a pair node's by 0x88 and its entries, refused there.
#[test]
fn subtrees_replaced_by_claims_verify_exactly_when_the_claim_holds() {
    let (mut held, mut failed) = (0, 0);
    for cert in samples() {
        let side = cert.spec.side;
        let columns: Vec<&Node> = cert
            .nodes
            .iter()
            .filter(|node| node.kind == Kind::Column && node.end - node.start > 1)
            .collect();
        for node in spread(&columns, 60) {
            let at = cert.offset(node.tree, node.start);
            if node.depth == side {
                let bytes = cert.replaced(node, &[NOT_LEAST], 1);
                if least(&node.rows, &node.columns, cert.spec.armies) {
                    failed += 1;
                    assert_eq!(refused(&bytes).0, at, "0x8A on a least pair {node:?}");
                } else {
                    held += 1;
                    verify(&bytes);
                }
                let entries = [
                    COLUMN_INNER,
                    TRANSPOSITION,
                    TRANSPOSITION,
                    TRANSPOSITION,
                    TRANSPOSITION,
                ];
                let bytes = cert.replaced(node, &entries[..=cert.spec.armies], 1);
                assert_eq!(refused(&bytes).0, at, "0x88 at depth D");
            } else {
                let bytes = cert.replaced(node, &[NOT_LEAST], 0);
                assert_eq!(refused(&bytes).0, at, "0x8A at depth {}", node.depth);
            }
            if node.depth == 0 {
                continue;
            }
            for byte in [TRANSPOSITION, QUARTER_TURN, MIRROR] {
                let bytes = cert.replaced(node, &[byte], 0);
                if orbit_test(byte, &node.rows, &node.columns, node.depth - 1) {
                    held += 1;
                    verify(&bytes);
                } else {
                    failed += 1;
                    assert_eq!(refused(&bytes).0, at, "{byte:#04x} for {node:?}");
                }
            }
        }
    }
    assert!(held > 20 && failed > 200, "{held} held, {failed} failed");
}

/// Diagonal inner nodes that name a diagonal beyond `2D − 2`, one labelled on their path, or
/// one where fewer than two armies have live cells, are refused at that byte; two children
/// swapped verify exactly when each one's leaf holds under the other's label.
#[test]
fn diagonal_inner_nodes_are_checked() {
    let (mut beyond, mut labelled, mut alone, mut swapped, mut kept) = (0, 0, 0, 0, 0);
    for cert in samples() {
        let spec = &cert.spec;
        let last = 2 * spec.side - 2;
        let inners: Vec<&Node> = cert
            .nodes
            .iter()
            .filter(|node| node.kind == Kind::Diagonal && !node.children.is_empty())
            .collect();
        for node in spread(&inners, 60) {
            let at = cert.offset(node.tree, node.start);
            let tamper = |byte: u8| {
                let mut trees = cert.trees.clone();
                trees[node.tree][node.start] = byte;
                cert.assemble(&trees, trees.len() as u64, cert.pairs)
            };
            for family in 0..2 {
                for index in [last + 1, 31, 32, 63] {
                    let (offset, reason) = refused(&tamper(inner(family, index as u8)));
                    // Refused for the index itself, not for the cells it does not have.
                    assert_eq!(offset, at, "{reason}");
                    assert!(reason.contains("beyond 2D - 2"), "{reason}");
                    beyond += 1;
                }
            }
            let live = live(spec, &node.rows, &node.columns, &node.labels);
            for family in 0..2 {
                for index in 0..=last {
                    let byte = inner(family as u8, index as u8);
                    if node.labels[family][index] != NONE {
                        assert_eq!(refused(&tamper(byte)).0, at, "labelled {family}:{index}");
                        labelled += 1;
                    } else if live.iter().filter(|l| l[family][index] > 0).count() < 2 {
                        assert_eq!(refused(&tamper(byte)).0, at, "alone {family}:{index}");
                        alone += 1;
                    }
                }
            }
            // Two children, each a leaf: swapped, each is read under the other's label.
            let child = |start: usize| {
                cert.nodes
                    .iter()
                    .find(|other| {
                        other.kind == Kind::Diagonal
                            && other.tree == node.tree
                            && other.start == start
                    })
                    .unwrap()
            };
            if let [first, second] = node.children[..] {
                let (a, b) = (child(first), child(second));
                if a.end - a.start == 1 && b.end - b.start == 1 {
                    let (x, y) = (cert.trees[node.tree][first], cert.trees[node.tree][second]);
                    let mut trees = cert.trees.clone();
                    trees[node.tree][first] = y;
                    trees[node.tree][second] = x;
                    let bytes = cert.assemble(&trees, trees.len() as u64, cert.pairs);
                    if holds(spec, a, y) && holds(spec, b, x) {
                        verify(&bytes);
                        kept += 1;
                    } else {
                        refused(&bytes);
                        swapped += 1;
                    }
                }
            }
        }
    }
    assert!(
        beyond > 100 && labelled > 50 && alone > 100 && swapped > 10,
        "{beyond} beyond, {labelled} labelled, {alone} alone, {swapped} swapped refused, {kept} kept"
    );
}

/// The trailer's counts, the end byte, a missing or an extra column tree, bytes after the
/// end: each refused.
#[test]
fn trailers_and_missing_trees_are_refused() {
    for cert in samples() {
        let bytes = cert.bytes();
        let rows = cert.trees.len() as u64;
        let nodes = cert.body_len() as u64;
        let header = cert.spec.header().len() as u64;
        let trailer = header + nodes + 1;
        for (r, p, n) in [
            (rows + 1, cert.pairs, nodes),
            (rows.wrapping_sub(1), cert.pairs, nodes),
            (rows, cert.pairs + 1, nodes),
            (rows, cert.pairs.wrapping_sub(1), nodes),
            (rows, cert.pairs, nodes + 1),
            (rows, cert.pairs, nodes - 1),
        ] {
            let mut tampered = bytes[..trailer as usize].to_vec();
            tampered.extend(format!("end {r} {p} {n}\n").bytes());
            assert_eq!(refused(&tampered).0, trailer);
        }
        for tail in ["end 1 2\n", "end 1 2 3 4\n", "end  1 2 3\n", "end 01 2 3\n"] {
            let mut tampered = bytes[..trailer as usize].to_vec();
            tampered.extend(tail.bytes());
            assert_eq!(refused(&tampered).0, trailer, "{tail:?}");
        }
        // Cut anywhere, or something after the trailer.
        for cut in [
            0,
            1,
            header as usize,
            trailer as usize - 1,
            trailer as usize,
            bytes.len() - 1,
        ] {
            refused(&bytes[..cut]);
        }
        let mut longer = bytes.clone();
        longer.push(b'\n');
        assert_eq!(refused(&longer).0, bytes.len() as u64);
        // No end byte: the trailer where it should be.
        let mut tampered = bytes[..trailer as usize - 1].to_vec();
        tampered.extend(format!("end {rows} {} {nodes}\n", cert.pairs).bytes());
        assert_eq!(refused(&tampered).0, trailer - 1);
        // A tree missing, or one twice: the trailer counted for the new body.
        for tree in spread(&(0..cert.trees.len()).collect::<Vec<_>>(), 8) {
            let pairs_in = |tree: usize| {
                cert.nodes
                    .iter()
                    .filter(|node| {
                        node.tree == tree
                            && node.kind == Kind::Column
                            && node.depth == cert.spec.side
                    })
                    .count() as u64
            };
            let mut fewer = cert.trees.clone();
            fewer.remove(tree);
            let bytes = cert.assemble(&fewer, rows - 1, cert.pairs - pairs_in(tree));
            refused(&bytes);
            let mut more = cert.trees.clone();
            more.insert(tree, cert.trees[tree].clone());
            let bytes = cert.assemble(&more, rows + 1, cert.pairs + pairs_in(tree));
            refused(&bytes);
        }
    }
}

/// Headers: every line as §A5 has it, and no other; a two-army header on a k-army body, and a
/// k-army certificate given to the two-army checker, refused on their first line.
#[test]
fn headers_are_checked_line_by_line() {
    let cert = verified_cert(&Spec::new(6, 3, 3)).0;
    let good = cert.bytes();
    let header = cert.spec.header();
    let body = &good[header.len()..];
    let with = |header: &str| [header.as_bytes(), body].concat();
    assert!(accepted(&with(&header)));
    let lines: Vec<&str> = header.lines().collect();
    let replaced = |at: usize, line: &str| {
        let mut lines = lines.clone();
        lines[at] = line;
        format!("{}\n", lines.join("\n"))
    };
    let bad = [
        (0, "pq-search-certificate 1"),
        (0, "pq-armies-certificate 2"),
        (0, "pq-armies-certificate 1 "),
        (1, "board square 0"),
        (1, "board square 17"),
        (1, "board torus 6"),
        (1, "board square 06"),
        (2, "armies 3 3"),
        (2, "armies 3 3 3 3 3"),
        (2, "armies 3 3 4"),
        (2, "armies 0 0 0"),
        (2, "armies 3  3 3"),
        (3, "symmetry 16"),
        (3, "symmetry 192"),
        (4, "weights"),
        (4, "weights 1:1"),
        (4, "weights 1:1:1:1"),
        (4, "weights 0:0:0"),
        (4, "weights 1001:1:1"),
        (4, "weights 1:1:1 "),
        (4, "weights 1:1:1 1:1:1 1:1:1 1:1:1 1:1:1 1:1:1 1:1:1 1:1:1 1:1:1 1:1:1 1:1:1 1:1:1 1:1:1 1:1:1 1:1:1 1:1:1 1:1:1"),
        (5, "rows 0 730"),
        (5, "rows 5 4"),
        (5, "rows 0 0729"),
        (6, "begin "),
    ];
    for (at, line) in bad {
        let header = replaced(at, line);
        let offset: usize = lines[..at].iter().map(|line| line.len() + 1).sum();
        assert_eq!(refused(&with(&header)).0, offset as u64, "{line:?}");
    }
    // Sixteen weights, 1000 each, and zero weights within a vector are allowed.
    let sixteen = vec!["1000:0:1"; 16].join(" ");
    let spec = Spec::new(6, 3, 3).weights(&format!("1:1:1 {}", &sixteen[9..]));
    assert_eq!(spec.weights.len(), 16);
    verified_cert(&spec);
    // A paired line, a cube line, a missing line: refused.
    for extra in ["paired 1:1", "cube 0 0 0 0"] {
        let mut lines = lines.clone();
        lines.insert(5, extra);
        refused(&with(&format!("{}\n", lines.join("\n"))));
    }
    for at in 0..lines.len() {
        let mut lines = lines.clone();
        lines.remove(at);
        refused(&with(&format!("{}\n", lines.join("\n"))));
    }
    // \r\n line ends.
    refused(&with(&header.replace('\n', "\r\n")));
    // The two-army checker refuses a k-army certificate on its first line.
    match pq_check::check(&good[..]) {
        Err(Failure::Refused { offset, .. }) => assert_eq!(offset, 0),
        other => panic!("{other:?}"),
    }
}

fn pq_check(args: &[&str], stdin: Option<&[u8]>) -> (i32, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut command = Command::new(env!("CARGO_BIN_EXE_pq-check"));
    command
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    let mut child = command.spawn().expect("pq-check runs");
    if let Some(bytes) = stdin {
        child.stdin.take().unwrap().write_all(bytes).unwrap();
    }
    let output = child.wait_with_output().unwrap();
    (
        output.status.code().expect("an exit code"),
        String::from_utf8(output.stdout).unwrap(),
    )
}

/// A file in the system's temporary directory, removed when dropped.
struct Temp(std::path::PathBuf);

impl Temp {
    fn new(name: &str, bytes: &[u8]) -> Temp {
        let path =
            std::env::temp_dir().join(format!("pq-check-armies-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        Temp(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A certificate of three armies of 3 on the 6 × 6 board for the codes `[lo, hi)`.
fn part(lo: u64, hi: u64) -> Vec<u8> {
    verified_cert(&Spec::new(6, 3, 3).rows(lo, hi)).0.bytes()
}

/// The last `c claim:` line, and the last lines from it on.
fn verdict(out: &str) -> Vec<&str> {
    let lines: Vec<&str> = out.lines().collect();
    let last = lines
        .iter()
        .rposition(|line| line.starts_with("c claim: "))
        .expect("a claim line");
    lines[last..].to_vec()
}

#[test]
fn a_whole_certificate_is_verified_exit_0() {
    let whole = part(0, 729);
    let file = Temp::new("whole", &whole);
    let (code, out) = pq_check(&[file.path()], None);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        verdict(&out),
        ["c claim: board square 6 armies 3 3 3", "s VERIFIED"],
        "{out}"
    );
    let verified = verify(&whole);
    assert!(
        out.contains(&format!(
            "c claim: board square 6 armies 3 3 3 rows 0 729 rules weights 1:1:1 2:1:1 1:2:1 \
             1:1:2 0:1:1 1:0:1 1:1:0\nc rows {} pairs {} nodes {}\n",
            verified.rows, verified.pairs, verified.nodes
        )),
        "{out}"
    );
    assert!(
        out.contains("3 armies of 3 queens cannot be placed on the 6x6 board"),
        "{out}"
    );
    // From standard input too.
    for args in [&["-"][..], &[]] {
        let (code, out) = pq_check(args, Some(&whole));
        assert_eq!(code, 0, "{out}");
        assert!(out.ends_with("s VERIFIED\n"), "{out}");
    }
    let (code, out) = pq_check(&["-"], Some(&whole[..whole.len() - 1]));
    assert_eq!(code, 1, "{out}");
}

#[test]
fn parts_are_part_verified_exit_3_and_together_whole() {
    let low = Temp::new("low", &part(0, 300));
    let high = Temp::new("high", &part(300, 729));
    let gap = Temp::new("gap", &part(301, 729));
    let empty = Temp::new("empty", &part(100, 100));
    let (code, out) = pq_check(&[low.path()], None);
    assert_eq!(code, 3, "{out}");
    assert_eq!(
        verdict(&out),
        [
            "c claim: board square 6 armies 3 3 3 rows 0 300",
            "c missing: rows 300 729",
            "s PART VERIFIED"
        ],
        "{out}"
    );
    assert!(!out.contains("cannot be placed"), "{out}");
    let (code, out) = pq_check(&[high.path(), empty.path(), low.path()], None);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("c together they cover [0, 3^6)"), "{out}");
    assert_eq!(
        verdict(&out),
        ["c claim: board square 6 armies 3 3 3", "s VERIFIED"],
        "{out}"
    );
    let (code, out) = pq_check(&[gap.path(), low.path()], None);
    assert_eq!(code, 3, "{out}");
    assert_eq!(
        verdict(&out),
        [
            "c claim: board square 6 armies 3 3 3 rows 0 300 301 729",
            "c missing: rows 300 301",
            "s PART VERIFIED"
        ],
        "{out}"
    );
    let (code, out) = pq_check(&[empty.path()], None);
    assert_eq!(code, 3, "{out}");
    assert_eq!(
        verdict(&out),
        [
            "c claim: board square 6 armies 3 3 3 rows",
            "c missing: rows 0 729",
            "s PART VERIFIED"
        ],
        "{out}"
    );
}

#[test]
fn expect_demands_the_board_and_the_armies() {
    let whole = Temp::new("expect", &part(0, 729));
    let (code, out) = pq_check(
        &["--expect", "board square 6 armies 3 3 3", whole.path()],
        None,
    );
    assert_eq!(code, 0, "{out}");
    for other in [
        "board square 6 armies 3 3",
        "board square 6 armies 3 3 3 3",
        "board square 6 armies 4 4 4",
        "board square 5 armies 3 3 3",
        "board square 6 armies 3 3 4",
    ] {
        let (code, out) = pq_check(&["--expect", other, whole.path()], None);
        assert_eq!(code, 1, "{other}: {out}");
        assert!(out.contains(&format!("c expected {other}, ")), "{out}");
        assert_eq!(verdict(&out), ["c claim: none", "s NOT VERIFIED"], "{out}");
    }
    // A part meets the demand but proves a part only.
    let low = Temp::new("expect-low", &part(0, 300));
    let (code, _) = pq_check(&["--expect=board square 6 armies 3 3 3", low.path()], None);
    assert_eq!(code, 3);
    for bad in [
        "board square 6 armies 3 3 3 3 3",
        "board square 6 armies 3",
        "board square 6 armies 3 03 3",
    ] {
        let (code, out) = pq_check(&["--expect", bad, whole.path()], None);
        assert_eq!(code, 2, "{bad}: {out}");
        assert!(out.is_empty(), "{out}");
    }
}

/// A k-army certificate and a two-army one, or k-army ones of other armies or boards, prove
/// nothing together; a refused k-army certificate fails the run.
#[test]
fn certificates_that_disagree_or_fail_prove_nothing() {
    let low = Temp::new("disagree-low", &part(0, 300));
    let high = Temp::new("disagree-high", &part(300, 729));
    let mut two =
        b"pq-search-certificate 1\nboard square 6\narmies 3 3\nsymmetry 16\nweights 1:1\n\
                    rows 0 0\nbegin\n"
            .to_vec();
    two.extend(b"\xffend 0 0\n");
    let two = Temp::new("disagree-two", &two);
    let (code, out) = pq_check(&[two.path()], None);
    assert_eq!(code, 3, "the two-army part is verified alone: {out}");
    let four = Temp::new(
        "disagree-four",
        &verified_cert(&Spec::new(6, 4, 3)).0.bytes(),
    );
    let other = Temp::new(
        "disagree-other",
        &verified_cert(&Spec::new(5, 3, 3)).0.bytes(),
    );
    for other in [&two, &four, &other] {
        let (code, out) = pq_check(&[low.path(), high.path(), other.path()], None);
        assert_eq!(code, 1, "{out}");
        assert!(out.contains("c the certificates disagree"), "{out}");
        assert_eq!(verdict(&out), ["c claim: none", "s NOT VERIFIED"], "{out}");
    }
    let mut cut = part(0, 729);
    let end = cut.len();
    cut[end - 3] = b'9';
    let cut = Temp::new("disagree-cut", &cut);
    let (code, out) = pq_check(&[low.path(), high.path(), cut.path()], None);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("c refused at byte offset"), "{out}");
    assert_eq!(verdict(&out), ["c claim: none", "s NOT VERIFIED"], "{out}");
    // A first line that names another version goes to the k-army checker, which names it.
    let mut other_version = part(0, 729);
    other_version[22] = b'2';
    let other_version = Temp::new("disagree-version", &other_version);
    let (code, out) = pq_check(&[other_version.path()], None);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("expected `pq-armies-certificate 1`"), "{out}");
}
