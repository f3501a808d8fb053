//! The optimisation (the largest size `n` of a problem's maximised groups: a(d) for the
//! peaceable queens) as one file for an external optimiser: WCNF, the input format of the
//! MaxSAT Evaluations since 2022, or OPB, that of the Pseudo-Boolean Competitions.
//!
//! Both state `n` as a unary ladder `y_1 ≥ y_2 ≥ … ≥ y_K` over `K` =
//! [`Problem::upper_bound`] new variables, `y_k` meaning "every maximised group has at least
//! `k` pieces", so that `n = y_1 + … + y_K` (the order encoding of an integer: Tamura,
//! Taga, Kitagawa & Banbara, "Compiling finite linear CSP into SAT", Constraints 2009):
//!
//! - **WCNF** ([`Export::Wcnf`]): hard clauses are those of
//!   [`encode_problem_incremental`] for the sizes `1..=K` (the rules, the fixed counts,
//!   symmetry breaking, and one totalizer per maximised group whose outputs are left open;
//!   Bailleux & Boufkhad, CP 2003), `y_k → output_k` of each group's totalizer, and the
//!   ladder `y_(k+1) → y_k`; the soft clauses are the units `y_k` of weight 1. A model of
//!   cost `c` has `n = K − c`: minimising the cost maximises `n`.
//! - **OPB** ([`Export::Opb`]): the clauses of [`encode_problem`] at size 0 (the rules, the
//!   fixed counts, symmetry breaking) as inequalities `Σ lits ≥ 1`, then for each maximised
//!   group `Σ pieces − Σ y_k ≥ 0` (a native linear constraint: no totalizer, which is what a
//!   pseudo-Boolean solver is for), the ladder `y_k − y_(k+1) ≥ 0`, and the objective
//!   `min: −y_1 … −y_K`, whose value is `−n`.
//!
//! The ladder makes the two objectives exact: a model's `y`s count `n` with no slack to
//! trade, and every optimal model has `n` = the optimum. WCNF follows the MaxSAT Evaluation
//! 2022 rules (`c` comments, `h` hard clauses, `W lits 0` soft clauses, no `p` line); OPB the
//! PB competition format (Roussel & Manquinho, "Input/output format and solver requirements
//! for the competitions of pseudo-Boolean solvers", 2016: a first line
//! `* #variable= N #constraint= M`, `*` comments, `min: ... ;`, constraints
//! `+1 x1 -1 x2 >= 0 ;`, no negated literals, so that strict parsers read it too). Both carry
//! pq-sat's header and its `var` map as comments, so a model from any optimiser decodes into
//! a placement.
//!
//! ```
//! use pq_encode::maxsat::{export, Export};
//! use pq_encode::spec::Problem;
//! use pq_encode::Options;
//! let opt = export(&Problem::peaceable_queens(4), &Options::default(), Export::Wcnf).unwrap();
//! assert_eq!(opt.bound(), 4, "⌊4²/4⌋");
//! let mut text = Vec::new();
//! opt.write(&mut text).unwrap();
//! let text = String::from_utf8(text).unwrap();
//! assert!(text.lines().any(|l| l.starts_with("h ")) && !text.contains("\np "));
//! assert_eq!(opt.size_of(1), Some(3), "cost 1: n = 4 - 1");
//! ```

use std::io::{self, Write};

use rustsat::types::Lit;

use crate::dimacs::write_header;
use crate::general::{encode_problem, encode_problem_incremental};
use crate::spec::Problem;
use crate::{Formula, Options};

/// The file format of an exported optimisation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Export {
    /// Weighted partial MaxSAT, the MaxSAT Evaluation 2022+ format.
    Wcnf,
    /// Linear pseudo-Boolean optimisation, the PB competition's OPB format.
    Opb,
}

impl Export {
    /// The format's name and usual file extension: `wcnf` or `opb`.
    pub fn name(self) -> &'static str {
        match self {
            Export::Wcnf => "wcnf",
            Export::Opb => "opb",
        }
    }
}

/// The optimisation cannot be exported.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// Every count of the problem is fixed: there is nothing to maximise.
    #[error("this problem maximises no group: there is nothing to optimise (its counts are fixed; maximise one with --set GROUP=max, or write DIMACS)")]
    NothingMaximised,
}

