//! The brute-force oracle shared by `oracle.rs` (plain rectangular boards) and `torus.rs`
//! (the d×d torus), parametrised by the board's dimensions and its attack predicate.
//!
//! Like the two files that use it, this module was written from the problem statement
//! alone and uses only the public API of `pq-lines`, so that the oracle cannot share a
//! mistake with the engine it checks. The method (covers, free counts and the frontier
//! `f[w] = max { free(W) : |W| = w }`) is described in the module documentation of
//! `oracle.rs`; what differs between the boards is only which pairs of squares share a line,
//! given here as a predicate `attacks(a, b)` on cells `(row, col)`.

use pq_lines::{decide, Board, Demand, Settings, Verdict};

/// A cell of the board as `(row, col)`.
pub(crate) type Cell = (usize, usize);

/// For every square `s = r·cols + c` of a `rows × cols` board, the mask of squares that share
/// a line with `s` under `attacks` (including `s` itself, as `attacks(s, s)` holds for a
/// queen's own square).
pub(crate) fn line_masks(
    rows: usize,
    cols: usize,
    attacks: impl Fn(Cell, Cell) -> bool,
) -> Vec<u64> {
    let n = rows * cols;
    assert!(n <= 64, "the oracle works on boards of at most 64 squares");
    (0..n)
        .map(|s| {
            (0..n)
                .filter(|&t| attacks((s / cols, s % cols), (t / cols, t % cols)))
                .fold(0u64, |mask, t| mask | 1u64 << t)
        })
        .collect()
}

/// The depth-first enumeration behind [`frontier`]: `cover` is the cover of the white set
/// chosen so far (`count` squares, all of index `< next`); records its free count in
/// `best[count]`, then extends the set by each square of index `≥ next` in turn.
pub(crate) fn explore(lines: &[u64], next: usize, count: usize, cover: u64, best: &mut [usize]) {
    let free = lines.len() - cover.count_ones() as usize;
    if free > best[count] {
        best[count] = free;
    }
    if free == 0 {
        // Covers only grow when white queens are added, so every superset of this white set
        // also has free count 0, which `best` already holds (it starts at 0 everywhere).
        return;
    }
    for (s, &mask) in lines.iter().enumerate().skip(next) {
        explore(lines, s + 1, count + 1, cover | mask, best);
    }
}

/// The exact frontier of the board whose line masks are `lines` (one per square, as from
/// [`line_masks`]): entry `w` (for `w = 0..=n`, `n` the number of squares) is the largest
/// number of black queens that can accompany `w` white queens.
///
/// Exhaustiveness. Every white set `W = {s1 < s2 < … < sw}` corresponds to exactly one path of
/// the recursion, the one that picks `s1`, then `s2`, …; the node reached after picking
/// `s1..sk` holds `cover({s1..sk})`, computed as the OR of the line masks. The only cut is at a
/// node whose free count is 0: then for the set `W` through that node, `cover(W)` contains the
/// node's cover (covers are monotone under inclusion), so `free(W) = 0`, and `best[|W|] ≥ 0`
/// holds from the start (`w ≤ n` white queens always fit alone, with 0 black ones). Every
/// white set not cut is visited and its free count recorded at `best[|W|]`, so each entry is
/// the maximum over all white sets of its size.
///
/// Cost. The nodes expanded are the white sets with a nonzero free count, i.e. those that
/// avoid every line through some square `t`: at most `Σ_t 2^(n − |lines(t)|)` of them. On a
/// plain 6×6 board `|lines(t)| ≥ 16`, so a few million nodes (each trying at most 36
/// children); on the 6×6 torus `|lines(t)| = 20` (row and column 11, diagonal 5 more,
/// anti-diagonal 4 more as it also meets the diagonal at `(r + 3, c + 3)`), so at most about
/// 2.4 million nodes; far fewer on smaller boards.
pub(crate) fn frontier(lines: &[u64]) -> Vec<usize> {
    let mut best = vec![0; lines.len() + 1];
    explore(lines, 0, 0, 0, &mut best);
    best
}

