//! The search written as a search certificate (docs/search-certificate.md): the claim, then
//! each searched pair's tree in preorder, one byte a node, then the counts.
//!
//! A certifying algorithm (McConnell, Mehlhorn, Näher & Schweitzer, "Certifying
//! algorithms", Computer Science Review 5(2), 2011) writes a witness of its work that a much
//! simpler program checks: here the refutation tree of every `(S, T)` pair the search keeps,
//! each leaf naming the bound that cut it, so that an independent checker (`pq-check`)
//! verifies each leaf's count and that the trees miss no pair and no branch, at about the
//! cost of the search, without trusting this crate.
//!
//! The worker threads finish row sets in any order; each row set's trees are kept in memory
//! until every row set before it is written, so the file is in the order the format fixes.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use crate::search::{Rule, Tree, NW, PAIRED, WEIGHTS};
use crate::symmetry::Group;
use crate::{row_sets, Answer, Board, Demand, Fixed, Settings, Verdict};

/// The format's first line.
pub const MAGIC: &str = "pq-search-certificate 1";

/// Why no certificate was written.
#[derive(Debug, thiserror::Error)]
pub enum CertifyError {
    /// The format covers square boards and tori (a torus without cubes).
    #[error(
        "search certificates cover square boards and, without cubes, square tori; this one is {0}"
    )]
    Board(String),
    /// The range of row sets is not within `[0, 2^d]`.
    #[error("the range of row sets {lo}..{hi} is not within 0..{all}")]
    Range {
        /// Its start.
        lo: u64,
        /// Its end.
        hi: u64,
        /// `2^d`.
        all: u64,
    },
    /// Writing failed (a full disk, a closed pipe).
    #[error("writing the certificate: {0}")]
    Io(#[from] std::io::Error),
}

/// One worker's trees of the row set it is searching.
struct Trees {
    bytes: Vec<u8>,
}

impl Tree for Trees {
    const WEIGHTS: [(i32, i32); NW] = WEIGHTS;
    const PAIRED: bool = true;
    const RULES: bool = true;
    #[inline(always)]
    fn push(&mut self, f: usize, i: usize, white: bool) {
        // Preorder: the inner node's byte comes before its W child, which comes first.
        if white {
            self.bytes.push(((f as u8) << 6) | i as u8);
        }
    }
    #[inline(always)]
    fn pop(&mut self) {}
    #[inline(always)]
    fn refuted(&mut self) {}
    #[inline(always)]
    fn rule(&mut self, rule: Rule) {
        self.bytes.push(match rule {
            Rule::CellsWhite => 0x80,
            Rule::CellsBlack => 0x81,
            Rule::FamilySum { family, weight } => 0xC0 | (family as u8) << 3 | weight as u8,
            Rule::PairedCells { weight } => 0xD0 | weight as u8,
        });
    }
    #[inline(always)]
    fn refuted_by(&mut self, _: usize, _: usize) {}
}

/// Row sets finished out of order, and the writer they wait for.
struct Sequencer<'w> {
    out: &'w mut (dyn Write + Send),
    next: usize,
    waiting: BTreeMap<usize, Vec<u8>>,
    nodes: u64,
    error: Option<std::io::Error>,
}

/// The header of the certificate of `demand` on `board` for the row sets in `lo..hi`, of
/// the cube `cube` (in the masks' order) when there is one. A torus's names its board
/// `torus` and has no `paired` line: its search never cuts by paired cells.
fn header(board: &Board, demand: Demand, (lo, hi): (u64, u64), cube: Option<&Fixed>) -> String {
    let group = Group::of(board, demand.symmetric());
    let words = |pairs: &[(i32, i32)]| -> String {
        let words: Vec<String> = pairs.iter().map(|(p, q)| format!("{p}:{q}")).collect();
        words.join(" ")
    };
    let cube = cube.map_or(String::new(), |c| {
        let mut line = format!("cube {} {} {} {}", c.rows.0, c.rows.1, c.cols.0, c.cols.1);
        for &(f, i, white) in &c.diagonals {
            line += &format!(" {f}:{i}:{}", if white { 'W' } else { 'B' });
        }
        line + "\n"
    });
    let (kind, paired) = if board.is_torus() {
        ("torus", String::new())
    } else {
        ("square", format!("paired {}\n", words(&PAIRED)))
    };
    format!(
        "{MAGIC}\nboard {kind} {}\narmies {} {}\nsymmetry {}\nweights {}\n{paired}rows {lo} {hi}\n{cube}begin\n",
        board.rows(),
        demand.white,
        demand.black,
        group.order(),
        words(&WEIGHTS),
    )
}

