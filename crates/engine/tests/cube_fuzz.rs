//! Property test of what `cube-status` does with a cube directory (the review "Trust the
//! cubes too"): its manifest and result files are untrusted input, edited by hand or
//! forged. Any manifest field replaced by a hostile value, and any result file, gives a
//! summary or an error, never a panic; and no result that names another formula or cube is
//! ever counted. (`cubes.icnf` is written for other tools and never read by pq-sat.)

use std::path::Path;

use pq_encode::general::encode_problem;
use pq_encode::spec::Problem;
use pq_encode::Options;
use pq_engine::cube::conquer::CubeDir;
use pq_engine::cube::split::{split, Lines, Method, Settings};
use pq_engine::cube::status::summary;
use pq_engine::cube::{read_all_results, write_dir, CUBE_MANIFEST, RESULTS_DIR};
use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::{json, Value};

fn config() -> Config {
    Config {
        cases: 128,
        failure_persistence: None,
        ..Config::default()
    }
}

/// A real cube directory: 4x4, three of each (UNSAT), split on the rows.
fn real_dir(dir: &Path) {
    let problem = Problem::peaceable_queens(4);
    let formula = encode_problem(&problem, 3, &Options::default());
    let lines = Lines::recognise(&formula).unwrap();
    let settings = Settings {
        method: Method::Rows,
        prefix: None,
        depth: Some(0),
        free: None,
    };
    let s = split(&formula, Some(&lines), &settings, &|_| false).unwrap();
    let record = serde_json::to_value(&s.record).unwrap();
    let keep = pq_io::output::WritePolicy::Keep;
    write_dir(dir, &formula, s.cubes, "fuzz", "fuzz", record, keep).unwrap();
}

/// A JSON value that breaks things: wrong types, huge and negative numbers, NaN-like text.
fn hostile() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        Just(json!(-1)),
        Just(json!(0)),
        Just(json!(u64::MAX)),
        Just(json!(1e308)),
        Just(json!(-0.5)),
        Just(json!("")),
        Just(json!("x\ny")),
        Just(json!("../../etc/passwd")),
        Just(json!([])),
        Just(json!([0])),
        Just(json!([i32::MIN])),
        Just(json!({})),
        (-40i64..40).prop_map(|n| json!(n)),
        prop::collection::vec(-30i32..30, 0..6).prop_map(|v| json!(v)),
    ]
}

const MANIFEST_FIELDS: [&str; 12] = [
    "format",
    "generator",
    "command",
    "formula",
    "icnf",
    "sha256",
    "gbd",
    "variables",
    "clauses",
    "problem",
    "split",
    "cubes",
];

const RESULT_FIELDS: [&str; 10] = [
    "id",
    "status",
    "seconds",
    "solver",
    "verified",
    "proof",
    "model",
    "worker",
    "formula_sha256",
    "cube_sha256",
];

/// Opens and summarises the directory as `cube-status` does; true when it gave a verdict.
fn status(dir: &Path) -> bool {
    match CubeDir::open(dir) {
        Ok(d) => summary(&d).is_ok(),
        Err(_) => false,
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn hostile_manifests_give_a_summary_or_an_error(
        edits in prop::collection::vec((0..MANIFEST_FIELDS.len(), hostile()), 1..4),
        split_edit in prop::option::of((prop::sample::select(vec!["method", "prefix", "depth", "free"]), hostile())),
    ) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("d");
        real_dir(&dir);
        let path = dir.join(CUBE_MANIFEST);
        let mut m: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for (field, value) in edits {
            m[MANIFEST_FIELDS[field]] = value;
        }
        if let (Some((key, value)), Some(split)) = (split_edit, m["split"].as_object_mut()) {
            split.insert(key.to_string(), value);
        }
        std::fs::write(&path, serde_json::to_string(&m).unwrap()).unwrap();
        let _ = status(&dir);
    }

    #[test]
    fn hostile_results_are_refused_or_never_counted(
        id in 1usize..4,
        edits in prop::collection::vec((0..RESULT_FIELDS.len(), hostile()), 0..4),
        unsat in any::<bool>(),
    ) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("d");
        real_dir(&dir);
        let d = CubeDir::open(&dir).unwrap();
        let cube = d.manifest.cube(id).unwrap();
        let mut r = json!({
            "id": id,
            "status": if unsat { "unsat" } else { "sat" },
            "seconds": 0.1,
            "solver": "fuzz",
            "worker": "fuzz:1",
            "formula_sha256": d.manifest.sha256,
            "cube_sha256": pq_engine::cube::origin::cube_sha256(cube),
        });
        let mut names_another = false;
        for (field, value) in edits {
            names_another |= RESULT_FIELDS[field].ends_with("sha256");
            r[RESULT_FIELDS[field]] = value;
        }
        let results = dir.join(RESULTS_DIR);
        std::fs::create_dir_all(&results).unwrap();
        std::fs::write(results.join(format!("{id}.json")), serde_json::to_string(&r).unwrap()).unwrap();
        let _ = status(&dir);
        if names_another {
            if let Ok((by_id, _)) = read_all_results(&dir, &d.manifest) {
                prop_assert!(by_id.iter().all(Option::is_none), "a result for another formula or cube was counted");
            }
        }
    }
}
