//! Tampered certificates: each change the specification forbids is refused, and the checker
//! agrees with a naive judge on every leaf rule and on random changes of the body.

mod common;

use common::{
    family_sum, fits, inner, naive_accepts, paired, subtree_end, write, Cert, Cube, Lemma5, Random,
    Spec, BLACK, CELLS_BLACK, CELLS_WHITE, END, WHITE,
};
use pq_check::{check, Failure};

fn verifies(bytes: &[u8]) -> bool {
    match check(bytes) {
        Ok(_) => true,
        Err(Failure::Refused { .. }) => false,
        Err(Failure::Io(error)) => panic!("read error: {error}"),
    }
}

/// The refusal's offset and reason; panics if the certificate verifies.
fn refusal(bytes: &[u8]) -> (u64, String) {
    match check(bytes) {
        Ok(verified) => panic!("verified: {verified:?}"),
        Err(Failure::Refused { offset, reason }) => (offset, reason),
        Err(Failure::Io(error)) => panic!("read error: {error}"),
    }
}

fn refused_with(bytes: &[u8], words: &str) -> u64 {
    let (offset, reason) = refusal(bytes);
    assert!(reason.contains(words), "expected {words:?} in {reason:?}");
    offset
}

fn refutation(spec: &Spec) -> Cert {
    let cert = write(spec, None).expect("UNSAT");
    assert!(verifies(&cert.bytes()));
    cert
}

/// The (6, 6) step, its trees branching on cells rules only, so that it has many inner nodes.
fn deep() -> Cert {
    refutation(&Spec::new(6, 6, 6).cells_only())
}

/// A cube's certificate of the (6, 6) step with fixed rows, columns and diagonals of both
/// families and both labels, and a zero set (for the leading-zero tests).
fn cubed() -> Cert {
    let cube = Cube::new(
        (9, 1),
        (4, 0),
        &[(0, 5, WHITE), (1, 3, BLACK), (1, 7, WHITE)],
    );
    refutation(&Spec::new(6, 6, 6).cube(cube))
}

fn with_header_line(cert: &Cert, from: &str, to: &str) -> Vec<u8> {
    let header = cert.spec.header();
    assert!(header.contains(from), "{from:?} not in the header");
    Cert::assemble(&header.replacen(from, to, 1), &cert.trees, &cert.trailer())
}

/// The first tree with an inner node, and that node's offset in the whole stream.
fn branching(cert: &Cert) -> (usize, usize) {
    let k = cert
        .trees
        .iter()
        .position(|tree| tree[0] < 0x80)
        .expect("a tree that branches");
    let before: usize = cert.trees[..k].iter().map(Vec::len).sum();
    (k, cert.spec.header().len() + before)
}

#[test]
fn every_leaf_rule_is_judged_as_the_definition_says() {
    let specs = [
        Spec::new(5, 5, 5).cells_only().weights(&[(1, 1), (1, 2)]),
        Spec::new(6, 6, 6).weights(&[(1, 1), (2, 3)]),
        Spec::new(4, 2, 6).cells_only().weights(&[(3, 1)]),
        Spec::new(6, 6, 6).cells_only().cube(Cube::new(
            (0b10_0001, 0b00_0001),
            (0, 0),
            &[(0, 5, BLACK), (1, 6, WHITE)],
        )),
        // Paired cells: equal weights and unequal ones both ways, unequal armies, a cube,
        // and cells rules alone before them (so that paired cells meet deep nodes).
        Spec::new(6, 6, 6)
            .cells_only()
            .paired(&[(1, 1), (1, 2), (3, 1)]),
        Spec::new(6, 6, 6)
            .weights(&[(1, 1), (2, 3)])
            .paired(&[(2, 3), (1, 1)]),
        Spec::new(5, 3, 9)
            .cells_only()
            .paired(&[(1, 3), (3, 1), (1, 1), (2, 1)]),
        Spec::new(6, 4, 10).cells_only().paired(&[(1, 2), (5, 2)]),
        Spec::new(7, 8, 8).cells_only().paired(&[
            (1, 1),
            (2, 1),
            (1, 3),
            (4, 3),
            (1, 1000),
            (999, 1000),
            (7, 2),
            (1, 2),
        ]),
        Spec::new(6, 6, 6)
            .cells_only()
            .paired(&[(1, 1), (1, 2)])
            .cube(Cube::new(
                (0b10, 0b10),
                (0b1, 0),
                &[(0, 4, WHITE), (1, 7, BLACK)],
            )),
    ];
    let bytes = [
        CELLS_WHITE,
        CELLS_BLACK,
        0xC0,
        0xC1,
        0xC2,
        0xC8,
        0xC9,
        0xCA,
        0xCF,
        0xD0,
        0xD1,
        0xD2,
        0xD3,
        0xD7,
    ];
    let (mut greedy, mut maximum) = (0, 0);
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
                if expected && byte >= 0xD0 {
                    let (p, q) = spec.paired[usize::from(byte & 7)];
                    let lemma = Lemma5::new(&spec, leaf.s, leaf.t, &leaf.labels, p, q);
                    if lemma.minima + lemma.greedy_flow() > lemma.room {
                        greedy += 1;
                    } else {
                        maximum += 1;
                    }
                }
            }
        }
        assert!(held > 0 && failed > 0);
    }
    // Paired leaves that hold by the greedy flow, and some only by a maximum flow.
    assert!(
        greedy > 100 && maximum > 0,
        "{greedy} by the greedy flow, {maximum} only by a maximum flow"
    );
}

