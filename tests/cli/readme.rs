//! The README's "Getting started" block, run as a newcomer runs it: every line in order, in
//! a fresh directory, `pq-sat` being the binary under test (a solver's line runs as written),
//! each ending with the exit code its comment states.

use crate::util::*;
use std::process::Command;

#[test]
fn the_readmes_getting_started_runs_in_sequence() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme
        .find("## Getting started")
        .expect("a Getting started section");
    let block = &readme[start..];
    let open = block.find("```sh\n").expect("a sh block") + "```sh\n".len();
    let close = open + block[open..].find("```").unwrap();
    let lines: Vec<&str> = block[open..close]
        .lines()
        .filter(|l| !l.trim().is_empty())
        .collect();
    assert!(lines.len() >= 5, "{lines:?}");
    let tmp = tempfile::tempdir().unwrap();
    for line in lines {
        let (command, comment) = line.split_once('#').unwrap_or((line, ""));
        let command = command.trim();
        if command.is_empty() {
            continue;
        }
        let want: i32 = comment
            .split("exit")
            .nth(1)
            .and_then(|rest| {
                rest.trim_start_matches(" code")
                    .split(|c: char| !c.is_ascii_digit() && c != ' ')
                    .next()
            })
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("no exit code stated for: {line}"));
        // pq-sat is the binary under test; another program (a solver) runs as written.
        let script = match command.strip_prefix("pq-sat ") {
            Some(rest) => format!("\"$PQ_SAT\" {rest}"),
            None => command.to_string(),
        };
        let out = Command::new("sh")
            .arg("-c")
            .arg(script)
            .env("PQ_SAT", BIN)
            .current_dir(tmp.path())
            .output()
            .unwrap();
        assert_eq!(
            code(&out),
            want,
            "{command}\n{}\n{}",
            stdout(&out),
            stderr(&out)
        );
    }
}
