//! The conventions people expect of a command-line tool and of a library: shell
//! completions, a man page, NO_COLOR, --quiet / -v.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::util::{assert_fails_saying, code, encode_to, run, s, stderr, stdout, BIN};

/// Every subcommand a completion script or the man page must name.
const COMMANDS: &[&str] = &[
    "encode",
    "solve",
    "enumerate",
    "canon",
    "family",
    "check-proof",
    "check-certificate",
    "race",
    "render",
    "solvers",
    "hash",
    "completions",
    "man",
    "cube",
    "conquer",
    "solve-cube",
    "cube-status",
];

#[test]
fn completions_for_each_shell_name_every_command() {
    for shell in ["bash", "zsh", "fish"] {
        let out = run(&["completions", shell]);
        assert_eq!(code(&out), 0, "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        assert!(!script.trim().is_empty(), "{shell}: empty script");
        for command in COMMANDS {
            assert!(script.contains(command), "{shell}: no '{command}'");
        }
        // The global options are completed too.
        assert!(script.contains("quiet"), "{shell}: no --quiet");
    }
}

#[test]
fn bash_completion_script_parses() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pq-sat.bash");
    std::fs::write(&path, run(&["completions", "bash"]).stdout).unwrap();
    let check = Command::new("bash").arg("-n").arg(&path).output().unwrap();
    assert!(
        check.status.success(),
        "bash -n: {}",
        String::from_utf8_lossy(&check.stderr)
    );
}

