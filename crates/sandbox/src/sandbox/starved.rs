//! How long a run waited for a CPU while it was ready to run.
//!
//! The wall-clock limit is there to stop programs that sleep or block
//! (docs/reference.md: TLE is wall time "far over" the limit, "a program
//! that sleeps or waits").
//! On a loaded machine a program that computes is slow in wall-clock terms
//! too: it waits on the scheduler's run queue, and with a load of 15 on two
//! cores a program that needs 0.7 s of CPU took more than 6 s. The kernel
//! counts that wait for every thread (`/proc/PID/task/TID/schedstat`, its
//! second field, in nanoseconds; zero for a thread just forked), so the
//! watcher takes the longest wait of the run's threads off the wall clock:
//! a sleeper, never waiting for a CPU, is stopped as before, and a starved
//! program is not blamed for the machine's load. A program cannot use this
//! to run for ever: to wait on the run queue a thread must be ready to
//! compute, and computing spends the CPU budget.

use std::time::Duration;

/// The longest time any live thread of `pid` or of its descendants spent
/// ready to run but waiting for a CPU.
pub(super) fn longest_wait(pid: libc::pid_t) -> Duration {
    let mut longest = 0u64;
    let mut todo = vec![pid];
    let mut seen = 0;
    while let Some(p) = todo.pop() {
        seen += 1;
        // The run's task limit is far below this: a bound on the walk only.
        if seen > 4096 {
            break;
        }
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{p}/task")) else {
            continue;
        };
        for t in tasks.filter_map(Result::ok) {
            let waited = std::fs::read_to_string(t.path().join("schedstat"))
                .ok()
                .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok());
            longest = longest.max(waited.unwrap_or(0));
            if let Ok(children) = std::fs::read_to_string(t.path().join("children")) {
                todo.extend(
                    children
                        .split_whitespace()
                        .filter_map(|c| c.parse::<libc::pid_t>().ok()),
                );
            }
        }
    }
    Duration::from_nanos(longest)
}

/// The wall-clock time that counts against the wall limit: `elapsed` less
/// the run's longest wait for a CPU. Looked up only once `elapsed` reaches
/// the limit (before then it cannot matter), so a quiet run costs nothing.
pub(super) fn awake(pid: libc::pid_t, elapsed: Duration, wall: Duration) -> Duration {
    if elapsed < wall {
        elapsed
    } else {
        elapsed.saturating_sub(longest_wait(pid))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn a_wait_is_within_the_runs_life_and_a_gone_process_waited_nothing() {
        let born = Instant::now();
        let mut child = std::process::Command::new("sleep")
            .arg("60")
            .spawn()
            .expect("sleep");
        let pid = child.id() as libc::pid_t;
        let waited = longest_wait(pid);
        let lived = born.elapsed();
        let _ = child.kill();
        let _ = child.wait();
        assert!(waited <= lived, "waited {waited:?} in {lived:?}");
        // Reaped: nothing is taken off the wall clock any more.
        let elapsed = Duration::from_secs(100);
        assert_eq!(awake(pid, elapsed, Duration::from_secs(1)), elapsed);
        // Under the limit the wait is not even looked up.
        let under = Duration::from_millis(500);
        assert_eq!(awake(pid, under, Duration::from_secs(1)), under);
    }
}
