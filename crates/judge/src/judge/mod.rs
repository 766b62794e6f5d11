//! Judging: compile a submission, run it on every test, check each output,
//! and turn what happened into verdicts and a score.
//!
//! The judge reports through [`Event`]s, so one run can feed a terminal
//! view, a JSON report and a journal at once without knowing any of them.

mod adhoc;
mod context;
mod derive_time;
mod error;
mod exec;
mod idleness;
mod interactive;
mod interactor_program;
mod multipass;
mod outcome;
pub mod pool;
mod prepare;
mod prepared;
mod result;
mod score_file;
mod slots;
pub mod trusted;
mod user_tmp;
mod workroot;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::Duration;

pub use adhoc::{AdhocRun, OUTPUT_SHOWN, run_on_input};
pub use context::Context;
pub use derive_time::measured_result;
pub use error::{Because, Cause, Chain, JudgeError, Source};
pub use exec::{Execute, Execution, execute, run_limits};
pub use interactive::play_input;
pub use prepare::{cases, prepare, prepare_groups, prepare_with};
pub use prepared::{Kind, MeasuredRun, NoAnswer, PlayedGame, Prepared, PreparedTest};
pub use result::{CompileReport, Diff, DiffSide, Isolation, SubmissionResult, TestResult};
pub use slots::{Admission, Slot, Slots};
pub use workroot::Workroot;

use crate::language::{CompileOutcome, Compiled, compile};
use crate::problem::ProblemId;
use crate::verdict::Verdict;

/// Every name of `groups` must be a group of the problem (`sample` for the
/// samples): a typo must not judge nothing and report `AC`.
pub fn check_groups(prepared: &Prepared, groups: &[String]) -> Result<(), JudgeError> {
    let mut known: Vec<&str> = Vec::new();
    for t in &prepared.tests {
        if !known.contains(&t.group.as_str()) {
            known.push(&t.group);
        }
    }
    let unknown: Vec<&str> = groups
        .iter()
        .map(String::as_str)
        .filter(|g| !known.contains(g))
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    Err(JudgeError::Usage(Because::new(format!(
        "--tests {}: problem `{}` has no such group (its groups: {})",
        unknown.join(", "),
        prepared.problem.id.0,
        if known.is_empty() {
            "none".to_string()
        } else {
            known.join(", ")
        }
    ))))
}

/// How to judge.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Tests using a CPU at once (1 keeps timings comparable between
    /// submissions); a test that sleeps lends its place (see `slots/`).
    pub jobs: usize,
    /// Only these groups (`sample` names the samples); empty means all.
    pub groups: Vec<String>,
    /// Stop at the first test that is not AC (enough for a known-wrong check).
    pub fail_fast: bool,
    /// `--all`: run every test even after its group has failed. Off, the
    /// rest of a group is skipped after its first failure: a group's points
    /// are all-or-nothing, so those runs cannot change the score and a
    /// program that times out would cost one time-out per test.
    pub all: bool,
    /// `--lang`: the language id to use instead of detecting it.
    pub language: Option<String>,
    /// Set from outside (Ctrl-C) to stop before the next test: the result
    /// then holds fewer tests than were asked for and must not be kept.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Test runs shared with other judgings going on at once (a batch):
    /// each test takes one, so this judging never adds to more runs using
    /// a CPU than the batch's `--jobs`. None: slots of `jobs` for this
    /// judging alone. Either way a test that sleeps lends its slot to the
    /// next one (see `slots/`).
    pub slots: Option<std::sync::Arc<Slots>>,
}

/// What the judge reports as it goes.
#[derive(Debug, Clone)]
pub enum Event<'a> {
    Started {
        submission: &'a str,
        problem: &'a ProblemId,
        tests: usize,
    },
    Compiled {
        submission: &'a str,
        report: &'a CompileReport,
    },
    Test {
        submission: &'a str,
        result: &'a TestResult,
    },
    Finished {
        result: &'a SubmissionResult,
    },
}

