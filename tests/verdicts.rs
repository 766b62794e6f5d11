//! Every verdict, earned by a real program under real limits.

mod common;

use common::{Project, verdicts};

const SAMPLE: &[&str] = &["--tests", "sample"];

fn first_test(r: &serde_json::Value) -> &serde_json::Value {
    &r["tests"][0]
}

#[test]
fn wrong_answer_names_the_first_wrong_line() {
    let p = Project::toy("");
    let src = "#include <stdio.h>\nint main(void){puts(\"Alice\");return 0;}\n";
    let r = p.judge_source("always_alice.c", src, &[]);
    assert_eq!(r["verdict"], "WA");
    assert_eq!(verdicts(&r), ["WA", "AC", "WA", "AC"]);
    let msg = first_test(&r)["message"].as_str().unwrap_or("");
    assert_eq!(msg, "line 1, token 1: expected \"Bob\", got \"Alice\"");
    let diff = first_test(&r)["diff"].as_str().unwrap_or("");
    assert!(diff.contains("-Bob") && diff.contains("+Alice"), "{diff}");
    // Samples are worth nothing; small failed (40), large passed (60).
    assert_eq!(r["score"], 60.0);
}

#[test]
fn presentation_error_with_the_exact_checker() {
    let p = Project::toy("checker: exact\n");
    let src = "#include <stdio.h>\nint main(void){int n,a,x=0;scanf(\"%d\",&n);while(n--){scanf(\"%d\",&a);x^=a;}printf(\"%s  \\n\", x?\"Alice\":\"Bob\");return 0;}\n";
    let r = p.judge_source("spaces.c", src, SAMPLE);
    assert_eq!(r["verdict"], "PE", "{r:#}");
}

/// Limits for tests whose verdict is not about time: a loaded machine
/// slows a run down many times over, and that must not turn an MLE, OLE or
/// AC into a TLE (wall limit 30 s).
const UNHURRIED: &str = "limits:\n  time: 10s\n";

#[test]
fn cpu_spinner_is_tle_near_the_limit() {
    // This one is about the boundary: which of the CPU and the wall limit a
    // spinner reaches first depends on the share of a core it gets. A
    // 100 ms CPU limit has a 2.1 s wall limit, so the spinner need only get
    // 1/21 of a core to be stopped by CPU time (with 1 s it needed 1/3,
    // which a two-core machine with a load of 10 does not give it).
    let p = Project::toy("limits:\n  time: 100ms\n");
    let r = p.judge_source(
        "spin.c",
        "int main(void){volatile unsigned long x=0;for(;;)x++;}\n",
        SAMPLE,
    );
    assert_eq!(r["verdict"], "TLE");
    let t = first_test(&r);
    let cpu = t["time_ms"].as_f64().unwrap_or(0.0);
    // Stopped at the limit by the watcher, not by the wall limit or by the
    // RLIMIT_CPU backstop (the limit's whole seconds + 2 s).
    assert!((100.0..2000.0).contains(&cpu), "cpu {cpu}: {t}");
    assert!(
        t["message"].as_str().unwrap_or("").contains("CPU time"),
        "{t}"
    );
}

#[test]
fn sleeper_is_tle_by_wall_clock() {
    let p = Project::toy("");
    let r = p.judge_source(
        "sleep.c",
        // Waits for ever: only the judge can end it, however slow the machine.
        "#include <unistd.h>\nint main(void){for(;;)pause();}\n",
        SAMPLE,
    );
    assert_eq!(r["verdict"], "TLE");
    let t = first_test(&r);
    assert!(
        t["message"].as_str().unwrap_or("").contains("wall time"),
        "{t}"
    );
    // Stopped by the judge at, not before, the wall limit of max(3 × 1 s, 1 s + 2 s).
    assert!(t["wall_ms"].as_f64().unwrap_or(0.0) >= 3000.0, "{t}");
}

#[test]
fn memory_hog_in_small_steps_is_mle() {
    let p = Project::toy(UNHURRIED);
    let src = "#include <stdlib.h>\n#include <string.h>\nint main(void){for(;;){char*p=malloc(1<<20);if(!p)return 1;memset(p,1,1<<20);}}\n";
    let r = p.judge_source("hog.c", src, SAMPLE);
    assert_eq!(r["verdict"], "MLE", "{r:#}");
}

#[test]
fn python_memory_error_is_mle() {
    let p = Project::toy(UNHURRIED);
    let src = "chunks = []\nwhile True:\n    chunks.append(bytearray(1 << 20))\n";
    let r = p.judge_source("hog.py", src, SAMPLE);
    assert_eq!(r["verdict"], "MLE", "{r:#}");
}

#[test]
fn output_flood_is_ole() {
    let p = Project::toy("limits:\n  time: 10s\n  output: 1MiB\n");
    let src = "#include <stdio.h>\nint main(void){for(;;)puts(\"Alice Alice Alice Alice\");}\n";
    let r = p.judge_source("flood.c", src, SAMPLE);
    assert_eq!(r["verdict"], "OLE", "{r:#}");
}

