//! One test of an interactive problem whose interactor is a program the
//! problem supplies (an ICPC / Kattis output validator of an interactive
//! package, or a testlib interactor), not one of grundy's built-in games.
//!
//! The two programs run at once, each in its own sandbox, connected by two
//! pipes that the judge does not read: the submission's stdout is the
//! interactor's stdin and the reverse. Only the submission's limits are
//! the problem's; the interactor gets generous ones, and any failure of it
//! is `IE`. Nothing can hang the judge: the submission ends at its own
//! limits (a submission that waits forever ends at its wall limit:
//! `TLE`), and once the submission has ended the interactor has
//! [`INTERACTOR_GRACE`] to end too, or it is stopped and the test is `IE`.
//!
//! The verdict follows the ICPC format's precedence between the two runs
//! ([`crate::verdict::interactive::precedence`]): which of them ended
//! first decides. The judge keeps
//! the interactor's input open until the submission has ended, so a
//! submission that closes its output and then crashes or hangs ends first
//! (its `RTE` or `TLE` stands), as Kattis and BAPCtools judge it.
//!
//! Once the submission has ended, the judge reads and drops what the
//! interactor still writes to it, as BAPCtools' relay between the two
//! does: an interactor that writes its next line before it reads the
//! submission's last one then ends with its own verdict, not killed by the
//! closed pipe (`SIGPIPE`, or Python's exit status 120) into an `IE`.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

mod ends;
mod feedback;
mod pipes;

use super::context::Context;
use super::exec::{STDERR_CAP, head, run_limits, text_head};
use super::prepared::{Prepared, PreparedTest};
use super::result::TestResult;
use crate::language::Compiled;
use crate::run_kind::{INTERACTOR_MEMORY, RunKind, interactor_limits};
use crate::sandbox::{self, Exit, Pipes, RunLimits, RunOutcome, SandboxError};
use crate::units::Bytes;
use crate::verdict::Verdict;
use crate::verdict::decide::{Reason, RunFacts, run_verdict};
use crate::verdict::interactive::{First, InteractorEnd, interaction};
use crate::verdict::protocol::{Protocol, Said};
use ends::Ends;
use feedback::{carry, place};
use pipes::{drop_pending, pipe};

/// How long the interactor may run on after the submission ended: reading
/// the end of its input and writing a verdict take milliseconds, so this
/// only bounds an interactor that is stuck.
pub const INTERACTOR_GRACE: Duration = Duration::from_secs(10);
/// How much of the interactor's message is kept.
const MESSAGE_CAP: usize = 1000;

/// Runs and judges one test against the problem's interactor program.
pub fn judge_test(
    prepared: &Prepared,
    ctx: &Context,
    program: &Compiled,
    test: &PreparedTest,
    interactor: &Compiled,
    protocol: Protocol,
    args: &[String],
) -> TestResult {
    judge_pass(
        prepared,
        ctx,
        program,
        test,
        &test.input,
        None,
        (interactor, protocol, args),
    )
}

/// [`judge_test`] on `input` (a later pass of a multi-pass test: the input
/// the interactor wrote), with the interactor's feedback files carried in
/// `feedback`: copied in before the run and back out after it, since the
/// format keeps them from pass to pass.
pub(super) fn judge_pass(
    prepared: &Prepared,
    ctx: &Context,
    program: &Compiled,
    test: &PreparedTest,
    input: &Path,
    feedback: Option<&Path>,
    (interactor, protocol, args): (&Compiled, Protocol, &[String]),
) -> TestResult {
    let mut r = TestResult::unjudged(&test.name, &test.group);
    let answer = match &test.answer {
        Ok(a) => a.clone(),
        Err(why) => {
            r.message = why.to_string();
            return r;
        }
    };
    let limits = run_limits(program, &prepared.problem.limits);
    let run = Connected {
        program,
        limits,
        problem_memory: prepared.problem.limits.memory,
        interactor,
        protocol,
        args,
        feedback,
        runner: &ctx.sandbox,
    };
    let played = match run.play(input, &answer, ctx.workroot.path()) {
        Ok(p) => p,
        Err(NotPlayed::Submission(e)) => {
            r.not_run(e, "the judge could not run the interaction");
            return r;
        }
        Err(NotPlayed::Judge(e)) => {
            r.message = format!("the judge could not run the interaction: {e}");
            return r;
        }
        Err(NotPlayed::Interactor(e)) => {
            r.message = format!("the interactor could not be started: {e}");
            return r;
        }
    };
    let o = &played.submission;
    r.record_run(o);
    let (verdict, message, reason) =
        played.verdict(&limits, prepared.problem.limits.memory, protocol);
    r.verdict = verdict;
    r.message = message;
    r.reason = reason;
    if verdict != Verdict::AC {
        r.stderr = played.stderr_head;
    } else {
        // A scoring package's interactor may give an accepted test part
        // of its credit, as its output validator would.
        match played
            .scores
            .and_then(|files| super::score_file::share_of(prepared, &test.group, files))
        {
            Ok(share) => r.share = share,
            Err(why) => {
                r.verdict = Verdict::IE;
                r.message = super::Chain(&why).to_string();
            }
        }
    }
    r
}

