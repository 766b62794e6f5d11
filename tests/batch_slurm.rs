//! The Slurm deployment on a real cluster: a one-node Slurm (slurmctld,
//! slurmd and munge from Debian's packages, installed by `.ci/setup.sh --tests`)
//! started for each test in a folder of its own, on loopback, and stopped
//! after (tests/slurm/cluster.sh). The array script and the merge script
//! are submitted with `sbatch`, as docs/batch.md says, and the merged
//! reports must equal one unsharded run's byte for byte, also when a task
//! dies half-way and Slurm requeues it.
//!
//! Nothing here depends on timing: the test waits for states (a file, a
//! job state), each wait bounded by a deadline far beyond what a loaded
//! machine needs, and a failed wait prints the daemons' logs.

mod batch_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use batch_support::*;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// How long any one wait may take before the test gives up.
const DEADLINE: Duration = Duration::from_secs(900);

fn have(cmd: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {cmd}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The cluster, stopped when dropped (also when the test fails).
struct Cluster {
    dir: tempfile::TempDir,
    conf: PathBuf,
}

impl Cluster {
    /// Starts one, or returns None where Slurm is not installed (a
    /// failure under CI=true: the test must not pass by not running).
    fn start() -> Option<Cluster> {
        let missing: Vec<&str> = [
            "slurmctld",
            "slurmd",
            "munged",
            "mungekey",
            "sbatch",
            "scontrol",
        ]
        .into_iter()
        .filter(|c| !have(c))
        .collect();
        if !missing.is_empty() {
            let msg = format!(
                "Slurm is not installed ({} missing): run `bash .ci/setup.sh --tests`",
                missing.join(", ")
            );
            assert!(std::env::var("CI").as_deref() != Ok("true"), "{msg}");
            eprintln!("skipped: {msg}");
            return None;
        }
        // Under /tmp: munge's socket path must stay short (sun_path).
        let dir = tempfile::Builder::new()
            .prefix("grundy-slurm-")
            .tempdir_in("/tmp")
            .expect("tempdir");
        let out = Command::new("bash")
            .arg(root().join("tests/slurm/cluster.sh"))
            .arg("start")
            .arg(dir.path())
            .output()
            .expect("bash");
        let conf = dir.path().join("slurm.conf");
        let cluster = Cluster { dir, conf };
        assert!(
            out.status.success(),
            "the cluster did not start:\n{}\n{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        Some(cluster)
    }

    fn cmd(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("SLURM_CONF", &self.conf)
            .env("PATH", path_with_grundy())
            .env("GRUNDY_PROBLEMS", problems())
            .env("GRUNDY_CACHE", cache())
            .env_remove("SLURM_JOB_ID")
            .current_dir(self.dir.path());
        c
    }

    /// The daemons' logs and the job logs, for a failure message.
    fn logs(&self) -> String {
        let mut s = String::new();
        let mut files: Vec<PathBuf> = std::fs::read_dir(self.dir.path().join("log"))
            .into_iter()
            .flatten()
            .chain(std::fs::read_dir(self.dir.path()).into_iter().flatten())
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "log"))
            .collect();
        files.sort();
        for f in files {
            let t = std::fs::read_to_string(&f).unwrap_or_default();
            let tail: Vec<&str> = t.lines().rev().take(30).collect();
            s.push_str(&format!("==> {} <==\n", f.display()));
            for l in tail.into_iter().rev() {
                s.push_str(l);
                s.push('\n');
            }
        }
        s
    }

    /// `sbatch --parsable ARGS`: the job id.
    fn sbatch(&self, args: &[&str]) -> String {
        let out = self
            .cmd("sbatch")
            .arg("--parsable")
            .args(args)
            .output()
            .expect("sbatch");
        assert!(
            out.status.success(),
            "sbatch {args:?}: {}\n{}",
            text(&out.stderr),
            self.logs()
        );
        text(&out.stdout)
            .trim()
            .split(';')
            .next()
            .unwrap_or_default()
            .to_string()
    }

    /// `scontrol show job ID` as text ("" once the job is gone).
    fn show(&self, job: &str) -> String {
        self.cmd("scontrol")
            .args(["show", "job", job])
            .output()
            .map(|o| text(&o.stdout))
            .unwrap_or_default()
    }

    /// Waits until `done` holds, polling; fails with the logs past DEADLINE.
    fn wait(&self, what: &str, mut done: impl FnMut() -> bool) {
        let start = Instant::now();
        while !done() {
            assert!(
                start.elapsed() < DEADLINE,
                "timed out waiting for {what}\n{}",
                self.logs()
            );
            std::thread::sleep(Duration::from_millis(250));
        }
    }

    /// Waits until no job of `job` is pending or running; fails at once
    /// when one of its tasks failed, or it can never start.
    fn wait_gone(&self, job: &str) {
        self.wait(&format!("job {job} to end"), || {
            self.assert_not_doomed(job);
            self.cmd("squeue")
                .args(["-h", "-j", job])
                .output()
                .is_ok_and(|o| o.status.success() && text(&o.stdout).trim().is_empty())
        });
    }

    /// Fails, with the job's record and the logs, when `job` (any task of
    /// an array) has ended badly or will stay pending for ever: a failed
    /// job must cost the seconds it takes to see it, not the whole
    /// deadline. (The cluster keeps no accounting, so `sacct` knows
    /// nothing: `scontrol` keeps ended jobs for an hour, `MinJobAge`.)
    fn assert_not_doomed(&self, job: &str) {
        let shown = self.show(job);
        if let Some(record) = doomed(&shown) {
            panic!("job {job} cannot end well:\n{record}\n{}", self.logs());
        }
    }
}

