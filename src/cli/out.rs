//! Printing to stdout for the commands.
//!
//! A reader that stops early (`grundy verify | head -2`) must end the
//! command quietly, as it ends any Unix filter. The judge keeps SIGPIPE
//! ignored (Rust's default) because it writes to pipes of programs that may
//! exit at any moment — an interactive player, a checker — and a signal
//! there would kill the judge. So stdout's broken pipe is handled here, on
//! the one stream where it means "the reader is gone": the process ends the
//! way a filter does, by SIGPIPE. The programs it runs die with it
//! (parent-death signal) and the next judge removes its folder.

use std::io::Write;

use grundy::batch::{self, RunSummary};

use super::exit;

/// Writes `args` to stdout; ends the process quietly if the reader is gone.
pub fn write(args: std::fmt::Arguments<'_>) {
    let mut stdout = std::io::stdout().lock();
    // Any failure but a gone reader (a full disk behind a redirect) has
    // nowhere better to be told than the stdout that failed; it is dropped.
    let _ = stdout
        .write_fmt(args)
        .and_then(|()| stdout.flush())
        .inspect_err(end_if_reader_gone);
}

/// Stdout for a reporter that writes as it goes (the terminal view of
/// `judge`): ends the process quietly if the reader is gone.
pub struct Stdout;

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        std::io::stdout().write(buf).inspect_err(end_if_reader_gone)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stdout().flush().inspect_err(end_if_reader_gone)
    }
}

fn end_if_reader_gone(e: &std::io::Error) {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        end_by_sigpipe();
    }
}

/// Ends the process as the kernel ends a filter whose reader left.
fn end_by_sigpipe() -> ! {
    // SAFETY: restoring a signal's default action and raising it involves
    // no handler of ours; if the signal somehow returns, exit with its code.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        libc::raise(libc::SIGPIPE);
    }
    std::process::exit(128 + libc::SIGPIPE)
}

/// `print!` that ends quietly when stdout's reader is gone.
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::out::write(format_args!($($arg)*)) };
}

/// `println!` that ends quietly when stdout's reader is gone.
macro_rules! outln {
    () => { $crate::cli::out::write(format_args!("\n")) };
    ($($arg:tt)*) => {
        $crate::cli::out::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {out, outln};

/// The number of tests a batch command runs at once; a note when the
/// request was cut.
pub(super) fn batch_jobs(requested: Option<usize>) -> usize {
    let (n, note) = batch::jobs(requested);
    if let Some(note) = note {
        eprintln!("grundy: {note}");
    }
    n
}

/// Prints the closing lines of a batch command (what was judged, then the
/// files the report writers wrote); its exit code. An interrupted run has
/// said what it kept through its progress display.
pub(super) fn finish(summary: &RunSummary, files: &grundy::report::Files) -> u8 {
    match summary.interrupted {
        Some(sig) => {
            for l in &summary.lines {
                eprintln!("grundy: {}", grundy::markup::terminal(l));
            }
            exit::interrupted(sig)
        }
        None => {
            for l in summary.lines.iter().chain(&files.lines()) {
                outln!("{}", grundy::markup::terminal(l));
            }
            exit::of(summary.overall)
        }
    }
}
