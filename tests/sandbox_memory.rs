//! A run's memory figure is the run's own, whatever the judge's size: the
//! judge here (this test process) first grows to 1 GiB and keeps it, then
//! runs a small program through `grundy::sandbox::run`.
//!
//! The run's processes share the judge's memory until they execute the
//! program, and the kernel folds the size of that memory into the
//! program's `ru_maxrss`; a figure taken from it would charge the judge's
//! gigabyte to the program (a false MLE in `grade --feedback first-fail`,
//! whose shrinking grows the judge).

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use grundy::problem::Bytes;
use grundy::sandbox::{self, Exit, RunLimits, RunSpec};

/// Touches 8 MiB, then sleeps 0.3 s (long enough to be seen by a judge
/// that samples the program's high-water mark instead of reading a group).
const SMALL: &str = r#"
#include <stdlib.h>
#include <unistd.h>
int main(void) {
    volatile char *p = malloc(8 << 20);
    if (!p) return 1;
    for (int i = 0; i < (8 << 20); i += 4096) p[i] = 1;
    usleep(300000);
    return 0;
}
"#;

fn compile(dir: &Path) -> std::path::PathBuf {
    let src = dir.join("small.c");
    std::fs::write(&src, SMALL).expect("write source");
    let exe = dir.join("small");
    let out = Command::new("gcc")
        .arg("-O2")
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .output()
        .expect("gcc");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

#[test]
fn run_memory_is_the_runs_own_after_the_judge_grew() {
    let dir = tempfile::Builder::new()
        .prefix("grundy-judge-size-")
        .tempdir()
        .expect("tempdir");
    let exe = compile(dir.path());
    let work = dir.path().join("work");
    std::fs::create_dir(&work).expect("workdir");
    // The judge grows to 1 GiB, touched, and keeps it during the run.
    let mut big = vec![0u8; 1 << 30];
    for i in (0..big.len()).step_by(4096) {
        big[i] = 1;
    }
    std::hint::black_box(&mut big);
    let spec = RunSpec {
        argv: vec![exe.clone().into_os_string()],
        workdir: work.clone(),
        stdin: "/dev/null".into(),
        stdout: dir.path().join("stdout"),
        env: vec![("PATH".into(), "/usr/bin:/bin".into())],
        limits: RunLimits {
            cpu: Duration::from_secs(5),
            wall: Duration::from_secs(30),
            memory: Bytes::mib(256),
            address_space: Some(Bytes::mib(256)),
            output: Bytes::mib(16),
        },
        keep_workdir: false,
    };
    let outcome = sandbox::run(&spec).expect("run");
    std::hint::black_box(&big);
    drop(big);
    assert_eq!(outcome.exit, Exit::Code(0), "{outcome:?}");
    assert_eq!(outcome.limit, None, "{outcome:?}");
    let mib = outcome.peak_memory.0 >> 20;
    assert!(
        (8..64).contains(&mib),
        "the program touched 8 MiB, reported {mib} MiB: {outcome:?}"
    );
    // Nothing of the run is left running.
    let left: Vec<_> = std::fs::read_dir("/proc")
        .expect("/proc")
        .filter_map(Result::ok)
        .filter(|e| std::fs::read_link(e.path().join("exe")).is_ok_and(|p| p == exe))
        .collect();
    assert!(left.is_empty(), "processes of the run left: {left:?}");
}
