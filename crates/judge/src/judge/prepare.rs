//! Turning a problem into tests ready to judge: inputs on disk, answers from
//! the spec or from the reference solution, and the checker.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::exec::{execute, run_limits};
use super::trusted::{self, Failed, GeneratorError, ReferenceError};
use super::{Because, JudgeError};
use crate::cache::{Cache, Key};
use crate::check::{self, Checker};
use crate::generate::{self, TestCase};
use crate::language::{CompileOutcome, Compiled, Languages, compile};
use crate::sandbox::{RunLimits, Runner};
use crate::spec::{CheckerSpec, Limits, Problem};
use crate::units::Bytes;

/// What a judge needs besides the problem.
pub struct Context {
    pub cache: Cache,
    pub languages: Languages,
    /// Replaces the spec's base seed (`gen --seed`).
    pub seed: Option<u64>,
    /// Runs and scratch files live here; removed when the context is dropped.
    pub workroot: super::workroot::Workroot,
    /// How every run of this judge is made (mode, cancellation).
    pub sandbox: Runner,
}

impl Drop for Context {
    /// Every run folder lives below the working root: whatever a program
    /// left there is removed without recursion (see `workroot::remove_tree`).
    fn drop(&mut self) {
        let _ = super::workroot::remove_tree(self.workroot.path());
    }
}

impl Context {
    pub fn new(cache: Cache, languages: Languages, sandbox: Runner) -> Result<Context, JudgeError> {
        super::workroot::remove_stale();
        let workroot = super::workroot::Workroot::create()
            .map_err(|e| JudgeError::Io(Because::of("cannot create a working folder", e)))?;
        sandbox
            .register_judge_folders(cache.root(), workroot.path())
            .map_err(|e| {
                JudgeError::Io(Because::of(
                    "cannot prepare the folders for sandboxed runs",
                    e,
                ))
            })?;
        Ok(Context {
            cache,
            languages,
            seed: None,
            workroot,
            sandbox,
        })
    }

    /// Compiles a program that belongs to the problem (reference, checker,
    /// generator): a failure here is the problem's fault, never a submission's.
    pub fn compile_trusted(&self, path: &Path, what: &str) -> Result<Compiled, JudgeError> {
        // A package's programs are built from a copy read beneath the
        // package, with its `{{constants}}` replaced (see `stage`).
        let staged = crate::spec::icpc::stage(path, &self.cache)
            .map_err(|e| JudgeError::Problem(Because::of(what, e)))?;
        let path = staged.as_deref().unwrap_or(path);
        if crate::language::is_scripted(path) {
            return match crate::language::build_scripted(
                path,
                &self.languages,
                &self.cache,
                &self.sandbox,
            )
            .map_err(|e| JudgeError::Problem(Because::of(what, e)))?
            {
                CompileOutcome::Ready(c) => Ok(c),
                CompileOutcome::Failed { log, .. } => {
                    Err(JudgeError::Problem(Because::new(format!(
                        "{what} {} does not build:\n{}",
                        path.display(),
                        log.trim_end()
                    ))))
                }
            };
        }
        let lang = self
            .languages
            .detect(path)
            .map_err(|e| JudgeError::Problem(Because::of(what, e)))?;
        match compile(lang, path, &self.cache, &self.sandbox)
            .map_err(|e| JudgeError::Problem(Because::of(what, e)))?
        {
            CompileOutcome::Ready(c) => Ok(c),
            CompileOutcome::Failed { log, .. } => Err(JudgeError::Problem(Because::new(format!(
                "{what} {} does not compile:\n{}",
                path.display(),
                log.trim_end()
            )))),
        }
    }
}

/// One test ready to judge.
#[derive(Debug, Clone)]
pub struct PreparedTest {
    pub name: String,
    pub group: String,
    pub input: PathBuf,
    /// The expected output, or why there is none (reported as `IE`).
    pub answer: Result<PathBuf, NoAnswer>,
}

/// Why a test has no expected output; the test is then `IE`, with this as
/// its message. Shared (`Arc`) because a prepared problem is cloned.
#[derive(Debug, Clone, thiserror::Error)]
pub enum NoAnswer {
    /// The test's own answer could not be stored in the cache.
    #[error("{0}")]
    Store(Arc<std::io::Error>),
    #[error("{0}")]
    Reference(Arc<ReferenceError>),
    #[error("no answer: {} names no reference solution and the test gives none", spec.display())]
    NoReference { spec: PathBuf },
    /// `grundy run` without `--answer`.
    #[error("no answer given")]
    NotGiven,
    /// A described game that cannot decide the test, and no reference.
    #[error("no answer: the game described in {} cannot decide this test ({why}), and the spec names no reference solution to answer it", spec.display())]
    Undecided { spec: PathBuf, why: String },
}

