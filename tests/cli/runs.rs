//! The scripts of long runs (`runs/`) lose nothing: `runs/bundle.sh` stopped by one SIGTERM
//! keeps every finished result (whole, never torn), ends its syncer with no process left
//! behind, and a second run resumes and finishes the bundle.

use crate::util::*;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The `sleep` processes of bundle syncers now running.
fn syncer_sleeps() -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
        .filter(|c| c.as_slice() == b"sleep\x0060\x00")
        .count()
}

fn results(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| Some(e.ok()?.file_name().to_string_lossy().into_owned()))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn an_interrupted_bundle_keeps_every_finished_result_and_resumes() {
    let tmp = tempfile::tempdir().unwrap();
    let (work, keep) = (tmp.path().join("work"), tmp.path().join("keep"));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("runs/bundle.sh");
    let bundle = || {
        let mut cmd = Command::new("bash");
        cmd.arg(&script)
            .args(["9", "13", "1"])
            .env("BIN", BIN)
            .env("WORK", &work)
            .env("KEEP", &keep)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    };
    let before = syncer_sleeps();
    let done = work.join("c9t/results");
    let child = bundle().spawn().unwrap();
    let start = Instant::now();
    let out = signal_when(child, libc::SIGTERM, || {
        assert!(start.elapsed() < Duration::from_mins(2));
        results(&done).len() >= 3
    });
    assert_eq!(code(&out), 130, "{}", stderr(&out));
    // Every result finished before the stop is kept, whole, and nothing else.
    let finished = results(&done);
    let kept = results(&keep.join("results"));
    assert!(finished.len() >= 3);
    assert_eq!(kept, finished, "{}", stderr(&out));
    for name in &kept {
        let text = std::fs::read_to_string(keep.join("results").join(name)).unwrap();
        serde_json::from_str::<serde_json::Value>(&text).unwrap();
    }
    // The syncer and its sleep are gone.
    let deadline = Instant::now() + Duration::from_secs(5);
    while syncer_sleeps() > before && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(syncer_sleeps(), before, "an orphaned syncer sleep");
    // A second run resumes from the kept results and finishes the bundle.
    let out = bundle().output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let cubes = std::fs::read_to_string(work.join("c9t/cubes.icnf"))
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("a "))
        .count();
    assert_eq!(results(&keep.join("results")).len(), cubes);
    assert!(keep.join("completeness.out").is_file());
    assert!(keep.join("witness.json").is_file());
}

/// A binary of the workspace beside the pq-sat under test, built first when this test
/// binary runs alone (`cargo test --workspace` builds them all).
fn beside(relative: &str, build: &[&str]) -> std::path::PathBuf {
    let path = Path::new(BIN).parent().unwrap().join(relative);
    if !path.is_file() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo).args(build).status().unwrap();
        assert!(status.success());
    }
    path
}

/// The pq-lines example `certify`, the writer `runs/certify.sh` streams into pq-check.
fn certify_example() -> std::path::PathBuf {
    beside(
        "examples/certify",
        &["build", "-q", "-p", "pq-lines", "--example", "certify"],
    )
}

/// `runs/certify.sh ARGS` with `example` as its writer and its records kept in `keep`.
fn certify_sh(args: &[&str], example: &Path, keep: &Path) -> std::process::Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("runs/certify.sh");
    let check = beside("pq-check", &["build", "-q", "-p", "pq-check"]);
    Command::new("bash")
        .arg(&script)
        .args(args)
        .env("BIN", BIN)
        .env("CHECK", &check)
        .env("EXAMPLE", example)
        .env("KEEP", keep)
        .output()
        .unwrap()
}

/// `runs/certify.sh D N PARTS` certifies a step in parts, each streamed into pq-check and
/// recorded as it is verified; a part whose record is gone is done again, and the summary
/// checks that the verified ranges cover every row set.
#[test]
fn a_step_certified_in_parts_resumes_and_covers_every_row_set() {
    let tmp = tempfile::tempdir().unwrap();
    let keep = tmp.path().join("keep");
    let example = certify_example();
    let certify = || certify_sh(&["8", "10", "4"], &example, &keep);
    let out = certify();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let dir = keep.join("d8-n10");
    let summary = std::fs::read_to_string(dir.join("summary.txt")).unwrap();
    assert!(
        summary.contains("4 parts verified by pq-check, covering every row set"),
        "{summary}"
    );
    // The records' counts add up to the whole step's (2,450 pairs at 8/10).
    assert!(summary.contains("pairs 2450,"), "{summary}");
    // A lost record: that part alone is certified again.
    std::fs::remove_file(dir.join("part-1-of-4.txt")).unwrap();
    std::fs::remove_file(dir.join("summary.txt")).unwrap();
    let out = certify();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stderr(&out).contains("part 1 of 4"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("part 0 of 4"), "{}", stderr(&out));
    assert!(dir.join("summary.txt").is_file());
}