#[test]
fn crash_by_signal_is_re_with_the_signal() {
    let p = Project::toy("");
    let r = p.judge_source(
        "segv.c",
        "int main(void){volatile int*p=0;*p=1;return 0;}\n",
        SAMPLE,
    );
    assert_eq!(r["verdict"], "RE");
    assert_eq!(first_test(&r)["signal"], 11);
    assert!(
        first_test(&r)["message"]
            .as_str()
            .unwrap_or("")
            .contains("SIGSEGV")
    );
}

#[test]
fn nonzero_exit_is_re_with_the_code_and_stderr() {
    let p = Project::toy("");
    let src = "#include <stdio.h>\nint main(void){fprintf(stderr, \"bad input\\n\");return 3;}\n";
    let r = p.judge_source("exit3.c", src, SAMPLE);
    assert_eq!(r["verdict"], "RE");
    assert_eq!(first_test(&r)["exit_code"], 3);
    assert_eq!(first_test(&r)["message"], "exit code 3: bad input");
}

#[test]
fn a_hundred_megabytes_of_stack_is_legal() {
    let p = Project::toy(UNHURRIED);
    let src = r#"#include <stdio.h>
int depth(int n) { volatile char pad[1000]; pad[0] = (char)n; return n == 0 ? 0 : depth(n - 1) + (pad[0] & 1); }
int main(void) {
    int n, a, x = 0;
    scanf("%d", &n);
    while (n-- > 0 && scanf("%d", &a) == 1) x ^= a;
    if (depth(100000) < 0) return 1; /* about 100 MB of stack */
    puts(x ? "Alice" : "Bob");
    return 0;
}
"#;
    let r = p.judge_source("stack.c", src, &[]);
    assert_eq!(r["verdict"], "AC", "{r:#}");
    let mem = first_test(&r)["memory_kib"].as_u64().unwrap_or(0);
    assert!(
        mem > 90 * 1024,
        "peak memory {mem} KiB: the recursion did not run"
    );
}

#[test]
fn program_that_ignores_its_input_is_judged_on_its_output() {
    let p = Project::toy("");
    // Writes without reading: no SIGPIPE, no deadlock, just a verdict.
    let r = p.judge_source(
        "noread.c",
        "#include <stdio.h>\nint main(void){puts(\"Bob\");return 0;}\n",
        // Every test, even after a failure in its group.
        &["--all"],
    );
    assert_eq!(verdicts(&r), ["AC", "WA", "AC", "WA"]);
}

#[test]
fn a_failing_checker_is_ie_not_the_submissions_fault() {
    let p = Project::toy("checker: {testlib: checker.py}\n");
    p.write(
        "problems/toy/checker.py",
        "import sys\nsys.stderr.write('checker broke\\n')\nsys.exit(3)\n",
    );
    let r = p.judge_source("ok.c", common::TOY_C, SAMPLE);
    assert_eq!(r["verdict"], "IE", "{r:#}");
    let out = p.grundy(&[
        "judge",
        "toy",
        &p.path("subs/ok.c").to_string_lossy(),
        "--tests",
        "sample",
    ]);
    assert_eq!(out.status.code(), Some(3), "IE exits 3");
}

#[test]
fn testlib_checker_verdicts_reach_the_report() {
    let p = Project::toy("checker: {testlib: checker.py}\n");
    // Accepts any output whose first token matches the answer's, ignoring case.
    p.write(
        "problems/toy/checker.py",
        "import sys\nout=open(sys.argv[2]).read().split()\nans=open(sys.argv[3]).read().split()\nsys.exit(0 if out[:1] and out[0].lower()==ans[0].lower() else 1)\n",
    );
    let r = p.judge_source("lower.py", "print('bob')\n", &["--all"]);
    assert_eq!(verdicts(&r), ["AC", "WA", "AC", "WA"]);
}

#[test]
fn jobs_do_not_change_results() {
    let p = Project::toy("");
    let src = "#include <stdio.h>\nint main(void){puts(\"Alice\");return 0;}\n";
    let one = p.judge_source("j.c", src, &["--jobs", "1"]);
    let two = p.judge_source("j.c", src, &["--jobs", "2"]);
    assert_eq!(verdicts(&one), verdicts(&two));
    assert_eq!(one["score"], two["score"]);
}

#[test]
fn a_program_that_does_nothing_is_not_charged_for_the_judges_memory() {
    // wythoff-large generates tens of megabytes of input before judging;
    // none of that may show up in a program's peak memory.
    let problems = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/problems"));
    let p = Project::empty();
    let f = p.write("nothing.c", "int main(void){return 0;}\n");
    for mode in ["auto", "off"] {
        let out = common::grundy_in(
            problems,
            &[
                "--sandbox",
                mode,
                "judge",
                "wythoff-large",
                &f.to_string_lossy(),
                "--json",
                "--tests",
                "sample",
            ],
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        let kib = v["results"][0]["tests"][0]["memory_kib"]
            .as_u64()
            .unwrap_or(u64::MAX);
        assert!(
            kib < 12 * 1024,
            "sandbox {mode}: an empty program reported {kib} KiB"
        );
    }
}
