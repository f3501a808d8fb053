//! Adversarial tests: the cube directory. Every file in it is
//! untrusted input: the verdict is derived from a fresh encoding and a re-run split, never
//! read from the header, the manifest's text or its cube list (class 22); results count
//! only for the formula and cube they name (class 23); a verdict that contradicts the table
//! of proven values is refused (class 24); a result's word that its proof was checked is
//! not counted (class 25); text from the directory never becomes a line of a script or of
//! the report (class 26).

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::util::{
    assert_fails_saying, code, copy_dir, edit_json, fake_solver, json, run, s, stderr, stdout,
};

/// `pq-sat cube --dim D --n N` split on the rows, in `root/name`.
fn split(root: &Path, name: &str, d: usize, n: usize) -> PathBuf {
    let dir = root.join(name);
    let (d, n) = (d.to_string(), n.to_string());
    let out = run(&[
        "cube",
        "--dim",
        &d,
        "--n",
        &n,
        "--split",
        "rows",
        "--depth",
        "0",
        "-o",
        s(&dir),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    dir
}

/// Conquers `dir` in process and returns the exit code.
fn conquer(dir: &Path) -> i32 {
    let out = run(&["conquer", s(dir), "--jobs", "2"]);
    code(&out)
}

/// A copy of the cube directory `dir` (manifest, formula, results) at `to`.
fn copy_cubes(dir: &Path, to: &Path) {
    std::fs::create_dir(to).unwrap();
    for name in ["manifest.json", "formula.cnf", "cubes.icnf"] {
        std::fs::copy(dir.join(name), to.join(name)).unwrap();
    }
    if dir.join("results").is_dir() {
        copy_dir(&dir.join("results"), &to.join("results"));
    }
}

/// Rewrites `dir/formula.cnf` with `edit` and makes the manifest's hashes and sizes match
/// it again (what a careful forger does).
fn forge_formula(dir: &Path, edit: &dyn Fn(String) -> String) {
    let path = dir.join("formula.cnf");
    let text = edit(std::fs::read_to_string(&path).unwrap());
    std::fs::write(&path, text).unwrap();
    let hashed = json(&run(&["hash", "--format", "json", s(&path)]));
    let text = std::fs::read_to_string(&path).unwrap();
    let p = text.lines().find(|l| l.starts_with("p cnf")).unwrap();
    let sizes: Vec<u64> = (p[6..].split_whitespace())
        .map(|w| w.parse().unwrap())
        .collect();
    edit_json(&dir.join("manifest.json"), &|m| {
        m["sha256"] = hashed[0]["sha256"].clone();
        m["gbd"] = hashed[0]["gbd"].clone();
        m["variables"] = json!(sizes[0]);
        m["clauses"] = json!(sizes[1]);
    });
}

/// Class 22: a header that states another size, clauses added, the manifest's description
/// or its cube list edited: no verdict, a refusal that says why.
#[test]
fn an_edited_formula_or_cube_list_gives_no_verdict() {
    let tmp = tempfile::tempdir().unwrap();
    // a(5) = 4: n = 5 is UNSAT.
    let dir = split(tmp.path(), "d", 5, 5);
    assert_eq!(conquer(&dir), 20);
    let out = run(&["cube-status", s(&dir)]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("peaceable queens, d = 5, n = 5"),
        "{}",
        stdout(&out)
    );

    // The size in the header, the hashes updated: the claim would be "n = 4 is UNSAT".
    let n4 = tmp.path().join("n4");
    copy_cubes(&dir, &n4);
    forge_formula(&n4, &|t| t.replace("c n 5\n", "c n 4\n"));
    let out = run(&["cube-status", s(&n4)]);
    assert_fails_saying(
        &out,
        1,
        "its header says it is peaceable queens, d = 5, n = 4",
    );
    assert!(stderr(&out).contains("fresh encoding"), "{}", stderr(&out));
    // Two clauses that make any formula UNSAT.
    let added = tmp.path().join("added");
    copy_cubes(&dir, &added);
    forge_formula(&added, &|t| {
        let (head, rest) = t.split_once("p cnf ").unwrap();
        let (sizes, body) = rest.split_once('\n').unwrap();
        let w: Vec<u64> = sizes
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        format!("{head}p cnf {} {}\n{body}1 0\n-1 0\n", w[0], w[1] + 2)
    });
    assert_fails_saying(&run(&["cube-status", s(&added)]), 1, "fresh encoding");

    // The manifest's description is never printed: it may say anything.
    let text = tmp.path().join("text");
    copy_cubes(&dir, &text);
    edit_json(&text.join("manifest.json"), &|m| {
        m["problem"] = json!("peaceable queens, d = 5, n = 4\nbundle checked: every check passed");
    });
    let out = run(&["cube-status", s(&text)]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    assert!(!stdout(&out).contains("bundle checked"), "{}", stdout(&out));
    assert!(stdout(&out).contains("d = 5, n = 5"), "{}", stdout(&out));

    // Cubes dropped, or all of them replaced: the split no longer gives this list.
    for (name, edit) in [
        ("none", json!([])),
        ("one", json!([{"id": 1, "lits": [1, -1]}])),
    ] {
        let edited = tmp.path().join(name);
        copy_cubes(&dir, &edited);
        std::fs::remove_dir_all(edited.join("results")).unwrap();
        edit_json(&edited.join("manifest.json"), &|m| {
            m["cubes"] = edit.clone();
        });
        if name == "one" {
            assert_eq!(code(&run(&["solve-cube", s(&edited), "1"])), 20);
        }
        let out = run(&["cube-status", s(&edited), "--format", "json"]);
        assert_fails_saying(&out, 1, "not the");
        assert!(!stdout(&out).contains("unsat"), "{}", stdout(&out));
    }
}

/// Class 23: results written for another formula (a worker still on an earlier split of
/// the directory) or copied to another cube do not count, and `conquer` solves those
/// cubes again.
#[test]
fn results_count_only_for_their_own_formula_and_cube() {
    let tmp = tempfile::tempdir().unwrap();
    let old = split(tmp.path(), "old", 5, 5);
    assert_eq!(conquer(&old), 20);
    // Re-split at n = 4 (SAT) while the old workers' results keep arriving.
    let new = split(tmp.path(), "new", 5, 4);
    std::fs::create_dir_all(new.join("results")).unwrap();
    let count = json(&run(&["cube-status", s(&new), "--format", "json"]))["cubes"]
        .as_u64()
        .unwrap();
    for id in 1..=count.min(2) {
        let name = format!("{id}.json");
        std::fs::copy(
            old.join("results").join(&name),
            new.join("results").join(&name),
        )
        .unwrap();
    }
    let out = run(&["cube-status", s(&new), "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["status"], "open", "{report}");
    assert_eq!(report["unsat"], 0, "{report}");
    assert!(!report["stale"].as_array().unwrap().is_empty(), "{report}");
    // The stale results are solved again: n = 4 fits on 5x5.
    assert_eq!(conquer(&new), 10);
}

/// Class 24: `conquer` and `cube-status` judge the verdict against the table of proven
/// values, like `solve` does: a solver that always says UNSAT is caught.
#[test]
fn a_verdict_against_the_table_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let liar = fake_solver(tmp.path(), "liar", "echo 's UNSATISFIABLE'; exit 20");
    // a(5) = 4: four of each fit, so "every cube UNSAT" is a lie.
    let dir = split(tmp.path(), "d", 5, 4);
    let out = run(&["conquer", s(&dir), "--solver-cmd", &liar]);
    assert_fails_saying(&out, 1, "a(5) = 4 is proven");
    assert!(stderr(&out).contains("liar"), "{}", stderr(&out));
    assert_fails_saying(&run(&["cube-status", s(&dir)]), 1, "a(5) = 4 is proven");
}

/// Class 25: a result that says its proof was checked, with no proof on disk, counts as
/// no checked proof; `--check` fails it.
#[test]
fn a_results_word_that_its_proof_checked_is_not_counted() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = split(tmp.path(), "d", 5, 5);
    assert_eq!(conquer(&dir), 20);
    for e in std::fs::read_dir(dir.join("results")).unwrap() {
        edit_json(&e.unwrap().path(), &|r| {
            r["verified"] = json!(true);
            r["proof"] = json!("1.drat");
        });
    }
    let out = run(&["cube-status", s(&dir), "--format", "json"]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    assert_eq!(json(&out)["proofs_on_disk"], 0);
    let out = run(&["cube-status", s(&dir)]);
    assert!(
        stdout(&out).contains("0 of them with a proof on disk"),
        "{}",
        stdout(&out)
    );
    let out = run(&["cube-status", s(&dir), "--check"]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(stdout(&out).contains("is missing"), "{}", stdout(&out));
}

/// Class 26: a line break in `--partition`, `--time`, `--mem` or the directory's path
/// never reaches the Slurm script; nothing is written.
#[test]
fn slurm_scripts_take_one_word_values_only() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = split(tmp.path(), "d", 4, 3);
    let script = tmp.path().join("job.sh");
    for (flag, value) in [
        ("--partition", "x\ntouch /tmp/owned"),
        ("--time", "1:00:00\ntouch /tmp/owned"),
        ("--mem", "4G x"),
    ] {
        let out = run(&[
            "conquer",
            s(&dir),
            "--emit",
            "slurm",
            flag,
            value,
            "-o",
            s(&script),
        ]);
        assert_fails_saying(&out, 1, &format!("{flag} "));
        assert!(!script.exists());
    }
    let odd = tmp.path().join("line\nbreak");
    std::fs::rename(&dir, &odd).unwrap();
    let out = run(&["conquer", s(&odd), "--emit", "slurm", "-o", s(&script)]);
    assert_fails_saying(&out, 1, "the cube directory's path");
    assert!(!script.exists());
}

/// Class 24 for the optimisers: an "infeasible" from an optimiser where the empty board is
/// a solution (every group maximised) is a solver error, not "a(5) >= 0".
#[test]
fn an_infeasible_optimisation_of_maximised_groups_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    fake_solver(
        tmp.path(),
        "clasp",
        "case \"$1\" in --version) echo 'clasp version 3.3.5'; exit 0;; esac\necho 's UNSATISFIABLE'; exit 20",
    );
    let path = format!("{}:{}", s(tmp.path()), std::env::var("PATH").unwrap());
    let out = std::process::Command::new(crate::util::BIN)
        .args(["solve", "--dim", "5", "--backend", "clasp"])
        .env("PATH", path)
        .output()
        .unwrap();
    assert_fails_saying(&out, 1, "the empty board is a solution");
    assert!(!stdout(&out).contains("a(5) >="), "{}", stdout(&out));
}

/// `hash` of a pipe: both ids from the one pass a pipe allows (it was read twice, and the
/// SHA-256 was that of empty input).
#[test]
fn a_pipe_is_hashed_from_its_one_reading() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("q.cnf");
    crate::util::encode_to("5", "4", &file);
    let bytes = std::fs::read(&file).unwrap();
    let of_file = json(&run(&["hash", "--format", "json", s(&file)]));
    let out =
        crate::util::run_with_stdin(&["hash", "--format", "json", "/dev/stdin"], Some(&bytes));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let of_pipe = json(&out);
    assert_eq!(of_pipe[0]["sha256"], of_file[0]["sha256"]);
    assert_eq!(of_pipe[0]["gbd"], of_file[0]["gbd"]);
}

/// Class 28: the splitter obeys the run's limits. `solve --engine sat` on 17x17 hands its
/// step to cubes, whose split took minutes and ignored `--timeout` and SIGTERM; now the
/// step is `unknown` at the deadline. (The bound below is ten times the deadline: a hang,
/// not a speed, is what it catches.)
#[test]
fn the_split_of_a_step_stops_at_the_deadline() {
    let start = std::time::Instant::now();
    let out = run(&[
        "solve",
        "--dim",
        "17",
        "--engine",
        "sat",
        "--timeout",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    assert_eq!(json(&out)["status"], "unknown");
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
}

/// Class 29 (`--force`): a directory is pq-sat's to replace only when its manifest is
/// pq-sat's, of the same kind, and nothing else is in it; an output never replaces an input.
#[test]
fn force_replaces_only_pq_sats_own_directory_of_the_same_kind_and_never_an_input() {
    let tmp = tempfile::tempdir().unwrap();
    let x = tmp.path().join("x");
    std::fs::create_dir(&x).unwrap();
    std::fs::write(x.join("manifest.json"), "{}").unwrap();
    std::fs::write(x.join("mine.js"), "code").unwrap();
    let cube = |dir: &Path| {
        run(&[
            "cube",
            "--dim",
            "4",
            "--n",
            "3",
            "--split",
            "rows",
            "-o",
            s(dir),
            "--force",
        ])
    };
    assert_fails_saying(&cube(&x), 1, "not empty");
    assert_eq!(std::fs::read_to_string(x.join("mine.js")).unwrap(), "code");

    // A cube directory with results is not a family's to replace, and pq-sat's own cube
    // directory with a user's file added is not replaced either.
    let d = split(tmp.path(), "d", 5, 5);
    assert_eq!(conquer(&d), 20);
    let out = run(&["family", "--dim", "4", "-o", s(&d), "--force"]);
    assert_fails_saying(&out, 1, "not empty");
    assert!(d.join("results/1.json").is_file());
    std::fs::write(d.join("notes.txt"), "mine").unwrap();
    assert_fails_saying(&cube(&d), 1, "not empty");
    std::fs::remove_file(d.join("notes.txt")).unwrap();
    assert_eq!(code(&cube(&d)), 0, "pq-sat's own directory is replaced");

    // Outputs that are the command's own inputs.
    let d = split(tmp.path(), "e", 4, 3);
    let formula = d.join("formula.cnf");
    let before = std::fs::read(&formula).unwrap();
    for args in [
        vec![
            "conquer",
            s(&d),
            "--emit",
            "slurm",
            "-o",
            s(&formula),
            "--force",
        ],
        vec![
            "cube",
            s(&d),
            "--estimate",
            "--plot",
            &*format!("{}/manifest.json", s(&d)),
            "--force",
        ],
        vec!["cube", "--cnf", s(&formula), "-o", s(&d), "--force"],
    ] {
        let out = run(&args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("input"), "{}", stderr(&out));
        assert_eq!(std::fs::read(&formula).unwrap(), before);
    }
    // A new file beside the cubes is fine.
    let out = run(&[
        "conquer",
        s(&d),
        "--emit",
        "slurm",
        "-o",
        &format!("{}/job.sh", s(&d)),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

/// Class 30: a FIFO or a link to /dev/zero among the results (or as the manifest) is
/// refused at once, never read (it hung `cube-status` and `conquer`, or grew without bound).
#[test]
fn special_files_in_a_cube_directory_are_refused_not_read() {
    let tmp = tempfile::tempdir().unwrap();
    let d = split(tmp.path(), "d", 4, 3);
    std::fs::create_dir_all(d.join("results")).unwrap();
    crate::util::mkfifo(&d.join("results/1.json"));
    for args in [vec!["cube-status", s(&d)], vec!["conquer", s(&d)]] {
        assert_fails_saying(&run(&args), 1, "a FIFO");
    }
    std::fs::remove_file(d.join("results/1.json")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", d.join("results/1.json")).unwrap();
    assert_fails_saying(&run(&["cube-status", s(&d)]), 1, "a symbolic link");
    std::fs::remove_file(d.join("results/1.json")).unwrap();
    std::fs::rename(d.join("manifest.json"), d.join("m")).unwrap();
    crate::util::mkfifo(&d.join("manifest.json"));
    assert_fails_saying(&run(&["cube-status", s(&d)]), 1, "a FIFO");
}

/// Class 31: results and the directory itself are readable as the umask says (they were
/// 0600 and 0700: another user of a shared cluster directory got "Permission denied").
#[test]
fn results_are_readable_as_the_umask_says() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let d = split(tmp.path(), "d", 4, 3);
    assert_eq!(conquer(&d), 20);
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode();
    // Tests run under a usual umask (022 or 002): group and others may read.
    assert_ne!(mode(&d.join("results/1.json")) & 0o044, 0);
    assert_ne!(mode(&d) & 0o055, 0);
    assert_ne!(mode(&d.join("manifest.json")) & 0o044, 0);
}

/// Class 32: what killed runs leave is named so that the sweep knows it, and swept: the
/// temporaries of dead owners in a cube directory's results and proofs, and in `$TMPDIR`
/// the scratch copies an external solver reads (they were `.tmpXXXXXX`, unknown to it).
#[test]
fn leftovers_of_killed_runs_are_known_and_swept() {
    let tmp = tempfile::tempdir().unwrap();
    let d = split(tmp.path(), "d", 4, 3);
    // Beyond the largest process id Linux hands out (2^22): their owner is gone.
    let dead = ".pq-result-99999999-5-Zz9a0B";
    std::fs::create_dir_all(d.join("results")).unwrap();
    std::fs::write(d.join("results").join(dead), "{").unwrap();
    std::fs::create_dir_all(d.join("proofs/.pq-cube-99999999-5-Zz9a0B")).unwrap();
    assert_eq!(code(&run(&["cube-status", s(&d)])), 0);
    assert!(!d.join("results").join(dead).exists());
    assert!(crate::util::names(&d.join("proofs")).is_empty());

    let scratch = tmp.path().join("tmp");
    std::fs::create_dir(&scratch).unwrap();
    let old = scratch.join(".pq-scratch-99999999-5-Zz9a0B");
    std::fs::create_dir(&old).unwrap();
    std::fs::write(old.join("formula.cnf"), "p cnf 1 1\n1 0\n").unwrap();
    let seen = tmp.path().join("seen");
    let solver = fake_solver(
        tmp.path(),
        "unsat",
        &format!(
            "echo \"$1\" > {}; echo 's UNSATISFIABLE'; exit 20",
            s(&seen)
        ),
    );
    let out = std::process::Command::new(crate::util::BIN)
        .args(["solve", "--dim", "3", "--n", "2", "--solver-cmd", &solver])
        .env("TMPDIR", &scratch)
        .output()
        .unwrap();
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    assert!(!old.exists(), "a dead run's scratch directory is swept");
    let used = std::fs::read_to_string(&seen).unwrap();
    let parent = Path::new(used.trim()).parent().unwrap();
    let name = parent.file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with(".pq-scratch-"), "{used}");
    assert!(
        crate::util::names(&scratch).is_empty(),
        "nothing left after the run"
    );
}

/// Class 35 (messages): a forged result says what is wrong with the file, never pq-sat's
/// "internal error"; negative seconds are refused ("cpu -0.00 s"); one worker is one worker.
#[test]
fn forged_results_are_named_for_what_is_wrong_with_them() {
    let tmp = tempfile::tempdir().unwrap();
    let d = split(tmp.path(), "d", 5, 4);
    let out = run(&["conquer", s(&d), "--jobs", "1"]);
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    assert!(stdout(&out).contains("on 1 worker ("), "{}", stdout(&out));
    let sat = (1..=64)
        .map(|id| d.join(format!("results/{id}.json")))
        .find(|p| p.is_file() && std::fs::read_to_string(p).unwrap().contains("\"sat\""))
        .unwrap();
    // Two queens of opposite colours side by side.
    edit_json(&sat, &|r| r["model"] = json!([1, 27]));
    let out = run(&["cube-status", s(&d)]);
    assert_fails_saying(&out, 1, "its model is not a valid board");
    assert!(!stderr(&out).contains("internal error"), "{}", stderr(&out));
    edit_json(&sat, &|r| r["seconds"] = json!(-0.001));
    assert_fails_saying(&run(&["cube-status", s(&d)]), 1, "are not a time");
}

/// `cubes.icnf` is derived from the manifest's cubes: a cube deleted there (which a script
/// counting cubes from the file would miss) makes `cube-status --check` fail, where it once
/// said every check passed.
#[test]
fn an_edited_icnf_fails_the_check() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("c");
    let out = run(&[
        "cube",
        "--dim",
        "6",
        "--n",
        "6",
        "--split",
        "rows",
        "--bounds",
        "sums",
        "-o",
        s(&dir),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = run(&[
        "conquer",
        s(&dir),
        "--backend",
        "lines",
        "--proof",
        "--check-unsat",
    ]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    let out = run(&[
        "solve-cube",
        s(&dir),
        "--completeness",
        "--proof",
        "--check-unsat",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let check = || run(&["cube-status", s(&dir), "--check"]);
    let out = check();
    assert_eq!(code(&out), 20, "{}", stdout(&out));
    assert!(stdout(&out).contains("ok: cubes.icnf"), "{}", stdout(&out));
    let icnf = dir.join("cubes.icnf");
    let text = std::fs::read_to_string(&icnf).unwrap();
    let first = text.find("\na ").unwrap();
    let end = first + 1 + text[first + 1..].find('\n').unwrap();
    std::fs::write(&icnf, format!("{}{}", &text[..first], &text[end..])).unwrap();
    let out = check();
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(
        stdout(&out).contains("FAILED: cubes.icnf"),
        "{}",
        stdout(&out)
    );
}
