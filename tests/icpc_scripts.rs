//! ICPC programs given as a folder with `build` and/or `run` scripts (the
//! format's "other programs"): an interactor whose `run` calls a binary its
//! `build` made, an output validator whose `build` writes `run`, an input
//! validator folder, a folder whose `build` leaves sources and no `run`,
//! and a `build` that fails. Each package is written here; real processes
//! (the scripts call the system's C compiler, as the format allows).

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

use common::{Project, judge_package as judge, stderr, stdout, verify_package as verify};

fn script(p: &Project, rel: &str, text: &str) {
    let path = p.write(rel, text);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// The judge's side of the game: sends the input's number, wants it
/// tripled back, writes why into the feedback folder. Its last argument
/// is the build's stamp, so a test can tell which build ran it.
const TRIPLER: &str = r#"
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char** argv) {
    if (argc < 5) return 2;
    FILE* in = fopen(argv[1], "r");
    long long n, got;
    if (!in || fscanf(in, "%lld", &n) != 1) return 2;
    printf("%lld\n", n);
    fflush(stdout);
    char path[4096];
    snprintf(path, sizeof path, "%s/judgemessage.txt", argv[3]);
    FILE* msg = fopen(path, "w");
    int ok = scanf("%lld", &got) == 1 && got == 3 * n;
    if (msg) { fprintf(msg, "%s build %s", ok ? "tripled" : "not tripled", argv[4]); fclose(msg); }
    return ok ? 42 : 43;
}
"#;

const TRIPLE: &str = "n = int(input())\nprint(3 * n, flush=True)\n";
const DOUBLE: &str = "n = int(input())\nprint(2 * n, flush=True)\n";

/// An interactive package laid out as BAPCtools' `boolfind`: the
/// interactor folder has the C source, a `build` that compiles it to
/// `jury`, and a `run` that calls `jury` beside itself with the format's
/// arguments (and the build's stamp).
fn interactive_package(p: &Project) -> PathBuf {
    p.write(
        "triple/problem.yaml",
        "problem_format_version: 2025-09\ntype: interactive\nname: Triple\nlimits:\n  time_limit: 2\n",
    );
    p.write("triple/data/sample/1.in", "2\n");
    p.write("triple/data/sample/1.ans", "6\n");
    p.write("triple/data/secret/1.in", "7\n");
    p.write("triple/data/secret/1.ans", "21\n");
    p.write("triple/data/secret/2.in", "11\n");
    p.write("triple/data/secret/2.ans", "33\n");
    p.write("triple/output_validator/tripler.c", TRIPLER);
    // The stamp differs for every build: the folder name of this test's
    // project keeps the cache key new, the time of day tells builds apart.
    script(
        p,
        "triple/output_validator/build",
        &format!(
            "#!/bin/sh\n# {}\ncc -O1 -o jury tripler.c || exit 1\ndate +%s%N > stamp\n",
            p.dir.path().display()
        ),
    );
    script(
        p,
        "triple/output_validator/run",
        "#!/bin/sh\nhere=$(CDPATH= cd -- \"$(dirname -- \"$0\")\" && pwd)\n\
         exec \"$here/jury\" \"$1\" \"$2\" \"$3\" \"$(cat \"$here/stamp\")\"\n",
    );
    p.write("triple/submissions/accepted/triple.py", TRIPLE);
    p.write("triple/submissions/wrong_answer/double.py", DOUBLE);
    p.path("triple")
}

#[test]
fn an_interactor_built_by_its_build_script_judges_and_is_built_once() {
    let p = Project::empty();
    let pkg = interactive_package(&p);
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    for line in ["triple.py", "double.py"] {
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with("ok") && l.contains(line)),
            "{line} not as expected:\n{text}"
        );
    }
    let right = judge(&p, &pkg, &pkg.join("submissions/accepted/triple.py"));
    assert_eq!(right["verdict"], "AC", "{right:#}");
    let wrong = judge(&p, &pkg, &pkg.join("submissions/wrong_answer/double.py"));
    assert_eq!(wrong["verdict"], "WA", "{wrong:#}");
    // Both runs were played by the same build: built once, then taken from
    // the cache. (The interactor's message is shown for a rejected test.)
    let again = judge(&p, &pkg, &pkg.join("submissions/wrong_answer/double.py"));
    let stamps: Vec<String> = [&wrong, &again]
        .iter()
        .flat_map(|r| r["tests"].as_array().cloned().unwrap_or_default())
        .map(|t| {
            let m = t["message"].as_str().unwrap_or("").to_string();
            m.split("build ").nth(1).unwrap_or("").trim().to_string()
        })
        .filter(|s| !s.is_empty())
        .collect();
    assert!(stamps.len() >= 2, "{wrong:#}\n{again:#}");
    assert!(stamps.iter().all(|s| *s == stamps[0]), "{stamps:?}");
}

