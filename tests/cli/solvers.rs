//! The external solver binaries (installed by scripts/setup.sh) agree with the in-process
//! answers on pq-sat's DIMACS files, and every SAT model decodes to a valid board.

use pq_encode::{dimacs, encode, Instance, Model, Options};
use pq_engine::capability::Status;
use pq_engine::sat::pipeline::solve_formula;
use pq_solve::backend::Backend;
use pq_solve::backend::{Cadical, Varisat};
use pq_solve::control::Limits;
use pq_solve::external::ExternalSolver;

fn known_a(d: usize) -> usize {
    [0, 0, 0, 1, 2, 4, 5, 7][d]
}

#[test]
fn binaries_agree_with_in_process_answers_up_to_d7() {
    let externals: Vec<Box<dyn Backend>> = vec![
        Box::new(ExternalSolver::kissat().expect("kissat: run scripts/setup.sh")),
        Box::new(ExternalSolver::minisat().expect("minisat: run scripts/setup.sh")),
        Box::new(ExternalSolver::cadical().expect("cadical: run scripts/setup.sh")),
    ];
    let dir = tempfile::tempdir().unwrap();
    for d in 1..=7 {
        let a = known_a(d);
        for n in [a.saturating_sub(1), a, a + 1] {
            let Ok(instance) = Instance::new(d, n) else {
                continue;
            };
            for &model in Model::ALL {
                let options = Options {
                    model,
                    ..Options::default()
                };
                let formula = encode(&instance, &options);
                // Through a real file and back, as a competition solver would see it.
                let path = dir.path().join(format!("q{d}-{n}-{model}.cnf"));
                dimacs::write(&formula, std::fs::File::create(&path).unwrap()).unwrap();
                let parsed =
                    dimacs::parse(std::io::BufReader::new(std::fs::File::open(&path).unwrap()))
                        .unwrap();
                // The problem comes back from the file's own header, as `solve --cnf` reads it.
                let problem =
                    pq_encode::header::read_problem(&parsed.comments).expect("a queens header");
                let solve = |backend: &dyn pq_solve::backend::Backend| {
                    solve_formula(Some(&problem), 0, &parsed, backend, &Limits::none())
                };
                let expected = solve(&Cadical).unwrap().status;
                assert_eq!(expected == Status::Sat, n <= a, "d={d} n={n} {model}");
                let varisat = solve(&Varisat).unwrap().status;
                assert_eq!(varisat, expected, "varisat d={d} n={n} {model}");
                for backend in &externals {
                    let outcome = solve(backend.as_ref())
                        .unwrap_or_else(|e| panic!("{} d={d} n={n}: {e}", backend.name()));
                    assert_eq!(
                        outcome.status,
                        expected,
                        "{} d={d} n={n} {model}",
                        backend.name()
                    );
                    assert_eq!(outcome.placement.is_some(), expected == Status::Sat);
                }
            }
        }
    }
}
