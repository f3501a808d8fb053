//! `cargo run -p pq-lines --release --example decide -- D M [JOBS]`: one step of the line
//! engine with its node count, for benchmarks against other searches (BENCHMARKS.md).

use std::time::Instant;

use pq_lines::{decide, Board, Demand, Settings, Verdict};

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("usage: decide D M [JOBS]"))
        .collect();
    let (d, m) = (args[0], args[1]);
    let jobs = args.get(2).copied().unwrap_or(1);
    let board = Board::square(d).expect("a board");
    let start = Instant::now();
    let answer = decide(
        &board,
        Demand::equal(m),
        &Settings {
            jobs,
            ..Settings::default()
        },
    );
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