/// An exported optimisation: its constraints, the ladder that counts `n`, and what decodes
/// a model.
#[derive(Clone, Debug)]
pub struct Optimisation {
    /// The format it is written in.
    pub export: Export,
    /// The clauses (WCNF: every hard clause, ladder included; OPB: the clauses, written as
    /// inequalities, without the linear constraints), the header and the piece map that
    /// decodes a model.
    pub formula: Formula,
    /// `y_1 ..= y_K`, DIMACS indices.
    pub ladder: Vec<u32>,
    /// OPB: the piece variables of each maximised group (empty for WCNF, whose totalizers
    /// are clauses of `formula`).
    counted: Vec<Vec<u32>>,
}

/// The optimisation of `problem` (its maximised groups, all one size) in `export`'s format,
/// encoded with `options` (the maximised groups of a WCNF are always counted by totalizers;
/// `options.card` counts the fixed groups).
///
/// # Errors
/// [`ExportError::NothingMaximised`] when every count is fixed.
pub fn export(
    problem: &Problem,
    options: &Options,
    export: Export,
) -> Result<Optimisation, ExportError> {
    let bound = problem.upper_bound().ok_or(ExportError::NothingMaximised)?;
    let maximised = problem.maximised();
    let (mut formula, counted, totalizers) = match export {
        Export::Wcnf => {
            let inc = encode_problem_incremental(problem, options, bound.min(1), bound);
            let outputs: Vec<Vec<Lit>> = (1..=bound)
                .map(|k| inc.assumptions(k).expect("encoded").to_vec())
                .collect();
            (inc.formula, Vec::new(), outputs)
        }
        Export::Opb => {
            let formula = encode_problem(problem, 0, options);
            let map = formula
                .pieces
                .as_ref()
                .expect("pq-sat formulas map their pieces");
            let counted = maximised
                .iter()
                .map(|&g| {
                    let vars = map.vars.iter().filter(|v| v.group == g);
                    vars.map(|v| v.dimacs).collect()
                })
                .collect();
            (formula, counted, Vec::new())
        }
    };
    let first = formula.n_vars + 1;
    let ladder: Vec<u32> = (0..bound as u32).map(|k| first + k).collect();
    formula.n_vars += bound as u32;
    let y = |dimacs: u32| Lit::positive(dimacs - 1);
    if export == Export::Wcnf {
        for (k, outputs) in totalizers.iter().enumerate() {
            for &out in outputs {
                formula.cnf.add_binary(!y(ladder[k]), out);
            }
        }
        for pair in ladder.windows(2) {
            formula.cnf.add_binary(!y(pair[1]), y(pair[0]));
        }
    }
    // The size the one-size headers state (0, or "any n in 1..=K") is not this file's.
    formula.comments.retain(|c| {
        !(c.starts_with("n ") || c.starts_with("at least 0 ") || c.starts_with("incremental:"))
    });
    let names: Vec<&str> = maximised
        .iter()
        .map(|&g| problem.rules.groups[g].name.as_str())
        .collect();
    let vars = match bound {
        0 => "none: nothing fits".to_string(),
        _ => format!("variables {first}..={}", first + bound as u32 - 1),
    };
    let what = match export {
        Export::Wcnf => "hard: the rules, y_k -> at least k of each (totalizer outputs), y_(k+1) -> y_k; soft: each y_k with weight 1; optimum cost = K - n",
        Export::Opb => "the clauses as inequalities '>= 1', each group's pieces - (y_1 + ... + y_K) >= 0, y_k - y_(k+1) >= 0; objective min: -(y_1 + ... + y_K) = -n",
    };
    formula.comments.insert(
        1.min(formula.comments.len()),
        format!(
            "{}: maximise n = the size of {} = y_1 + ... + y_K, K = {bound} ({vars}); {what}",
            export.name(),
            names.join(" = "),
        ),
    );
    Ok(Optimisation {
        export,
        formula,
        ladder,
        counted,
    })
}

impl Optimisation {
    /// `K`: the largest size the ladder can state ([`Problem::upper_bound`]).
    pub fn bound(&self) -> usize {
        self.ladder.len()
    }

    /// The number of constraints the file states: hard and soft clauses (WCNF), or
    /// inequalities without the objective (OPB).
    pub fn n_constraints(&self) -> usize {
        let linear = self.counted.len() + self.ladder.len().saturating_sub(1);
        match self.export {
            Export::Wcnf => self.formula.n_clauses() + self.ladder.len(),
            Export::Opb => self.formula.n_clauses() + linear,
        }
    }

