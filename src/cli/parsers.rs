//! The commands that parse source code — `mutants` (`syn`), `similar` and
//! `grade --similarity` (tree-sitter), `verify --mutants` — run in a second
//! executable, `grundy-parsers`, built from this same command line
//! (`src/bin/grundy-parsers.rs`). `grundy` hands such a command line over
//! with `exec`, before it starts anything, so that the judging executable
//! neither carries the parsers nor pays at every start for loading them:
//! five tree-sitter grammars and `syn` were three quarters of its size and
//! five sixths of the relocations the loader applies before `main`.

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;

use anyhow::anyhow;

use super::Command;
use super::exit::{Failure, internal};

/// The name of the executable that runs the commands needing parsers; it
/// is built and installed beside `grundy` (`cargo build`, `cargo install`).
pub const EXECUTABLE: &str = "grundy-parsers";

/// Whether `command` parses source code.
pub fn needed(command: &Command) -> bool {
    match command {
        Command::Mutants { .. } | Command::Similar { .. } => true,
        Command::Grade { similarity, .. } => *similarity,
        Command::Verify { mutants, .. } => *mutants,
        _ => false,
    }
}

/// Runs `f`, which parses source code: only `grundy-parsers` does (the
/// constant is known when each executable is compiled, so `grundy` does
/// not link what `f` calls); `grundy` has handed these commands over
/// before reaching here.
pub fn here<T>(f: impl FnOnce() -> T) -> T {
    if crate::PARSERS {
        f()
    } else {
        unreachable!("grundy hands the commands that parse source code to {EXECUTABLE}")
    }
}

/// Replaces this process with `grundy-parsers` (found beside this
/// executable) and the same arguments; returns only if that failed.
pub fn hand_over() -> Failure {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|d| d.join(EXECUTABLE)));
    let Some(path) = beside.filter(|p| p.is_file()) else {
        return missing(None);
    };
    let mut args = std::env::args_os();
    let name = args.next().unwrap_or_else(|| OsString::from("grundy"));
    let error = std::process::Command::new(&path)
        .arg0(name)
        .args(args)
        .exec();
    missing(Some((path, error)))
}

fn missing(tried: Option<(PathBuf, std::io::Error)>) -> Failure {
    let what = match tried {
        Some((path, e)) => format!("cannot start {}: {e}", path.display()),
        None => format!("{EXECUTABLE} is not beside this grundy"),
    };
    internal(anyhow!(
        "{what}; this command parses source code, which {EXECUTABLE} does: \
         `cargo build --release` builds it, `cargo install --path .` installs it beside grundy"
    ))
}
