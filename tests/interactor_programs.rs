//! Interactors that are programs (docs/reference.md, "Interactors"): an ICPC
//! interactive package in both spellings, a testlib-style interactor and a
//! stuck one, each judged through the CLI with real compiled programs.
//! No assertion depends on how fast the machine is: a stuck run ends at
//! the limits the judge sets, and the verdict is what is checked.

mod common;

use std::path::{Path, PathBuf};

use common::{Project, stderr, stdout, verdicts};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/icpc")
        .join(name)
}

/// A copy of a fixture package in `to`, to change freely.
fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("walk");
        let rel = entry.path().strip_prefix(from).expect("inside");
        let dest = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &dest).expect("copy");
        }
    }
}

fn judge_json(p: &Project, problem: &str, submission: &Path) -> serde_json::Value {
    let out = p.grundy(&["judge", problem, &submission.to_string_lossy(), "--json"]);
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\n{}", stdout(&out), stderr(&out)))
}

#[test]
fn an_interactive_package_verifies_with_its_folders_verdicts() {
    let p = Project::empty();
    let pkg = fixture("guess");
    let out = p.grundy(&["verify", &pkg.to_string_lossy()]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}\n{}", stderr(&out));
    for line in [
        "ok  binary.cpp                   expected AC  got AC",
        "ok  linear.c                     expected WA  got WA",
        "ok  waits.c                      expected TLE got TLE",
    ] {
        assert!(text.contains(line), "missing `{line}`:\n{text}");
    }
}

#[test]
fn the_interactors_judgemessage_is_the_message() {
    let p = Project::empty();
    let pkg = fixture("guess");
    let r = judge_json(
        &p,
        &pkg.to_string_lossy(),
        &pkg.join("submissions/wrong_answer/linear.c"),
    );
    let r = &r["results"][0];
    assert_eq!(r["verdict"], "WA", "{r}");
    // The sample's secret is 1: the linear guesser finds it at once.
    assert_eq!(verdicts(r)[0], "AC", "{r}");
    let failing = r["tests"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["verdict"] == "WA"))
        .unwrap_or_else(|| panic!("no WA test: {r}"));
    let message = failing["message"].as_str().unwrap_or("");
    assert!(message.contains("more than 10 guesses"), "{message}");
}

#[test]
fn a_legacy_custom_interactive_package_is_judged_the_same() {
    let p = Project::empty();
    let pkg = p.path("guesslegacy");
    copy_tree(&fixture("guess"), &pkg);
    std::fs::write(
        pkg.join("problem.yaml"),
        "name: Guess the Number\nvalidation: custom interactive\n",
    )
    .expect("write");
    std::fs::create_dir_all(pkg.join("output_validators")).expect("mkdir");
    std::fs::rename(
        pkg.join("output_validator"),
        pkg.join("output_validators/guess"),
    )
    .expect("move");
    let pkg_s = pkg.to_string_lossy().into_owned();
    let ac = judge_json(&p, &pkg_s, &pkg.join("submissions/accepted/binary.cpp"));
    assert_eq!(ac["results"][0]["verdict"], "AC", "{ac}");
    let wa = judge_json(&p, &pkg_s, &pkg.join("submissions/wrong_answer/linear.c"));
    assert_eq!(wa["results"][0]["verdict"], "WA", "{wa}");
}

