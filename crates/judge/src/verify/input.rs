//! Input validation in `verify`: every test input (samples, handmade and
//! generated) must be one the problem allows. A catalog problem's input
//! format is its built-in validator; an ICPC package brings its own
//! `input_validators/` programs, run with the format's exit codes.

use super::Status;
use super::budget::{program_limits, program_limits_rule};
use crate::judge::{Context, Execute, Prepared, run_limits};
use crate::problem::Problem;
use crate::run_kind::RunKind;
use crate::sandbox::Exit;
use std::path::Path;

/// The format's exit code for a valid input; anything else is invalid.
const VALID: i32 = 42;

/// Checks every test input of `prepared`; notes what could not be run.
pub fn check(
    prepared: &Prepared,
    ctx: &Context,
    notes: &mut Vec<String>,
    step: &dyn Fn(&str),
) -> Status {
    let problem = &prepared.problem;
    if let Some(package) = &problem.package {
        return check_programs(prepared, ctx, &package.input_validators, notes, step);
    }
    let built_in = check_format(prepared);
    if built_in.failed() || problem.input_validators.is_empty() {
        return built_in;
    }
    match (
        check_programs(prepared, ctx, &problem.input_validators, notes, step),
        built_in,
    ) {
        (Status::Passed(p), Status::Passed(b)) => Status::Passed(format!("{b}; {p}")),
        (programs, _) => programs,
    }
}

/// The catalog's input format, for a catalog problem.
fn check_format(prepared: &Prepared) -> Status {
    let problem = &prepared.problem;
    // The catalog's format applies to the catalog's problems, the same rule
    // as the oracle's.
    let Some(format) = problem.input_format() else {
        return Status::Skipped("no input format known for this problem".into());
    };
    for t in &prepared.tests {
        let text = match std::fs::read(&t.input) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(s) => s,
                Err(_) => {
                    return Status::Failed(format!(
                        "input of {} is not text: {}",
                        test_name(problem, t),
                        problem.id
                    ));
                }
            },
            Err(e) => {
                return Status::Failed(format!("input of {}: {e}", test_name(problem, t)));
            }
        };
        if let Err(e) = format.check_text(&text) {
            return Status::Failed(format!(
                "input of {} breaks the input format of {}: {e}",
                test_name(problem, t),
                problem.id
            ));
        }
    }
    Status::Passed(format!(
        "{} within the input format",
        crate::markup::count(prepared.tests.len(), "input", "inputs")
    ))
}

