//! `enumerate`'s plan: which engine lists the placements, from a plain
//! [`EnumerateRequest`]. `auto` takes the line engine where it lists the boards (at d = 8,
//! 0.02 s against 4.6 s) and no option given needs the SAT path.

use pq_encode::spec::Problem;
use pq_encode::{Card, Model, Options, Symmetry};

use super::choice::EngineChoice;
use super::PlanError;
use crate::capability::listing::{Request, UpTo};
use crate::capability::Enumerate;
use crate::lines::enumerate::{refusal, LineEnumerator};
use crate::proof::ProofFormat;
use crate::sat::SatEnumerator;

/// `enumerate`'s question as the user gave it.
#[derive(Debug, Clone)]
pub struct EnumerateRequest {
    /// The problem.
    pub problem: Problem,
    /// The size of its maximised groups; none: the optimum, found first.
    pub n: Option<usize>,
    /// `--engine`.
    pub engine: EngineChoice,
    /// Every board, or one per orbit.
    pub up_to: UpTo,
    /// Only configurations to which no piece can be added (`--maximal`).
    pub maximal: bool,
    /// Stop after this many boards (`--limit`).
    pub limit: Option<usize>,
    /// Cubes on this many squares (`--split`).
    pub split: Option<usize>,
    /// Threads (`--jobs`).
    pub jobs: Option<usize>,
    /// `--model`.
    pub model: Option<Model>,
    /// `--card`.
    pub card: Option<Card>,
    /// `--check-unsat`: the UNSAT above an optimum found first needs a checked proof.
    pub check_unsat: bool,
}

impl EnumerateRequest {
    /// A request for every orbit of `problem`'s boards at size `n` (the optimum when
    /// `None`), every option at its default.
    pub fn new(problem: Problem, n: Option<usize>) -> EnumerateRequest {
        EnumerateRequest {
            problem,
            n,
            engine: EngineChoice::Auto,
            up_to: UpTo::Symmetry,
            maximal: false,
            limit: None,
            split: None,
            jobs: None,
            model: None,
            card: None,
            check_unsat: false,
        }
    }
}

/// What lists the boards, and what it lists.
pub struct EnumeratePlan {
    /// The engine's request (its `n` is 0 until the size is known).
    pub request: Request,
    /// The size given; `None`: the optimum, found first.
    pub n: Option<usize>,
    /// Which engine was chosen.
    pub engine: EngineChoice,
    /// The engine.
    pub enumerator: Box<dyn Enumerate>,
}

