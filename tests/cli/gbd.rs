//! GBD ids. `pq-sat hash` and the family manifest give each CNF file the hash of the Global
//! Benchmark Database, and it must be GBD's own value: checked against values GBD's tool
//! computed (recorded here, always) and against the tool itself when it is installed
//! (`gbd-tools` from PyPI, by scripts/setup.sh; its `gbdc` module computes the hash).

use std::fs;
use std::path::Path;
use std::process::Command;

use md5::{Digest, Md5};
use serde_json::Value;

use crate::util::{code, encode_to, json, run, stderr, stdout};

/// Hand-written edge cases and the hash GBD's tool (gbdc 0.4.3, `gbdc.gbdhash`) gives each.
const EDGE_CASES: &[(&str, &str, &str)] = &[
    (
        "plain.cnf",
        "c hi\np cnf 3 2\n1 -2 0\n2 3 0\n",
        "5c199826eee734c6484e691f3c129214",
    ),
    (
        "spaces.cnf",
        "c hi\n  p cnf 3 2  \n\n   1    -2\t0   \n\t2 3 0\n\n",
        "5c199826eee734c6484e691f3c129214",
    ),
    (
        "over-lines.cnf",
        "p cnf 3 2\n1\n-2\n0 2\n3 0\n",
        "5c199826eee734c6484e691f3c129214",
    ),
    (
        "crlf.cnf",
        "p cnf 3 2\r\n1 -2 0\r\nc mid\r\n2 3 0\r\n",
        "5c199826eee734c6484e691f3c129214",
    ),
    (
        "no-final-zero.cnf",
        "p cnf 3 2\n1 -2 0\n2 3\n",
        "5c199826eee734c6484e691f3c129214",
    ),
    // GBD drops a last token that no whitespace ends once a header line was in its block.
    (
        "no-final-newline.cnf",
        "p cnf 3 2\n1 -2 0\n2 3",
        "177c0b03f0c47b5f973797b2f46c901d",
    ),
    (
        "percent-at-the-end.cnf",
        "p cnf 2 1\n1 -2 0\n%",
        "3e0b9e6973f86f9c52f647508794b979",
    ),
    (
        "signs-and-zeros.cnf",
        "p cnf 3 2\n+1 - 2 0\n02 3 0\n",
        "ad1b394852b58f03c14d5bf14b31fd95",
    ),
    (
        "minus-zero.cnf",
        "p cnf 3 2\n1 -0 0\n",
        "745d9147e3d00fc514667ffc28dc62f3",
    ),
    (
        "empty-clause.cnf",
        "p cnf 3 1\n0\n1 0\n",
        "682b4e1fd6c283c150d48c35f9b5cbe4",
    ),
    (
        "vertical-tab.cnf",
        "p cnf 3 2\n1 2 0\n\x0b\x0c3 0\n",
        "4b84906ad2b6a045b7e66d79ae1454b7",
    ),
    (
        "no-clauses.cnf",
        "p cnf 0 0\n",
        "d41d8cd98f00b204e9800998ecf8427e",
    ),
];

/// Files GBD's tool refuses, and the part of pq-sat's message that says why.
const REFUSED: &[(&str, &str, &str)] = &[
    (
        "percent-end-marker.cnf",
        "p cnf 3 2\n1 -2 0\n2 3 0\n%\n0\n",
        "'%' where a literal belongs",
    ),
    (
        "comment-inside-a-clause.cnf",
        "p cnf 3 2\n1 2\nc inside\n3 0\n",
        "'c' where a literal belongs",
    ),
    ("empty.cnf", "", "the file is empty"),
];

/// GBD's hash of each file by GBD's own tool, or `None` when it is not installed.
fn gbd_tool(files: &[&Path]) -> Option<Vec<String>> {
    let script = "import sys\nfrom gbdc import gbdhash\nfor f in sys.argv[1:]:\n    try:\n        print(gbdhash(f))\n    except Exception as e:\n        print('refused')\n";
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(files)
        .output()
        .ok()?;
    if !out.status.success() {
        eprintln!(
            "GBD's tool (python3 -m pip install gbd-tools) is not installed: compared with recorded values only"
        );
        return None;
    }
    Some(stdout_lines(&out.stdout))
}

