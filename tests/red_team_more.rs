//! More red-team attacks (sources in tests/hostile/red), and the items of
//! the trust audit whose first tests checked only a verdict, judged again
//! here with the checks every attack gets from the shared harness
//! (tests/common/attack.rs): the judge exits with the code of its verdict,
//! no file of the project changed or appeared (problems, submissions,
//! `$HOME`, the cached answers), nothing named after the attack appeared in
//! `/tmp`, `/dev/shm` or `/var/tmp` or anywhere in the project, the cache's
//! scratch folder is empty, and no process of the run is left.
//!
//! Each judge runs in a cage of its own (tests/hostile/harness.rs: a
//! process and memory cap around it). `user_` tests judge as `nobody`
//! and fail under `CI=true` when they cannot run. Where an attack can
//! work at all, a control judges it with `--sandbox off` and sees it
//! succeed, so that its test can fail.

#[path = "common/attack.rs"]
mod attack;
#[path = "hostile/harness.rs"]
mod harness;

use std::path::{Path, PathBuf};

use attack::{
    Attack, LIMITS_DEFAULT, LIMITS_SMALL, NOT_ROOT, control_possible, expect, me, remove_all,
};
use harness::{As, nobody};

// ---------------------------------------------------------------------
// Reading answers

fn hardlink(who: As, off: bool) {
    let mut a = Attack::new(who, &[], LIMITS_DEFAULT);
    a.off = off;
    let lines: Vec<String> = a.answers.iter().map(|p| p.display().to_string()).collect();
    a.input(1, &lines, LIMITS_DEFAULT);
    let j = a.run("red/hardlink_answer.c", None);
    expect(&j, off);
    if !off {
        assert!(!j.show().contains("ANSWER-SECRET"), "{}", j.show());
    }
}

/// A hard link to a cached answer made in its own folder, or the answer
/// renamed into it, then read there: neither can be made.
#[test]
fn answers_cannot_be_linked_or_moved_in() {
    hardlink(As::Me, false);
}

#[test]
fn user_answers_cannot_be_linked_or_moved_in() {
    if let Some(who) = nobody(NOT_ROOT) {
        hardlink(who, false);
    }
}

fn hunt(who: As, off: bool) {
    let mut a = Attack::new(who, &[me()], LIMITS_DEFAULT);
    a.off = off;
    let j = a.run("red/cache_hunt.c", None);
    expect(&j, off);
    if !off {
        assert!(!j.show().contains("ANSWER-SECRET"), "{}", j.show());
    }
}

/// The cache found without being told: upwards from its own program's
/// path, from the mount table, from `--cache` in the judge's command line;
/// every `*.ans` below read. Nothing is found.
#[test]
fn the_cache_cannot_be_hunted_down() {
    hunt(As::Me, false);
}

#[test]
fn user_the_cache_cannot_be_hunted_down() {
    if let Some(who) = nobody(NOT_ROOT) {
        hunt(who, false);
    }
}

// ---------------------------------------------------------------------
// Compile-time tricks

/// A C source whose build includes `@PATH@` when the compiler can see it,
/// and whose program says so.
const HAS_INCLUDE_C: &str = "#include <stdio.h>\n#if __has_include(\"@PATH@\")\n#define FOUND 1\n#else\n#define FOUND 0\n#endif\nint main(void){char t[256];if(!fgets(t,sizeof t,stdin))return 1;if(FOUND)puts(\"PWNED the answer is there\");else fputs(t,stdout);return 0;}\n";

fn probe_at_compile_time(who: As, off: bool) {
    let mut a = Attack::new(who, &[], LIMITS_DEFAULT);
    a.off = off;
    let answer = a.answers[0].display().to_string();
    let j = a.run(
        "red/has_include.c",
        Some(HAS_INCLUDE_C.replace("@PATH@", &answer)),
    );
    expect(&j, off);
}

/// `__has_include` of a cached answer: the compiler learns nothing of it
/// (it is not in the view), so the program cannot tell its path exists.
#[test]
fn compiler_cannot_probe_for_answers() {
    probe_at_compile_time(As::Me, false);
}

#[test]
fn user_compiler_cannot_probe_for_answers() {
    if let Some(who) = nobody(NOT_ROOT) {
        probe_at_compile_time(who, false);
    }
}

