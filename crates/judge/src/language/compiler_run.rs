//! How a compiler runs: its limits, its environment, and how a compile
//! stopped at one of those limits reads. Its own module so that the compile
//! of a source, the build of a precompiled header and a build script use
//! it without importing one another.

use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

use crate::sandbox::{Exit, LimitHit, RunLimits};
use crate::units::Bytes;

pub(super) const COMPILE_CPU: Duration = Duration::from_secs(60);
pub(super) const COMPILE_WALL: Duration = Duration::from_secs(120);
pub(super) const COMPILE_MEMORY: Bytes = Bytes(8 << 30);
pub(super) const COMPILE_OUTPUT: Bytes = Bytes(512 << 20);

/// The limits of a compile whose memory limit is `memory` (the
/// language's, see `Language::compile_memory`). No address-space cap: a
/// compiler's runtime may reserve far more than it uses (javac's JVM), and
/// where there is a memory group it judges what is touched.
pub(super) fn compile_limits(memory: Bytes) -> RunLimits {
    RunLimits {
        cpu: COMPILE_CPU,
        wall: COMPILE_WALL,
        memory,
        address_space: None,
        output: COMPILE_OUTPUT,
    }
}

/// The compile error of a compile under `l` stopped at `hit`, naming the
/// limit and its size.
pub(super) fn limit_message(hit: LimitHit, l: &RunLimits) -> String {
    match hit {
        LimitHit::Cpu => format!(
            "compilation stopped: it used more than {} s of CPU time (the compile time limit)",
            l.cpu.as_secs()
        ),
        LimitHit::Wall => format!(
            "compilation stopped: it took more than {} s of wall time (the compile time limit; \
             not remembered, as a loaded machine may be the cause)",
            l.wall.as_secs()
        ),
        LimitHit::Memory => format!(
            "compilation stopped: it used more than {} of memory (the compile memory limit)",
            l.memory
        ),
        LimitHit::Output => format!(
            "compilation stopped: it wrote more than {} of files and output (the compile disk limit)",
            l.output
        ),
    }
}

/// How every compile log grundy ends at one of its own limits begins; the
/// compiler's output only follows it.
const STOPPED: &str = "compilation stopped:";

/// Whether a compile log is that of a compile grundy stopped at one of its
/// compile limits, rather than the compiler's own refusal: a known
/// submission of a package that only needs more than grundy's limits (the
/// format sets none for the disk) is not the package's mistake.
pub fn stopped_at_limit(log: &str) -> bool {
    log.starts_with(STOPPED)
}

pub(super) fn compile_env(compiler: Option<&Path>, work: &Path) -> Vec<(OsString, OsString)> {
    let mut path = String::new();
    if let Some(dir) = compiler.and_then(Path::parent) {
        path.push_str(&dir.to_string_lossy());
        path.push(':');
    }
    path.push_str("/usr/local/bin:/usr/bin:/bin");
    vec![
        ("PATH".into(), path.into()),
        ("HOME".into(), work.as_os_str().to_owned()),
        ("TMPDIR".into(), work.as_os_str().to_owned()),
        ("LANG".into(), "C.UTF-8".into()),
    ]
}

/// Why a failed compile is the compiler's or the machine's failure rather
/// than the source's, if it is: the compiler killed by a signal at no limit
/// (a crash), `rustc` panicking, or the system refusing the compiler a
/// process, a thread or memory. Such a failure is not remembered (the same
/// source may compile a moment later) and is the judge's `IE`, never the
/// student's `CE`. A source that quotes these words in its own error gets
/// an `IE` it can retry, never a wrong `AC`.
pub(super) fn compiler_failure(exit: &Exit, log: &str) -> Option<&'static str> {
    const SIGNS: [(&str, &str); 4] = [
        ("the compiler unexpectedly panicked", "rustc panicked"),
        (
            "Resource temporarily unavailable",
            "the system refused it a process or thread (EAGAIN)",
        ),
        (
            "Cannot allocate memory",
            "the system refused it memory (ENOMEM)",
        ),
        (
            "internal compiler error: Killed signal",
            "a compiler pass was killed",
        ),
    ];
    if let Exit::Signal(sig) = exit {
        return Some(match *sig {
            libc::SIGSEGV => "it crashed (SIGSEGV)",
            libc::SIGABRT => "it aborted (SIGABRT)",
            libc::SIGBUS => "it crashed (SIGBUS)",
            _ => "it was killed by a signal",
        });
    }
    SIGNS
        .iter()
        .find(|(sign, _)| log.contains(sign))
        .map(|&(_, why)| why)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compile_stopped_at_a_limit_names_it() {
        let named = |hit, words: &[&str]| {
            let m = limit_message(hit, &compile_limits(COMPILE_MEMORY));
            for w in words {
                assert!(m.contains(w), "{m:?} lacks {w:?}");
            }
        };
        named(LimitHit::Cpu, &["CPU time", "60 s"]);
        named(LimitHit::Wall, &["wall time", "120 s", "not remembered"]);
        named(LimitHit::Memory, &["memory", "8 GiB"]);
        named(LimitHit::Output, &["disk", "512 MiB"]);
        let lowered = limit_message(LimitHit::Memory, &compile_limits(Bytes::mib(700)));
        assert!(lowered.contains("700 MiB"), "{lowered:?}");
    }

    #[test]
    fn the_compilers_own_failures_are_told_from_the_sources() {
        // The source's fault: remembered as CE.
        let error = "main.c:3:5: error: expected ';' before 'return'";
        assert_eq!(compiler_failure(&Exit::Code(1), error), None);
        assert_eq!(compiler_failure(&Exit::Code(1), ""), None);
        // The compiler's or the machine's: not remembered, IE.
        assert!(compiler_failure(&Exit::Signal(libc::SIGSEGV), error).is_some());
        let vfork =
            "gcc: fatal error: cannot execute 'cc1': vfork: Resource temporarily unavailable";
        assert!(compiler_failure(&Exit::Code(1), vfork).is_some());
        let panic = "error: the compiler unexpectedly panicked. this is a bug.";
        assert!(compiler_failure(&Exit::Code(101), panic).is_some());
    }
}
