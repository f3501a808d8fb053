//! Dudeney's crowded chessboard on the native engine ([`pq_lines::crowded`]): which problems
//! are that puzzle, and its witness as the problem's groups.

use pq_board::placement::Kind;
use pq_encode::spec::{Count, Problem};
use pq_lines::crowded::{CrowdedWitness, MAX_CROWDED_SIDE};

/// A problem that is Dudeney's puzzle on `n × n`: `n` queens, `n` rooks, `2n − 2` bishops
/// and the knights maximised, no two pieces of one kind attacking each other and nothing
/// else forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Crowding {
    /// The board's side.
    pub n: usize,
    /// The group of the queens, rooks, bishops and knights, in that order.
    group: [usize; 4],
}

const KINDS: [Kind; 4] = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight];

/// `problem` as Dudeney's puzzle, or `None` when it is not exactly that.
pub(crate) fn crowding(problem: &Problem) -> Option<Crowding> {
    let rules = &problem.rules;
    let l = &rules.layout;
    let n = l.rows;
    if l.torus || l.cols != n || !(1..=MAX_CROWDED_SIDE).contains(&n) || rules.groups.len() != 4 {
        return None;
    }
    let find = |kind| rules.groups.iter().position(|g| g.kind == kind);
    let group = [
        find(KINDS[0])?,
        find(KINDS[1])?,
        find(KINDS[2])?,
        find(KINDS[3])?,
    ];
    let wanted = [
        Count::Exactly(n),
        Count::Exactly(n),
        Count::Exactly(2 * n - 2),
        Count::Maximise,
    ];
    let mut pairs: Vec<(usize, usize)> = rules.no_attack.clone();
    pairs.sort_unstable();
    pairs.dedup();
    let mut own: Vec<(usize, usize)> = group.iter().map(|&g| (g, g)).collect();
    own.sort_unstable();
    let counts_right = (0..4).all(|k| problem.counts[group[k]] == wanted[k]);
    (counts_right && pairs == own).then_some(Crowding { n, group })
}

impl Crowding {
    /// The witness's squares per group of the problem.
    pub(crate) fn cells(&self, w: CrowdedWitness) -> Vec<Vec<(usize, usize)>> {
        let mut cells = vec![Vec::new(); 4];
        for (k, squares) in [w.queens, w.rooks, w.bishops, w.knights]
            .into_iter()
            .enumerate()
        {
            cells[self.group[k]] = squares;
        }
        cells
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dudeney(set: &[(&str, &str)]) -> Problem {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../encodings/crowded-chessboard.toml"
        ))
        .unwrap();
        let mut p = Problem::from_toml(&text).unwrap();
        for (k, v) in set {
            p.set(k, v).unwrap();
        }
        p
    }

    #[test]
    fn the_puzzle_is_recognised_and_its_variants_are_not() {
        assert_eq!(crowding(&dudeney(&[])).map(|c| c.n), Some(8));
        let nine = [
            ("board", "9x9"),
            ("queens", "9"),
            ("rooks", "9"),
            ("bishops", "16"),
        ];
        assert_eq!(crowding(&dudeney(&nine)).map(|c| c.n), Some(9));
        for other in [
            &[("bishops", "13")][..],
            &[("queens", "7")],
            &[("board", "9x9")],
            &[("board", "8x9")],
            &[("knights", "20")],
        ] {
            assert_eq!(crowding(&dudeney(other)), None, "{other:?}");
        }
    }
}
