//! `cargo run -p pq-lines --release --example proof_nodes -- D M STRIDE [OFFSET]`: the proof
//! tree (`pq_lines::proof::prove`) of the step D/M as row cubes, every STRIDE-th row
//! colouring from OFFSET on, with its lemmas counted instead of written: the proof's size,
//! for comparing search orders without a checker.

use std::time::Instant;

use pq_lines::proof::{prove, Step};
use pq_lines::{Board, Fixed, Settings, Verdict};

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("usage: proof_nodes D M STRIDE [OFFSET]"))
        .collect();
    let (d, m, stride) = (args[0], args[1], args[2]);
    let offset = args.get(3).copied().unwrap_or(0);
    let board = Board::square(d).expect("a board");
    let all = board.row_mask();
    let start = Instant::now();
    let (mut nodes, mut lemmas, mut literals, mut cubes) = (0u64, 0u64, 0u64, 0u64);
    let mut s = offset as u32;
    while s <= all {
        let cube = Fixed {
            rows: (all, s),
            ..Fixed::default()
        };
        let mut sink = |step: Step, path: &[(usize, bool)]| {
            if step == Step::Add {
                literals += path.len() as u64;
            }
        };
        let proved = prove(&board, m, &cube, &mut sink, &Settings::default());
        assert!(
            matches!(proved.verdict, Verdict::Unsat),
            "row cube {s} is not UNSAT"
        );
        nodes += proved.nodes;
        lemmas += proved.lemmas;
        cubes += 1;
        s += stride as u32;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "d={d} m={m} cubes={cubes} nodes={nodes} lemmas={lemmas} literals={literals} time={secs:.2}s"
    );
}
