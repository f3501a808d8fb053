//! The binary end to end: the report, its statuses and exit codes (whole, part, cube, not
//! verified), standard input, several certificates, `--expect`.

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use common::{fits, write, Cube, Spec, BLACK, WHITE};

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

/// The last lines of a report.
fn tail(out: &str, lines: usize) -> Vec<&str> {
    let all: Vec<&str> = out.lines().collect();
    all[all.len().saturating_sub(lines)..].to_vec()
}

/// The last `c claim:` line and the status line.
fn verdict(out: &str) -> (&str, &str) {
    let claim = out
        .lines()
        .rfind(|line| line.starts_with("c claim: "))
        .expect("a claim line");
    let status = out.lines().last().expect("a status line");
    (claim, status)
}

#[test]
fn a_whole_certificate_is_verified_exit_0() {
    let file = Temp::new("valid", &certificate(0, 32));
    let (code, out) = pq_check(&[file.path()], None);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        verdict(&out),
        ("c claim: board square 5 armies 5 5", "s VERIFIED"),
        "{out}"
    );
    assert!(
        out.contains("c claim: board square 5 armies 5 5 rows 0 32 rules weights 1:1\n"),
        "{out}"
    );
    assert!(
        out.contains("5 white and 5 black queens cannot be placed on the 5x5 board"),
        "{out}"
    );
}

#[test]
fn a_part_is_part_verified_exit_3() {
    let file = Temp::new("part", &certificate(3, 9));
    let (code, out) = pq_check(&[file.path()], None);
    assert_eq!(code, 3, "{out}");
    assert_eq!(
        tail(&out, 3),
        [
            "c claim: board square 5 armies 5 5 rows 3 9",
            "c missing: rows 0 3 9 32",
            "s PART VERIFIED"
        ],
        "{out}"
    );
    assert!(
        out.contains("c claim: board square 5 armies 5 5 rows 3 9 rules weights 1:1\n"),
        "{out}"
    );
    assert!(!out.contains("cannot be placed"), "{out}");
    assert!(!out.contains("s VERIFIED"), "{out}");
    // A part that reaches one end only.
    for (lo, hi, claim, missing) in [
        (0, 31, "rows 0 31", "rows 31 32"),
        (1, 32, "rows 1 32", "rows 0 1"),
    ] {
        let file = Temp::new("end", &certificate(lo, hi));
        let (code, out) = pq_check(&[file.path()], None);
        assert_eq!(code, 3, "{out}");
        assert_eq!(
            tail(&out, 3),
            [
                format!("c claim: board square 5 armies 5 5 {claim}").as_str(),
                &format!("c missing: {missing}"),
                "s PART VERIFIED"
            ],
            "{out}"
        );
    }
}

#[test]
fn an_empty_range_is_part_verified_with_no_rows() {
    for (lo, hi) in [(0, 0), (17, 17), (32, 32)] {
        let file = Temp::new("empty", &certificate(lo, hi));
        let (code, out) = pq_check(&[file.path()], None);
        assert_eq!(code, 3, "{out}");
        assert!(
            out.contains(&format!(
                "c claim: board square 5 armies 5 5 rows {lo} {hi} rules weights 1:1\n\
                 c pairs 0 nodes 0\n"
            )),
            "{out}"
        );
        assert_eq!(
            tail(&out, 3),
            [
                "c claim: board square 5 armies 5 5 rows",
                "c missing: rows 0 32",
                "s PART VERIFIED"
            ],
            "{out}"
        );
    }
}

#[test]
fn a_tampered_certificate_is_not_verified_exit_1() {
    let mut bytes = certificate(0, 32);
    let end = bytes.len();
    bytes.truncate(end - 3);
    let file = Temp::new("cut", &bytes);
    let (code, out) = pq_check(&[file.path()], None);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("refused at byte offset"), "{out}");
    assert_eq!(verdict(&out), ("c claim: none", "s NOT VERIFIED"), "{out}");
    // With a good certificate of the whole claim beside it: still not verified.
    let good = Temp::new("cut-good", &certificate(0, 32));
    let (code, out) = pq_check(&[good.path(), file.path()], None);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("c 1 of 2 certificates not verified"), "{out}");
    assert_eq!(verdict(&out), ("c claim: none", "s NOT VERIFIED"), "{out}");
}

