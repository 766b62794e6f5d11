//! `grundy verify`: check references, oracles, known submissions and samples.

use super::out::outln;
use anyhow::anyhow;
use grundy::markup::{terminal, terminal_lines};
use grundy::report::Style;
use grundy::verdict::Verdict;
use grundy::verify::{self, Status};

use super::exit::{self, Failure, usage};
use super::{Global, context, find, problem_set};

// What `verify` was asked (a plain comment: a doc comment would be
// taken for the subcommand's about, replacing the one `Command` gives).
#[derive(clap::Args)]
pub struct How {
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Also measure the tests by the mutants of the reference and the accepted submissions (a survivor fails verify)
    #[arg(long)]
    pub mutants: bool,
    /// Time-margin warnings fail verify too (an accepted submission over half the
    /// time limit, a known-TLE one within 1.5 times it)
    #[arg(long)]
    pub strict: bool,
    /// Print one JSON object: every check of every problem, times and warnings
    #[arg(long)]
    pub json: bool,
    /// Stop every run and fail when the whole check takes longer than SECONDS
    #[arg(long, value_name = "SECONDS", default_value_t = 3600)]
    pub budget: u64,
}

pub fn run(g: &Global, ids: &[String], how: How) -> Result<u8, Failure> {
    let How {
        jobs,
        mutants,
        strict,
        json,
        budget,
    } = how;
    let problems = if ids.is_empty() {
        problem_set(g).all().map_err(|e| usage(anyhow!(e)))?
    } else {
        ids.iter().map(|id| find(g, id)).collect::<Result<_, _>>()?
    };
    let ctx = context(g)?;
    let style = Style::detect();
    let mut all_ok = true;
    let mut objects = Vec::new();
    let header = || {
        outln!(
            "{:<18} {:>5}  {:<10} {:<10} {:<10} {}known",
            "problem",
            "tests",
            "reference",
            "oracle",
            "samples",
            if mutants { "mutants  " } else { "" }
        )
    };
    if !json {
        header();
    }
    let budget = verify::budget::Budget::start(
        std::time::Duration::from_secs(budget),
        ctx.sandbox.cancel.clone(),
    );
    let mut stopped = None;
    for p in &problems {
        if budget.spent() {
            stopped.get_or_insert_with(|| budget.running());
            all_ok = false;
            break;
        }
        // Progress on stderr: what runs now, one line a step.
        let step = |what: &str| {
            let line = format!("{}: {what}", p.id.0);
            if !json {
                eprintln!("verify {}", terminal(&line));
            }
            budget.doing(&line);
        };
        let report = verify::verify(p, &ctx, jobs, &step);
        if budget.spent() {
            stopped.get_or_insert_with(|| budget.running());
        }
        let report = match report {
            Ok(r) => r,
            Err(e) => {
                all_ok = false;
                let e = e.message();
                if json {
                    objects.push(serde_json::json!({
                        "id": p.id.0, "passed": false, "error": e,
                    }));
                } else {
                    outln!("{:<18} {}", terminal(&p.id.0), style.verdict(Verdict::IE));
                    outln!("  {}", terminal_lines(&e));
                }
                continue;
            }
        };
        let mut ok = report.passed() && (!strict || report.warnings.is_empty());
        let measured = mutants
            .then(|| super::executables::parsing(|| super::mutants::for_verify(p, &ctx, jobs)));
        if let Some((m, _)) = &measured {
            ok &= m;
        }
        all_ok &= ok;
        let measured = measured.as_ref().map(|(_, s)| s.as_str());
        if json {
            objects.push(to_json(&report, ok, measured));
        } else {
            print_report(&report, &style, measured);
        }
    }
    // The budget ran out: every run was stopped; say what was running.
    let stopped = stopped.map(|what| {
        all_ok = false;
        format!(
            "verify's budget of {} s (--budget) ran out while running {what}: every run was stopped",
            budget.total().as_secs()
        )
    });
    if json {
        outln!(
            "{}",
            serde_json::json!({"passed": all_ok, "strict": strict, "problems": objects, "stopped": stopped})
        );
        return Ok(if all_ok { exit::OK } else { exit::NOT_ACCEPTED });
    }
    if let Some(stopped) = &stopped {
        outln!("{}", terminal(stopped));
    }
    outln!(
        "{}",
        if all_ok {
            "verify: everything as expected"
        } else {
            "verify: FAILED"
        }
    );
    Ok(if all_ok { exit::OK } else { exit::NOT_ACCEPTED })
}

