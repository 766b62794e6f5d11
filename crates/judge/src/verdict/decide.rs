//! Where a test's verdict is decided: one pure function from what the run
//! did (facts, as a sandbox reports them) and what the checker said.
//!
//! Precedence when several things went wrong in one run (README.md): MLE,
//! then TLE, then OLE, then RE, then the checker's verdict. A program killed
//! for using too much CPU also looks like a crash; a program that ran out
//! of memory often dies by a signal or an exception: the limit explains the
//! crash, so the limit wins. Memory comes before time because a program
//! held at its memory limit makes the kernel reclaim pages on every
//! allocation, and that work is charged to the program as CPU time: on a
//! busy machine the same program would cross the CPU limit in one run and
//! not in the next, while the memory it asked for is the same every time.

use std::fmt;
use std::time::Duration;

use super::Verdict;
use crate::units::Bytes;

pub use super::reason::Reason;
pub use crate::limit::{Crossed, LimitHit};
use crate::sandbox::{Exit, RunLimits, RunOutcome, SandboxError};

/// What one run did.
#[derive(Debug, Clone, PartialEq)]
pub struct RunFacts {
    pub ended: Exit,
    pub cpu: Duration,
    pub wall: Duration,
    pub peak_memory: Bytes,
    pub crossed: Crossed,
    /// The runtime said it could not get memory (`MemoryError`,
    /// `std::bad_alloc`, …) on stderr.
    pub said_out_of_memory: bool,
    /// The first non-empty line of stderr, for a crash's message.
    pub first_stderr_line: String,
}

/// The verdict of a run that went wrong, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub verdict: Verdict,
    pub reason: Reason,
}

impl RunFacts {
    /// What the run `o` did, its stderr's head being `stderr`: every
    /// crossed limit included (the sandbox reports them all), so the
    /// verdict does not depend on the order the sandbox looked in.
    pub fn of(o: &RunOutcome, stderr: &str) -> RunFacts {
        const OUT_OF_MEMORY: [&str; 5] = [
            "MemoryError",
            "std::bad_alloc",
            "memory allocation of",
            "java.lang.OutOfMemoryError",
            "Cannot allocate memory",
        ];
        RunFacts {
            ended: o.exit,
            cpu: o.cpu,
            wall: o.wall,
            peak_memory: o.peak_memory,
            crossed: o.crossed,
            said_out_of_memory: OUT_OF_MEMORY.iter().any(|m| stderr.contains(m)),
            first_stderr_line: stderr
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .to_string(),
        }
    }
}

/// The verdict when the run itself went wrong, or `None` for a clean exit
/// (then the checker decides: [`test_verdict`]). `budget` is the limits the
/// run was held to (after language multipliers and allowances),
/// `problem_memory` the problem's own memory limit (the rest of
/// `budget.memory` is the language's allowance, which a message names
/// apart, as the statement names only the problem's).
pub fn run_verdict(
    facts: &RunFacts,
    budget: &RunLimits,
    problem_memory: Bytes,
) -> Option<Decision> {
    let allowance = Bytes(budget.memory.0.saturating_sub(problem_memory.0));
    let c = facts.crossed;
    let (verdict, reason) = if c.memory {
        let reason = if facts.peak_memory > budget.memory {
            Reason::MemoryPeak {
                peak: facts.peak_memory,
                limit: budget.memory,
                allowance,
            }
        } else {
            Reason::MemoryGroup {
                limit: budget.memory,
                allowance,
            }
        };
        (Verdict::MLE, reason)
    } else if c.cpu {
        (Verdict::TLE, Reason::Cpu { limit: budget.cpu })
    } else if c.wall {
        (
            Verdict::TLE,
            Reason::Wall {
                limit: budget.wall,
                cpu: facts.cpu,
            },
        )
    } else if c.output {
        (
            Verdict::OLE,
            Reason::Output {
                limit: budget.output,
            },
        )
    } else if facts.ended == Exit::Code(0) {
        return None;
    } else if facts.said_out_of_memory || near_the_limit(facts.peak_memory, budget.memory) {
        (
            Verdict::MLE,
            Reason::OutOfMemory {
                peak: facts.peak_memory,
                limit: budget.memory,
                allowance,
            },
        )
    } else {
        (
            Verdict::RE,
            Reason::Crash {
                ended: facts.ended,
                first_stderr_line: facts.first_stderr_line.clone(),
            },
        )
    };
    Some(Decision { verdict, reason })
}

/// The verdict of a program the kernel would not start: the submission's
/// fault (`RE`), since the judge runs every program the same way.
pub fn not_started(cause: impl fmt::Display) -> Decision {
    Decision {
        verdict: Verdict::RE,
        reason: Reason::NotStarted {
            cause: cause.to_string(),
        },
    }
}

