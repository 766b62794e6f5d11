//! One test: run the program, decide the verdict from how it ended, and
//! if it ended well, ask the checker.
//!
//! Precedence when several things went wrong in one run: TLE, then MLE,
//! then OLE, then RE, then the checker's verdict. A program killed for using
//! too much CPU also looks like a crash; a program that ran out of memory
//! often dies by a signal or an exception: the limit explains the crash, so
//! the limit wins.

use super::exec::{execute, run_limits};
use super::prepare::{Context, Prepared, PreparedTest};
use super::result::TestResult;
use crate::check::{CheckCase, CheckVerdict};
use crate::language::Compiled;
use crate::sandbox::{Exit, LimitHit, RunLimits, RunOutcome};
use crate::verdict::Verdict;

/// Runs and checks one test; never fails: problems become `IE`.
pub fn judge_test(
    prepared: &Prepared,
    ctx: &Context,
    program: &Compiled,
    test: &PreparedTest,
) -> TestResult {
    if let Some(crate::spec::InteractorSpec::Builtin(name)) = &prepared.problem.interactor
        && let Some(game) = crate::games::play::Game::from_name(name)
    {
        return super::interactive::judge_test(prepared, ctx, program, test, game);
    }
    let mut r = TestResult {
        name: test.name.clone(),
        group: test.group.clone(),
        verdict: Verdict::IE,
        time_ms: 0.0,
        wall_ms: 0.0,
        memory_kib: 0,
        exit_code: None,
        signal: None,
        message: String::new(),
        diff: None,
        stderr: String::new(),
        game: None,
        moves: None,
    };
    let answer = match &test.answer {
        Ok(a) => a,
        Err(why) => {
            r.message = why.clone();
            return r;
        }
    };
    let limits = run_limits(program, &prepared.problem.limits);
    let exec = match execute(
        program,
        &test.input,
        limits,
        prepared.problem.limits.memory,
        ctx.workroot.path(),
    ) {
        Ok(e) => e,
        Err(e) => {
            r.message = format!("the judge could not run the program: {e}");
            return r;
        }
    };
    let o = &exec.outcome;
    r.time_ms = ms(o.cpu);
    r.wall_ms = ms(o.wall);
    r.memory_kib = o.peak_memory.kib();
    match o.exit {
        Exit::Code(c) => r.exit_code = Some(c),
        Exit::Signal(s) => r.signal = Some(s),
    }
    if let Some((verdict, message)) = limit_verdict(o, &limits, &exec.stderr_head) {
        r.verdict = verdict;
        r.message = message;
        r.stderr = exec.stderr_head.clone();
        return r;
    }
    let (verdict, message, diff) = check_output(prepared, test, answer, &exec);
    r.verdict = verdict;
    r.message = message;
    r.diff = diff;
    r
}

fn ms(d: std::time::Duration) -> f64 {
    (d.as_secs_f64() * 1e5).round() / 100.0
}

/// The verdict when the run itself went wrong, or `None` for a clean exit.
pub fn limit_verdict(
    o: &RunOutcome,
    limits: &RunLimits,
    stderr: &str,
) -> Option<(Verdict, String)> {
    let secs = |d: std::time::Duration| format!("{:.2} s", d.as_secs_f64());
    match o.limit {
        Some(LimitHit::Cpu) => {
            return Some((
                Verdict::TLE,
                format!("CPU time over the limit of {}", secs(limits.cpu)),
            ));
        }
        Some(LimitHit::Wall) => {
            return Some((
                Verdict::TLE,
                format!(
                    "wall time over {} (CPU {}): the program was waiting or sleeping",
                    secs(limits.wall),
                    secs(o.cpu)
                ),
            ));
        }
        Some(LimitHit::Memory) => {
            // The memory group counts every process of the run: each may be
            // small while together they are not.
            let message = if o.peak_memory.0 > limits.memory.0 {
                format!(
                    "peak memory {} over the limit of {}",
                    o.peak_memory.human(),
                    limits.memory.human()
                )
            } else {
                format!(
                    "the run's processes together went over the memory limit of {}",
                    limits.memory.human()
                )
            };
            return Some((Verdict::MLE, message));
        }
        Some(LimitHit::Output) => {
            return Some((
                Verdict::OLE,
                format!("output over the limit of {}", limits.output),
            ));
        }
        None => {}
    }
    if o.exit == Exit::Code(0) {
        return None;
    }
    if ran_out_of_memory(o, limits, stderr) {
        return Some((
            Verdict::MLE,
            format!(
                "the program failed to get more memory (peak {}, limit {})",
                o.peak_memory.human(),
                limits.memory.human()
            ),
        ));
    }
    let how = match o.exit {
        Exit::Code(c) => format!("exit code {c}"),
        Exit::Signal(s) => format!("killed by signal {s} ({})", signal_name(s)),
    };
    let first = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let message = if first.is_empty() {
        how
    } else {
        format!("{how}: {}", truncate(first, 200))
    };
    Some((Verdict::RE, message))
}

/// A crash caused by the memory limit: the runtime said so, or the program
/// was already at the limit when it died.
fn ran_out_of_memory(o: &RunOutcome, limits: &RunLimits, stderr: &str) -> bool {
    const MARKERS: [&str; 5] = [
        "MemoryError",
        "std::bad_alloc",
        "memory allocation of",
        "java.lang.OutOfMemoryError",
        "Cannot allocate memory",
    ];
    MARKERS.iter().any(|m| stderr.contains(m)) || o.peak_memory.0 * 10 >= limits.memory.0 * 9
}

fn signal_name(s: i32) -> &'static str {
    match s {
        libc::SIGSEGV => "SIGSEGV, invalid memory access or stack overflow",
        libc::SIGABRT => "SIGABRT, aborted",
        libc::SIGFPE => "SIGFPE, arithmetic error such as division by zero",
        libc::SIGKILL => "SIGKILL",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGXFSZ => "SIGXFSZ, file too large",
        libc::SIGXCPU => "SIGXCPU, CPU limit",
        _ => "signal",
    }
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}

fn check_output(
    prepared: &Prepared,
    test: &PreparedTest,
    answer: &std::path::Path,
    exec: &super::exec::Execution,
) -> (Verdict, String, Option<String>) {
    let read = |p: &std::path::Path| {
        std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()))
    };
    let input = if prepared.checker.reads_input() {
        read(&test.input)
    } else {
        Ok(Vec::new())
    };
    let (input, output, expected) = match (input, read(&exec.stdout), read(answer)) {
        (Ok(i), Ok(o), Ok(a)) => (i, o, a),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return (Verdict::IE, e, None),
    };
    // Created by the checkers that use it (ICPC feedback), not on every test.
    let scratch = exec.dir.path().join("feedback");
    let case = CheckCase {
        input: &input,
        output: &output,
        answer: &expected,
        input_path: &test.input,
        output_path: &exec.stdout,
        answer_path: answer,
        scratch: &scratch,
    };
    let c = prepared.checker.check(&case);
    let verdict = match c.verdict {
        CheckVerdict::Accepted => Verdict::AC,
        CheckVerdict::WrongAnswer => Verdict::WA,
        CheckVerdict::PresentationError => Verdict::PE,
        CheckVerdict::Failed => Verdict::IE,
    };
    (verdict, c.message, c.diff)
}