#[test]
fn an_unreadable_file_or_a_bad_option_exits_2() {
    let missing = std::env::temp_dir().join(format!("pq-check-cli-{}-missing", std::process::id()));
    let missing = missing.to_str().unwrap();
    let (code, out) = pq_check(&[missing], None);
    assert_eq!(code, 2, "{out}");
    assert_eq!(verdict(&out), ("c claim: none", "s NOT VERIFIED"), "{out}");
    // A directory opens but cannot be read.
    let (code, _) = pq_check(&[std::env::temp_dir().to_str().unwrap()], None);
    assert_eq!(code, 2);
    // Usage errors: no report at all.
    for args in [
        &["--frobnicate"][..],
        &["--expect"],
        &["--expect", "board square 5"],
        &["--expect=board square 5 armies 5 05"],
        &["--expect=board square 5 armies 5 5 "],
        &["--expect", "board  square 5 armies 5 5"],
        &["--expect", "Board square 5 armies 5 5"],
        &["--expect=", "-"],
        &[
            "--expect",
            "board square 5 armies 5 5",
            "--expect=board square 5 armies 5 5",
            "-",
        ],
    ] {
        let (code, out) = pq_check(args, None);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
    // A good certificate with an unreadable one: still not verified, as a read error.
    let file = Temp::new("with-missing", &certificate(0, 32));
    let (code, out) = pq_check(&[file.path(), missing], None);
    assert_eq!(code, 2, "{out}");
    assert_eq!(verdict(&out), ("c claim: none", "s NOT VERIFIED"), "{out}");
    // A refused one besides: the refusal decides.
    let mut cut = certificate(0, 32);
    cut.pop();
    let cut = Temp::new("with-missing-cut", &cut);
    let (code, out) = pq_check(&[file.path(), missing, cut.path()], None);
    assert_eq!(code, 1, "{out}");
}

#[test]
fn help_names_the_statuses_and_exit_codes() {
    for flag in ["-h", "--help"] {
        let (code, out) = pq_check(&[flag], None);
        assert_eq!(code, 0);
        assert!(out.contains("usage: pq-check"), "{out}");
        for words in [
            "--expect",
            "s VERIFIED       0",
            "s PART VERIFIED  3",
            "s CUBE VERIFIED  4",
            "s NOT VERIFIED   1",
            "s NOT VERIFIED   2",
            "c missing: rows",
        ] {
            assert!(out.contains(words), "{words:?} not in {out}");
        }
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
    assert!(out.contains("together they cover [0, 2^5)"), "{out}");
    assert!(
        out.contains("5 white and 5 black queens cannot be placed on the 5x5 board"),
        "{out}"
    );
    assert_eq!(
        verdict(&out),
        ("c claim: board square 5 armies 5 5", "s VERIFIED"),
        "{out}"
    );
    assert_eq!(out.matches("s VERIFIED").count(), 1, "{out}");
    // One range from standard input; overlapping ranges and an empty one change nothing.
    let (code, out) = pq_check(&[low.path(), "-"], Some(&certificate(11, 32)));
    assert_eq!(code, 0, "{out}");
    let over = Temp::new("over", &certificate(5, 20));
    let empty = Temp::new("over-empty", &certificate(3, 3));
    let (code, out) = pq_check(&[over.path(), empty.path(), high.path(), low.path()], None);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn parts_with_a_gap_are_part_verified() {
    let low = Temp::new("gap-low", &certificate(0, 11));
    let high = Temp::new("gap-high", &certificate(12, 32));
    let (code, out) = pq_check(&[low.path(), high.path()], None);
    assert_eq!(code, 3, "{out}");
    assert_eq!(
        tail(&out, 3),
        [
            "c claim: board square 5 armies 5 5 rows 0 11 12 32",
            "c missing: rows 11 12",
            "s PART VERIFIED"
        ],
        "{out}"
    );
    assert!(!out.contains("cannot be placed"), "{out}");
    // Touching ranges are one interval; the union is in increasing order.
    let middle = Temp::new("gap-middle", &certificate(11, 20));
    let (code, out) = pq_check(&[middle.path(), low.path()], None);
    assert_eq!(code, 3, "{out}");
    assert_eq!(
        tail(&out, 3),
        [
            "c claim: board square 5 armies 5 5 rows 0 20",
            "c missing: rows 20 32",
            "s PART VERIFIED"
        ],
        "{out}"
    );
    let a = Temp::new("gap-a", &certificate(25, 27));
    let b = Temp::new("gap-b", &certificate(2, 9));
    let (code, out) = pq_check(&[a.path(), b.path(), middle.path()], None);
    assert_eq!(code, 3, "{out}");
    assert_eq!(
        tail(&out, 3),
        [
            "c claim: board square 5 armies 5 5 rows 2 9 11 20 25 27",
            "c missing: rows 0 2 9 11 20 25 27 32",
            "s PART VERIFIED"
        ],
        "{out}"
    );
}

#[test]
fn files_that_disagree_prove_nothing() {
    let low = Temp::new("disagree-low", &certificate(0, 11));
    let high = Temp::new("disagree-high", &certificate(11, 32));
    let other_armies = Temp::new(
        "other-armies",
        &write(&Spec::new(5, 3, 9).rows(11, 32), None)
            .unwrap()
            .bytes(),
    );
    let other_board = Temp::new(
        "other-board",
        &write(&Spec::new(6, 6, 6).rows(11, 64), None)
            .unwrap()
            .bytes(),
    );
    for other in [&other_armies, &other_board] {
        let (code, out) = pq_check(&[low.path(), high.path(), other.path()], None);
        assert_eq!(code, 1, "{out}");
        assert!(out.contains("c the certificates disagree"), "{out}");
        assert_eq!(verdict(&out), ("c claim: none", "s NOT VERIFIED"), "{out}");
        assert!(!out.contains("cannot be placed"), "{out}");
    }
}

fn cube_certificate(rv: u32, label: u8) -> Vec<u8> {
    let cube = Cube::new((0b10001, rv), (0b100, 0), &[(0, 4, label), (1, 8, WHITE)]);
    write(&Spec::new(5, 5, 5).cube(cube), None).unwrap().bytes()
}

/// The report of a certificate, line by line: of the whole claim, of a cube, and of one with
/// paired cells (its rules name the `paired` line).
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
             c claim: board square 5 armies 5 5 rows 0 32 rules weights 1:1\n\
             {counts}\n\
             c verified: 5 white and 5 black queens cannot be placed on the 5x5 board without a \
             queen attacking one of the other colour\n\
             c claim: board square 5 armies 5 5\n\
             s VERIFIED\n"
        )
    );
    let cube = Cube::new((0b10001, 1), (0b100, 0), &[(0, 4, BLACK), (1, 8, WHITE)]);
    let cert = write(&Spec::new(5, 5, 5).cube(cube.clone()), None).unwrap();
    assert_eq!(cube.line(), "cube 17 1 4 0 0:4:B 1:8:W");
    let (code, out) = pq_check(&["-"], Some(&cert.bytes()));
    assert_eq!(code, 4, "{out}");
    assert_eq!(
        out,
        format!(
            "c certificate -\n\
             c claim: board square 5 armies 5 5 rows 0 32 cube 17 1 4 0 0:4:B 1:8:W rules \
             weights 1:1\n\
             c pairs {} nodes {}\n\
             c verified: no labelling that agrees with the cube and whose least pair has its \
             white rows S in [0, 32) has at least 5 white and 5 black cells (a cube's part of \
             the claim)\n\
             c claim: board square 5 armies 5 5 cubes 1\n\
             s CUBE VERIFIED\n",
            cert.trees.len(),
            cert.nodes()
        )
    );
    let spec = Spec::new(6, 6, 6)
        .weights(&[(1, 1), (1, 2)])
        .paired(&[(1, 1), (2, 1)])
        .rows(3, 40)
        .cube(Cube::new((1, 0), (0, 0), &[(1, 10, BLACK)]));
    let cert = write(&spec, None).unwrap();
    let (code, out) = pq_check(&["-"], Some(&cert.bytes()));
    assert_eq!(code, 4, "{out}");
    assert!(
        out.contains(
            "\nc claim: board square 6 armies 6 6 rows 3 40 cube 1 0 0 0 1:10:B rules weights \
             1:1 1:2 paired 1:1 2:1\n"
        ),
        "{out}"
    );
    let cert = write(&Spec::new(6, 6, 6).paired(&[(1, 1)]).rows(0, 64), None).unwrap();
    let (code, out) = pq_check(&["-"], Some(&cert.bytes()));
    assert_eq!(code, 0, "{out}");
    assert!(
        out.starts_with(
            "c certificate -\nc claim: board square 6 armies 6 6 rows 0 64 rules weights 1:1 \
             paired 1:1\n"
        ),
        "{out}"
    );
}

