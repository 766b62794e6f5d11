//! `grundy judge`: judge submissions on a problem.

use super::out::outln;
use std::path::PathBuf;

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
    options: &Options,
) -> Result<u8, Failure> {
    let problem = find(g, id)?;
    for s in submissions {
        if !s.is_file() && !s.is_dir() {
            return Err(usage(anyhow!("{}: no such file", s.display())));
        }
    }
    let ctx = context(g)?;
    let prepared = judge::prepare(&problem, &ctx)?;
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
    Ok(exit::of_verdicts(results.iter().map(|r| r.verdict)))
}
