//! The submission's description, in the two-page style of the SAT Competition's benchmark
//! descriptions: the problems, the encoding with its literature, the grading table and how
//! to make it all again.

use std::fmt::Write;

use super::{Grade, Submission};
use pq_engine::capability::Status;

/// A time for the table: seconds with one decimal, `-` when not solved.
fn secs(t: Option<f64>) -> String {
    t.map_or_else(|| "-".into(), |t| format!("{t:.1}"))
}

/// The description of `s` as Markdown.
pub fn markdown(s: &Submission) -> String {
    let mut out = String::new();
    let counts = s.counts();
    let (sat, unsat) = (
        s.instances
            .iter()
            .filter(|g| g.expected == Status::Sat)
            .count(),
        s.instances
            .iter()
            .filter(|g| g.expected == Status::Unsat)
            .count(),
    );
    let mut kinds: Vec<(String, &str)> = s
        .instances
        .iter()
        .map(|g| (g.kind.clone(), g.problem.as_str()))
        .collect();
    kinds.sort_unstable();
    kinds.dedup();
    let _ = write!(
        out,
        "# Peaceable queens and crowded chessboards: a benchmark family\n\n\
         Made by {} (`{}`). {} instances: {sat} SAT, {unsat} UNSAT{}; {} easy, {} medium, {} hard.\n\n",
        s.generator,
        s.command,
        s.instances.len(),
        match s.unproven() {
            0 => String::new(),
            k => format!(", {k} unknown"),
        },
        counts[0],
        counts[1],
        counts[2],
    );
    out.push_str(
        "## The problems\n\n\
         Each instance asks whether pieces fit on a chessboard so that the pieces that must not \
         attack each other do not (a piece of another kind does not block a line). Each problem \
         is asked at its optimum (SAT) and one above it (UNSAT), along growing boards: the \
         boundary is where these problems are hard.\n\n",
    );
    for (kind, name) in &kinds {
        let _ = writeln!(out, "- {}", problem_text(kind, name));
    }
    out.push('\n');
    out.push_str(
        "## The encoding\n\n\
         One variable per square and piece kind (at most one piece per square). Attacks along \
         a line are forbidden through *line indicator variables*: for the queens, each row, \
         column and diagonal takes a colour and a queen's square forces the colour of its four \
         lines (the colouring model of Smith, Petrie and Gent, CPAIOR 2004); for other pieces, \
         one variable per line and group says that the group occupies it, and no two groups \
         that must not attack each other occupy one line. Knights' attacks are binary \
         clauses. The army sizes are at-least-n constraints by totalizers (Bailleux and \
         Boufkhad, CP 2003). The board's symmetries (and the colour swap where the armies \
         are alike) are broken by lex-leader clauses (Crawford, Ginsberg, Luks and Roy, KR \
         1996; Aloul, Markov and Sakallah's compact form). Every file begins with comment \
         lines naming the problem, so that a model can be decoded and checked.\n\n",
    );
    let _ = write!(
        out,
        "## The instances\n\n\
         Graded by a race of {} on {}, {} run(s) at a time, {} s per run: *easy* when the best \
         solver needs less than {} s, *medium* when one solves it within {} s, *hard* \
         otherwise, with the best solver's time extrapolated along the instance's series (an \
         exponential fit against the board side, marked ~). Times in seconds, wall clock.\n\n",
        s.solvers
            .iter()
            .zip(s.versions.iter().chain(std::iter::repeat(&None)))
            .map(|(l, v)| match v {
                Some(v) => format!("{l} ({v})"),
                None => l.clone(),
            })
            .collect::<Vec<_>>()
            .join(" and "),
        s.machine,
        s.jobs,
        s.timeout,
        s.easy,
        s.timeout,
    );
    let mut header = vec!["#", "problem", "board", "n", "status", "grade"];
    header.extend(s.solvers.iter().map(String::as_str));
    header.push("GBD id");
    let _ = writeln!(out, "| {} |", header.join(" | "));
    let _ = writeln!(out, "|{}", " --- |".repeat(header.len()));
    for (k, g) in s.instances.iter().enumerate() {
        let mut row = vec![
            (k + 1).to_string(),
            g.kind.clone(),
            g.board.clone(),
            g.n.to_string(),
            g.expected.name().to_string(),
            g.grade.name().to_string(),
        ];
        for t in &g.seconds {
            row.push(match (t, g.grade, g.extrapolated) {
                (Some(_), _, _) => secs(*t),
                (None, Grade::Hard, Some(e)) => format!("~{e:.0}"),
                (None, _, _) => format!(">{}", s.timeout),
            });
        }
        row.push(g.gbd.clone());
        let _ = writeln!(out, "| {} |", row.join(" | "));
    }
    out.push_str("\nWhere each status comes from (a model is decoded and passed by pq-sat's independent validator; an UNSAT counts with a DRAT proof checked by rate, or for the peaceable queens and the three armies with the table of values their OEIS sequence lists):\n\n");
    for (k, g) in s.instances.iter().enumerate() {
        let _ = writeln!(out, "- {}: {} ({}).", k + 1, g.expected.name(), g.source);
    }
    out.push_str(
        "\nThe files are `manifest.csv`'s: file name, sizes, status, source, SHA-256 of the \
         `.cnf.xz` and the GBD id (MD5 of the normalised clauses, as GBD computes it).\n\n",
    );
    let _ = write!(
        out,
        "## How to make it again\n\n\
         ```\n\
         {}\n\
         pq-sat race DIR {} --run-timeout {}\n\
         pq-sat hash DIR/*.cnf.xz\n\
         ```\n\n\
         The first command writes the instances, races them, proves every status it can and \
         writes this description; the second races any solvers on the same files, checking \
         every answer against the manifest and every model against its instance; the third \
         prints the GBD ids. The pool of instances is a TOML file (`pools/submission.toml` \
         in pq-sat's repository): a problem, its settings, a size and a series per instance.\n",
        s.command,
        s.solvers
            .iter()
            .map(|l| format!("--backend {l}"))
            .collect::<Vec<_>>()
            .join(" "),
        s.timeout,
    );
    out
}

/// What a problem is, for the description: the known ones told with their literature,
/// another by its name.
fn problem_text(kind: &str, name: &str) -> String {
    match kind {
        "queens" => "**Peaceable armies of queens** (Ainley 1977; OEIS A250000): n white and n \
            black queens on a d × d board, no queen attacking one of the other colour. The \
            largest n is proven to d = 15 (constraint programming, integer programming and \
            SAT; Smith, Petrie and Gent 2004, Yao 2018, Tabatabai 2018)."
            .into(),
        "three-armies" => "**Three armies of queens** (OEIS A328283): the same with three \
            colours of n queens each, no queen attacking one of another colour."
            .into(),
        "peaceable-queens-torus" => "**Peaceable queens on the torus** (OEIS A279405): rows, \
            columns and diagonals wrap around the edges of the d × d board (Clinch, \
            Drescher, Huynh and Saffidine 2024)."
            .into(),
        "crowded-chessboard" => "**Dudeney's crowded chessboard** (Amusements in \
            Mathematics, 1917, puzzle 306): n queens, n rooks and 2n − 2 bishops on n × n, no \
            two pieces of one kind attacking each other, and as many knights as possible \
            (most knights known to n = 16: Hansen and Schimpf, in Gecode's examples)."
            .into(),
        _ => format!("**{name}**."),
    }
}
