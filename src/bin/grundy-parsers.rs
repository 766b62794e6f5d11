//! `grundy-parsers`: the `grundy` command line for the commands that parse
//! source code (`mutants`, `similar`, `grade --similarity`, `verify
//! --mutants`), which `grundy` hands over to it (see `cli::executables`).
//! It is the same command line, compiled with the parsers.

#[path = "../cli/mod.rs"]
mod cli;

/// Whether this executable runs the commands that parse source code: yes.
const PARSERS: bool = true;

/// Whether this executable runs `serve` and `judgehost`: no, it hands
/// them to `grundy-serve`.
const SERVE: bool = false;

fn main() -> std::process::ExitCode {
    cli::main()
}
