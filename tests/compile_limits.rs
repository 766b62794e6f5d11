//! Compiles run under limits of their own (CPU, wall, memory, disk, stdin
//! from /dev/null): a source whose compile would blow one is a compile
//! error naming that limit, remembered like any other, and the judge goes
//! on. Each judge is a real `grundy` process in a cage of its own
//! (tests/hostile/harness.rs).

#[path = "hostile/harness.rs"]
mod harness;

use harness::{As, Project, verdict};

const LIMITS: &str = "limits:\n  time: 2s\n  memory: 64MiB\n  output: 8MiB";

/// A 1 GiB initialised array: the compiler's object file would be 1 GiB,
/// past the compile's 512 MiB disk limit.
const HUGE_OBJECT: &str = "#include <stdio.h>\n\
static char big[1 << 30] = {1};\n\
int main(void) {\n\
    char t[256];\n\
    if (!fgets(t, sizeof t, stdin)) return 1;\n\
    fputs(t, stdout);\n\
    return big[(unsigned char)t[0] * 4096];\n\
}\n";

fn compile_log(r: &serde_json::Value) -> String {
    r["compile"]["log"].as_str().unwrap_or("").to_string()
}

#[test]
fn a_compile_past_its_disk_limit_is_ce_naming_it_and_the_judge_goes_on() {
    let p = Project::new(As::Me);
    p.problem("p", "token\n", LIMITS);
    let huge = p.write("subs/huge.c", HUGE_OBJECT);
    let (r, stderr) = p.judge("p", &huge, &[]);
    assert_eq!(verdict(&r), "CE", "{r}\n{stderr}");
    let log = compile_log(&r);
    assert!(log.contains("compile disk limit"), "{r}\n{stderr}");
    assert!(log.contains("512 MiB"), "{r}\n{stderr}");
    // Remembered by content: the same source again is the same CE.
    let (again, stderr) = p.judge("p", &huge, &[]);
    assert_eq!(verdict(&again), "CE", "{again}\n{stderr}");
    assert_eq!(compile_log(&again), log);
    // The judge, its cache and its compiles are fine afterwards.
    let good = p.submission("reference.c");
    let (ok, stderr) = p.judge("p", &good, &[]);
    assert_eq!(verdict(&ok), "AC", "{ok}\n{stderr}");
    // Nothing of the failed compile stays in the cache (only its message).
    let big: Vec<_> = walkdir::WalkDir::new(p.path("cache"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| {
            e.metadata()
                .is_ok_and(|m| m.is_file() && m.len() > 64 << 20)
        })
        .map(|e| e.path().to_path_buf())
        .collect();
    assert!(big.is_empty(), "large files left in the cache: {big:?}");
}

/// A languages file lowering C's compile memory limit to 1 GiB, so that
/// the test's cage (3 GiB) holds whatever the compiler does.
const C_COMPILE_1GIB: &str = "languages:\n  - id: c\n    compile_memory: 1GiB\n";

/// The preprocessor reads `/dev/zero` to its end, which never comes: its
/// memory grows until something stops it.
const INCLUDES_DEV_ZERO: &str = "#include \"/dev/zero\"\nint main(void) { return 0; }\n";

/// Processes still in the cage's groups (and the groups below them).
fn tasks_left(cage: &harness::Cage) -> Vec<String> {
    let mut left = Vec::new();
    for dir in cage.dirs() {
        for e in walkdir::WalkDir::new(dir)
            .into_iter()
            .filter_map(Result::ok)
        {
            if e.file_name() == "cgroup.procs"
                && let Ok(text) = std::fs::read_to_string(e.path())
            {
                left.extend(text.lines().map(|l| format!("{}: {l}", e.path().display())));
            }
        }
    }
    left
}

/// Every `compile-failed.log` in the cache.
fn remembered_failures(cache: &std::path::Path) -> Vec<std::path::PathBuf> {
    walkdir::WalkDir::new(cache)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name() == "compile-failed.log")
        .map(|e| e.path().to_path_buf())
        .collect()
}