/// The problem's own validator programs (a package's or the spec's), each
/// on every test.
fn check_programs(
    prepared: &Prepared,
    ctx: &Context,
    programs: &[std::path::PathBuf],
    notes: &mut Vec<String>,
    step: &dyn Fn(&str),
) -> Status {
    let problem = &prepared.problem;
    // Each run's limits, derived from the problem's time limit: a
    // validator that never ends costs that, not a minute, on each test.
    let validator_limits = program_limits(problem.limits.time);
    let mut ran = 0usize;
    for path in programs {
        let shown = path
            .strip_prefix(&problem.dir)
            .unwrap_or(path)
            .display()
            .to_string();
        if !crate::language::is_scripted(path) && ctx.languages_for(problem).detect(path).is_err() {
            notes.push(format!("{shown}: not run (grundy has no language for it)"));
            continue;
        }
        step(&format!(
            "input validator {shown} on {}",
            crate::markup::count(prepared.tests.len(), "test", "tests")
        ));
        let program = match ctx.compile_trusted(problem, path, "input validator") {
            Ok(p) => p,
            Err(e) => return Status::Failed(e.message()),
        };
        let limits = run_limits(&program, &validator_limits);
        if let Some(missing) = crate::language::missing_file(&program.argv(validator_limits.memory))
        {
            return Status::Failed(format!("input validator {shown} cannot start: {missing}"));
        }
        for t in &prepared.tests {
            // Per test: a test's own settings may give its own arguments.
            let args = match &problem.package {
                Some(p) => p.input_validator_args(&t.group, &t.name, path),
                None => problem.input_validator_args.for_group(&t.group).to_vec(),
            };
            let exec = match Execute::new(
                RunKind::Validator,
                &program,
                &t.input,
                limits,
                validator_limits.memory,
            )
            .args(&args)
            .run(ctx)
            {
                Ok(e) => e,
                Err(e) => return Status::Failed(format!("input validator {shown}: {e}")),
            };
            let o = &exec.outcome;
            // Not a rejection: the validator never ran.
            if let Some(said) =
                crate::language::refused_to_start(o.exit, exec.stderr_head.as_bytes())
            {
                return Status::Failed(format!("input validator {shown} could not start: {said}"));
            }
            if o.exit != Exit::Code(VALID) || o.crossed.any() {
                let how = match (o.crossed.first(), o.exit) {
                    (Some(limit), _) => format!(
                        "stopped at its {limit:?} limit: {} s of CPU time per run ({})",
                        validator_limits.time.as_secs(),
                        program_limits_rule()
                    ),
                    (None, Exit::Code(c)) => format!("exit {c}"),
                    (None, Exit::Signal(s)) => format!("signal {s}"),
                };
                let said = said(&exec.stderr_head, &exec.stdout);
                let with = if args.is_empty() {
                    String::new()
                } else {
                    format!(" given `{}`", args.join(" "))
                };
                let verb = if o.crossed.any() {
                    "was stopped on"
                } else {
                    "rejects"
                };
                return Status::Failed(format!(
                    "input validator {shown}{with} {verb} {} ({how}){}",
                    test_name(problem, t),
                    if said.is_empty() {
                        String::new()
                    } else {
                        format!(": {said}")
                    }
                ));
            }
        }
        ran += 1;
    }
    if ran == 0 {
        return Status::Skipped("no input validator grundy can run".into());
    }
    Status::Passed(format!(
        "{ran} input validator(s) accept all {} inputs",
        prepared.tests.len()
    ))
}

/// The first lines the validator wrote, error output first: its reason.
fn said(stderr_head: &str, stdout: &Path) -> String {
    let out = std::fs::read(stdout)
        .map(|b| String::from_utf8_lossy(&b[..b.len().min(4096)]).into_owned())
        .unwrap_or_default();
    let text = if stderr_head.trim().is_empty() {
        out
    } else {
        stderr_head.to_string()
    };
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(3)
        .collect();
    lines.join(" / ")
}

/// A test as the setter knows it: the file under the problem when there is
/// one (a package's test, a spec's `file:` test), else the spec entry that
/// made it.
fn test_name(problem: &Problem, t: &crate::judge::PreparedTest) -> String {
    if let Ok(rel) = t.input.strip_prefix(&problem.dir) {
        return format!("{} ({})", t.name, rel.display());
    }
    match source_of(problem, t) {
        Some(where_) => format!("{} ({where_})", t.name),
        None => format!("{} (group {})", t.name, t.group),
    }
}

/// Which entry of the spec produced test `t` (named `<group>-<k>`).
fn source_of(problem: &Problem, t: &crate::judge::PreparedTest) -> Option<String> {
    use crate::generate::TestSource;
    let k: u32 = t.name.rsplit('-').next()?.parse().ok()?;
    let spec = problem.spec_path.display();
    if t.group == crate::generate::SAMPLE_GROUP {
        return Some(format!("sample {k} in {spec}"));
    }
    let group = problem.groups.iter().find(|g| g.name == t.group)?;
    let mut first = 1u32;
    for (entry, source) in group.tests.iter().enumerate() {
        let count = match source {
            TestSource::Generated { count, .. } | TestSource::External { count, .. } => *count,
            _ => 1,
        };
        if k < first + count {
            return Some(match source {
                TestSource::File { input, .. } => problem.dir.join(input).display().to_string(),
                TestSource::Inline { .. } => {
                    format!("{spec}: group `{}`, test entry {}", t.group, entry + 1)
                }
                _ => format!(
                    "generated by {spec}: group `{}`, test entry {}",
                    t.group,
                    entry + 1
                ),
            });
        }
        first += count;
    }
    None
}