/// The two programs of one connected run and their limits.
struct Connected<'a> {
    program: &'a Compiled,
    limits: RunLimits,
    problem_memory: Bytes,
    interactor: &'a Compiled,
    protocol: Protocol,
    args: &'a [String],
    /// Where the feedback files live between the passes of a multi-pass
    /// test.
    feedback: Option<&'a Path>,
    runner: &'a sandbox::Runner,
}

/// What happened in one connected run.
struct Played {
    submission: RunOutcome,
    interactor: RunOutcome,
    /// Which run ended first.
    first: First,
    /// The interactor was stopped because it outlived the submission by
    /// more than [`INTERACTOR_GRACE`].
    interactor_stuck: bool,
    /// The interactor's message (`judgemessage.txt`, or its stderr).
    message: String,
    stderr_head: String,
    /// The interactor's `score.txt` / `score_multiplier.txt` (ICPC style).
    scores: Result<super::score_file::Files, super::score_file::ScoreFileError>,
}

/// Why a connected run did not happen, by whose run failed: a
/// submission the kernel would not start is its own `RE`
/// ([`crate::verdict::decide::not_run`]); an interactor that would not start, or
/// anything the judge could not set up, is the judge's `IE`.
#[derive(Debug)]
enum NotPlayed {
    Submission(SandboxError),
    Judge(SandboxError),
    Interactor(NotStarted),
}

/// Why the interactor did not start (the test is `IE`), naming the file
/// when one was missing or unreadable for its run.
#[derive(Debug, thiserror::Error)]
enum NotStarted {
    #[error("{0}")]
    Missing(crate::language::MissingFile),
    #[error("the kernel would not execute `{program}`: {source}")]
    Exec {
        program: String,
        source: std::io::Error,
    },
    #[error("{0}")]
    Run(SandboxError),
}

impl NotPlayed {
    /// The interactor's own run failed with `e`: it could not be started
    /// (missing, not executable, a file its run cannot read), or the judge
    /// could not run it.
    fn interactor(e: SandboxError) -> NotPlayed {
        match e {
            SandboxError::NotExecutable { program, source } => {
                NotPlayed::Interactor(NotStarted::Exec { program, source })
            }
            SandboxError::Spawn { .. } | SandboxError::Unreadable { .. } => {
                NotPlayed::Interactor(NotStarted::Run(e))
            }
            e => NotPlayed::Judge(e),
        }
    }
}

impl From<SandboxError> for NotPlayed {
    fn from(e: SandboxError) -> NotPlayed {
        NotPlayed::Judge(e)
    }
}

fn setup(what: &str) -> impl FnOnce(std::io::Error) -> SandboxError {
    let what = what.to_string();
    move |source| SandboxError::Setup { what, source }
}