#[test]
fn unknown_shell_is_a_usage_error() {
    let out = run(&["completions", "tcsh"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("tcsh"), "{}", stderr(&out));
}

#[test]
fn man_page_is_roff_and_lists_the_commands() {
    let out = run(&["man"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let page = stdout(&out);
    assert!(
        page.lines().any(|l| l.starts_with(".TH pq-sat 1")),
        "{page}"
    );
    assert!(page.contains(".SH NAME"));
    assert!(page.contains(".SH SUBCOMMANDS"));
    // roff escapes hyphens in text: check-proof is written check\-proof.
    for command in COMMANDS {
        let roff = command.replace('-', "\\-");
        assert!(
            page.contains(&format!("pq\\-sat\\-{roff}(1)")),
            "no {command}"
        );
    }
}

#[test]
fn man_page_of_one_command_and_of_an_unknown_one() {
    let out = run(&["man", "solve"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let page = stdout(&out);
    assert!(
        page.lines().any(|l| l.starts_with(".TH pq-sat-solve 1")),
        "{page}"
    );
    assert!(page.contains("\\-\\-backend"), "{page}");
    let out = run(&["man", "solvr"]);
    assert_fails_saying(&out, 2, "no command 'solvr'");
}

/// pq-sat itself prints no colour; clap's (usage errors, help) is switched off by NO_COLOR
/// even where it would be forced on.
#[test]
fn no_color_turns_off_clap_colours() {
    let with = |vars: &[(&str, &str)]| {
        let mut command = Command::new(BIN);
        command.args(["solve", "--no-such-option"]);
        command.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
        for (k, v) in vars {
            command.env(k, v);
        }
        let out = command.output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8(out.stderr).unwrap()
    };
    // The control: forced colour does colour the error, so the test can see a difference.
    assert!(with(&[("CLICOLOR_FORCE", "1")]).contains('\x1b'));
    let plain = with(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]);
    assert!(!plain.contains('\x1b'), "{plain:?}");
    assert!(plain.contains("--no-such-option"));
}

const OPTIMISE: &[&str] = &[
    "solve",
    "--dim",
    "5",
    "--backend",
    "varisat",
    "--jobs",
    "1",
    "--progress",
    "lines",
];

fn with(global: &[&str]) -> std::process::Output {
    let args: Vec<&str> = OPTIMISE.iter().chain(global).copied().collect();
    run(&args)
}

#[test]
fn quiet_silences_progress_but_not_the_answer() {
    let normal = with(&[]);
    assert_eq!(code(&normal), 30);
    assert!(
        stderr(&normal).contains("pq-sat: n = 5: unsat"),
        "{}",
        stderr(&normal)
    );
    for flag in ["--quiet", "-q"] {
        let quiet = with(&[flag]);
        assert_eq!(code(&quiet), 30);
        assert_eq!(stderr(&quiet), "", "{flag}");
        // The answer stays (its first line carries the time, which varies).
        let board = |out: &std::process::Output| {
            stdout(out)
                .lines()
                .skip(1)
                .map(String::from)
                .collect::<Vec<_>>()
        };
        assert!(stdout(&quiet).starts_with("a(5) = 4: "), "{flag}");
        assert_eq!(board(&quiet), board(&normal), "{flag}");
    }
    // A global option: before the command too.
    let mut args = vec!["-q"];
    args.extend_from_slice(OPTIMISE);
    assert_eq!(stderr(&run(&args)), "");
}

#[test]
fn quiet_keeps_errors() {
    let out = run(&["-q", "check-proof", "/nonexistent.cnf", "/nonexistent.drat"]);
    assert_ne!(code(&out), 0);
    assert!(stderr(&out).contains("pq-sat: error:"), "{}", stderr(&out));
}

#[test]
fn verbose_adds_the_steps_as_they_start_and_formula_sizes() {
    let out = with(&["-v"]);
    assert_eq!(code(&out), 30);
    let err = stderr(&out);
    assert!(err.contains("pq-sat: n = 5: solving (varisat)"), "{err}");
    assert!(err.contains("pq-sat: n = 5: unsat"), "{err}");
    let normal = stderr(&with(&[]));
    assert!(!normal.contains("solving"), "{normal}");
    let out = run(&["encode", "--dim", "5", "--n", "2", "-v"]);
    assert_eq!(code(&out), 0);
    assert!(
        stderr(&out).contains("variables,") && stderr(&out).contains("clauses"),
        "{}",
        stderr(&out)
    );
    assert_eq!(stderr(&run(&["encode", "--dim", "5", "--n", "2"])), "");
}

#[test]
fn quiet_and_verbose_conflict() {
    let out = run(&["-q", "-v", "solvers"]);
    assert_eq!(code(&out), 2);
}

// Compressed instances (.cnf.xz, .cnf.gz, .cnf.bz2).

/// Each format with the first bytes of its files.
const COMPRESSED: &[(&str, &[u8])] = &[
    ("xz", &[0xfd, b'7', b'z', b'X', b'Z', 0x00]),
    ("gz", &[0x1f, 0x8b]),
    ("bz2", b"BZh"),
];

#[test]
fn encode_writes_compressed_files_that_solve_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("q.cnf");
    encode_to("6", "5", &plain);
    let plain_size = std::fs::metadata(&plain).unwrap().len();
    let expect = crate::util::json(&run(&[
        "solve",
        "--cnf",
        plain.to_str().unwrap(),
        "--backend",
        "varisat",
        "--format",
        "json",
    ]));
    for (ext, magic) in COMPRESSED {
        let path = dir.path().join(format!("q.cnf.{ext}"));
        let path = path.to_str().unwrap();
        let out = run(&["encode", "--dim", "6", "--n", "5", "-o", path]);
        assert_eq!(code(&out), 0, "{ext}: {}", stderr(&out));
        let bytes = std::fs::read(path).unwrap();
        assert!(bytes.starts_with(magic), "{ext}: not compressed");
        assert!(
            (bytes.len() as u64) < plain_size,
            "{ext}: no smaller than the plain file"
        );
        let out = run(&[
            "solve",
            "--cnf",
            path,
            "--backend",
            "varisat",
            "--format",
            "json",
        ]);
        assert_eq!(code(&out), 10, "{ext}: {}", stderr(&out));
        let got = crate::util::json(&out);
        // The same formula, and its `c var` lines survived: the board is decoded.
        for key in ["variables", "clauses", "status", "dim", "n"] {
            assert_eq!(got[key], expect[key], "{ext}: {key}");
        }
        assert!(got["board"].is_array(), "{ext}: no board decoded");
    }
}

#[test]
fn compressed_standard_input_is_read_too() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("q.cnf.gz");
    let path = path.to_str().unwrap();
    encode_to("5", "5", Path::new(path));
    let bytes = std::fs::read(path).unwrap();
    let out = crate::util::run_with_stdin(&["solve", "--backend", "varisat"], Some(&bytes));
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    let out = run(&["solve", "--cnf", "-", "--backend", "varisat"]);
    assert_eq!(
        code(&out),
        1,
        "an empty input is no formula: {}",
        stderr(&out)
    );
}

/// A misnamed file still reads (the format is told by its bytes); a cut-off one is an
/// error naming the file, not a formula with half its clauses.
#[test]
fn compressed_input_goes_by_content_and_truncation_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let xz = dir.path().join("q.cnf.xz");
    encode_to("6", "5", &xz);
    let misnamed = dir.path().join("q.cnf");
    std::fs::copy(&xz, &misnamed).unwrap();
    let by_varisat = |cnf: &Path| run(&["solve", "--cnf", s(cnf), "--backend", "varisat"]);
    assert_eq!(code(&by_varisat(&misnamed)), 10);
    let bytes = std::fs::read(&xz).unwrap();
    let cut = dir.path().join("cut.cnf.xz");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let out = by_varisat(&cut);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("cannot read") && stderr(&out).contains("cut.cnf.xz"),
        "{}",
        stderr(&out)
    );
}