fn stdout_lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8(bytes.to_vec())
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// `pq-sat hash --format json` of `files`: (gbd, sha256) of each.
fn pq_hash(files: &[&Path]) -> Vec<(String, String)> {
    let mut args = vec!["hash", "--format", "json"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let out = run(&args);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let all = json(&out);
    let all = all.as_array().unwrap();
    assert_eq!(all.len(), files.len());
    all.iter()
        .zip(files)
        .map(|(ids, file)| {
            assert_eq!(ids["file"], file.to_str().unwrap());
            let hex = |k: &str| ids[k].as_str().unwrap().to_string();
            (hex("gbd"), hex("sha256"))
        })
        .collect()
}

/// The GBD hash of a well-formed file, by its definition: the MD5 of the clause list with
/// comment and header lines dropped, tokens separated by single spaces.
fn normalised_md5(text: &str) -> String {
    let tokens: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with(['c', 'p']))
        .flat_map(str::split_whitespace)
        .collect();
    format!("{:x}", Md5::digest(tokens.join(" ").as_bytes()))
}

/// A large text (several of GBD's 16 KiB blocks) from a fixed seed: clauses of 1 to 5
/// literals spread over lines in every way DIMACS allows, comment lines in the first part
/// only, ending with `tail`.
fn large(seed: u64, tail: &str) -> String {
    let mut state = seed;
    let mut next = |m: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % m
    };
    let mut text = String::from("c generated\np cnf 999 5000\n");
    for i in 0..5000 {
        if i < 600 && next(40) == 0 {
            text += &format!("\nc comment {}\n", "ab ".repeat(next(30) as usize));
        }
        for _ in 0..=next(5) {
            let lit = next(999) + 1;
            let sign = if next(2) == 0 { "-" } else { "" };
            text += &format!("{sign}{lit}");
            text += ["\n", " ", "  ", "\t"][next(4) as usize];
        }
        text += "0";
        text += ["\n", " ", "\r\n", "\n\n"][next(4) as usize];
    }
    text + tail
}

/// Large texts and the hashes GBD's tool gives them (checked against the tool when it is
/// installed, by [`pq_sat_agrees_with_gbds_tool`]).
fn large_cases() -> Vec<(&'static str, String, &'static str)> {
    vec![
        (
            "large.cnf",
            large(1, ""),
            "242e1cb4e9e6bdb6c04292fc94ff913e",
        ),
        (
            "large-unterminated.cnf",
            large(2, "7 -8"),
            "147dfdd9a1d481c3444499be94788062",
        ),
        (
            "large-comment-in-last-block.cnf",
            large(3, "\nc last\n7 -8"),
            "15f5c2ed2f89a9c3babcbc1944b52f59",
        ),
    ]
}

