//! `grundy stress`: search for an input a submission fails, and shrink it.

use super::out::outln;
use std::path::Path;

use anyhow::anyhow;
use grundy::verdict::Verdict;

use super::exit::{self, Failure, usage};
use super::{Global, context, find};

pub fn run(
    g: &Global,
    id: &str,
    submission: &Path,
    options: &grundy::stress::Options,
    json: bool,
) -> Result<u8, Failure> {
    let problem = find(g, id)?;
    if !submission.is_file() {
        return Err(usage(anyhow!("{}: no such file", submission.display())));
    }
    let ctx = context(g)?;
    let report = grundy::stress::stress(&problem, &ctx, submission, options)?;
    let secs = report.elapsed.as_secs_f64();
    if json {
        let v = match &report.found {
            Some(c) => serde_json::json!({
                "found": true, "input": c.input, "expected": c.expected, "actual": c.actual,
                "verdict": c.verdict.code(), "tries": report.tries, "message": c.message,
                "tokens": c.tokens, "found_tokens": c.found_tokens, "reproduce": c.reproduce,
                "seconds": secs,
            }),
            None => serde_json::json!({"found": false, "tries": report.tries, "seconds": secs}),
        };
        outln!("{v}");
    } else {
        let shown = submission.display();
        match &report.found {
            None => outln!(
                "stress {id} {shown}: no failing input in {} tries ({secs:.1} s); every output agreed with the reference",
                report.tries
            ),
            Some(c) if c.verdict == Verdict::CE => {
                outln!(
                    "stress {id} {shown}: the submission does not compile:\n{}",
                    c.message.trim_end()
                );
            }
            Some(c) => {
                outln!(
                    "stress {id} {shown}: {} after {} tries ({secs:.1} s); shrunk from {} to {} numbers",
                    c.verdict.code(),
                    report.tries,
                    c.found_tokens,
                    c.tokens
                );
                let block = |title: &str, text: &str| {
                    outln!("{title}:");
                    // `actual` is what the submission wrote.
                    for line in text.lines() {
                        outln!("  {}", grundy::markup::terminal(line));
                    }
                };
                block("input", &c.input);
                block("expected", &c.expected);
                block("actual", &c.actual);
                outln!("why: {}", grundy::markup::terminal_lines(&c.message));
                outln!("reproduce: {}", c.reproduce);
            }
        }
    }
    Ok(if report.found.is_some() {
        exit::NOT_ACCEPTED
    } else {
        exit::OK
    })
}