/// Judges one submission on a prepared problem.
pub fn judge(
    prepared: &Prepared,
    ctx: &Context,
    submission: &Path,
    options: &Options,
    sink: &mut dyn FnMut(&Event<'_>),
) -> Result<SubmissionResult, JudgeError> {
    let shown = submission.display().to_string();
    let languages = ctx.languages_for(&prepared.problem);
    let lang = match &options.language {
        Some(id) => languages.by_id(id),
        None => languages.detect(submission),
    }
    .map_err(|e| JudgeError::Submission(Because::cause(e)))?;
    check_groups(prepared, &options.groups)?;
    // A package may have no test data yet (`verify` says so and checks the
    // rest); a verdict on no tests would be an `AC` that means nothing.
    if prepared.tests.is_empty() {
        return Err(JudgeError::Problem(Because::new(format!(
            "problem `{}` has no tests: nothing to judge {shown} on",
            prepared.problem.id.0
        ))));
    }
    let tests: Vec<&PreparedTest> = prepared
        .tests
        .iter()
        .filter(|t| options.groups.is_empty() || options.groups.contains(&t.group))
        .collect();
    sink(&Event::Started {
        submission: &shown,
        problem: &prepared.problem.id,
        tests: tests.len(),
    });
    let mut result = SubmissionResult::new(&shown, &prepared.problem.id, &lang.id);
    // A package's example submission is built from a copy read beneath
    // the package, with its `{{constants}}` replaced as the format says.
    let staged = crate::problem::stage(submission, &prepared.problem, &ctx.cache)
        .map_err(|e| JudgeError::Submission(Because::of(shown.as_str(), e)))?;
    let built = staged.as_deref().unwrap_or(submission);
    // Messages name the file as it was submitted, not as it was compiled.
    let submitted_name = submission
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| shown.clone());
    let named = |o: CompileOutcome| {
        if submission.is_dir() {
            o
        } else {
            o.shown_as(&submitted_name)
        }
    };
    let compiled = match compile(lang, built, &ctx.cache, &ctx.sandbox).map(named) {
        Ok(CompileOutcome::Ready(c)) => {
            result.compile = CompileReport {
                ok: true,
                log: c.log.clone(),
            };
            Some(c)
        }
        Ok(CompileOutcome::Failed { log, .. }) => {
            result.compile = CompileReport { ok: false, log };
            None
        }
        Err(e) => {
            let known_missing = matches!(e, crate::language::LanguageError::Read { .. });
            if known_missing {
                return Err(JudgeError::Submission(Because::cause(e)));
            }
            result.compile = CompileReport {
                ok: false,
                log: e.to_string(),
            };
            result.internal_error = Some(e.to_string());
            None
        }
    };
    sink(&Event::Compiled {
        submission: &shown,
        report: &result.compile,
    });
    if let Some(program) = &compiled {
        let limits = run_limits(program, &prepared.problem.limits);
        let run = run_tests(prepared, ctx, program, &tests, options, &shown, sink);
        result.tests = run.results;
        result.skipped = run.skipped;
        // After the runs: a mechanism that failed for one of them is not
        // claimed.
        result.isolation = result::Isolation(
            ctx.sandbox
                .isolation_in_force(&limits)
                .into_iter()
                .map(str::to_string)
                .collect(),
        );
    }
    result.finish(&prepared.problem, compiled.is_some());
    sink(&Event::Finished { result: &result });
    Ok(result)
}

/// The tests reported for a submission, and how many were not run.
struct Run {
    results: Vec<TestResult>,
    /// Tests passed over after a failure in their group (or, with
    /// `fail_fast`, after any failure).
    skipped: usize,
}

