//! `grundy-serve`: the `grundy` command line for `serve` and `judgehost`,
//! which `grundy` hands over to it (see `cli::executables`). It is the
//! same command line, compiled with the server (axum on tokio, SQLite),
//! which the judging executable does not link.

#[path = "../cli/mod.rs"]
mod cli;

/// Whether this executable runs the commands that parse source code: no,
/// it hands them to `grundy-parsers`.
const PARSERS: bool = false;

/// Whether this executable runs `serve` and `judgehost`: yes.
const SERVE: bool = true;

fn main() -> std::process::ExitCode {
    cli::main()
}
