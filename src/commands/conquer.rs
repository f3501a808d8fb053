//! `pq-sat solve-cube`, `pq-sat conquer` and `pq-sat cube-status`: the conquer half of
//! cube-and-conquer on a cube directory ([`pq_engine::cube`]). The engine solves, records
//! and merges; this module picks the backend, shows progress and prints the reports of
//! [`crate::report::cube`].

use pq_solve::output::WritePolicy;
use std::time::Instant;

use anyhow::{Context, Result};
use pq_encode::header::one_line;
use pq_engine::cube::conquer::{
    conquer as conquer_cubes, prove_completeness, record, solve_cube as solve_one, CubeDir, Method,
    Plan,
};
use pq_engine::cube::status::{check_bundle, merged, summary, Verdict};
use pq_engine::cube::{read_results, CubeResult, Status};
use pq_solve::answer::Answer;
use pq_solve::backend::accept_all;
use pq_solve::control::Limits;
use pq_solve::Backend;

use super::{input_dir, member, unless_interrupted, Interruptible, EXIT_SAT, EXIT_UNSAT};
use crate::cli::{ConquerArgs, CubeSolver, CubeStatusArgs, Emit, SolveCubeArgs};
use crate::files::write_atomically;
use crate::progress::CubeProgress;
use crate::report::cube::{Completeness, ConquerReport, CubeSolved, CubeTotals};
use crate::report::emit;

const MAKE: &str = "make one with `pq-sat cube`";

/// Opens the cube directory `dir`, with messages that say what it is not.
fn open(dir: &std::path::Path) -> Result<CubeDir> {
    input_dir(dir, "cube", MAKE)?;
    Ok(CubeDir::open(dir)?)
}

/// The exit code of a cube's (or a directory's) answer.
fn code(status: Status) -> u8 {
    match status {
        Status::Sat => EXIT_SAT,
        Status::Unsat => EXIT_UNSAT,
        Status::Unknown => 0,
    }
}

/// The backend of `solver` when it solves without writing a proof (checked with
/// `--check-unsat`).
fn plain_backend(solver: &CubeSolver) -> Result<Box<dyn Backend>> {
    member(&solver.spec, solver.check_unsat)
}

/// How each cube is solved: with `--proof` by the proof-writing solver `solver` names,
/// otherwise by its plain backend, kept in `backend` for as long as the method is used.
fn method<'a>(
    solver: &'a CubeSolver,
    backend: &'a mut Option<Box<dyn Backend>>,
) -> Result<Method<'a>> {
    Ok(match solver.proof {
        Some(format) => Method::Proof {
            spec: &solver.spec,
            format,
            check: solver.check_unsat.is_some(),
            keep: solver.keep,
        },
        None => Method::Backend(&**backend.insert(plain_backend(solver)?)),
    })
}

/// `solve-cube DIR ID`: solves one cube and records its result.
pub fn solve_cube(a: &SolveCubeArgs, solver: &CubeSolver) -> Result<u8> {
    let dir = open(&a.dir)?;
    if a.completeness {
        return completeness(&dir, a, solver);
    }
    let id = a.id.expect("clap requires ID without --completeness");
    let cube = dir.manifest.cube(id)?.clone();
    let exit = |status: Status| if a.exit_zero { 0 } else { code(status) };
    if a.resume {
        let results = read_results(&dir.path, &dir.manifest)?;
        if let Some(r) = results[id - 1]
            .clone()
            .filter(|r| r.status != Status::Unknown)
        {
            let report = CubeSolved {
                dir: dir.path.display().to_string(),
                result: r.clone(),
                cube: cube.lits,
                witness: None,
                reason: Some("already decided (--resume)".into()),
                recorded: false,
            };
            emit(a.format, &report, || report.text(None, None))?;
            return Ok(exit(r.status));
        }
    }
    let limits = Limits::timeout(a.solver.timeout);
    let mut backend = None;
    let method = method(solver, &mut backend)?;
    let solved = {
        let _guard = Interruptible::enter();
        solve_one(&dir, id, &method, &limits)?
    };
    let recorded = record(&dir, &solved, None)?;
    let placement = solved.outcome.placement.as_ref();
    let report = CubeSolved {
        dir: dir.path.display().to_string(),
        result: solved.result.clone(),
        cube: cube.lits,
        witness: (dir.problem.as_ref())
            .zip(placement)
            .map(|(p, pl)| crate::report::solve::Witness::of(p, pl)),
        reason: solved.outcome.reason.clone(),
        recorded,
    };
    emit(a.format, &report, || {
        report.text(dir.problem.as_ref(), placement)
    })?;
    Ok(unless_interrupted(exit(solved.result.status)))
}

