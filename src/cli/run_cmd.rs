//! `grundy run`: one submission on the setter's own input, with the
//! problem's limits (`grundy::judge::run_on_input`). The program's output
//! goes to stdout as it is; what the run measured goes to stderr, so the
//! output can be piped on.

use super::out::{out, outln};
use std::io::Write as _;
use std::path::Path;

use anyhow::anyhow;
use grundy::judge::{self, AdhocRun};
use grundy::verdict::Verdict;

use super::exit::{self, Failure, usage};
use super::{Global, context, find};

/// What `run` was asked.
pub struct Request<'a> {
    pub problem: &'a str,
    pub submission: &'a Path,
    pub input: &'a Path,
    pub answer: Option<&'a Path>,
    pub language: Option<&'a str>,
    pub json: bool,
}

pub fn run(g: &Global, req: &Request<'_>) -> Result<u8, Failure> {
    let problem = find(g, req.problem)?;
    for (what, p) in [
        ("submission", Some(req.submission)),
        ("input", Some(req.input)),
        ("answer", req.answer),
    ] {
        if let Some(p) = p
            && !p.is_file()
            && !(what == "submission" && p.is_dir())
        {
            return Err(usage(anyhow!("{}: no such file ({what})", p.display())));
        }
    }
    let ctx = context(g)?;
    let done = judge::run_on_input(
        &problem,
        &ctx,
        req.submission,
        req.language,
        req.input,
        req.answer,
    )?;
    let status = status(&done);
    if req.json {
        outln!("{}", json(req, &problem.id.0, &done, status));
    } else {
        show(&done, status);
    }
    Ok(match status {
        "OK" | "AC" => exit::OK,
        "IE" => exit::INTERNAL,
        _ => exit::NOT_ACCEPTED,
    })
}

/// `OK` for a clean run with nothing to check against, else the verdict.
fn status(done: &AdhocRun) -> &'static str {
    match &done.result {
        None => Verdict::CE.code(),
        Some(r) if r.verdict == Verdict::AC && !done.checked => "OK",
        Some(r) => r.verdict.code(),
    }
}

fn show(done: &AdhocRun, status: &str) {
    let Some(r) = &done.result else {
        eprintln!("{}", done.compile.log.trim_end());
        eprintln!("status: CE (the submission does not compile)");
        return;
    };
    out!("{}", String::from_utf8_lossy(&done.output));
    let _ = std::io::stdout().flush();
    if done.output_size > done.output.len() as u64 {
        eprintln!(
            "[output cut: {} of {} bytes shown]",
            done.output.len(),
            done.output_size
        );
    } else if !done.output.is_empty() && !done.output.ends_with(b"\n") {
        eprintln!("[no newline at the end of the output]");
    }
    if !r.stderr.trim().is_empty() {
        eprintln!("stderr:\n{}", r.stderr.trim_end());
    }
    let ended = match (r.exit_code, r.signal) {
        (_, Some(s)) => format!("signal {s}"),
        (Some(c), None) => format!("exit {c}"),
        (None, None) => "not run".into(),
    };
    eprintln!(
        "status: {status}{}",
        if r.message.is_empty() {
            String::new()
        } else {
            format!(" ({})", r.message)
        }
    );
    if let Some(d) = &r.diff {
        eprintln!("{}", d.text().trim_end());
    }
    eprintln!(
        "time {:.0} ms (wall {:.0} ms), memory {} KiB, {ended}",
        r.time_ms(),
        r.wall.as_secs_f64() * 1000.0,
        r.memory.0 / 1024
    );
}

fn json(req: &Request<'_>, problem: &str, done: &AdhocRun, status: &str) -> serde_json::Value {
    let mut v = serde_json::json!({
        "submission": req.submission.display().to_string(),
        "problem": problem,
        "input": req.input.display().to_string(),
        "language": done.language,
        "status": status,
        "checked": done.checked,
        "compile": {"ok": done.compile.ok, "log": done.compile.log},
        "output": String::from_utf8_lossy(&done.output),
        "output_bytes": done.output_size,
        "output_truncated": done.output_size > done.output.len() as u64,
    });
    if let (Some(r), Some(obj)) = (&done.result, v.as_object_mut())
        && let Ok(serde_json::Value::Object(test)) = serde_json::to_value(r)
    {
        for key in [
            "verdict",
            "time_ms",
            "wall_ms",
            "memory_kib",
            "exit_code",
            "signal",
            "message",
            "diff",
            "stderr",
        ] {
            if let Some(x) = test.get(key) {
                obj.insert(key.to_string(), x.clone());
            }
        }
    }
    v
}
