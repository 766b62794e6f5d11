//! `grundy new`: write the skeleton of a new problem (`grundy::skeleton`).

use anyhow::anyhow;
use grundy::skeleton::{self, NewError};

use super::exit::{self, Failure, internal, usage};
use super::{Global, problem_set};

pub fn run(g: &Global, id: &str) -> Result<u8, Failure> {
    let set = problem_set(g);
    let made = skeleton::create(&set.dir, id).map_err(|e| match e {
        NewError::Write { .. } => internal(anyhow!(e)),
        _ => usage(anyhow!(e)),
    })?;
    eprintln!("wrote a new problem in {}:", made.dir.display());
    for f in &made.files {
        let shown = f.strip_prefix(&made.dir).unwrap_or(f);
        eprintln!("  {}", shown.display());
    }
    eprintln!("check it with: grundy verify {id}");
    Ok(exit::OK)
}
