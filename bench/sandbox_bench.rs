//! Per-run cost of the sandbox: runs one program many times, alternating
//! sandboxed and unsandboxed runs so that both see the same machine load,
//! and prints the wall time of `sandbox::run` for each mode side by side.
//!
//! Usage: sandbox_bench PROGRAM [RUNS]   (see bench/sandbox.sh)

use std::path::PathBuf;
use std::time::{Duration, Instant};

use grundy::sandbox::{self, Exit, Mode, RunLimits, RunSpec};
use grundy::spec::Bytes;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(program) = args.next().map(PathBuf::from) else {
        eprintln!("usage: sandbox_bench PROGRAM [RUNS]");
        std::process::exit(2);
    };
    let runs: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(1000);
    let files = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("sandbox_bench: {e}");
            std::process::exit(3);
        }
    };
    let input = files.path().join("in");
    if let Err(e) = std::fs::write(&input, "7\n") {
        eprintln!("sandbox_bench: {e}");
        std::process::exit(3);
    }
    let mut times = [Vec::with_capacity(runs), Vec::with_capacity(runs)];
    let mut isolation = [String::new(), String::new()];
    // A few warm-up runs of each mode (probes, view, cgroup slot).
    for i in 0..runs + 10 {
        for (k, mode) in [Mode::Off, Mode::Auto].into_iter().enumerate() {
            sandbox::set_mode(mode);
            let work = match tempfile::tempdir_in(files.path()) {
                Ok(d) => d,
                Err(e) => {
                    eprintln!("sandbox_bench: {e}");
                    std::process::exit(3);
                }
            };
            let spec = RunSpec {
                argv: vec![program.clone().into_os_string()],
                workdir: work.path().to_path_buf(),
                stdin: input.clone(),
                stdout: files.path().join("out"),
                stderr: files.path().join("err"),
                env: vec![("PATH".into(), "/usr/bin:/bin".into())],
                limits: RunLimits {
                    cpu: Duration::from_secs(1),
                    wall: Duration::from_secs(5),
                    memory: Bytes::mib(256),
                    address_space: Some(Bytes::mib(272)),
                    output: Bytes::mib(64),
                },
            };
            let start = Instant::now();
            let outcome = match sandbox::run(&spec) {
                Ok(o) => o,
                Err(e) => {
                    eprintln!("sandbox_bench: {e}");
                    std::process::exit(3);
                }
            };
            let took = start.elapsed();
            if outcome.exit != Exit::Code(0) {
                eprintln!("sandbox_bench: the program ended with {:?}", outcome.exit);
                std::process::exit(1);
            }
            isolation[k] = outcome.isolation.to_string();
            if i >= 10 {
                times[k].push(took);
            }
        }
    }
    let stats = |v: &mut Vec<Duration>| {
        v.sort();
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        let mean = v.iter().map(|d| us(*d)).sum::<f64>() / v.len() as f64;
        (
            us(v[v.len() / 2]),
            mean,
            us(v[v.len() / 10]),
            us(v[v.len() * 9 / 10]),
        )
    };
    let (off, on) = (stats(&mut times[0]), stats(&mut times[1]));
    println!("{runs} runs of {} per mode, interleaved", program.display());
    println!(
        "{:<16} {:>10} {:>10} {:>10} {:>10}",
        "µs per run", "median", "mean", "p10", "p90"
    );
    println!(
        "{:<16} {:>10.0} {:>10.0} {:>10.0} {:>10.0}",
        "sandbox off", off.0, off.1, off.2, off.3
    );
    println!(
        "{:<16} {:>10.0} {:>10.0} {:>10.0} {:>10.0}",
        "sandbox on", on.0, on.1, on.2, on.3
    );
    println!(
        "{:<16} {:>10.0} {:>10.0} {:>10.0} {:>10.0}",
        "overhead",
        on.0 - off.0,
        on.1 - off.1,
        on.2 - off.2,
        on.3 - off.3
    );
    println!("off: {}", isolation[0]);
    println!("on:  {}", isolation[1]);
}
