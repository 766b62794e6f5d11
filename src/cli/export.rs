//! `grundy export`: write a problem as an ICPC / Kattis problem package.

use std::path::Path;

use grundy::export;

use super::exit::{self, Failure};
use super::{Global, context, find};

pub fn run(g: &Global, id: &str, to: &Path) -> Result<u8, Failure> {
    let problem = find(g, id)?;
    let ctx = context(g)?;
    let done = export::export(&problem, &ctx, to)?;
    for note in &done.notes {
        eprintln!("note: {note}");
    }
    eprintln!(
        "wrote {} as a problem package in {}: {} samples, {} secret tests, {} submissions",
        problem.id,
        to.display(),
        done.samples,
        done.secret,
        done.submissions.len()
    );
    Ok(exit::OK)
}
