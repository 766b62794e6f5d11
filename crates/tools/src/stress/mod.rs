//! `grundy stress PROBLEM SUBMISSION`: search for an input on which a
//! submission disagrees with the reference, then shrink it.
//!
//! The search judges the problem's own tests first (they were built to
//! catch the known wrong ideas), then fresh materialisations of the same
//! spec with new seeds; within each round the smallest inputs go first, so
//! the first counterexample found is already small and cheap. Every input
//! is judged exactly as `judge` would (same limits, checker and verdict
//! precedence) by handing the judge a one-group problem of inline tests.
//! The shrinker ([`shrink`]) then removes cases, piles and magnitude while
//! the submission keeps failing the same way, validating every candidate
//! against the problem's input format so it never reports an input the
//! statement forbids.

mod inputs;
mod runner;
mod shrink;

use std::collections::HashSet;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::catalog::format::InputFormat;
use crate::judge::{self, Because, Context, JudgeError, TestResult};
use crate::language::{CompileOutcome, compile};
use crate::problem::Problem;
use crate::verdict::Verdict;

pub use inputs::round_inputs;
pub use runner::{Failure, Runner, may_be_transient};
pub use shrink::{Shrunk, shrink, shrink_within};

/// How to search.
#[derive(Debug, Clone)]
pub struct Options {
    /// Time for the search; shrinking gets as much again at most.
    pub time: Duration,
    /// Seed of the first fresh round (the spec's own tests come before it).
    pub seed: u64,
    /// Tests run at once.
    pub jobs: usize,
    /// `--lang`: the submission's language instead of detection.
    pub language: Option<String>,
    /// `--tries`: stop after this many inputs, whichever of the two bounds
    /// comes first. A count does not depend on the machine's speed, so a
    /// search bounded by it explores the same inputs on a busy machine.
    pub tries: Option<u64>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            time: Duration::from_secs(10),
            seed: 1,
            jobs: 2,
            language: None,
            tries: None,
        }
    }
}

/// A failing input and what happened on it.
#[derive(Debug, Clone, PartialEq)]
pub struct Counterexample {
    pub input: String,
    /// The reference's output.
    pub expected: String,
    /// The submission's output (cut at [`OUTPUT_CAP`] bytes).
    pub actual: String,
    pub verdict: Verdict,
    /// The judge's reason (checker message, crash, limit).
    pub message: String,
    /// Numbers in the input as first found, and after shrinking.
    pub found_tokens: usize,
    pub tokens: usize,
    /// A shell command that runs the submission on the input.
    pub reproduce: String,
}

/// What a stress run found.
#[derive(Debug, Clone)]
pub struct Report {
    pub found: Option<Counterexample>,
    /// Distinct inputs judged during the search.
    pub tries: u64,
    pub elapsed: Duration,
}

/// Longest output kept for the report.
pub const OUTPUT_CAP: usize = 4096;

