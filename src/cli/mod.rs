//! Command-line arguments (clap), their validation into a [`crate::commands::Job`] that nothing runs
//! before it is complete, and the dispatch of each job to its command ([`run`]).

mod docs;
mod job;

pub(crate) use crate::commands::canon::CanonArgs;
pub(crate) use crate::commands::check::{CheckCertificateArgs, CheckProofArgs};
pub(crate) use crate::commands::family::FamilyArgs;
pub(crate) use crate::commands::hash::HashArgs;
pub(crate) use crate::commands::race::RaceArgs;
pub(crate) use crate::commands::render::RenderArgs;

pub(crate) use job::run;

use clap::{Parser, Subcommand};

use crate::args::Format;

const AFTER_HELP: &str = "\
Examples:
  pq-sat solve --dim 8                      find a(8) with a witness board
  pq-sat solve --dim 8 --n 10 --backend kissat
  pq-sat encode --dim 8 --n 10 > q.cnf      a DIMACS file for any SAT solver
  pq-sat encode --dim 8 --n 10 | pq-sat solve --backend kissat

Exit codes:
  one formula or size     10 SAT, 20 UNSAT, 0 unknown (the SAT competition's)
  an optimisation         30 optimum proven, 10 a solution not proven optimal (a time limit),
                          20 no solution at all, 0 nothing known (the MaxSAT Evaluation's)
  decode                  as one formula, and 3 a model that falsifies a clause, 4 a formula
                          without pq-sat's variable map
  every command           1 error, 2 usage error, 130 interrupted (Ctrl-C, SIGTERM)";

/// Peaceable armies of queens as SAT: n white and n black queens on a d×d board, no queen
/// attacking one of the other colour.
#[derive(Parser, Debug)]
#[command(name = "pq-sat", version, after_help = AFTER_HELP, propagate_version = true)]
pub(crate) struct Args {
    #[command(subcommand)]
    pub command: Command,
    /// No progress or diagnostic lines on stderr
    ///
    /// No progress or diagnostic lines on stderr; results, warnings about wrong answers and
    /// errors are still printed
    #[arg(
        help_heading = "Output",
        short,
        long,
        global = true,
        conflicts_with = "verbose"
    )]
    pub quiet: bool,
    /// More detail on stderr (repeatable)
    ///
    /// More detail on stderr: each solver step as it starts, the size of each formula
    #[arg(help_heading = "Output", short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
}

