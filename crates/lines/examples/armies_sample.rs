//! `cargo run -p pq-lines --release --example armies_sample -- D M [SAMPLE] [SEED]`: the
//! three-army step D/M (three armies of at least M on D × D) on an evenly spaced sample of
//! its units (row colourings), one thread, with the nodes and time summed and scaled to the
//! whole step: the node count is what compares two versions of the search exactly, on a
//! machine whose timings are noisy (BENCHMARKS.md, "Three armies on the line engine").

use std::time::Instant;

use pq_lines::armies::Armies;
use pq_lines::{Board, Settings, Verdict};

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| {
            a.parse()
                .expect("usage: armies_sample D M [SAMPLE] [OFFSET]")
        })
        .collect();
    let (d, m) = (args[0], args[1]);
    let sample = args.get(2).copied().unwrap_or(200);
    let offset = args.get(3).copied().unwrap_or(0);
    let board = Board::square(d).expect("a board");
    let armies = Armies::new(&board, 3, m);
    let units = pq_lines::Units::units(&armies);
    let settings = Settings::default();
    let (mut nodes, mut pairs, mut sat) = (0u64, 0u64, 0);
    let start = Instant::now();
    let picked: Vec<usize> = (0..sample.min(units))
        .map(|i| (i * units / sample.min(units) + offset) % units)
        .collect();
    for &i in &picked {
        let (verdict, stats) = armies.decide_unit(i, &settings);
        nodes += stats.nodes;
        pairs += stats.pairs;
        sat += usize::from(matches!(verdict, Verdict::Sat(_)));
    }
    let secs = start.elapsed().as_secs_f64();
    let scale = units as f64 / picked.len() as f64;
    println!(
        "armies d={d} m={m} units={units} sampled={} sat={sat} nodes={nodes} pairs={pairs} \
         time={secs:.3}s; whole step: {:.3e} nodes, {:.0} CPU-s",
        picked.len(),
        nodes as f64 * scale,
        secs * scale
    );
}