/// Why `board` has no certificate (of a cube, when `cube`): the format covers square boards
/// and square tori, and a torus's cubes have no definition in it.
fn covered(board: &Board, cube: bool) -> Result<(), CertifyError> {
    if !board.is_square() || (cube && board.is_torus()) {
        return Err(CertifyError::Board(format!(
            "a {}×{}{}",
            board.rows(),
            board.cols(),
            match (board.is_torus(), cube) {
                (true, true) => " torus, and a cube",
                (true, false) => " torus",
                _ => " board",
            }
        )));
    }
    Ok(())
}

/// Searches the pairs whose white rows lie in `lo..hi` (all of them: `0..2^d`) and writes
/// the search certificate of that range to `out` when none has a solution. A Sat or stopped
/// search writes the header and the trees of the row sets finished in order, but never the
/// end: a checker refuses what it gets.
///
/// # Errors
/// A board the format does not cover, a range outside `0..=2^d`, or a write that failed (the
/// search is then stopped).
pub fn certify(
    board: &Board,
    demand: Demand,
    (lo, hi): (u64, u64),
    settings: &Settings,
    out: &mut (dyn Write + Send),
) -> Result<Answer, CertifyError> {
    covered(board, false)?;
    let all = 1u64 << board.rows();
    if lo > hi || hi > all {
        return Err(CertifyError::Range { lo, hi, all });
    }
    out.write_all(header(board, demand, (lo, hi), None).as_bytes())?;
    let rows: Vec<u32> = row_sets(board, demand)
        .into_iter()
        .filter(|&s| (lo..hi).contains(&u64::from(s)))
        .collect();
    write_trees(board, demand, &rows, &Fixed::default(), settings, out)
}

/// The certificate of the cube `fixed` of the colouring formula (in the formula's order,
/// as [`crate::search_fixed`] takes it): the search of [`crate::search_fixed`], written
/// with the cube turned into the masks' order on its `cube` line, every row set covered.
///
/// # Errors
/// As [`certify`].
pub fn certify_cube(
    board: &Board,
    demand: Demand,
    fixed: &Fixed,
    settings: &Settings,
    out: &mut (dyn Write + Send),
) -> Result<Answer, CertifyError> {
    covered(board, true)?;
    out.write_all(cube_header(board, demand, fixed).as_bytes())?;
    let turned = fixed.turned(board);
    let rows = turned.row_sets(board, demand);
    write_trees(board, demand, &rows, &turned, settings, out)
}

/// The header, up to its `begin` line, of [`certify_cube`]'s certificate of the cube `fixed`
/// (in the formula's order): what a certificate of that cube must claim.
pub fn cube_header(board: &Board, demand: Demand, fixed: &Fixed) -> String {
    let all = 1u64 << board.rows();
    header(board, demand, (0, all), Some(&fixed.turned(board)))
}

/// Searches the pairs of the row sets `rows` (in increasing order) under the cube `fixed`
/// and writes their trees in that order after the header, then the end when none has a
/// solution.
fn write_trees(
    board: &Board,
    demand: Demand,
    rows: &[u32],
    fixed: &Fixed,
    settings: &Settings,
    out: &mut (dyn Write + Send),
) -> Result<Answer, CertifyError> {
    let failed = AtomicBool::new(false);
    let asked = || failed.load(Ordering::Relaxed) || (settings.asked_to_stop)();
    let inner = Settings {
        jobs: settings.jobs,
        deadline: settings.deadline,
        asked_to_stop: &asked,
        unit_budget: None,
    };
    let sequencer = Mutex::new(Sequencer {
        out,
        next: 0,
        waiting: BTreeMap::new(),
        nodes: 0,
        error: None,
    });
    let done = |at: usize, trees: &mut Trees| {
        let bytes = std::mem::take(&mut trees.bytes);
        let mut guard = sequencer
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let seq = &mut *guard;
        seq.waiting.insert(at, bytes);
        while let Some(bytes) = seq.waiting.remove(&seq.next) {
            seq.next += 1;
            seq.nodes += bytes.len() as u64;
            if seq.error.is_none() {
                if let Err(e) = seq.out.write_all(&bytes) {
                    seq.error = Some(e);
                    failed.store(true, Ordering::Relaxed);
                }
            }
        }
    };
    let answer = crate::run_with(
        board,
        demand,
        rows,
        fixed,
        &inner,
        None,
        &|| Trees { bytes: Vec::new() },
        &done,
    );
    let seq = sequencer
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(e) = seq.error {
        return Err(e.into());
    }
    if answer.verdict == Verdict::Unsat {
        debug_assert_eq!(seq.nodes, answer.stats.nodes);
        seq.out.write_all(&[0xFF])?;
        writeln!(seq.out, "end {} {}", answer.stats.pairs, seq.nodes)?;
    }
    seq.out.flush()?;
    Ok(answer)
}