/// A testlib-style interactor for the same game, self-contained: called as
/// `interactor input output`, exit 0 ok, 1 wrong answer, 2 presentation
/// error, 3 fail, message on stderr as testlib writes it.
const TESTLIB_GUESS: &str = r#"
#include <cstdio>
#include <cstdlib>
#include <cstring>
[[noreturn]] static void quit(int code, const char* what) {
    std::fprintf(stderr, "%s\n", what);
    std::exit(code);
}
int main(int argc, char** argv) {
    if (argc < 3) quit(3, "FAIL usage: interactor input output");
    FILE* in = std::fopen(argv[1], "r");
    long long secret;
    if (!in || std::fscanf(in, "%lld", &secret) != 1 || secret < 1)
        quit(3, "FAIL the input holds no secret");
    FILE* out = std::fopen(argv[2], "w");
    for (int guesses = 1;; guesses++) {
        char token[64];
        if (std::scanf("%63s", token) != 1) quit(2, "wrong output format Unexpected EOF");
        char* end;
        long long g = std::strtoll(token, &end, 10);
        if (*end) quit(2, "wrong output format expected an integer");
        if (guesses > 10) quit(1, "wrong answer more than 10 guesses");
        if (g == secret) break;
        std::puts(g < secret ? "higher" : "lower");
        std::fflush(stdout);
    }
    std::puts("correct");
    std::fflush(stdout);
    if (out) std::fprintf(out, "ok\n");
    quit(0, "ok found");
}
"#;

const BINARY: &str = r#"
#include <stdio.h>
#include <string.h>
int main(void) {
    int lo = 1, hi = 1000;
    char reply[16];
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        printf("%d\n", mid);
        fflush(stdout);
        if (scanf("%15s", reply) != 1 || strcmp(reply, "correct") == 0) return 0;
        if (strcmp(reply, "higher") == 0) lo = mid + 1; else hi = mid - 1;
    }
    return 0;
}
"#;

/// A project with problem `id` played against `interactor` (the YAML value)
/// whose source files are `files`, on `inputs` (one test each).
fn project(id: &str, interactor: &str, files: &[(&str, &str)], inputs: &[&str]) -> Project {
    let p = Project::empty();
    let mut spec = format!(
        "id: {id}\ntitle: Guess\nsource: tests\nlimits:\n  time: 1s\ninteractor: {interactor}\ngroups:\n  - name: all\n    points: 10\n    tests:\n"
    );
    for input in inputs {
        spec.push_str(&format!("      - input: {input:?}\n"));
    }
    p.write(&format!("problems/{id}/problem.yaml"), &spec);
    for (name, text) in files {
        p.write(&format!("problems/{id}/{name}"), text);
    }
    p
}

fn judge_source(p: &Project, id: &str, name: &str, source: &str) -> serde_json::Value {
    let file = p.write(&format!("subs/{name}"), source);
    judge_json(p, id, &file)["results"][0].clone()
}

#[test]
fn a_testlib_interactor_gives_testlibs_verdicts() {
    let p = project(
        "guess-testlib",
        "{testlib: interactor.cpp}",
        &[("interactor.cpp", TESTLIB_GUESS)],
        &["1\n", "777\n"],
    );
    let ac = judge_source(&p, "guess-testlib", "binary.c", BINARY);
    assert_eq!(ac["verdict"], "AC", "{ac}");
    assert_eq!(verdicts(&ac), ["AC", "AC"], "{ac}");

    let linear = "#include <stdio.h>\nint main(void){char r[16];for(int g=1;g<=1000;g++){printf(\"%d\\n\",g);fflush(stdout);if(scanf(\"%15s\",r)!=1||r[0]=='c')return 0;}return 0;}\n";
    let wa = judge_source(&p, "guess-testlib", "linear.c", linear);
    assert_eq!(verdicts(&wa), ["AC", "WA"], "{wa}");
    assert!(
        wa["tests"][1]["message"]
            .as_str()
            .unwrap_or("")
            .contains("more than 10 guesses"),
        "{wa}"
    );

    let words = "#include <stdio.h>\nint main(void){puts(\"five\");fflush(stdout);return 0;}\n";
    let pe = judge_source(&p, "guess-testlib", "words.c", words);
    // The group is all-or-nothing: its second test is not run (SPEC).
    assert_eq!(verdicts(&pe), ["PE"], "{pe}");
    assert_eq!(pe["skipped"], 1, "{pe}");
}