/// Searches for a failing input within `options.time`, then shrinks it.
pub fn stress(
    problem: &Problem,
    ctx: &Context,
    submission: &Path,
    options: &Options,
) -> Result<Report, JudgeError> {
    // A described game answers its inputs itself; any other problem needs
    // a reference to compare with.
    if problem.reference.is_none() && problem.game.is_none() {
        return Err(JudgeError::Problem(Because::new(format!(
            "{}: stress needs a reference solution (or a game described under `game:`) to compare with",
            problem.spec_path.display()
        ))));
    }
    let started = Instant::now();
    let deadline = started + options.time;
    let runner = Runner::new(
        problem,
        ctx,
        submission,
        options.jobs,
        options.language.clone(),
    );
    let mut seen: HashSet<u64> = HashSet::new();
    let mut tries = 0u64;
    let mut round = 0u64;
    let enough = |tries: u64| options.tries.is_some_and(|max| tries >= max);
    while Instant::now() < deadline && !enough(tries) {
        let mut inputs: Vec<String> = round_inputs(problem, ctx, round, options.seed)?
            .into_iter()
            .filter(|i| seen.insert(hash(i)))
            .collect();
        round += 1;
        if inputs.is_empty() {
            if round > 3 {
                break; // the spec generates nothing new (handmade tests only)
            }
            continue;
        }
        // Small inputs first: the first failure is then small and cheap.
        inputs.sort_by_key(|i| (i.len(), i.clone()));
        // Batches of a few, so the budget is checked often.
        for batch in inputs.chunks(options.jobs.max(1) * 2) {
            if Instant::now() >= deadline || enough(tries) {
                break;
            }
            // A one-off failure is judged again and passed over.
            let Some(f) = runner.first_lasting_failure(batch)? else {
                tries += batch.len() as u64;
                continue;
            };
            tries += f.index as u64 + 1;
            let elapsed = started.elapsed();
            let found = finish(&runner, &batch[f.index], f.result, options.time)?;
            return Ok(Report {
                found: Some(found),
                tries,
                elapsed,
            });
        }
    }
    Ok(Report {
        found: None,
        tries,
        elapsed: started.elapsed(),
    })
}

/// Shrinks a failing input and gathers what the report shows. Public so
/// that `mutants` shrinks what it finds exactly as `stress` does.
pub fn finish(
    runner: &Runner<'_>,
    input: &str,
    result: TestResult,
    budget: Duration,
) -> Result<Counterexample, JudgeError> {
    if result.verdict == Verdict::CE {
        return Ok(Counterexample {
            input: String::new(),
            expected: String::new(),
            actual: String::new(),
            verdict: Verdict::CE,
            message: result.message,
            found_tokens: 0,
            tokens: 0,
            reproduce: String::new(),
        });
    }
    let format = runner.problem.input_format();
    // Judge the input alone once more: a limit verdict seen while the
    // machine was busy must not become what every smaller input must show.
    let verdict = match runner.first_failure(&[input.to_string()])? {
        Some(f) => f.result.verdict,
        None => result.verdict,
    };
    let shrunk = match &format {
        Some(f) => shrink(runner, f, input, verdict, budget)?,
        None => Shrunk {
            input: input.to_string(),
            steps: 0,
            candidates: 0,
        },
    };
    describe(runner, format.as_ref(), input, shrunk, result)
}

fn describe(
    runner: &Runner<'_>,
    format: Option<&InputFormat>,
    original: &str,
    shrunk: Shrunk,
    first: TestResult,
) -> Result<Counterexample, JudgeError> {
    // Judge the final input once more for its message, and run both programs
    // for their outputs.
    let last = runner.first_failure(std::slice::from_ref(&shrunk.input))?;
    let (verdict, message) = match last {
        Some(f) => (f.result.verdict, f.result.message),
        None => (first.verdict, first.message),
    };
    let prepared = judge::prepare(
        &runner.batch_problem(std::slice::from_ref(&shrunk.input)),
        runner.ctx,
    )?;
    let test = prepared.tests.first();
    let expected = test
        .and_then(|t| t.answer.as_ref().ok())
        .map(|p| read_capped(p))
        .unwrap_or_default();
    let (actual, reproduce) = match test {
        Some(t) => run_submission(runner, &t.input, &shrunk.input)?,
        None => (String::new(), String::new()),
    };
    let count = |s: &str| s.split_ascii_whitespace().count();
    let _ = format;
    Ok(Counterexample {
        found_tokens: count(original),
        tokens: count(&shrunk.input),
        input: shrunk.input,
        expected,
        actual,
        verdict,
        message,
        reproduce,
    })
}