/// External solvers are given plain DIMACS, whatever the input's compression.
#[test]
fn external_solvers_get_plain_dimacs() {
    let dir = tempfile::tempdir().unwrap();
    let xz = dir.path().join("q.cnf.xz");
    encode_to("4", "2", &xz);
    let seen = dir.path().join("seen.cnf");
    let cmd = crate::util::fake_solver(
        dir.path(),
        "copy",
        &format!("cp \"$1\" {}; echo 's UNKNOWN'; exit 0", seen.display()),
    );
    run(&["solve", "--cnf", xz.to_str().unwrap(), "--solver-cmd", &cmd]);
    let text = std::fs::read_to_string(&seen).expect("the solver saw a text file");
    assert!(text.contains("\np cnf "), "{text}");
}

/// `check-proof` hands the checker plain copies of compressed files (compressed here by the
/// system's gzip and xz), and tells the proof format by the name under the compression.
#[test]
fn check_proof_reads_compressed_cnf_and_proof() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("p.drat");
    let out = run(&[
        "solve",
        "--dim",
        "5",
        "--n",
        "5",
        "--symmetry",
        "none",
        "--backend",
        "varisat",
        "--proof",
        proof.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    for (tool, file) in [("xz", "p.cnf"), ("gzip", "p.drat")] {
        let status = Command::new(tool)
            .arg(file)
            .current_dir(dir.path())
            .status();
        assert!(status.unwrap().success(), "{tool} {file}");
    }
    let (cnf, proof) = (dir.path().join("p.cnf.xz"), dir.path().join("p.drat.gz"));
    let out = run(&[
        "check-proof",
        cnf.to_str().unwrap(),
        proof.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let report = crate::util::json(&out);
    assert_eq!(report["verified"], true);
    assert_eq!(report["proof_format"], "drat");
    // The report names the files given, not the temporary copies.
    assert_eq!(report["cnf"], cnf.to_str().unwrap());
}

/// A family read back: its directory and manifest.
fn compressed_family(root: &std::path::Path, name: &str, extra: &[&str]) -> (PathBuf, Value) {
    let dir = root.join(name);
    let mut args = vec!["family", "--dim", "4", "-o", dir.to_str().unwrap()];
    args.extend_from_slice(extra);
    let out = run(&args);
    assert_eq!(code(&out), 0, "{name}: {}", stderr(&out));
    let text = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    (dir, serde_json::from_str(&text).unwrap())
}

/// `family --compress` writes `NAME.cnf.xz` (`.gz`, `.bz2`): the plain family's DIMACS,
/// compressed, with the manifest's SHA-256 of the file as written. `race` reads them, and
/// kissat and a command that records its input are given plain DIMACS.
#[test]
fn compressed_families_are_hashed_as_written_and_raced_on_plain_dimacs() {
    let tmp = tempfile::tempdir().unwrap();
    let (plain_dir, plain) = compressed_family(tmp.path(), "plain", &[]);
    let plain_entries = plain["instances"].as_array().unwrap();
    let plain_texts: Vec<Vec<u8>> = plain_entries
        .iter()
        .map(|e| std::fs::read(plain_dir.join(e["file"].as_str().unwrap())).unwrap())
        .collect();
    let seen = tmp.path().join("seen");
    let recorder = crate::util::fake_solver(
        tmp.path(),
        "recorder",
        &format!(
            "cp \"$1\" \"{}/$(basename \"$1\")\"; echo 's UNKNOWN'; exit 0",
            seen.display()
        ),
    );
    for (ext, magic) in COMPRESSED {
        let (dir, manifest) = compressed_family(tmp.path(), ext, &["--compress", ext]);
        let entries = manifest["instances"].as_array().unwrap();
        assert_eq!(entries.len(), plain_entries.len(), "{ext}");
        for ((e, p), text) in entries.iter().zip(plain_entries).zip(&plain_texts) {
            let file = e["file"].as_str().unwrap();
            assert_eq!(file, format!("{}.{ext}", p["file"].as_str().unwrap()));
            let bytes = std::fs::read(dir.join(file)).unwrap();
            assert!(bytes.starts_with(magic), "{file}: not compressed");
            // The hash a downloader checks: of the compressed bytes, not of the DIMACS.
            assert_eq!(e["sha256"], pq_io::hashing::sha256_hex(&bytes), "{file}");
            assert_ne!(e["sha256"], p["sha256"], "{file}");
            let mut back = Vec::new();
            pq_io::compress::open(&dir.join(file))
                .unwrap()
                .read_to_end(&mut back)
                .unwrap();
            assert_eq!(&back, text, "{file}: not the plain family's DIMACS");
            for key in ["variables", "clauses", "expected", "dim", "n"] {
                assert_eq!(e[key], p[key], "{file}: {key}");
            }
        }
        let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
        assert!(
            readme.contains(&format!(
                "`*.cnf.{ext}`; the SHA-256 is of the compressed file"
            )),
            "{readme}"
        );

        let _ = std::fs::remove_dir_all(&seen);
        std::fs::create_dir(&seen).unwrap();
        let out = run(&[
            "race",
            dir.to_str().unwrap(),
            "--backend",
            "kissat",
            "--backend",
            &recorder,
            "--run-timeout",
            "30",
            "--format",
            "json",
        ]);
        assert_eq!(code(&out), 0, "{ext}: {}", stderr(&out));
        let v = crate::util::json(&out);
        let solvers = v["solvers"].as_array().unwrap();
        assert_eq!(solvers[0]["solved"], entries.len(), "{ext}: {}", solvers[0]);
        assert_eq!(solvers[0]["wrong"], 0, "{ext}");
        // The recorder was given each instance's DIMACS text, byte for byte.
        let mut received: Vec<Vec<u8>> = std::fs::read_dir(&seen)
            .unwrap()
            .map(|f| std::fs::read(f.unwrap().path()).unwrap())
            .collect();
        received.sort();
        let mut expected = plain_texts.clone();
        expected.sort();
        assert_eq!(received.len(), entries.len(), "{ext}");
        assert!(
            received == expected,
            "{ext}: the solver was not given the plain DIMACS"
        );
    }
}

/// A compressed instance that does not decompress is refused by name, before any solver
/// runs (its hash in the manifest matches: the file was packed wrong, not changed).
#[test]
fn race_refuses_a_compressed_instance_that_does_not_decompress() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, mut manifest) = compressed_family(tmp.path(), "f", &["--compress", "xz"]);
    let file = manifest["instances"][0]["file"]
        .as_str()
        .unwrap()
        .to_string();
    let bytes = std::fs::read(dir.join(&file)).unwrap();
    let cut = &bytes[..bytes.len() / 2];
    std::fs::write(dir.join(&file), cut).unwrap();
    manifest["instances"][0]["sha256"] = pq_io::hashing::sha256_hex(cut).into();
    std::fs::write(dir.join("manifest.json"), manifest.to_string()).unwrap();
    let out = run(&["race", dir.to_str().unwrap(), "--backend", "kissat"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&file) && err.contains("cannot decompress"),
        "{err}"
    );
}

/// A certificate bundle whose CNF and proof were packed (xz, bzip2) after it was written,
/// the manifest's names, hashes and proof size updated to the packed files, checks: every
/// part is read through its compression. A packed CNF of another formula is still caught.
#[test]
fn a_certificate_bundle_with_compressed_parts_checks() {
    use pq_io::compress::{compressed, Compression};
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cert");
    let out = run(&["solve", "--dim", "4", "--certify", dir.to_str().unwrap()]);
    assert_eq!(code(&out), 30, "{}", stderr(&out));
    let check = |dir: &Path| run(&["check-certificate", s(dir), "--format", "json"]);
    let path = dir.join("certificate.json");
    let mut m: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for (name, hash, format) in [
        ("cnf", "cnf_sha256", Compression::Xz),
        ("proof", "proof_sha256", Compression::Bzip2),
    ] {
        let file = m["unsat"][name].as_str().unwrap().to_string();
        let packed = compressed(format, &std::fs::read(dir.join(&file)).unwrap()).unwrap();
        let new = format!("{file}{}", format.extension());
        std::fs::write(dir.join(&new), &packed).unwrap();
        std::fs::remove_file(dir.join(&file)).unwrap();
        m["unsat"][name] = new.clone().into();
        m["unsat"][hash] = pq_io::hashing::sha256_hex(&packed).into();
        if name == "proof" {
            m["unsat"]["proof_bytes"] = packed.len().into();
        }
        let statement = m["statement"].as_str().unwrap().replace(&file, &new);
        m["statement"] = statement.into();
    }
    std::fs::write(&path, m.to_string()).unwrap();
    let out = check(&dir);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert_eq!(crate::util::json(&out)["valid"], true);

    // The packed CNF must still be the claimed formula: another one, packed and hashed to
    // match the manifest, fails the re-encoding check.
    let other = tmp.path().join("other.cnf.xz");
    encode_to("4", "2", &other);
    let packed = std::fs::read(&other).unwrap();
    let cnf = m["unsat"]["cnf"].as_str().unwrap().to_string();
    std::fs::write(dir.join(&cnf), &packed).unwrap();
    m["unsat"]["cnf_sha256"] = pq_io::hashing::sha256_hex(&packed).into();
    std::fs::write(&path, m.to_string()).unwrap();
    let out = check(&dir);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    let report = crate::util::json(&out);
    assert_eq!(report["valid"], false);
    assert!(
        stdout(&out).contains("the CNF is not the claimed formula"),
        "{}",
        stdout(&out)
    );
}

/// The CNF and proof beside `--proof` are written as plain text: a compressed name for
/// either is refused before any work, not filled with plain text.
#[test]
fn proof_outputs_with_compressed_names_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let p = |name: &str| tmp.path().join(name).to_str().unwrap().to_string();
    for (ext, _) in COMPRESSED {
        for args in [
            vec![
                "--proof".to_string(),
                p("q.drat"),
                "--cnf-out".into(),
                p(&format!("q.cnf.{ext}")),
            ],
            vec!["--proof".to_string(), p(&format!("q.drat.{ext}"))],
        ] {
            let mut all = vec!["solve", "--dim", "4", "--n", "3", "--backend", "kissat"];
            all.extend(args.iter().map(String::as_str));
            let out = run(&all);
            assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
            let err = stderr(&out);
            assert!(
                err.contains("written as plain text") && err.lines().count() == 1,
                "{err}"
            );
        }
        assert_eq!(
            std::fs::read_dir(tmp.path()).unwrap().count(),
            0,
            "nothing written"
        );
    }
}
