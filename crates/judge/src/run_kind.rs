//! The kinds of program the judge runs, one row each: whether the judge
//! reads back what the run leaves in its working folder, the environment
//! it gets, and the limits of the trusted kinds whose limits follow from
//! nothing but this table (or from the submission's). Every `RunSpec` of
//! the judge is made here, by [`RunKind::spec`].
//!
//! Limits that a problem or a language sets are taken where they are set
//! and passed in: a submission's and a validator's from the problem
//! (`judge::exec::run_limits`), a checker's from `check::Runs`, a
//! compiler's and a package's build script's from
//! `language::compiler_run`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::sandbox::{RunLimits, RunSpec};
use crate::units::Bytes;

/// A kind of program the judge runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunKind {
    /// The program being judged, alone or connected to an interactor.
    Submission,
    /// The problem's reference solution, writing a test's answer.
    Reference,
    /// A package's generator, writing a test.
    Generator,
    /// A package's input validator.
    Validator,
    /// A checker (output validator) program.
    Checker,
    /// An interactor program, connected to the submission.
    Interactor,
    /// A compiler, into the cache.
    Compiler,
    /// A package's `build` script, into the cache.
    BuildScript,
}

/// The environment a kind of run gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Env {
    /// `sandbox::plain_env`: `PATH`, `HOME` and `TMPDIR` in the working
    /// folder, a UTF-8 locale; nothing of the judge's.
    Plain,
    /// `PATH` and a UTF-8 locale, nothing that names a folder: what a
    /// generator writes must not depend on where it ran. The locale is
    /// needed: PyPy under the C locale takes file names for ASCII and
    /// cannot start from a folder whose name is not.
    PathAndLocale,
    /// The compiler's own (the language module gives it: its folder on
    /// `PATH`, its cache variables), passed to [`Spec::env`].
    Compiler,
}

/// The most a reference solution is given beyond a submission's CPU time,
/// so that an answer never depends on how loaded the machine is
/// (`grundy verify` holds the reference to the real limits).
const TRUSTED_CPU_FACTOR: u32 = 10;

/// A validator's (input or output, a package's own program) CPU time per
/// run: this many times the problem's time limit…
const VALIDATOR_TIME_FACTOR: u32 = 5;
/// …but never less (a validator in Python reads a big input slowly, or
/// checks a big output)…
const VALIDATOR_TIME_MIN: Duration = Duration::from_secs(10);
/// …nor more than the ICPC format's `validation_time` default.
const VALIDATOR_TIME_MAX: Duration = Duration::from_secs(60);

/// A generator's limits: it is the problem's own program, and a test it
/// cannot write within these is the problem's failure.
const GENERATOR_LIMITS: RunLimits = RunLimits {
    cpu: Duration::from_secs(30),
    wall: Duration::from_secs(60),
    memory: Bytes(4 << 30),
    address_space: None,
    output: Bytes(256 << 20),
};

/// An interactor's least CPU time, whatever the submission's.
const INTERACTOR_MIN_CPU: Duration = Duration::from_secs(10);

/// An interactor's memory (its language's allowance included).
pub const INTERACTOR_MEMORY: Bytes = Bytes(1 << 30);

/// What an interactor may write to its files and to the submission.
const INTERACTOR_OUTPUT: Bytes = Bytes(256 << 20);

impl RunKind {
    /// Whether the judge reads what the run leaves in its working folder
    /// (a compile's products, a checker's or an interactor's feedback, a
    /// generator's `testcase.in`), or places files there for it; if not,
    /// the folder is scratch (see `RunSpec::keep_workdir`).
    pub fn keeps_workdir(self) -> bool {
        match self {
            RunKind::Submission | RunKind::Reference | RunKind::Validator => false,
            RunKind::Generator
            | RunKind::Checker
            | RunKind::Interactor
            | RunKind::Compiler
            | RunKind::BuildScript => true,
        }
    }

    /// The environment of the kind.
    pub fn env(self) -> Env {
        match self {
            RunKind::Submission
            | RunKind::Reference
            | RunKind::Validator
            | RunKind::Checker
            | RunKind::Interactor => Env::Plain,
            RunKind::Generator => Env::PathAndLocale,
            RunKind::Compiler | RunKind::BuildScript => Env::Compiler,
        }
    }