#[test]
fn hash_gives_gbds_recorded_values_for_edge_cases() {
    let tmp = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    let mut expected = Vec::new();
    for (name, text, gbd) in EDGE_CASES {
        let path = tmp.path().join(name);
        fs::write(&path, text).unwrap();
        files.push(path);
        expected.push(gbd.to_string());
    }
    for (name, text, gbd) in large_cases() {
        let path = tmp.path().join(name);
        fs::write(&path, text).unwrap();
        files.push(path);
        expected.push(gbd.to_string());
    }
    let files: Vec<&Path> = files.iter().map(std::path::PathBuf::as_path).collect();
    let ids = pq_hash(&files);
    let mut wrong = Vec::new();
    for ((file, (gbd, sha256)), want) in files.iter().zip(&ids).zip(&expected) {
        if gbd != want {
            wrong.push(format!("{}: {gbd}, GBD says {want}", file.display()));
        }
        let bytes = fs::read(file).unwrap();
        assert_eq!(sha256, &pq_io::hashing::sha256_hex(&bytes));
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    // The large texts end as meant: a well-formed file is its normalised list; a last
    // clause without 0 is ended by GBD; its last token is dropped when a comment line ends
    // in the last block.
    let cases = large_cases();
    assert_eq!(cases[0].2, normalised_md5(&cases[0].1));
    assert_eq!(cases[1].2, normalised_md5(&(cases[1].1.clone() + " 0")));
    let cut = cases[2].1.strip_suffix("-8").unwrap().to_string() + "0";
    assert_eq!(cases[2].2, normalised_md5(&cut));
}

#[test]
fn hash_refuses_what_gbd_refuses() {
    let tmp = tempfile::tempdir().unwrap();
    for (name, text, why) in REFUSED {
        let path = tmp.path().join(name);
        fs::write(&path, text).unwrap();
        let out = run(&["hash", path.to_str().unwrap()]);
        assert_eq!(code(&out), 1, "{name}");
        let e = stderr(&out);
        assert!(e.contains(why) && e.contains(name), "{name}: {e}");
        assert_eq!(e.lines().count(), 1, "one line: {e}");
        assert!(stdout(&out).is_empty());
    }
    let out = run(&["hash", tmp.path().join("absent.cnf").to_str().unwrap()]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("cannot read"), "{}", stderr(&out));
}

#[test]
fn compressed_files_have_the_gbd_hash_of_their_text() {
    let tmp = tempfile::tempdir().unwrap();
    let names = ["q.cnf", "q.cnf.xz", "q.cnf.gz", "q.cnf.bz2"];
    for name in names {
        let path = tmp.path().join(name);
        encode_to("5", "4", &path);
    }
    let paths: Vec<_> = names.iter().map(|n| tmp.path().join(n)).collect();
    let files: Vec<&Path> = paths.iter().map(std::path::PathBuf::as_path).collect();
    let ids = pq_hash(&files);
    let text = fs::read_to_string(&paths[0]).unwrap();
    for ((gbd, sha256), path) in ids.iter().zip(&paths) {
        assert_eq!(gbd, &normalised_md5(&text), "{}", path.display());
        // The SHA-256 is of the bytes as stored, as sha256sum gives it.
        assert_eq!(
            sha256,
            &pq_io::hashing::sha256_hex(&fs::read(path).unwrap())
        );
    }
    // Text: one line per file, GBD hash, SHA-256, name.
    let out = run(&[
        "hash",
        files[0].to_str().unwrap(),
        files[1].to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let lines = stdout_lines(&out.stdout);
    assert_eq!(
        lines,
        (0..2)
            .map(|i| format!("{}  {}  {}", ids[i].0, ids[i].1, files[i].display()))
            .collect::<Vec<_>>()
    );
}

#[test]
fn family_manifests_carry_each_files_gbd_hash() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("fam");
    let out = run(&[
        "family",
        "--dim",
        "4,5",
        "--around-optimum",
        "1",
        "-o",
        dir.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let manifest: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let instances = manifest["instances"].as_array().unwrap();
    assert_eq!(instances.len(), 4);
    let paths: Vec<_> = instances
        .iter()
        .map(|e| dir.join(e["file"].as_str().unwrap()))
        .collect();
    let files: Vec<&Path> = paths.iter().map(std::path::PathBuf::as_path).collect();
    let ids = pq_hash(&files);
    for ((entry, (gbd, sha256)), path) in instances.iter().zip(&ids).zip(&paths) {
        assert_eq!(entry["gbd"], gbd.as_str(), "{}", path.display());
        assert_eq!(entry["sha256"], sha256.as_str());
        assert_eq!(gbd, &normalised_md5(&fs::read_to_string(path).unwrap()));
    }
    // The CSV has the column right after sha256, with the same values.
    let csv = fs::read_to_string(dir.join("manifest.csv")).unwrap();
    let mut rows = csv.lines();
    assert!(rows.next().unwrap().ends_with(",sha256,gbd"), "{csv}");
    for (row, (gbd, sha256)) in rows.zip(&ids) {
        assert!(row.ends_with(&format!(",{sha256},{gbd}")), "{row}");
    }
}

#[test]
fn pq_sat_agrees_with_gbds_tool() {
    let tmp = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    for (name, text, _) in EDGE_CASES.iter().chain(REFUSED) {
        let path = tmp.path().join(name);
        fs::write(&path, text).unwrap();
        paths.push(path);
    }
    for (name, text, _) in large_cases() {
        let path = tmp.path().join(name);
        fs::write(&path, text).unwrap();
        paths.push(path);
    }
    for (name, args) in [
        ("q5.cnf.xz", &["--dim", "5", "--n", "4"][..]),
        ("q8.cnf", &["--dim", "8", "--n", "5"]),
        (
            "q8-pairwise.cnf.gz",
            &["--dim", "8", "--n", "5", "--model", "pairwise"],
        ),
    ] {
        let path = tmp.path().join(name);
        let mut all = vec!["encode", "-o", path.to_str().unwrap()];
        all.extend_from_slice(args);
        let out = run(&all);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        paths.push(path);
    }
    let files: Vec<&Path> = paths.iter().map(std::path::PathBuf::as_path).collect();
    let Some(theirs) = gbd_tool(&files) else {
        return;
    };
    assert_eq!(theirs.len(), files.len());
    for (file, their) in files.iter().zip(&theirs) {
        let out = run(&["hash", file.to_str().unwrap()]);
        let ours = if code(&out) == 0 {
            stdout(&out)[..32].to_string()
        } else {
            "refused".to_string()
        };
        assert_eq!(&ours, their, "{}: {}", file.display(), stderr(&out));
    }
}