#[test]
fn random_changes_of_the_body_are_judged_as_the_naive_judge_does() {
    for (spec, changes) in [
        (Spec::new(5, 5, 5).cells_only(), 3000),
        (Spec::new(6, 6, 6).weights(&[(1, 1), (1, 3)]), 3000),
        (Spec::new(5, 3, 7), 3000),
        (Spec::new(7, 8, 8).cells_only(), 2000),
        (
            Spec::new(6, 6, 6)
                .cells_only()
                .paired(&[(1, 1), (2, 1), (1, 3)]),
            3000,
        ),
        (Spec::new(6, 3, 14).paired(&[(1, 2), (1, 1)]), 3000),
        (
            Spec::new(6, 6, 6).cells_only().cube(Cube::new(
                (2, 2),
                (1, 0),
                &[(0, 4, WHITE), (1, 5, BLACK)],
            )),
            3000,
        ),
    ] {
        let cert = refutation(&spec);
        let header = spec.header().len();
        let good = cert.bytes();
        let mut random = Random::new(0x5eed + u64::from(spec.side));
        let (mut accepted, mut refused) = (0, 0);
        for _ in 0..changes {
            let mut bytes = good.clone();
            let body = header..bytes.len();
            let at = body.start + random.below(body.len());
            let values = [
                0x00,
                0x01,
                0x40,
                0x45,
                0x7F,
                CELLS_WHITE,
                CELLS_BLACK,
                0xC0,
                0xC1,
                0xC8,
                0xC9,
                0x82,
                0xD0,
                0xD1,
                0xD2,
                0xD7,
                END,
            ];
            let value = values[random.below(values.len())];
            match random.below(3) {
                0 => bytes[at] = value,
                1 => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, value),
            }
            let expected = naive_accepts(&spec, &cert.pairs, &bytes[header..]);
            assert_eq!(verifies(&bytes), expected, "{spec:?}, change at {at}");
            if expected {
                accepted += 1;
            } else {
                refused += 1;
            }
        }
        // Some changes keep a valid proof (a leaf replaced by another rule that holds).
        assert!(
            accepted > 0 && refused > 0,
            "{accepted} accepted, {refused} refused"
        );
    }
}

#[test]
fn a_dropped_tree_is_refused() {
    let cert = deep();
    let count = cert.trees.len();
    for k in [0, 1, count / 2, count - 2, count - 1] {
        let mut trees = cert.trees.clone();
        trees.remove(k);
        refusal(&cert.with_trees(&trees));
        refusal(&Cert::assemble(
            &cert.spec.header(),
            &trees,
            &cert.trailer(),
        ));
    }
    // The last tree dropped: the end byte comes where that tree should begin.
    let mut trees = cert.trees.clone();
    trees.pop();
    refused_with(&cert.with_trees(&trees), "where the tree of pair");
    // An extra tree after the last: no pair is left for it.
    let mut trees = cert.trees.clone();
    trees.push(vec![CELLS_WHITE]);
    refused_with(
        &cert.with_trees(&trees),
        "where the end-of-body byte 0xFF should be",
    );
}

#[test]
fn a_dropped_subtree_is_refused() {
    let cert = deep();
    let mut tried = 0;
    for (k, tree) in cert.trees.iter().enumerate() {
        if tree[0] >= 0x80 {
            continue;
        }
        let w_end = subtree_end(tree, 1);
        let b_end = subtree_end(tree, w_end);
        assert_eq!(b_end, tree.len());
        for (from, to) in [(1, w_end), (w_end, b_end)] {
            let mut trees = cert.trees.clone();
            trees[k].drain(from..to);
            refusal(&cert.with_trees(&trees));
            refusal(&Cert::assemble(
                &cert.spec.header(),
                &trees,
                &cert.trailer(),
            ));
            tried += 1;
        }
        // The whole tree of the node replaced by its W subtree alone.
        let mut trees = cert.trees.clone();
        trees[k] = tree[1..w_end].to_vec();
        if !naive_accepts(
            &cert.spec,
            &cert.pairs,
            &cert.with_trees(&trees)[cert.spec.header().len()..],
        ) {
            refusal(&cert.with_trees(&trees));
        }
    }
    assert!(tried > 10);
}

#[test]
fn a_leaf_with_a_wrong_rule_is_refused() {
    let cert = refutation(&Spec::new(6, 6, 6).weights(&[(1, 1)]));
    let leaf = cert
        .leaves
        .iter()
        .find(|leaf| cert.trees[leaf.tree][leaf.at] == 0xC0)
        .expect("a family-sum leaf");
    for byte in [CELLS_WHITE, CELLS_BLACK, family_sum(1, 0)] {
        if common::holds(&cert.spec, leaf.s, leaf.t, &leaf.labels, byte) {
            continue;
        }
        let mut trees = cert.trees.clone();
        trees[leaf.tree][leaf.at] = byte;
        let offset = refused_with(&cert.with_trees(&trees), "does not hold");
        let before: usize = cert.trees[..leaf.tree].iter().map(Vec::len).sum();
        assert_eq!(offset as usize, cert.spec.header().len() + before + leaf.at);
    }
}

#[test]
fn a_header_claiming_another_step_is_refused() {
    let cert = deep();
    for armies in ["armies 5 5", "armies 7 7"] {
        refusal(&with_header_line(&cert, "armies 6 6", armies));
    }
    for (armies, symmetry) in [("armies 6 7", "symmetry 8"), ("armies 7 6", "symmetry 8")] {
        let header = cert
            .spec
            .header()
            .replace("armies 6 6", armies)
            .replace("symmetry 16", symmetry);
        refusal(&Cert::assemble(&header, &cert.trees, &cert.trailer()));
    }
    for (board, rows) in [
        ("board square 5", "rows 0 32"),
        ("board square 7", "rows 0 128"),
    ] {
        let header = cert
            .spec
            .header()
            .replace("board square 6", board)
            .replace("rows 0 64", rows);
        refusal(&Cert::assemble(&header, &cert.trees, &cert.trailer()));
    }
}

