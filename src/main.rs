//! The `grundy` executable: everything is in [`cli`].

mod cli;

/// Whether this executable runs the commands that parse source code: no,
/// it hands them to `grundy-parsers` (see `cli::parsers`).
const PARSERS: bool = false;

fn main() -> std::process::ExitCode {
    cli::main()
}
