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