#[test]
fn swapped_colours_are_refused() {
    // Unequal armies that do not fit: their certificate does not prove the swapped armies.
    let black = (1..=25).find(|&black| !fits(5, 3, black)).unwrap();
    let cert = refutation(&Spec::new(5, 3, black).cells_only());
    refusal(&with_header_line(
        &cert,
        &format!("armies 3 {black}"),
        &format!("armies {black} 3"),
    ));
    // The W and B subtrees of one node exchanged: the checker agrees with the naive judge,
    // and most such exchanges are refused.
    let cert = deep();
    let header = cert.spec.header().len();
    let (mut refused, mut tried) = (0, 0);
    for k in 0..cert.trees.len() {
        for at in 0..cert.trees[k].len() {
            let tree = &cert.trees[k];
            if tree[at] >= 0x80 {
                continue;
            }
            let w_end = subtree_end(tree, at + 1);
            let b_end = subtree_end(tree, w_end);
            let mut swapped = tree[..=at].to_vec();
            swapped.extend_from_slice(&tree[w_end..b_end]);
            swapped.extend_from_slice(&tree[at + 1..w_end]);
            swapped.extend_from_slice(&tree[b_end..]);
            if swapped == *tree {
                continue;
            }
            let mut trees = cert.trees.clone();
            trees[k] = swapped;
            let bytes = cert.with_trees(&trees);
            let accepted = verifies(&bytes);
            assert_eq!(
                accepted,
                naive_accepts(&cert.spec, &cert.pairs, &bytes[header..])
            );
            tried += 1;
            refused += usize::from(!accepted);
        }
    }
    assert!(refused * 2 > tried, "{refused} of {tried} refused");
}

#[test]
fn a_cut_stream_is_refused_everywhere() {
    for cert in [
        refutation(&Spec::new(4, 3, 3)),
        refutation(&Spec::new(6, 6, 6)),
        deep(),
        cubed(),
    ] {
        let bytes = cert.bytes();
        for end in 0..bytes.len() {
            refusal(&bytes[..end]);
        }
    }
    let cert = deep();
    let bytes = cert.bytes();
    let header = cert.spec.header().len();
    let body = cert.nodes();
    // Exactly after a tree (with or without the end byte): the next tree is missing.
    let after_first = header + cert.trees[0].len();
    refused_with(&bytes[..after_first], "the stream ends");
    let mut cut = bytes[..after_first].to_vec();
    cut.push(END);
    refused_with(&cut, "where the tree of pair");
    // Right before the end byte, and right before the trailer.
    refused_with(&bytes[..header + body], "end-of-body byte 0xFF");
    assert_eq!(
        refused_with(&bytes[..=header + body], "inside the trailer"),
        (header + body + 1) as u64
    );
    // The trailer without its newline.
    refused_with(&bytes[..bytes.len() - 1], "inside the trailer");
}

#[test]
fn trailing_bytes_are_refused() {
    let cert = deep();
    for tail in [&b"x"[..], b"\n", b"\0", b"\xff", b"end 1 1\n"] {
        let mut bytes = cert.bytes();
        let length = bytes.len();
        bytes.extend_from_slice(tail);
        assert_eq!(refused_with(&bytes, "after the trailer"), length as u64);
    }
}

#[test]
fn a_wrong_trailer_is_refused() {
    let cert = deep();
    let (pairs, nodes) = (cert.trees.len(), cert.nodes());
    for trailer in [
        format!("end {} {nodes}\n", pairs + 1),
        format!("end {} {nodes}\n", pairs - 1),
        format!("end {pairs} {}\n", nodes + 1),
        format!("end {pairs} {}\n", nodes - 1),
        format!("end {nodes} {pairs}\n"),
        format!("end  {pairs} {nodes}\n"),
        format!("end {pairs} {nodes} \n"),
        format!("end 0{pairs} {nodes}\n"),
        format!("end {pairs} {nodes}\r\n"),
        format!("End {pairs} {nodes}\n"),
        format!("end {pairs}\n"),
        format!("end {pairs} {nodes} 0\n"),
        "\n".to_string(),
    ] {
        refusal(&Cert::assemble(&cert.spec.header(), &cert.trees, &trailer));
    }
}

#[test]
fn a_wrong_group_order_is_refused() {
    let cert = deep();
    for order in [
        "symmetry 8",
        "symmetry 4",
        "symmetry 32",
        "symmetry 016",
        "symmetry  16",
        "symmetry",
    ] {
        refusal(&with_header_line(&cert, "symmetry 16", order));
    }
    let unequal = refutation(&Spec::new(5, 3, 9));
    refused_with(
        &with_header_line(&unequal, "symmetry 8", "symmetry 16"),
        "has order 8",
    );
}

