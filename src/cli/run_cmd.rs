//! `grundy run`: one submission on the setter's own input, with the
//! problem's limits (`grundy::judge::run_on_input`). The program's output
//! goes to stdout as it is; what the run measured goes to stderr, so the
//! output can be piped on.

use super::out::{out, outln};
use std::io::{IsTerminal as _, Write as _};
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

/// The most read from an input or answer that is not a regular file.
const STREAM_CAP: u64 = 1 << 30;

/// The path of a file to read: a regular file where it is; anything else
/// that can be read (a pipe from `<(printf …)`, `/dev/stdin`) is read
/// once through the path as given, into a file of our own in `keep`, as
/// the program runs elsewhere and the checker reads the file again.
fn readable(path: &Path, what: &str, keep: &Path) -> Result<std::path::PathBuf, Failure> {
    use std::io::Read as _;
    let shown = || grundy::markup::terminal(&path.display().to_string()).into_owned();
    let meta = std::fs::metadata(path)
        .map_err(|e| usage(anyhow!("{}: cannot read the {what}: {e}", shown())))?;
    if meta.is_file() {
        return Ok(path.to_path_buf());
    }
    if meta.is_dir() {
        return Err(usage(anyhow!("{}: a folder, not a file ({what})", shown())));
    }
    let file = std::fs::File::open(path)
        .map_err(|e| usage(anyhow!("{}: cannot read the {what}: {e}", shown())))?;
    let copy = keep.join(what);
    let mut to = std::fs::File::create(&copy)
        .map_err(|e| exit::internal(anyhow!("{}: {e}", copy.display())))?;
    let read = std::io::copy(&mut file.take(STREAM_CAP + 1), &mut to)
        .map_err(|e| usage(anyhow!("{}: cannot read the {what}: {e}", shown())))?;
    if read > STREAM_CAP {
        return Err(usage(anyhow!(
            "{}: more than {} MiB ({what}): write it to a file",
            shown(),
            STREAM_CAP >> 20
        )));
    }
    Ok(copy)
}

pub fn run(g: &Global, req: &Request<'_>) -> Result<u8, Failure> {
    let problem = find(g, req.problem)?;
    if !req.submission.exists() {
        return Err(usage(anyhow!(
            "{}: no such file (submission)",
            grundy::markup::terminal(&req.submission.display().to_string())
        )));
    }
    let keep = tempfile::Builder::new()
        .prefix("grundy-run-")
        .tempdir()
        .map_err(|e| exit::internal(anyhow!("a temporary folder: {e}")))?;
    let input = readable(req.input, "input", keep.path())?;
    let answer = match req.answer {
        Some(a) => Some(readable(a, "answer", keep.path())?),
        None => None,
    };
    let ctx = context(g)?;
    let done = judge::run_on_input(
        &problem,
        &ctx,
        req.submission,
        req.language,
        &input,
        answer.as_deref(),
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
        eprintln!(
            "{}",
            grundy::markup::terminal_lines(done.compile.log.trim_end())
        );
        eprintln!("status: CE (the submission does not compile)");
        return;
    };
    // The output as it is for a pipe; on a terminal, what the program
    // wrote is shown, not acted on.
    let output = String::from_utf8_lossy(&done.output);
    if std::io::stdout().is_terminal() {
        out!("{}", grundy::markup::terminal_lines(&output));
    } else {
        out!("{output}");
    }
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
        eprintln!(
            "stderr:\n{}",
            grundy::markup::terminal_lines(r.stderr.trim_end())
        );
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
            format!(" ({})", grundy::markup::terminal_lines(&r.message))
        }
    );
    if let Some(d) = &r.diff {
        eprintln!("{}", grundy::markup::terminal_lines(d.text().trim_end()));
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