#[test]
fn a_testlib_fail_is_an_internal_error_not_the_submissions_fault() {
    let p = project(
        "guess-fail",
        "{testlib: interactor.cpp}",
        &[("interactor.cpp", TESTLIB_GUESS)],
        &["0\n"],
    );
    let r = judge_source(&p, "guess-fail", "binary.c", BINARY);
    assert_eq!(verdicts(&r), ["IE"], "{r}");
    assert!(
        r["tests"][0]["message"]
            .as_str()
            .unwrap_or("")
            .contains("the input holds no secret"),
        "{r}"
    );
}

#[test]
fn a_stuck_interactor_is_an_internal_error_not_a_hang() {
    // Reads nothing, writes nothing, never exits: the submission waits at
    // its wall limit, then the interactor is stopped after its grace.
    let stuck = "#include <unistd.h>\nint main(void){for(;;)pause();}\n";
    let p = project("guess-stuck", "stuck.c", &[("stuck.c", stuck)], &["5\n"]);
    let r = judge_source(&p, "guess-stuck", "binary.c", BINARY);
    assert_eq!(verdicts(&r), ["IE"], "{r}");
    assert!(
        r["tests"][0]["message"]
            .as_str()
            .unwrap_or("")
            .contains("the interactor did not end"),
        "{r}"
    );
}

/// Problem `guess-icpc`: problemtools' guessing game, played by its own
/// interactor, on the tests `inputs`.
fn guess_icpc(inputs: &[&str]) -> Project {
    project(
        "guess-icpc",
        "{icpc: interactor.cpp}",
        &[(
            "interactor.cpp",
            &std::fs::read_to_string(fixture("guess").join("output_validator/interactor.cpp"))
                .expect("fixture"),
        )],
        inputs,
    )
}

#[test]
fn a_submission_that_never_answers_is_tle_and_a_crash_is_re() {
    let p = guess_icpc(&["600\n"]);
    let spin = "int main(void){volatile unsigned long x=0;for(;;)x++;}\n";
    let tle = judge_source(&p, "guess-icpc", "spin.c", spin);
    assert_eq!(verdicts(&tle), ["TLE"], "{tle}");
    let crash = "#include <stdio.h>\n#include <stdlib.h>\nint main(void){printf(\"500\\n\");fflush(stdout);char r[16];if(scanf(\"%15s\",r)==1)abort();return 0;}\n";
    let re = judge_source(&p, "guess-icpc", "crash.c", crash);
    assert_eq!(verdicts(&re), ["RE"], "{re}");
    let ac = judge_source(&p, "guess-icpc", "binary.c", BINARY);
    assert_eq!(verdicts(&ac), ["AC"], "{ac}");
}