#[test]
fn a_branch_on_a_labelled_diagonal_is_refused() {
    let cert = deep();
    let (k, start) = branching(&cert);
    let root = cert.trees[k][0];
    // The W child of the root replaced by a branch on the root's diagonal again, each child
    // the old W child (which would still hold if the label were simply applied twice).
    let w_end = subtree_end(&cert.trees[k], 1);
    let child = cert.trees[k][1..w_end].to_vec();
    let mut twice = vec![root];
    twice.extend([vec![root], child.clone(), child.clone()].concat());
    twice.extend_from_slice(&cert.trees[k][w_end..]);
    let mut trees = cert.trees.clone();
    trees[k] = twice;
    assert_eq!(
        refused_with(&cert.with_trees(&trees), "already labelled"),
        (start + 1) as u64
    );
    // The same with an unlabelled diagonal instead is a valid (if useless) branch.
    let other = if root == inner(0, 0) {
        inner(1, 0)
    } else {
        inner(0, 0)
    };
    let mut once = vec![root, other];
    once.extend([child.clone(), child].concat());
    once.extend_from_slice(&cert.trees[k][w_end..]);
    trees[k] = once;
    assert!(verifies(&cert.with_trees(&trees)));
}

#[test]
fn a_diagonal_beyond_the_board_is_refused() {
    let cert = refutation(&Spec::new(6, 6, 6));
    let side = cert.spec.side as u8;
    // A branch above a tree that is one leaf; each child that same leaf.
    let k = cert
        .trees
        .iter()
        .position(|tree| tree.len() == 1)
        .expect("a one-leaf tree");
    let leaf = cert.trees[k][0];
    let start = cert.spec.header().len() + cert.trees[..k].iter().map(Vec::len).sum::<usize>();
    for family in 0..2 {
        let mut trees = cert.trees.clone();
        trees[k] = vec![inner(family, 2 * side - 2), leaf, leaf];
        assert!(verifies(&cert.with_trees(&trees)));
        for index in [2 * side - 1, 2 * side, 63] {
            trees[k] = vec![inner(family, index), leaf, leaf];
            assert_eq!(
                refused_with(&cert.with_trees(&trees), "beyond 2D - 2"),
                start as u64
            );
        }
    }
}

#[test]
fn an_invalid_byte_is_refused() {
    let cert = deep();
    let header = cert.spec.header().len();
    for byte in [0x82, 0x90, 0xA0, 0xBF, 0xD0, 0xE7, 0xF0, 0xFE] {
        let mut trees = cert.trees.clone();
        trees[0][0] = byte;
        assert_eq!(
            refused_with(&cert.with_trees(&trees), "invalid byte"),
            header as u64
        );
    }
}

#[test]
fn a_weight_beyond_the_list_is_refused() {
    let cert = refutation(&Spec::new(6, 6, 6).weights(&[(1, 1)]));
    let leaf = cert
        .leaves
        .iter()
        .find(|leaf| cert.trees[leaf.tree][leaf.at] == 0xC0)
        .expect("a family-sum leaf");
    for byte in [0xC1, 0xC7, 0xC9, 0xCF] {
        let mut trees = cert.trees.clone();
        trees[leaf.tree][leaf.at] = byte;
        refused_with(&cert.with_trees(&trees), "but the header lists 1");
    }
    // With the weight listed eighth, the same leaf names it with index 7 and holds.
    let mut eight = cert.clone();
    eight.spec.weights = vec![
        (1000, 1),
        (1, 1000),
        (999, 1),
        (1, 999),
        (998, 1),
        (1, 998),
        (997, 1),
        (1, 1),
    ];
    let mut trees = eight.trees.clone();
    for tree in &mut trees {
        for byte in tree.iter_mut() {
            if (0xC0..=0xCF).contains(byte) {
                *byte |= 7;
            }
        }
    }
    assert!(verifies(&eight.with_trees(&trees)));
}

#[test]
fn a_range_that_does_not_match_is_refused() {
    // A header range other than the writer's verifies exactly when it has the same searched
    // pairs (ranges that differ only by row sets without a searched pair, such as S = 0 or
    // the S > S̄ of a colour swap); the others are refused.
    for part in [
        deep(),
        refutation(&Spec::new(6, 6, 6).cells_only().rows(5, 20)),
        refutation(&Spec::new(5, 3, 9)),
        refutation(
            &Spec::new(6, 6, 6)
                .rows(5, 40)
                .cube(Cube::new((2, 2), (0, 0), &[])),
        ),
    ] {
        let (lo, hi) = (part.spec.lo, part.spec.hi);
        let first = u64::from(part.pairs[0].0);
        let last = u64::from(part.pairs.last().unwrap().0);
        let mut refused = 0;
        for (new_lo, new_hi) in [
            (lo, hi - 1),
            (lo + 1, hi),
            (first, hi),
            (first + 1, hi),
            (lo, last),
            (lo, last + 1),
            (0, hi),
            (lo, 1 << part.spec.side),
            (0, 1),
        ] {
            if new_lo > new_hi || (new_lo, new_hi) == (lo, hi) {
                continue;
            }
            let changed = with_header_line(
                &part,
                &format!("rows {lo} {hi}"),
                &format!("rows {new_lo} {new_hi}"),
            );
            let same_pairs =
                common::searched(&part.spec.clone().rows(new_lo, new_hi)) == part.pairs;
            assert_eq!(
                verifies(&changed),
                same_pairs,
                "rows {new_lo} {new_hi} for {lo} {hi}"
            );
            refused += usize::from(!same_pairs);
        }
        assert!(refused >= 3);
        // Whatever verifies claims the range in its header, not the writer's.
        let narrower = with_header_line(
            &part,
            &format!("rows {lo} {hi}"),
            &format!("rows {first} {}", last + 1),
        );
        assert_eq!(check(&narrower[..]).unwrap().claim.lo, first);
    }
    let cert = deep();
    for rows in [
        "rows 0 65",
        "rows 64 0",
        "rows 0 064",
        "rows 0x0 64",
        "rows 0 -1",
        "rows 0",
    ] {
        refusal(&with_header_line(&cert, "rows 0 64", rows));
    }
}