#[test]
fn cubes_alone_are_cube_verified_and_never_count_toward_the_cover() {
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
        assert_eq!(code, 4, "{out}");
        assert_eq!(
            verdict(&out),
            (
                "c claim: board square 5 armies 5 5 cubes 1",
                "s CUBE VERIFIED"
            ),
            "{out}"
        );
    }
    let (code, out) = pq_check(&paths, None);
    assert_eq!(code, 4, "{out}");
    for path in &paths {
        assert!(
            out.contains(&format!(
                "c {path} is a cube's certificate: it does not count toward the cover of \
                 [0, 2^5) (that cubes cover every labelling is not for pq-check to see)\n"
            )),
            "{out}"
        );
    }
    assert!(!out.contains("cannot be placed"), "{out}");
    assert_eq!(
        verdict(&out),
        (
            "c claim: board square 5 armies 5 5 cubes 8",
            "s CUBE VERIFIED"
        ),
        "{out}"
    );
    // With parts that cover [0, 2^D), the claim is theirs; the cube is checked, not counted.
    let low = Temp::new("cover-low", &certificate(0, 11));
    let high = Temp::new("cover-high", &certificate(11, 32));
    let (code, out) = pq_check(&[paths[0], low.path(), high.path()], None);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.matches("is a cube's certificate").count(), 1, "{out}");
    assert!(out.contains("cannot be placed on the 5x5 board"), "{out}");
    assert!(
        out.ends_with("c claim: board square 5 armies 5 5\ns VERIFIED\n"),
        "{out}"
    );
    // A cube with one part only: the gap is still a gap, and the cube is no part of it.
    let (code, out) = pq_check(&[paths[0], low.path()], None);
    assert_eq!(code, 3, "{out}");
    assert_eq!(
        tail(&out, 3),
        [
            "c claim: board square 5 armies 5 5 rows 0 11",
            "c missing: rows 11 32",
            "s PART VERIFIED"
        ],
        "{out}"
    );
    // A refused cube is refused as any certificate.
    let mut bytes = cube_certificate(0, WHITE);
    let flipped = String::from_utf8_lossy(&bytes).replacen("0:4:W", "0:4:B", 1);
    bytes = flipped.into_bytes();
    let (code, out) = pq_check(&["-"], Some(&bytes));
    assert_eq!(code, 1, "{out}");
    assert_eq!(verdict(&out), ("c claim: none", "s NOT VERIFIED"), "{out}");
}

