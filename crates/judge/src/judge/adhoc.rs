//! One run on the setter's own input (`grundy run`): the submission as
//! `judge` compiles and runs it, with the problem's limits, but on a file
//! of the user's, its output kept to show. With an answer file the
//! problem's checker decides as on any test; without one only the run's
//! own verdict (TLE, MLE, OLE, RE) can be given.

use std::path::Path;

use super::context::Context;
use super::exec::{execute, run_limits};
use super::outcome::check_output;
use super::prepare::build_checker;
use super::prepared::{Kind, Prepared, PreparedTest};
use super::result::{CompileReport, TestResult};
use super::{Because, JudgeError};
use crate::cache::Key;
use crate::language::{CompileOutcome, compile};
use crate::problem::Problem;
use crate::verdict::decide::{self, CheckerSaid, RunFacts};

/// How much of the output is kept to show: a screenful and more, never a
/// runaway program's whole output in memory.
pub const OUTPUT_SHOWN: usize = 64 * 1024;

/// What one run did.
#[derive(Debug, Clone)]
pub struct AdhocRun {
    pub language: String,
    pub compile: CompileReport,
    /// The run (absent when the submission did not compile). Its verdict is
    /// `AC` for a clean run without an answer to check against.
    pub result: Option<TestResult>,
    /// Whether the checker judged the output (an answer was given).
    pub checked: bool,
    /// The start of standard output, at most [`OUTPUT_SHOWN`] bytes.
    pub output: Vec<u8>,
    /// The whole size of standard output.
    pub output_size: u64,
}

/// Compiles `submission` (through the cache) and runs it on `input` with
/// the problem's limits; checks the output against `answer` if given.
pub fn run_on_input(
    problem: &Problem,
    ctx: &Context,
    submission: &Path,
    language: Option<&str>,
    input: &Path,
    answer: Option<&Path>,
) -> Result<AdhocRun, JudgeError> {
    if problem.interactor.is_some() {
        return Err(JudgeError::Usage(Because::new(format!(
            "{} is interactive: its runs are games against the judge; use `grundy judge`",
            problem.id
        ))));
    }
    let languages = ctx.languages_for(problem);
    let lang = match language {
        Some(id) => languages.by_id(id),
        None => languages.detect(submission),
    }
    .map_err(|e| JudgeError::Submission(Because::cause(e)))?;
    // Copies in the cache: the sandbox and external checkers read the
    // judge's own files, never a path of the user's.
    let store = |path: &Path, kind: &str, ext: &str| -> Result<std::path::PathBuf, JudgeError> {
        let bytes = crate::beneath::read_file(path, crate::beneath::DATA_CAP)
            .map_err(|e| JudgeError::Usage(Because::of(path.display().to_string(), e)))?;
        ctx.cache
            .put_file(kind, &Key::of(&[&bytes]), ext, &bytes)
            .map_err(|e| JudgeError::Io(Because::of(format!("cannot store {}", path.display()), e)))
    };
    let test = PreparedTest {
        name: "input".into(),
        group: "run".into(),
        input: store(input, "tests", ".in")?,
        answer: match answer {
            Some(a) => Ok(store(a, "answers", ".ans")?),
            None => Err(crate::judge::NoAnswer::NotGiven),
        },
    };
    let mut run = AdhocRun {
        language: lang.id.clone(),
        compile: CompileReport {
            ok: false,
            log: String::new(),
        },
        result: None,
        checked: false,
        output: Vec::new(),
        output_size: 0,
    };
    let program = match compile(lang, submission, &ctx.cache, &ctx.sandbox)
        .map_err(|e| JudgeError::Submission(Because::cause(e)))?
    {
        CompileOutcome::Ready(c) => c,
        CompileOutcome::Failed { log, .. } => {
            run.compile.log = log;
            return Ok(run);
        }
    };
    run.compile = CompileReport {
        ok: true,
        log: program.log.clone(),
    };
    let prepared = Prepared {
        problem: problem.clone(),
        tests: Vec::new(),
        checker: build_checker(problem, ctx)?,
        interactor: None,
        kind: Kind::of(problem, None),
        scoring: problem.scoring,
        unscored_groups: super::score_file::unscored_groups(problem),
        measured: Vec::new(),
    };
    let limits = run_limits(&program, &problem.limits);
    let exec = execute(&program, &test.input, limits, problem.limits.memory, ctx)
        .map_err(|e| JudgeError::Io(Because::of("the judge could not run the program", e)))?;
    let mut r = TestResult::unjudged(&test.name, &test.group);
    r.record_run(&exec.outcome);
    let mut checked = None;
    let verdict = decide::test_verdict(
        &RunFacts::of(&exec.outcome, &exec.stderr_head),
        &limits,
        problem.limits.memory,
        || match &test.answer {
            Ok(a) => {
                let c = check_output(&prepared, &test, a, &exec);
                let said = c.0;
                checked = Some(c);
                said
            }
            Err(_) => CheckerSaid::Accepted,
        },
    );
    match verdict {
        Err(d) => r.decided_by_run(d),
        Ok(v) => {
            r.verdict = v;
            if let Some((_, message, diff)) = checked {
                r.message = message;
                r.diff = diff;
                run.checked = true;
            }
        }
    }
    r.stderr = exec.stderr_head.clone();
    run.output_size = exec.outcome.output_size.0;
    run.output = read_head(&exec.stdout, OUTPUT_SHOWN);
    run.result = Some(r);
    Ok(run)
}

fn read_head(path: &Path, cap: usize) -> Vec<u8> {
    use std::io::Read;
    let mut buf = Vec::new();
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.take(cap as u64).read_to_end(&mut buf);
    }
    buf
}
