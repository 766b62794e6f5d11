//! Checker programs speaking the testlib or ICPC protocol.
//!
//! Problem setters bring their own checkers for problems the built-in ones
//! cannot judge. Whatever such a program does wrong (missing, crashing,
//! hanging, an unknown exit code) is reported as [`CheckVerdict::Failed`]
//! with a message naming the program, so it is never blamed on a student.
//! So is a checker that never started, whatever its exit status: a file
//! its command names that is missing, or that its run cannot read (named),
//! or an interpreter that said it could not start it (see
//! [`crate::language::refused_to_start`]).

mod run;

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Duration;

use self::run::{Call, Finished, Layout, RunError, run};
use super::{CheckCase, CheckOutcome, CheckVerdict, Checker};
use crate::units::Bytes;
use crate::verdict::Verdict;
use crate::verdict::protocol::{Failure, Protocol, Said};

pub use self::run::Runs;

/// How long a checker program may run before it is killed. Generous:
/// checkers are trusted code and may verify large outputs, but a hung one
/// must not stall a whole grading run.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// A checker program's memory limit: generous, as for the problem's other
/// programs (a JVM checker is given it as its heap).
pub const CHECKER_MEMORY: Bytes = Bytes(1 << 30);

/// What a checker program may write to any one file (its stdout, a
/// feedback file such as a next pass's input).
pub const CHECKER_OUTPUT: Bytes = Bytes(256 << 20);

/// Longest message taken from a checker program, in bytes.
pub const MESSAGE_CAP: usize = 500;

/// Most characters of the command shown when naming the program.
const NAME_CHARS: usize = 200;

/// Why a checker program gave no verdict: never the submission's fault.
#[derive(Debug, thiserror::Error)]
enum ExternalError {
    #[error("cannot open the output file {} for {name}: {source}", .path.display())]
    OpenOutput {
        path: PathBuf,
        name: String,
        source: std::io::Error,
    },
    #[error("checker {name} {source}")]
    Run { name: String, source: RunError },
    /// Its interpreter or runtime said it could not start it: whatever
    /// the exit status, no answer of the checker's.
    #[error("checker {name} could not start: {said}")]
    NotStarted { name: String, said: String },
    #[error("checker {name} reported a failure (exit code 3)")]
    Fail { name: String },
    #[error("checker {name} exited with code {code} (expected {expected})")]
    Code {
        name: String,
        code: i32,
        expected: &'static str,
    },
    #[error("checker {name} was killed by signal {signal}")]
    Signal { name: String, signal: i32 },
    #[error("checker {name} did not finish within {} and was killed", seconds(*.timeout))]
    TimedOut { name: String, timeout: Duration },
    #[error("checker {name} used more than its {memory} of memory and was stopped")]
    Memory { name: String, memory: Bytes },
    #[error("checker {name} wrote more than {output} to a file and was stopped")]
    Output { name: String, output: Bytes },
}

impl Default for Runs {
    /// Sandboxed runs (never cancelled) in the system's temporary folder,
    /// with the default limits: for a checker used outside a judge.
    fn default() -> Runs {
        Runs {
            runner: crate::sandbox::Runner::default(),
            root: std::env::temp_dir(),
            timeout: DEFAULT_TIMEOUT,
            memory: CHECKER_MEMORY,
            output: CHECKER_OUTPUT,
        }
    }
}

/// A checker program and the protocol it speaks.
#[derive(Debug, Clone)]
pub struct ExternalChecker {
    command: Vec<OsString>,
    /// How it is called, by the exit protocol it speaks: testlib's
    /// `checker input output answer`, or ICPC's `validator input answer
    /// feedback_dir/ [args] < output` (only ICPC validators take
    /// arguments).
    protocol: Protocol,
    /// The arguments after the ICPC ones (none for testlib).
    args: Vec<OsString>,
    runs: Runs,
    /// The program's file as its problem names it, which messages name
    /// instead of the command (a compiled copy in the cache).
    file: Option<PathBuf>,
}

