//! Adversarial tests: files (see mod.rs). Hostile output paths (links, FIFOs, devices,
//! directories, missing directories, one file named twice, existing files), header text
//! from the user, leftovers of killed runs, and what `check-proof` says about bad input
//! (defect classes 4, 5, 6, 13, 14, 17, 18, 20 in RELIABILITY.md).

use std::fs;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::*;

/// `solve --dim D --n N` by the in-process CaDiCaL, writing its proof to `proof`.
fn prove_on<'a>(dim: &'a str, n: &'a str, proof: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "solve",
        "--dim",
        dim,
        "--n",
        n,
        "--backend",
        "cadical",
        "--proof",
        proof,
    ];
    args.extend_from_slice(extra);
    args
}

/// An UNSAT instance the in-process CaDiCaL solves in a moment (a(4) = 2), with a proof.
fn prove_args<'a>(proof: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    prove_on("4", "3", proof, extra)
}

/// Runs pq-sat and expects exit `want` and a one-line error containing every word of
/// `words`; returns the message.
fn fails(args: &[&str], want: i32, words: &[&str]) -> String {
    let out = run(args);
    let err = stderr(&out);
    assert_eq!(code(&out), want, "{args:?}: {err}");
    for w in words {
        assert!(err.contains(w), "{args:?}: expected '{w}' in: {err}");
    }
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert_eq!(
        err.matches("os error").count().min(1),
        err.matches("os error").count()
    );
    assert!(!err.contains(".pq-"), "no temporary names: {err}");
    err
}

