//! Conquering cube directories: `solve-cube`, `conquer`, `cube-status`, GNU parallel and
//! Slurm, and the checked bundle (cube proofs and the completeness proof).
//!
//! The splitter (`pq-sat cube`) is not needed here: [`cube_dir`] writes a cube directory
//! by hand, with the formula from `pq-sat encode` and the simplest complete cube set there
//! is, every sign pattern of the first `k` variables (the first `k` white-queen squares),
//! so that exactly one cube holds each assignment of those variables.

use serde_json::{json, Value};
use std::path::Path;

use crate::util::{code, json, run, s, stderr, stdout};

/// Every sign pattern over variables 1..=k, as cubes with ids 1..=2^k.
fn all_patterns(k: u32) -> Vec<Vec<i32>> {
    (0..1u32 << k)
        .map(|bits| {
            (1..=k as i32)
                .map(|v| if bits >> (v - 1) & 1 == 1 { v } else { -v })
                .collect()
        })
        .collect()
}

/// Writes a cube directory at `dir` for the queens on `d`×`d` with `n` of each colour, its
/// formula from `pq-sat encode` and `cubes` as its cubes; returns the number of cubes.
fn cube_dir_with(dir: &Path, d: usize, n: usize, cubes: &[Vec<i32>]) -> usize {
    std::fs::create_dir_all(dir).unwrap();
    let formula = dir.join("formula.cnf");
    crate::util::encode_to(&d.to_string(), &n.to_string(), &formula);
    write_manifest(dir, &format!("the queens, {n} of each on {d}x{d}"), cubes);
    cubes.len()
}

/// Writes `dir/manifest.json` for the `formula.cnf` already there.
fn write_manifest(dir: &Path, problem: &str, cubes: &[Vec<i32>]) {
    let formula = dir.join("formula.cnf");
    let hashed = json(&run(&["hash", "--format", "json", s(&formula)]));
    let text = std::fs::read_to_string(&formula).unwrap();
    let header = text.lines().find(|l| l.starts_with("p cnf")).unwrap();
    let sizes: Vec<u64> = header[6..]
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    let cubes: Vec<Value> = (cubes.iter().enumerate())
        .map(|(i, lits)| json!({"id": i + 1, "lits": lits}))
        .collect();
    let manifest = json!({
        "format": "pq-sat cubes 2",
        "generator": "tests/cli/conquer.rs",
        "command": "by hand",
        "formula": "formula.cnf",
        "icnf": "cubes.icnf",
        "sha256": hashed[0]["sha256"],
        "gbd": hashed[0]["gbd"],
        "variables": sizes[0],
        "clauses": sizes[1],
        "problem": problem,
        "split": {"how": "every sign pattern of the first variables"},
        "cubes": cubes,
    });
    std::fs::write(
        dir.join("manifest.json"),
        serde_json::to_string_pretty(&manifest).unwrap(),
    )
    .unwrap();
}

/// A cube directory of every sign pattern over the first `k` variables, with the proof
/// that they are complete (a cube list made by hand is not one the splitter re-derives, so
/// an UNSAT verdict needs that proof: `solve-cube --completeness --proof`).
fn cube_dir(dir: &Path, d: usize, n: usize, k: u32) -> usize {
    let count = cube_dir_with(dir, d, n, &all_patterns(k));
    prove_complete(dir);
    count
}