impl ExternalChecker {
    /// A testlib-style checker run as `command... input output answer`.
    pub fn testlib(command: Vec<OsString>, runs: Runs) -> Self {
        ExternalChecker {
            command,
            protocol: Protocol::Testlib,
            args: Vec::new(),
            runs,
            file: None,
        }
    }

    /// An ICPC output validator run as
    /// `command... input answer feedback_dir/ args... < output`.
    pub fn icpc(command: Vec<OsString>, args: Vec<OsString>, runs: Runs) -> Self {
        ExternalChecker {
            command,
            protocol: Protocol::Icpc,
            args,
            runs,
            file: None,
        }
    }

    /// Named in messages by `file` (as its problem names it) rather than
    /// by its command.
    pub fn named_by(self, file: &Path) -> Self {
        ExternalChecker {
            file: Some(file.to_path_buf()),
            ..self
        }
    }

    fn name(&self) -> String {
        if let Some(file) = &self.file {
            let shown: String = file
                .display()
                .to_string()
                .chars()
                .take(NAME_CHARS)
                .collect();
            return format!("`{shown}`");
        }
        let joined = self
            .command
            .iter()
            .map(|part| part.to_string_lossy())
            .collect::<Vec<_>>()
            .join(" ");
        let mut name: String = joined.chars().take(NAME_CHARS).collect();
        if name.len() < joined.len() {
            name.push('…');
        }
        format!("`{name}`")
    }

    /// The arguments after the command, given the run's copies.
    fn args(&self, layout: &Layout) -> Vec<OsString> {
        match &self.protocol {
            Protocol::Testlib => [&layout.input, &layout.output, &layout.answer]
                .map(|p| os(p))
                .to_vec(),
            Protocol::Icpc => {
                let mut argv = vec![os(&layout.input), os(&layout.answer)];
                argv.push(feedback_dir(&layout.feedback));
                argv.extend(self.args.iter().cloned());
                argv
            }
        }
    }

    fn judge(&self, finished: &Finished, case: &CheckCase<'_>) -> CheckOutcome {
        let name = self.name();
        let text = match self.protocol {
            Protocol::Testlib => program_message(finished),
            Protocol::Icpc => {
                judge_message(case.scratch).unwrap_or_else(|| program_message(finished))
            }
        };
        if let Some(reason) = self.limit_reason(&name, finished) {
            return failure(&reason.to_string(), &text);
        }
        if let Some(said) = crate::language::refused_to_start(finished.exit, &finished.stderr) {
            return failure(&ExternalError::NotStarted { name, said }.to_string(), "");
        }
        let verdict = match self.protocol.said(finished.exit) {
            Said::Accepted => CheckVerdict::Accepted,
            Said::Rejected(Verdict::PE) => CheckVerdict::PresentationError,
            Said::Rejected(_) => CheckVerdict::WrongAnswer,
            Said::Failed(why) => {
                return failure(&self.failure_reason(name, why).to_string(), &text);
            }
        };
        CheckOutcome {
            verdict,
            message: text,
            diff: None,
        }
    }

    /// The limit the run was stopped at, if any: whatever it exited with
    /// then is no verdict.
    fn limit_reason(&self, name: &str, finished: &Finished) -> Option<ExternalError> {
        let c = finished.crossed;
        let name = name.to_string();
        if c.cpu || c.wall {
            Some(ExternalError::TimedOut {
                name,
                timeout: self.runs.timeout,
            })
        } else if c.memory {
            Some(ExternalError::Memory {
                name,
                memory: self.runs.memory,
            })
        } else if c.output {
            Some(ExternalError::Output {
                name,
                output: self.runs.output,
            })
        } else {
            None
        }
    }

    fn failure_reason(&self, name: String, why: Failure) -> ExternalError {
        let expected = match self.protocol {
            Protocol::Testlib => "0, 1 or 2",
            Protocol::Icpc => "42 or 43",
        };
        match why {
            Failure::Fail => ExternalError::Fail { name },
            Failure::Code(code) => ExternalError::Code {
                name,
                code,
                expected,
            },
            Failure::Signal(signal) => ExternalError::Signal { name, signal },
        }
    }

