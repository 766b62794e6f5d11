//! `grundy new`: write the skeleton of a new problem (`grundy::skeleton`).

use anyhow::anyhow;
use grundy::skeleton::{self, NewError};

use super::exit::{self, Failure, internal, usage};
use super::{Global, problem_set};

pub fn run(g: &Global, id: &str, game: Option<&str>) -> Result<u8, Failure> {
    let set = problem_set(g);
    let made = match game {
        Some(text) => {
            let text = match text.strip_prefix('@') {
                Some(file) => std::fs::read_to_string(file)
                    .map_err(|e| usage(anyhow!("--game @{file}: cannot read: {e}")))?,
                None => text.to_string(),
            };
            skeleton::create_game(&set.dir, id, &text)
        }
        None => skeleton::create(&set.dir, id),
    };
    let made = made.map_err(|e| match e {
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
