//! `grundy verify`: check references, oracles, known submissions and samples.

use super::out::outln;
use anyhow::anyhow;
use grundy::report::Style;
use grundy::verdict::Verdict;
use grundy::verify::{self, Status};

use super::exit::{self, Failure, usage};
use super::{Global, context, find, problem_set};

pub fn run(g: &Global, ids: &[String], jobs: usize, mutants: bool) -> Result<u8, Failure> {
    let problems = if ids.is_empty() {
        problem_set(g).all().map_err(|e| usage(anyhow!(e)))?
    } else {
        ids.iter().map(|id| find(g, id)).collect::<Result<_, _>>()?
    };
    let ctx = context(g)?;
    let style = Style::detect();
    let mut all_ok = true;
    outln!(
        "{:<18} {:>5}  {:<10} {:<10} {:<10} {}known",
        "problem",
        "tests",
        "reference",
        "oracle",
        "samples",
        if mutants { "mutants  " } else { "" }
    );
    for p in &problems {
        let report = match verify::verify(p, &ctx, jobs) {
            Ok(r) => r,
            Err(e) => {
                all_ok = false;
                outln!("{:<18} {}", p.id.0, style.verdict(Verdict::IE));
                outln!("  {e}");
                continue;
            }
        };
        all_ok &= report.passed();
        let measured = mutants.then(|| super::mutants::for_verify(p, &ctx, jobs));
        if let Some((ok, _)) = &measured {
            all_ok &= ok;
        }
        print_report(&report, &style, measured.as_ref().map(|(_, s)| s.as_str()));
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
            outln!("  {} {why}", style.verdict(Verdict::WA));
        }
    }
    if let Status::Passed(what) = &r.input {
        outln!("  input: {what}");
    }
    for n in &r.notes {
        outln!("  note: {n}");
    }
    for k in &r.known {
        let name = k
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if let Some(why) = &k.skipped {
            outln!("  --  {name:<28} {why}");
            continue;
        }
        let mark = if k.ok() { "ok " } else { "BAD" };
        if !k.rules.is_empty() {
            // submissions.yaml decides: say which rules, and which broke.
            outln!(
                "  {mark} {:<28} got {:<3} per submissions.yaml: {}{}",
                name,
                k.got.code(),
                k.rules.join("; "),
                k.broken
                    .as_deref()
                    .map(|b| format!(" — broken: {b}"))
                    .unwrap_or_default()
            );
            continue;
        }
        outln!(
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
                format!(" — {}", k.message)
            }
        );
    }
}
