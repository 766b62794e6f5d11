//! Running a compiled program on one input file, in a fresh folder.

use std::path::{Path, PathBuf};

use super::context::Context;
use super::workroot::RunFolder;
use crate::language::Compiled;
use crate::run_kind::RunKind;
use crate::sandbox::{Lender, RunLimits, RunOutcome, SandboxError};
use crate::spec::Limits;
use crate::units::Bytes;

/// How much of a program's stderr is kept for the report.
pub const STDERR_CAP: usize = 4096;

/// A finished run; its files live until this value is dropped.
pub struct Execution {
    pub outcome: RunOutcome,
    pub stdout: PathBuf,
    pub stderr_head: String,
    /// The run's private folder (working folder, output files, scratch),
    /// given back or removed with the execution.
    pub dir: RunFolder,
}

/// The limits a run of `program` gets: the problem's, adjusted for its language.
pub fn run_limits(program: &Compiled, limits: &Limits) -> RunLimits {
    let lang = &program.language;
    let (multiplier, allowance) = if limits.language_allowance {
        (lang.time_multiplier, lang.memory_allowance.0)
    } else {
        (1.0, 0)
    };
    let cpu = limits.time.mul_f64(multiplier);
    let memory = Bytes(limits.memory.0 + allowance);
    RunLimits {
        cpu,
        wall: RunLimits::wall_for(cpu),
        memory,
        address_space: lang.cap_address_space.then_some(memory),
        output: limits.output,
    }
}

/// Runs `program` with `input` as its stdin inside a new folder of the
/// context's working root, with the context's runner.
pub fn execute(
    program: &Compiled,
    input: &Path,
    limits: RunLimits,
    problem_memory: Bytes,
    ctx: &Context,
) -> Result<Execution, SandboxError> {
    execute_with_args(program, &[], input, limits, problem_memory, ctx)
}

/// [`execute`] with arguments after the program's own (an input
/// validator's `input_validator_args`).
pub fn execute_with_args(
    program: &Compiled,
    args: &[String],
    input: &Path,
    limits: RunLimits,
    problem_memory: Bytes,
    ctx: &Context,
) -> Result<Execution, SandboxError> {
    let kind = if args.is_empty() {
        RunKind::Submission
    } else {
        RunKind::Validator
    };
    execute_in(
        kind,
        program,
        args,
        input,
        (limits, problem_memory),
        ctx,
        None,
    )
}

/// [`execute`], telling `lender` when the run sleeps (see
/// `sandbox::Lender`): a test's run lends its `--jobs` slot so.
pub fn execute_lending(
    program: &Compiled,
    input: &Path,
    limits: RunLimits,
    problem_memory: Bytes,
    ctx: &Context,
    lender: Option<&dyn Lender>,
) -> Result<Execution, SandboxError> {
    execute_in(
        RunKind::Submission,
        program,
        &[],
        input,
        (limits, problem_memory),
        ctx,
        lender,
    )
}

fn execute_in(
    kind: RunKind,
    program: &Compiled,
    args: &[String],
    input: &Path,
    (limits, problem_memory): (RunLimits, Bytes),
    ctx: &Context,
    lender: Option<&dyn Lender>,
) -> Result<Execution, SandboxError> {
    let setup = |what: &str| {
        let what = what.to_string();
        move |source| SandboxError::Setup { what, source }
    };
    let dir = ctx
        .workroot
        .run_folder()
        .map_err(setup("create the run folder"))?;
    let workdir = dir.path().join(RunFolder::WORK);
    let mut argv = program.argv(problem_memory);
    argv.extend(args.iter().map(Into::into));
    let spec = kind
        .spec(argv, &workdir, dir.path().join(RunFolder::STDOUT), limits)
        .stdin(input.to_path_buf())
        .build();
    // On an error `dir` goes with it (removed, or given back if clean).
    let outcome = match lender {
        Some(l) => ctx.sandbox.run_lending(&spec, l),
        None => ctx.sandbox.run(&spec),
    }?;
    let stderr_head = program.messages(&text_head(&outcome.stderr_head, STDERR_CAP));
    let mut dir = dir;
    if !outcome.isolation.had_tmpfs_workdir() {
        dir.no_tmpfs_attached();
    }
    Ok(Execution {
        outcome,
        stdout: spec.stdout,
        stderr_head,
        dir,
    })
}

/// The first `cap` bytes of `bytes` (a run's stderr), as text.
pub fn text_head(bytes: &[u8], cap: usize) -> String {
    String::from_utf8_lossy(&bytes[..bytes.len().min(cap)]).into_owned()
}

/// The first `cap` bytes of a file, as text.
pub fn head(path: &Path, cap: usize) -> String {
    use std::io::Read;
    let mut buf = Vec::new();
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.take(cap as u64).read_to_end(&mut buf);
    }
    String::from_utf8_lossy(&buf).into_owned()
}