/// `solve-cube DIR --completeness`: the formula plus the negation of every cube, which is
/// UNSAT when the cubes cover every model; with `--proof`, proved and kept for
/// `cube-status --check`.
fn completeness(dir: &CubeDir, a: &SolveCubeArgs, solver: &CubeSolver) -> Result<u8> {
    let limits = Limits::timeout(a.solver.timeout);
    let start = Instant::now();
    let _guard = Interruptible::enter();
    let (answer, name, proof) = if let Some(format) = solver.proof {
        let check = solver.check_unsat.is_some();
        let (answer, name) = prove_completeness(dir, &solver.spec, format, check, &limits)?;
        let path = dir.completeness_proof_path(format);
        let proof = (answer == Answer::Unsat).then(|| path.display().to_string());
        (answer, name, proof)
    } else {
        let backend = plain_backend(solver)?;
        let (answer, name) =
            backend.solve_judged(&dir.completeness_formula(), &limits, &accept_all)?;
        (answer, name, None)
    };
    let status = match &answer {
        Answer::Unsat => "complete",
        Answer::Sat(_) => "incomplete",
        Answer::Unknown(_) => "unknown",
    };
    let report = Completeness {
        dir: dir.path.display().to_string(),
        status: status.into(),
        cubes: dir.manifest.cubes.len(),
        solver: name,
        seconds: start.elapsed().as_secs_f64(),
        proof,
        verified: (answer == Answer::Unsat).then_some(solver.check_unsat.is_some()),
    };
    emit(a.format, &report, || {
        let mut text = match &answer {
            Answer::Unsat => format!(
                "complete: the formula plus the negation of each of the {} cubes is UNSAT ({}, {:.2} s{})\n",
                report.cubes,
                report.solver,
                report.seconds,
                if report.verified == Some(true) { ", proof checked" } else { "" }
            ),
            Answer::Sat(_) => format!(
                "INCOMPLETE: the formula has a model that none of the {} cubes covers ({})\n",
                report.cubes, report.solver
            ),
            Answer::Unknown(why) => format!("UNKNOWN whether the cubes are complete: {why}\n"),
        };
        if let Some(p) = &report.proof {
            text.push_str(&format!("proof: {p}\n"));
        }
        text
    })?;
    if matches!(answer, Answer::Sat(_)) {
        anyhow::bail!(
            "the cubes of {} are not complete: some model of the formula extends none of them, so their answers prove nothing (split the formula again)",
            dir.path.display()
        );
    }
    Ok(unless_interrupted(0))
}

