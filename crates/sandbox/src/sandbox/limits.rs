//! The limits of one run, with units in the types.

use std::time::Duration;

use crate::units::Bytes;

/// Limits the sandbox enforces on one run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunLimits {
    /// CPU time of the program (user + system).
    pub cpu: Duration,
    /// Wall-clock time: catches programs that sleep or block.
    pub wall: Duration,
    /// Peak resident memory; crossing it is reported as [`super::LimitHit::Memory`].
    pub memory: Bytes,
    /// A cap on address space, for languages whose runtime tolerates one
    /// (native code); `None` for runtimes that reserve huge virtual ranges (JVM).
    pub address_space: Option<Bytes>,
    /// Bytes written to any one file, standard output included.
    pub output: Bytes,
}

impl RunLimits {
    /// The wall-clock limit the judge derives from a CPU limit: generous
    /// enough for a loaded machine, small enough to catch a sleeper quickly.
    pub fn wall_for(cpu: Duration) -> Duration {
        (cpu * 3).max(cpu + Duration::from_secs(2))
    }
}