#[test]
fn a_malformed_header_is_refused() {
    let cert = refutation(&Spec::new(4, 3, 3));
    let changes = [
        ("pq-search-certificate 1", "pq-search-certificate 2"),
        ("pq-search-certificate 1\n", "pq-search-certificate 1\r\n"),
        ("pq-search-certificate 1\n", ""),
        ("board square 4", "board square 04"),
        ("board square 4", "board square  4"),
        ("board square 4", "board  square 4"),
        ("board square 4\n", "board square 4 \n"),
        ("board square 4", "board rectangle 4"),
        ("board square 4\n", "board square 4\nboard square 4\n"),
        ("armies 3 3", "armies 3"),
        ("armies 3 3", "armies 3 3 3"),
        ("armies 3 3", "armies 0 0"),
        ("armies 3 3", "armies -3 3"),
        ("weights 1:1", "weights"),
        ("weights 1:1", "weights "),
        ("weights 1:1", "weights 0:1"),
        ("weights 1:1", "weights 1:1001"),
        ("weights 1:1", "weights 1:1  1:2"),
        ("weights 1:1", "weights 1:1 1:2 1:3 1:4 1:5 1:6 1:7 1:8 1:9"),
        ("weights 1:1", "weights 1;1"),
        ("weights 1:1", "weights 1:1:1"),
        ("weights 1:1\n", "weights 1:1\n\n"),
        ("begin", "Begin"),
        ("begin\n", "begin \n"),
        ("rows 0 16\n", ""),
    ];
    for (from, to) in changes {
        refusal(&with_header_line(&cert, from, to));
    }
    for side in [
        "board square 0",
        "board square 33",
        "board square 99999999999999999999",
    ] {
        refusal(&with_header_line(&cert, "board square 4", side));
    }
    // Line-by-line offsets: a bad fourth line is reported where that line starts.
    let bytes = with_header_line(&cert, "symmetry 16", "symmetry 17");
    let fourth = cert.spec.header().find("symmetry").unwrap();
    assert_eq!(refusal(&bytes).0, fourth as u64);
}

#[test]
fn the_largest_board_reads() {
    // Side 32: rows up to 2^32 and diagonal 62 in six bits. A range with no searched pair.
    let spec = Spec::new(32, 1000, 1000).rows(4_294_967_295, 4_294_967_296);
    let verified = check(
        &spec
            .header()
            .into_bytes()
            .into_iter()
            .chain(*b"\xffend 0 0\n")
            .collect::<Vec<u8>>()[..],
    )
    .expect("an empty range verifies");
    assert_eq!(
        (verified.pairs, verified.nodes, verified.claim.hi),
        (0, 0, 1 << 32)
    );
    // The longest cube line: every set 2^32 − 1 and all 126 diagonals fixed (910 bytes).
    let diagonals: Vec<(u8, u8, u8)> = (0..2)
        .flat_map(|f| (0..63).map(move |i| (f, i, if i % 3 == 0 { BLACK } else { WHITE })))
        .collect();
    let full = u32::MAX;
    let cube = Cube::new((full, full), (full, full), &diagonals);
    assert_eq!(cube.line().len(), 910);
    let header = spec.clone().cube(cube.clone()).header();
    let empty = |header: &str| Cert::assemble(header, &[], "end 0 0\n");
    let verified = check(&empty(&header)[..]).expect("an empty range verifies");
    assert_eq!(verified.claim.cube.unwrap().to_string(), cube.line());
    for (from, to) in [
        (" 1:62:W", " 1:63:W"),
        ("cube 4294967295", "cube 4294967296"),
    ] {
        refusal(&empty(&header.replace(from, to)));
    }
    let mut too_far = spec
        .header()
        .replace("rows 4294967295 4294967296", "rows 0 4294967297")
        .into_bytes();
    too_far.extend_from_slice(b"\xffend 0 0\n");
    refusal(&too_far);
}