/// The range of row sets `lo..hi` that the slice `rows[from..to]` of [`row_sets`] covers,
/// the row sets between two slices given to the later one: slices that split [`row_sets`]
/// give ranges that split `0..2^d`.
pub fn range_of(board: &Board, rows: &[u32], from: usize, to: usize) -> (u64, u64) {
    let all = 1u64 << board.rows();
    let lo = if from == 0 {
        0
    } else {
        u64::from(rows[from - 1]) + 1
    };
    let hi = if to >= rows.len() {
        all
    } else {
        u64::from(rows[to - 1]) + 1
    };
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn certificate(d: usize, m: usize, range: Option<(u64, u64)>, jobs: usize) -> Vec<u8> {
        let board = Board::square(d).unwrap();
        let mut out = Vec::new();
        let settings = Settings {
            jobs,
            ..Settings::default()
        };
        let range = range.unwrap_or((0, 1 << d));
        let answer = certify(&board, Demand::equal(m), range, &settings, &mut out).unwrap();
        assert_eq!(answer.verdict, Verdict::Unsat);
        out
    }

    #[test]
    fn the_header_trees_and_end_are_as_the_format_says() {
        let cert = certificate(6, 6, None, 1);
        let text = String::from_utf8_lossy(&cert);
        assert!(text.starts_with(
            "pq-search-certificate 1\nboard square 6\narmies 6 6\nsymmetry 16\nweights 1:2 2:1 3:4 4:3\npaired 1:1 1:2 2:1\nrows 0 64\nbegin\n"
        ));
        let body = cert.iter().position(|&b| b == b'\n').unwrap();
        let begin = text.find("begin\n").unwrap() + 6;
        assert!(body < begin);
        let end = cert.iter().rposition(|&b| b == 0xFF).unwrap();
        let trailer = std::str::from_utf8(&cert[end + 1..]).unwrap();
        let nodes = end - begin;
        assert!(trailer.starts_with("end ") && trailer.ends_with(&format!(" {nodes}\n")));
        // Every byte of the body is a node of the format.
        assert!(cert[begin..end]
            .iter()
            .all(|&b| b <= 0x81 || (0xC0..0xD3).contains(&b)));
    }

    #[test]
    fn paired_cells_name_their_weights_as_leaves() {
        // 8/10's search cuts by each of the three paired-cells weightings.
        let cert = certificate(8, 10, None, 1);
        let begin = String::from_utf8_lossy(&cert).find("begin\n").unwrap() + 6;
        for leaf in 0xD0..0xD3 {
            assert!(cert[begin..].contains(&leaf), "no leaf {leaf:#x}");
        }
    }

    #[test]
    fn threads_and_ranges_write_the_same_trees() {
        let one = certificate(8, 10, None, 1);
        assert_eq!(one, certificate(8, 10, None, 3));
        // Two cubes: their bodies, one after the other, are the whole body.
        let board = Board::square(8).unwrap();
        let rows = row_sets(&board, Demand::equal(10));
        let half = rows.len() / 2;
        let (a, b) = (
            range_of(&board, &rows, 0, half),
            range_of(&board, &rows, half, rows.len()),
        );
        assert_eq!((a.0, a.1, b.1), (0, b.0, 256));
        let body = |cert: &[u8]| {
            let text = String::from_utf8_lossy(cert).into_owned();
            let begin = text.find("begin\n").unwrap() + 6;
            let end = cert.iter().rposition(|&b| b == 0xFF).unwrap();
            cert[begin..end].to_vec()
        };
        let joined = [
            body(&certificate(8, 10, Some(a), 2)),
            body(&certificate(8, 10, Some(b), 2)),
        ]
        .concat();
        assert_eq!(joined, body(&one));
    }

    /// Cubes of two rows split the whole search: their pairs and nodes add up to the
    /// whole certificate's, each header names its cube turned (rows 0 and 1 of the formula
    /// are bits 7 and 6), and a cube that fixes a diagonal writes it on its `cube` line.
    #[test]
    fn cube_certificates_split_the_whole_and_name_their_cube_turned() {
        let board = Board::square(8).unwrap();
        let demand = Demand::equal(10);
        let settings = Settings::default();
        let whole = certify(&board, demand, (0, 256), &settings, &mut Vec::new()).unwrap();
        let (mut pairs, mut nodes) = (0, 0);
        for value in 0..4u32 {
            let fixed = Fixed {
                rows: (0b11, value),
                ..Fixed::default()
            };
            let mut out = Vec::new();
            let answer = certify_cube(&board, demand, &fixed, &settings, &mut out).unwrap();
            assert_eq!(answer.verdict, Verdict::Unsat);
            let turned = (value & 1) << 7 | (value >> 1) << 6;
            let line = format!("\nrows 0 256\ncube 192 {turned} 0 0\nbegin\n");
            assert!(String::from_utf8_lossy(&out).contains(&line), "{value}");
            (pairs, nodes) = (pairs + answer.stats.pairs, nodes + answer.stats.nodes);
        }
        assert_eq!((pairs, nodes), (whole.stats.pairs, whole.stats.nodes));
        let fixed = Fixed {
            diagonals: vec![(1, 3, true), (0, 2, false)],
            ..Fixed::default()
        };
        let mut out = Vec::new();
        certify_cube(&board, demand, &fixed, &settings, &mut out).unwrap();
        let text = String::from_utf8_lossy(&out);
        assert!(
            text.contains("\ncube 0 0 0 0 0:12:B 1:11:W\nbegin\n"),
            "{text}"
        );
    }

    /// t(7) = 4: the torus's certificate of 7/5 names its board and the group of the
    /// torus (8·φ(7)·7² = 2352), has no `paired` line, and ends when the step is UNSAT; the
    /// same board's 7/4 is SAT.
    #[test]
    fn a_torus_certificate_names_its_board_and_group_without_paired_cells() {
        let torus = Board::torus(7).unwrap();
        let mut out = Vec::new();
        let settings = Settings::default();
        let answer = certify(&torus, Demand::equal(5), (0, 128), &settings, &mut out).unwrap();
        assert_eq!(answer.verdict, Verdict::Unsat);
        let text = String::from_utf8_lossy(&out);
        assert!(text.starts_with(
            "pq-search-certificate 1\nboard torus 7\narmies 5 5\nsymmetry 2352\nweights 1:2 2:1 3:4 4:3\nrows 0 128\nbegin\n"
        ), "{text}");
        let begin = text.find("begin\n").unwrap() + 6;
        let end = out.iter().rposition(|&b| b == 0xFF).unwrap();
        assert!(out[begin..end].iter().all(|&b| (b < 0x80 && (b & 0x3F) < 7)
            || b == 0x80
            || b == 0x81
            || (0xC0..0xD0).contains(&b)));
        let answer = certify(
            &torus,
            Demand::equal(4),
            (0, 128),
            &settings,
            &mut Vec::new(),
        )
        .unwrap();
        assert!(matches!(answer.verdict, Verdict::Sat(_)));
        let uneven = Demand { white: 4, black: 6 };
        let mut out = Vec::new();
        certify(&torus, uneven, (0, 128), &settings, &mut out).unwrap();
        assert!(String::from_utf8_lossy(&out).contains("\narmies 4 6\nsymmetry 1176\n"));
    }

    #[test]
    fn a_sat_step_writes_no_end_and_other_boards_are_refused() {
        let board = Board::square(6).unwrap();
        let mut out = Vec::new();
        let answer = certify(
            &board,
            Demand::equal(5),
            (0, 64),
            &Settings::default(),
            &mut out,
        )
        .unwrap();
        assert!(matches!(answer.verdict, Verdict::Sat(_)));
        assert!(!out.contains(&0xFF));
        let torus = Board::torus(5).unwrap();
        let e = certify_cube(
            &torus,
            Demand::equal(3),
            &Fixed::default(),
            &Settings::default(),
            &mut out,
        );
        assert!(matches!(e, Err(CertifyError::Board(_))));
        let rectangle = Board::new(4, 5).unwrap();
        let e = certify(
            &rectangle,
            Demand::equal(2),
            (0, 16),
            &Settings::default(),
            &mut out,
        );
        assert!(matches!(e, Err(CertifyError::Board(_))));
        let e = certify(
            &board,
            Demand::equal(6),
            (0, 65),
            &Settings::default(),
            &mut out,
        );
        assert!(matches!(e, Err(CertifyError::Range { .. })));
    }
}
