//! Adversarial tests: sizes (see mod.rs). Every size, count and bound from the command line,
//! a problem file, `--set`, a DIMACS header or a board goes through one checked path
//! (`pq_board::limits`) with stated maxima: a number beyond its limit is a usage error that
//! says the maximum, never a panic, a wrapped-around answer or a huge allocation.

use std::process::Output;

use crate::util::{assert_fails_saying, code, run, run_with_stdin, stderr};

const THREE_ARMIES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/encodings/three-armies.toml");

/// A usage error (exit 2) whose first line names the limit `max`, without a panic.
#[track_caller]
fn refused_with_limit(out: &Output, max: &str) {
    let err = stderr(out);
    assert_eq!(code(out), 2, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let first = err.lines().next().unwrap_or_default();
    assert!(first.contains(max), "expected the limit {max} in: {err}");
}

/// Class 7: `2n` overflowed in the cardinality encoding and wrapped around in the message.
#[test]
fn army_sizes_beyond_any_board_are_refused_with_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let family_out = dir.path().join("fam");
    let family_out = family_out.to_str().unwrap();
    for n in ["9223372036854775808", "18446744073709551615", "4097"] {
        for args in [
            &["solve", "--dim", "8", "--n", n][..],
            &["encode", "--dim", "8", "--n", n],
            &["enumerate", "--dim", "8", "--n", n, "--count"],
            &["solve", "--problem", THREE_ARMIES, "--n", n],
            &["family", "--dim", "8", "--n", n, "-o", family_out],
            &[
                "family",
                "--dim",
                "8",
                "--n",
                &format!("1..{n}"),
                "-o",
                family_out,
            ],
        ] {
            let out = run(args);
            refused_with_limit(&out, "4096");
            let err = stderr(&out);
            assert!(!err.contains("18446744073709551614"), "{args:?}: {err}");
        }
    }
    assert!(!std::path::Path::new(family_out).exists());
    // Below the limit, the message states the squares really needed.
    let out = run(&["encode", "--dim", "8", "--n", "4096"]);
    assert_fails_saying(&out, 2, "need 8192 squares");
}

/// Class 8: a lying `c dim` header made the reader index out of bounds or allocate
/// gigabytes; a header beyond the limits is not believed, a map line beyond them is refused.
#[test]
fn lying_dimacs_headers_allocate_nothing_and_never_panic() {
    let dir = tempfile::tempdir().unwrap();
    for header in [
        "c dim 4294967296",
        "c dim 100000",
        "c rows 100000\nc cols 100000",
        "c dim 18446744073709551616",
        "c dim 4\nc n 9223372036854775808",
    ] {
        // A queens map (both colours) on square a1, so that the answer is decoded.
        let text = format!("{header}\nc var 1 white 1 1\nc var 2 black 1 1\np cnf 2 1\n1 0\n");
        let path = dir.path().join("lying.cnf");
        std::fs::write(&path, text).unwrap();
        let out = run(&[
            "solve",
            "--cnf",
            path.to_str().unwrap(),
            "--backend",
            "varisat",
            "--timeout",
            "30",
        ]);
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "{header}: {err}");
        if header.starts_with("c dim 4\n") {
            // A believable size larger than the map: a lie the map exposes.
            assert_eq!(code(&out), 1, "{header}: {err}");
            assert!(err.contains("the header is wrong"), "{header}: {err}");
            continue;
        }
        // Solved as the board its map describes (the unbelievable size is ignored).
        assert_eq!(code(&out), 10, "{header}: {err}");
    }
    for (text, needle) in [
        (
            "c var 1 white 100000 1\np cnf 1 1\n1 0\n",
            "rows and columns go from 1 to 64",
        ),
        ("p cnf 4294967296 1\n1 0\n", "at most 2147483647"),
    ] {
        let out = run_with_stdin(&["solve", "--backend", "varisat"], Some(text.as_bytes()));
        let err = stderr(&out);
        assert_eq!(code(&out), 1, "{err}");
        assert!(err.contains("line 1") && err.contains(needle), "{err}");
    }
}

/// Class 15: counts that add up beyond `usize` wrapped around to a small total and were
/// answered UNSAT with `--set`, refused in the file; now both say the same.
#[test]
fn huge_counts_are_refused_alike_from_set_and_from_the_file() {
    let set = run(&[
        "solve",
        "--problem",
        THREE_ARMIES,
        "--set",
        "red=9223372036854775807",
        "--set",
        "green=9223372036854775807",
        "--set",
        "blue=2",
    ]);
    refused_with_limit(&set, "from 0 to 4096");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("huge.toml");
    let text = std::fs::read_to_string(THREE_ARMIES).unwrap();
    let text = text.replacen("count = \"max\"", "count = 9223372036854775807", 2);
    std::fs::write(&file, text.replacen("count = \"max\"", "count = 2", 1)).unwrap();
    let toml = run(&["solve", "--problem", file.to_str().unwrap()]);
    refused_with_limit(&toml, "from 0 to 4096");
    let family_out = dir.path().join("fam");
    let out = run(&[
        "family",
        "--dim",
        "5",
        "--around-optimum",
        "18446744073709551615",
        "-o",
        family_out.to_str().unwrap(),
    ]);
    refused_with_limit(&out, "from 1 to 4096");
    assert!(!family_out.exists());
}