/// States of a job that has ended without success (`scontrol show job`).
const ENDED_BADLY: [&str; 8] = [
    "FAILED",
    "CANCELLED",
    "TIMEOUT",
    "NODE_FAIL",
    "OUT_OF_MEMORY",
    "BOOT_FAIL",
    "DEADLINE",
    "PREEMPTED",
];

/// The first record of `scontrol show job` output (one per task of an
/// array, separated by blank lines) that ended badly, or that is pending
/// on a dependency that can never be met (an `afterok` job failed).
fn doomed(shown: &str) -> Option<&str> {
    shown.split("\n\n").find(|record| {
        let field = |name: &str| {
            record
                .split_whitespace()
                .find_map(|t| t.strip_prefix(name))
                .unwrap_or_default()
        };
        ENDED_BADLY.contains(&field("JobState=")) || field("Reason=") == "DependencyNeverSatisfied"
    })
}

#[test]
fn a_failed_or_stuck_job_is_seen() {
    let running = "JobId=7 ArrayJobId=7 ArrayTaskId=0 JobName=grade\n   JobState=RUNNING Reason=None\n\n\
                   JobId=8 ArrayJobId=7 ArrayTaskId=1 JobName=grade\n   JobState=PENDING Reason=Resources\n";
    assert_eq!(doomed(running), None);
    let failed =
        format!("{running}\nJobId=9 ArrayTaskId=2\n   JobState=FAILED Reason=NonZeroExitCode\n");
    assert!(doomed(&failed).is_some_and(|r| r.contains("JobId=9")));
    let stuck = "JobId=10 JobName=merge\n   JobState=PENDING Reason=DependencyNeverSatisfied Dependency=afterok:7_*(failed)\n";
    assert!(doomed(stuck).is_some_and(|r| r.contains("JobId=10")));
    assert_eq!(
        doomed("JobId=11\n   JobState=COMPLETED Reason=None\n"),
        None
    );
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(root().join("tests/slurm/cluster.sh"))
            .arg("stop")
            .arg(self.dir.path())
            .status();
    }
}

/// PATH with the grundy under test first.
fn path_with_grundy() -> std::ffi::OsString {
    let bin = Path::new(env!("CARGO_BIN_EXE_grundy"))
        .parent()
        .expect("bin folder")
        .to_path_buf();
    let mut dirs = vec![bin];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs).expect("PATH")
}

/// The batch tests' class, without its memory hog: whether that program
/// is stopped by the memory limit (MLE) or first spends its 0.2 s of CPU
/// time (TLE) has been seen to differ between a run here and a run inside
/// a Slurm job on a loaded machine, and this test is about the scripts,
/// not about that verdict.
fn class_for_slurm(dir: &Path) {
    make_class(dir, 9);
    let hog = template("mle.c");
    let files = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file());
    for f in files {
        if std::fs::read_to_string(f.path()).is_ok_and(|t| t == hog) {
            std::fs::write(f.path(), template("wa.c")).expect("write");
        }
    }
}

