//! The judge as `stress` uses it: a one-group problem of the inputs
//! asked about, prepared and judged, and the first input that fails.

use std::path::Path;

use crate::judge::{self, Context, JudgeError, TestResult};
use crate::problem::{Group, Problem, TestSource};
use crate::verdict::Verdict;
use crate::verdict::decide::Reason;

/// Judges inputs the way `judge` does: a problem whose only group is the
/// given inputs, prepared (answers from the reference, cached) and judged.
/// Public so that other features (`grade`'s "first failing case") can
/// shrink a failure with [`super::shrink`].
pub struct Runner<'a> {
    pub problem: &'a Problem,
    pub ctx: &'a Context,
    pub submission: &'a Path,
    pub options: judge::Options,
}

/// The first input of a batch that fails, with its result.
pub struct Failure {
    pub index: usize,
    pub result: TestResult,
}

impl Runner<'_> {
    pub fn new<'a>(
        problem: &'a Problem,
        ctx: &'a Context,
        submission: &'a Path,
        jobs: usize,
        language: Option<String>,
    ) -> Runner<'a> {
        Runner {
            problem,
            ctx,
            submission,
            options: judge::Options {
                jobs: jobs.max(1),
                groups: Vec::new(),
                fail_fast: true,
                all: false,
                language,
                cancel: None,
                slots: None,
            },
        }
    }

    /// The one-group problem judging `inputs` in order.
    pub(super) fn batch_problem(&self, inputs: &[String]) -> Problem {
        let mut p = self.problem.clone();
        p.samples.clear();
        p.groups = vec![Group {
            name: "stress".into(),
            points: 1.0,
            tests: inputs
                .iter()
                .map(|i| TestSource::Inline {
                    input: i.clone(),
                    answer: None,
                })
                .collect(),
        }];
        p
    }

    /// The first input (in order) the submission fails; inputs on which the
    /// reference itself fails, or the checker breaks (`IE`), are skipped.
    /// `Err` for a problem that cannot be judged; `Ok(Some)` with verdict
    /// `CE` and index 0 when the submission does not compile.
    pub fn first_failure(&self, inputs: &[String]) -> Result<Option<Failure>, JudgeError> {
        let mut start = 0;
        while start < inputs.len() {
            let prepared = judge::prepare(&self.batch_problem(&inputs[start..]), self.ctx)?;
            let mut prepared = prepared;
            let kept: Vec<usize> = (0..prepared.tests.len())
                .filter(|&i| prepared.tests[i].answer.is_ok())
                .collect();
            prepared.tests.retain(|t| t.answer.is_ok());
            if prepared.tests.is_empty() {
                return Ok(None);
            }
            let r = judge::judge(
                &prepared,
                self.ctx,
                self.submission,
                &self.options,
                &mut |_| {},
            )?;
            if r.verdict == Verdict::CE {
                return Ok(Some(Failure {
                    index: 0,
                    result: TestResult {
                        verdict: Verdict::CE,
                        message: r.compile.log,
                        ..TestResult::unjudged("compile", "")
                    },
                }));
            }
            let Some(pos) = r.tests.iter().position(|t| t.verdict != Verdict::AC) else {
                return Ok(None);
            };
            let index = start + kept[pos];
            if r.tests[pos].verdict != Verdict::IE {
                return Ok(Some(Failure {
                    index,
                    result: r.tests[pos].clone(),
                }));
            }
            start = index + 1;
        }
        Ok(None)
    }

    /// The first input of `inputs` that fails and fails again when judged
    /// alone, if the first failure [`may_be_transient`]: a time limit hit
    /// while the machine was busy, or a start the kernel refused, is a
    /// one-off and the search goes on after it. A counterexample must fail
    /// on its own merits; the shrinker behind it, and `mutants`' count of
    /// survivors, would otherwise chase a failure that is not there. The
    /// result kept is the second one.
    pub fn first_lasting_failure(&self, inputs: &[String]) -> Result<Option<Failure>, JudgeError> {
        let mut start = 0;
        while start < inputs.len() {
            let Some(f) = self.first_failure(&inputs[start..])? else {
                return Ok(None);
            };
            let index = start + f.index;
            if !may_be_transient(&f.result) {
                return Ok(Some(Failure { index, ..f }));
            }
            if let Some(again) = self.first_failure(std::slice::from_ref(&inputs[index]))? {
                return Ok(Some(Failure {
                    index,
                    result: again.result,
                }));
            }
            start = index + 1;
        }
        Ok(None)
    }
}

/// Whether a failure may be the machine's rather than the submission's: a
/// time limit (a loaded machine delays a run that is fast enough) or a
/// program the system could not start (`EAGAIN`, a full machine). Such a
/// failure is judged once more before it is reported.
pub fn may_be_transient(r: &TestResult) -> bool {
    r.verdict == Verdict::TLE || matches!(r.reason, Some(Reason::NotStarted { .. }))
}