/// The same frontier as [`frontier`], by the most literal method: every subset of the squares
/// of the `rows × cols` board as the white set, and for each square outside it a pairwise
/// check with `attacks` against every white queen, with no masks of lines. Exponential with
/// no cut, so only for boards of at most 16 squares.
pub(crate) fn frontier_naive(
    rows: usize,
    cols: usize,
    attacks: impl Fn(Cell, Cell) -> bool,
) -> Vec<usize> {
    let n = rows * cols;
    assert!(
        n <= 16,
        "the naive oracle is for boards of at most 16 squares"
    );
    let cell = |s: usize| (s / cols, s % cols);
    let mut best = vec![0; n + 1];
    for set in 0u32..1 << n {
        let whites: Vec<usize> = (0..n).filter(|&s| set >> s & 1 == 1).collect();
        let free = (0..n)
            .filter(|&t| set >> t & 1 == 0)
            .filter(|&t| whites.iter().all(|&s| !attacks(cell(s), cell(t))))
            .count();
        let w = whites.len();
        best[w] = best[w].max(free);
    }
    best
}

/// Checks a witness on the `rows × cols` board named `name` (as in `3x4` or `torus 5`, for
/// the messages) independently: every cell inside the board, no cell twice, the two colours
/// disjoint, at least the demanded number of each colour, and no white queen attacking a
/// black one under `attacks`. Panics with the case in the message otherwise.
pub(crate) fn check_witness(
    name: &str,
    (rows, cols): (usize, usize),
    demand: (usize, usize),
    (white, black): (&[Cell], &[Cell]),
    attacks: impl Fn(Cell, Cell) -> bool,
) {
    let case = format!("{name}, {} white, {} black", demand.0, demand.1);
    let mut seen = vec![false; rows * cols];
    for &(r, c) in white.iter().chain(black) {
        assert!(
            r < rows && c < cols,
            "{case}: cell ({r}, {c}) is off the board"
        );
        let s = r * cols + c;
        assert!(
            !seen[s],
            "{case}: cell ({r}, {c}) appears twice in the witness"
        );
        seen[s] = true;
    }
    assert!(
        white.len() >= demand.0,
        "{case}: only {} white queens",
        white.len()
    );
    assert!(
        black.len() >= demand.1,
        "{case}: only {} black queens",
        black.len()
    );
    for &w in white {
        for &b in black {
            assert!(!attacks(w, b), "{case}: white {w:?} attacks black {b:?}");
        }
    }
}

/// Asks the engine whether the armies of `demand` fit peaceably on `board` (of `rows × cols`
/// squares, named `name` in the messages) with `jobs` worker threads; checks the witness of
/// a `Sat` answer with [`check_witness`] under `attacks` and panics on `Unknown` (no deadline
/// or stop request is ever set here).
pub(crate) fn engine(
    board: &Board,
    name: &str,
    size: (usize, usize),
    demand: Demand,
    jobs: usize,
    attacks: impl Fn(Cell, Cell) -> bool,
) -> bool {
    let (white, black) = (demand.white, demand.black);
    let settings = Settings {
        jobs,
        ..Settings::default()
    };
    let answer = decide(board, demand, &settings);
    match answer.verdict {
        Verdict::Sat(witness) => {
            check_witness(
                name,
                size,
                (white, black),
                (&witness.white, &witness.black),
                attacks,
            );
            true
        }
        Verdict::Unsat => false,
        Verdict::Unknown(_) => {
            panic!("{name}, {white} white, {black} black: Unknown without a deadline")
        }
    }
}

/// Compares `engine` (the engine's verdict for a demand, `true` for `Sat`) with the oracle's
/// frontier `f` of the board named `name` for every demand in `demands`, collecting all
/// disagreements before failing.
pub(crate) fn compare(
    name: &str,
    f: &[usize],
    demands: impl IntoIterator<Item = (usize, usize)>,
    engine: impl Fn(Demand) -> bool,
) {
    let mut wrong = Vec::new();
    for (w, b) in demands {
        let expected = f[w] >= b;
        let demand = if w == b {
            Demand::equal(w)
        } else {
            Demand { white: w, black: b }
        };
        let got = engine(demand);
        if got != expected {
            wrong.push(format!(
                "{name} ({w} white, {b} black): engine says {}, oracle says {} (frontier[{w}] = {})",
                if got { "Sat" } else { "Unsat" },
                if expected { "Sat" } else { "Unsat" },
                f[w],
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "engine disagrees with the oracle:\n{}",
        wrong.join("\n")
    );
}
