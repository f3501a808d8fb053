//! `cargo run -p pq-lines --release --example certify -- [--torus | --armies K] D M LO HI
//! [JOBS]`: the search certificate (docs/search-certificate.md) of the pairs whose white rows
//! lie in `LO..HI`, `M` white and `M` black queens on the `D × D` board (the torus with
//! `--torus`; with `--armies K`, `K` armies of `M` and the row colourings whose codes lie in
//! `LO..HI`, §A5), on standard output, for a long run split into parts that each stream into `pq-check -`
//! (`runs/certify.sh D N --parts K`); `pq-check` given every part's record says whether they
//! cover the claim. A summary line goes to standard error; the exit code is 20 when the
//! part has no solution (its certificate complete), 10 when it has one, 1 on an error.

use std::io::Write;
use std::time::Instant;

use pq_lines::certificate::certify;
use pq_lines::{Board, Demand, Settings, Verdict};

fn main() {
    let usage = "usage: certify [--torus | --armies K] D M LO HI [JOBS]";
    let mut words: Vec<String> = std::env::args().skip(1).collect();
    let torus = words.first().is_some_and(|w| w == "--torus");
    if torus {
        words.remove(0);
    }
    let mut armies = None;
    if words.first().is_some_and(|w| w == "--armies") {
        armies = Some(
            words
                .get(1)
                .and_then(|k| k.parse::<usize>().ok())
                .expect(usage),
        );
        words.drain(..2);
    }
    let args: Vec<u64> = words.iter().map(|a| a.parse().expect(usage)).collect();
    let [d, m, lo, hi] = args.get(..4).and_then(|a| a.try_into().ok()).expect(usage);
    let jobs = args.get(4).copied().unwrap_or(1) as usize;
    if let Some(k) = armies {
        std::process::exit(certify_armies(k, d as usize, m as usize, (lo, hi), jobs));
    }
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

/// `k` armies of `m` on the `d × d` board, the row colourings with codes in `lo..hi`: the
/// exit code as for two armies.
fn certify_armies(k: usize, d: usize, m: usize, (lo, hi): (u64, u64), jobs: usize) -> i32 {
    use pq_lines::armies::{Armies, MAX_ARMIES, MAX_ARMY_SIDE};
    if !(3..=MAX_ARMIES).contains(&k) || !(1..=MAX_ARMY_SIDE).contains(&d) {
        eprintln!("certify: 3 to {MAX_ARMIES} armies on sides 1 to {MAX_ARMY_SIDE}");
        return 1;
    }
    let board = Board::square(d).expect("a board");
    let settings = Settings {
        jobs,
        ..Settings::default()
    };
    let start = Instant::now();
    let armies = Armies::new(&board, k, m);
    let mut out = std::io::BufWriter::with_capacity(1 << 20, std::io::stdout());
    let (verdict, stats) = match armies.certify((lo, hi), &settings, &mut out) {
        Ok(answer) => answer,
        Err(e) => {
            eprintln!("certify: {e}");
            return 1;
        }
    };
    out.flush().expect("standard output");
    let status = match &verdict {
        Verdict::Sat(_) => "SAT",
        Verdict::Unsat => "UNSAT",
        Verdict::Unknown(_) => "UNKNOWN",
    };
    eprintln!(
        "{status} armies={k} d={d} m={m} rows={lo}..{hi} units={} nodes={} pairs={} time={:.3}s jobs={jobs}",
        stats.row_sets,
        stats.nodes,
        stats.pairs,
        start.elapsed().as_secs_f64()
    );
    match verdict {
        Verdict::Unsat => 20,
        Verdict::Sat(_) => 10,
        Verdict::Unknown(_) => 0,
    }
}
