//! `family`'s arguments and their validation into a [`FamilyJob`].

use std::path::PathBuf;
use std::time::Duration;

use clap::Args as ClapArgs;
use pq_bench::family::Spec;
use pq_encode::{Card, Model, Options, Symmetry};
use pq_engine::proof::ProofFormat;

use crate::args::{
    command_line, parse_around, parse_dims, parse_sizes, parse_timeout, read_problem, CompressArg,
    Dims, InstanceFormat,
};

/// The family to write, validated.
#[derive(Debug)]
pub(crate) struct FamilyJob {
    /// Every instance it holds, planned.
    pub spec: Spec,
    /// The arguments as given.
    pub args: FamilyArgs,
    /// With `--check-unsat`: `--verify` counts an UNSAT only with a checked proof.
    pub check_unsat: Option<ProofFormat>,
}

impl FamilyArgs {
    /// Checks the arguments and plans the family (every instance it would hold, so that a
    /// bad request fails before anything is written); with `check_unsat`, `--verify` counts
    /// an UNSAT only with a checked proof.
    pub(crate) fn validate(self, check_unsat: bool) -> Result<FamilyJob, String> {
        let export = self.instance_format.export();
        if let Some(format) = export {
            let sized = if self.n.is_some() {
                Some("--n")
            } else if self.around_optimum.is_some() {
                Some("--around-optimum")
            } else {
                None
            };
            if let Some(flag) = sized {
                return Err(format!("{flag}: a {} instance states the whole optimisation (every size at once); leave it out", format.name()));
            }
        }
        // Both checked by their parsers: K at least 1, every size at most MAX_PIECES.
        let sizes = match (self.around_optimum, self.n) {
            (_, Some((lo, hi))) => pq_bench::family::Sizes::Range(lo, hi),
            (k, None) => pq_bench::family::Sizes::AroundOptimum(k.unwrap_or(2)),
        };
        let d = Options::default();
        let mut encodings = Vec::new();
        for model in or_default(&self.model, d.model) {
            for card in or_default(&self.card, d.card) {
                for symmetry in or_default(&self.symmetry, d.symmetry) {
                    let o = Options {
                        model,
                        card,
                        symmetry,
                        ..Options::default()
                    };
                    if !encodings.contains(&o) {
                        encodings.push(o);
                    }
                }
            }
        }
        let spec = match (&self.dims, &self.problem) {
            // clap's `requires` lets --set through beside --dim (which conflicts
            // with --problem); the queens have nothing to set.
            (Some(_), None) if !self.set.is_empty() => {
                return Err(
                    "--set needs --problem FILE (the queens' boards are given with --dim)".into(),
                )
            }
            (Some(dims), None) => pq_bench::family::Spec {
                compress: self.compress.format(),
                export,
                ..pq_bench::family::Spec::queens(&dims.0, sizes, encodings, command_line())
            },
            (None, Some(path)) => {
                // The settings expanded into their cartesian product.
                let members =
                    pq_bench::family::settings::expand_settings(&read_problem(path)?, &self.set)
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                let maximising = members.iter().any(|m| !m.problem.maximised().is_empty());
                if !maximising {
                    if self.n.is_some() {
                        return Err("--n: this problem maximises no group (its counts are fixed: vary one with --set GROUP=A..B, or maximise it with --set GROUP=max)".into());
                    }
                    if self.around_optimum.is_some() {
                        return Err("--around-optimum: this problem maximises no group (its counts are fixed; change one with --set GROUP=max)".into());
                    }
                } else if self.n.is_none() && self.verify.is_none() && export.is_none() {
                    return Err("pq-sat has a table of proven optima only for the peaceable queens (--dim): give the sizes of the maximised groups with --n LO..HI, or add --verify SEC so that --around-optimum finds each optimum first".into());
                }
                let stem = path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                pq_bench::family::Spec {
                    family: pq_bench::family::FamilyKind::Problem {
                        stem: pq_bench::family::settings::file_safe(&stem),
                        file: path.display().to_string(),
                    },
                    members,
                    sizes,
                    encodings,
                    command: command_line(),
                    compress: self.compress.format(),
                    export,
                }
            }
            _ => return Err("family needs --dim D or --problem FILE".into()),
        };
        // The optima of a placement problem are found when the family is written.
        if !spec.needs_optima() {
            spec.plan().map_err(|e| e.to_string())?;
        }
        Ok(FamilyJob {
            spec,
            args: self,
            check_unsat: check_unsat.then_some(ProofFormat::Drat),
        })
    }
}