/// The verdict of a submission's run that did not happen: a program the
/// kernel would not start is the submission's (`RE`, [`not_started`]), as
/// every kind of test must say alike; any other failure is the judge's
/// (`None`: the test stays `IE`).
pub fn not_run(e: &SandboxError) -> Option<Decision> {
    match e {
        SandboxError::NotExecutable { source, .. } => Some(not_started(source)),
        _ => None,
    }
}

/// How near its memory limit a failed run's peak must be for the limit to
/// be its cause, where a tenth of the limit is less: the compile step's
/// margin (`language::compile`). A run refused memory inside a system call
/// (a `read` into a buffer its memory group cannot charge fails with
/// `EFAULT`, no out-of-memory event) fails by itself at its limit, and the
/// peak it reports can be below the limit by what the group held before the
/// run (page cache of earlier runs, subtracted from it, reclaimed as the
/// run grew) and by the judge's helpers' pages counted apart.
const NEAR_THE_LIMIT: u64 = 16 << 20;

/// Whether a failed run's `peak` is near enough to its `limit` for the
/// limit to explain the failure: within a tenth of it, or within
/// [`NEAR_THE_LIMIT`] where that is at most a quarter of the limit (below
/// 64 MiB, 16 MiB would call a crash at half the limit a memory problem).
fn near_the_limit(peak: Bytes, limit: Bytes) -> bool {
    let tenth = peak.0.saturating_mul(10) >= limit.0.saturating_mul(9);
    let margin = limit.0 >= 4 * NEAR_THE_LIMIT && peak.0.saturating_add(NEAR_THE_LIMIT) >= limit.0;
    tenth || margin
}

/// What a checker said of an output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckerSaid {
    Accepted,
    WrongAnswer,
    PresentationError,
    /// The checker itself failed: the judge's fault.
    Failed,
}