/// A pass-fail package whose output validator folder has only a `build`
/// script: it compiles the checker and writes `run`, as the format asks.
fn build_only_package(p: &Project, build: &str) -> PathBuf {
    p.write(
        "sq/problem.yaml",
        "problem_format_version: 2023-07\nname: Square\nlimits:\n  time_limit: 2\n",
    );
    p.write("sq/data/secret/1.in", "4\n");
    p.write("sq/data/secret/1.ans", "16\n");
    p.write("sq/data/secret/2.in", "9\n");
    p.write("sq/data/secret/2.ans", "81\n");
    // Accepts the answer or the answer with a trailing `.0`: a rule the
    // default validator has not.
    p.write(
        "sq/output_validator/check.c",
        r#"#include <stdio.h>
#include <string.h>
int main(int argc, char** argv) {
    char want[64], got[64], alt[80];
    FILE* a = fopen(argv[2], "r");
    if (!a || fscanf(a, "%63s", want) != 1) return 1;
    if (scanf("%63s", got) != 1) return 43;
    snprintf(alt, sizeof alt, "%s.0", want);
    return strcmp(got, want) == 0 || strcmp(got, alt) == 0 ? 42 : 43;
}
"#,
    );
    script(p, "sq/output_validator/build", build);
    p.write(
        "sq/submissions/accepted/float.py",
        "n = int(input())\nprint(f'{n * n}.0')\n",
    );
    p.write(
        "sq/submissions/wrong_answer/off.py",
        "n = int(input())\nprint(n * n + 1)\n",
    );
    p.path("sq")
}

#[test]
fn a_validator_whose_build_writes_its_run_script_is_used() {
    let p = Project::empty();
    let pkg = build_only_package(
        &p,
        "#!/bin/sh\ncc -o checker check.c && printf '#!/bin/sh\\nexec \"$(dirname \"$0\")/checker\" \"$@\"\\n' > run && chmod +x run\n",
    );
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    let r = judge(&p, &pkg, &pkg.join("submissions/accepted/float.py"));
    assert_eq!(r["verdict"], "AC", "{r:#}");
    let r = judge(&p, &pkg, &pkg.join("submissions/wrong_answer/off.py"));
    assert_eq!(r["verdict"], "WA", "{r:#}");
}

#[test]
fn a_build_that_leaves_no_run_is_built_by_the_language_of_its_files() {
    let p = Project::empty();
    // `build` renames the source into place; with no `run`, the folder is
    // a C program like any other.
    let pkg = build_only_package(&p, "#!/bin/sh\ncp check.c validator.c && rm check.c\n");
    let r = judge(&p, &pkg, &pkg.join("submissions/accepted/float.py"));
    assert_eq!(r["verdict"], "AC", "{r:#}");
    let r = judge(&p, &pkg, &pkg.join("submissions/wrong_answer/off.py"));
    assert_eq!(r["verdict"], "WA", "{r:#}");
}

#[test]
fn a_failing_build_is_the_packages_fault_with_what_the_script_said() {
    let p = Project::empty();
    let pkg = build_only_package(
        &p,
        "#!/bin/sh\necho 'the jury library is missing' >&2\nexit 3\n",
    );
    let out = p.grundy(&[
        "judge",
        &pkg.to_string_lossy(),
        &pkg.join("submissions/accepted/float.py").to_string_lossy(),
    ]);
    let text = format!("{}\n{}", stdout(&out), stderr(&out));
    assert_ne!(out.status.code(), Some(0), "{text}");
    assert_ne!(
        out.status.code(),
        Some(1),
        "not the submission's fault: {text}"
    );
    assert!(text.contains("does not build"), "{text}");
    assert!(text.contains("the jury library is missing"), "{text}");
    assert!(text.contains("exit code 3"), "{text}");
}

#[test]
fn an_input_validator_folder_with_scripts_checks_every_test() {
    let p = Project::empty();
    let pkg = build_only_package(&p, "#!/bin/sh\ncp check.c validator.c && rm check.c\n");
    // Inputs must be at most 10: the validator is a C program its `build`
    // compiles, run by its `run`.
    p.write(
        "sq/input_validators/bounded/bound.c",
        "#include <stdio.h>\nint main(void) { long n; char c; \
         if (scanf(\"%ld%c\", &n, &c) != 2 || c != '\\n' || n < 1 || n > 10) return 43; \
         return getchar() == EOF ? 42 : 43; }\n",
    );
    script(
        &p,
        "sq/input_validators/bounded/build",
        "#!/bin/sh\ncc -o bound bound.c\n",
    );
    script(
        &p,
        "sq/input_validators/bounded/run",
        "#!/bin/sh\nexec \"$(dirname \"$0\")/bound\"\n",
    );
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    p.write("sq/data/secret/3.in", "12\n");
    p.write("sq/data/secret/3.ans", "144\n");
    let (code, text) = verify(&p, &pkg);
    assert_ne!(code, Some(0), "{text}");
    assert!(text.contains("3.in") && text.contains("bounded"), "{text}");
}