fn whole_run(class: &Path, out: &Path) {
    let o: Output = run(&[
        "grade",
        &class.to_string_lossy(),
        "--out",
        &out.to_string_lossy(),
        "--jobs",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
}

/// Submits the array (3 tasks, one CPU each) and, after it, the merge;
/// returns the array's job id once the merge has ended.
fn array_then_merge(
    c: &Cluster,
    class: &Path,
    shards: &Path,
    extra_env: &[(&str, &Path)],
    after_submit: impl FnOnce(&str),
) -> String {
    let script = root().join("deploy/slurm/grade-array.sbatch");
    let mut cmd = c.cmd("sbatch");
    for (k, v) in extra_env {
        cmd.env(k, v);
    }
    let out = cmd
        .args([
            "--parsable",
            "--array=0-2",
            "--cpus-per-task=1",
            "--mem=100M",
        ])
        .arg(&script)
        .arg(class)
        .arg(shards)
        .output()
        .expect("sbatch");
    assert!(
        out.status.success(),
        "sbatch the array: {}\n{}",
        text(&out.stderr),
        c.logs()
    );
    let array = text(&out.stdout)
        .trim()
        .split(';')
        .next()
        .unwrap_or_default()
        .to_string();
    after_submit(&array);
    let merge = c.sbatch(&[
        &format!("--dependency=afterok:{array}"),
        "--mem=100M",
        &root().join("deploy/slurm/merge.sbatch").to_string_lossy(),
        &shards.to_string_lossy(),
    ]);
    c.wait_gone(&array);
    c.wait_gone(&merge);
    let state = c.show(&merge);
    assert!(
        state.contains("JobState=COMPLETED"),
        "the merge job did not complete:\n{state}\n{}",
        c.logs()
    );
    array
}

#[test]
fn slurm_array_and_merge_on_a_real_cluster_equal_one_run() {
    let Some(c) = Cluster::start() else { return };
    let t = tempfile::tempdir().expect("tempdir");
    let class = t.path().join("class");
    class_for_slurm(&class);
    whole_run(&class, &t.path().join("whole"));
    let shards = t.path().join("shards");
    array_then_merge(&c, &class, &shards, &[], |_| {});
    for k in 0..3 {
        assert!(
            shards.join(format!("shard-{k}/journal.jsonl")).is_file(),
            "shard {k}"
        );
    }
    assert_same_reports(&t.path().join("whole"), &shards.join("merged"));
}

/// The grundy a task runs: on task 1's first attempt it judges until a
/// result is in the journal, then dies as if its node had (kill -9), and
/// asks Slurm to requeue the task; every other run is plain grundy.
const DYING_TASK: &str = r#"#!/bin/bash
out=""
prev=""
for a in "$@"; do [ "$prev" = "--out" ] && out="$a"; prev="$a"; done
if [ "$SLURM_ARRAY_TASK_ID" = 1 ] && [ "${SLURM_RESTART_COUNT:-0}" = 0 ]; then
  grundy "$@" &
  pid=$!
  while ! [ -s "$out/journal.jsonl" ] && kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
  kill -9 "$pid" 2>/dev/null
  wait "$pid"
  grep -c . "$out/journal.jsonl" > "$MARKER.tmp" && mv "$MARKER.tmp" "$MARKER"
  trap '' TERM
  scontrol requeue "${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}"
  sleep 600
  exit 1
fi
exec grundy "$@"
"#;

#[test]
fn slurm_requeued_task_continues_and_merges_to_one_run() {
    let Some(c) = Cluster::start() else { return };
    let t = tempfile::tempdir().expect("tempdir");
    let class = t.path().join("class");
    class_for_slurm(&class);
    whole_run(&class, &t.path().join("whole"));
    let shards = t.path().join("shards");
    let wrapper = t.path().join("dying-grundy");
    std::fs::write(&wrapper, DYING_TASK).expect("write");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let marker = t.path().join("died");
    let array = array_then_merge(
        &c,
        &class,
        &shards,
        &[("GRUNDY", &wrapper), ("MARKER", &marker)],
        |array| {
            let task = format!("{array}_1");
            // A requeued job waits a while before it may start again: once
            // it is pending for that reason, let it start two seconds from
            // now, once. Not `now`: the node refuses to launch a job whose
            // credential is dated the same second as the kill of its first
            // attempt ("already killed, do not launch batch job"), and the
            // task then fails. That wait is why Slurm delays a requeued
            // job. (If the update is refused, it starts later all the same.)
            let mut hurried = false;
            c.wait("task 1 to die, be requeued and start again", || {
                c.assert_not_doomed(array);
                let s = c.show(&task);
                // Restarted without leaving its count: the first attempt
                // judged nothing, and the marker will never come.
                let restarted = s.contains("Restarts=1") && !s.contains("JobState=PENDING");
                assert!(
                    marker.is_file() || !restarted,
                    "task 1 was requeued without a result in its journal:\n{s}\n{}",
                    c.logs()
                );
                if !marker.is_file() {
                    return false;
                }
                if !s.contains("Restarts=1") {
                    return false;
                }
                if s.contains("JobState=PENDING") {
                    // Only once its first attempt has ended on the node
                    // (not "PENDING,COMPLETING"), so that the kill comes first.
                    if !hurried && s.contains("JobState=PENDING ") {
                        hurried = true;
                        let _ = c
                            .cmd("scontrol")
                            .args(["update", &format!("JobId={task}"), "StartTime=now+2"])
                            .output();
                    }
                    return false;
                }
                // Until then it is COMPLETING (the first attempt ending).
                ["RUNNING", "COMPLETED", "FAILED", "CANCELLED"]
                    .iter()
                    .any(|state| s.contains(&format!("JobState={state} ")))
            });
        },
    );
    let judged_before: usize = std::fs::read_to_string(&marker)
        .expect("marker")
        .trim()
        .parse()
        .expect("a count");
    assert!(judged_before >= 1, "the first attempt left no result");
    let task = c.show(&format!("{array}_1"));
    assert!(task.contains("Restarts=1"), "{task}");
    assert_same_reports(&t.path().join("whole"), &shards.join("merged"));
}
