//! Running a compiled program on one input file, in a fresh folder.

use std::path::{Path, PathBuf};

use super::context::Context;
use super::workroot::RunFolder;
use crate::language::Compiled;
use crate::problem::Limits;
use crate::run_kind::RunKind;
use crate::sandbox::{Lender, RunLimits, RunOutcome, SandboxError};
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
/// context's working root, with the context's runner: [`Execute`] as a
/// submission, with nothing else set.
pub fn execute(
    program: &Compiled,
    input: &Path,
    limits: RunLimits,
    problem_memory: Bytes,
    ctx: &Context,
) -> Result<Execution, SandboxError> {
    Execute::new(RunKind::Submission, program, input, limits, problem_memory).run(ctx)
}

/// A run of a compiled program on one input file, in a fresh folder of
/// the context's working root: its kind (the row of the run-kind table
/// that gives its environment and folders), its limits (the problem's,
/// from [`run_limits`]), and what only some runs have set by name.
pub struct Execute<'a> {
    kind: RunKind,
    program: &'a Compiled,
    input: &'a Path,
    limits: RunLimits,
    problem_memory: Bytes,
    args: &'a [String],
    lender: Option<&'a dyn Lender>,
}

impl<'a> Execute<'a> {
    /// `program` of `kind` on `input`, held to `limits`; `problem_memory`
    /// is what the program is told it may use (a JVM's heap).
    pub fn new(
        kind: RunKind,
        program: &'a Compiled,
        input: &'a Path,
        limits: RunLimits,
        problem_memory: Bytes,
    ) -> Execute<'a> {
        Execute {
            kind,
            program,
            input,
            limits,
            problem_memory,
            args: &[],
            lender: None,
        }
    }

    /// Arguments after the program's own (an input validator's
    /// `input_validator_args`).
    pub fn args(mut self, args: &'a [String]) -> Execute<'a> {
        self.args = args;
        self
    }

    /// Tells `lender` when the run sleeps (see `sandbox::Lender`): a
    /// test's run lends its `--jobs` slot so.
    pub fn lending(mut self, lender: Option<&'a dyn Lender>) -> Execute<'a> {
        self.lender = lender;
        self
    }

    /// Runs it; the run's files live until the [`Execution`] is dropped.
    pub fn run(self, ctx: &Context) -> Result<Execution, SandboxError> {
        let setup = |what: &str| {
            let what = what.to_string();
            move |source| SandboxError::Setup { what, source }
        };
        let dir = ctx
            .workroot
            .run_folder()
            .map_err(setup("create the run folder"))?;
        let workdir = dir.path().join(RunFolder::WORK);
        let mut argv = self.program.argv(self.problem_memory);
        argv.extend(self.args.iter().map(Into::into));
        let spec = self
            .kind
            .spec(
                argv,
                &workdir,
                dir.path().join(RunFolder::STDOUT),
                self.limits,
            )
            .stdin(self.input.to_path_buf())
            .build();
        // On an error `dir` goes with it (removed, or given back if clean).
        let outcome = match self.lender {
            Some(l) => ctx.sandbox.run_lending(&spec, l),
            None => ctx.sandbox.run(&spec),
        }?;
        let stderr_head = self
            .program
            .messages(&text_head(&outcome.stderr_head, STDERR_CAP));
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