fn print_report(r: &verify::ProblemReport, style: &Style, mutants: Option<&str>) {
    let word = |s: &Status| match s {
        Status::Passed(_) => "ok",
        Status::Failed(_) => "FAILED",
        Status::Skipped(_) => "skipped",
    };
    let good = r
        .known
        .iter()
        .filter(|k| k.skipped.is_none() && k.ok())
        .count();
    outln!(
        "{:<18} {:>5}  {:<10} {:<10} {:<10} {}{}/{}",
        r.id,
        r.tests,
        word(&r.reference),
        word(&r.oracle),
        word(&r.samples),
        mutants.map(|m| format!("{m:<8} ")).unwrap_or_default(),
        good,
        r.known.len()
    );
    for s in [&r.reference, &r.oracle, &r.samples, &r.input] {
        if let Status::Failed(why) = s {
            outln!("  {} {}", style.verdict(Verdict::WA), terminal_lines(why));
        }
    }
    if let Status::Passed(what) = &r.input {
        outln!("  input: {}", terminal_lines(what));
    }
    for n in &r.notes {
        outln!("  note: {}", terminal_lines(n));
    }
    for w in &r.warnings {
        outln!("  warning: {}", terminal_lines(w));
    }
    for k in &r.known {
        let name = k
            .path
            .file_name()
            .map(|n| terminal(&n.to_string_lossy()).into_owned())
            .unwrap_or_default();
        if let Some(why) = &k.skipped {
            outln!("  --  {name:<28} {}", terminal_lines(why));
            continue;
        }
        if let Some(n) = &k.note {
            outln!("  note: {name}: {n}");
        }
        let mark = if k.ok() { "ok " } else { "BAD" };
        if !k.rules.is_empty() {
            // The format's rules decide: say which, where each comes from
            // (a folder's default or submissions.yaml), and which broke.
            outln!(
                "  {mark} {:<28} got {:<3} per {}{}",
                name,
                k.got.code(),
                terminal(&k.rules.join("; per ")),
                k.broken
                    .as_deref()
                    .map(|b| format!(" — broken: {}", terminal(b)))
                    .unwrap_or_default()
            );
            continue;
        }
        let line = format!(
            "  {mark} {:<28} expected {:<3} got {:<3} {}{}",
            name,
            k.expected.code(),
            k.got.code(),
            k.first_failing
                .as_deref()
                .map(|t| format!("at {t}"))
                .unwrap_or_default(),
            if k.ok() || k.message.is_empty() {
                String::new()
            } else {
                format!(" — {}", terminal(&k.message))
            }
        );
        outln!("{}", line.trim_end());
    }
}

/// One problem's report as JSON: each check's status and detail, the
/// known submissions with their times, the warnings.
fn to_json(r: &verify::ProblemReport, passed: bool, mutants: Option<&str>) -> serde_json::Value {
    let status = |s: &Status| {
        let (word, detail) = match s {
            Status::Passed(d) => ("ok", d),
            Status::Failed(d) => ("failed", d),
            Status::Skipped(d) => ("skipped", d),
        };
        serde_json::json!({"status": word, "detail": detail})
    };
    let known: Vec<serde_json::Value> = r
        .known
        .iter()
        .map(|k| {
            serde_json::json!({
                "path": k.path.display().to_string(),
                "expected": k.expected.code(),
                "got": k.got.code(),
                "ok": k.ok(),
                "skipped": k.skipped,
                "first_failing": k.first_failing,
                "message": k.message,
                "rules": k.rules,
                "broken": k.broken,
                "max_time_ms": k.max_time_ms,
                "warning": k.warning,
                "note": k.note,
                "margin_run": k.margin_run.map(|m| serde_json::json!({
                    "time_ms": m.time_ms, "finished": m.finished,
                })),
            })
        })
        .collect();
    serde_json::json!({
        "id": r.id,
        "passed": passed,
        "tests": r.tests,
        "reference": status(&r.reference),
        "reference_max_time_ms": r.reference_max_ms,
        "oracle": status(&r.oracle),
        "samples": status(&r.samples),
        "input": status(&r.input),
        "mutants": mutants,
        "known": known,
        "notes": r.notes,
        "warnings": r.warnings,
    })
}
