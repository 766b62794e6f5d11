//! The hostile corpus judged by an ordinary user: the test (when root)
//! starts the judge as `nobody`, with `RLIMIT_NPROC` and `RLIMIT_AS` as its
//! cage, so the sandbox must make do with what a user may: Landlock,
//! seccomp, a user and pid namespace, resource limits. Without root these
//! tests are the ones of tests/sandbox.rs and are skipped.

#[path = "hostile/harness.rs"]
mod harness;
#[path = "hostile/scenarios.rs"]
mod scenarios;

/// `nobody`, or a skip outside CI (see `harness::nobody`).
fn nobody() -> Option<harness::As> {
    harness::nobody("the user mechanisms are what tests/sandbox.rs tests")
}

#[test]
fn user_reads_nothing_of_the_judge() {
    if let Some(who) = nobody() {
        scenarios::reads_nothing_of_the_judge(who);
    }
}

#[test]
fn user_compiler_cannot_include_answers() {
    if let Some(who) = nobody() {
        scenarios::compiler_cannot_include_answers(who);
    }
}

#[test]
fn user_writes_nowhere_else() {
    if let Some(who) = nobody() {
        scenarios::writes_nowhere_else(who);
    }
}

#[test]
fn user_no_network() {
    if let Some(who) = nobody() {
        scenarios::no_network(who, true);
    }
}

#[test]
fn user_no_judge_environment() {
    if let Some(who) = nobody() {
        scenarios::no_judge_environment(who);
    }
}

#[test]
fn user_kills_nothing_outside() {
    if let Some(who) = nobody() {
        scenarios::kills_nothing_outside(who);
    }
}

#[test]
fn user_leaves_no_daemon() {
    if let Some(who) = nobody() {
        scenarios::leaves_no_daemon(who);
    }
}

#[test]
fn user_fork_bomb_is_contained() {
    if let Some(who) = nobody() {
        scenarios::fork_bomb_is_contained(who);
    }
}

#[test]
fn user_disk_fill_is_bounded() {
    if let Some(who) = nobody() {
        scenarios::disk_fill_is_bounded(who);
    }
}

#[test]
fn user_threads_count_towards_cpu() {
    if let Some(who) = nobody() {
        scenarios::threads_count_towards_cpu(who);
    }
}

#[test]
fn user_memory_growth_is_mle() {
    if let Some(who) = nobody() {
        scenarios::memory_growth_is_mle(who);
    }
}

#[test]
fn user_small_processes_overflowing_memory() {
    if let Some(who) = nobody() {
        scenarios::small_processes_overflowing_memory(who);
    }
}

#[test]
fn user_memory_held_by_many_children_is_mle() {
    if let Some(who) = nobody() {
        scenarios::memory_held_by_many_children_is_mle(who);
    }
}

#[test]
fn user_a_worker_pool_within_the_limit_is_ac() {
    if let Some(who) = nobody() {
        scenarios::a_worker_pool_within_the_limit_is_ac(who);
    }
}

#[test]
fn user_legitimate_programs_pass() {
    if let Some(who) = nobody() {
        // pyenv's Python and the JVM's state live under /root, out of
        // nobody's reach on this kind of machine: native code only.
        scenarios::legitimate_programs_pass(who, false);
    }
}

#[test]
fn user_isolation_is_reported() {
    if let Some(who) = nobody() {
        scenarios::isolation_is_reported(
            who,
            &[
                "landlock",
                "seccomp",
                "user namespace",
                "pid namespace",
                "mount view",
            ],
        );
    }
}

#[test]
fn user_runs_go_first_to_the_oom_killer() {
    if let Some(who) = nobody() {
        scenarios::runs_go_first_to_the_oom_killer(who);
    }
}

/// As an ordinary user the sandbox cannot count the buffers of socket
/// pairs (allowed to the JVM): `grade` refuses untrusted code (exit 2,
/// naming what is missing) unless told `--allow-weak-sandbox`, and then
/// grades. Memory held in several processes is measured, and with user
/// namespaces the mount view keeps the judge's files out of reach, so
/// neither is a reason to refuse.
#[test]
fn user_grade_refuses_a_weak_sandbox_unless_allowed() {
    use std::os::unix::process::CommandExt;
    let Some(who) = nobody() else {
        return;
    };
    let p = harness::Project::new(who);
    p.problem("p", "token\n", "limits:\n  time: 2s\n  memory: 64MiB");
    p.write("class/alice.c", &harness::source("reference.c"));
    p.hand_over();
    let _serial = harness::SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let grade = |extra: &[&str]| {
        let mut cmd = p.grundy();
        cmd.args(extra)
            .arg("grade")
            .arg(p.path("class"))
            .arg("--problem")
            .arg("p")
            .arg("--out")
            .arg(p.path("out"))
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", p.path("home"))
            .current_dir(p.dir.path())
            .uid(harness::NOBODY)
            .gid(harness::NOBODY);
        // Another test's thread may fork while it copies its own binary,
        // holding a writable descriptor to a file like ours for a moment
        // (ETXTBSY): try again.
        let mut tries = 0;
        let out = loop {
            match cmd.output() {
                Err(e) if e.raw_os_error() == Some(libc::ETXTBSY) && tries < 100 => {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                r => break r.expect("grundy grade"),
            }
        };
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stderr) = grade(&[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("memory cgroup")
            && !stderr.contains("chmod")
            && !stderr.contains("several processes"),
        "{stderr}"
    );
    assert!(!p.path("out").exists(), "refused, yet graded");
    let (code, stderr) = grade(&["--allow-weak-sandbox"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(p.path("out/grades.csv").exists(), "{stderr}");
}
