//! The binary end to end: exit codes, standard input, several certificates.

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use common::{write, Cube, Spec, BLACK, WHITE};

fn pq_check(args: &[&str], stdin: Option<&[u8]>) -> (i32, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pq-check"));
    command
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    let mut child = command.spawn().expect("pq-check runs");
    if let Some(bytes) = stdin {
        child.stdin.take().unwrap().write_all(bytes).unwrap();
    }
    let Output { status, stdout, .. } = child.wait_with_output().unwrap();
    (
        status.code().expect("an exit code"),
        String::from_utf8(stdout).unwrap(),
    )
}

/// A file in the system's temporary directory, removed when dropped.
struct Temp(PathBuf);

impl Temp {
    fn new(name: &str, bytes: &[u8]) -> Temp {
        let path = std::env::temp_dir().join(format!("pq-check-cli-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        Temp(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn certificate(lo: u64, hi: u64) -> Vec<u8> {
    write(&Spec::new(5, 5, 5).rows(lo, hi), None)
        .unwrap()
        .bytes()
}

#[test]
fn a_valid_certificate_exits_0() {
    let file = Temp::new("valid", &certificate(0, 32));
    let (code, out) = pq_check(&[file.path()], None);
    assert_eq!(code, 0, "{out}");
    assert!(out.ends_with("s VERIFIED\n"), "{out}");
    assert!(
        out.contains("board 5x5, armies 5 white and 5 black"),
        "{out}"
    );
    assert!(out.contains("[0, 32) = all of [0, 2^5)"), "{out}");
    assert!(
        out.contains("5 white and 5 black queens cannot be placed on the 5x5 board"),
        "{out}"
    );
}

#[test]
fn a_part_exits_0_with_its_part_of_the_claim() {
    let file = Temp::new("cube", &certificate(3, 9));
    let (code, out) = pq_check(&[file.path()], None);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("[3, 9) = part of [0, 2^5)"), "{out}");
    assert!(!out.contains("cannot be placed"), "{out}");
}

#[test]
fn a_tampered_certificate_exits_1() {
    let mut bytes = certificate(0, 32);
    let end = bytes.len();
    bytes.truncate(end - 3);
    let file = Temp::new("cut", &bytes);
    let (code, out) = pq_check(&[file.path()], None);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("refused at byte offset"), "{out}");
    assert!(out.ends_with("s NOT VERIFIED\n"), "{out}");
}

#[test]
fn an_unreadable_file_or_a_bad_option_exits_2() {
    let missing = std::env::temp_dir().join(format!("pq-check-cli-{}-missing", std::process::id()));
    let (code, out) = pq_check(&[missing.to_str().unwrap()], None);
    assert_eq!(code, 2, "{out}");
    // A directory opens but cannot be read.
    let (code, _) = pq_check(&[std::env::temp_dir().to_str().unwrap()], None);
    assert_eq!(code, 2);
    let (code, _) = pq_check(&["--frobnicate"], None);
    assert_eq!(code, 2);
    // A good certificate with an unreadable one: still not verified, as a read error.
    let file = Temp::new("with-missing", &certificate(0, 32));
    let (code, out) = pq_check(&[file.path(), missing.to_str().unwrap()], None);
    assert_eq!(code, 2, "{out}");
    assert!(out.ends_with("s NOT VERIFIED\n"), "{out}");
}

#[test]
fn help_exits_0() {
    for flag in ["-h", "--help"] {
        let (code, out) = pq_check(&[flag], None);
        assert_eq!(code, 0);
        assert!(out.contains("usage: pq-check"), "{out}");
    }
}

#[test]
fn standard_input_is_read() {
    let bytes = certificate(0, 32);
    for args in [&["-"][..], &[]] {
        let (code, out) = pq_check(args, Some(&bytes));
        assert_eq!(code, 0, "{out}");
        assert!(out.ends_with("s VERIFIED\n"), "{out}");
    }
    let (code, out) = pq_check(&["-"], Some(&bytes[..bytes.len() - 1]));
    assert_eq!(code, 1, "{out}");
}

#[test]
fn parts_together_give_the_whole_claim() {
    let low = Temp::new("low", &certificate(0, 11));
    let high = Temp::new("high", &certificate(11, 32));
    let (code, out) = pq_check(&[high.path(), low.path()], None);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("together cover [0, 2^5)"), "{out}");
    assert!(
        out.contains("5 white and 5 black queens cannot be placed on the 5x5 board"),
        "{out}"
    );
    assert_eq!(out.matches("s VERIFIED").count(), 1, "{out}");
    // One range from standard input.
    let (code, out) = pq_check(&[low.path(), "-"], Some(&certificate(11, 32)));
    assert_eq!(code, 0, "{out}");
}

