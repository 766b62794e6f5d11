//! Which executable runs which command. `grundy` judges; two commands'
//! heavy libraries live in executables of their own, built from this same
//! command line and installed beside it:
//!
//! - `grundy-parsers` runs the commands that parse source code —
//!   `mutants` (`syn`), `similar` and `grade --similarity` (tree-sitter),
//!   `verify --mutants` (`src/bin/grundy-parsers.rs`);
//! - `grundy-serve` runs `serve` and `judgehost`: axum on tokio, SQLite
//!   (`src/bin/grundy-serve.rs`).
//!
//! `grundy` hands such a command line over with `exec`, before it starts
//! anything, so that the judging executable neither carries those
//! libraries nor pays at every start for loading them: they were most of
//! its size and of the relocations the loader applies before `main`.

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;

use anyhow::anyhow;

use super::Command;
use super::exit::{Failure, internal};

/// An executable built beside `grundy` (`cargo build`, `cargo install`)
/// for some of its commands.
pub struct Executable {
    /// Its file name.
    pub name: &'static str,
    /// Why a command needs it, for the message when it is missing.
    what: &'static str,
}

/// The commands that parse source code.
pub const PARSERS: Executable = Executable {
    name: "grundy-parsers",
    what: "this command parses source code, which grundy-parsers does",
};

/// `serve` and `judgehost`.
pub const SERVE: Executable = Executable {
    name: "grundy-serve",
    what: "grundy serve and grundy judgehost run in grundy-serve",
};

/// The executable `command` needs when this one cannot run it.
pub fn needed(command: &Command) -> Option<&'static Executable> {
    let parses = match command {
        Command::Mutants { .. } | Command::Similar { .. } => true,
        Command::Grade { similarity, .. } => *similarity,
        Command::Verify { how, .. } => how.mutants,
        _ => false,
    };
    let serves = matches!(command, Command::Serve(_) | Command::Judgehost(_));
    if parses && !crate::PARSERS {
        Some(&PARSERS)
    } else if serves && !crate::SERVE {
        Some(&SERVE)
    } else {
        None
    }
}

/// Runs `f`, which parses source code: only `grundy-parsers` does (the
/// constant is known when each executable is compiled, so the others do
/// not link what `f` calls); they have handed these commands over before
/// reaching here.
pub fn parsing<T>(f: impl FnOnce() -> T) -> T {
    if crate::PARSERS {
        f()
    } else {
        unreachable!(
            "the commands that parse source code are handed to {}",
            PARSERS.name
        )
    }
}

/// Runs `f`, which serves or judges for a server: only `grundy-serve`
/// does (as [`parsing`]).
pub fn serving<T>(f: impl FnOnce() -> T) -> T {
    if crate::SERVE {
        f()
    } else {
        unreachable!("serve and judgehost are handed to {}", SERVE.name)
    }
}

/// Replaces this process with `to` (found beside this executable) and the
/// same arguments; returns only if that failed.
pub fn hand_over(to: &Executable) -> Failure {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|d| d.join(to.name)));
    let Some(path) = beside.filter(|p| p.is_file()) else {
        return missing(to, None);
    };
    let mut args = std::env::args_os();
    let name = args.next().unwrap_or_else(|| OsString::from("grundy"));
    let error = std::process::Command::new(&path)
        .arg0(name)
        .args(args)
        .exec();
    missing(to, Some((path, error)))
}

fn missing(to: &Executable, tried: Option<(PathBuf, std::io::Error)>) -> Failure {
    let what = match tried {
        Some((path, e)) => format!("cannot start {}: {e}", path.display()),
        None => format!("{} is not beside this grundy", to.name),
    };
    internal(anyhow!(
        "{what}; {}: `cargo build --release` builds it, `cargo install --path .` installs it beside grundy",
        to.what
    ))
}
