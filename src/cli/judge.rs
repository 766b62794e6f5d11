//! `grundy judge`: judge submissions on a problem.

use super::out::outln;
use std::path::{Path, PathBuf};

use anyhow::anyhow;
use grundy::judge::{self, Options};
use grundy::report::{self, Reporter, Style, Terminal};

use super::exit::{self, Failure, usage};
use super::{Global, context, find};

pub fn run(
    g: &Global,
    id: &str,
    submissions: &[PathBuf],
    json: bool,
    html: Option<&Path>,
    options: &Options,
) -> Result<u8, Failure> {
    let problem = find(g, id)?;
    for s in submissions {
        if !s.is_file() && !s.is_dir() {
            return Err(usage(anyhow!("{}: no such file", s.display())));
        }
    }
    // A page that cannot be written must not wait for the whole judging.
    if let Some(file) = html {
        let parent = file.parent().filter(|p| !p.as_os_str().is_empty());
        if parent.is_some_and(|p| !p.is_dir()) {
            return Err(usage(anyhow!("--html {}: no such folder", file.display())));
        }
    }
    let ctx = context(g)?;
    let prepared = judge::prepare_groups(&problem, &ctx, &options.groups)?;
    // What preparing added (a time limit derived from the package's
    // accepted submissions) is said on stderr, beside any report.
    for note in prepared.problem.notes.iter().skip(problem.notes.len()) {
        eprintln!("note: {}", grundy::markup::terminal_lines(note));
    }
    let mut term = Terminal::new(super::out::Stdout, Style::detect());
    let mut results = Vec::new();
    for s in submissions {
        let mut sink = |e: &judge::Event<'_>| {
            if !json {
                term.event(e)
            }
        };
        results.push(judge::judge(&prepared, &ctx, s, options, &mut sink)?);
    }
    if json {
        outln!("{}", report::json(&results));
    }
    if let Some(file) = html {
        let page = report::judge_html_report(
            grundy::batch::grade::problem_info(&prepared.problem),
            &results,
        );
        std::fs::write(file, page)
            .map_err(|e| usage(anyhow!("--html {}: cannot write: {e}", file.display())))?;
    }
    Ok(exit::of_verdicts(results.iter().map(|r| r.verdict)))
}