#[test]
fn a_malformed_cube_line_is_refused() {
    let cert = cubed();
    let line = "cube 9 1 4 0 0:5:W 1:3:B 1:7:W";
    assert!(cert
        .spec
        .header()
        .contains(&format!("rows 0 64\n{line}\nbegin\n")));
    let start = cert.spec.header().find(line).unwrap() as u64;
    for (to, words) in [
        ("cube 9 3 4 0 0:5:W 1:3:B 1:7:W", "not within"),
        ("cube 9 1 4 6 0:5:W 1:3:B 1:7:W", "not within"),
        ("cube 9 1 4 00 0:5:W 1:3:B 1:7:W", "not a decimal"),
        ("cube 09 1 4 0 0:5:W 1:3:B 1:7:W", "not a decimal"),
        ("cube 9 01 4 0 0:5:W 1:3:B 1:7:W", "not a decimal"),
        ("cube 9 1 04 0 0:5:W 1:3:B 1:7:W", "not a decimal"),
        ("cube 9 1 +4 0 0:5:W 1:3:B 1:7:W", "not a decimal"),
        ("cube 73 9 4 0 0:5:W 1:3:B 1:7:W", "below 2^6"),
        ("cube 9 1 64 0 0:5:W 1:3:B 1:7:W", "below 2^6"),
        ("cube 9 1 4 0:5:W 1:3:B 1:7:W", "not a decimal"),
        ("cube 9 1 4", "four sets"),
        ("cube", "four sets"),
        ("cube ", "four sets"),
        ("cube  9 1 4 0 0:5:W 1:3:B 1:7:W", "not a decimal"),
        ("cube 9 1 4 0  0:5:W 1:3:B 1:7:W", "fixed diagonal \"\""),
        ("cube 9 1 4 0 0:5:W 1:3:B 1:7:W ", "fixed diagonal \"\""),
        ("cube 9 1 4 0 ", "fixed diagonal \"\""),
        ("cube 9 1 4 0 1:3:B 0:5:W 1:7:W", "strictly after"),
        ("cube 9 1 4 0 0:5:W 1:7:W 1:3:B", "strictly after"),
        ("cube 9 1 4 0 0:5:W 0:5:W 1:3:B 1:7:W", "strictly after"),
        ("cube 9 1 4 0 0:5:W 0:5:B 1:3:B 1:7:W", "strictly after"),
        ("cube 9 1 4 0 0:5:W 1:3:B 1:3:B 1:7:W", "strictly after"),
        ("cube 9 1 4 0 2:5:W 1:3:B 1:7:W", "not F:I:L"),
        ("cube 9 1 4 0 0:11:W 1:3:B 1:7:W", "not F:I:L"),
        ("cube 9 1 4 0 0:63:W 1:3:B 1:7:W", "not F:I:L"),
        ("cube 9 1 4 0 0:05:W 1:3:B 1:7:W", "not F:I:L"),
        ("cube 9 1 4 0 00:5:W 1:3:B 1:7:W", "not F:I:L"),
        ("cube 9 1 4 0 0:-1:W 1:3:B 1:7:W", "not F:I:L"),
        ("cube 9 1 4 0 0::W 1:3:B 1:7:W", "not F:I:L"),
        ("cube 9 1 4 0 0:5:w 1:3:B 1:7:W", "not F:I:L"),
        ("cube 9 1 4 0 0:5:X 1:3:B 1:7:W", "not F:I:L"),
        ("cube 9 1 4 0 0:5: 1:3:B 1:7:W", "not F:I:L"),
        ("cube 9 1 4 0 0:5 1:3:B 1:7:W", "not F:I:L"),
        ("cube 9 1 4 0 0:5:WB 1:3:B 1:7:W", "not F:I:L"),
        ("cube 9 1 4 0 0:5:W:W 1:3:B 1:7:W", "not F:I:L"),
        ("cube 9 1 4 0 0-5-W 1:3:B 1:7:W", "not F:I:L"),
        ("cube 9 1 4 0 0:5:W\t1:3:B 1:7:W", "not F:I:L"),
        ("cube 9 1 4 0 0:5:W 1:3:B 1:7:W\r", "not F:I:L"),
        ("cubes 9 1 4 0 0:5:W 1:3:B 1:7:W", "four sets"),
    ] {
        let bytes = with_header_line(&cert, line, to);
        let (offset, reason) = refusal(&bytes);
        assert!(
            reason.contains(words),
            "{to:?}: expected {words:?} in {reason:?}"
        );
        assert_eq!(offset, start, "{to:?}: {reason}");
    }
    // The line anywhere but right after `rows`, twice, or in another case.
    let header = cert.spec.header();
    let without = header.replace(&format!("{line}\n"), "");
    for moved in [
        without.replace("rows 0 64\n", &format!("{line}\nrows 0 64\n")),
        without.replace("weights 1:1\n", &format!("{line}\nweights 1:1\n")),
        format!("{line}\n{without}"),
        without.replace("begin\n", &format!("begin\n{line}\n")),
        header.replace("begin\n", &format!("{line}\nbegin\n")),
        header.replace(line, &line.replace("cube", "Cube")),
    ] {
        refusal(&Cert::assemble(&moved, &cert.trees, &cert.trailer()));
    }
    // Unchanged, it verifies, and states the cube as its header does.
    let verified = check(&cert.bytes()[..]).unwrap();
    assert_eq!(verified.claim.cube.unwrap().to_string(), line);
}

#[test]
fn a_branch_on_a_fixed_diagonal_is_refused() {
    let cert = cubed();
    let header = cert.spec.header().len();
    let k = cert
        .trees
        .iter()
        .position(|tree| tree.len() == 1)
        .expect("a one-leaf tree");
    let leaf = cert.trees[k][0];
    let start = header + cert.trees[..k].iter().map(Vec::len).sum::<usize>();
    let mut trees = cert.trees.clone();
    for (family, index) in [(0, 5), (1, 3), (1, 7)] {
        // At the root, and below a branch on a free diagonal.
        trees[k] = vec![inner(family, index), leaf, leaf];
        let offset = refused_with(&cert.with_trees(&trees), "which the cube labels");
        assert_eq!(offset, start as u64);
        trees[k] = vec![inner(0, 0), leaf, inner(family, index), leaf, leaf];
        let offset = refused_with(&cert.with_trees(&trees), "which the cube labels");
        assert_eq!(offset, start as u64 + 2);
    }
    // Diagonals that the cube leaves free may be named (the leaf holds with more labels).
    for (family, index) in [(0, 3), (1, 5), (0, 7)] {
        trees[k] = vec![inner(family, index), leaf, leaf];
        assert!(verifies(&cert.with_trees(&trees)));
    }
}