/// A problem with everything judging needs.
pub struct Prepared {
    pub problem: Problem,
    pub tests: Vec<PreparedTest>,
    pub checker: Box<dyn Checker>,
    /// The problem's interactor program, compiled (not for a built-in game).
    pub interactor: Option<Compiled>,
    /// Whether a validator's score files count (a scoring ICPC package):
    /// found once here, so that an accepted test does not read the
    /// package's `problem.yaml` again or look for files nobody writes.
    pub scoring: bool,
    /// The groups of a scoring package whose validator's `score.txt` is
    /// not read (see `spec::icpc::score_file_unused`), found once here.
    pub unscored_groups: Vec<String>,
}

/// Generates the tests, computes missing answers with the reference, and
/// builds the checker.
pub fn prepare(problem: &Problem, ctx: &Context) -> Result<Prepared, JudgeError> {
    prepare_with(problem, ctx, &|_| {})
}

/// [`prepare`], telling `step` what runs in its long parts (the
/// submissions measured for a derived time limit): `verify`'s progress.
pub fn prepare_with(
    problem: &Problem,
    ctx: &Context,
    step: &dyn Fn(&str),
) -> Result<Prepared, JudgeError> {
    ctx.sandbox.hide_folder(&problem.dir).map_err(|e| {
        JudgeError::Io(Because::of("cannot hide the problem's folder from runs", e))
    })?;
    let cases = cases(problem, ctx)?;
    // An interactive test has no answer: the interactor judges as it plays.
    // Nor has a multi-pass one: the reference's first pass is not one
    // (the format's tools write an empty `.ans` for both).
    let interactive = problem.interactor.is_some() || problem.passes.is_some();
    // A described game answers what it can decide; the reference the rest.
    let described: Vec<Option<Result<Vec<u8>, String>>> = cases
        .iter()
        .map(|c| match (&problem.game, &c.answer) {
            (Some(g), None) if !interactive => Some(
                String::from_utf8(c.input.clone())
                    .map_err(|_| "the input is not text".to_string())
                    .and_then(|text| g.answer(&text).map_err(|e| e.to_string()))
                    .map(String::into_bytes),
            ),
            _ => None,
        })
        .collect();
    let needs_reference = !interactive
        && cases
            .iter()
            .zip(&described)
            .any(|(c, d)| c.answer.is_none() && !matches!(d, Some(Ok(_))));
    let reference = match (&problem.reference, needs_reference) {
        (_, false) => None,
        (Some(path), true) => Some(ctx.compile_trusted(path, "reference solution")?),
        (None, true) => None,
    };
    let mut tests = Vec::with_capacity(cases.len());
    for (case, described) in cases.into_iter().zip(described) {
        let input = ctx
            .cache
            .put_file("tests", &Key::of(&[&case.input]), ".in", &case.input)
            .map_err(|e| JudgeError::Io(Because::of("cannot store a test input", e)))?;
        let answer = match (&case.answer, &reference) {
            // The interactor gets the answer file when the test has one
            // (an ICPC package's `.ans`), else the input again.
            (None, _) if interactive => Ok(input.clone()),
            (Some(a), _) => ctx
                .cache
                .put_file("answers", &Key::of(&[a]), ".ans", a)
                .map_err(|e| NoAnswer::Store(Arc::new(e))),
            (None, _) if matches!(described, Some(Ok(_))) => {
                let a = match &described {
                    Some(Ok(a)) => a.as_slice(),
                    _ => &[],
                };
                ctx.cache
                    .put_file("answers", &Key::of(&[a]), ".ans", a)
                    .map_err(|e| NoAnswer::Store(Arc::new(e)))
            }
            (None, Some(r)) => reference_answer(r, &input, &case.input, &problem.limits, ctx)
                .map_err(|e| NoAnswer::Reference(Arc::new(e))),
            (None, None) => Err(match described {
                Some(Err(why)) => NoAnswer::Undecided {
                    spec: problem.spec_path.clone(),
                    why,
                },
                _ => NoAnswer::NoReference {
                    spec: problem.spec_path.clone(),
                },
            }),
        };
        tests.push(PreparedTest {
            name: case.name,
            group: case.group,
            input,
            answer,
        });
    }
    let checker = build_checker(problem, ctx)?;
    let interactor = match problem.interactor.as_ref().and_then(|i| i.program()) {
        Some(p) => Some(ctx.compile_trusted(&problem.dir.join(p), "interactor")?),
        None => None,
    };
    release_freed_memory();
    let mut prepared = Prepared {
        problem: problem.clone(),
        tests,
        checker,
        interactor,
        scoring: problem.scoring,
        unscored_groups: super::score_file::unscored_groups(problem),
    };
    super::derive_time::apply(&mut prepared, ctx, step)?;
    Ok(prepared)
}

/// The problem's tests as bytes (also what `grundy gen` writes).
pub fn cases(problem: &Problem, ctx: &Context) -> Result<Vec<TestCase>, JudgeError> {
    let external = |program: &Path,
                    seed: Option<u64>,
                    args: &[String]|
     -> Result<(Vec<u8>, Option<Vec<u8>>), GeneratorError> {
        run_generator(program, seed, args, ctx)
    };
    generate::materialise(&problem.recipe(), ctx.seed, &problem.families(), &external)
        .map_err(|e| JudgeError::Problem(Because::cause(e)))
}