/// No temporary file of pq-sat's (`.pq-*`) is left in `dir`.
fn assert_no_temporaries(dir: &Path) {
    let leftovers: Vec<String> = names(dir)
        .into_iter()
        .filter(|n| n.starts_with(".pq-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// Class 4: a FIFO, a symbolic link, a directory or a device at an output path is never
/// replaced (a rename over `/dev/full` once made it a regular file), not even with
/// `--force`, and nothing is written beside it.
#[test]
fn special_files_and_links_are_never_replaced() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let fifo = d.join("fifo");
    mkfifo(&fifo);
    fs::write(d.join("target"), "keep").unwrap();
    std::os::unix::fs::symlink("target", d.join("link")).unwrap();
    fs::create_dir(d.join("adir")).unwrap();
    // A device node of our own (possible as root), never one of the machine's.
    let device = d.join("null");
    let c = std::ffi::CString::new(s(&device)).unwrap();
    let mode = libc::S_IFCHR | 0o666;
    let have_device = unsafe { libc::mknod(c.as_ptr(), mode, libc::makedev(1, 3)) } == 0;
    let mut cases = vec![
        ("fifo", "FIFO"),
        ("link", "symbolic link"),
        ("adir", "directory"),
    ];
    if have_device {
        cases.push(("null", "character device"));
    }
    let before = names(d);
    let p_drat = d.join("p.drat");
    let p_drat = s(&p_drat);
    for (name, word) in cases {
        let path = d.join(name);
        let path = s(&path);
        for force in [&[][..], &["--force"][..]] {
            for args in [
                prove_args(path, force),
                prove_args(p_drat, &[&["--cnf-out", path][..], force].concat()),
                [&["encode", "--dim", "4", "--n", "2", "-o", path][..], force].concat(),
                [
                    &["solve", "--dim", "4", "--n", "2", "--svg", path][..],
                    force,
                ]
                .concat(),
            ] {
                fails(&args, 1, &[word]);
            }
        }
    }
    assert_eq!(
        names(d),
        before,
        "nothing written beside them (no .cnf, no temporary)"
    );
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    let link = fs::symlink_metadata(d.join("link")).unwrap();
    assert!(link.file_type().is_symlink());
    assert_eq!(fs::read_to_string(d.join("target")).unwrap(), "keep");
    if have_device {
        let node = fs::symlink_metadata(&device).unwrap();
        assert!(node.file_type().is_char_device());
    }
}

/// Class 5: an existing output is refused, before solving, unless `--force`, for every
/// output: --proof (and the CNF beside it), encode -o, --svg, render -o, family -o,
/// --certify, race --plot. `--force` replaces a regular file or pq-sat's own earlier
/// directory, never a user's directory.
#[test]
fn existing_outputs_are_replaced_only_with_force() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let (drat, cnf) = (d.join("existing.drat"), d.join("existing.cnf"));
    fs::write(&drat, "old proof").unwrap();
    fs::write(&cnf, "old cnf").unwrap();
    fails(
        &prove_args(s(&drat), &[]),
        1,
        &["existing.drat", "already exists", "--force"],
    );
    assert_eq!(fs::read_to_string(&drat).unwrap(), "old proof");
    // The CNF beside a new proof is an output too.
    let fresh = d.join("fresh.drat");
    fails(
        &prove_args(s(&fresh), &["--cnf-out", s(&cnf)]),
        1,
        &["existing.cnf", "already exists"],
    );
    assert_eq!(fs::read_to_string(&cnf).unwrap(), "old cnf");
    assert!(!fresh.exists());
    let out = run(&prove_args(s(&drat), &["--force"]));
    assert_eq!(code(&out), 20, "{}", stderr(&out));
    assert!(fs::read_to_string(&cnf).unwrap().starts_with("c pq-sat"));
    assert_ne!(fs::read_to_string(&drat).unwrap(), "old proof");

    let file = d.join("f.cnf");
    fs::write(&file, "mine").unwrap();
    let f = s(&file);
    fails(
        &["encode", "--dim", "4", "--n", "2", "-o", f],
        1,
        &["already exists"],
    );
    fails(
        &["solve", "--dim", "4", "--n", "2", "--svg", f],
        1,
        &["already exists"],
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), "mine");
    let out = run(&["encode", "--dim", "4", "--n", "2", "-o", f, "--force"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(fs::read_to_string(&file).unwrap().contains("p cnf"));

    // Directories: an earlier family is replaced only with --force; a user's never.
    let fam = d.join("fam");
    let out = run(&["family", "--dim", "4", "--n", "1..2", "-o", s(&fam)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let again = ["family", "--dim", "5", "--n", "1..1", "-o", s(&fam)];
    fails(&again, 1, &["not empty", "--force"]);
    assert!(fs::read_to_string(fam.join("manifest.csv"))
        .unwrap()
        .contains("d04"));
    let out = run(&[&again[..], &["--force"]].concat());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let csv = fs::read_to_string(fam.join("manifest.csv")).unwrap();
    assert!(csv.contains("d05") && !csv.contains("d04"), "{csv}");
    let mine = d.join("mine");
    fs::create_dir(&mine).unwrap();
    fs::write(mine.join("notes.txt"), "x").unwrap();
    for extra in [&[][..], &["--force"][..]] {
        let family = [
            &["family", "--dim", "4", "--n", "1..1", "-o", s(&mine)][..],
            extra,
        ]
        .concat();
        fails(&family, 1, &["not empty"]);
        let certify = [&["solve", "--dim", "4", "--certify", s(&mine)][..], extra].concat();
        fails(&certify, 1, &["not empty"]);
    }
    assert_eq!(names(&mine), ["notes.txt"]);

    // race --plot: refused before any solver runs.
    let marker = d.join("ran");
    let solver = fake_solver(
        d,
        "solver.sh",
        &format!("touch {}\necho 's UNKNOWN'", s(&marker)),
    );
    fails(
        &["race", s(&fam), "--backend", &solver, "--plot", f],
        1,
        &["--plot", "already exists"],
    );
    assert!(!marker.exists(), "no solver ran");
    assert_no_temporaries(d);
}

/// Class 5, the window after the check: an output that appears while pq-sat works (here
/// a solver of the race writes the plot's path, as a second run would) is not replaced
/// without `--force`; with it, it is.
#[test]
fn an_output_that_appears_during_the_run_is_replaced_only_with_force() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let fam = d.join("fam");
    let out = run(&["family", "--dim", "4", "--n", "1..1", "-o", s(&fam)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let plot = d.join("plot.svg");
    let body = format!("echo theirs > {}\necho 's UNKNOWN'", s(&plot));
    let solver = fake_solver(d, "solver.sh", &body);
    let race = ["race", s(&fam), "--backend", &solver, "--plot", s(&plot)];
    let out = run(&race);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("plot.svg") && err.contains("--force"), "{err}");
    assert_eq!(fs::read_to_string(&plot).unwrap(), "theirs\n");
    fs::remove_file(&plot).unwrap();
    let out = run(&[&race[..], &["--force"]].concat());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(fs::read_to_string(&plot).unwrap().contains("<svg"));
    assert_no_temporaries(d);
}

/// Class 6: a problem's name is one line; a line break in it would be a second `p cnf`
/// line in the header. Refused when the file is read, with the key named.
#[test]
fn a_name_with_a_line_break_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let toml = tmp.path().join("evil.toml");
    fs::write(
        &toml,
        "name = \"evil\\np cnf 1 1\"\n[board]\nsize = \"4x4\"\n[[group]]\nname = \"rooks\"\nkind = \"rook\"\ncount = \"max\"\n",
    )
    .unwrap();
    for args in [
        vec!["encode", "--problem", s(&toml), "--n", "2"],
        vec!["solve", "--problem", s(&toml), "--n", "2"],
        vec![
            "family",
            "--problem",
            s(&toml),
            "--n",
            "1..2",
            "-o",
            "never",
        ],
    ] {
        fails(
            &args,
            2,
            &["evil.toml", "name", "control character", "one-line"],
        );
    }
    assert!(!tmp.path().join("never").exists());
}

/// Class 13: `--proof` naming a directory writes nothing beside it (it once left
/// `adir.cnf`).
#[test]
fn a_proof_into_a_directory_leaves_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let adir = tmp.path().join("adir");
    fs::create_dir(&adir).unwrap();
    fails(&prove_args(s(&adir), &[]), 1, &["adir", "is a directory"]);
    assert_eq!(names(tmp.path()), ["adir"]);
    assert!(names(&adir).is_empty());
}

/// A pq-sat solving a hard UNSAT formula in process (no child processes) with its proof
/// going to `dir`, once its temporaries beside the proof exist.
fn start_long_proof(dir: &Path) -> Child {
    let proof = dir.join("hard.drat");
    let child = Command::new(BIN)
        .args(prove_on("12", "22", s(&proof), &["--timeout", "300"]))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !names(dir).iter().any(|n| n.starts_with(".pq-out-")) {
        assert!(start.elapsed() < Duration::from_mins(1), "{:?}", names(dir));
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

fn kill9(mut child: Child) {
    unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
    child.wait().unwrap();
}

/// Class 13: temporaries and staging directories of a killed run are removed by the next
/// run that writes beside them, and those of a pq-sat still running are left alone.
#[test]
fn leftovers_of_killed_runs_are_removed_by_the_next_run() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let running = start_long_proof(d);
    let theirs: Vec<String> = names(d);
    // Another run writing into the same directory leaves the running one's files alone.
    encode_to("4", "2", &d.join("a.cnf"));
    for name in &theirs {
        assert!(
            d.join(name).exists(),
            "{name} of a running pq-sat was removed"
        );
    }
    kill9(running);
    assert!(names(d).iter().any(|n| n.starts_with(".pq-out-")));
    // A staging directory of a dead run, as `family` and `--certify` make them.
    let staged = d.join(".pq-family-4194304-1-AbC123");
    fs::create_dir(&staged).unwrap();
    fs::write(staged.join("x.cnf"), "half").unwrap();
    // Not pq-sat's: never touched.
    fs::write(d.join(".pq-notes"), "mine").unwrap();
    encode_to("4", "2", &d.join("b.cnf"));
    assert_eq!(names(d), [".pq-notes", "a.cnf", "b.cnf"]);
}

/// Class 14: every output path is checked before any solving: `--certify` into a
/// non-empty or missing directory, `--proof nodir/x.drat`, `race --plot nodir/x.svg`
/// fail at once (no progress line, no solver started).
#[test]
fn outputs_are_checked_before_any_work() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let full = d.join("full");
    fs::create_dir(&full).unwrap();
    fs::write(full.join("keep"), "x").unwrap();
    let nodir = d.join("nodir");
    // Hard enough that the old order (solve first) would show progress lines or time out.
    fails(
        &["solve", "--dim", "12", "--certify", s(&full)],
        1,
        &["--certify", "not empty"],
    );
    fails(
        &["solve", "--dim", "12", "--certify", s(&nodir.join("c"))],
        1,
        &["--certify", "does not exist", "create it"],
    );
    fails(
        &prove_on("12", "22", s(&nodir.join("x.drat")), &[]),
        1,
        &["--proof", "nodir", "does not exist"],
    );
    let fam = d.join("fam");
    let out = run(&["family", "--dim", "4", "--n", "1..2", "-o", s(&fam)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let marker = d.join("ran");
    let solver = fake_solver(
        d,
        "solver.sh",
        &format!("touch {}\necho 's UNKNOWN'", s(&marker)),
    );
    let plot = nodir.join("x.svg");
    fails(
        &["race", s(&fam), "--backend", &solver, "--plot", s(&plot)],
        1,
        &["--plot", "nodir", "does not exist"],
    );
    assert!(!marker.exists(), "no solver ran");
    fails(
        &["family", "--dim", "4", "-o", s(&nodir.join("f"))],
        1,
        &["does not exist"],
    );
    assert!(!nodir.exists());
}

/// Class 17: an OS error is printed once, names the user's path, never a temporary one
/// (it was "No such file or directory (os error 2): No such file or directory (os error 2)
/// at path …/nodir/./.pq-proof-ikqWZG").
#[test]
fn os_errors_are_printed_once_with_the_users_path() {
    let tmp = tempfile::tempdir().unwrap();
    let target = tmp.path().join("nodir").join("x.drat");
    let err = fails(&prove_args(s(&target), &[]), 1, &["nodir"]);
    assert!(err.contains("x.drat"), "{err}");
    // A directory pq-sat may not write into (not checkable as root, who may).
    let ro = tmp.path().join("ro");
    fs::create_dir(&ro).unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&ro, fs::Permissions::from_mode(0o555)).unwrap();
    if fs::write(ro.join("probe"), "x").is_err() {
        let err = fails(
            &[
                "encode",
                "--dim",
                "4",
                "--n",
                "2",
                "-o",
                s(&ro.join("x.cnf")),
            ],
            1,
            &["x.cnf", "cannot create files", "ro"],
        );
        assert_eq!(err.matches("os error").count(), 1, "{err}");
    }
    fs::set_permissions(&ro, fs::Permissions::from_mode(0o755)).unwrap();
    // check-proof on a missing file: the path and the reason, once.
    let cnf = tmp.path().join("f.cnf");
    fs::write(&cnf, "p cnf 1 2\n1 0\n-1 0\n").unwrap();
    let err = fails(
        &["check-proof", s(&cnf), "missing.drat"],
        1,
        &["missing.drat"],
    );
    assert_eq!(err.matches("No such file").count(), 1, "{err}");
}

/// Class 18: two outputs that are one file are refused as that ("must not end in .cnf"
/// was the old message), also when the paths differ but resolve to the same file.
#[test]
fn one_file_named_for_two_outputs_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    fs::create_dir(d.join("sub")).unwrap();
    let same = d.join("same.drat");
    let same_again = d.join("sub").join("..").join("same.drat");
    std::os::unix::fs::symlink(d, d.join("here")).unwrap();
    let via_link = d.join("here").join("same.drat");
    for other in [&same, &same_again, &via_link] {
        fails(
            &prove_args(s(&same), &["--cnf-out", s(other)]),
            2,
            &["--proof and --cnf-out name the same file"],
        );
        fails(
            &prove_args(s(&same), &["--svg", s(other)]),
            2,
            &["name the same file"],
        );
    }
    // A hard link to an existing file is the same file.
    fs::write(&same, "x").unwrap();
    fs::hard_link(&same, d.join("hard.cnf")).unwrap();
    fails(
        &prove_args(s(&same), &["--cnf-out", s(&d.join("hard.cnf")), "--force"]),
        2,
        &["name the same file"],
    );
    // An output over an input.
    let input = d.join("in.cnf");
    fs::write(&input, "p cnf 1 1\n1 0\n").unwrap();
    fails(
        &[
            "solve",
            "--cnf",
            s(&input),
            "--backend",
            "cadical",
            "--proof",
            s(&d.join("q.drat")),
            "--cnf-out",
            s(&input),
            "--force",
        ],
        2,
        &["overwrite the input"],
    );
    assert_eq!(fs::read_to_string(&same).unwrap(), "x");
}

/// Class 20: `check-proof` says what is wrong with its input: swapped arguments, a
/// directory, a FIFO (which would hang the checker), a CNF given as the proof, and the
/// checker's own message for a proof it cannot parse (it said "no verdict (exit code 2):
/// no verdict").
#[test]
fn check_proof_says_what_is_wrong() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let cnf = d.join("f.cnf");
    fs::write(&cnf, "c a comment\np cnf 1 2\n1 0\n-1 0\n").unwrap();
    let garbage = d.join("g.drat");
    fs::write(&garbage, "garbage\n").unwrap();
    let adir = d.join("adir");
    fs::create_dir(&adir).unwrap();
    let fifo = d.join("fifo");
    mkfifo(&fifo);
    let c = s(&cnf);
    fails(&["check-proof", s(&garbage), c], 1, &["swapped", "usage"]);
    fails(
        &["check-proof", s(&adir), c],
        1,
        &["adir is a directory", "CNF"],
    );
    fails(
        &["check-proof", c, s(&adir)],
        1,
        &["adir is a directory", "proof"],
    );
    fails(&["check-proof", s(&fifo), c], 1, &["not a regular file"]);
    fails(&["check-proof", c, s(&fifo)], 1, &["not a regular file"]);
    fails(&["check-proof", c, c], 1, &["not a proof"]);
    fails(
        &["check-proof", s(&garbage), s(&garbage)],
        1,
        &["not a DIMACS CNF file"],
    );
    if which_rate() {
        let out = run(&["check-proof", c, s(&garbage)]);
        assert_eq!(code(&out), 1);
        let text = stdout(&out);
        assert!(text.contains("failed to parse proof"), "{text}");
        assert!(!text.contains("): no verdict"), "{text}");
    }
}

fn which_rate() -> bool {
    Command::new("rate")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}