/// Trees written for one cube under the header of another: the checker agrees with the
/// naive judge (which reads the trees under the header's cube), and each of these is refused.
#[test]
fn trees_written_for_another_cube_are_refused() {
    let cert = cubed();
    let header = cert.spec.header();
    let line = "cube 9 1 4 0 0:5:W 1:3:B 1:7:W";
    let others = [
        // A fixed diagonal's label flipped.
        Cube::new(
            (9, 1),
            (4, 0),
            &[(0, 5, BLACK), (1, 3, BLACK), (1, 7, WHITE)],
        ),
        Cube::new(
            (9, 1),
            (4, 0),
            &[(0, 5, WHITE), (1, 3, WHITE), (1, 7, WHITE)],
        ),
        Cube::new(
            (9, 1),
            (4, 0),
            &[(0, 5, WHITE), (1, 3, BLACK), (1, 7, BLACK)],
        ),
        // A fixed diagonal dropped.
        Cube::new((9, 1), (4, 0), &[(1, 3, BLACK), (1, 7, WHITE)]),
        Cube::new((9, 1), (4, 0), &[(0, 5, WHITE), (1, 3, BLACK)]),
        // A diagonal moved.
        Cube::new(
            (9, 1),
            (4, 0),
            &[(0, 6, WHITE), (1, 3, BLACK), (1, 7, WHITE)],
        ),
        // The rows or the columns changed.
        Cube::new(
            (9, 8),
            (4, 0),
            &[(0, 5, WHITE), (1, 3, BLACK), (1, 7, WHITE)],
        ),
        Cube::new(
            (9, 0),
            (4, 0),
            &[(0, 5, WHITE), (1, 3, BLACK), (1, 7, WHITE)],
        ),
        Cube::new(
            (1, 1),
            (4, 0),
            &[(0, 5, WHITE), (1, 3, BLACK), (1, 7, WHITE)],
        ),
        Cube::new(
            (9, 1),
            (4, 4),
            &[(0, 5, WHITE), (1, 3, BLACK), (1, 7, WHITE)],
        ),
        Cube::new(
            (9, 1),
            (0, 0),
            &[(0, 5, WHITE), (1, 3, BLACK), (1, 7, WHITE)],
        ),
        // The whole cube written for the other colour.
        Cube::new(
            (9, 8),
            (4, 4),
            &[(0, 5, BLACK), (1, 3, WHITE), (1, 7, BLACK)],
        ),
    ];
    for other in others {
        let bytes = Cert::assemble(
            &header.replace(line, &other.line()),
            &cert.trees,
            &cert.trailer(),
        );
        let spec = cert.spec.clone().cube(other.clone());
        let pairs = common::searched(&spec);
        let judged = naive_accepts(&spec, &pairs, &bytes[spec.header().len()..]);
        assert_eq!(verifies(&bytes), judged, "{}", other.line());
        assert!(!judged, "{} accepts the trees of {line}", other.line());
    }
    // No cube line at all, or a cube line added to a certificate of the whole claim.
    refusal(&Cert::assemble(
        &header.replace(&format!("{line}\n"), ""),
        &cert.trees,
        &cert.trailer(),
    ));
    let whole = deep();
    let added = whole
        .spec
        .header()
        .replace("begin\n", &format!("{line}\nbegin\n"));
    refusal(&Cert::assemble(&added, &whole.trees, &whole.trailer()));
}

#[test]
fn a_dropped_pair_of_a_cube_is_refused() {
    let cert = cubed();
    let count = cert.trees.len();
    assert!(count > 5);
    for k in [0, 1, count / 2, count - 2, count - 1] {
        let mut trees = cert.trees.clone();
        trees.remove(k);
        refusal(&cert.with_trees(&trees));
        refusal(&Cert::assemble(
            &cert.spec.header(),
            &trees,
            &cert.trailer(),
        ));
    }
    // A pair added: the tree of a pair outside the cube (its neighbour in the whole search)
    // put in its place.
    let whole = refutation(&Spec::new(6, 6, 6));
    let outside = whole
        .pairs
        .iter()
        .position(|&(s, t)| !cert.spec.cube.as_ref().unwrap().agrees(s, t))
        .unwrap();
    let mut trees = cert.trees.clone();
    trees.insert(0, whole.trees[outside].clone());
    refusal(&cert.with_trees(&trees));
}

/// A certificate with paired cells: the (6, 6) step with the cells rules only before them,
/// so that many of its leaves are paired cells.
fn paired_cert() -> Cert {
    refutation(&Spec::new(6, 6, 6).cells_only().paired(&[(1, 1), (1, 2)]))
}

/// The offset of a leaf in the whole stream.
fn offset_of(cert: &Cert, tree: usize, at: usize) -> u64 {
    let before: usize = cert.trees[..tree].iter().map(Vec::len).sum();
    (cert.spec.header().len() + before + at) as u64
}

#[test]
fn a_paired_leaf_where_the_rule_does_not_hold_is_refused() {
    let cert = paired_cert();
    let mut tried = 0;
    for leaf in &cert.leaves {
        let byte = cert.trees[leaf.tree][leaf.at];
        for k in 0..2 {
            if common::holds(&cert.spec, leaf.s, leaf.t, &leaf.labels, paired(k)) {
                continue;
            }
            let mut trees = cert.trees.clone();
            trees[leaf.tree][leaf.at] = paired(k);
            let offset = refused_with(&cert.with_trees(&trees), "leaf `paired cells` with weight");
            assert_eq!(offset, offset_of(&cert, leaf.tree, leaf.at), "{byte:#04x}");
            tried += 1;
        }
    }
    assert!(tried > 20, "{tried}");
}

