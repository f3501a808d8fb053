//! The Slurm script of `conquer --emit slurm`: one array task per cube, each running
//! `pq-sat solve-cube --resume` (absolute paths: a job runs wherever Slurm puts it).

use crate::{Error, Result};
use pq_encode::header::one_line;
use pq_engine::cube::conquer::CubeDir;

use pq_engine::cube::CubeSolver;

/// The scheduler's settings of `conquer --emit slurm`.
#[derive(Debug, Clone)]
pub struct Slurm {
    /// `--partition`.
    pub partition: Option<String>,
    /// `--time`: each task's limit.
    pub time: String,
    /// `--mem`: each task's memory.
    pub mem: String,
    /// `--max-running`: tasks at once.
    pub max_running: Option<usize>,
    /// `--cube-timeout`: each cube's own limit, passed to `solve-cube`.
    pub timeout: Option<std::time::Duration>,
    /// The command that writes the script, recorded in its first comment.
    pub written_by: String,
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
        return Err(Error::Invalid(format!(
            "{what} {}: a Slurm script needs it as one word, without spaces or control characters",
            pq_io::output::shown(value)
        )));
    }
    Ok(())
}

/// The text of the Slurm script (absolute paths: a job runs wherever Slurm puts it).
pub fn script(dir: &CubeDir, a: &Slurm, solver: &CubeSolver) -> Result<String> {
    let abs = std::path::absolute(&dir.path)
        .map_err(|e| Error::Invalid(format!("cannot make {} absolute: {e}", dir.path.display())))?;
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
    let exe = std::env::current_exe()
        .map_err(|e| Error::Invalid(format!("cannot find the pq-sat executable's path: {e}")))?;
    let n = dir.manifest.cubes.len();
    let array = match a.max_running {
        Some(m) => format!("1-{n}%{m}"),
        None => format!("1-{n}"),
    };
    let logs = abs.join("slurm");
    std::fs::create_dir_all(&logs)
        .map_err(|e| Error::Invalid(format!("cannot create {}: {e}", logs.display())))?;
    let mut command = vec![
        sh_quote(&exe.display().to_string()),
        "solve-cube".into(),
        "--resume".into(),
        "--exit-zero".into(),
    ];
    match &solver.spec {
        pq_solve::spec::BackendSpec::Command(cmd) => {
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
    if let Some(t) = a.timeout {
        command.push(format!("--cube-timeout {}", t.as_secs_f64()));
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
        cmd = one_line(&a.written_by),
        dir = sh_quote(&abs_text),
        problem = one_line(&dir.origin.describe()),
        time = sh_quote(&a.time),
        mem = sh_quote(&a.mem),
        logs = logs.display(),
        command = command.join(" "),
    ))
}
