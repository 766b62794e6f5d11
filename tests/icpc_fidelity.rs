//! ICPC packages as their authors write them: each test builds a small
//! package in its own words and checks the verdicts `judge` and `verify`
//! give. Real compilers, real processes.

mod common;

use std::path::PathBuf;

use common::{Project, judge_package as judge, verify_package as verify};

/// A third of the input number, printed with `digits` decimals.
fn third_py(digits: usize) -> String {
    format!("print('%.{digits}f' % (int(input()) / 3))\n")
}

/// A 2025-09 package whose float tolerance is set in a nested
/// `test_group.yaml`: without the inheritance, the 3-decimal answer is WA.
fn third_package(p: &Project) -> PathBuf {
    p.write(
        "third/problem.yaml",
        "problem_format_version: 2025-09\nname: Third\ntype: pass-fail\nuuid: 5d1c4a\nlimits: {time_limit: 2}\n",
    );
    p.write("third/data/sample/1.in", "1\n");
    p.write("third/data/sample/1.ans", "0.333333333\n");
    p.write(
        "third/data/secret/test_group.yaml",
        "output_validator_args: [float_absolute_tolerance, \"0.001\"]\n",
    );
    p.write("third/data/secret/big/2.in", "100\n");
    p.write("third/data/secret/big/2.ans", "33.333333333\n");
    p.write("third/submissions/accepted/short.py", &third_py(4));
    p.write("third/submissions/wrong_answer/rough.py", &third_py(1));
    p.write("third/submissions/accepted/Sol.kt", "fun main() {}\n");
    p.write("third/submissions/accepted/off.py.disabled", "print(1)\n");
    p.write("third/submissions/slow_accepted/slow.py", &third_py(9));
    p.path("third")
}

#[test]
fn v2025_09_with_a_nested_test_group_tolerance_verifies() {
    let p = Project::empty();
    let pkg = third_package(&p);
    let r = judge(&p, &pkg, &pkg.join("submissions/accepted/short.py"));
    assert_eq!(r["verdict"], "AC", "{r:#}");
    let r = judge(&p, &pkg, &pkg.join("submissions/wrong_answer/rough.py"));
    assert_eq!(r["verdict"], "WA", "{r:#}");
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("skipped: no toolchain for Kotlin"), "{text}");
    assert!(text.contains("note: submissions/slow_accepted/"), "{text}");
    assert!(
        text.contains("off.py.disabled: disabled, skipped"),
        "{text}"
    );
}

const VALIDATE_H: &str = "#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>
inline FILE *feedback(const char *dir) {
    std::string p = std::string(dir) + \"/judgemessage.txt\";
    return std::fopen(p.c_str(), \"w\");
}
inline void verdict(bool ok, const char *dir, const char *why) {
    if (!ok) { FILE *f = feedback(dir); if (f) { std::fputs(why, f); std::fclose(f); } }
    std::exit(ok ? 42 : 43);
}
";

/// Accepts any two numbers summing to the input number.
const VALIDATE_CC: &str = "#include \"validate.h\"
#include <fstream>
#include <iostream>
int main(int argc, char **argv) {
    if (argc < 4) return 1;
    std::ifstream in(argv[1]);
    long long n; in >> n;
    long long a, b;
    if (!(std::cin >> a >> b)) verdict(false, argv[3], \"expected two numbers\");
    std::string extra;
    if (std::cin >> extra) verdict(false, argv[3], \"trailing output\");
    verdict(a >= 0 && b >= 0 && a + b == n, argv[3], \"the parts do not sum to n\");
}
";

/// A package in a folder called `nim`: a different problem from the
/// catalog's Nim (split n into two parts), with a validator made of a
/// source and its header and an accepted submission of several files.
fn split_package(p: &Project) -> PathBuf {
    p.write(
        "nim/problem.yaml",
        "problem_format_version: 2023-07\nname: Split\nlimits: {time_limit: 2, memory: 256}\n",
    );
    p.write("nim/output_validator/validate.h", VALIDATE_H);
    p.write("nim/output_validator/validate.cc", VALIDATE_CC);
    p.write("nim/data/sample/1.in", "3\n");
    p.write("nim/data/sample/1.ans", "1 2\n");
    p.write("nim/data/secret/1.in", "10\n");
    p.write("nim/data/secret/1.ans", "5 5\n");
    p.write("nim/data/secret/2.in", "7\n");
    p.write("nim/data/secret/2.ans", "0 7\n");
    p.write(
        "nim/submissions/accepted/multi/main.cpp",
        "#include <cstdio>\n#include \"half.h\"\nint main() { long long n; std::scanf(\"%lld\", &n); std::printf(\"%lld %lld\\n\", half(n), n - half(n)); }\n",
    );
    p.write(
        "nim/submissions/accepted/multi/half.h",
        "inline long long half(long long n) { return n / 2; }\n",
    );
    p.write(
        "nim/submissions/wrong_answer/off.py",
        "n = int(input())\nprint(n // 2, n // 2)\n",
    );
    p.path("nim")
}

#[test]
fn a_header_validator_and_a_multi_file_submission_and_no_catalog_oracle() {
    let p = Project::empty();
    let pkg = split_package(&p);
    let (code, text) = verify(&p, &pkg);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("expected WA  got WA"),
        "the wrong submission must be caught: {text}"
    );
    let r = judge(&p, &pkg, &pkg.join("submissions/wrong_answer/off.py"));
    assert_eq!(r["verdict"], "WA", "{r:#}");
    let message = r.to_string();
    assert!(message.contains("do not sum"), "{r:#}");
}

#[test]
fn the_packages_memory_limit_has_no_language_allowance() {
    let p = Project::empty();
    p.write("mem/problem.yaml", "name: Mem\nlimits: {memory: 64}\n");
    p.write("mem/.timelimit", "2\n");
    p.write("mem/data/secret/1.in", "1\n");
    p.write("mem/data/secret/1.ans", "1\n");
    // 72 MiB touched: over the package's 64 MiB, under 64 MiB plus the
    // 16 MiB a native language is otherwise allowed.
    let hog = p.write(
        "mem/submissions/accepted/hog.c",
        "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\nint main(void){size_t n=72u<<20;char*p=malloc(n);if(!p)return 3;memset(p,1,n);long s=0;for(size_t i=0;i<n;i+=4096)s+=p[i];printf(\"%d\\n\",s>0);return 0;}\n",
    );
    let r = judge(&p, &p.path("mem"), &hog);
    let v = r["verdict"].as_str().unwrap_or("");
    assert!(v == "MLE" || v == "RE", "{r:#}");
}

#[test]
fn unknown_keys_are_noted_and_the_package_still_judged() {
    let p = Project::empty();
    p.write(
        "keys/problem.yaml",
        "name: Keys\nfrobnicate: yes\nlimits: {time_multipliers: {ac_to_time_limit: 2.0}}\n",
    );
    p.write("keys/data/secret/1.in", "1\n");
    p.write("keys/data/secret/1.ans", "1\n");
    p.write("keys/submissions/accepted/echo.py", "print(input())\n");
    let (code, text) = verify(&p, &p.path("keys"));
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("note: problem.yaml: `frobnicate` not used"),
        "{text}"
    );
    assert!(text.contains("note: no time limit given"), "{text}");
}