    /// A run of this kind: `argv` in `workdir`, its stdout to `stdout`,
    /// its stdin empty until [`Spec::stdin`] says otherwise.
    pub fn spec(
        self,
        argv: Vec<OsString>,
        workdir: &Path,
        stdout: PathBuf,
        limits: RunLimits,
    ) -> Spec {
        let env = match self.env() {
            Env::Plain => crate::sandbox::plain_env(workdir),
            Env::PathAndLocale => vec![
                ("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()),
                ("LANG".into(), "C.UTF-8".into()),
            ],
            Env::Compiler => Vec::new(),
        };
        Spec(RunSpec {
            argv,
            workdir: workdir.to_path_buf(),
            stdin: PathBuf::from("/dev/null"),
            stdout,
            env,
            limits,
            keep_workdir: self.keeps_workdir(),
        })
    }
}

/// The limits of a reference solution run on a test: a submission's
/// (`submission`), with ten times the CPU time and its wall time.
pub fn reference_limits(mut submission: RunLimits) -> RunLimits {
    submission.cpu *= TRUSTED_CPU_FACTOR;
    submission.wall = RunLimits::wall_for(submission.cpu);
    submission
}

/// The CPU time of one run of an input or output validator on a problem
/// whose time limit is `time_limit`: [`VALIDATOR_TIME_FACTOR`] times it,
/// within [`VALIDATOR_TIME_MIN`]..=[`VALIDATOR_TIME_MAX`]. A validator
/// that never ends costs that on a test, not a fixed minute, and a
/// problem with a long limit (big inputs and outputs) gives its
/// validators longer.
pub fn validator_time(time_limit: Duration) -> Duration {
    (time_limit * VALIDATOR_TIME_FACTOR).clamp(VALIDATOR_TIME_MIN, VALIDATOR_TIME_MAX)
}

/// How [`validator_time`] is derived, for a message that names the limit.
pub fn validator_time_rule() -> String {
    format!(
        "{VALIDATOR_TIME_FACTOR} × the time limit, at least {} s, at most {} s",
        VALIDATOR_TIME_MIN.as_secs(),
        VALIDATOR_TIME_MAX.as_secs()
    )
}

/// A generator's limits.
pub fn generator_limits() -> RunLimits {
    GENERATOR_LIMITS
}

/// An interactor's limits, connected to a submission held to
/// `submission`: generous, and never below the submission's (it waits for
/// the submission as long as the submission may run, and `grace` more).
pub fn interactor_limits(submission: RunLimits, grace: Duration) -> RunLimits {
    let cpu = (submission.cpu * 2).max(INTERACTOR_MIN_CPU);
    RunLimits {
        cpu,
        wall: RunLimits::wall_for(cpu).max(submission.wall + grace),
        memory: INTERACTOR_MEMORY,
        address_space: None,
        output: INTERACTOR_OUTPUT,
    }
}

/// A run being made: the kind's row filled in, the rest set by name.
#[derive(Debug, Clone)]
pub struct Spec(RunSpec);

impl Spec {
    /// The file the run reads as its stdin.
    pub fn stdin(mut self, path: PathBuf) -> Spec {
        self.0.stdin = path;
        self
    }

    /// The whole environment, for the kinds whose environment is given
    /// by the caller ([`Env::Compiler`]).
    pub fn env(mut self, env: Vec<(OsString, OsString)>) -> Spec {
        self.0.env = env;
        self
    }

    /// The `RunSpec` the sandbox takes.
    pub fn build(self) -> RunSpec {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn submission() -> RunLimits {
        RunLimits {
            cpu: Duration::from_secs(1),
            wall: Duration::from_secs(3),
            memory: Bytes::mib(256),
            address_space: None,
            output: Bytes::mib(64),
        }
    }

    #[test]
    fn only_the_runs_whose_folder_the_judge_reads_keep_it() {
        let kept: Vec<RunKind> = [
            RunKind::Submission,
            RunKind::Reference,
            RunKind::Generator,
            RunKind::Validator,
            RunKind::Checker,
            RunKind::Interactor,
            RunKind::Compiler,
            RunKind::BuildScript,
        ]
        .into_iter()
        .filter(|k| k.keeps_workdir())
        .collect();
        assert_eq!(
            kept,
            [
                RunKind::Generator,
                RunKind::Checker,
                RunKind::Interactor,
                RunKind::Compiler,
                RunKind::BuildScript
            ]
        );
    }

    #[test]
    fn a_run_gets_its_kinds_environment_and_reads_nothing_unless_told() {
        let dir = Path::new("/w");
        let sub = RunKind::Submission
            .spec(vec!["a".into()], dir, "/o".into(), submission())
            .build();
        assert_eq!(sub.env, crate::sandbox::plain_env(dir));
        assert_eq!(sub.stdin, PathBuf::from("/dev/null"));
        assert!(!sub.keep_workdir);
        let generator = RunKind::Generator
            .spec(vec!["g".into()], dir, "/o".into(), generator_limits())
            .stdin("/i".into())
            .build();
        assert_eq!(
            generator.env,
            vec![
                (
                    OsString::from("PATH"),
                    OsString::from("/usr/local/bin:/usr/bin:/bin")
                ),
                (OsString::from("LANG"), OsString::from("C.UTF-8"))
            ]
        );
        assert_eq!(generator.stdin, PathBuf::from("/i"));
        let compiler = RunKind::Compiler
            .spec(vec!["cc".into()], dir, "/o".into(), generator_limits())
            .env(vec![("X".into(), "1".into())])
            .build();
        assert_eq!(
            compiler.env,
            vec![(OsString::from("X"), OsString::from("1"))]
        );
    }

    #[test]
    fn a_validator_gets_a_multiple_of_the_time_limit_within_bounds() {
        let secs = Duration::from_secs;
        assert_eq!(validator_time(secs(1)), secs(10));
        assert_eq!(validator_time(secs(4)), secs(20));
        assert_eq!(validator_time(secs(30)), secs(60));
    }

    #[test]
    fn trusted_limits_follow_the_submissions() {
        let r = reference_limits(submission());
        assert_eq!(r.cpu, Duration::from_secs(10));
        assert_eq!(r.wall, RunLimits::wall_for(Duration::from_secs(10)));
        assert_eq!((r.memory, r.output), (Bytes::mib(256), Bytes::mib(64)));
        let grace = Duration::from_secs(10);
        let i = interactor_limits(submission(), grace);
        assert_eq!(i.cpu, INTERACTOR_MIN_CPU);
        assert_eq!(i.memory, INTERACTOR_MEMORY);
        let long = RunLimits {
            cpu: Duration::from_secs(20),
            wall: Duration::from_secs(300),
            ..submission()
        };
        let i = interactor_limits(long, grace);
        assert_eq!(i.cpu, Duration::from_secs(40));
        assert_eq!(
            i.wall,
            Duration::from_secs(310).max(RunLimits::wall_for(i.cpu))
        );
    }
}