    /// The size `n` an objective value stands for (WCNF: the cost `K − n`; OPB: `−n`), if
    /// any size does.
    pub fn size_of(&self, objective: i64) -> Option<usize> {
        let n = match self.export {
            Export::Wcnf => (self.bound() as i64).checked_sub(objective)?,
            Export::Opb => objective.checked_neg()?,
        };
        usize::try_from(n).ok().filter(|&n| n <= self.bound())
    }

    /// The objective value of a model (`value` of each DIMACS variable): the number of
    /// false `y_k` for WCNF, minus the number of true ones for OPB.
    pub fn objective(&self, value: impl Fn(u32) -> bool) -> i64 {
        let set = self.ladder.iter().filter(|&&y| value(y)).count() as i64;
        match self.export {
            Export::Wcnf => self.bound() as i64 - set,
            Export::Opb => -set,
        }
    }

    /// The first hard constraint a model (`value` of each DIMACS variable) violates, in
    /// words; `None` when it satisfies every one.
    pub fn violation(&self, value: impl Fn(u32) -> bool) -> Option<String> {
        let holds = |lit: &Lit| value(lit.var().idx32() + 1) != lit.is_neg();
        if let Some(i) = self.formula.cnf.iter().position(|c| !c.iter().any(holds)) {
            return Some(format!("violates clause {} of the formula", i + 1));
        }
        let n = self.ladder.iter().filter(|&&y| value(y)).count();
        for (i, pieces) in self.counted.iter().enumerate() {
            let count = pieces.iter().filter(|&&x| value(x)).count();
            if count < n {
                return Some(format!(
                    "violates linear constraint {} (maximised group {} has {count} pieces, the ladder says {n})",
                    i + 1,
                    i + 1
                ));
            }
        }
        let broken = self
            .ladder
            .windows(2)
            .position(|p| value(p[1]) && !value(p[0]));
        broken.map(|k| {
            format!(
                "violates the ladder: y_{} is set but y_{} is not",
                k + 2,
                k + 1
            )
        })
    }

    /// Writes the file: WCNF or OPB, as [`Optimisation::export`] says.
    pub fn write<W: Write>(&self, out: W) -> io::Result<()> {
        let mut out = io::BufWriter::with_capacity(1 << 16, out);
        match self.export {
            Export::Wcnf => self.write_wcnf(&mut out)?,
            Export::Opb => self.write_opb(&mut out)?,
        }
        out.flush()
    }

    fn write_wcnf<W: Write>(&self, out: &mut W) -> io::Result<()> {
        write_header(&self.formula, "c", out)?;
        for clause in &self.formula.cnf {
            out.write_all(b"h")?;
            for &lit in clause.iter() {
                write!(out, " {}", lit.to_ipasir())?;
            }
            out.write_all(b" 0\n")?;
        }
        for y in &self.ladder {
            writeln!(out, "1 {y} 0")?;
        }
        Ok(())
    }

    fn write_opb<W: Write>(&self, out: &mut W) -> io::Result<()> {
        let constraints =
            self.formula.n_clauses() + self.counted.len() + self.ladder.len().saturating_sub(1);
        // The PB competition's parsers read the sizes from the very first line.
        writeln!(
            out,
            "* #variable= {} #constraint= {constraints}",
            self.formula.n_vars
        )?;
        write_header(&self.formula, "*", out)?;
        if !self.ladder.is_empty() {
            out.write_all(b"min:")?;
            for y in &self.ladder {
                write!(out, " -1 x{y}")?;
            }
            out.write_all(b" ;\n")?;
        }
        for clause in &self.formula.cnf {
            // l1 ∨ … ∨ lk as Σ pos − Σ neg ≥ 1 − #neg (a negated x is 1 − x).
            let mut negated = 0i64;
            for &lit in clause.iter() {
                let var = lit.var().idx32() + 1;
                if lit.is_neg() {
                    negated += 1;
                    write!(out, "-1 x{var} ")?;
                } else {
                    write!(out, "+1 x{var} ")?;
                }
            }
            if clause.is_empty() {
                // The format has no empty sum: 0 >= 1 written with a term that cancels.
                out.write_all(b"+1 x1 -1 x1 ")?;
            }
            writeln!(out, ">= {} ;", 1 - negated)?;
        }
        for pieces in &self.counted {
            for x in pieces {
                write!(out, "+1 x{x} ")?;
            }
            for y in &self.ladder {
                write!(out, "-1 x{y} ")?;
            }
            if pieces.is_empty() && self.ladder.is_empty() {
                out.write_all(b"+1 x1 -1 x1 ")?;
            }
            out.write_all(b">= 0 ;\n")?;
        }
        for pair in self.ladder.windows(2) {
            writeln!(out, "+1 x{} -1 x{} >= 0 ;", pair[0], pair[1])?;
        }
        Ok(())
    }
}