impl EnumeratePlan {
    /// The plan of `req`.
    ///
    /// # Errors
    /// A model that cannot leave squares empty, `--maximal` for a problem that maximises
    /// nothing, an option the engine asked for cannot take, a problem it cannot list.
    pub fn new(req: EnumerateRequest) -> Result<EnumeratePlan, PlanError> {
        let model = req.model.unwrap_or(Model::Lines);
        if model == Model::Colouring {
            return Err("enumerate needs a model that can leave an allowed square empty: --model lines or pairwise (the colouring model fills every square its lines allow)".into());
        }
        if req.limit == Some(0) {
            return Err("--limit must be at least 1".into());
        }
        let sat_only = [
            (req.model.is_some(), "--model"),
            (req.card.is_some(), "--card"),
            (req.split.is_some(), "--split"),
            (req.check_unsat, "--check-unsat"),
        ];
        let sat_flag = sat_only.iter().find(|(given, _)| *given).map(|(_, f)| *f);
        if let (EngineChoice::Lines, Some(flag)) = (req.engine, sat_flag) {
            return Err(format!(
                "--engine lines reads no formula: it cannot take {flag}; use --engine sat"
            )
            .into());
        }
        let n = super::request::size_asked(&req.problem, req.n)?;
        if req.maximal && req.problem.maximised().is_empty() {
            return Err(
                "--maximal needs a problem that maximises some group (count = \"max\")".into(),
            );
        }
        let jobs = req.jobs.unwrap_or(1);
        let request = Request {
            problem: req.problem,
            n: n.unwrap_or(0),
            up_to: req.up_to,
            maximal: req.maximal,
            options: Options {
                model,
                card: req.card.unwrap_or_default(),
                symmetry: Symmetry::None,
                ..Options::default()
            },
            limit: req.limit,
            split: req.split.unwrap_or(if jobs > 1 { 4 } else { 0 }),
            jobs,
        };
        let sized = Request {
            n: n.unwrap_or(1),
            ..request.clone()
        };
        let refused = refusal(&sized);
        let engine = match req.engine {
            EngineChoice::Auto if sat_flag.is_none() && refused.is_none() => EngineChoice::Lines,
            EngineChoice::Auto => EngineChoice::Sat,
            chosen => chosen,
        };
        if let (EngineChoice::Lines, Some(why)) = (engine, &refused) {
            return Err(format!(
                "--engine lines cannot list these boards: {why}; use --engine sat"
            )
            .into());
        }
        let enumerator: Box<dyn Enumerate> = match engine {
            EngineChoice::Lines => Box::new(LineEnumerator { jobs }),
            _ => Box::new(SatEnumerator {
                check_unsat: req.check_unsat.then_some(ProofFormat::Drat),
            }),
        };
        Ok(EnumeratePlan {
            request,
            n,
            engine,
            enumerator,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pq_solve::control::Limits;

    /// The capability answers as the SAT path it stands for: a(5) = 4 (OEIS A250000), and
    /// 3 essentially different optimal boards on 5 × 5 (OEIS A260680).
    #[test]
    fn the_sat_enumerator_finds_the_optimum_and_its_orbits() {
        let problem = Problem::peaceable_queens(5);
        let e = SatEnumerator { check_unsat: None };
        let (n, _) = e.optimum(&problem).unwrap();
        assert_eq!(n, 4);
        let request = Request::new(problem, n, UpTo::Symmetry, false);
        let mut seen = 0;
        let summary = e
            .enumerate(&request, &Limits::none(), &mut |_, _| seen += 1)
            .unwrap();
        assert_eq!((summary.count, seen), (3, 3));
        assert!(summary.complete);
    }

    fn planned(req: EnumerateRequest) -> Result<EngineChoice, PlanError> {
        EnumeratePlan::new(req).map(|p| p.engine)
    }

    #[test]
    fn auto_lists_by_lines_unless_a_sat_option_or_the_problem_needs_the_sat_path() {
        let queens = EnumerateRequest::new(Problem::peaceable_queens(6), Some(5));
        assert_eq!(planned(queens.clone()), Ok(EngineChoice::Lines));
        for sat in [
            EnumerateRequest {
                model: Some(Model::Pairwise),
                ..queens.clone()
            },
            EnumerateRequest {
                split: Some(2),
                ..queens.clone()
            },
            EnumerateRequest {
                check_unsat: true,
                ..queens.clone()
            },
            EnumerateRequest {
                maximal: true,
                ..queens.clone()
            },
        ] {
            assert_eq!(planned(sat.clone()), Ok(EngineChoice::Sat), "{sat:?}");
        }
        let refused = |req: EnumerateRequest, needle: &str| {
            let PlanError::Refused(e) = planned(req).unwrap_err();
            assert!(e.contains(needle), "{needle}: {e}");
        };
        let lines = EnumerateRequest {
            engine: EngineChoice::Lines,
            ..queens.clone()
        };
        refused(
            EnumerateRequest {
                card: Some(Card::SeqCounter),
                ..lines.clone()
            },
            "cannot take --card",
        );
        refused(
            EnumerateRequest {
                maximal: true,
                ..lines.clone()
            },
            "not maximal configurations",
        );
        refused(
            EnumerateRequest {
                model: Some(Model::Colouring),
                ..queens.clone()
            },
            "leave an allowed square empty",
        );
        refused(
            EnumerateRequest {
                limit: Some(0),
                ..queens
            },
            "--limit",
        );
    }
}
