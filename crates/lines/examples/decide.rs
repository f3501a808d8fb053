//! `cargo run -p pq-lines --release --example decide -- D M [JOBS] [rows|torus]`: one step
//! of the line engine with its node count, for benchmarks against other searches
//! (BENCHMARKS.md). With `rows`, the step as the colouring formula's row cubes, one
//! [`search_fixed`] per row colouring (what `conquer --backend lines` runs per cube),
//! nodes summed. With `torus`, the step on the D × D torus (OEIS A279405).

use std::time::Instant;

use pq_lines::{decide, search_fixed, Board, Demand, Fixed, Settings, Verdict};

fn main() {
    let rows = std::env::args().any(|a| a == "rows");
    let torus = std::env::args().any(|a| a == "torus");
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter(|a| a != "rows" && a != "torus")
        .map(|a| a.parse().expect("usage: decide D M [JOBS] [rows|torus]"))
        .collect();
    let (d, m) = (args[0], args[1]);
    let jobs = args.get(2).copied().unwrap_or(1);
    let board = if torus {
        Board::torus(d)
    } else {
        Board::square(d)
    }
    .expect("a board");
    let start = Instant::now();
    let settings = Settings {
        jobs,
        ..Settings::default()
    };
    if rows {
        let all = board.row_mask();
        let (mut nodes, mut sat) = (0, 0);
        for s in 0..=all {
            let cube = Fixed {
                rows: (all, s),
                ..Fixed::default()
            };
            let answer = search_fixed(&board, Demand::equal(m), &cube, &settings);
            nodes += answer.stats.nodes;
            sat += usize::from(matches!(answer.verdict, Verdict::Sat(_)));
        }
        let secs = start.elapsed().as_secs_f64();
        println!("row cubes d={d} m={m} sat={sat} nodes={nodes} time={secs:.3}s jobs={jobs}");
        return;
    }
    let answer = decide(&board, Demand::equal(m), &settings);
    let secs = start.elapsed().as_secs_f64();
    let status = match &answer.verdict {
        Verdict::Sat(_) => "SAT",
        Verdict::Unsat => "UNSAT",
        Verdict::Unknown(_) => "UNKNOWN",
    };
    println!(
        "{status} d={d} m={m} nodes={} pairs={} time={secs:.3}s jobs={jobs}",
        answer.stats.nodes, answer.stats.pairs
    );
    if let Verdict::Sat(w) = &answer.verdict {
        for r in 0..d {
            let line: String = (0..d)
                .map(|c| {
                    if w.white.contains(&(r, c)) {
                        'W'
                    } else if w.black.contains(&(r, c)) {
                        'B'
                    } else {
                        '.'
                    }
                })
                .collect();
            println!("{line}");
        }
    }
}
