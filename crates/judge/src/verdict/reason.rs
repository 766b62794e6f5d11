//! Why a run was not clean, as reports word it.

use std::fmt;
use std::time::Duration;

use crate::sandbox::Exit;
use crate::units::Bytes;

/// Why a run was not clean: the structured reason behind a limit or crash
/// verdict. Its `Display` is the message of the JSON report
/// (docs/reference.md);
/// [`Reason::without_measurements`] is the message reports that must be
/// reproducible quote.
#[derive(Debug, Clone, PartialEq)]
pub enum Reason {
    Cpu {
        limit: Duration,
    },
    Wall {
        limit: Duration,
        cpu: Duration,
    },
    MemoryPeak {
        peak: Bytes,
        limit: Bytes,
        /// The language's share of `limit`.
        allowance: Bytes,
    },
    /// The memory group (every process of the run) was full.
    MemoryGroup {
        limit: Bytes,
        allowance: Bytes,
    },
    Output {
        limit: Bytes,
    },
    /// A crash near the memory limit, or with an out-of-memory message.
    OutOfMemory {
        peak: Bytes,
        limit: Bytes,
        allowance: Bytes,
    },
    Crash {
        ended: Exit,
        first_stderr_line: String,
    },
    /// The kernel would not execute the program (not an executable, an
    /// interpreter it cannot load, no process left for it): there are no
    /// facts, only the system's word, `cause`. A full machine can say so
    /// too, which is why a caller may want to know it was this.
    NotStarted {
        cause: String,
    },
}

fn secs(d: Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}

impl Reason {
    /// The message without the figures measured during the run, which
    /// differ between two runs of the same program.
    pub fn without_measurements(&self) -> String {
        match self {
            Reason::Wall { limit, .. } => format!(
                "wall time over {}: the program was waiting or sleeping",
                secs(*limit)
            ),
            Reason::MemoryPeak {
                limit, allowance, ..
            } => format!(
                "peak memory over the limit of {}",
                memory_limit(*limit, *allowance)
            ),
            Reason::OutOfMemory {
                limit, allowance, ..
            } => format!(
                "the program failed to get more memory (limit {})",
                memory_limit(*limit, *allowance)
            ),
            other => other.to_string(),
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Cpu { limit } => write!(f, "CPU time over the limit of {}", secs(*limit)),
            Reason::Wall { limit, cpu } => write!(
                f,
                "wall time over {} (CPU {}): the program was waiting or sleeping",
                secs(*limit),
                secs(*cpu)
            ),
            Reason::MemoryPeak {
                peak,
                limit,
                allowance,
            } => write!(
                f,
                "peak memory {} over the limit of {}",
                peak.human(),
                memory_limit(*limit, *allowance)
            ),
            Reason::MemoryGroup { limit, allowance } => write!(
                f,
                "the run's processes together went over the memory limit of {}",
                memory_limit(*limit, *allowance)
            ),
            Reason::Output { limit } => write!(f, "output over the limit of {limit}"),
            Reason::OutOfMemory {
                peak,
                limit,
                allowance,
            } => write!(
                f,
                "the program failed to get more memory (peak {}, limit {})",
                peak.human(),
                memory_limit(*limit, *allowance)
            ),
            Reason::Crash {
                ended,
                first_stderr_line,
            } => {
                match ended {
                    Exit::Code(c) => write!(f, "exit code {c}")?,
                    Exit::Signal(s) => write!(f, "killed by signal {s} ({})", signal_name(*s))?,
                }
                if !first_stderr_line.is_empty() {
                    write!(f, ": {}", truncate(first_stderr_line, 200))?;
                }
                Ok(())
            }
            Reason::NotStarted { cause } => write!(f, "the program could not be started: {cause}"),
        }
    }
}

/// A run's memory limit as the statement and the language table put it:
/// the problem's limit, and apart from it what the language's runtime is
/// allowed besides (`256.0 MiB and the 16.0 MiB allowed for the
/// language's runtime`).
fn memory_limit(limit: Bytes, allowance: Bytes) -> String {
    if allowance.0 == 0 || allowance.0 >= limit.0 {
        return limit.human();
    }
    format!(
        "{} and the {} allowed for the language's runtime",
        Bytes(limit.0 - allowance.0).human(),
        allowance.human()
    )
}

fn signal_name(s: i32) -> &'static str {
    match s {
        libc::SIGSEGV => "SIGSEGV, invalid memory access or stack overflow",
        libc::SIGABRT => "SIGABRT, aborted",
        libc::SIGFPE => "SIGFPE, arithmetic error such as division by zero",
        libc::SIGKILL => "SIGKILL",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGXFSZ => "SIGXFSZ, file too large",
        libc::SIGXCPU => "SIGXCPU, CPU limit",
        _ => "signal",
    }
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}
