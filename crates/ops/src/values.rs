//! The numbers every front end reads (the command line's values, the Python binding's
//! arguments), checked against their limits in one place, so that each refusal says the
//! same thing wherever the number came from.

use std::time::Duration;

use pq_board::limits;
use pq_encode::MAX_DIM;

/// The longest timeout accepted, in seconds (about 31 years): a deadline further away
/// would overflow the clock's arithmetic on some systems.
pub const MAX_TIMEOUT_SECS: f64 = 1e9;

/// A board side (`--dim`): one size, 1 to [`MAX_DIM`].
pub fn parse_dim(s: &str) -> Result<usize, String> {
    if s.contains("..") || s.contains(',') {
        return Err(format!(
            "this command answers one board size; several ({s}) are for `pq-sat family --dim {s}`, or run it once per size"
        ));
    }
    let d: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("board size must be a whole number from 1 to {MAX_DIM}"))?;
    pq_encode::problem::check_dim(d).map_err(|e| e.to_string())?;
    Ok(d)
}

/// An army size (`--n`): at most [`limits::MAX_PIECES`], so that no count derived from it
/// overflows.
pub fn parse_n(s: &str) -> Result<usize, String> {
    let s = s.trim();
    if s.starts_with('-') && s[1..].parse::<u64>().is_ok() {
        return Err(format!("army size must be 0 or more (got {s})"));
    }
    let army = limits::PIECES.named("army size");
    army.parse(s).map_err(|e| e.to_string())
}

/// Threads or solvers (`--jobs`): 1 to 64.
pub fn parse_jobs(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(j) if (1..=64).contains(&j) => Ok(j),
        _ => Err(format!(
            "--jobs must be a whole number from 1 to 64 (got '{s}')"
        )),
    }
}

/// A time limit in seconds (`--timeout`): above 0 and at most [`MAX_TIMEOUT_SECS`].
pub fn parse_timeout(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("timeout must be a number of seconds (got '{s}')"))?;
    if !(secs > 0.0 && secs <= MAX_TIMEOUT_SECS) {
        return Err(format!(
            "timeout must be a number of seconds above 0 and at most {MAX_TIMEOUT_SECS:.0} (about 31 years; got '{s}')"
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}
