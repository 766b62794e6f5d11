//! A package's validators built through symbolic links, as BAPCtools'
//! packages have them: the validator folders link one header kept
//! elsewhere in the package (a repository's shared `validation.h`), and
//! test files are linked between groups. A link that leaves the package is
//! an error naming it: the judge reads a package beneath its folder only.
//! Each test builds a small package of its own, links a header into its
//! validator folders, and judges real submissions with real compilers.

mod common;

use std::path::{Path, PathBuf};

use common::{Project, judge_package, stderr, stdout, verdicts, verify_package};

/// A package `sq` (print the square of the number read) whose C++ output
/// validator and input validator include `bounds.h`, a link to
/// `shared/bounds.h` in the package.
fn linked_package(p: &Project) -> PathBuf {
    p.write(
        "sq/shared/bounds.h",
        "#pragma once\nconst long long LIMIT = 1000;\nconst int ACCEPT = 42, REJECT = 43;\n",
    );
    p.write(
        "sq/problem.yaml",
        "problem_format_version: 2025-09\nname: Square\ntype: pass-fail\nuuid: 5e1f\nlimits: {time_limit: 2}\n",
    );
    p.write("sq/data/sample/1.in", "3\n");
    p.write("sq/data/sample/1.ans", "9\n");
    p.write("sq/data/secret/1.in", "12\n");
    p.write("sq/data/secret/1.ans", "144\n");
    p.write("sq/data/secret/2.in", "1000\n");
    p.write("sq/data/secret/2.ans", "1000000\n");
    // A test shared with the samples, through links.
    link("../sample/1.in", &p.path("sq/data/secret/3.in"));
    link("../sample/1.ans", &p.path("sq/data/secret/3.ans"));
    p.write(
        "sq/output_validator/check.cpp",
        "#include <fstream>\n#include <iostream>\n#include \"bounds.h\"\n\
         int main(int argc, char** argv) {\n\
           std::ifstream ans(argv[2]); long long want; ans >> want;\n\
           long long got; if (!(std::cin >> got)) return REJECT;\n\
           return got == want ? ACCEPT : REJECT;\n}\n",
    );
    p.write(
        "sq/input_validators/range/range.cpp",
        "#include <iostream>\n#include \"bounds.h\"\n\
         int main() { long long n; if (!(std::cin >> n)) return 43;\n\
           return 1 <= n && n <= LIMIT ? 42 : 43; }\n",
    );
    link(
        "../shared/bounds.h",
        &p.path("sq/output_validator/bounds.h"),
    );
    link(
        "../../shared/bounds.h",
        &p.path("sq/input_validators/range/bounds.h"),
    );
    p.write(
        "sq/submissions/accepted/square.py",
        "n = int(input())\nprint(n * n)\n",
    );
    p.write(
        "sq/submissions/wrong_answer/double.py",
        "n = int(input())\nprint(2 * n)\n",
    );
    p.path("sq")
}

fn link(target: &str, at: &Path) {
    std::os::unix::fs::symlink(target, at).expect("link");
}

#[test]
fn validators_with_a_linked_header_build_and_judge() {
    let p = Project::empty();
    let pkg = linked_package(&p);
    let ok = judge_package(&p, &pkg, &pkg.join("submissions/accepted/square.py"));
    assert_eq!(verdicts(&ok), vec!["AC", "AC", "AC", "AC"], "{ok}");
    let wa = judge_package(&p, &pkg, &pkg.join("submissions/wrong_answer/double.py"));
    // 3 → 6 ≠ 9: the validator built with the linked header rejects it.
    assert_eq!(
        verdicts(&wa).first().map(String::as_str),
        Some("WA"),
        "{wa}"
    );
    let (code, text) = verify_package(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("accept all 4 inputs"), "{text}");
}

#[test]
fn the_input_validator_reads_the_linked_header_not_a_stale_copy() {
    let p = Project::empty();
    let pkg = linked_package(&p);
    // The shared header now allows at most 100: the secret 1000 breaks it,
    // which only a build through the link can know.
    p.write(
        "sq/shared/bounds.h",
        "#pragma once\nconst long long LIMIT = 100;\nconst int ACCEPT = 42, REJECT = 43;\n",
    );
    let (code, text) = verify_package(&p, &pkg);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("secret/2.in"), "{text}");
}

#[test]
fn a_dangling_link_is_the_package_fault_naming_the_missing_header() {
    let p = Project::empty();
    let pkg = linked_package(&p);
    std::fs::remove_file(p.path("sq/shared/bounds.h")).expect("remove");
    let (code, text) = verify_package(&p, &pkg);
    assert_ne!(code, Some(0), "{text}");
    assert!(text.contains("bounds.h"), "{text}");
}

#[test]
fn a_header_linked_from_outside_the_package_is_an_error_naming_the_link() {
    let p = Project::empty();
    let pkg = linked_package(&p);
    p.write(
        "outside/bounds.h",
        "#pragma once\nconst long long LIMIT = 1000;\nconst int ACCEPT = 42, REJECT = 43;\n",
    );
    let header = p.path("sq/input_validators/range/bounds.h");
    std::fs::remove_file(&header).expect("remove");
    link("../../../outside/bounds.h", &header);
    // `verify` reports the package as failed, naming the link.
    let (code, text) = verify_package(&p, &pkg);
    assert_eq!(code, Some(1), "{text}");
    let named = "input_validators/range/bounds.h is a link to ../../../outside/bounds.h";
    assert!(text.contains(named), "{text}");
    // So does the output validator's link, when a submission is judged:
    // a bad package, exit 2.
    let header = p.path("sq/output_validator/bounds.h");
    std::fs::remove_file(&header).expect("remove");
    link("../../outside/bounds.h", &header);
    let out = judged(&p, &pkg);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("output_validator/bounds.h is a link to ../../outside/bounds.h"),
        "{}",
        stderr(&out)
    );
}

/// `grundy judge` of the package's accepted submission.
fn judged(p: &Project, pkg: &Path) -> std::process::Output {
    let sub = pkg.join("submissions/accepted/square.py");
    p.grundy(&["judge", &pkg.to_string_lossy(), &sub.to_string_lossy()])
}

#[test]
fn a_test_linked_from_outside_the_package_is_an_error_naming_the_link() {
    let p = Project::empty();
    let pkg = linked_package(&p);
    p.write("elsewhere/4.in", "5\n");
    p.write("elsewhere/4.ans", "25\n");
    link("../../../elsewhere/4.in", &p.path("sq/data/secret/4.in"));
    link("../../../elsewhere/4.ans", &p.path("sq/data/secret/4.ans"));
    let (code, text) = verify_package(&p, &pkg);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("data/secret/4.ans is a link"), "{text}");
    let out = judged(&p, &pkg);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("data/secret/4.ans is a link"),
        "{}",
        stderr(&out)
    );
    // The secret it points at is in no output.
    assert!(!stdout(&out).contains("25"), "{}", stdout(&out));
}