/// Runs the tests on `jobs` threads, reporting results in test order.
///
/// Unless `options.all`, a test whose group already has a failing test
/// earlier in test order is not started. What is reported does not depend
/// on timing: walking the tests in order, a test of a group that has failed
/// before it is counted as skipped, even when a worker happened to run it
/// before the failure was known (its result is dropped).
fn run_tests(
    prepared: &Prepared,
    ctx: &Context,
    program: &Compiled,
    tests: &[&PreparedTest],
    options: &Options,
    shown: &str,
    sink: &mut dyn FnMut(&Event<'_>),
) -> Run {
    // With `fail_fast`: the position of the earliest failure known, of
    // any group (`usize::MAX` while none).
    let first_failure_any = AtomicUsize::new(usize::MAX);
    let own;
    let slots = match &options.slots {
        Some(shared) => shared.as_ref(),
        None => {
            own = Slots::new(options.jobs);
            &own
        }
    };
    // Per test: the position of the earliest known failure of its group
    // (shared by all tests of the group), `usize::MAX` while none.
    let mut group_of: Vec<usize> = Vec::with_capacity(tests.len());
    let mut names: Vec<&str> = Vec::new();
    for t in tests {
        let g = match names.iter().position(|n| *n == t.group) {
            Some(g) => g,
            None => {
                names.push(&t.group);
                names.len() - 1
            }
        };
        group_of.push(g);
    }
    let first_failure: Vec<AtomicUsize> =
        names.iter().map(|_| AtomicUsize::new(usize::MAX)).collect();
    let mut done: Vec<Option<TestResult>> = vec![None; tests.len()];
    // In-order walk: tests decided (reported or skipped), and the groups
    // seen failing so far.
    let mut decided = 0;
    let mut failed_groups = vec![false; names.len()];
    let mut results = Vec::new();
    let mut skipped = 0;
    let skipping = !options.all;
    let heads_first = skipping && !options.fail_fast;
    let order = run_order(&group_of, heads_first);
    let heads = Heads::new(&group_of, names.len());
    let cancelled = || {
        (options.fail_fast && first_failure_any.load(Ordering::SeqCst) != usize::MAX)
            || options
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::SeqCst))
    };
    let work = |k: usize, tx: &mpsc::Sender<(usize, TestResult)>| {
        let i = order[k];
        let g = group_of[i];
        // Told when this group's first test is over, however this ends.
        let _settle = (heads_first && heads.first[g] == i).then(|| Settle(&heads, g));
        if heads_first && heads.first[g] != i {
            heads.wait(g, &cancelled);
        }
        let group = &first_failure[g];
        if skipping && group.load(Ordering::SeqCst) < i {
            return;
        }
        let Some(slot) = slots.take(options.cancel.as_deref()) else {
            return; // cancelled: `pool::run` stops at its next check
        };
        // The wait may have been long: a failure found meanwhile makes
        // this run useless (with `fail_fast`, any failure before it).
        // Only one *before* it: tests are not served in the order their
        // positions were handed out, so a test after this one may have
        // run and failed first, and this one may be the first failure
        // that is reported.
        if (skipping && group.load(Ordering::SeqCst) < i)
            || fail_fast_past(options.fail_fast, &first_failure_any, i)
            || options
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::SeqCst))
        {
            return;
        }
        let r = judge_one(prepared, ctx, program, tests[i], Some(&slot));
        drop(slot);
        if r.verdict != Verdict::AC {
            group.fetch_min(i, Ordering::SeqCst);
            first_failure_any.fetch_min(i, Ordering::SeqCst);
        }
        // The receiver lives until every worker is done.
        let _ = tx.send((i, r));
    };
    let mut walk = |done: &mut Vec<Option<TestResult>>| {
        while decided < tests.len() {
            let g = group_of[decided];
            if skipping && failed_groups[g] {
                skipped += 1;
            } else if let Some(r) = done[decided].take() {
                sink(&Event::Test {
                    submission: shown,
                    result: &r,
                });
                failed_groups[g] |= r.verdict != Verdict::AC;
                results.push(r);
            } else {
                break;
            }
            decided += 1;
        }
    };
    walk(&mut done);
    // A thread per run that may be alive at once: the slots, not the
    // threads, cap the runs using a CPU, and a test that sleeps lends its
    // slot to a thread waiting for one. The threads beyond `--jobs` work
    // only while runs are lent (`Slots::extra_may_work`).
    pool::run_gated(
        slots.jobs(),
        slots.most_alive(),
        slots,
        tests.len(),
        &cancelled,
        &work,
        |(i, r)| {
            done[i] = Some(r);
            walk(&mut done);
        },
    );
    // With fail_fast, tests after the first failure may be missing: keep
    // the results up to it, and count every other test as not run.
    if options.fail_fast
        && let Some(first) = results.iter().position(|r| r.verdict != Verdict::AC)
    {
        results.truncate(first + 1);
        skipped = tests.len() - results.len();
    }
    Run { results, skipped }
}

/// Judges one test by the problem's kind of test (chosen when it was
/// prepared): never fails, problems become `IE`. An ordinary run tells
/// `lender` when it sleeps (its `--jobs` slot); an interactive one keeps
/// its slot, its idleness clock bounding it.
fn judge_one(
    prepared: &Prepared,
    ctx: &Context,
    program: &Compiled,
    test: &PreparedTest,
    lender: Option<&dyn crate::sandbox::Lender>,
) -> TestResult {
    match (&prepared.kind, &prepared.interactor) {
        (Kind::MultiPass { passes }, _) => {
            multipass::judge_test(prepared, ctx, program, test, *passes, lender)
        }
        (Kind::Game(game), _) => interactive::judge_test(prepared, ctx, program, test, game),
        (Kind::Interactor { protocol, args }, Some(interactor)) => interactor_program::judge_test(
            prepared, ctx, program, test, interactor, *protocol, args,
        ),
        _ => outcome::judge_test(prepared, ctx, program, test, lender),
    }
}

/// Whether, with `fail_fast`, the run of the test at position `i` is no
/// longer needed: a failure before it is known. A failure after it is not
/// enough: with `fail_fast` the result keeps every test up to the first
/// failure in test order, and dropping the runs before a later failure
/// left nothing to report (a submission failing its first test then had
/// no test at all, which reads as passing).
fn fail_fast_past(fail_fast: bool, first_failure: &AtomicUsize, i: usize) -> bool {
    fail_fast && first_failure.load(Ordering::SeqCst) < i
}