/// A test's verdict: the run's, when it went wrong, else the checker's.
/// `check` is only called for a clean run.
pub fn test_verdict(
    facts: &RunFacts,
    budget: &RunLimits,
    problem_memory: Bytes,
    check: impl FnOnce() -> CheckerSaid,
) -> Result<Verdict, Decision> {
    match run_verdict(facts, budget, problem_memory) {
        Some(d) => Err(d),
        None => Ok(match check() {
            CheckerSaid::Accepted => Verdict::AC,
            CheckerSaid::WrongAnswer => Verdict::WA,
            CheckerSaid::PresentationError => Verdict::PE,
            CheckerSaid::Failed => Verdict::IE,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1 << 20;

    fn budget() -> RunLimits {
        RunLimits {
            cpu: Duration::from_secs(1),
            wall: Duration::from_secs(3),
            memory: Bytes(256 * MIB),
            address_space: None,
            output: Bytes(64 * MIB),
        }
    }

    fn facts(crossed: Crossed, ended: Exit, peak: u64) -> RunFacts {
        RunFacts {
            ended,
            cpu: Duration::from_millis(500),
            wall: Duration::from_millis(600),
            peak_memory: Bytes(peak),
            crossed,
            said_out_of_memory: false,
            first_stderr_line: String::new(),
        }
    }

    const NONE: Crossed = Crossed {
        cpu: false,
        wall: false,
        memory: false,
        output: false,
    };

    /// Every pair of crossed limits, with a clean exit and after a crash:
    /// the verdict follows MLE > TLE > OLE, and a limit explains a crash.
    #[test]
    fn every_pair_of_crossed_limits() {
        let cpu = Crossed { cpu: true, ..NONE };
        let wall = Crossed { wall: true, ..NONE };
        let mem = Crossed {
            memory: true,
            ..NONE
        };
        let out = Crossed {
            output: true,
            ..NONE
        };
        let or = |a: Crossed, b: Crossed| Crossed {
            cpu: a.cpu || b.cpu,
            wall: a.wall || b.wall,
            memory: a.memory || b.memory,
            output: a.output || b.output,
        };
        use Verdict::*;
        let table = [
            (cpu, TLE),
            (wall, TLE),
            (mem, MLE),
            (out, OLE),
            (or(cpu, wall), TLE),
            (or(cpu, mem), MLE),
            (or(cpu, out), TLE),
            (or(wall, mem), MLE),
            (or(wall, out), TLE),
            (or(mem, out), MLE),
            (or(or(cpu, wall), or(mem, out)), MLE),
        ];
        for (crossed, want) in table {
            for ended in [Exit::Code(0), Exit::Code(1), Exit::Signal(libc::SIGKILL)] {
                let got = run_verdict(&facts(crossed, ended, 10 * MIB), &budget(), budget().memory);
                assert_eq!(got.map(|d| d.verdict), Some(want), "{crossed:?} {ended:?}");
            }
        }
    }

    /// Every set of crossed limits (one, two, three or all four), after a
    /// clean exit, an error exit, a kill, or a crash that would be `MLE`
    /// on its own (near the memory limit, or the runtime saying it ran
    /// out): a crossed limit explains the ending, MLE > TLE > OLE.
    #[test]
    fn every_set_of_crossed_limits_after_any_ending() {
        use Verdict::*;
        for bits in 1u8..16 {
            let crossed = Crossed {
                cpu: bits & 1 != 0,
                wall: bits & 2 != 0,
                memory: bits & 4 != 0,
                output: bits & 8 != 0,
            };
            let want = if crossed.memory {
                MLE
            } else if crossed.cpu || crossed.wall {
                TLE
            } else {
                OLE
            };
            for ended in [Exit::Code(0), Exit::Code(1), Exit::Signal(libc::SIGSEGV)] {
                for (peak, said) in [(MIB, false), (250 * MIB, false), (MIB, true)] {
                    let f = RunFacts {
                        said_out_of_memory: said,
                        ..facts(crossed, ended, peak)
                    };
                    let got = run_verdict(&f, &budget(), budget().memory).map(|d| d.verdict);
                    assert_eq!(got, Some(want), "{crossed:?} {ended:?} {peak} {said}");
                }
            }
        }
    }

    /// A program the kernel would not start is the submission's `RE`,
    /// with the system's word in the message, which has no measurements.
    #[test]
    fn a_program_that_could_not_be_started_is_re() {
        let d = not_started("Exec format error (os error 8)");
        assert_eq!(d.verdict, Verdict::RE);
        assert!(matches!(d.reason, Reason::NotStarted { .. }), "{d:?}");
        let said = "the program could not be started: Exec format error (os error 8)";
        assert_eq!(d.reason.to_string(), said);
        assert_eq!(d.reason.without_measurements(), said);
    }

    /// The limit a trusted program's failure names follows the verdicts'
    /// order, whatever other limits it crossed.
    #[test]
    fn the_first_crossed_limit_follows_the_verdict_order() {
        use LimitHit::*;
        let all = [Memory, Cpu, Wall, Output];
        assert_eq!(NONE.first(), None);
        assert!(!NONE.any());
        for (i, a) in all.iter().enumerate() {
            for b in &all[i..] {
                let mut c = NONE;
                c.mark(*b);
                c.mark(*a);
                assert!(c.any());
                // `all` is in precedence order and `a` comes no later than `b`.
                assert_eq!(c.first(), Some(*a), "{c:?}");
            }
        }
    }

    #[test]
    fn cpu_before_wall_names_the_cpu_limit() {
        let both = Crossed {
            cpu: true,
            wall: true,
            ..NONE
        };
        let d = run_verdict(
            &facts(both, Exit::Signal(9), MIB),
            &budget(),
            budget().memory,
        )
        .expect("a limit");
        assert_eq!(
            d.reason.to_string(),
            "CPU time over the limit of 1.00 s",
            "CPU is the limit the program is judged by"
        );
    }

    #[test]
    fn a_clean_run_goes_to_the_checker() {
        let f = facts(NONE, Exit::Code(0), MIB);
        assert_eq!(run_verdict(&f, &budget(), budget().memory), None);
        for (said, want) in [
            (CheckerSaid::Accepted, Verdict::AC),
            (CheckerSaid::WrongAnswer, Verdict::WA),
            (CheckerSaid::PresentationError, Verdict::PE),
            (CheckerSaid::Failed, Verdict::IE),
        ] {
            assert_eq!(
                test_verdict(&f, &budget(), budget().memory, || said),
                Ok(want)
            );
        }
    }

    #[test]
    fn the_checker_is_not_asked_after_a_limit() {
        let f = facts(
            Crossed {
                output: true,
                ..NONE
            },
            Exit::Code(0),
            MIB,
        );
        let got = test_verdict(&f, &budget(), budget().memory, || panic!("checker called"));
        assert_eq!(got.map_err(|d| d.verdict), Err(Verdict::OLE));
    }

    #[test]
    fn a_crash_is_mle_near_the_limit_or_when_the_runtime_says_so() {
        let near = facts(NONE, Exit::Signal(libc::SIGSEGV), 240 * MIB);
        assert_eq!(
            run_verdict(&near, &budget(), budget().memory).map(|d| d.verdict),
            Some(Verdict::MLE)
        );
        let mut said = facts(NONE, Exit::Code(1), MIB);
        said.said_out_of_memory = true;
        assert_eq!(
            run_verdict(&said, &budget(), budget().memory).map(|d| d.verdict),
            Some(Verdict::MLE)
        );
        let mut crash = facts(NONE, Exit::Code(3), MIB);
        crash.first_stderr_line = "boom".into();
        let d = run_verdict(&crash, &budget(), budget().memory).expect("a crash");
        assert_eq!(d.verdict, Verdict::RE);
        assert_eq!(d.reason.to_string(), "exit code 3: boom");
    }

    /// A failed run's peak and its limit: MLE within a tenth of the limit,
    /// or within 16 MiB where that is at most a quarter of it; RE further.
    #[test]
    fn a_failed_run_near_its_limit_is_mle() {
        use Verdict::*;
        let table = [
            // (limit MiB, peak MiB, verdict)
            (80, 66, MLE),
            (80, 64, MLE),
            (80, 63, RE),
            (64, 48, MLE),
            (64, 47, RE),
            (128, 112, MLE),
            (128, 110, RE),
            (256, 231, MLE),
            (256, 229, RE),
            (1024, 922, MLE),
            (1024, 920, RE),
            // Small limits: a tenth only.
            (32, 29, MLE),
            (32, 28, RE),
            (16, 15, MLE),
            (16, 14, RE),
        ];
        for (limit, peak, want) in table {
            let b = RunLimits {
                memory: Bytes(limit * MIB),
                ..budget()
            };
            for ended in [Exit::Code(1), Exit::Signal(libc::SIGSEGV)] {
                let got =
                    run_verdict(&facts(NONE, ended, peak * MIB), &b, b.memory).map(|d| d.verdict);
                assert_eq!(
                    got,
                    Some(want),
                    "limit {limit} MiB, peak {peak} MiB, {ended:?}"
                );
            }
            // A clean exit is the checker's, however near the limit.
            assert_eq!(
                run_verdict(&facts(NONE, Exit::Code(0), peak * MIB), &b, b.memory),
                None
            );
        }
    }

    #[test]
    fn memory_messages_name_the_peak_or_the_group() {
        let mem = Crossed {
            memory: true,
            ..NONE
        };
        let over = run_verdict(
            &facts(mem, Exit::Signal(9), 300 * MIB),
            &budget(),
            budget().memory,
        )
        .expect("MLE");
        assert_eq!(
            over.reason.to_string(),
            "peak memory 300.0 MiB over the limit of 256.0 MiB"
        );
        assert_eq!(
            over.reason.without_measurements(),
            "peak memory over the limit of 256.0 MiB"
        );
        let group = run_verdict(
            &facts(mem, Exit::Signal(9), 100 * MIB),
            &budget(),
            budget().memory,
        )
        .expect("MLE");
        assert_eq!(
            group.reason.to_string(),
            "the run's processes together went over the memory limit of 256.0 MiB"
        );
        // The problem's limit and the language's allowance, apart: the
        // statement says 256 MiB, not 272.
        let with_runtime = RunLimits {
            memory: Bytes(272 * MIB),
            ..budget()
        };
        let problem = Bytes(256 * MIB);
        let over = run_verdict(
            &facts(mem, Exit::Signal(9), 300 * MIB),
            &with_runtime,
            problem,
        )
        .expect("MLE");
        assert_eq!(
            over.reason.to_string(),
            "peak memory 300.0 MiB over the limit of 256.0 MiB and the 16.0 MiB allowed for the language's runtime"
        );
        let crashed = run_verdict(
            &facts(NONE, Exit::Code(1), 270 * MIB),
            &with_runtime,
            problem,
        )
        .expect("MLE");
        assert_eq!(
            crashed.reason.without_measurements(),
            "the program failed to get more memory (limit 256.0 MiB and the 16.0 MiB allowed for the language's runtime)"
        );
    }

    #[test]
    fn measurements_are_left_out_where_runs_differ() {
        let wall = Reason::Wall {
            limit: Duration::from_millis(2200),
            cpu: Duration::from_millis(10),
        };
        assert_eq!(
            wall.to_string(),
            "wall time over 2.20 s (CPU 0.01 s): the program was waiting or sleeping"
        );
        assert_eq!(
            wall.without_measurements(),
            "wall time over 2.20 s: the program was waiting or sleeping"
        );
        let oom = Reason::OutOfMemory {
            peak: Bytes(270 * MIB),
            limit: Bytes(272 * MIB),
            allowance: Bytes(0),
        };
        assert_eq!(
            oom.without_measurements(),
            "the program failed to get more memory (limit 272.0 MiB)"
        );
    }
}
