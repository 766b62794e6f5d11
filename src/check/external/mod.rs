//! Checker programs speaking the testlib or ICPC protocol.
//!
//! Problem setters bring their own checkers for problems the built-in ones
//! cannot judge. Whatever such a program does wrong (missing, crashing,
//! hanging, an unknown exit code) is reported as [`CheckVerdict::Failed`]
//! with a message naming the program, so it is never blamed on a student.

mod run;

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use self::run::{Exit, Finished, run};
use super::{CheckCase, CheckOutcome, CheckVerdict, Checker};

/// How long a checker program may run before it is killed. Generous:
/// checkers are trusted code and may verify large outputs, but a hung one
/// must not stall a whole grading run.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// Longest message taken from a checker program, in bytes.
pub const MESSAGE_CAP: usize = 500;

/// Most characters of the command shown when naming the program.
const NAME_CHARS: usize = 200;

/// The conversation a checker program expects.
#[derive(Debug, Clone, PartialEq)]
enum Protocol {
    /// `checker input output answer`; exit 0/1/2/3 = AC/WA/PE/fail.
    Testlib,
    /// `validator input answer feedback_dir/ [args] < output`; 42/43 = AC/WA.
    Icpc { args: Vec<OsString> },
}

/// A checker program and the protocol it speaks.
#[derive(Debug, Clone, PartialEq)]
pub struct ExternalChecker {
    command: Vec<OsString>,
    protocol: Protocol,
    timeout: Duration,
}

impl ExternalChecker {
    /// A testlib-style checker run as `command... input output answer`.
    pub fn testlib(command: Vec<OsString>, timeout: Duration) -> Self {
        ExternalChecker {
            command,
            protocol: Protocol::Testlib,
            timeout,
        }
    }

    /// An ICPC output validator run as
    /// `command... input answer feedback_dir/ args... < output`.
    pub fn icpc(command: Vec<OsString>, args: Vec<OsString>, timeout: Duration) -> Self {
        ExternalChecker {
            command,
            protocol: Protocol::Icpc { args },
            timeout,
        }
    }

    fn name(&self) -> String {
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

    fn argv(&self, case: &CheckCase<'_>) -> Vec<OsString> {
        let mut argv = self.command.clone();
        match &self.protocol {
            Protocol::Testlib => {
                argv.extend([case.input_path, case.output_path, case.answer_path].map(os));
            }
            Protocol::Icpc { args } => {
                argv.extend([case.input_path, case.answer_path].map(os));
                argv.push(feedback_dir(case.scratch));
                argv.extend(args.iter().cloned());
            }
        }
        argv
    }

    fn stdin(&self, case: &CheckCase<'_>) -> Result<Stdio, String> {
        match self.protocol {
            Protocol::Testlib => Ok(Stdio::null()),
            Protocol::Icpc { .. } => File::open(case.output_path).map(Stdio::from).map_err(|e| {
                format!(
                    "cannot open the output file {} for {}: {e}",
                    case.output_path.display(),
                    self.name()
                )
            }),
        }
    }

    fn judge(&self, finished: &Finished, case: &CheckCase<'_>) -> CheckOutcome {
        let name = self.name();
        let text = match self.protocol {
            Protocol::Testlib => program_message(finished),
            Protocol::Icpc { .. } => {
                judge_message(case.scratch).unwrap_or_else(|| program_message(finished))
            }
        };
        let verdict = match (&self.protocol, finished.exit) {
            (Protocol::Testlib, Exit::Code(0)) | (Protocol::Icpc { .. }, Exit::Code(42)) => {
                CheckVerdict::Accepted
            }
            (Protocol::Testlib, Exit::Code(1)) | (Protocol::Icpc { .. }, Exit::Code(43)) => {
                CheckVerdict::WrongAnswer
            }
            (Protocol::Testlib, Exit::Code(2)) => CheckVerdict::PresentationError,
            (_, exit) => return failure(&self.failure_reason(&name, exit), &text),
        };
        CheckOutcome {
            verdict,
            message: text,
            diff: None,
        }
    }

    fn failure_reason(&self, name: &str, exit: Exit) -> String {
        let expected = match self.protocol {
            Protocol::Testlib => "0, 1 or 2",
            Protocol::Icpc { .. } => "42 or 43",
        };
        match exit {
            Exit::Code(3) if self.protocol == Protocol::Testlib => {
                format!("checker {name} reported a failure (exit code 3)")
            }
            Exit::Code(code) => {
                format!("checker {name} exited with code {code} (expected {expected})")
            }
            Exit::Signal(signal) => format!("checker {name} was killed by signal {signal}"),
            Exit::TimedOut => format!(
                "checker {name} did not finish within {} and was killed",
                seconds(self.timeout)
            ),
        }
    }
}

impl Checker for ExternalChecker {
    fn check(&self, case: &CheckCase<'_>) -> CheckOutcome {
        if let Protocol::Icpc { .. } = self.protocol {
            // The validator writes its feedback there; a missing folder
            // would make it fail for a reason that is not its own.
            let _ = std::fs::create_dir_all(case.scratch);
        }
        let stdin = match self.stdin(case) {
            Ok(stdin) => stdin,
            Err(reason) => return failure(&reason, ""),
        };
        match run(&self.argv(case), stdin, self.timeout) {
            Ok(finished) => self.judge(&finished, case),
            Err(e) => failure(&format!("checker {} {e}", self.name()), ""),
        }
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

/// The ICPC validator's `judgemessage.txt`, if it wrote a non-empty one.
fn judge_message(feedback: &Path) -> Option<String> {
    let file = File::open(feedback.join("judgemessage.txt")).ok()?;
    let mut head = Vec::new();
    file.take(MESSAGE_CAP as u64 * 4)
        .read_to_end(&mut head)
        .ok()?;
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
        let checker = ExternalChecker::testlib(vec!["a".repeat(500).into()], DEFAULT_TIMEOUT);
        assert_eq!(checker.name().chars().count(), NAME_CHARS + 3);
    }
}
