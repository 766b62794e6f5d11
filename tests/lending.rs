//! A run that sleeps gives its `--jobs` slot back (docs/batch.md,
//! "Parallelism and fair timings"): the sandbox's watcher tells the run's
//! lender when it is idle, and a batch at `--jobs 1` then starts the next
//! submission's run while the sleeper is still alive; a program that
//! computes keeps its slot. Overlap is proved by the programs themselves
//! (a `flock` the first one holds for as long as it lives), never by
//! elapsed time, so the tests hold on a loaded machine.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use grundy::problem::Bytes;
use grundy::sandbox::{Lender, Mode, RunLimits, RunSpec, Runner};

#[path = "common/lender.rs"]
mod lender;

use lender::Heard;

/// Runs `argv` under `mode` with a 0.5 s CPU limit (2.5 s of wall time),
/// returning what its lender heard and the limit it was stopped at.
fn heard(mode: Mode, argv: &[&str]) -> (Vec<&'static str>, Option<grundy::sandbox::LimitHit>) {
    let dir = tempfile::tempdir().expect("temporary folder");
    let work = dir.path().join("work");
    std::fs::create_dir(&work).expect("work folder");
    let spec = RunSpec {
        argv: argv.iter().map(Into::into).collect(),
        workdir: work,
        stdin: "/dev/null".into(),
        stdout: dir.path().join("stdout"),
        env: vec![("PATH".into(), "/usr/bin:/bin".into())],
        limits: RunLimits {
            cpu: Duration::from_millis(500),
            wall: RunLimits::wall_for(Duration::from_millis(500)),
            memory: Bytes::mib(256),
            address_space: None,
            output: Bytes::mib(1),
        },
        keep_workdir: false,
    };
    let lender = Heard::default();
    let outcome = Runner::new(mode)
        .run_lending(&spec, &lender)
        .expect("the run starts (a sandbox is available here)");
    (lender.0.into_inner(), outcome.limit)
}

/// In both modes, a sleeper is told idle (once: it never computes again)
/// and stopped at the wall limit; a spinner is never told idle and is
/// stopped at the CPU limit.
#[test]
fn the_watcher_tells_a_sleeper_idle_and_never_a_spinner() {
    use grundy::sandbox::LimitHit;
    for mode in [Mode::Auto, Mode::Off] {
        let (sleeper, limit) = heard(mode, &["sleep", "60"]);
        assert_eq!(limit, Some(LimitHit::Wall), "{mode:?}");
        assert_eq!(sleeper, ["idle"], "sleeper, {mode:?}");
        let (spinner, limit) = heard(mode, &["sh", "-c", "while :; do :; done"]);
        assert_eq!(limit, Some(LimitHit::Cpu), "{mode:?}");
        assert!(spinner.is_empty(), "spinner, {mode:?}: {spinner:?}");
    }
}

/// One test each; `wait` has a long limit (its first program waits for the
/// second, however slowly the machine compiles it), `spin` a short one.
fn spec(id: &str, time: &str) -> String {
    format!(
        "id: {id}\ntitle: Lending\nsource: tests\nlimits: {{time: {time}, memory: 64MiB, output: 1MiB}}\n\
         checker: tokens\ngroups:\n  - name: only\n    tests:\n      - {{input: \"1\\n\", answer: \"2\\n\"}}\n"
    )
}

/// A C program that tries to lock `lock` (held until it dies), appends
/// `NAME alone` or `NAME overlapped` (the lock was held by a live run) to
/// `log`, then does `then`.
fn program(name: &str, lock: &Path, log: &Path, then: &str) -> String {
    format!(
        "#include <stdio.h>\n#include <fcntl.h>\n#include <sys/file.h>\n#include <unistd.h>\n\
         int main(void){{int fd=open(\"{lock}\",O_RDONLY);\
         int alone=fd>=0&&flock(fd,LOCK_EX|LOCK_NB)==0;\
         FILE*f=fopen(\"{log}\",\"a\");if(f){{fprintf(f,\"{name} %s\\n\",alone?\"alone\":\"overlapped\");fclose(f);}}\
         {then}}}\n",
        lock = lock.display(),
        log = log.display(),
    )
}

/// Grades `class` (one file per student) on `problem` at `--jobs 1`
/// without the sandbox (the programs write outside their folders; the
/// engine and the slots are the same either way), and returns the log.
fn grade_log(root: &Path, class: &[(&str, String)], problem: &str, log: &Path) -> Vec<String> {
    let dir = root.join(format!("class-{problem}"));
    std::fs::create_dir_all(&dir).expect("class folder");
    for (file, text) in class {
        std::fs::write(dir.join(file), text).expect("write");
    }
    let out = root.join(format!("out-{problem}"));
    let run = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["--sandbox", "off", "grade"])
        .arg(&dir)
        .args(["--problem", problem, "--jobs", "1", "--out"])
        .arg(&out)
        .arg("--problems")
        .arg(root.join("problems"))
        .arg("--cache")
        .arg(root.join("cache"))
        .env("NO_COLOR", "1")
        .output()
        .expect("run grundy");
    assert!(
        matches!(run.status.code(), Some(0 | 1)),
        "grade failed: {:?}\n{}",
        run.status,
        String::from_utf8_lossy(&run.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).expect("report.json"))
            .expect("JSON");
    assert_eq!(report["results"].as_array().map(Vec::len), Some(2));
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(String::from)
        .collect()
}

fn setup() -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().expect("temporary folder");
    for (id, time) in [("wait", "5s"), ("spin", "500ms")] {
        let p = root.path().join("problems").join(id);
        std::fs::create_dir_all(&p).expect("problem folder");
        std::fs::write(p.join("problem.yaml"), spec(id, time)).expect("spec");
        std::fs::write(p.join("statement.md"), "# Lending\n").expect("statement");
    }
    let lock = root.path().join("lock");
    std::fs::write(&lock, "").expect("lock file");
    (root, lock)
}

/// At `--jobs 1`, the second submission runs while the first one, asleep,
/// is alive (it holds the lock until it ends): the sleeper lent its slot.
/// The first waits, asleep, until the second has run (or its wall limit:
/// then the second finds the lock free and the test fails).
#[test]
fn at_jobs_1_a_sleeper_lends_its_slot_to_the_next_submission() {
    let (root, lock) = setup();
    let (log, seen) = (root.path().join("wait.log"), root.path().join("seen"));
    let wait = format!(
        "for(;;){{if(access(\"{}\",F_OK)==0)return 0;usleep(100000);}}",
        seen.display()
    );
    let note = format!("close(creat(\"{}\",0600));return 0;", seen.display());
    let class = [
        ("ann.c", program("ann", &lock, &log, &wait)),
        ("bob.c", program("bob", &lock, &log, &note)),
    ];
    let lines = grade_log(root.path(), &class, "wait", &log);
    assert_eq!(lines, ["ann alone", "bob overlapped"]);
}

/// At `--jobs 1`, a program that computes until its CPU limit keeps its
/// slot: the next submission runs only once it is gone.
#[test]
fn at_jobs_1_a_spinner_keeps_its_slot() {
    let (root, lock) = setup();
    let log = root.path().join("spin.log");
    let class = [
        (
            "ann.c",
            program("ann", &lock, &log, "for(volatile unsigned long i=0;;i++);"),
        ),
        ("bob.c", program("bob", &lock, &log, "return 0;")),
    ];
    let lines = grade_log(root.path(), &class, "spin", &log);
    assert_eq!(lines, ["ann alone", "bob alone"]);
}