/// Class 16: the largest timeout was refused as if it were not positive.
#[test]
fn timeouts_beyond_the_limit_say_the_limit() {
    for flag in ["--timeout", "--step-timeout"] {
        let out = run(&["solve", "--dim", "4", flag, "1e18"]);
        refused_with_limit(&out, "at most 1000000000");
    }
    let out = run(&[
        "solve",
        "--dim",
        "4",
        "--n",
        "2",
        "--backend",
        "varisat",
        "--timeout",
        "1e9",
    ]);
    assert_eq!(code(&out), 10, "{}", stderr(&out));
}

/// Class 19: `--set` beside `--dim` was ignored without a word.
#[test]
fn set_without_a_problem_file_is_refused() {
    for args in [
        &["solve", "--dim", "5", "--set", "knights=3"][..],
        &["encode", "--dim", "5", "--n", "2", "--set", "knights=3"],
        &["enumerate", "--dim", "4", "--set", "knights=3", "--count"],
    ] {
        let out = run(args);
        let err = stderr(&out);
        assert_eq!(code(&out), 2, "{args:?}: {err}");
        assert!(
            err.contains("--set knights=3") && err.contains("--problem FILE"),
            "{err}"
        );
    }
}

/// The board reader (`canon`, `render`): 100000 one-square rows used to allocate a
/// 100000 × 100000 board before the rows were compared.
#[test]
fn a_board_read_back_is_bounded_before_it_is_allocated() {
    let rows = "W\n".repeat(100_000);
    for cmd in ["canon", "render"] {
        let out = run_with_stdin(&[cmd], Some(rows.as_bytes()));
        let err = stderr(&out);
        assert_ne!(code(&out), 0, "{err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(err.contains("from 1 to 64"), "{err}");
    }
}

/// Every permutation of interchangeable groups is a symmetry, searched one by one: 11
/// groups took 12 s and 5 GB to encode. At most 8 groups are accepted, and 8 are quick.
#[test]
fn groups_beyond_the_limit_are_refused_and_the_limit_is_quick() {
    let dir = tempfile::tempdir().unwrap();
    let problem = |groups: usize| {
        let mut text = String::from("name = \"many\"\n[board]\nsize = \"4x4\"\n");
        for g in 0..groups {
            text += &format!("[[group]]\nname = \"g{g}\"\nkind = \"king\"\ncount = 0\n");
        }
        let path = dir.path().join(format!("g{groups}.toml"));
        std::fs::write(&path, text).unwrap();
        path
    };
    let out = run(&["encode", "--problem", problem(9).to_str().unwrap()]);
    refused_with_limit(&out, "(at most 8)");
    let out = run(&["encode", "--problem", problem(8).to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

/// Class 7 in manifests: `check-certificate` computed `optimum + 1` from a lying manifest and
/// overflowed; the manifest's sizes are checked against the limits first.
#[test]
fn certificate_sizes_beyond_the_limits_are_invalid_not_a_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("c5");
    let dir_s = dir.to_str().unwrap();
    let out = run(&[
        "solve",
        "--dim",
        "5",
        "--certify",
        dir_s,
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 30, "{}", stderr(&out));
    let manifest = dir.join("certificate.json");
    let valid = std::fs::read_to_string(&manifest).unwrap();
    for (optimum, n) in [
        ("18446744073709551615", "5"),
        ("9223372036854775807", "9223372036854775808"),
        ("4", "9223372036854775808"),
    ] {
        let lying = valid
            .replacen("\"optimum\": 4,", &format!("\"optimum\": {optimum},"), 1)
            .replacen("\"n\": 5,", &format!("\"n\": {n},"), 1);
        assert_ne!(lying, valid);
        std::fs::write(&manifest, lying).unwrap();
        let out = run(&["check-certificate", dir_s]);
        let err = stderr(&out) + &crate::util::stdout(&out);
        assert_eq!(code(&out), 1, "{optimum} {n}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(err.contains("from 0 to 4096"), "{optimum} {n}: {err}");
    }
}

/// Defect class 33: reading is bounded as it streams. A 4 GiB comment line from a few KB of
/// .bz2 aborted with "memory allocation failed"; now a line past the cap, a clause past its
/// cap or clauses past the declared count are refused, and damaged or unsupported
/// compressed data says what it is.
#[test]
fn reading_is_bounded_and_damaged_compression_is_named() {
    let long = format!("c {}\n", "x".repeat(64 << 20));
    let out = run_with_stdin(&["solve", "--cnf", "-"], Some(long.as_bytes()));
    assert_fails_saying(&out, 1, "longer than 67108864 bytes");
    let out = run_with_stdin(&["solve", "--cnf", "-"], Some(b"p cnf 1 1\n1 0\n1 0\n"));
    assert_fails_saying(&out, 1, "more clauses than the 1 the header declares");

    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("q.cnf");
    crate::util::encode_to("5", "4", &plain);
    let gz = std::process::Command::new("gzip")
        .args(["-kf", plain.to_str().unwrap()])
        .status();
    if gz.is_ok_and(|s| s.success()) {
        let bytes = std::fs::read(dir.path().join("q.cnf.gz")).unwrap();
        let cut = dir.path().join("cut.cnf.gz");
        std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
        let out = run(&["solve", "--cnf", cut.to_str().unwrap()]);
        assert_fails_saying(&out, 1, "the gz data is corrupt or cut short");
    }
    let zst = dir.path().join("q.cnf.zst");
    std::fs::write(&zst, b"\x28\xb5\x2f\xfd\x00\x00").unwrap();
    let out = run(&["solve", "--cnf", zst.to_str().unwrap()]);
    assert_fails_saying(&out, 1, "compressed with zstd");
}