/// The order in which tests are started: with `heads_first`, the first
/// test of every group, then the others in test order; else test order.
///
/// When groups stop at their first failure, a program that fails every
/// test (typically by sleeping until the wall-time limit) then runs one
/// test per group whatever the number of threads, its groups side by side,
/// instead of having two threads time out on two tests of one group. The
/// order only changes when a test starts, never what is reported: that is
/// decided walking the tests in test order.
fn run_order(group_of: &[usize], heads_first: bool) -> Vec<usize> {
    let all = 0..group_of.len();
    if !heads_first {
        return all.collect();
    }
    let mut seen = vec![false; group_of.iter().max().map_or(0, |g| g + 1)];
    let head = |i: &usize| !std::mem::replace(&mut seen[group_of[*i]], true);
    let (mut order, rest): (Vec<usize>, Vec<usize>) = all.partition(head);
    order.extend(rest);
    order
}

/// Per group, whether its first test is over: the other tests of a group
/// start only then, so that a program failing every test runs exactly one
/// test per group, however many threads there are and however the runs
/// interleave. A passing program loses little: the other groups' first
/// tests run meanwhile.
struct Heads {
    /// Per group, the index of its first test.
    first: Vec<usize>,
    settled: Mutex<Vec<bool>>,
    changed: Condvar,
}

impl Heads {
    fn new(group_of: &[usize], groups: usize) -> Heads {
        let mut first = vec![usize::MAX; groups];
        for (i, &g) in group_of.iter().enumerate() {
            first[g] = first[g].min(i);
        }
        Heads {
            first,
            settled: Mutex::new(vec![false; groups]),
            changed: Condvar::new(),
        }
    }

    /// Waits until group `g`'s first test is over, or `cancelled`.
    fn wait(&self, g: usize, cancelled: &dyn Fn() -> bool) {
        let mut settled = self.settled.lock().unwrap_or_else(PoisonError::into_inner);
        while !settled[g] && !cancelled() {
            settled = self
                .changed
                .wait_timeout(settled, Duration::from_millis(50))
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

/// Marks a group's first test over when dropped (also when it did not run).
struct Settle<'a>(&'a Heads, usize);

impl Drop for Settle<'_> {
    fn drop(&mut self) {
        let mut settled = self
            .0
            .settled
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        settled[self.1] = true;
        self.0.changed.notify_all();
    }
}

/// Every file under `problem/submissions/<verdict folder>/`, with the verdict
/// its folder promises, sorted.
pub fn known_submissions(problem_dir: &Path) -> Vec<(Verdict, PathBuf)> {
    let root = problem_dir.join("submissions");
    let mut found: Vec<(Verdict, PathBuf)> = walkdir::WalkDir::new(&root)
        .min_depth(2)
        .max_depth(2)
        .into_iter()
        .filter_map(Result::ok)
        // A folder is one submission of several files.
        .filter(|e| e.file_type().is_file() || e.file_type().is_dir())
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .filter(|e| {
            e.path()
                .extension()
                .is_none_or(|x| x != "md" && x != "disabled")
        })
        .filter_map(|e| {
            let folder = e.path().parent()?.file_name()?.to_str()?;
            Some((Verdict::from_folder(folder)?, e.path().to_path_buf()))
        })
        .collect();
    found.sort_by(|a, b| a.1.cmp(&b.1));
    found
}

#[cfg(test)]
mod order_tests {
    use super::run_order;

    #[test]
    fn group_heads_start_first_then_test_order() {
        // Groups 0,0,0 | 1,1 | 2 | 3,3 (and a group seen again later).
        let groups = [0, 0, 0, 1, 1, 2, 3, 3, 1];
        assert_eq!(run_order(&groups, true), [0, 3, 5, 6, 1, 2, 4, 7, 8]);
        assert_eq!(run_order(&groups, false), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
        assert!(run_order(&[], true).is_empty());
    }

    /// With `fail_fast`, a failure makes the runs after it useless, never
    /// the ones before it: those come first in the result, whichever ran
    /// first.
    #[test]
    fn a_later_failure_does_not_drop_an_earlier_test() {
        use super::fail_fast_past;
        use std::sync::atomic::AtomicUsize;
        let first = AtomicUsize::new(usize::MAX);
        assert!(!fail_fast_past(true, &first, 0));
        // Test 1 ran before test 0 (its turn came first) and failed.
        first.store(1, std::sync::atomic::Ordering::SeqCst);
        assert!(!fail_fast_past(true, &first, 0), "test 0 must still run");
        assert!(!fail_fast_past(true, &first, 1));
        assert!(fail_fast_past(true, &first, 2));
        assert!(!fail_fast_past(false, &first, 2));
    }
}