/// `solve-cube DIR --completeness --proof` with kissat, which must succeed; its output.
fn prove_complete(dir: &Path) -> std::process::Output {
    let out = run(&[
        "solve-cube",
        s(dir),
        "--completeness",
        "--backend",
        "kissat",
        "--proof",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    out
}

fn result_json(dir: &Path, id: usize) -> Value {
    let path = dir.join("results").join(format!("{id}.json"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn result_count(dir: &Path) -> usize {
    match std::fs::read_dir(dir.join("results")) {
        Ok(entries) => entries
            .filter(|e| {
                let name = e.as_ref().unwrap().file_name();
                let name = name.to_string_lossy();
                name.ends_with(".json") && !name.starts_with('.')
            })
            .count(),
        Err(_) => 0,
    }
}

#[test]
fn solve_cube_records_unsat_cubes_and_a_validated_sat_cube() {
    let tmp = tempfile::tempdir().unwrap();
    // a(5) = 4: five of each do not fit, so every cube is UNSAT.
    let unsat = tmp.path().join("unsat");
    let count = cube_dir(&unsat, 5, 5, 2);
    for id in 1..=count {
        let out = run(&["solve-cube", s(&unsat), &id.to_string(), "--format", "json"]);
        assert_eq!(code(&out), 20, "{}", stderr(&out));
        let report = json(&out);
        assert_eq!(report["status"], "unsat");
        assert_eq!(report["recorded"], true);
        let r = result_json(&unsat, id);
        assert_eq!(
            (r["id"].as_u64(), r["status"].as_str()),
            (Some(id as u64), Some("unsat"))
        );
        assert_eq!(r["verified"], false);
        assert!(r["worker"].as_str().unwrap().contains(':'));
    }
    // Four of each fit: some cube has a model, decoded and validated into a board.
    let sat = tmp.path().join("sat");
    let count = cube_dir(&sat, 5, 4, 2);
    let mut boards = 0;
    for id in 1..=count {
        let out = run(&["solve-cube", s(&sat), &id.to_string()]);
        match code(&out) {
            10 => {
                boards += 1;
                let text = stdout(&out);
                assert!(text.starts_with(&format!("cube {id}: SAT")), "{text}");
                assert_eq!(text.matches('W').count(), 4, "{text}");
                let r = result_json(&sat, id);
                let model: Vec<i64> = serde_json::from_value(r["model"].clone()).unwrap();
                // Only the piece variables are kept: the 4 + 4 queens of the trimmed
                // board or more (the solver may place extra ones).
                assert!(model.len() >= 8 && model.iter().all(|&v| (1..=50).contains(&v)));
                // The cube's own piece literals hold in the model.
                let cube = &all_patterns(2)[id - 1];
                for &l in cube {
                    assert_eq!(model.contains(&i64::from(l.abs())), l > 0, "cube {cube:?}");
                }
            }
            20 => {}
            other => panic!("exit {other}: {}", stderr(&out)),
        }
    }
    assert!(boards >= 1, "no cube of a satisfiable formula was SAT");
}

#[test]
fn solve_cube_runs_external_solvers_and_checks_their_unsat() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cubes");
    cube_dir(&dir, 5, 5, 1);
    let out = run(&[
        "solve-cube",
        s(&dir),
        "1",
        "--backend",
        "kissat",
        "--check-unsat",
    ]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    assert!(stdout(&out).contains("proof checked"), "{}", stdout(&out));
    let r = result_json(&dir, 1);
    assert_eq!(
        (r["solver"].as_str(), r["verified"].as_bool()),
        (Some("kissat"), Some(true))
    );
    // Any competition-style command, the cube as unit clauses of the CNF it is given.
    let out = run(&[
        "solve-cube",
        s(&dir),
        "2",
        "--solver-cmd",
        "cadical -q",
        "--exit-zero",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(result_json(&dir, 2)["status"], "unsat");
    // --resume: a decided cube is not solved again.
    let before = std::fs::read_to_string(dir.join("results/2.json")).unwrap();
    let out = run(&["solve-cube", s(&dir), "2", "--resume"]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    assert!(stdout(&out).contains("already decided"), "{}", stdout(&out));
    assert_eq!(
        before,
        std::fs::read_to_string(dir.join("results/2.json")).unwrap()
    );
}

#[test]
fn a_formula_without_pq_sat_header_gets_the_clause_check_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("plain");
    std::fs::create_dir(&dir).unwrap();
    // (x1 or x2) and (not x1 or x2): x2 must be true.
    std::fs::write(dir.join("formula.cnf"), "p cnf 2 2\n1 2 0\n-1 2 0\n").unwrap();
    write_manifest(&dir, "a small formula", &all_patterns(2));
    let outcomes: Vec<i32> = (1..=4)
        .map(|id| code(&run(&["solve-cube", s(&dir), &id.to_string()])))
        .collect();
    // Cubes 3 and 4 set x2; 1 and 2 do not.
    assert_eq!(outcomes, [20, 20, 10, 10]);
    let model = &result_json(&dir, 3)["model"];
    assert_eq!(model, &json!([-1, 2]), "every variable's literal is kept");
    let out = run(&["cube-status", s(&dir), "--format", "json"]);
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    assert_eq!(json(&out)["status"], "sat");
}

#[test]
fn solve_cube_refuses_bad_input_with_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cubes");
    cube_dir(&dir, 4, 3, 1);
    let out = run(&["solve-cube", s(&dir), "9"]);
    crate::util::assert_fails_saying(&out, 1, "no cube 9: the directory has cubes 1 to 2");
    let out = run(&["solve-cube", s(&tmp.path().join("nowhere")), "1"]);
    crate::util::assert_fails_saying(&out, 1, "no such cube directory");
    let out = run(&["solve-cube", s(tmp.path()), "1"]);
    crate::util::assert_fails_saying(&out, 1, "not a cube directory");
    let out = run(&[
        "solve-cube",
        s(&dir),
        "1",
        "--backend",
        "minisat",
        "--proof",
    ]);
    crate::util::assert_fails_saying(&out, 2, "cannot write DRAT proofs");
    let out = run(&["conquer", s(&dir), "--incremental", "--check-unsat"]);
    crate::util::assert_fails_saying(&out, 2, "`conquer` (not --incremental)");
    let out = run(&["conquer", s(&dir), "--solver-cmd", "no-such-solver-here"]);
    crate::util::assert_fails_saying(&out, 1, "'no-such-solver-here' is not installed");
    let out = run(&["conquer", s(&dir), "--emit", "slurm", "--max-running", "0"]);
    crate::util::assert_fails_saying(&out, 2, "--max-running must be at least 1");
    // A formula changed after the split.
    let formula = dir.join("formula.cnf");
    let text = std::fs::read_to_string(&formula).unwrap();
    std::fs::write(&formula, text.replace("c dim 4", "c dim 4 ")).unwrap();
    let out = run(&["solve-cube", s(&dir), "1"]);
    crate::util::assert_fails_saying(&out, 1, "the formula was changed after it was split");
    assert_eq!(result_count(&dir), 0, "nothing was recorded");
}

#[test]
fn cube_status_merges_results_and_names_what_is_open() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cubes");
    let count = cube_dir(&dir, 5, 5, 2);
    let out = run(&["cube-status", s(&dir)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).starts_with("OPEN: 0 of 4 cubes UNSAT, 0 unknown, 4 missing"));
    assert!(
        stdout(&out).contains("not yet solved: 1-4"),
        "{}",
        stdout(&out)
    );
    for id in [1, 3] {
        assert_eq!(code(&run(&["solve-cube", s(&dir), &id.to_string()])), 20);
    }
    let report = json(&run(&["cube-status", s(&dir), "--format", "json"]));
    assert_eq!(report["status"], "open");
    assert_eq!(
        (report["unsat"].as_u64(), report["missing"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(report["open_ids"], json!([2, 4]));
    // A result copied to another cube names its own cube's hash: it does not count.
    let mut copied = result_json(&dir, 1);
    copied["id"] = json!(2);
    let path = dir.join("results/2.json");
    std::fs::write(&path, serde_json::to_string(&copied).unwrap()).unwrap();
    let out = run(&["cube-status", s(&dir)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("ignored: the results of cubes 2 name another formula or cube"),
        "{}",
        stdout(&out)
    );
    // Results from another worker (another machine's, in a shared directory) merge in.
    for id in [2, 4] {
        assert_eq!(code(&run(&["solve-cube", s(&dir), &id.to_string()])), 20);
        let path = dir.join("results").join(format!("{id}.json"));
        crate::util::edit_json(&path, &|r| r["worker"] = json!("elsewhere:1"));
    }
    let out = run(&["cube-status", s(&dir), "--format", "json"]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["status"], "unsat");
    assert_eq!(report["cubes"].as_u64(), Some(count as u64));
    // Each result records its CPU time beside its wall time, and the totals add both up.
    let (cpu, wall) = (
        report["cpu_seconds"].as_f64(),
        report["cube_wall_seconds"].as_f64(),
    );
    assert!(cpu.unwrap() > 0.0 && wall.unwrap() > 0.0, "{report}");
    assert_eq!(report["cpu_recorded"].as_u64(), Some(count as u64));
    assert!(report["largest"]["id"].as_u64().is_some());
    assert!(
        report["largest"]["cpu_seconds"].as_f64().is_some(),
        "{report}"
    );
    // A result written before CPU times were kept: the total says how many it covers.
    let path = dir.join("results/2.json");
    crate::util::edit_json(&path, &|r| {
        r.as_object_mut().unwrap().remove("cpu_seconds");
    });
    let out = run(&["cube-status", s(&dir)]);
    let recording = format!("over the {} recording it, wall ", count - 1);
    assert!(stdout(&out).contains(&recording), "{}", stdout(&out));
    // A damaged result file is an error naming it, never skipped.
    std::fs::write(dir.join("results/3.json"), "{ torn").unwrap();
    let out = run(&["cube-status", s(&dir)]);
    crate::util::assert_fails_saying(&out, 1, "3.json: not a cube result");
}

#[test]
fn cube_status_revalidates_a_sat_witness() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cubes");
    cube_dir(&dir, 5, 4, 1);
    let sat_id = (1..=2)
        .find(|id| code(&run(&["solve-cube", s(&dir), &id.to_string()])) == 10)
        .expect("one of the two cubes is SAT");
    let out = run(&["cube-status", s(&dir)]);
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(&format!("SAT: cube {sat_id} of 2")),
        "{text}"
    );
    assert_eq!(text.matches('B').count(), 4, "{text}");
    // A result whose model breaks the rules (a white and a black queen side by side on
    // squares 1 and 2 of the first row, here put there by hand) is refused.
    let path = dir.join("results").join(format!("{sat_id}.json"));
    crate::util::edit_json(&path, &|r| r["model"] = json!([1, 27]));
    let out = run(&["cube-status", s(&dir)]);
    crate::util::assert_fails_saying(&out, 1, &format!("{sat_id}.json"));
}

#[test]
fn conquer_solves_every_cube_resumes_and_answers_unsat() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cubes");
    let count = cube_dir(&dir, 5, 5, 3);
    let out = run(&[
        "conquer",
        s(&dir),
        "--jobs",
        "2",
        "--progress",
        "lines",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["status"], "unsat");
    assert_eq!(report["solved_now"].as_u64(), Some(count as u64));
    assert_eq!(
        (report["skipped"].as_u64(), report["jobs"].as_u64()),
        (Some(0), Some(2))
    );
    assert!(report["wall_seconds"].as_f64().unwrap() > 0.0);
    assert_eq!(result_count(&dir), count);
    let progress = stderr(&out);
    assert!(
        progress.contains(&format!("cubes {count}/{count} done")),
        "{progress}"
    );
    assert!(progress.contains("left"), "{progress}");
    // A rerun finds everything done.
    let out = run(&["conquer", s(&dir), "--format", "json", "--progress", "none"]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(
        (report["solved_now"].as_u64(), report["skipped"].as_u64()),
        (Some(0), Some(count as u64))
    );
    // An unknown result (a time limit ran out) is solved again; incremental workers too.
    crate::util::edit_json(&dir.join("results/5.json"), &|r| {
        r["status"] = json!("unknown");
        r["verified"] = Value::Null;
    });
    let out = run(&[
        "conquer",
        s(&dir),
        "--incremental",
        "-j",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["solved_now"].as_u64(), Some(1));
    assert_eq!(result_json(&dir, 5)["solver"], "cadical (incremental)");
}

#[test]
fn conquer_stops_at_the_first_sat_cube_with_its_board() {
    let tmp = tempfile::tempdir().unwrap();
    for incremental in [false, true] {
        let dir = tmp.path().join(format!("cubes-{incremental}"));
        cube_dir(&dir, 6, 5, 2);
        let mut args = vec!["conquer", s(&dir), "-j", "1"];
        if incremental {
            args.push("--incremental");
        }
        let out = run(&args);
        assert_eq!(code(&out), 10, "{}", stderr(&out));
        let text = stdout(&out);
        assert!(text.starts_with("SAT: cube "), "{text}");
        assert_eq!(text.matches('W').count(), 5, "{text}");
        // One worker stops at its first SAT cube: the later cubes are not solved.
        let sat: usize = text[10..]
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(result_count(&dir), sat, "{text}");
    }
}

#[test]
fn ctrl_c_keeps_the_finished_cubes_and_a_rerun_solves_the_rest() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cubes");
    let count = cube_dir(&dir, 5, 5, 2);
    // The first cube is solved by kissat; the second hangs until interrupted.
    let marker = tmp.path().join("first-done");
    let pid = tmp.path().join("pid");
    let solver = crate::util::fake_solver(
        tmp.path(),
        "slow-second",
        &format!(
            "if [ -e {m} ]; then echo $$ > {p}; exec sleep 60; fi\ntouch {m}\nexec kissat -q \"$1\"",
            m = s(&marker),
            p = s(&pid)
        ),
    );
    let child = std::process::Command::new(crate::util::BIN)
        .args([
            "conquer",
            s(&dir),
            "-j",
            "1",
            "--solver-cmd",
            &solver,
            "--progress",
            "none",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let out = crate::util::signal_when(child, libc::SIGINT, || pid.exists());
    assert_eq!(code(&out), 130, "{}", stderr(&out));
    assert_eq!(
        result_count(&dir),
        1,
        "the finished cube kept, the cut one not recorded"
    );
    let leftovers: Vec<String> = crate::util::names(&dir.join("results"));
    assert_eq!(leftovers, ["1.json"]);
    let out = run(&["conquer", s(&dir), "--format", "json"]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["skipped"].as_u64(), Some(1));
    assert_eq!(report["solved_now"].as_u64(), Some(count as u64 - 1));
}

/// The lines of a GNU parallel job log, header excluded.
fn joblog_lines(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().skip(1).count())
}

#[test]
fn gnu_parallel_solves_the_cubes_and_resumes_from_its_job_log() {
    if which("parallel").is_none() {
        eprintln!(
            "SKIPPED: GNU parallel is not installed (scripts/setup.sh installs Debian `parallel`)"
        );
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cubes");
    let count = cube_dir(&dir, 6, 6, 3);
    let joblog = dir.join("joblog");
    // The command of docs/cubes.md's "GNU parallel" section, for real.
    let script = format!(
        "seq 1 {count} | parallel --will-cite --joblog {log} --resume {bin} solve-cube --exit-zero --quiet {dir} {{}}",
        log = s(&joblog),
        bin = crate::util::BIN,
        dir = s(&dir)
    );
    let parallel = |script: &str| {
        let out = std::process::Command::new("bash")
            .args(["-c", script])
            .output()
            .unwrap();
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        out
    };
    let first = parallel(&script);
    assert_eq!(stdout(&first).matches("UNSAT").count(), count);
    assert_eq!(joblog_lines(&joblog), count);
    let out = run(&["cube-status", s(&dir), "--format", "json"]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    assert_eq!(json(&out)["unsat"].as_u64(), Some(count as u64));
    // --resume: every job is in the log, so nothing runs again.
    let stamp = |id: usize| {
        std::fs::metadata(dir.join(format!("results/{id}.json")))
            .unwrap()
            .modified()
            .unwrap()
    };
    let before: Vec<_> = (1..=count).map(stamp).collect();
    let second = parallel(&script);
    assert_eq!(stdout(&second), "", "nothing new ran");
    assert_eq!(joblog_lines(&joblog), count);
    assert_eq!(before, (1..=count).map(stamp).collect::<Vec<_>>());
}

/// The program `name` on the PATH, if any.
fn which(name: &str) -> Option<std::path::PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join(name))
            .find(|p| p.is_file())
    })
}

/// True when a Slurm controller answers here with a node that can run jobs.
fn slurm_runs() -> bool {
    if which("sbatch").is_none() {
        return false;
    }
    std::process::Command::new("sinfo")
        .args(["-h", "-o", "%T"])
        .output()
        .is_ok_and(|o| {
            o.status.success()
                && String::from_utf8_lossy(&o.stdout).lines().any(|state| {
                    matches!(state.trim_end_matches('*'), "idle" | "mixed" | "allocated")
                })
        })
}

#[test]
fn slurm_job_array_script_is_written_checked_and_run_when_slurm_is_here() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cubes");
    let count = cube_dir(&dir, 5, 5, 2);
    let script = tmp.path().join("cubes.sbatch");
    let out = run(&[
        "conquer",
        s(&dir),
        "--emit",
        "slurm",
        "-o",
        s(&script),
        "--time",
        "0:10:00",
        "--mem",
        "200M",
        "--max-running",
        "2",
        "--backend",
        "kissat",
        "--cube-timeout",
        "300",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stderr(&out).contains("sbatch"), "{}", stderr(&out));
    let text = std::fs::read_to_string(&script).unwrap();
    let abs = std::fs::canonicalize(&dir).unwrap();
    for needle in [
        format!("#SBATCH --array=1-{count}%2"),
        "#SBATCH --time=0:10:00".into(),
        "#SBATCH --mem=200M".into(),
        format!("#SBATCH --output={}/slurm/%A_%a.out", abs.display()),
        format!(
            "exec {} solve-cube --resume --exit-zero --backend kissat --cube-timeout 300 {} \"$SLURM_ARRAY_TASK_ID\"",
            crate::util::BIN,
            abs.display()
        ),
    ] {
        assert!(text.contains(&needle), "{needle}\n{text}");
    }
    assert!(text.starts_with("#!/bin/bash\n"));
    let syntax = std::process::Command::new("bash")
        .arg("-n")
        .arg(&script)
        .output()
        .unwrap();
    assert!(
        syntax.status.success(),
        "{}",
        String::from_utf8_lossy(&syntax.stderr)
    );
    // An existing script is not replaced without --force.
    let again = run(&["conquer", s(&dir), "--emit", "slurm", "-o", s(&script)]);
    crate::util::assert_fails_saying(&again, 1, "give --force");
    // Standard output by default.
    let out = run(&["conquer", s(&dir), "--emit", "slurm"]);
    assert!(
        stdout(&out).contains("#SBATCH --array=1-4\n"),
        "{}",
        stdout(&out)
    );

    if !slurm_runs() {
        eprintln!("SKIPPED the real Slurm run: no Slurm controller answers here (scripts/slurm-local.sh sets up a single-node Slurm)");
        return;
    }
    let out = std::process::Command::new("sbatch")
        .arg("--wait")
        .arg(&script)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "sbatch: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let status = run(&["cube-status", s(&dir), "--format", "json"]);
    assert_eq!(code(&status), 20, "{}", stderr(&status));
    assert_eq!(json(&status)["unsat"].as_u64(), Some(count as u64));
    assert_eq!(
        crate::util::names(&dir.join("slurm")).len(),
        count,
        "one log per task"
    );
}

/// Proves every cube of `dir` and the completeness of its cubes with kissat's DRAT proofs.
fn prove_all(dir: &Path) {
    let out = run(&[
        "conquer",
        s(dir),
        "-j",
        "2",
        "--backend",
        "kissat",
        "--proof",
        "--check-unsat",
    ]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    let out = prove_complete(dir);
    assert!(stdout(&out).starts_with("complete: "), "{}", stdout(&out));
}

fn check(dir: &Path) -> (i32, Value) {
    let out = run(&["cube-status", s(dir), "--check", "--format", "json"]);
    assert!(!out.stdout.is_empty(), "{}", stderr(&out));
    (code(&out), json(&out))
}

/// The `detail` of the failed checks of a `cube-status --check` report.
fn failures(report: &Value) -> Vec<String> {
    (report["checks"].as_array().unwrap().iter())
        .filter(|c| c["ok"] == false)
        .map(|c| {
            format!(
                "{}: {}",
                c["what"].as_str().unwrap(),
                c["detail"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn a_complete_proven_cube_set_checks_end_to_end() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cubes");
    let count = cube_dir(&dir, 5, 5, 2);
    prove_all(&dir);
    let mut proofs = crate::util::names(&dir.join("proofs"));
    proofs.sort();
    assert_eq!(
        proofs,
        [
            "1.drat",
            "2.drat",
            "3.drat",
            "4.drat",
            "completeness.drat",
            "completeness.json"
        ]
    );
    for id in 1..=count {
        let r = result_json(&dir, id);
        assert_eq!(
            (r["proof"].as_str(), r["verified"].as_bool()),
            (Some(&*format!("{id}.drat")), Some(true))
        );
    }
    let (status, report) = check(&dir);
    assert_eq!(status, 20, "{report}");
    assert_eq!(report["checked"], true, "{report}");
    let checked: Vec<&str> = (report["checks"].as_array().unwrap().iter())
        .map(|c| c["what"].as_str().unwrap())
        .collect();
    assert_eq!(
        checked,
        [
            "formula",
            "cube 1",
            "cube 2",
            "cube 3",
            "cube 4",
            "completeness"
        ]
    );
    let text = stdout(&run(&["cube-status", s(&dir), "--check"]));
    assert!(
        text.contains("bundle checked: every check passed"),
        "{text}"
    );
    // One checker at a time or three: the same findings, in the same (cube) order (the
    // checker's times aside).
    let untimed = |t: &str| -> Vec<String> {
        t.lines()
            .map(|l| l.split(" (rate, ").next().unwrap_or(l).to_string())
            .collect()
    };
    let one = stdout(&run(&["cube-status", s(&dir), "--check", "--jobs", "1"]));
    let three = stdout(&run(&["cube-status", s(&dir), "--check", "--jobs", "3"]));
    assert_eq!(untimed(&one), untimed(&three));
    assert_eq!(untimed(&one), untimed(&text));

    // A tampered cube proof: its lemmas no longer follow.
    let copy = tmp.path().join("tampered");
    let cp = std::process::Command::new("cp")
        .arg("-r")
        .arg(&dir)
        .arg(&copy)
        .status();
    assert!(cp.unwrap().success());
    // The cube with the longest proof needs one: unit propagation alone does not refute
    // it (the check of a cube that propagation refutes accepts any proof, rightly).
    let longest = (1..=count)
        .max_by_key(|id| {
            std::fs::metadata(dir.join(format!("proofs/{id}.drat")))
                .unwrap()
                .len()
        })
        .unwrap();
    let tampered = copy.join(format!("proofs/{longest}.drat"));
    std::fs::write(&tampered, "0\n").unwrap();
    let (status, report) = check(&copy);
    assert_eq!(status, 1, "{report}");
    let failed = failures(&report);
    assert_eq!(failed.len(), 1, "{failed:?}");
    // Its result records the proof's SHA-256, so the swap is caught before any check...
    assert!(
        failed[0].contains("is not the proof its result records"),
        "{failed:?}"
    );
    // ... and without that record (a result from before it), the checker refuses it.
    let result = copy.join(format!("results/{longest}.json"));
    crate::util::edit_json(&result, &|r| {
        r.as_object_mut().unwrap().remove("proof_record");
    });
    let (status, report) = check(&copy);
    assert_eq!(status, 1, "{report}");
    let failed = failures(&report);
    assert_eq!(failed.len(), 1, "{failed:?}");
    let want = format!("cube {longest}: {longest}.drat does not check");
    assert!(failed[0].starts_with(&want), "{failed:?}");

    // One cube removed from the manifest (and its result): the completeness proof no
    // longer covers the cube set.
    std::fs::copy(dir.join(format!("proofs/{longest}.drat")), &tampered).unwrap();
    crate::util::edit_json(&copy.join("manifest.json"), &|m| {
        m["cubes"].as_array_mut().unwrap().pop();
    });
    std::fs::remove_file(copy.join("results/4.json")).unwrap();
    let (status, report) = check(&copy);
    assert_eq!(status, 1, "{report}");
    let failed = failures(&report);
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert!(
        failed[0].contains("completeness: the completeness proof was made for another cube set"),
        "{failed:?}"
    );
    // Proved again for the new set, the bundle checks.
    let out = run(&[
        "solve-cube",
        s(&copy),
        "--completeness",
        "--backend",
        "kissat",
        "--proof",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let (status, report) = check(&copy);
    assert_eq!((status, &report["checked"]), (20, &json!(true)), "{report}");
}

#[test]
fn an_incomplete_cube_set_is_caught_although_every_cube_is_unsat() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("plain");
    std::fs::create_dir(&dir).unwrap();
    // x2 must be true; the only cube says x2 is false, so it is UNSAT, yet the formula
    // has models: the cube set misses them.
    std::fs::write(dir.join("formula.cnf"), "p cnf 2 2\n1 2 0\n-1 2 0\n").unwrap();
    write_manifest(&dir, "a small formula", &[vec![-2]]);
    let out = run(&["solve-cube", s(&dir), "1", "--backend", "kissat", "--proof"]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    // A cube list made by hand gives no verdict without the proof that it is complete.
    let out = run(&["cube-status", s(&dir)]);
    crate::util::assert_fails_saying(&out, 1, "solve-cube DIR --completeness --proof");
    let out = run(&[
        "solve-cube",
        s(&dir),
        "--completeness",
        "--backend",
        "kissat",
        "--proof",
    ]);
    crate::util::assert_fails_saying(&out, 1, "are not complete");
    assert!(stdout(&out).starts_with("INCOMPLETE"), "{}", stdout(&out));
    let (status, report) = check(&dir);
    assert_eq!(status, 1, "{report}");
    let failed = failures(&report);
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert!(
        failed[0].starts_with("completeness: no completeness proof"),
        "{failed:?}"
    );
}

/// `solve --cubes`: every step by cube-and-conquer on --jobs workers, each cube by one
/// solver; the answers are those of a single solver, the SAT board validated.
#[test]
fn solve_with_cubes_answers_as_one_solver_does() {
    use crate::util::{code, json, run, stderr};
    let out = run(&[
        "solve", "--dim", "6", "--cubes", "always", "--jobs", "2", "--format", "json",
    ]);
    assert_eq!(code(&out), 30, "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["optimum"], 5);
    assert_eq!(v["backend"], "cubes(cadical-sat x 2)");
    for (n, want) in [("4", 10), ("5", 20)] {
        let out = run(&[
            "solve",
            "--dim",
            "5",
            "--n",
            n,
            "--cubes",
            "always",
            "--backend",
            "kissat",
            "--format",
            "json",
        ]);
        assert_eq!(code(&out), want, "5/{n}: {}", stderr(&out));
        if want == 10 {
            assert_eq!(json(&out)["board"].as_array().unwrap().len(), 5);
        }
    }
    for bad in [
        &["--certify", "c"][..],
        &["--strategy", "incremental"],
        &["--backend", "kissat", "--backend", "cadical"],
    ] {
        let mut args = vec!["solve", "--dim", "5", "--cubes", "always"];
        args.extend_from_slice(bad);
        let out = run(&args);
        assert_eq!(code(&out), 2, "{bad:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("--cubes"),
            "{bad:?}: {}",
            stderr(&out)
        );
    }
}

/// `--cubes auto` (the default): every step goes to cubes, or with --cube-after a step the
/// portfolio leaves open that long, and the answers stay those of one solver; it applies
/// only where the cubes' UNSAT proves the step's and several cores can share them.
#[test]
fn solve_cubes_hard_steps_automatically_where_that_is_sound() {
    use crate::util::{code, json, run, stderr};
    // A probe of a millisecond sends nearly every step to cubes.
    for (d, optimum) in [(4, 2), (5, 4), (6, 5), (7, 7)] {
        let out = run(&[
            "solve",
            "--dim",
            &d.to_string(),
            "--jobs",
            "2",
            "--cube-after",
            "0.001",
            "--engine",
            "sat",
            "--format",
            "json",
        ]);
        assert_eq!(code(&out), 30, "d = {d}: {}", stderr(&out));
        let v = json(&out);
        assert_eq!(v["optimum"], optimum, "d = {d}");
        assert_eq!(
            v["backend"],
            "portfolio(cadical, kissat), then cubes(cadical-sat x 2) after 0.001 s"
        );
    }
    let backend_of = |extra: &[&str]| {
        let mut args = vec!["solve", "--dim", "5", "--engine", "sat", "--format", "json"];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert_eq!(code(&out), 30, "{extra:?}: {}", stderr(&out));
        json(&out)["backend"].as_str().unwrap().to_string()
    };
    assert_eq!(
        backend_of(&["--backend", "kissat", "--jobs", "2"]),
        "cubes(kissat x 2), else kissat"
    );
    assert_eq!(
        backend_of(&["--jobs", "2"]),
        "cubes(cadical-sat x 2), else portfolio(cadical, kissat)"
    );
    assert_eq!(
        backend_of(&["--jobs", "2", "--cube-after", "5"]),
        "portfolio(cadical, kissat), then cubes(cadical-sat x 2) after 5 s"
    );
    // Not applied: one core, a search under assumptions, no lex-leader clauses, a
    // portfolio of named solvers, when asked not to, or when every UNSAT needs a checked
    // proof (the cubes' UNSAT has none for the whole step).
    for (extra, plain) in [
        (&["--jobs", "1"][..], "cadical"),
        (&["--jobs", "2", "--strategy", "incremental"], "cadical"),
        (
            &["--jobs", "2", "--symmetry", "none"],
            "portfolio(cadical, kissat)",
        ),
        (
            &["--backend", "kissat", "--backend", "cadical"],
            "portfolio(kissat, cadical)",
        ),
        (
            &["--jobs", "2", "--cubes=never"],
            "portfolio(cadical, kissat)",
        ),
        (&["--jobs", "2", "--solver-cmd", "kissat"], "kissat"),
        (
            &["--jobs", "2", "--check-unsat"],
            "portfolio(cadical, kissat)",
        ),
    ] {
        assert_eq!(backend_of(extra), plain, "{extra:?}");
    }
    for bad in [
        &["--cubes=sometimes"][..],
        &["--cube-after", "-1"],
        &["--cube-after", "soon"],
    ] {
        let mut args = vec!["solve", "--dim", "5"];
        args.extend_from_slice(bad);
        let out = run(&args);
        assert_eq!(code(&out), 2, "{bad:?}: {}", stderr(&out));
    }
}