#[test]
fn expect_demands_the_board_and_the_armies() {
    let whole = Temp::new("expect-whole", &certificate(0, 32));
    let part = Temp::new("expect-part", &certificate(0, 20));
    let cube = Temp::new("expect-cube", &cube_certificate(1, BLACK));
    // Matching: the status is what it would be without --expect.
    for (file, status, exit) in [
        (&whole, "s VERIFIED", 0),
        (&part, "s PART VERIFIED", 3),
        (&cube, "s CUBE VERIFIED", 4),
    ] {
        for args in [
            &["--expect", "board square 5 armies 5 5", file.path()][..],
            &["--expect=board square 5 armies 5 5", file.path()],
            &[file.path(), "--expect", "board square 5 armies 5 5"],
        ] {
            let (code, out) = pq_check(args, None);
            assert_eq!(code, exit, "{args:?}: {out}");
            assert!(out.ends_with(&format!("{status}\n")), "{out}");
            assert!(!out.contains("c expected"), "{out}");
        }
    }
    // Not matching: another board, other armies, or armies whose words merely begin alike.
    let black = (10..=16).find(|&black| !fits(4, 1, black)).unwrap();
    assert_eq!(black, 10);
    let uneven = Temp::new(
        "expect-uneven",
        &write(&Spec::new(4, 1, 10), None).unwrap().bytes(),
    );
    for (file, expected) in [
        (&whole, "board square 5 armies 5 4"),
        (&whole, "board square 5 armies 4 5"),
        (&whole, "board square 6 armies 5 5"),
        (&part, "board square 5 armies 6 6"),
        (&cube, "board square 4 armies 5 5"),
        (&uneven, "board square 4 armies 1 1"),
        (&uneven, "board square 4 armies 10 1"),
    ] {
        let (code, out) = pq_check(&["--expect", expected, file.path()], None);
        assert_eq!(code, 1, "{expected}: {out}");
        let claim = out
            .lines()
            .find_map(|line| line.strip_prefix("c claim: "))
            .unwrap();
        assert!(
            out.contains(&format!(
                "\nc expected {expected}, {} claims {claim}\n",
                file.path()
            )),
            "{out}"
        );
        assert_eq!(verdict(&out), ("c claim: none", "s NOT VERIFIED"), "{out}");
    }
    let (code, out) = pq_check(
        &["--expect", "board square 4 armies 1 10", uneven.path()],
        None,
    );
    assert_eq!(code, 0, "{out}");
    // One file of several not matching is enough; parts that match still combine.
    let high = Temp::new("expect-high", &certificate(20, 32));
    let expect = ["--expect", "board square 5 armies 5 5"];
    let (code, out) = pq_check(&[&expect[..], &[part.path(), high.path()]].concat(), None);
    assert_eq!(code, 0, "{out}");
    let (code, out) = pq_check(
        &[&expect[..], &[part.path(), uneven.path(), high.path()]].concat(),
        None,
    );
    assert_eq!(code, 1, "{out}");
    assert_eq!(out.matches("c expected").count(), 1, "{out}");
}

