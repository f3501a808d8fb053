//! CPU time, as opposed to wall time: what one piece of work cost a core.
//!
//! A cube's wall time on its worker grows when the machine is shared or the run is paused
//! (`kill -STOP`), which once made a 41 MB proof's check look like 1,120 s (RESULTS.md,
//! a(14)'s bundle). Its CPU time does not: a [`CpuClock`] adds the calling thread's own CPU
//! time (`CLOCK_THREAD_CPUTIME_ID`) to that of the child processes it supervised meanwhile
//! (their user and system time from `wait4` as each is reaped, which includes their own
//! reaped descendants). Work the thread hands to helper threads (a portfolio's members,
//! varisat's solver thread) is counted when the helper reports its own clock back
//! ([`count_helper`]); the line engine's pool searches on the caller's thread when it has
//! one job, which is how conquer runs it.

use std::cell::Cell;

thread_local! {
    /// CPU seconds of the children this thread supervised and reaped so far.
    static CHILDREN: Cell<f64> = const { Cell::new(0.0) };
}

/// Counts `seconds` of a reaped child's CPU time to the current thread.
pub(crate) fn add_child(seconds: f64) {
    CHILDREN.with(|c| c.set(c.get() + seconds));
}

/// Counts the CPU seconds a helper thread spent for this one (its own [`CpuClock`], read
/// on it as it finished) to this thread's clock.
pub fn count_helper(seconds: f64) {
    add_child(seconds);
}

/// The user plus system time in `usage`, in seconds.
pub(crate) fn rusage_seconds(usage: &libc::rusage) -> f64 {
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// This thread's own CPU time, in seconds.
fn thread_seconds() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec it is given. It cannot fail for this
    // clock on Linux; if it did, the zero read would under-count, never crash.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &raw mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// The CPU time spent since it was started, by this thread and the children it reaped.
/// Read it on the thread that started it.
#[derive(Clone, Copy, Debug)]
pub struct CpuClock {
    start: f64,
}

impl CpuClock {
    /// Starts counting now.
    pub fn start() -> Self {
        Self { start: now() }
    }

    /// CPU seconds since [`CpuClock::start`].
    pub fn seconds(&self) -> f64 {
        (now() - self.start).max(0.0)
    }
}

fn now() -> f64 {
    thread_seconds() + CHILDREN.with(Cell::get)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::Limits;
    use crate::external::process::{read_tail, supervise, STDOUT_CAP};
    use std::process::Command;

    fn run(script: &str) -> f64 {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", script]);
        let run = supervise("sh", cmd, None, &Limits::none(), STDOUT_CAP, read_tail).unwrap();
        run.cpu_seconds
    }

    /// A sleeping child costs wall time and no CPU; a busy one costs CPU, and the clock of
    /// the thread that supervised it counts it. (Loose bounds: this is bookkeeping, not
    /// a benchmark.)
    #[test]
    fn children_count_their_cpu_not_their_wall_time() {
        // Other tests' `kill_all_running` and registry checks must not meet these children.
        let _g = crate::external::tests::shared();
        let clock = CpuClock::start();
        let asleep = run("sleep 0.3");
        assert!(asleep < 0.1, "{asleep}");
        let busy = run("i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done");
        assert!(busy > 0.05, "{busy}");
        let counted = clock.seconds();
        assert!(counted >= busy + asleep, "{counted} < {busy} + {asleep}");
        // Another thread's clock does not see this thread's children; a helper's clock
        // counts here once it is handed back.
        let helper = std::thread::spawn(|| {
            let clock = CpuClock::start();
            let busy = run("i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done");
            (clock.seconds(), busy)
        });
        let (helped, busy) = helper.join().unwrap();
        assert!(helped >= busy && busy > 0.05, "{helped} {busy}");
        let before = clock.seconds();
        assert!(before < counted + 0.05, "{before} {counted}");
        count_helper(helped);
        assert!(clock.seconds() >= before + helped, "{}", clock.seconds());
    }
}
