//! `grundy gen`: write a problem's tests as <name>.in / <name>.ans.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, anyhow};
use grundy::judge;

use super::exit::{self, Failure, usage};
use super::{Global, context, find};

pub fn run(g: &Global, id: &str, seed: Option<u64>, out: Option<PathBuf>) -> Result<u8, Failure> {
    let problem = find(g, id)?;
    let mut ctx = context(g)?;
    ctx.seed = seed;
    let out = out.unwrap_or_else(|| PathBuf::from(format!("tests-{id}")));
    let prepared = judge::prepare(&problem, &ctx)?;
    std::fs::create_dir_all(&out)
        .with_context(|| format!("cannot create {}", out.display()))
        .map_err(usage)?;
    for t in &prepared.tests {
        copy(&t.input, &out.join(format!("{}.in", t.name)))?;
        match &t.answer {
            Ok(a) => copy(a, &out.join(format!("{}.ans", t.name)))?,
            Err(why) => return Err(usage(anyhow!("{}: {why}", t.name))),
        }
    }
    eprintln!(
        "wrote {} to {}",
        grundy::markup::count(prepared.tests.len(), "test", "tests"),
        out.display()
    );
    Ok(exit::OK)
}

fn copy(from: &Path, to: &Path) -> Result<(), Failure> {
    std::fs::copy(from, to)
        .map(|_| ())
        .with_context(|| format!("cannot write {}", to.display()))
        .map_err(usage)
}