/// `runs/certify.sh --torus` and `--armies K` stream the writer of their family into
/// pq-check, whole or in parts: the torus's records name its board, the k-army parts cut the
/// codes of row colourings `[0, K^D)`, and pq-check agrees with each writer's trailer.
#[test]
fn the_torus_and_k_armies_are_certified_whole_and_in_parts() {
    let tmp = tempfile::tempdir().unwrap();
    let keep = tmp.path().join("keep");
    let example = certify_example();
    let certify = |args: &[&str]| {
        let out = certify_sh(args, &example, &keep);
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
    };
    let read = |name: &str| std::fs::read_to_string(keep.join(name)).unwrap();
    // The torus: 5 and 5 do not fit on 7 x 7 (A279405: t(7) = 4).
    certify(&["--torus", "7", "5"]);
    let whole = read("t7-n5.txt");
    assert!(whole.contains("\ns VERIFIED\n"), "{whole}");
    assert!(
        whole.contains("c claim: board torus 7 armies 5 5\n"),
        "{whole}"
    );
    certify(&["--torus", "7", "5", "2"]);
    let summary = read("t7-n5/summary.txt");
    assert!(
        summary.contains("step 7/5 on the torus: 2 parts verified by pq-check, covering every row set of [0, 2^7)"),
        "{summary}"
    );
    // Three armies of 4 do not fit on 7 x 7 (A328283: 3).
    certify(&["--armies", "3", "7", "4"]);
    let whole = read("k3-d7-n4.txt");
    assert!(
        whole.contains("c claim: board square 7 armies 4 4 4\n"),
        "{whole}"
    );
    assert!(whole.contains("\ns VERIFIED\n"), "{whole}");
    certify(&["--armies", "3", "7", "4", "3"]);
    let summary = read("k3-d7-n4/summary.txt");
    assert!(
        summary.contains("step 7/4, 3 armies: 3 parts verified by pq-check, covering every row colouring's code in [0, 3^7)"),
        "{summary}"
    );
    // The parts' counts add up to the whole step's, as pq-check counted them.
    let counts = |text: &str| {
        let line = text.lines().find(|l| l.starts_with("c rows ")).unwrap();
        let words: Vec<u64> = line.split(' ').filter_map(|w| w.parse().ok()).collect();
        (words[1], words[2])
    };
    let (pairs, nodes) = counts(&whole);
    assert!(
        summary.contains(&format!("pairs {pairs}, nodes {nodes} ")),
        "{summary} against {pairs} {nodes}"
    );
}

/// The gate of `runs/certify.sh` reads the claim, not the exit codes alone: a writer that
/// exits 20 with a certificate pq-check verifies, but of another step, leaves no record.
#[test]
fn a_part_certified_for_another_claim_is_not_recorded() {
    let tmp = tempfile::tempdir().unwrap();
    let keep = tmp.path().join("keep");
    let example = certify_example();
    // The whole of 7/8 (UNSAT, verified) where a part of 8/10 is asked for.
    let other = tmp.path().join("other.sh");
    std::fs::write(
        &other,
        format!("#!/bin/sh\nexec '{}' 7 8 0 128\n", example.display()),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&other, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = certify_sh(&["8", "10", "4"], &other, &keep);
    assert_ne!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("c expected board square 8 armies 10 10"),
        "{}",
        stderr(&out)
    );
    let dir = keep.join("d8-n10");
    assert!(!dir.join("part-0-of-4.txt").exists());
    assert!(!dir.join("summary.txt").exists());
}

/// `runs/queens/step.sh D N` keeps its journal and adds one line per part to its record
/// (`runs/record-part.py`): the part's status, the units done, its CPU, nodes and pairs, and
/// the commit its binary was built from; a second part resumes every unit of the first.
#[test]
fn a_journalled_step_records_each_part() {
    let tmp = tempfile::tempdir().unwrap();
    let keep = tmp.path().join("keep");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("runs/queens/step.sh");
    let step = || {
        Command::new("bash")
            .arg(&script)
            .args(["7", "8", "1"])
            .env("BIN", BIN)
            .env("BIN_COMMIT", "0123abcd")
            .env("WORK", tmp.path().join("work"))
            .env("KEEP", &keep)
            .output()
            .unwrap()
    };
    for part in 1..=2 {
        let out = step();
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert!(stdout(&out).contains("exit 20"), "{}", stdout(&out));
        assert!(keep.join("a7-8.journal.xz").is_file());
        let record = std::fs::read_to_string(keep.join("a7-8.parts.tsv")).unwrap();
        let lines: Vec<Vec<&str>> = record.lines().map(|l| l.split('\t').collect()).collect();
        assert_eq!(lines.len(), 1 + part, "{record}");
        let (head, row) = (&lines[0], &lines[part]);
        let field = |name: &str| row[head.iter().position(|h| *h == name).unwrap()];
        assert_eq!(field("binary"), "0123abcd", "{record}");
        assert_eq!(field("status"), "unsat", "{record}");
        let done: u64 = field("units done after").parse().unwrap();
        let resumed: u64 = field("units resumed").parse().unwrap();
        assert!(done > 0, "{record}");
        // The first part searched every unit; the second found them all in the journal.
        assert_eq!(resumed, if part == 1 { 0 } else { done }, "{record}");
        assert!(field("user s").parse::<f64>().is_ok(), "{record}");
        assert!(field("wall s").parse::<f64>().is_ok(), "{record}");
        if part == 1 {
            assert!(field("nodes").parse::<u64>().unwrap() > 0, "{record}");
        }
    }
}
