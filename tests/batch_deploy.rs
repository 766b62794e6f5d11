//! The deployment files work: the Slurm array script and the Kubernetes
//! Indexed Job's command, run here with the variables the schedulers set
//! (SLURM_ARRAY_TASK_ID…, JOB_COMPLETION_INDEX), then merged, give the
//! reports of one unsharded run.

mod batch_support;

use std::path::{Path, PathBuf};
use std::process::Command;

use batch_support::*;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
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

fn whole_run(class: &Path, out: &Path) {
    let o = run(&[
        "grade",
        &class.to_string_lossy(),
        "--out",
        &out.to_string_lossy(),
        "--jobs",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
}

fn check(status: std::process::Output, what: &str) {
    assert!(
        status.status.success(),
        "{what} failed:\n{}\n{}",
        text(&status.stdout),
        text(&status.stderr)
    );
}

#[test]
fn slurm_array_tasks_then_merge_equal_one_run() {
    let t = tempfile::tempdir().expect("tempdir");
    let class = t.path().join("class");
    make_class(&class, 12);
    whole_run(&class, &t.path().join("whole"));
    let shards = t.path().join("shards");
    // --array=5-7: three tasks whose ids start at 5.
    for id in 5..8 {
        let out = Command::new("bash")
            .arg(root().join("deploy/slurm/grade-array.sbatch"))
            .arg(&class)
            .arg(&shards)
            .env("PATH", path_with_grundy())
            .env("SLURM_ARRAY_TASK_ID", id.to_string())
            .env("SLURM_ARRAY_TASK_MIN", "5")
            .env("SLURM_ARRAY_TASK_COUNT", "3")
            .env("SLURM_CPUS_PER_TASK", "1")
            .env("GRUNDY_PROBLEMS", problems())
            .env("GRUNDY_CACHE", cache())
            .output()
            .expect("bash");
        check(out, &format!("array task {id}"));
    }
    let merged = Command::new("bash")
        .arg(root().join("deploy/slurm/merge.sbatch"))
        .arg(&shards)
        .env("PATH", path_with_grundy())
        .output()
        .expect("bash");
    check(merged, "merge");
    assert_same_reports(&t.path().join("whole"), &shards.join("merged"));
}

/// The container's env, command and args from a Job manifest.
fn container(manifest: &str) -> (serde_yaml::Value, Vec<(String, String)>, Vec<String>) {
    let text = std::fs::read_to_string(root().join(manifest)).expect("manifest");
    let job: serde_yaml::Value = serde_yaml::from_str(&text).expect("YAML");
    let c = job["spec"]["template"]["spec"]["containers"][0].clone();
    let env = c["env"]
        .as_sequence()
        .map(|s| {
            s.iter()
                .map(|e| {
                    (
                        e["name"].as_str().unwrap_or("").to_string(),
                        e["value"].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let mut argv: Vec<String> = c["command"]
        .as_sequence()
        .expect("command")
        .iter()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    argv.extend(
        c["args"]
            .as_sequence()
            .expect("args")
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string)),
    );
    (job, env, argv)
}

/// Runs a container's command here, with its env, some of it pointed at
/// local folders.
fn run_container(
    env: &[(String, String)],
    argv: &[String],
    local: &[(&str, &Path)],
    extra: &[(&str, String)],
) {
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..]).env("PATH", path_with_grundy());
    for (k, v) in env {
        cmd.env(k, v);
    }
    for (k, v) in local {
        cmd.env(k, v);
    }
    for (k, v) in extra {
        cmd.env(k, v);
    }
    check(
        cmd.output().expect("run the container command"),
        &argv.join(" "),
    );
}

#[test]
fn kubernetes_indexed_job_then_merge_equal_one_run() {
    let t = tempfile::tempdir().expect("tempdir");
    let class = t.path().join("class");
    make_class(&class, 12);
    whole_run(&class, &t.path().join("whole"));
    let out = t.path().join("out");
    let (job, env, argv) = container("deploy/k8s/grade-indexed-job.yaml");
    assert_eq!(job["spec"]["completionMode"], "Indexed");
    let completions = job["spec"]["completions"].as_u64().expect("completions");
    let shards = env
        .iter()
        .find(|(k, _)| k == "SHARDS")
        .map(|(_, v)| v.clone())
        .expect("SHARDS");
    assert_eq!(
        shards,
        completions.to_string(),
        "SHARDS must equal completions"
    );
    let cache_dir = cache();
    let problems_dir = problems();
    let local = [
        ("CLASS_DIR", class.as_path()),
        ("OUT_DIR", out.as_path()),
        ("GRUNDY_PROBLEMS", problems_dir.as_path()),
        ("GRUNDY_CACHE", cache_dir.as_path()),
    ];
    for index in 0..completions {
        run_container(
            &env,
            &argv,
            &local,
            &[("JOB_COMPLETION_INDEX", index.to_string())],
        );
    }
    let (_, env, argv) = container("deploy/k8s/merge-job.yaml");
    run_container(&env, &argv, &[("OUT_DIR", out.as_path())], &[]);
    assert_same_reports(&t.path().join("whole"), &out.join("merged"));
}

/// `kubernetes-validate --strict` against the schemas of one Kubernetes
/// version (offline: the schemas ship with the package; `kubectl
/// --dry-run=client` would need a server).
fn kubernetes_validate(files: &[PathBuf]) -> Option<std::process::Output> {
    let probe = Command::new("kubernetes-validate")
        .arg("--version")
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        let msg = "kubernetes-validate is not installed: run `bash .ci/setup.sh --tests`";
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{msg}");
        eprintln!("skipped: {msg}");
        return None;
    }
    Some(
        Command::new("kubernetes-validate")
            .args(["--strict", "--kubernetes-version", "1.30.0"])
            .args(files)
            .output()
            .expect("kubernetes-validate"),
    )
}

/// The judge hosts' StatefulSet runs `grundy judgehost` on the server
/// with the token of its own pod, from the mounted Secret.
#[test]
fn the_judge_hosts_run_grundy_judgehost_with_their_own_token() {
    let (set, env, argv) = container("deploy/k8s/judgehost.yaml");
    assert_eq!(set["kind"].as_str(), Some("StatefulSet"));
    let script = argv.last().expect("a script");
    assert!(
        script.contains("grundy judgehost --server \"$SERVER\""),
        "{script}"
    );
    assert!(
        script.contains("--token \"/var/run/grundy/tokens/$POD_NAME\""),
        "{script}"
    );
    assert!(
        env.iter()
            .any(|(k, v)| k == "SERVER" && v.starts_with("http://"))
    );
    let mounts = &set["spec"]["template"]["spec"]["containers"][0]["volumeMounts"];
    assert_eq!(
        mounts[0]["mountPath"].as_str(),
        Some("/var/run/grundy/tokens")
    );
    assert_eq!(
        set["spec"]["template"]["spec"]["volumes"][0]["secret"]["secretName"].as_str(),
        Some("grundy-judgehost-tokens")
    );
}

#[test]
fn kubernetes_manifests_validate_against_the_api_schemas() {
    let files: Vec<PathBuf> = ["grade-indexed-job.yaml", "merge-job.yaml", "judgehost.yaml"]
        .iter()
        .map(|f| root().join("deploy/k8s").join(f))
        .collect();
    let Some(out) = kubernetes_validate(&files) else {
        return;
    };
    assert!(
        out.status.success(),
        "{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    // The validator does reject a field the API does not have.
    let t = tempfile::tempdir().expect("tempdir");
    let bad = t.path().join("bad.yaml");
    let text_ok = std::fs::read_to_string(&files[0]).expect("manifest");
    std::fs::write(
        &bad,
        text_ok.replace(
            "completionMode: Indexed",
            "completionMode: Indexed\n  completionz: 4",
        ),
    )
    .expect("write");
    let out = kubernetes_validate(&[bad]).expect("validator present");
    assert!(!out.status.success(), "a misspelt field passed validation");
    assert!(text(&out.stdout).contains("completionz") || text(&out.stderr).contains("completionz"));
}
