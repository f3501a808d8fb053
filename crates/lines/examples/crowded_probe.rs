//! Times one step of the crowded-board engine: `crowded_probe N KNIGHTS [JOBS]`.
use pq_lines::crowded::{Crowded, CrowdedVerdict};
use pq_lines::Settings;
fn main() {
    let a: Vec<usize> = std::env::args()
        .skip(1)
        .map(|s| s.parse().unwrap())
        .collect();
    let t = std::time::Instant::now();
    let c = Crowded::new(a[0], a[1]);
    let built = t.elapsed().as_secs_f64();
    let s = Settings {
        jobs: a.get(2).copied().unwrap_or(1),
        ..Settings::default()
    };
    let (v, st) = c.decide(&s);
    let kind = match &v {
        CrowdedVerdict::Sat(w) => format!("SAT {}", w.knights.len()),
        CrowdedVerdict::Unsat => "UNSAT".into(),
        CrowdedVerdict::Unknown(_) => "?".into(),
    };
    println!(
        "n={} k={} {} units={} nodes={} leaves={} build={:.2}s total={:.2}s",
        a[0],
        a[1],
        kind,
        c.units(),
        st.nodes,
        st.pairs,
        built,
        t.elapsed().as_secs_f64()
    );
}
