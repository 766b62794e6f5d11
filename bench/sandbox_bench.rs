//! Per-run cost of the sandbox: runs one program many times, alternating
//! sandboxed and unsandboxed runs so that both see the same machine load,
//! and prints the wall time of `sandbox::run` for each mode side by side.
//!
//! Usage: sandbox_bench PROGRAM [RUNS]   (see bench/sandbox.sh)

use std::path::PathBuf;
use std::time::{Duration, Instant};

use grundy::problem::Bytes;
use grundy::sandbox::{self, Exit, Mode, RunLimits, RunSpec};

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
    // CPU time of the judge and its children: unlike wall time, barely
    // disturbed by other work on the machine.
    let mut cpu = [Duration::ZERO, Duration::ZERO];
    let mut isolation = [String::new(), String::new()];
    // A few warm-up runs of each mode (probes, view, cgroup slot).
    for i in 0..runs + 10 {
        for (k, mode) in [Mode::Off, Mode::Auto].into_iter().enumerate() {
            let runner = sandbox::Runner::new(mode);
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
                env: vec![("PATH".into(), "/usr/bin:/bin".into())],
                limits: RunLimits {
                    cpu: Duration::from_secs(1),
                    wall: Duration::from_secs(5),
                    memory: Bytes::mib(256),
                    address_space: Some(Bytes::mib(272)),
                    output: Bytes::mib(64),
                },
                keep_workdir: false,
            };
            let cpu_before = cpu_used();
            let start = Instant::now();
            let outcome = match runner.run(&spec) {
                Ok(o) => o,
                Err(e) => {
                    eprintln!("sandbox_bench: {e}");
                    std::process::exit(3);
                }
            };
            let took = start.elapsed();
            let cpu_took = cpu_used().saturating_sub(cpu_before);
            if outcome.exit != Exit::Code(0) {
                eprintln!("sandbox_bench: the program ended with {:?}", outcome.exit);
                std::process::exit(1);
            }
            isolation[k] = outcome.isolation.to_string();
            if i >= 10 {
                times[k].push(took);
                cpu[k] += cpu_took;
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
    let cpu_us = |d: Duration| d.as_secs_f64() * 1e6 / runs as f64;
    let (cpu_off, cpu_on) = (cpu_us(cpu[0]), cpu_us(cpu[1]));
    println!(
        "{:<16} {:>10} {:>10} {:>10} {:>10} {:>12}",
        "µs per run", "median", "mean", "p10", "p90", "CPU (all)"
    );
    let row = |name: &str, s: (f64, f64, f64, f64), c: f64| {
        println!(
            "{name:<16} {:>10.0} {:>10.0} {:>10.0} {:>10.0} {c:>12.0}",
            s.0, s.1, s.2, s.3
        );
    };
    row("sandbox off", off, cpu_off);
    row("sandbox on", on, cpu_on);
    row(
        "overhead",
        (on.0 - off.0, on.1 - off.1, on.2 - off.2, on.3 - off.3),
        cpu_on - cpu_off,
    );
    println!("wall: sandbox::run from call to return; CPU (all): judge + children, user + system");
    println!("off: {}", isolation[0]);
    println!("on:  {}", isolation[1]);
}

/// User + system time of this process and its reaped children.
fn cpu_used() -> Duration {
    let mut total = Duration::ZERO;
    for who in [libc::RUSAGE_SELF, libc::RUSAGE_CHILDREN] {
        // SAFETY: zeroed rusage is a valid value for getrusage to overwrite.
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: a valid pointer to a local.
        unsafe { libc::getrusage(who, &mut u) };
        for t in [u.ru_utime, u.ru_stime] {
            total += Duration::new(t.tv_sec.max(0) as u64, (t.tv_usec.max(0) as u32) * 1000);
        }
    }
    total
}
