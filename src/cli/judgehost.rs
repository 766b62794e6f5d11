//! `grundy judgehost`: judging for a `grundy serve` on another machine.

use std::path::PathBuf;

use anyhow::anyhow;
use clap::Args;

use grundy::judgehost::{self, HostError, HostOptions};

use super::exit::{self, Failure, internal, usage};
use super::out::batch_jobs;
use super::{Global, context};

#[derive(Args)]
pub struct JudgehostArgs {
    /// The server's address, such as http://judge.example:8080/
    #[arg(long, value_name = "URL")]
    server: String,
    /// The file holding this host's token (grundy serve judgehost makes it)
    #[arg(long, value_name = "FILE")]
    token: PathBuf,
    /// Submissions judged at once, each one test at a time [default: half the CPUs, at least 1]
    #[arg(long)]
    jobs: Option<usize>,
}

pub fn run(g: &Global, args: JudgehostArgs) -> Result<u8, Failure> {
    let JudgehostArgs {
        server,
        token,
        jobs,
    } = args;
    let (server, token) = (server.as_str(), token.as_path());
    if !(server.starts_with("http://") || server.starts_with("https://")) {
        return Err(usage(anyhow!(
            "--server {server}: give the server's address, such as http://judge.example:8080/"
        )));
    }
    // The token file is the organiser's; read bounded, links at its end not followed.
    let token = grundy::beneath::read_text(token, 4096)
        .map_err(|e| usage(anyhow!("--token {}: {e}", token.display())))?;
    let token = token.trim().to_string();
    if token.is_empty() {
        return Err(usage(anyhow!(
            "the token file is empty: write the token `grundy serve judgehost` made into it"
        )));
    }
    let ctx = context(g)?;
    let interrupt = grundy::batch::interrupt::Interrupt::install(&ctx.sandbox.cancel)
        .map_err(|e| internal(anyhow!("cannot handle signals: {e}")))?;
    let opts = HostOptions {
        server: server.to_string(),
        token,
        jobs: batch_jobs(jobs),
    };
    let say = Box::new(|line: &str| eprintln!("grundy judgehost: {line}"));
    match judgehost::run(ctx, opts, interrupt.flag(), say) {
        Ok(()) => Ok(interrupt.signal().map_or(exit::OK, exit::interrupted)),
        Err(e @ HostError::Refused(_)) => Err(usage(anyhow!(e))),
        Err(e @ HostError::Internal(_)) => Err(internal(anyhow!(e))),
    }
}