#[derive(ClapArgs, Debug)]
#[command(group(clap::ArgGroup::new("family_of").required(true).args(["dims", "problem"])))]
pub(crate) struct FamilyArgs {
    #[command(flatten)]
    pub checking: crate::args::CheckUnsatArg,
    /// Board sides of the peaceable queens: one, a range A..B (inclusive) or a list, e.g.
    /// 8, 4..14 or 6,8,10
    #[arg(long = "dim", value_name = "D", value_parser = parse_dims)]
    pub dims: Option<Dims>,
    /// A placement problem (TOML; see encodings/*.toml) instead of the queens: its
    /// instances, for every combination of the --set values
    #[arg(long, value_name = "FILE")]
    pub problem: Option<PathBuf>,
    /// Set KEY of the problem to each of VALUES: a value, a range A..B or a comma-separated
    /// list; KEY a group name (counts, or max), board (board=4..6 is 4x4, 5x5, 6x6;
    /// board=5x5,6x8), rows, cols (ranges or lists) or torus (true,false). May be repeated:
    /// the family has every combination (at most 10000 problems)
    #[arg(long = "set", value_name = "KEY=VALUES", requires = "problem")]
    pub set: Vec<String>,
    /// For each board (each problem), the sizes a−K+1 ..= a+K around the optimum a: K
    /// satisfiable and K unsatisfiable. The queens take a(d) from the table of proven values
    /// (d ≤ 15); a placement problem needs --verify, which finds each optimum first
    /// [default: 2, unless --n is given]
    #[arg(long, value_name = "K", conflicts_with = "n", value_parser = parse_around)]
    pub around_optimum: Option<usize>,
    /// Army sizes LO..HI (inclusive) for every d instead; with --problem, the sizes of its
    /// maximised groups (a problem that maximises none has the single size 0)
    #[arg(long, value_name = "LO..HI", value_parser = parse_sizes)]
    pub n: Option<(usize, usize)>,
    /// Attack models, comma-separated [default: colouring] (a placement problem other than
    /// the peaceable queens is written with lines in place of colouring)
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub model: Vec<Model>,
    /// Cardinality encodings, comma-separated [default: totalizer]
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub card: Vec<Card>,
    /// Symmetry breaking, comma-separated (none, lex-leader) [default: lex-leader]
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub symmetry: Vec<Symmetry>,
    /// Also solve every instance with pq-sat (the default portfolio) for at most SEC seconds
    /// each, recording proven statuses; a contradiction with the table is an error. With
    /// --problem and --around-optimum, first find each problem's optimum (SEC per step)
    #[arg(long, value_name = "SEC", value_parser = parse_timeout)]
    pub verify: Option<Duration>,
    /// Compress every instance file (NAME.cnf.xz, .gz, .bz2); the manifest's SHA-256 is of
    /// the compressed file, as downloaded. `race` reads them as they are
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = CompressArg::None)]
    pub compress: CompressArg,
    /// The instances: cnf (one DIMACS file per size), or one optimisation file per board
    /// (maximise n, no --n or --around-optimum) as wcnf (MaxSAT) or opb (pseudo-Boolean),
    /// its known optimum in the manifest; `race` runs optimisers on them
    #[arg(long, value_enum, value_name = "KIND", default_value_t = InstanceFormat::Cnf)]
    pub instance_format: InstanceFormat,
    /// The directory to create (it must not exist, or be empty; --force replaces an earlier
    /// family)
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    #[command(flatten)]
    pub replace: crate::args::ForceArg,
    #[command(flatten)]
    pub report: crate::args::FormatArg,
}

/// The values given, or the default alone.
fn or_default<T: Copy>(given: &[T], default: T) -> Vec<T> {
    if given.is_empty() {
        vec![default]
    } else {
        given.to_vec()
    }
}