impl Connected<'_> {
    fn play(&self, input: &Path, answer: &Path, root: &Path) -> Result<Played, NotPlayed> {
        let dir = tempfile::Builder::new()
            .prefix("run-")
            .tempdir_in(root)
            .map_err(setup("create the run folder"))?;
        let played = self.play_in(dir.path(), input, answer);
        let _ = super::workroot::remove_tree(dir.path());
        played
    }

    fn play_in(&self, dir: &Path, input: &Path, answer: &Path) -> Result<Played, NotPlayed> {
        let work = dir.join("work");
        let judge = dir.join("interactor");
        std::fs::create_dir(&work).map_err(setup("create the working folder"))?;
        std::fs::create_dir(&judge).map_err(setup("create the interactor's folder"))?;
        // The interactor's files live in its own working folder, the one
        // place its sandbox lets it read and write; the feedback folder is
        // that folder itself (it must be writable by the run's uid).
        let input_copy = judge.join("input");
        let answer_copy = judge.join("answer");
        place(input, &input_copy).map_err(setup("copy the test input"))?;
        place(answer, &answer_copy).map_err(setup("copy the test answer"))?;
        if let Some(carried) = self.feedback {
            carry(carried, &judge, &[]).map_err(setup("copy the feedback of the last pass"))?;
        }
        let mut argv = self.interactor.argv(INTERACTOR_MEMORY);
        if let Some(missing) = crate::language::missing_file(&argv) {
            return Err(NotPlayed::Interactor(NotStarted::Missing(missing)));
        }
        argv.push(input_copy.into_os_string());
        match self.protocol {
            Protocol::Icpc => {
                argv.push(answer_copy.into_os_string());
                let mut feedback = judge.clone().into_os_string();
                feedback.push("/");
                argv.push(feedback);
                argv.extend(self.args.iter().map(Into::into));
            }
            Protocol::Testlib => argv.push(judge.join("output").into_os_string()),
        }
        // Its input, answer and feedback live in its folder: the kind
        // keeps it.
        let int_spec = RunKind::Interactor
            .spec(
                argv,
                &judge,
                dir.join("interactor.stdout"),
                interactor_limits(self.limits, INTERACTOR_GRACE),
            )
            .stdin(dir.join("interactor.stdin"))
            .build();
        let sub_spec = RunKind::Submission
            .spec(
                self.program.argv(self.problem_memory),
                &work,
                dir.join("stdout"),
                self.limits,
            )
            .stdin(dir.join("stdin"))
            .build();
        let (sub_in, int_out) = pipe().map_err(setup("create the pipe to the submission"))?;
        let (int_in, sub_out) = pipe().map_err(setup("create the pipe to the interactor"))?;
        // The judge's own copy of the interactor's input: the interactor
        // sees its end only once the submission has ended (see the module
        // doc).
        let mut held = Some(
            sub_out
                .try_clone()
                .map_err(setup("hold the interactor's input"))?,
        );
        // The judge's own copy of the submission's input, read only once
        // the submission has ended (see the module doc).
        let mut drain = Some(
            sub_in
                .try_clone()
                .map_err(setup("hold the submission's input"))?,
        );
        let sub_stop = Arc::new(AtomicBool::new(false));
        let int_stop = Arc::new(AtomicBool::new(false));
        let sub_ended: Arc<std::sync::OnceLock<Instant>> = Arc::default();
        let int_ended: Arc<std::sync::OnceLock<Instant>> = Arc::default();
        let sub_pid: Arc<std::sync::OnceLock<libc::pid_t>> = Arc::default();
        let int_pid: Arc<std::sync::OnceLock<libc::pid_t>> = Arc::default();
        let sub_pipes = Pipes {
            stdin: sub_in,
            stdout: sub_out,
            stop: Arc::clone(&sub_stop),
            ended: Arc::clone(&sub_ended),
            pid: Arc::clone(&sub_pid),
        };
        let int_pipes = Pipes {
            stdin: int_in,
            stdout: int_out,
            stop: Arc::clone(&int_stop),
            ended: Arc::clone(&int_ended),
            pid: Arc::clone(&int_pid),
        };
        let (tx, rx) = std::sync::mpsc::channel();
        let mut ends = Ends::new(&sub_pid, &int_pid);
        let (sub, int, stuck) = std::thread::scope(|s| {
            let sub_tx = tx.clone();
            let sub_spec = &sub_spec;
            let int_spec = &int_spec;
            s.spawn(move || {
                let r = self.runner.run_connected(sub_spec, sub_pipes);
                let _ = sub_tx.send((First::Submission, r));
            });
            s.spawn(move || {
                let r = self.runner.run_connected(int_spec, int_pipes);
                let _ = tx.send((First::Interactor, r));
            });
            self.watch(&rx, &sub_stop, &int_stop, &mut held, &mut drain, &mut ends)
        });
        // The submission's failure first: one that never started left the
        // interactor nothing to talk to, whatever the interactor then did.
        let submission = sub.map_err(NotPlayed::Submission)?;
        let interactor = int.map_err(NotPlayed::interactor)?;
        if let Some(carried) = self.feedback {
            carry(&judge, carried, &["input", "answer"])
                .map_err(setup("keep the feedback for the next pass"))?;
        }
        // Which run ended first cannot be told from which result arrived
        // first (a run's result takes a while to gather): a submission
        // that the judge stopped shows as killed by SIGKILL at no limit.
        let cut_short = sub_stop.load(Ordering::SeqCst)
            && submission.exit == Exit::Signal(libc::SIGKILL)
            && !submission.crossed.any();
        let first = match (ends.first, int_ended.get(), sub_ended.get()) {
            _ if cut_short => First::Interactor,
            (Some(who), _, _) => who,
            (None, Some(i), Some(s)) if i < s => First::Interactor,
            _ => First::Submission,
        };
        let scores = match self.protocol {
            Protocol::Icpc => super::score_file::read(&judge, "interactor"),
            Protocol::Testlib => Ok(super::score_file::Files::default()),
        };
        let message = match self.protocol {
            Protocol::Icpc => head(&judge.join("judgemessage.txt"), MESSAGE_CAP),
            Protocol::Testlib => String::new(),
        };
        let message = if message.trim().is_empty() {
            text_head(&interactor.stderr_head, MESSAGE_CAP)
        } else {
            message
        };
        let stderr_head = self
            .program
            .messages(&text_head(&submission.stderr_head, STDERR_CAP));
        Ok(Played {
            submission,
            interactor,
            first,
            interactor_stuck: stuck,
            message: message.trim().to_string(),
            stderr_head,
            scores,
        })
    }

    /// Waits for both runs. An interactor that has decided against the
    /// submission (or failed) ends it at once; one that outlives the
    /// submission by [`INTERACTOR_GRACE`] is stopped.
    #[allow(clippy::type_complexity)]
    fn watch(
        &self,
        rx: &std::sync::mpsc::Receiver<(First, Result<RunOutcome, SandboxError>)>,
        sub_stop: &AtomicBool,
        int_stop: &AtomicBool,
        held: &mut Option<std::os::fd::OwnedFd>,
        drain: &mut Option<std::os::fd::OwnedFd>,
        ends: &mut Ends,
    ) -> (
        Result<RunOutcome, SandboxError>,
        Result<RunOutcome, SandboxError>,
        bool,
    ) {
        let mut sub = None;
        let mut int = None;
        let mut deadline: Option<Instant> = None;
        let mut stuck = false;
        while sub.is_none() || int.is_none() {
            if sub.is_some() && int.is_none() {
                drop_pending(drain);
            }
            // Waits on both processes at once while neither has ended,
            // then on `rx` (at most 50 ms either way, as before).
            let left = ends.wait(Duration::from_millis(50));
            match rx.recv_timeout(left) {
                Ok((First::Submission, r)) => {
                    // Now the interactor may see the end of its input.
                    held.take();
                    deadline = Some(Instant::now() + INTERACTOR_GRACE);
                    sub = Some(r);
                }
                Ok((First::Interactor, r)) => {
                    drain.take();
                    let accepted = matches!(
                        &r,
                        Ok(o) if !o.crossed.any() && self.protocol.said(o.exit) == Said::Accepted
                    );
                    if !accepted {
                        sub_stop.store(true, Ordering::SeqCst);
                    }
                    int = Some(r);
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    held.take();
                    break;
                }
            }
            if int.is_none() && deadline.is_some_and(|d| Instant::now() > d) && !stuck {
                stuck = true;
                int_stop.store(true, Ordering::SeqCst);
            }
        }
        (
            sub.unwrap_or(Err(SandboxError::Abandoned)),
            int.unwrap_or(Err(SandboxError::Abandoned)),
            stuck,
        )
    }
}

impl Played {
    /// The verdict, by [`crate::verdict::interactive::interaction`]; with
    /// it, the reason when the submission's own run (a limit, a crash)
    /// decided.
    fn verdict(
        &self,
        limits: &RunLimits,
        problem_memory: Bytes,
        protocol: Protocol,
    ) -> (Verdict, String, Option<Reason>) {
        let int = &self.interactor;
        let end = if self.interactor_stuck {
            InteractorEnd::Stuck {
                grace: INTERACTOR_GRACE,
            }
        } else if let Some(said) = crate::language::refused_to_start(int.exit, &int.stderr_head) {
            InteractorEnd::NotStarted(said)
        } else if let Some(hit) = int.crossed.first() {
            InteractorEnd::AtLimit(hit)
        } else {
            InteractorEnd::Said(protocol.said(int.exit))
        };
        let run = run_verdict(
            &RunFacts::of(&self.submission, &self.stderr_head),
            limits,
            problem_memory,
        );
        interaction(protocol, self.first, end, run, &self.message)
    }
}