/// `conquer DIR`: solves every cube still open on `--jobs` workers, or writes the Slurm
/// script of `--emit slurm`.
pub fn conquer(a: &ConquerArgs, solver: &CubeSolver) -> Result<u8> {
    let dir = open(&a.dir)?;
    if let Some(Emit::Slurm) = a.emit {
        return emit_slurm(&dir, a, solver);
    }
    let jobs = a.jobs.unwrap_or_else(crate::cli::default_jobs);
    let mut backend = None;
    let method = method(solver, &mut backend)?;
    let solver_name = if a.incremental {
        "cadical (incremental)".to_string()
    } else {
        solver.spec.to_string()
    };
    let plan = Plan {
        jobs,
        incremental: a.incremental,
        method,
        per_cube: a.solver.timeout,
    };
    let start = Instant::now();
    let total = dir.manifest.cubes.len();
    let before = read_results(&dir.path, &dir.manifest)?;
    let decided = (before.iter().flatten())
        .filter(|r| r.status != Status::Unknown)
        .count();
    let conquered = {
        let progress = CubeProgress::new(a.progress, total, decided, jobs);
        let _guard = Interruptible::enter();
        conquer_cubes(&dir, &plan, &Limits::none(), &mut |r: &CubeResult| {
            progress.done(r);
        })
    }?;
    let summary = summary(&dir)?;
    let placement = (conquered.sat.as_ref())
        .and_then(|s| s.outcome.placement.clone())
        .or_else(|| summary.witness.as_ref().and_then(|(_, p)| p.clone()));
    let mut totals = CubeTotals::of(&dir, &summary);
    if let (Some(s), Some(problem), Some(p)) = (&conquered.sat, &dir.problem, &placement) {
        // The SAT cube found now is the one reported (an earlier run may have found another).
        totals.sat_cube = Some(s.result.id);
        totals.witness = Some(crate::report::solve::Witness::of(problem, p));
    }
    let report = ConquerReport {
        totals,
        solved_now: conquered.solved_now,
        skipped: conquered.skipped,
        wall_seconds: start.elapsed().as_secs_f64(),
        jobs,
        incremental: a.incremental,
        solver: solver_name,
    };
    emit(a.format, &report, || {
        report.text(dir.problem.as_ref(), placement.as_ref())
    })?;
    Ok(unless_interrupted(match summary.verdict {
        Verdict::Sat => EXIT_SAT,
        Verdict::Unsat => EXIT_UNSAT,
        Verdict::Open => 0,
    }))
}

/// `cube-status DIR [--check]`.
pub fn status(a: &CubeStatusArgs) -> Result<u8> {
    let dir = open(&a.dir)?;
    // Checked, the completeness proof shows the cubes cover the formula; unchecked, the
    // split must be re-derived (or such a proof be on disk).
    let summary = if a.check {
        merged(&dir)?
    } else {
        summary(&dir)?
    };
    let mut totals = CubeTotals::of(&dir, &summary);
    if a.check {
        let _guard = Interruptible::enter();
        let jobs = a.jobs.unwrap_or_else(crate::cli::default_jobs);
        let findings = check_bundle(&dir, &Limits::timeout(a.timeout), jobs)
            .with_context(|| format!("cannot check the bundle in {}", dir.path.display()))?;
        totals = totals.with_checks(&findings);
    }
    let placement = summary.witness.as_ref().and_then(|(_, p)| p.as_ref());
    emit(a.format, &totals, || {
        totals.text(dir.problem.as_ref(), placement)
    })?;
    if totals.checked == Some(false) {
        return Ok(1);
    }
    Ok(unless_interrupted(match summary.verdict {
        Verdict::Sat => EXIT_SAT,
        Verdict::Unsat => EXIT_UNSAT,
        Verdict::Open => 0,
    }))
}