fn include_system_secret(who: As, off: bool) {
    let mut a = Attack::new(who, &[], LIMITS_DEFAULT);
    a.off = off;
    let text = "#include \"/etc/shadow\"\nint main(void){return 0;}\n".to_string();
    let j = a.run("red/shadow.c", Some(text));
    assert_eq!(j.verdict(), "CE", "{}", j.show());
    let log = j.result["compile"]["log"].as_str().unwrap_or("");
    // Its first line names root's account, as `/etc/passwd`'s does.
    assert_eq!(log.contains("root:"), off, "{log}");
}

/// `#include "/etc/shadow"`: a compile error that quotes nothing of it.
#[test]
fn compiler_cannot_include_the_shadow_file() {
    if !Path::new("/etc/shadow").exists() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but there is no /etc/shadow"
        );
        return;
    }
    include_system_secret(As::Me, false);
}

#[test]
fn user_compiler_cannot_include_the_shadow_file() {
    if let Some(who) = nobody(NOT_ROOT) {
        include_system_secret(who, false);
    }
}

/// A Python program on three tests that plants a module next to its own
/// script (the cache's copy, found through `__file__`), in its folder, and
/// in the folders on its input, then imports it on the next test.
const PLANT_PY: &str = r#"import os, sys
token = sys.stdin.readline().strip()
dirs = [os.path.dirname(os.path.abspath(__file__)), os.getcwd()]
dirs += [l.strip() for l in sys.stdin if l.strip()]
for d in dirs:
    if d not in sys.path:
        sys.path.append(d)
try:
    import grundy_red_planted
    print("PWNED imported what an earlier run planted")
    sys.exit(0)
except ImportError:
    pass
for d in dirs:
    try:
        with open(os.path.join(d, "grundy_red_planted.py"), "w") as f:
            f.write("PLANTED = True\n")
    except OSError:
        pass
print(token)
"#;

fn python_plant(who: As, off: bool) {
    let mut a = Attack::new(who, &[], LIMITS_DEFAULT);
    a.off = off;
    let lines = [a.p.path("cache"), a.p.path("cache/bin"), a.p.path("home")]
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>();
    a.input(3, &lines, LIMITS_DEFAULT);
    let j = a.run("plant.py", Some(PLANT_PY.to_string()));
    let planted: Vec<PathBuf> = walkdir::WalkDir::new(a.p.dir.path())
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name() == "grundy_red_planted.py")
        .map(|e| e.path().to_path_buf())
        .collect();
    remove_all(&planted);
    if off {
        assert!(j.verdicts().contains(&"WA".into()), "{}", j.show());
    } else {
        assert_eq!(j.verdicts(), ["AC", "AC", "AC"], "{}", j.show());
        assert!(planted.is_empty(), "planted: {planted:?}");
    }
}

/// The cached Python program's folder, the cache and `$HOME` take no
/// module for a later run to import.
#[test]
fn python_cannot_plant_a_module_for_later_runs() {
    python_plant(As::Me, false);
}

#[test]
fn user_python_cannot_plant_a_module_for_later_runs() {
    if let Some(who) = nobody(NOT_ROOT) {
        python_plant(who, false);
    }
}

// ---------------------------------------------------------------------
// Persisting

fn plant(who: As, off: bool) {
    let mut a = Attack::new(who, &[], LIMITS_DEFAULT);
    a.off = off;
    let lines = [
        a.p.path("home"),
        a.p.path("cache"),
        a.p.path("cache/bin"),
        a.p.path("cache/tmp"),
        a.p.path("problems/p"),
        PathBuf::from("/tmp"),
        PathBuf::from("/dev/shm"),
        PathBuf::from("/var/tmp"),
    ]
    .iter()
    .map(|p| p.display().to_string())
    .collect::<Vec<_>>();
    a.input(3, &lines, LIMITS_DEFAULT);
    let j = a.run("red/plant_for_later.c", None);
    if off {
        assert!(j.verdicts().contains(&"WA".into()), "{}", j.show());
        assert!(j.show().contains("PWNED"), "{}", j.show());
    } else {
        assert_eq!(j.verdicts(), ["AC", "AC", "AC"], "{}", j.show());
    }
}