#[test]
fn a_compile_past_its_memory_limit_is_ce_naming_it_remembered_and_leaves_nothing() {
    if !harness::is_root() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but this test needs root: only a memory group holds a compiler to its memory limit"
        );
        eprintln!("not root: compiles have no memory group here, nothing to test");
        return;
    }
    let p = Project::new(As::Me);
    p.problem("p", "token\n", LIMITS);
    let languages = p.write("languages.yaml", C_COMPILE_1GIB);
    let config = ["--languages", languages.to_str().unwrap_or_default()];
    let zero = p.write("subs/zero.c", INCLUDES_DEV_ZERO);
    let _serial = harness::SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (r, stderr, cage) = p.judge_caged("p", &zero, &config);
    assert_eq!(verdict(&r), "CE", "{r}\n{stderr}");
    let log = compile_log(&r);
    assert!(log.contains("compile memory limit"), "{r}\n{stderr}");
    assert!(log.contains("1 GiB"), "{r}\n{stderr}");
    // The judge has exited: nothing of the compile runs on in its cage.
    let left = tasks_left(&cage);
    assert!(left.is_empty(), "tasks left after the judge: {left:?}");
    drop(cage);
    // Nothing of the compile stays in the cache but its message.
    let failures = remembered_failures(&p.path("cache"));
    assert_eq!(failures.len(), 1, "{failures:?}");
    let entry = failures[0]
        .parent()
        .map(|d| d.to_path_buf())
        .unwrap_or_default();
    let kept: Vec<_> = std::fs::read_dir(&entry)
        .map(|d| d.filter_map(Result::ok).map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert_eq!(kept, ["compile-failed.log"], "{}", entry.display());
    let tmp: Vec<_> = std::fs::read_dir(p.path("cache/tmp"))
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    assert!(tmp.is_empty(), "compilations left in the cache: {tmp:?}");
    // Remembered: the second judge takes the CE from the cache instead of
    // compiling again, as a message changed there shows.
    let marker = format!("remembered {}", harness::nonce());
    std::fs::write(&failures[0], &marker).expect("rewrite the remembered message");
    drop(_serial);
    let (again, stderr) = p.judge("p", &zero, &config);
    assert_eq!(verdict(&again), "CE", "{again}\n{stderr}");
    assert_eq!(compile_log(&again), marker, "{again}\n{stderr}");
    // Under the default limit the key differs: it is not the same compile.
    let (default, stderr) = p.judge("p", &p.submission("reference.c"), &config);
    assert_eq!(verdict(&default), "AC", "{default}\n{stderr}");
}

/// A "compiler" (a configured language's command) that reports the file
/// system its folder is on and that folder's size in blocks, then writes
/// three files of 300 MiB and unlinks each while it holds it open (no walk
/// of its folder can see them). The report comes first: the judge may stop
/// the compile the moment its folder is full, before it can say more.
const THREE_NAMELESS_300MIB: &str = "languages:\n  - id: hog\n    extensions: [hog]\n    source_name: main.hog\n    compile_memory: 1GiB\n    compile: [\"/bin/sh\", \"-c\", \"echo folder on $(stat -f -c '%T of %b blocks of %S' .); exec 3>a 4>b 5>c; rm -f a b c; for fd in 3 4 5; do head -c 314572800 /dev/zero >&$fd || echo short write; done; exit 1\", \"{src}\"]\n    run: [\"{bin}\"]\n";

/// Judges as `who` a compile that writes three nameless 300 MiB files: the
/// kernel refuses what is past 512 MiB in a tmpfs of that size, nothing
/// reaches the disk, and compiles that work still do.
fn three_nameless_files(who: As) {
    let p = Project::new(who);
    p.problem("p", "token\n", LIMITS);
    let languages = p.write("languages.yaml", THREE_NAMELESS_300MIB);
    let config = ["--languages", languages.to_str().unwrap_or_default()];
    let sub = p.write("subs/any.hog", "anything\n");
    let (r, stderr) = p.judge("p", &sub, &config);
    assert_eq!(verdict(&r), "CE", "{r}\n{stderr}");
    let log = compile_log(&r);
    assert!(log.contains("compile disk limit"), "{r}\n{stderr}");
    assert!(log.contains("512 MiB"), "{r}\n{stderr}");
    // The kernel bounded it: its folder was a tmpfs of 512 MiB, which
    // refuses every page past that (whether the compile lived to say
    // "short write" or was stopped when the tmpfs filled depends on the
    // watcher's timing), never the machine's disk.
    assert!(
        log.contains("folder on tmpfs of 131072 blocks of 4096"),
        "{r}\n{stderr}"
    );
    // Nothing of it left in the cache.
    let big: Vec<_> = walkdir::WalkDir::new(p.path("cache"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.metadata().is_ok_and(|m| m.is_file() && m.len() > 1 << 20))
        .map(|e| e.path().to_path_buf())
        .collect();
    assert!(big.is_empty(), "large files left in the cache: {big:?}");
    let tmp: Vec<_> = std::fs::read_dir(p.path("cache/tmp"))
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    assert!(tmp.is_empty(), "compilations left in the cache: {tmp:?}");
    // Compiles that work still do (their products are copied out).
    let good = p.submission("reference.c");
    let (ok, stderr) = p.judge("p", &good, &[]);
    assert_eq!(verdict(&ok), "AC", "{ok}\n{stderr}");
}

#[test]
fn a_compile_writing_three_300_mib_files_is_ce_at_the_disk_limit_and_stays_off_the_disk() {
    if !harness::is_root() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but this test needs root: only a root judge gives compiles a tmpfs"
        );
        eprintln!("not root: compiles are bounded by the walk here, nothing to test");
        return;
    }
    three_nameless_files(As::Me);
}

/// The same judged by an ordinary user (`nobody`): the compile's tmpfs is
/// made in the user namespace of the judge's zygote.
#[test]
fn user_a_compile_writing_three_300_mib_files_is_ce_at_the_disk_limit_and_stays_off_the_disk() {
    if !harness::is_root() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but this test needs root to judge as `nobody`"
        );
        eprintln!("not root: cannot judge as `nobody` here");
        return;
    }
    three_nameless_files(As::Nobody);
}
