//! Times one step of the crowded-board engine: `crowded_probe N KNIGHTS [JOBS [BUDGET]]`,
//! BUDGET being the first pass's nodes per unit (`Settings::unit_budget`; 0 or absent: none).
use pq_lines::crowded::{Crowded, CrowdedVerdict};
use pq_lines::{Settings, Units};
fn main() {
    let a: Vec<u64> = std::env::args()
        .skip(1)
        .map(|s| s.parse().expect("numbers: N KNIGHTS [JOBS [BUDGET]]"))
        .collect();
    let t = std::time::Instant::now();
    let c = Crowded::new(a[0] as usize, a[1] as usize);
    let built = t.elapsed().as_secs_f64();
    let s = Settings {
        jobs: a.get(2).map_or(1, |&j| j as usize),
        unit_budget: a.get(3).copied().filter(|&b| b > 0),
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