    fn try_check(&self, case: &CheckCase<'_>) -> Result<CheckOutcome, ExternalError> {
        let icpc = self.protocol == Protocol::Icpc;
        if icpc {
            // Its stdin: a missing output is named as such, not as a
            // failure to start the validator.
            File::open(case.output_path).map_err(|source| ExternalError::OpenOutput {
                path: case.output_path.to_path_buf(),
                name: self.name(),
                source,
            })?;
        }
        let args = |layout: &Layout| self.args(layout);
        let call = Call {
            command: &self.command,
            input: case.input_path,
            output: case.output_path,
            answer: case.answer_path,
            output_on_stdin: icpc,
            // The validator writes its feedback there (created when
            // missing, so that it never fails for a reason not its own).
            feedback: icpc.then_some(case.scratch),
            args: &args,
        };
        let finished = run(&self.runs, &call).map_err(|source| ExternalError::Run {
            name: self.name(),
            source,
        })?;
        Ok(self.judge(&finished, case))
    }
}

impl Checker for ExternalChecker {
    fn check(&self, case: &CheckCase<'_>) -> CheckOutcome {
        self.try_check(case)
            .unwrap_or_else(|e| failure(&e.to_string(), ""))
    }
}

fn os(path: &Path) -> OsString {
    path.as_os_str().to_owned()
}

/// The feedback directory with a trailing slash: some validators build
/// file names by plain concatenation (`feedback_dir + "judgemessage.txt"`).
fn feedback_dir(scratch: &Path) -> OsString {
    let mut dir = scratch.as_os_str().to_owned();
    if !dir.as_encoded_bytes().ends_with(b"/") {
        dir.push(OsStr::new("/"));
    }
    dir
}

fn failure(reason: &str, text: &str) -> CheckOutcome {
    let message = if text.is_empty() {
        reason.to_string()
    } else {
        format!("{reason}: {text}")
    };
    CheckOutcome {
        verdict: CheckVerdict::Failed,
        message,
        diff: None,
    }
}

fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

/// What the program said: stderr (where testlib writes), else stdout.
fn program_message(finished: &Finished) -> String {
    let stderr = one_line(&finished.stderr);
    if stderr.is_empty() {
        one_line(&finished.stdout)
    } else {
        stderr
    }
}

/// The ICPC validator's `judgemessage.txt`, if it wrote a non-empty one
/// (read without following a link: the folder is the judge's, but its
/// files are what the validator made).
fn judge_message(feedback: &Path) -> Option<String> {
    let head = crate::beneath::read(feedback, "judgemessage.txt", MESSAGE_CAP as u64 * 4)
        .ok()
        .flatten()?;
    Some(one_line(&head)).filter(|m| !m.is_empty())
}

/// Squeezes program output into one line of at most `MESSAGE_CAP` bytes:
/// lines trimmed and joined with ` / `, lossy UTF-8, cut on a character
/// boundary with an ellipsis.
fn one_line(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let joined = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(" / ");
    if joined.len() <= MESSAGE_CAP {
        return joined;
    }
    let mut end = MESSAGE_CAP;
    while !joined.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &joined[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_joins_trims_and_caps() {
        assert_eq!(
            one_line(b"  wrong answer\n\n line 2 \r\n"),
            "wrong answer / line 2"
        );
        let long = "é".repeat(1000);
        let got = one_line(long.as_bytes());
        assert!(got.ends_with('…'));
        assert!(got.len() <= MESSAGE_CAP + '…'.len_utf8());
        assert_eq!(one_line(b"\xffok"), "\u{fffd}ok");
    }

    #[test]
    fn feedback_dir_ends_with_a_slash() {
        assert_eq!(feedback_dir(Path::new("/tmp/x")), OsString::from("/tmp/x/"));
        assert_eq!(
            feedback_dir(Path::new("/tmp/x/")),
            OsString::from("/tmp/x/")
        );
    }

    #[test]
    fn names_are_capped() {
        let checker = ExternalChecker::testlib(vec!["a".repeat(500).into()], Runs::default());
        assert_eq!(checker.name().chars().count(), NAME_CHARS + 3);
    }
}
