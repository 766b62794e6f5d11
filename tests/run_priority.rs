//! Runs at a lower CPU priority than the judge (`Runner::niceness`, and
//! `grundy serve --run-niceness`, 10 by default): a server that judges on
//! the machine it answers pages from lets its pages win the CPUs. The
//! programs read their own niceness; nothing here depends on timing.

mod common;
mod serve_support;

use std::time::Duration;

use common::Project;
use grundy::problem::Bytes;
use grundy::sandbox::{Mode, RunLimits, RunSpec, Runner};
use serve_support::*;

/// This process's niceness (field 19 of `/proc/self/stat`): the tests may
/// themselves run under `nice`, and runs add to what they inherit.
fn own_niceness() -> i32 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
    let after = stat
        .rsplit_once(')')
        .expect("stat has the command in parentheses")
        .1;
    after
        .split_whitespace()
        .nth(16)
        .and_then(|n| n.parse().ok())
        .expect("the niceness field")
}

/// What niceness a run of `runner` sees for itself.
fn niceness_seen(runner: &Runner) -> i32 {
    let dir = tempfile::tempdir().expect("temporary folder");
    let work = dir.path().join("work");
    std::fs::create_dir(&work).expect("work folder");
    let out = dir.path().join("stdout");
    let spec = RunSpec {
        // `nice` without a command prints the niceness it runs at (a
        // sandboxed run may not read /proc).
        argv: vec!["nice".into()],
        workdir: work,
        stdin: "/dev/null".into(),
        stdout: out.clone(),
        env: vec![("PATH".into(), "/usr/bin:/bin".into())],
        limits: RunLimits {
            cpu: Duration::from_secs(2),
            wall: RunLimits::wall_for(Duration::from_secs(2)),
            memory: Bytes::mib(256),
            address_space: None,
            output: Bytes::mib(1),
        },
        keep_workdir: false,
    };
    let outcome = runner
        .run(&spec)
        .expect("the run starts (a sandbox is available here)");
    assert_eq!(outcome.exit, grundy::sandbox::Exit::Code(0), "{outcome:?}");
    let text = std::fs::read_to_string(&out).expect("the run's output");
    text.trim()
        .parse()
        .unwrap_or_else(|_| panic!("a niceness: {text:?}"))
}

/// Sandboxed and not, a run gets the judge's niceness plus the runner's,
/// at most 19; by default exactly the judge's.
#[test]
fn runs_add_the_runners_niceness_to_the_judges() {
    let base = own_niceness();
    for mode in [Mode::Auto, Mode::Off] {
        let mut runner = Runner::new(mode);
        assert_eq!(niceness_seen(&runner), base, "default, {mode:?}");
        runner.niceness = 3;
        assert_eq!(niceness_seen(&runner), (base + 3).min(19), "+3, {mode:?}");
        runner.niceness = 19;
        assert_eq!(niceness_seen(&runner), 19, "+19, {mode:?}");
    }
}

/// A submission to the server runs at the server's niceness plus 10 unless
/// told otherwise: a program that answers only at the niceness it expects
/// (and otherwise prints something else) gets the verdict and score of the
/// same program without that condition, and is judged wrong under
/// `--run-niceness 0`.
#[test]
fn the_server_judges_at_a_lower_priority_than_it_answers() {
    let expected = (own_niceness() + 10).min(19);
    let gated = format!(
        "import os\nif os.getpriority(os.PRIO_PROCESS, 0) != {expected}:\n    print('niceness', os.getpriority(os.PRIO_PROCESS, 0))\n    raise SystemExit(0)\n{TOY_PY}"
    );
    let people = "login,name,role\nana,Ana,team\n";
    for (extra, lower) in [(&[][..], true), (&["--run-niceness", "0"][..], false)] {
        let p = Project::toy("");
        let server = Server::start_args(&p, &contest_yaml(""), 1, extra);
        let pw = accounts(&p, people);
        let mut ana = signed(&server, &pw, "ana");
        let plain = Client::submitted_id(&ana.submit("toy", "plain.py", TOY_PY.as_bytes()));
        let id = Client::submitted_id(&ana.submit("toy", "gated.py", gated.as_bytes()));
        let (plain, gated) = (ana.verdict(plain), ana.verdict(id));
        assert_ne!(
            plain.0, "WA",
            "{extra:?}: the program without the condition"
        );
        if lower {
            assert_eq!(gated, plain, "{extra:?}");
        } else {
            assert_eq!(gated.0, "WA", "{extra:?}");
        }
    }
}
