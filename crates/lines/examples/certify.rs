//! `cargo run -p pq-lines --release --example certify -- [--torus] D M LO HI [JOBS]`: the
//! search certificate (docs/search-certificate.md) of the pairs whose white rows lie in
//! `LO..HI`, `M` white and `M` black queens on the `D × D` board (the torus with `--torus`),
//! on standard output, for a long run split into parts that each stream into `pq-check -`
//! (`runs/certify.sh D N --parts K`); `pq-check` given every part's record says whether they
//! cover the claim. A summary line goes to standard error; the exit code is 20 when the
//! part has no solution (its certificate complete), 10 when it has one, 1 on an error.

use std::io::Write;
use std::time::Instant;

use pq_lines::certificate::certify;
use pq_lines::{Board, Demand, Settings, Verdict};

fn main() {
    let usage = "usage: certify [--torus] D M LO HI [JOBS]";
    let mut words: Vec<String> = std::env::args().skip(1).collect();
    let torus = words.first().is_some_and(|w| w == "--torus");
    if torus {
        words.remove(0);
    }
    let args: Vec<u64> = words.iter().map(|a| a.parse().expect(usage)).collect();
    let [d, m, lo, hi] = args.get(..4).and_then(|a| a.try_into().ok()).expect(usage);
    let jobs = args.get(4).copied().unwrap_or(1) as usize;
    let board = if torus {
        Board::torus(d as usize)
    } else {
        Board::square(d as usize)
    }
    .expect("a board");
    let settings = Settings {
        jobs,
        ..Settings::default()
    };
    let start = Instant::now();
    // Not the lock: the writer is shared with the worker threads, so it must be `Send`.
    let mut out = std::io::BufWriter::with_capacity(1 << 20, std::io::stdout());
    let answer = match certify(
        &board,
        Demand::equal(m as usize),
        (lo, hi),
        &settings,
        &mut out,
    ) {
        Ok(answer) => answer,
        Err(e) => {
            eprintln!("certify: {e}");
            std::process::exit(1);
        }
    };
    out.flush().expect("standard output");
    let status = match &answer.verdict {
        Verdict::Sat(_) => "SAT",
        Verdict::Unsat => "UNSAT",
        Verdict::Unknown(_) => "UNKNOWN",
    };
    eprintln!(
        "{status} {}d={d} m={m} rows={lo}..{hi} nodes={} pairs={} time={:.3}s jobs={jobs}",
        if torus { "torus " } else { "" },
        answer.stats.nodes,
        answer.stats.pairs,
        start.elapsed().as_secs_f64()
    );
    std::process::exit(match answer.verdict {
        Verdict::Unsat => 20,
        Verdict::Sat(_) => 10,
        Verdict::Unknown(_) => 0,
    });
}