/// The submission's output on one input, and the command that reproduces it.
fn run_submission(
    runner: &Runner<'_>,
    input_path: &Path,
    input: &str,
) -> Result<(String, String), JudgeError> {
    let ctx = runner.ctx;
    let languages = ctx.languages_for(runner.problem);
    let lang = match &runner.options.language {
        Some(id) => languages.by_id(id),
        None => languages.detect(runner.submission),
    }
    .map_err(|e| JudgeError::Submission(Because::cause(e)))?;
    let compiled = match compile(lang, runner.submission, &ctx.cache, &ctx.sandbox)
        .map_err(|e| JudgeError::Submission(Because::cause(e)))?
    {
        CompileOutcome::Ready(c) => c,
        CompileOutcome::Failed { .. } => return Ok((String::new(), String::new())),
    };
    let limits = judge::run_limits(&compiled, &runner.problem.limits);
    let exec = judge::execute(
        &compiled,
        input_path,
        limits,
        runner.problem.limits.memory,
        ctx,
    )
    .map_err(|e| JudgeError::Io(Because::cause(e)))?;
    let actual = read_capped(&exec.stdout);
    let argv: Vec<String> = compiled
        .argv(runner.problem.limits.memory)
        .iter()
        .map(|a| shell_quote(&a.to_string_lossy()))
        .collect();
    let reproduce = format!("printf {} | {}", printf_format(input), argv.join(" "));
    Ok((actual, reproduce))
}

fn read_capped(path: &Path) -> String {
    use std::io::Read;
    let mut buf = Vec::new();
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.take(OUTPUT_CAP as u64 + 1).read_to_end(&mut buf);
    }
    let text = String::from_utf8_lossy(&buf).into_owned();
    if text.len() > OUTPUT_CAP {
        let mut cut = OUTPUT_CAP;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        format!("{}…", &text[..cut])
    } else {
        text
    }
}

/// `text` as a one-line, single-quoted printf format that prints it back.
fn printf_format(text: &str) -> String {
    let mut f = String::new();
    for c in text.chars() {
        match c {
            '\\' => f.push_str("\\\\"),
            '%' => f.push_str("%%"),
            '\n' => f.push_str("\\n"),
            '\t' => f.push_str("\\t"),
            '\r' => f.push_str("\\r"),
            '\'' => f.push_str("'\\''"),
            c => f.push(c),
        }
    }
    format!("'{f}'")
}

/// Single-quotes a word for a POSIX shell.
fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-=+:,@".contains(&b))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

fn hash(s: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::decide::Reason;

    /// Judged again: a time-out and a program the kernel would not start.
    /// Not: a crash, even one whose own words say "could not be started",
    /// nor a wrong answer.
    #[test]
    fn only_a_time_out_or_a_refused_start_may_be_transient() {
        use crate::sandbox::Exit;
        use crate::verdict::decide::{Decision, not_started};
        let decided = |d: Decision| {
            let mut r = TestResult::unjudged("t", "g");
            r.decided_by_run(d);
            r
        };
        let refused = decided(not_started(
            "Resource temporarily unavailable (os error 11)",
        ));
        assert_eq!(refused.verdict, Verdict::RE);
        assert!(may_be_transient(&refused), "{refused:?}");
        let timed_out = decided(Decision {
            verdict: Verdict::TLE,
            reason: Reason::Cpu {
                limit: Duration::from_secs(1),
            },
        });
        assert!(may_be_transient(&timed_out));
        let crash = decided(Decision {
            verdict: Verdict::RE,
            reason: Reason::Crash {
                ended: Exit::Code(1),
                first_stderr_line: "the helper could not be started".into(),
            },
        });
        assert!(crash.message.contains("could not be started"), "{crash:?}");
        assert!(!may_be_transient(&crash), "{crash:?}");
        let mut wrong = TestResult::unjudged("t", "g");
        wrong.verdict = Verdict::WA;
        assert!(!may_be_transient(&wrong));
    }

    #[test]
    fn quoting_survives_the_shell() {
        assert_eq!(shell_quote("/a/b.py"), "/a/b.py");
        assert_eq!(shell_quote("1\n2 3\n"), "'1\n2 3\n'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(printf_format("1\n2 %\t'\\"), r"'1\n2 %%\t'\''\\'");
    }
}
