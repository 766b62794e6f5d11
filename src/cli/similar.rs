//! `grundy similar` (and `grade --similarity`): pairs of submissions that
//! look copied, printed and written to OUT/similarity.html and .json.

use super::out::outln;
use std::path::{Path, PathBuf};

use anyhow::anyhow;
use grundy::language::Languages;
use grundy::similarity::{self, Options, SimilarityError};

use super::exit::{Failure, OK, internal, usage};
use super::{Global, problem_set};

impl From<SimilarityError> for Failure {
    fn from(e: SimilarityError) -> Self {
        match e {
            SimilarityError::Usage(_)
            | SimilarityError::Problem(_)
            | SimilarityError::Folder(_) => usage(anyhow!(e)),
            _ => internal(anyhow!(e)),
        }
    }
}

pub fn run(
    g: &Global,
    dir: &Path,
    problem: Option<&str>,
    opts: Options,
    json: bool,
    out: &Path,
) -> Result<u8, Failure> {
    let languages = match g
        .languages
        .clone()
        .or_else(|| std::env::var_os("GRUNDY_LANGUAGES").map(PathBuf::from))
    {
        Some(p) => Languages::with_config(&p).map_err(|e| usage(anyhow!(e)))?,
        None => Languages::default(),
    };
    let (report, written) = similarity::run(dir, problem, &problem_set(g), &languages, &opts, out)?;
    if json {
        let text = serde_json::to_string_pretty(&report).map_err(|e| internal(anyhow!(e)))?;
        outln!("{text}");
    } else {
        // Names come from the class folder: escaped.
        for line in similarity::lines(&report) {
            outln!("{}", grundy::markup::terminal(&line));
        }
        for path in written {
            outln!("{}", path.display());
        }
    }
    Ok(OK)
}