#[test]
fn parts_with_a_gap_or_other_armies_do_not() {
    let low = Temp::new("gap-low", &certificate(0, 11));
    let high = Temp::new("gap-high", &certificate(12, 32));
    let (code, out) = pq_check(&[low.path(), high.path()], None);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("[11, 12)"), "{out}");
    assert!(!out.contains("cannot be placed"), "{out}");
    assert!(out.ends_with("s NOT VERIFIED\n"), "{out}");
    let other = Temp::new(
        "other-armies",
        &write(&Spec::new(5, 3, 9).rows(11, 32), None)
            .unwrap()
            .bytes(),
    );
    let (code, out) = pq_check(&[low.path(), other.path()], None);
    assert_eq!(code, 1, "{out}");
    assert!(!out.contains("cannot be placed"), "{out}");
}

fn cube_certificate(rv: u32, label: u8) -> Vec<u8> {
    let cube = Cube::new((0b10001, rv), (0b100, 0), &[(0, 4, label), (1, 8, WHITE)]);
    write(&Spec::new(5, 5, 5).cube(cube), None).unwrap().bytes()
}

/// The report of a certificate, line by line: a whole one as before cubes existed, and a
/// cube's with its cube (the header's line after `; `) and its part of the claim.
#[test]
fn the_report_is_exactly_this() {
    let whole = certificate(0, 32);
    let cert = write(&Spec::new(5, 5, 5), None).unwrap();
    let counts = format!("c pairs {} nodes {}", cert.trees.len(), cert.nodes());
    let (code, out) = pq_check(&[], Some(&whole));
    assert_eq!(code, 0);
    assert_eq!(
        out,
        format!(
            "c certificate -\n\
             c board 5x5, armies 5 white and 5 black (group of order 16), row sets S in [0, 32) \
             = all of [0, 2^5)\n\
             {counts}\n\
             c verified: 5 white and 5 black queens cannot be placed on the 5x5 board without a \
             queen attacking one of the other colour\n\
             s VERIFIED\n"
        )
    );
    let cube = Cube::new((0b10001, 1), (0b100, 0), &[(0, 4, BLACK), (1, 8, WHITE)]);
    let cert = write(&Spec::new(5, 5, 5).cube(cube.clone()), None).unwrap();
    assert_eq!(cube.line(), "cube 17 1 4 0 0:4:B 1:8:W");
    let (code, out) = pq_check(&["-"], Some(&cert.bytes()));
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        out,
        format!(
            "c certificate -\n\
             c board 5x5, armies 5 white and 5 black (group of order 16), row sets S in [0, 32) \
             = all of [0, 2^5); cube 17 1 4 0 0:4:B 1:8:W\n\
             c pairs {} nodes {}\n\
             c verified: no labelling that agrees with the cube and whose least pair has its \
             white rows S in [0, 32) has at least 5 white and 5 black cells (a cube's part of \
             the claim)\n\
             s VERIFIED\n",
            cert.trees.len(),
            cert.nodes()
        )
    );
}

#[test]
fn cubes_never_count_toward_the_cover() {
    // Cubes of every assignment of rows 0 and 4 and of diagonal 4 of family 0, diagonal 8 of
    // family 1 always W: not every labelling, but even all of them would not count.
    let mut files = Vec::new();
    for rv in [0, 1, 16, 17] {
        for label in [WHITE, BLACK] {
            files.push(Temp::new(
                &format!("cube-{rv}-{label}"),
                &cube_certificate(rv, label),
            ));
        }
    }
    let paths: Vec<&str> = files.iter().map(Temp::path).collect();
    for one in &paths {
        let (code, out) = pq_check(&[one], None);
        assert_eq!(code, 0, "{out}");
    }
    let (code, out) = pq_check(&paths, None);
    assert_eq!(code, 1, "{out}");
    for path in &paths {
        assert!(
            out.contains(&format!(
                "c {path} is a cube's certificate: it does not count toward the cover of \
                 [0, 2^5) (that cubes cover every labelling is not for pq-check to see)\n"
            )),
            "{out}"
        );
    }
    assert!(
        out.contains("no certificate without a cube covers the row sets S in [0, 32)"),
        "{out}"
    );
    assert!(!out.contains("cannot be placed"), "{out}");
    assert!(out.ends_with("s NOT VERIFIED\n"), "{out}");
    // With parts that cover [0, 2^D), the claim is theirs; the cube is checked, not counted.
    let low = Temp::new("cover-low", &certificate(0, 11));
    let high = Temp::new("cover-high", &certificate(11, 32));
    let (code, out) = pq_check(&[paths[0], low.path(), high.path()], None);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.matches("is a cube's certificate").count(), 1, "{out}");
    assert!(out.contains("cannot be placed on the 5x5 board"), "{out}");
    // A cube with one part only: the gap is still a gap.
    let (code, out) = pq_check(&[paths[0], low.path()], None);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("[11, 32)"), "{out}");
    // A refused cube is refused as any certificate.
    let mut bytes = cube_certificate(0, WHITE);
    let flipped = String::from_utf8_lossy(&bytes).replacen("0:4:W", "0:4:B", 1);
    bytes = flipped.into_bytes();
    let (code, out) = pq_check(&["-"], Some(&bytes));
    assert_eq!(code, 1, "{out}");
}
