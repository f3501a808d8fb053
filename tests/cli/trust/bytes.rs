//! Adversarial tests: paths are bytes and every write is checked. A file name that is not
//! UTF-8 is used as it is (and recorded so that a shell reads it back); text that cannot
//! be written (a full disk) is an error, exit 1, never a panic nor a silent success; `-o -`
//! is standard output, not a file named `-`.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::process::{Command, Stdio};

use crate::util::*;

#[test]
fn a_name_that_is_not_utf8_is_written_as_it_is_and_recorded_for_a_shell() {
    let tmp = tempfile::tempdir().unwrap();
    let name = OsStr::from_bytes(b"fam\xff");
    let out = Command::new(BIN)
        .current_dir(tmp.path())
        .arg("family")
        .arg("-o")
        .arg(name)
        .args(["--dim", "4"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let dir = tmp.path().join(name);
    assert!(dir.is_dir(), "{:?}", names(tmp.path()));
    let manifest = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(v["command"], r"pq-sat family -o $'fam\xff' --dim 4", "{v}");
    // The same for cube's directory.
    let cubes = OsStr::from_bytes(b"cube\xe9");
    let out = Command::new(BIN)
        .current_dir(tmp.path())
        .args(["cube", "--dim", "6", "--n", "5", "--depth", "2", "-o"])
        .arg(cubes)
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(tmp.path().join(cubes).is_dir(), "{:?}", names(tmp.path()));
}

#[test]
fn text_that_cannot_be_written_is_an_error_not_a_panic_nor_a_success() {
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    for args in [
        &["--help"][..],
        &["--version"],
        &["solve", "-h"],
        &["completions", "bash"],
        &["encode", "--dim", "4", "--n", "2"],
    ] {
        let out = Command::new(BIN)
            .args(args)
            .stdout(full())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(code(&out), 1, "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains("No space left"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn dash_as_output_is_standard_output() {
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(BIN)
        .current_dir(tmp.path())
        .args(["encode", "--dim", "4", "--n", "2", "-o", "-"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("p cnf "), "{}", stdout(&out));
    assert!(names(tmp.path()).is_empty(), "{:?}", names(tmp.path()));
}

#[test]
fn race_reads_a_folder_of_links_and_names_that_are_not_utf8() {
    let tmp = tempfile::tempdir().unwrap();
    let (src, links, latin) = (
        tmp.path().join("src"),
        tmp.path().join("links"),
        tmp.path().join("latin"),
    );
    for dir in [&src, &links, &latin] {
        std::fs::create_dir(dir).unwrap();
    }
    encode_to("4", "2", &src.join("a.cnf"));
    encode_to("4", "3", &src.join("b.cnf"));
    for name in ["a.cnf", "b.cnf"] {
        std::os::unix::fs::symlink(src.join(name), links.join(name)).unwrap();
    }
    std::fs::copy(
        src.join("a.cnf"),
        latin.join(OsStr::from_bytes(b"caf\xe9.cnf")),
    )
    .unwrap();
    for (dir, sat, unsat) in [(&links, 1, 1), (&latin, 1, 0)] {
        let out = run(&["race", s(dir), "--backend", "kissat", "--format", "json"]);
        assert_eq!(code(&out), 0, "{}: {}", dir.display(), stderr(&out));
        let v = json(&out);
        let kissat = &v["solvers"][0];
        assert_eq!(kissat["sat"], sat, "{v}");
        assert_eq!(kissat["unsat"], unsat, "{v}");
    }
}