impl Args {
    /// How much to say on stderr, from `--quiet` and `-v`.
    pub(crate) fn verbosity(&self) -> pq_report::progress::Verbosity {
        use pq_report::progress::Verbosity;
        match (self.quiet, self.verbose) {
            (true, _) => Verbosity::Quiet,
            (false, 0) => Verbosity::Normal,
            (false, _) => Verbosity::Verbose,
        }
    }
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Write the DIMACS CNF formula for "n white and n black queens fit on d×d".
    ///
    /// Comment lines at the top name the instance and map each square variable:
    /// `c var K white R C` means DIMACS variable K is a white queen on row R, column C
    /// (1-based, row 1 = top row of the printed board).
    Encode(crate::commands::encode::EncodeArgs),
    /// Decide whether n fits (--n), find the largest n (no --n), or solve a DIMACS file.
    ///
    /// With --dim D --n N: SAT (exit 10) with a checked board, or UNSAT (exit 20); 0 when
    /// a limit stopped it. With --dim D alone: raise n from a greedy lower bound until
    /// UNSAT; the optimum a(D) and a witness go to stdout (exit 30), each step to stderr; a
    /// time limit leaves the best board found and its bound (exit 10). With --cnf FILE, or with neither --dim nor
    /// --cnf (standard input), solve that DIMACS formula; a board is shown when the file
    /// carries pq-sat's `c var` lines.
    Solve(crate::commands::solve::SolveArgs),
    /// Read a solver's answer to a formula pq-sat wrote back as a board, checked.
    ///
    /// ANSWER is what any solver printed for FORMULA: the SAT competition's `s` and `v`
    /// lines (`kissat q.cnf > k.out`), MiniSat's result file (`minisat q.cnf m.out`) or a
    /// bare model. The model is checked against every clause, read through the formula's
    /// variable map (its `c var` lines) and passed by the independent validator before the
    /// board is printed, as `solve` prints it. Exit codes: 10 SAT (board checked), 20 UNSAT
    /// (the solver's word, unchecked), 0 UNKNOWN, 3 the model falsifies a clause, 4 the
    /// formula has no pq-sat variable map, 1 other errors (an unreadable answer), 2 usage.
    Decode(crate::commands::decode::DecodeArgs),
    /// List or count the boards with exactly n white and n black queens (n = a(d) by default),
    /// every board or one per symmetry orbit.
    ///
    /// Up to symmetry (the default), the orbits of the 16-element group (8 board symmetries x
    /// colour swap) are counted once each; each board printed is its orbit's canonical form
    /// (see `pq-sat canon`), with its orbit size. Boards stream to stdout as they are found.
    Enumerate(crate::commands::enumerate::EnumerateArgs),
    /// Print the canonical form of a board and the size of its orbit.
    ///
    /// Reads a board from FILE or standard input: rows of W, B and . (pq-sat's labelled text
    /// output is accepted too), or JSON (an object with a "board" array, or an array of rows).
    Canon(CanonArgs),
    /// Write a benchmark family: DIMACS files for many boards, army sizes and encodings, with
    /// a manifest (CSV and JSON: sizes, expected status and its source, SHA-256) and a README.
    ///
    /// The peaceable queens on the boards of --dim, or a placement problem (--problem FILE)
    /// for every combination of its --set values (e.g. --set board=4..6 --set red=2,3).
    /// Expected statuses come from pq-sat's own solutions (--verify) or, for the queens, from
    /// the table of proven values a(1..15) (OEIS A250000) that pq-sat carries; otherwise
    /// `unknown`. The directory is written atomically: it appears complete or not at all.
    Family(FamilyArgs),
    /// Split one step into cubes for cube-and-conquer: a directory with the formula, its
    /// cubes as iCNF (`p inccnf`, one `a LITS 0` line per cube) and a manifest.
    ///
    /// The peaceable queens (--dim D --n N), a problem (--problem FILE --n N) or any DIMACS
    /// file (--cnf FILE). The colouring model (the queens' default) is split on the row
    /// colours (--split rows), or a longer prefix of the line colours (--split lines
    /// --prefix K), keeping one cube per symmetry class and dropping the cubes too few
    /// white or black rows and columns rule out; or on the numbers of white rows and
    /// columns (--split counts, through counters added to the formula written to DIR,
    /// which is UNSAT exactly when the original is); then, and for any other formula, a
    /// look-ahead splits each cube until it is easy (--free, --depth). Every cube dropped is
    /// refuted by the formula (with --symmetry none the cubes are complete up to symmetry).
    /// `pq-sat cube DIR --estimate` (or --estimate on a new split) solves a random sample of
    /// the cubes and predicts the total CPU time and the wall time on 1 to 1024 workers.
    Cube(crate::commands::cube::CubeArgs),
    /// Predict what one step costs the line engine, before running it: search a random
    /// sample of its units of work, one at a time on one thread, and extrapolate.
    ///
    /// The line engine's search of a step is a loop over independent units: the row sets
    /// of two armies (each searched with every column set), or the row colourings of
    /// three or more armies (each searched with every column colouring); the step is SAT
    /// iff some unit is. The prediction (total CPU time, and the wall time on 1 to 1024
    /// workers by longest-first scheduling, each with a 95% bootstrap interval) is `cube
    /// --estimate`'s with units in place of cubes. For the SAT path, split the step with
    /// `pq-sat cube ... -o DIR --estimate` instead.
    Estimate(crate::commands::estimate::EstimateArgs),
    /// Check a clausal proof of unsatisfiability with an independent checker: DRAT with
    /// `rate`, LRAT with ACL2's verified LRAT checker (both installed by scripts/setup.sh).
    ///
    /// Prints `verified` or `not verified` with the checker's own verdict and time; exit code
    /// 0 when verified, 1 when not.
    CheckProof(CheckProofArgs),
    /// Re-check a certificate bundle written by `solve --certify DIR`, from its files alone:
    /// hashes, the witness (independent validator), the CNF (a fresh encoding of the claim)
    /// and the proof (independent checker). Exit code 0 when every check passes, 1 otherwise.
    CheckCertificate(CheckCertificateArgs),
    /// Race solvers on a family or any folder of CNF files: every solver on every instance,
    /// every SAT model checked, scored by PAR-2, with a cactus plot.
    ///
    /// DIR is a family (`pq-sat family`: answers are also checked against its manifest,
    /// whose SHA-256 of each file is checked first) or a folder of `*.cnf` files (`.xz`,
    /// `.gz`, `.bz2` too), whose statuses are unknown until a solver answers; an UNSAT that
    /// another solver's checked model contradicts is wrong. A wrong answer is reported on
    /// stderr as it happens, marked in the table, and makes the exit code 1. Ctrl-C keeps
    /// the runs that finished (table, CSV, plot) and exits 130.
    Race(RaceArgs),
    /// Make a benchmark submission for the SAT Competition: instances from a pool (peaceable
    /// queens, three armies, the torus, Dudeney's crowded chessboard), written as .cnf.xz
    /// with their GBD ids, graded by a race of kissat and CaDiCaL, every status proven, and
    /// the two-page description as Markdown and PDF.
    ///
    /// Easy: the best solver needs less than --easy seconds; medium: solved within
    /// --run-timeout; hard: not, with the expected time extrapolated along the instance's series
    /// (marked as such). A SAT status is a model the validator passed; an UNSAT is a DRAT
    /// proof checked by rate (the fastest UNSAT solver is run again with a proof), or the
    /// values OEIS lists for the peaceable queens (A250000) and the three armies (A328283),
    /// tables pq-sat carries; a hard instance goes to the line
    /// engine for a witness, then to the first solver with a DRAT proof for up to
    /// --prove-timeout. The directory is also a family: `pq-sat race DIR` races it again.
    Submission(crate::commands::submission::SubmissionArgs),
    /// Draw a board as an SVG picture: reads pq-sat's JSON output (queens or a placement
    /// problem) or a text board from FILE or standard input.
    Render(RenderArgs),
    /// List the backends found on this machine, with versions, and how to install the
    /// missing ones.
    Solvers {
        /// Output format
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Solve one cube of a cube directory and record its result in DIR/results/ID.json.
    ///
    /// The formula plus the cube's literals (as unit clauses) goes to one solver; a model is
    /// decoded and validated like `solve`'s. What GNU parallel and Slurm run, one cube per
    /// job: `seq 1 N | parallel --joblog DIR/joblog --resume pq-sat solve-cube DIR {}`.
    /// Exit codes as `solve`: 10 SAT, 20 UNSAT, 0 unknown (--exit-zero: 0 for all three).
    SolveCube(crate::commands::solve_cube::SolveCubeArgs),
    /// Solve every cube of a cube directory on N workers, or write a Slurm job array that
    /// does (--emit slurm).
    ///
    /// Resumable: cubes with a SAT or UNSAT result are skipped, and Ctrl-C keeps every
    /// finished result. Stops at the first SAT cube (its board validated and printed);
    /// UNSAT only when every cube is. Exit codes as `solve`: 10 SAT, 20 UNSAT, 0 open.
    Conquer(crate::commands::conquer::ConquerArgs),
    /// Merge the results of a cube directory (from any number of workers and machines) and
    /// say what is proven: SAT, UNSAT, or open (which cubes are missing).
    ///
    /// With --check, re-check the whole bundle: hashes, every cube's proof and the proof
    /// that the cubes are complete. Exit codes: 10 SAT, 20 UNSAT, 0 open; with --check, 1
    /// when a check fails.
    CubeStatus(crate::commands::cube_status::CubeStatusArgs),
    /// Print a shell completion script on standard output.
    ///
    /// bash: `pq-sat completions bash > ~/.local/share/bash-completion/completions/pq-sat`;
    /// zsh: `pq-sat completions zsh > DIR/_pq-sat` with DIR in $fpath; fish:
    /// `pq-sat completions fish > ~/.config/fish/completions/pq-sat.fish`.
    Completions {
        /// The shell
        #[arg(value_enum, value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// Print the SHA-256 and the GBD hash of CNF files, the ids a competition names an
    /// instance by.
    ///
    /// One line per file: the GBD hash (the Global Benchmark Database's id, the MD5 of the
    /// normalised clause list, computed as GBD's own tool does), the SHA-256 of the bytes as
    /// stored (what `sha256sum` prints) and the file name. A compressed file (.xz, .gz,
    /// .bz2, recognised by its content) has the GBD hash of its decompressed text, as GBD
    /// computes it.
    Hash(HashArgs),
    /// Print the manual page (roff) on standard output: pq-sat's, or one command's.
    ///
    /// Install it with `pq-sat man > ~/.local/share/man/man1/pq-sat.1` (and
    /// `pq-sat man encode > ~/.local/share/man/man1/pq-sat-encode.1` for each command), or
    /// read it at once with `pq-sat man | man -l -`.
    Man {
        /// The command whose page to print (e.g. solve) [default: pq-sat's own page]
        #[arg(value_name = "COMMAND")]
        command: Option<String>,
    },
}
