//! The `grundy` executable: everything is in [`cli`].

mod cli;

/// Whether this executable runs the commands that parse source code: no,
/// it hands them to `grundy-parsers` (see `cli::executables`).
const PARSERS: bool = false;

/// Whether this executable runs `serve` and `judgehost`: no, it hands
/// them to `grundy-serve` (see `cli::executables`).
const SERVE: bool = false;

fn main() -> std::process::ExitCode {
    cli::main()
}
