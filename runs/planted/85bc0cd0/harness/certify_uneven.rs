//! Harness for the planted-bug study (not part of the project): `certify_uneven [--torus] D W B
//! LO HI [JOBS]`, the certificate of W white and B black queens (armies of different sizes),
//! on standard output; exit 20 UNSAT, 10 SAT, 1 error. The project's own `certify` example
//! only certifies equal armies, which never exercises the group without the colour swap.
use std::io::Write;

use pq_lines::certificate::certify;
use pq_lines::{Board, Demand, Settings, Verdict};

fn main() {
    let mut words: Vec<String> = std::env::args().skip(1).collect();
    let torus = words.first().is_some_and(|w| w == "--torus");
    if torus {
        words.remove(0);
    }
    let a: Vec<u64> = words.iter().map(|w| w.parse().expect("numbers")).collect();
    let (d, w, b, lo, hi) = (a[0] as usize, a[1] as usize, a[2] as usize, a[3], a[4]);
    let jobs = a.get(5).copied().unwrap_or(1) as usize;
    let board = if torus { Board::torus(d) } else { Board::square(d) }.expect("a board");
    let settings = Settings { jobs, ..Settings::default() };
    let mut out = std::io::BufWriter::with_capacity(1 << 20, std::io::stdout());
    let answer = match certify(&board, Demand { white: w, black: b }, (lo, hi), &settings, &mut out) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("certify_uneven: {e}");
            std::process::exit(1);
        }
    };
    out.flush().expect("stdout");
    eprintln!(
        "{} d={d} w={w} b={b} nodes={} pairs={}",
        match answer.verdict { Verdict::Sat(_) => "SAT", Verdict::Unsat => "UNSAT", Verdict::Unknown(_) => "UNKNOWN" },
        answer.stats.nodes, answer.stats.pairs
    );
    std::process::exit(match answer.verdict { Verdict::Unsat => 20, Verdict::Sat(_) => 10, Verdict::Unknown(_) => 0 });
}