/// A word quoted for the shell (POSIX single quotes).
fn sh_quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-:=%+@,".contains(&b))
    {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// Refuses a value that cannot stand in a Slurm script as one word: empty, or holding white
/// space or a control character.
fn slurm_word(what: &str, value: &str) -> Result<()> {
    if value.is_empty() || value.chars().any(|c| c.is_whitespace() || c.is_control()) {
        anyhow::bail!(
            "{what} {}: a Slurm script needs it as one word, without spaces or control characters",
            pq_solve::output::shown(value)
        );
    }
    Ok(())
}

/// `conquer --emit slurm`: an sbatch script running one array task per cube.
fn emit_slurm(dir: &CubeDir, a: &ConquerArgs, solver: &CubeSolver) -> Result<u8> {
    let script = slurm_script(dir, a, solver)?;
    match &a.output {
        Some(path) => {
            write_atomically(path, WritePolicy::from_force(a.force), |w| {
                w.write_all(script.as_bytes())
            })?;
            crate::progress::note!(
                "pq-sat: wrote {}: submit it with `sbatch {}`, then `pq-sat cube-status {}`",
                path.display(),
                path.display(),
                dir.path.display()
            );
        }
        None => crate::report::emit_text(&script)?,
    }
    Ok(0)
}

/// The text of the Slurm script (absolute paths: a job runs wherever Slurm puts it).
fn slurm_script(dir: &CubeDir, a: &ConquerArgs, solver: &CubeSolver) -> Result<String> {
    let abs = std::path::absolute(&dir.path)
        .with_context(|| format!("cannot make {} absolute", dir.path.display()))?;
    // What reaches the script is either quoted for the shell or one plain word: a line
    // break in any of it would start a command of its own (`#SBATCH` lines are not shell
    // and cannot be quoted).
    let abs_text = abs.display().to_string();
    slurm_word("the cube directory's path", &abs_text)?;
    for (flag, value) in [
        ("--partition", a.partition.as_deref()),
        ("--time", Some(a.time.as_str())),
        ("--mem", Some(a.mem.as_str())),
    ] {
        if let Some(v) = value {
            slurm_word(flag, v)?;
        }
    }
    let exe = std::env::current_exe().context("cannot find the pq-sat executable's path")?;
    let n = dir.manifest.cubes.len();
    let array = match a.max_running {
        Some(m) => format!("1-{n}%{m}"),
        None => format!("1-{n}"),
    };
    let logs = abs.join("slurm");
    std::fs::create_dir_all(&logs).with_context(|| format!("cannot create {}", logs.display()))?;
    let mut command = vec![
        sh_quote(&exe.display().to_string()),
        "solve-cube".into(),
        "--resume".into(),
        "--exit-zero".into(),
    ];
    match &solver.spec {
        pq_solve::BackendSpec::Command(cmd) => {
            command.push("--solver-cmd".into());
            command.push(sh_quote(cmd));
        }
        spec => {
            command.push("--backend".into());
            command.push(spec.to_string());
        }
    }
    if let Some(format) = solver.proof {
        command.push("--proof".into());
        command.push(format!("--proof-format {format}"));
    }
    if solver.check_unsat.is_some() {
        command.push("--check-unsat".into());
    }
    if solver.proof.is_some() && solver.keep != pq_engine::cube::KeepProof::Plain {
        command.push(format!("--keep-proof {}", solver.keep));
    }
    if let Some(t) = a.solver.timeout {
        command.push(format!("--timeout {}", t.as_secs_f64()));
    }
    command.push(sh_quote(&abs.display().to_string()));
    command.push("\"$SLURM_ARRAY_TASK_ID\"".into());
    let partition = a.partition.as_ref().map_or(String::new(), |p| {
        format!("#SBATCH --partition={}\n", sh_quote(p))
    });
    Ok(format!(
        "#!/bin/bash\n\
         # Written by pq-sat (`{cmd}`): one Slurm array task per cube of\n\
         # {dir} ({problem}, {n} cubes).\n\
         # Submit with `sbatch THIS-FILE`; follow with `squeue`; merge with\n\
         # `pq-sat cube-status {dir}`. Resubmitting solves only the cubes still open\n\
         # (solve-cube --resume); Slurm's MaxArraySize (1001 by default) bounds N.\n\
         #SBATCH --job-name=pq-sat-cubes\n\
         #SBATCH --array={array}\n\
         #SBATCH --time={time}\n\
         #SBATCH --mem={mem}\n\
         #SBATCH --cpus-per-task=1\n\
         {partition}\
         #SBATCH --output={logs}/%A_%a.out\n\
         set -euo pipefail\n\
         exec {command}\n",
        cmd = one_line(&crate::cli::command_line()),
        dir = sh_quote(&abs_text),
        problem = one_line(&dir.origin.describe()),
        time = sh_quote(&a.time),
        mem = sh_quote(&a.mem),
        logs = logs.display(),
        command = command.join(" "),
    ))
}