/// A file, a FIFO, a link and an unreadable folder left in its own
/// folder, next to its program, in the cache, `$HOME`, the problem and the
/// shared temporary folders, for the next test to find: none is found,
/// none remains.
#[test]
fn nothing_planted_survives_to_the_next_test() {
    plant(As::Me, false);
}

#[test]
fn user_nothing_planted_survives_to_the_next_test() {
    if let Some(who) = nobody(NOT_ROOT) {
        plant(who, false);
    }
}

fn reaper(who: As, off: bool) {
    let mut a = Attack::new(who, &[], LIMITS_DEFAULT);
    a.off = off;
    let tag = a.tag.clone();
    a.input(1, &[format!("grundy-red-daemon-{tag}")], LIMITS_DEFAULT);
    let j = a.run("red/reaper_daemon.c", None);
    if off {
        assert!(!j.marked.is_empty(), "no daemon got away: {}", j.show());
    } else {
        assert_eq!(j.verdict(), "AC", "{}", j.show());
    }
}

/// A subreaper whose children leave its session and process group, ignore
/// SIGHUP and SIGTERM, double-fork, or are made its siblings with
/// `CLONE_PARENT`: none outlives the run.
#[test]
fn no_daemon_outlives_the_run_however_made() {
    reaper(As::Me, false);
}

#[test]
fn user_no_daemon_outlives_the_run_however_made() {
    if let Some(who) = nobody(NOT_ROOT) {
        reaper(who, false);
    }
}

// ---------------------------------------------------------------------
// Escaping

/// `TIOCSTI` into its streams and `/dev/tty`, `TIOCSCTTY`: no terminal to
/// push a command into.
#[test]
fn no_terminal_to_type_into() {
    let a = Attack::new(As::Me, &[], LIMITS_DEFAULT);
    let j = a.run("red/tty_inject.c", None);
    assert_eq!(j.verdict(), "AC", "{}", j.show());
}

#[test]
fn user_no_terminal_to_type_into() {
    if let Some(who) = nobody(NOT_ROOT) {
        let a = Attack::new(who, &[], LIMITS_DEFAULT);
        let j = a.run("red/tty_inject.c", None);
        assert_eq!(j.verdict(), "AC", "{}", j.show());
    }
}

// ---------------------------------------------------------------------
// Resources (issue items 5, 7, 9 and 10 with the checks above)