#[test]
fn a_paired_byte_without_the_line_is_refused() {
    let cert = paired_cert();
    let first = cert
        .leaves
        .iter()
        .find(|leaf| cert.trees[leaf.tree][leaf.at] >= 0xD0)
        .expect("a paired-cells leaf");
    let header = cert.spec.header().replacen("paired 1:1 1:2\n", "", 1);
    assert!(!header.contains("paired"));
    let bytes = Cert::assemble(&header, &cert.trees, &cert.trailer());
    let (offset, reason) = refusal(&bytes);
    assert!(reason.contains("invalid byte 0xd"), "{reason}");
    assert!(reason.contains("no `paired` line"), "{reason}");
    let shift = "paired 1:1 1:2\n".len() as u64;
    assert_eq!(offset + shift, offset_of(&cert, first.tree, first.at));
}

#[test]
fn a_paired_index_beyond_the_line_is_refused() {
    let cert = paired_cert();
    let (leaf, held) = cert
        .leaves
        .iter()
        .find_map(|leaf| {
            let byte = cert.trees[leaf.tree][leaf.at];
            (byte >= 0xD0).then_some((leaf, byte))
        })
        .expect("a paired-cells leaf");
    for k in 2..8 {
        let mut trees = cert.trees.clone();
        trees[leaf.tree][leaf.at] = paired(k);
        let offset = refused_with(&cert.with_trees(&trees), "but the `paired` line lists 2");
        assert_eq!(offset, offset_of(&cert, leaf.tree, leaf.at));
    }
    // With the two weights listed seventh and eighth, every paired leaf names them with
    // indices 6 and 7 and holds.
    let mut eight = cert.clone();
    eight.spec.paired = [(1000, 1), (1, 1000), (999, 1), (1, 999), (998, 1), (1, 998)]
        .into_iter()
        .chain(cert.spec.paired.iter().copied())
        .collect();
    let mut trees = eight.trees.clone();
    for byte in trees.iter_mut().flatten() {
        if *byte >= 0xD0 {
            *byte += 6;
        }
    }
    assert!(verifies(&eight.with_trees(&trees)));
    assert_eq!(held & 0xF8, 0xD0);
    // The family-sum weights are another list: a paired leaf's index is not theirs.
    let sums = refutation(
        &Spec::new(6, 6, 6)
            .weights(&[(1, 1), (1, 2), (2, 1)])
            .paired(&[(1, 1)]),
    );
    let family = sums
        .leaves
        .iter()
        .find(|leaf| sums.trees[leaf.tree][leaf.at] >= 0xC0)
        .expect("a family-sum leaf");
    let mut trees = sums.trees.clone();
    trees[family.tree][family.at] = paired(2);
    refused_with(&sums.with_trees(&trees), "but the `paired` line lists 1");
}

#[test]
fn a_misplaced_or_malformed_paired_line_is_refused() {
    let cert = paired_cert();
    let header = cert.spec.header();
    let line = "paired 1:1 1:2";
    assert!(header.contains(&format!("weights 1:1\n{line}\nrows 0 64\n")));
    let start = header.find(line).unwrap() as u64;
    for to in [
        "paired",
        "paired ",
        "paired 1:1 ",
        "paired  1:1 1:2",
        "paired 1:1  1:2",
        "paired 0:1 1:2",
        "paired 1:0",
        "paired 1:1001",
        "paired 1001:1",
        "paired 01:1",
        "paired 1:01",
        "paired 1:1 1:2 1:3 1:4 1:5 1:6 1:7 1:8 1:9",
        "paired 1;1",
        "paired 1:1:1",
        "paired 1:",
        "paired :1",
        "paired 1:1\r",
        "paired 1:1\t1:2",
        "pairedx 1:1",
        "paired -1:1",
    ] {
        let (offset, reason) = refusal(&with_header_line(&cert, line, to));
        assert!(
            reason.contains("expected `paired P1:Q1 ...`"),
            "{to:?}: {reason}"
        );
        assert_eq!(offset, start, "{to:?}: {reason}");
    }
    // Eight pairs and the largest weights are allowed.
    let eight = "paired 1:1 1:2 1000:1000 1:1000 1000:1 3:3 4:4 5:5";
    assert!(verifies(&with_header_line(&cert, line, eight)));
    // The line anywhere but right after `weights`, twice, or in another case.
    let without = header.replacen(&format!("{line}\n"), "", 1);
    let cube = Cube::new((1, 0), (0, 0), &[]).line();
    for moved in [
        without.replace("weights 1:1\n", &format!("{line}\nweights 1:1\n")),
        without.replace("symmetry 16\n", &format!("{line}\nsymmetry 16\n")),
        without.replace("rows 0 64\n", &format!("rows 0 64\n{line}\n")),
        without.replace("begin\n", &format!("{line}\nbegin\n")),
        without.replace("begin\n", &format!("begin\n{line}\n")),
        format!("{line}\n{without}"),
        header.replace(&format!("{line}\n"), &format!("{line}\n{line}\n")),
        header.replace(line, &line.replace("paired", "Paired")),
        header.replace(line, &line.replace("paired", "pairs")),
        without.replace("rows 0 64\n", &format!("rows 0 64\n{cube}\n{line}\n")),
    ] {
        assert!(
            !verifies(&Cert::assemble(&moved, &cert.trees, &cert.trailer())),
            "{moved}"
        );
    }
    // A paired line where no leaf needs it is still the header's: it verifies, and is named.
    let plain = deep();
    let added = plain
        .spec
        .header()
        .replace("rows 0 64\n", "paired 1:1\nrows 0 64\n");
    let verified = check(&Cert::assemble(&added, &plain.trees, &plain.trailer())[..]).unwrap();
    assert_eq!(verified.claim.rules.paired, [(1, 1)]);
    assert!(verified
        .claim
        .to_string()
        .ends_with(" rules weights 1:1 paired 1:1"));
}
