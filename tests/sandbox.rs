//! The hostile corpus (tests/hostile), judged by the real binary as the
//! test's own user: root in CI, where runs get the root mechanisms (run uid,
//! mount view, cgroups), or an ordinary user elsewhere. Every judge runs in
//! a cage of the test's (see tests/hostile/harness.rs).

#[path = "hostile/harness.rs"]
mod harness;
#[path = "hostile/scenarios.rs"]
mod scenarios;

use harness::As;

#[test]
fn reads_nothing_of_the_judge() {
    scenarios::reads_nothing_of_the_judge(As::Me);
}

#[test]
fn compiler_cannot_include_answers() {
    scenarios::compiler_cannot_include_answers(As::Me);
}

#[test]
fn writes_nowhere_else() {
    scenarios::writes_nowhere_else(As::Me);
}

#[test]
fn control_writes_without_sandbox() {
    scenarios::control_writes_without_sandbox(As::Me);
}

#[test]
fn no_network() {
    scenarios::no_network(As::Me, true);
}

#[test]
fn control_network_without_sandbox() {
    scenarios::no_network(As::Me, false);
}

#[test]
fn no_judge_environment() {
    scenarios::no_judge_environment(As::Me);
}

#[test]
fn kills_nothing_outside() {
    scenarios::kills_nothing_outside(As::Me);
}

#[test]
fn leaves_no_daemon() {
    scenarios::leaves_no_daemon(As::Me);
}

#[test]
fn fork_bomb_is_contained() {
    scenarios::fork_bomb_is_contained(As::Me);
}

#[test]
fn disk_fill_is_bounded() {
    scenarios::disk_fill_is_bounded(As::Me);
}

#[test]
fn stderr_flood_is_bounded() {
    scenarios::stderr_flood_is_bounded(As::Me);
}

#[test]
fn stderr_gigabytes_then_answer_is_ac() {
    scenarios::stderr_gigabytes_then_answer_is_ac(As::Me, &[]);
}

#[test]
fn stderr_gigabytes_then_answer_is_ac_without_sandbox() {
    scenarios::stderr_gigabytes_then_answer_is_ac(As::Me, &["--sandbox", "off"]);
}

#[test]
fn threads_count_towards_cpu() {
    scenarios::threads_count_towards_cpu(As::Me);
}

#[test]
fn memory_growth_is_mle() {
    scenarios::memory_growth_is_mle(As::Me);
}

#[test]
fn small_processes_overflowing_memory() {
    scenarios::small_processes_overflowing_memory(As::Me);
}

#[test]
fn memory_held_by_many_children_is_mle() {
    scenarios::memory_held_by_many_children_is_mle(As::Me);
}

#[test]
fn a_worker_pool_within_the_limit_is_ac() {
    scenarios::a_worker_pool_within_the_limit_is_ac(As::Me);
}

#[test]
fn legitimate_programs_pass() {
    scenarios::legitimate_programs_pass(As::Me, true);
}

#[test]
fn isolation_is_reported() {
    let expected: &[&str] = if harness::is_root() {
        &[
            "landlock",
            "seccomp",
            "pid namespace",
            "unprivileged uid",
            "cgroups",
        ]
    } else {
        &["landlock", "seccomp"]
    };
    scenarios::isolation_is_reported(As::Me, expected);
}

#[test]
fn runs_go_first_to_the_oom_killer() {
    scenarios::runs_go_first_to_the_oom_killer(As::Me);
}

#[test]
fn memory_is_what_is_touched() {
    scenarios::memory_is_what_is_touched(As::Me);
}