fn deep_fill(who: As) {
    let a = Attack::new(who, &[], LIMITS_SMALL);
    let j = a.run("red/deep_fill.c", None);
    let iso = j.result["isolation"].as_str().unwrap_or("");
    assert!(iso.contains("tmpfs working folder"), "{}", j.show());
    assert_eq!(j.verdict(), "OLE", "{}", j.show());
    // The kernel held it to the cap.
    let stderr = j.result["tests"][0]["stderr"].as_str().unwrap_or("");
    let held = stderr
        .lines()
        .find_map(|l| l.strip_prefix("held "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse::<u64>().ok());
    assert!(held.is_some_and(|mib| mib <= 8), "{}", j.show());
}

/// Files 3000 folders deep (far past `PATH_MAX`, where a walk by path
/// cannot reach), 64 MiB against an 8 MiB cap: the kernel refuses past the
/// cap, the run is OLE, and the tree is removed.
#[test]
fn disk_cap_counts_files_deeper_than_path_max() {
    deep_fill(As::Me);
}

#[test]
fn user_disk_cap_counts_files_deeper_than_path_max() {
    if let Some(who) = nobody(NOT_ROOT) {
        deep_fill(who);
    }
}

fn leave_files(who: As, off: bool) {
    // 40 MiB left by each test under a 96 MiB memory limit: a third run in
    // the same slot would be over it if the earlier runs' files lived on.
    let limits = "limits:\n  time: 2s\n  memory: 96MiB\n  output: 64MiB";
    let mut a = Attack::new(who, &[], limits);
    a.off = off;
    a.input(12, &[], limits);
    let j = a.run("red/leave_files.c", None);
    let verdicts = j.verdicts();
    assert_eq!(verdicts.len(), 12, "{}", j.show());
    assert!(verdicts.iter().all(|v| v == "AC"), "{}", j.show());
}

/// Each test leaves 40 MiB of files in its working folder: the next test
/// sees none of them, and their memory is not charged to it (twelve tests
/// over at most two slots, under a 96 MiB limit).
#[test]
fn files_a_run_leaves_are_gone_before_the_next_run() {
    leave_files(As::Me, false);
}

#[test]
fn user_files_a_run_leaves_are_gone_before_the_next_run() {
    if let Some(who) = nobody(NOT_ROOT) {
        leave_files(who, false);
    }
}

/// Without the sandbox nothing but the judge removes them: the next run
/// does not see them either.
#[test]
fn files_a_run_leaves_are_gone_without_the_sandbox_too() {
    leave_files(As::Me, true);
}

/// Item 5: 1 GiB reserved and touched under 64 MiB is MLE with a memory
/// group, reserved and 8 MiB touched is AC (RE for both under the
/// address-space cap), and neither leaves anything.
#[test]
fn memory_past_the_limit_leaves_nothing() {
    let a = Attack::new(As::Me, &[], LIMITS_SMALL);
    let touched = a.run("mem_touch_1g.c", None);
    let lazy = a.run("mem_lazy_1g.c", None);
    let iso = lazy.result["isolation"].as_str().unwrap_or("");
    if iso.contains("cgroups") {
        assert_eq!(touched.verdict(), "MLE", "{}", touched.show());
        assert_eq!(lazy.verdict(), "AC", "{}", lazy.show());
    } else {
        assert!(iso.contains("address-space cap"), "{iso}");
        assert_eq!(touched.verdict(), "RE", "{}", touched.show());
        assert_eq!(lazy.verdict(), "RE", "{}", lazy.show());
    }
}

/// Item 7: a stderr flood is never a verdict of its own (TLE on time for
/// one without end, AC for 2 GiB then the answer), and leaves nothing.
#[test]
fn stderr_floods_leave_nothing() {
    let a = Attack::new(As::Me, &[], LIMITS_SMALL);
    let j = a.run("stderr_flood.c", None);
    assert_eq!(j.verdict(), "TLE", "{}", j.show());
    let a = Attack::new(
        As::Me,
        &[],
        "limits:\n  time: 20s\n  memory: 64MiB\n  output: 8MiB",
    );
    let j = a.run("stderr_then_answer.c", None);
    assert_eq!(j.verdict(), "AC", "{}", j.show());
}

fn many_small(who: As) {
    let a = Attack::new(who, &[], LIMITS_SMALL);
    let j = a.run("many_small.c", None);
    assert_eq!(j.verdict(), "MLE", "{}", j.show());
}

/// Item 9: many small processes over the memory limit are MLE, with no
/// process of the run or of the judge's helpers left.
#[test]
fn small_processes_over_memory_leave_nothing() {
    many_small(As::Me);
}

#[test]
fn user_small_processes_over_memory_leave_nothing() {
    if let Some(who) = nobody(NOT_ROOT) {
        many_small(who);
    }
}

/// Item 8: a Java class whose name no file system takes is CE naming the
/// file name, with nothing of the compile left.
#[test]
fn java_class_name_too_long_is_ce_and_leaves_nothing() {
    let a = Attack::new(As::Me, &[], LIMITS_DEFAULT);
    let name = format!("C{}", "x".repeat(300));
    let text = format!(
        "public class {name} {{ public static void main(String[] a) {{ System.out.println(\"x\"); }} }}\n"
    );
    let j = a.run("Long.java", Some(text));
    assert_eq!(j.verdict(), "CE", "{}", j.show());
    let log = j.result["compile"]["log"].as_str().unwrap_or("");
    assert!(log.contains("file name"), "{log}");
}

// ---------------------------------------------------------------------
// Controls

/// The attacks above that can work get through with `--sandbox off` (as
/// root), so their tests can fail.
#[test]
fn controls_without_sandbox_get_through() {
    if !control_possible() {
        return;
    }
    hardlink(As::Me, true);
    hunt(As::Me, true);
    probe_at_compile_time(As::Me, true);
    include_system_secret(As::Me, true);
    python_plant(As::Me, true);
    plant(As::Me, true);
    reaper(As::Me, true);
}