/// What an exported file (its text) was made for, read back from its header comments: the
/// format, the problem (its maximised groups marked `(maximised)` in the header, both armies
/// for the queens) and the encoding options; `None` when the text carries no pq-sat header.
/// Export that again and compare the bytes to know the file is pq-sat's export of it.
pub fn read_subject(text: &str) -> Option<(Problem, Options, Export)> {
    let first = text.lines().find(|l| !l.trim().is_empty())?;
    let (format, marker) = if first.starts_with("* #variable=") {
        (Export::Opb, "*")
    } else {
        (Export::Wcnf, "c")
    };
    let comments: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix(marker))
        .map(|c| c.trim().to_string())
        .filter(|c| !c.starts_with("#variable=") && !c.starts_with("var "))
        .collect();
    let mut problem = crate::header::read_problem(&comments)?;
    if crate::header::short_form(&comments) {
        problem.counts = vec![crate::spec::Count::Maximise; 2];
    } else {
        for c in comments.iter().filter(|c| c.ends_with("(maximised)")) {
            let name = c.split_whitespace().nth(1)?;
            let g = problem.rules.groups.iter().position(|g| g.name == name)?;
            problem.counts[g] = crate::spec::Count::Maximise;
        }
    }
    Some((problem, crate::header::options(&comments), format))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustsat::solvers::{Solve, SolverResult};
    use rustsat::types::{TernaryVal, Var};

    /// The largest `n` the hard part allows, by SAT calls that fix the ladder: what an
    /// optimiser must find.
    fn optimum(opt: &Optimisation) -> usize {
        let mut best = 0;
        for n in 1..=opt.bound() {
            let mut solver = rustsat_cadical::CaDiCaL::default();
            solver.add_cnf(opt.formula.cnf.clone()).unwrap();
            // OPB's linear constraints, as clauses for the test: at most the count.
            let y = |k: usize| Lit::positive(opt.ladder[k] - 1);
            solver.add_unit(y(n - 1)).unwrap();
            if opt.export == Export::Opb {
                let mut vars = rustsat::instances::BasicVarManager::from_next_free(Var::new(
                    opt.formula.n_vars,
                ));
                for pieces in &opt.counted {
                    let lits: Vec<Lit> = pieces.iter().map(|&x| Lit::positive(x - 1)).collect();
                    let mut tot: rustsat::encodings::card::Totalizer = lits.into_iter().collect();
                    let mut cnf = rustsat::instances::Cnf::new();
                    use rustsat::encodings::card::BoundLower;
                    tot.encode_lb(n..=n, &mut cnf, &mut vars).unwrap();
                    solver.add_cnf(cnf).unwrap();
                    for l in tot.enforce_lb(n).unwrap() {
                        solver.add_unit(l).unwrap();
                    }
                }
            }
            if solver.solve().unwrap() != SolverResult::Sat {
                break;
            }
            let value =
                |v: u32| solver.lit_val(Var::new(v - 1).pos_lit()).unwrap() == TernaryVal::True;
            let map = opt.formula.pieces.as_ref().unwrap();
            let board = map.decode(value).unwrap();
            assert!(board.count(0) >= n && board.count(1) >= n);
            best = n;
        }
        best
    }

    #[test]
    fn both_formats_state_the_optimum_of_the_queens() {
        // a(d) for d = 3..5 (OEIS A250000), as expectations.
        for (d, a) in [(3, 1), (4, 2), (5, 4)] {
            for format in [Export::Wcnf, Export::Opb] {
                let opt =
                    export(&Problem::peaceable_queens(d), &Options::default(), format).unwrap();
                assert_eq!(opt.bound(), d * d / 4);
                assert_eq!(optimum(&opt), a, "d = {d}, {format:?}");
            }
        }
    }

    #[test]
    fn objectives_and_sizes_correspond() {
        let q = Problem::peaceable_queens(4);
        let w = export(&q, &Options::default(), Export::Wcnf).unwrap();
        let o = export(&q, &Options::default(), Export::Opb).unwrap();
        let two = |v: u32| w.ladder[..2].contains(&v) || o.ladder[..2].contains(&v);
        assert_eq!(w.objective(two), 2);
        assert_eq!(o.objective(two), -2);
        assert_eq!((w.size_of(2), o.size_of(-2)), (Some(2), Some(2)));
        assert_eq!(
            (w.size_of(5), o.size_of(1), o.size_of(-5)),
            (None, None, None)
        );
        let gap = |v: u32| v == w.ladder[1];
        assert!(w.violation(gap).unwrap().contains("violates"));
    }

    fn text(opt: &Optimisation) -> String {
        let mut out = Vec::new();
        opt.write(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// The peaceable queens on 3 × 3 in `format`, and the file's text.
    fn queens_3(format: Export) -> (Optimisation, String) {
        let problem = Problem::peaceable_queens(3);
        let opt = export(&problem, &Options::default(), format).unwrap();
        let text = text(&opt);
        (opt, text)
    }

    #[test]
    fn wcnf_keeps_to_the_2022_format() {
        let (opt, text) = queens_3(Export::Wcnf);
        let mut hard = 0;
        let mut soft = Vec::new();
        for line in text.lines() {
            let fields: Vec<&str> = line.split_whitespace().collect();
            match fields[0] {
                "c" => continue,
                "h" => hard += 1,
                w => {
                    assert_eq!(w, "1", "soft clauses weigh 1: {line}");
                    soft.push(fields[1].parse::<u32>().unwrap());
                }
            }
            assert_eq!(fields.last(), Some(&"0"), "{line}");
        }
        assert_eq!(hard, opt.formula.n_clauses());
        assert_eq!(soft, opt.ladder);
        assert!(text.contains("c var 1 white 1 1\n"));
        assert!(text.starts_with("c pq-sat "));
    }

    #[test]
    fn opb_keeps_to_the_competition_format() {
        let (opt, text) = queens_3(Export::Opb);
        let mut lines = text.lines();
        let first = lines.next().unwrap();
        let vars = opt.formula.n_vars;
        let constraints = opt.formula.n_clauses() + 2 + 1;
        assert_eq!(
            first,
            format!("* #variable= {vars} #constraint= {constraints}")
        );
        let (mut seen, mut objective) = (0, 0);
        for line in lines {
            if line.starts_with('*') {
                continue;
            }
            assert!(line.ends_with(" ;"), "{line}");
            let body = line.strip_suffix(" ;").unwrap();
            let terms = if let Some(rest) = body.strip_prefix("min:") {
                objective += 1;
                rest.trim()
            } else {
                seen += 1;
                let (terms, degree) = body.split_once(" >= ").unwrap();
                degree.parse::<i64>().unwrap();
                terms
            };
            let fields: Vec<&str> = terms.split_whitespace().collect();
            for pair in fields.chunks(2) {
                assert!(matches!(pair[0], "+1" | "-1"), "{line}");
                let v: u32 = pair[1].strip_prefix('x').unwrap().parse().unwrap();
                assert!((1..=vars).contains(&v), "{line}");
            }
        }
        assert_eq!((seen, objective), (constraints, 1));
        assert!(text.contains("\n* var 1 white 1 1\n"));
    }

    #[test]
    fn a_problem_without_maximised_groups_is_refused() {
        let mut p = Problem::peaceable_queens(4);
        p.set_all([("white", "2"), ("black", "2")]).unwrap();
        assert!(export(&p, &Options::default(), Export::Wcnf).is_err());
    }

    #[test]
    fn an_export_is_read_back_to_the_same_bytes() {
        let three =
            Problem::from_toml(include_str!("../../../encodings/three-armies.toml")).unwrap();
        for problem in [Problem::peaceable_queens(4), three] {
            for format in [Export::Wcnf, Export::Opb] {
                let options = Options {
                    symmetry: crate::Symmetry::None,
                    ..Options::default()
                };
                let written = text(&export(&problem, &options, format).unwrap());
                let (p, o, f) = read_subject(&written).unwrap();
                // The general encoder names colouring `lines` (what it builds).
                assert_eq!((o.symmetry, f), (options.symmetry, format));
                assert_eq!(text(&export(&p, &o, f).unwrap()), written, "{format:?}");
            }
        }
        assert!(read_subject("h 1 0\n").is_none());
    }
}