/// A submission the kernel refuses to execute (a 0-byte executable, a
/// program whose ELF interpreter cannot be loaded) is `RE` with the reason
/// on every test, the interactor left with nobody to talk to: the
/// submission's fault, not the judge's (`IE`).
#[test]
fn a_submission_that_cannot_start_is_re_with_the_reason() {
    let p = guess_icpc(&["600\n", "3\n"]);
    let empty = p.write("subs/empty", "");
    std::fs::set_permissions(&empty, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let unloadable = p.write(
        "subs/interp.c",
        &format!(
            "{BINARY}__attribute__((section(\".interp\"), used)) static const char pad[5000] = \"x\";\n"
        ),
    );
    for (file, extra) in [(&empty, &["--lang", "exe"][..]), (&unloadable, &[][..])] {
        let f = file.to_string_lossy().into_owned();
        let mut args = vec!["judge", "guess-icpc", &f, "--json", "--all"];
        args.extend_from_slice(extra);
        let out = p.grundy(&args);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\n{}", stdout(&out), stderr(&out)));
        let r = &v["results"][0];
        assert_eq!(verdicts(r), ["RE", "RE"], "{args:?}: {r}\n{}", stderr(&out));
        for t in 0..2 {
            let message = r["tests"][t]["message"].as_str().unwrap_or_default();
            assert!(
                message.contains("the program could not be started"),
                "{args:?}: {message}"
            );
        }
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    }
    let ac = judge_source(&p, "guess-icpc", "binary.c", BINARY);
    assert_eq!(verdicts(&ac), ["AC", "AC"], "{ac}");
}

/// The verdicts and the first test's message of judging `BINARY` on
/// problem `id` of `p` with the languages file `languages`.
fn judged_with_languages(p: &Project, id: &str, languages: &str) -> (Vec<String>, String) {
    let languages = p.write("languages.yaml", languages);
    let sub = p.write("subs/binary.c", BINARY);
    let out = p.grundy(&[
        "--languages",
        &languages.to_string_lossy(),
        "judge",
        id,
        &sub.to_string_lossy(),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\n{}", stdout(&out), stderr(&out)));
    let r = &v["results"][0];
    let message = r["tests"][0]["message"].as_str().unwrap_or_default();
    (verdicts(r), message.to_string())
}

/// An interactor that cannot start is the judge's failure (`IE`), never
/// a verdict against the submission, whatever its interpreter's exit
/// status: here Python's 2 ("can't open file"), testlib's presentation
/// error. Its language (from a languages file) runs it through a launcher
/// script that its run cannot read (in a folder of mode 0700, itself of
/// mode 0: no uid but root's may read it), then through one that does not
/// exist; each is named. So is a ready executable the kernel refuses.
#[test]
fn an_interactor_that_cannot_start_is_an_internal_error_naming_the_file() {
    use std::os::unix::fs::PermissionsExt;
    let locked = tempfile::tempdir().expect("tmp");
    let launcher = locked.path().join("launcher.py");
    std::fs::write(
        &launcher,
        "import runpy, sys\nrunpy.run_path(sys.argv[1])\n",
    )
    .expect("write");
    std::fs::set_permissions(&launcher, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    std::fs::set_permissions(locked.path(), std::fs::Permissions::from_mode(0o700)).expect("chmod");
    let gone = Path::new("/nonexistent/grundy/launcher.py");
    let p = project(
        "guess-launched",
        "{testlib: interactor.lpy}",
        &[("interactor.lpy", "import sys\nsys.exit(0)\n")],
        &["5\n"],
    );
    let cases = [
        (
            launcher.as_path(),
            format!("the run cannot read {}: ", launcher.display()),
        ),
        (gone, format!("{} cannot be opened: ", gone.display())),
    ];
    for (launcher, want) in cases {
        let languages = format!(
            "languages:\n  - id: launched-python\n    extensions: [lpy]\n    source_name: interactor.py\n    run: [python3, {:?}, \"{{src}}\"]\n",
            launcher.display().to_string()
        );
        let (verdicts, message) = judged_with_languages(&p, "guess-launched", &languages);
        assert_eq!(verdicts, ["IE"], "{message}");
        assert!(
            message.starts_with("the interactor could not be started: ") && message.contains(&want),
            "{message}"
        );
    }
    // An empty "executable": the kernel's `ENOEXEC`, with the program.
    let p = project(
        "guess-empty",
        "{testlib: interactor.bin}",
        &[("interactor.bin", "")],
        &["5\n"],
    );
    let languages = "languages:\n  - id: exe\n    extensions: [bin]\n";
    let (verdicts, message) = judged_with_languages(&p, "guess-empty", languages);
    assert_eq!(verdicts, ["IE"], "{message}");
    assert!(
        message.starts_with("the interactor could not be started: the kernel would not execute `")
            && message.contains("/main`: "),
        "{message}"
    );
}

/// `grundy export` of a played game: a legacy package whose interactor is
/// a program, read back by grundy with the same verdicts for the game's
/// accepted player and a known-wrong one.
fn exported_game_judges_the_same(id: &str, wrong: &str) {
    exported_interactor_judges_the_same(id, "play.py", "submissions/accepted/solution.c", wrong);
}

/// [`exported_game_judges_the_same`] with the interactor written as
/// `interactor` and the accepted player `accepted`.
fn exported_interactor_judges_the_same(id: &str, interactor: &str, accepted: &str, wrong: &str) {
    let tmp = tempfile::tempdir().expect("tmp");
    let pkg = tmp.path().join(id.replace('-', ""));
    let problems = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    let out = common::grundy_in(&problems, &["export", id, "--to", &pkg.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let yaml = std::fs::read_to_string(pkg.join("problem.yaml")).expect("problem.yaml");
    assert!(yaml.contains("validation: custom interactive"), "{yaml}");
    assert!(
        pkg.join("output_validators/interactor")
            .join(interactor)
            .is_file()
    );
    let pkg_s = pkg.to_string_lossy().into_owned();
    for (file, expected) in [(accepted, "AC"), (wrong, "WA")] {
        let out = common::grundy_in(
            &problems,
            &["judge", &pkg_s, &pkg.join(file).to_string_lossy(), "--json"],
        );
        let r: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\n{}", stdout(&out), stderr(&out)));
        assert_eq!(r["results"][0]["verdict"], expected, "{file}: {r}");
    }
}

#[test]
fn an_exported_nim_play_package_judges_the_same() {
    exported_game_judges_the_same("nim-play", "submissions/wrong_answer/always_first.py");
}

#[test]
fn an_exported_misere_nim_play_package_judges_the_same() {
    exported_game_judges_the_same("misere-nim-play", "submissions/wrong_answer/normal_rule.c");
}

#[test]
fn an_exported_wythoff_play_package_judges_the_same() {
    exported_game_judges_the_same("wythoff-play", "submissions/wrong_answer/double_phi.c");
}

/// A described game (`game:`) exports its own interactor, `described.py`.
#[test]
fn an_exported_kayles_play_package_judges_the_same() {
    exported_interactor_judges_the_same(
        "kayles-play",
        "described.py",
        // The Python player, which runs with PyPy where it is installed.
        "submissions/accepted/solution.py",
        "submissions/wrong_answer/one_pin_at_a_time.c",
    );
}

/// The problemtools `languages.yaml` overrides this machine needs (as in
/// tests/export.rs): JDK 17, and Python on CPython.
const LANGUAGES_YAML: &str = "java:
    compile: 'javac -encoding UTF-8 -sourcepath {path} -d {path} {files}'
python3:
    name: 'Python 3'
    compile: 'python3 -m py_compile {files}'
    run: 'python3 \"{mainfile}\"'
";

#[test]
fn an_exported_interactive_package_passes_verifyproblem() {
    let have = std::process::Command::new("verifyproblem")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        assert!(
            std::env::var_os("CI").is_none(),
            "verifyproblem is missing: `bash .ci/setup.sh --tests` installs problemtools"
        );
        eprintln!(
            "skipped: verifyproblem is not installed (`bash .ci/setup.sh --tests` installs it)"
        );
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let config = tmp.path().join("config");
    std::fs::create_dir_all(config.join("problemtools")).expect("mkdir");
    std::fs::write(config.join("problemtools/languages.yaml"), LANGUAGES_YAML).expect("write");
    let pkg = tmp.path().join("nimplay");
    let problems = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    let out = common::grundy_in(
        &problems,
        &["export", "nim-play", "--to", &pkg.to_string_lossy()],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let limit = std::fs::read_to_string(pkg.join(".timelimit")).expect(".timelimit");
    let out = std::process::Command::new("verifyproblem")
        .arg("-t")
        .arg(limit.trim())
        .arg(&pkg)
        .env("XDG_CONFIG_HOME", &config)
        .output()
        .expect("run verifyproblem");
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert!(
        out.status.success() && text.contains("nimplay tested: 0 errors"),
        "{text}"
    );
}