fn run_generator(
    program: &Path,
    seed: Option<u64>,
    args: &[String],
    ctx: &Context,
) -> Result<(Vec<u8>, Option<Vec<u8>>), GeneratorError> {
    let compiled = ctx.compile_trusted(program, "generator")?;
    let mut argv = compiled.argv(Bytes::mib(1024));
    if let Some(seed) = seed {
        argv.push(seed.to_string().into());
    }
    argv.extend(args.iter().map(Into::into));
    let dir = tempfile::tempdir_in(ctx.workroot.path())?;
    let spec = crate::sandbox::RunSpec {
        argv,
        workdir: dir.path().to_path_buf(),
        stdin: PathBuf::from("/dev/null"),
        stdout: dir.path().join("out"),
        env: vec![("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into())],
        limits: RunLimits {
            cpu: Duration::from_secs(30),
            wall: Duration::from_secs(60),
            memory: Bytes(4 << 30),
            address_space: None,
            output: Bytes::mib(256),
        },
        // The judge reads the `testcase.in` / `testcase.ans` a generator
        // may leave there (below), so the folder is not a scratch tmpfs.
        keep_workdir: true,
    };
    let outcome = ctx.sandbox.run(&spec)?;
    let stderr = || super::exec::text_head(&outcome.stderr_head, 2000);
    if let Some(failed) = Failed::of(&outcome, "") {
        return Err(GeneratorError::Failed(Failed {
            stderr: stderr().trim().to_string(),
            ..failed
        }));
    }
    // BAPCtools' convention: a generator that writes `testcase.in` in its
    // working folder has its standard output ignored; `testcase.ans` next
    // to it is the answer. Read without following links the program made.
    let read = |name: &str| crate::beneath::read(dir.path(), name, 256 << 20);
    let written = read("testcase.in").map_err(|source| GeneratorError::Written {
        file: "testcase.in",
        source,
    })?;
    let answer = read("testcase.ans").map_err(|source| GeneratorError::Written {
        file: "testcase.ans",
        source,
    })?;
    let input = match written {
        Some(bytes) => bytes,
        None => std::fs::read(dir.path().join("out"))?,
    };
    Ok((input, answer))
}

/// The reference's output on one input, cached by (reference, input).
fn reference_answer(
    reference: &Compiled,
    input_path: &Path,
    input: &[u8],
    limits: &Limits,
    ctx: &Context,
) -> Result<PathBuf, ReferenceError> {
    let key = Key::of(&[reference.key.0.as_bytes(), input]);
    if let Some(cached) = ctx.cache.existing_file("answers", &key, ".ans") {
        return Ok(cached);
    }
    let run = trusted::generous(run_limits(reference, limits));
    let exec = execute(reference, input_path, run, limits.memory, ctx)?;
    if let Some(failed) = Failed::of(&exec.outcome, &exec.stderr_head) {
        return Err(ReferenceError::Failed(failed));
    }
    let bytes = std::fs::read(&exec.stdout)?;
    Ok(ctx.cache.put_file("answers", &key, ".ans", &bytes)?)
}

pub(super) fn build_checker(
    problem: &Problem,
    ctx: &Context,
) -> Result<Box<dyn Checker>, JudgeError> {
    // A described game's move question has many right answers: its own
    // checker judges the move, whatever `checker:` says.
    if let Some(g) = &problem.game
        && matches!(g.question, crate::catalog::described::Question::Move { .. })
    {
        return Ok(Box::new(check::DescribedMoves::new(Arc::clone(g))));
    }
    let program = match &problem.checker {
        CheckerSpec::Testlib(p) | CheckerSpec::Icpc { program: p, .. } => Some(p),
        _ => None,
    };
    let command = match program {
        Some(p) => Some(
            ctx.compile_trusted(&problem.dir.join(p), "checker")?
                .argv(check::CHECKER_MEMORY),
        ),
        None => None,
    };
    // Checkers run like every other program of the judge: its runner, its
    // working root.
    let runs = check::Runs {
        runner: ctx.sandbox.clone(),
        root: ctx.workroot.path().to_path_buf(),
        ..check::Runs::default()
    };
    check::build_with(&problem.checker, command, runs).map_err(|e| {
        JudgeError::Problem(Because::of(
            format!("{}: checker", problem.spec_path.display()),
            e,
        ))
    })
}

/// Hands the memory that held the generated inputs back to the system.
///
/// A program starts in a copy of the judge's address space, and the kernel
/// counts the judge's resident size into the program's peak memory; megabytes
/// of freed-but-kept heap would make every run look that much bigger.
fn release_freed_memory() {
    // SAFETY: malloc_trim only releases free heap pages; it has no preconditions.
    unsafe {
        libc::malloc_trim(0);
    }
}