fn torus_certificate(lo: u64, hi: u64) -> Vec<u8> {
    write(&Spec::torus(6, 5, 5).rows(lo, hi), None)
        .unwrap()
        .bytes()
}

/// A torus certificate's report names the torus in every claim line and in the verdict.
#[test]
fn a_torus_certificate_claims_the_torus() {
    let cert = write(&Spec::torus(6, 5, 5), None).unwrap();
    let (code, out) = pq_check(&[], Some(&cert.bytes()));
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        out,
        format!(
            "c certificate -\n\
             c claim: board torus 6 armies 5 5 rows 0 64 rules weights 1:2 2:1 3:4 4:3\n\
             c pairs {} nodes {}\n\
             c verified: 5 white and 5 black queens cannot be placed on the 6x6 torus without a \
             queen attacking one of the other colour\n\
             c claim: board torus 6 armies 5 5\n\
             s VERIFIED\n",
            cert.trees.len(),
            cert.nodes()
        )
    );
    let low = Temp::new("torus-low", &torus_certificate(0, 21));
    let (code, out) = pq_check(&[low.path()], None);
    assert_eq!(code, 3, "{out}");
    assert_eq!(
        tail(&out, 3),
        [
            "c claim: board torus 6 armies 5 5 rows 0 21",
            "c missing: rows 21 64",
            "s PART VERIFIED"
        ],
        "{out}"
    );
    let high = Temp::new("torus-high", &torus_certificate(21, 64));
    let (code, out) = pq_check(&[high.path(), low.path()], None);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.ends_with("c claim: board torus 6 armies 5 5\ns VERIFIED\n"),
        "{out}"
    );
    // The square board of the same side and armies is another claim (an empty range of it:
    // 5 and 5 fit on the 6 x 6 board).
    let square = Temp::new(
        "square-empty",
        &write(&Spec::new(6, 5, 5).rows(64, 64), None)
            .unwrap()
            .bytes(),
    );
    let (code, out) = pq_check(&[low.path(), square.path()], None);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("c the certificates disagree"), "{out}");
    assert_eq!(verdict(&out), ("c claim: none", "s NOT VERIFIED"), "{out}");
}

#[test]
fn expect_demands_the_torus() {
    let torus = Temp::new("expect-torus", &torus_certificate(0, 64));
    let square = Temp::new("expect-square", &certificate(0, 32));
    let (code, out) = pq_check(
        &["--expect", "board torus 6 armies 5 5", torus.path()],
        None,
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.ends_with("s VERIFIED\n"), "{out}");
    for (file, expected) in [
        (&torus, "board square 6 armies 5 5"),
        (&torus, "board torus 7 armies 5 5"),
        (&torus, "board torus 6 armies 5 4"),
        (&square, "board torus 5 armies 5 5"),
    ] {
        let (code, out) = pq_check(&["--expect", expected, file.path()], None);
        assert_eq!(code, 1, "{expected}: {out}");
        assert!(out.contains(&format!("\nc expected {expected}, ")), "{out}");
        assert_eq!(verdict(&out), ("c claim: none", "s NOT VERIFIED"), "{out}");
    }
    let (_, help) = pq_check(&["--help"], None);
    assert!(help.contains("The board is `square` or `torus`"), "{help}");
    for bad in [
        "board torus armies 5 5",
        "board torus 06 armies 5 5",
        "board round 6 armies 5 5",
    ] {
        let (code, _) = pq_check(&["--expect", bad, torus.path()], None);
        assert_eq!(code, 2, "{bad}");
    }
}
