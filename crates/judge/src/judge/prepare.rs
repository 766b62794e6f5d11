//! Turning a problem into tests ready to judge: inputs on disk, answers from
//! the spec or from the reference solution, and the checker.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::context::Context;
use super::exec::{Execute, run_limits};
use super::prepared::{Kind, NoAnswer, Prepared, PreparedTest};
use super::trusted::{Failed, GeneratorError, ReferenceError};
use super::{Because, JudgeError};
use crate::cache::Key;
use crate::check::{self, Checker};
use crate::generate::{self, TestCase};
use crate::language::Compiled;
use crate::problem::{CheckerSpec, Limits, Problem};
use crate::run_kind::{self, RunKind};
use crate::units::Bytes;

/// Generates the tests, computes missing answers with the reference, and
/// builds the checker.
pub fn prepare(problem: &Problem, ctx: &Context) -> Result<Prepared, JudgeError> {
    prepare_with(problem, ctx, &|_| {})
}

/// [`prepare`] of the tests of `groups` only (every test when empty), for
/// a judging of those groups (`judge --tests`): the other tests are
/// neither generated, stored nor answered. A problem whose time limit is
/// derived from its tests, or a group it does not have (the judge names
/// its groups), is prepared whole.
pub fn prepare_groups(
    problem: &Problem,
    ctx: &Context,
    groups: &[String],
) -> Result<Prepared, JudgeError> {
    prepare_these(problem, ctx, &|_| {}, groups)
}

/// [`prepare`], telling `step` what runs in its long parts (the
/// submissions measured for a derived time limit): `verify`'s progress.
pub fn prepare_with(
    problem: &Problem,
    ctx: &Context,
    step: &dyn Fn(&str),
) -> Result<Prepared, JudgeError> {
    prepare_these(problem, ctx, step, &[])
}

fn prepare_these(
    problem: &Problem,
    ctx: &Context,
    step: &dyn Fn(&str),
    groups: &[String],
) -> Result<Prepared, JudgeError> {
    ctx.sandbox.hide_folder(&problem.dir).map_err(|e| {
        JudgeError::Io(Because::of("cannot hide the problem's folder from runs", e))
    })?;
    // A derived time limit is measured on every test: then all are made.
    let chosen = match problem.time_rule {
        None => groups,
        Some(_) => &[],
    };
    let cases = cases_of(problem, ctx, chosen)?;
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
        (Some(path), true) => Some(ctx.compile_trusted(problem, path, "reference solution")?),
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
        Some(p) => Some(ctx.compile_trusted(problem, &problem.dir.join(p), "interactor")?),
        None => None,
    };
    release_freed_memory();
    let kind = Kind::of(problem, interactor.as_ref());
    let mut prepared = Prepared {
        problem: problem.clone(),
        tests,
        checker,
        interactor,
        scoring: problem.scoring,
        unscored_groups: super::score_file::unscored_groups(problem),
        kind,
        measured: Vec::new(),
    };
    let loaded = prepared.problem.limits.time;
    super::derive_time::apply(&mut prepared, ctx, step)?;
    // The output validator's time follows the time limit
    // (`run_kind::validator_time`): built again once it is derived.
    if prepared.problem.limits.time != loaded {
        prepared.checker = build_checker(&prepared.problem, ctx)?;
    }
    Ok(prepared)
}

/// The problem's tests as bytes (also what `grundy gen` writes).
pub fn cases(problem: &Problem, ctx: &Context) -> Result<Vec<TestCase>, JudgeError> {
    cases_of(problem, ctx, &[])
}

/// The tests of `groups` as bytes, the same as [`cases`] makes for them,
/// without generating the others; every test when `groups` is empty or
/// names a group that has none (the judge then names the problem's groups).
fn cases_of(
    problem: &Problem,
    ctx: &Context,
    groups: &[String],
) -> Result<Vec<TestCase>, JudgeError> {
    let external = |program: &Path,
                    seed: Option<u64>,
                    args: &[String]|
     -> Result<(Vec<u8>, Option<Vec<u8>>), GeneratorError> {
        run_generator(problem, program, seed, args, ctx)
    };
    let mut recipe = problem.recipe();
    recipe.only(groups);
    generate::materialise(&recipe, ctx.seed, &problem.families(), &external)
        .map_err(|e| JudgeError::Problem(Because::cause(e)))
}

fn run_generator(
    problem: &Problem,
    program: &Path,
    seed: Option<u64>,
    args: &[String],
    ctx: &Context,
) -> Result<(Vec<u8>, Option<Vec<u8>>), GeneratorError> {
    let compiled = ctx.compile_trusted(problem, program, "generator")?;
    let mut argv = compiled.argv(Bytes::mib(1024));
    if let Some(seed) = seed {
        argv.push(seed.to_string().into());
    }
    argv.extend(args.iter().map(Into::into));
    let dir = tempfile::tempdir_in(ctx.workroot.path())?;
    // The judge reads the `testcase.in` / `testcase.ans` a generator may
    // leave in its folder (below): the kind keeps it.
    let spec = RunKind::Generator
        .spec(
            argv,
            dir.path(),
            dir.path().join("out"),
            run_kind::generator_limits(),
        )
        .build();
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
    let run = run_kind::reference_limits(run_limits(reference, limits));
    let exec = Execute::new(
        RunKind::Reference,
        reference,
        input_path,
        run,
        limits.memory,
    )
    .run(ctx)?;
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
            ctx.compile_trusted(problem, &problem.dir.join(p), "checker")?
                .argv(check::CHECKER_MEMORY),
        ),
        None => None,
    };
    // Checkers run like every other program of the judge: its runner, its
    // working root; their time, as a package's validators', follows the
    // problem's time limit.
    let runs = check::Runs {
        runner: ctx.sandbox.clone(),
        root: ctx.workroot.path().to_path_buf(),
        timeout: run_kind::validator_time(problem.limits.time),
        ..check::Runs::default()
    };
    check::build_for_problem(&problem.checker, command, runs).map_err(|e| {
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
