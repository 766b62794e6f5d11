//! Programs as people write them: Java with a `package` line and any class
//! name, and submissions made of several files (a folder in one language),
//! judged by `judge`, `grade` and `verify`. Real compilers, real processes.

mod common;

use std::path::{Path, PathBuf};

use common::{Project, grundy_in, stderr, stdout, verdicts};

fn catalog() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("problems")
}

/// `judge PROBLEM PATH --json` on the catalog; the first result.
fn judge_catalog(problem: &str, path: &Path) -> serde_json::Value {
    let p = path.to_string_lossy().into_owned();
    let out = grundy_in(&catalog(), &["judge", problem, &p, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}); stdout:\n{}\nstderr:\n{}",
            stdout(&out),
            stderr(&out)
        )
    });
    v["results"][0].clone()
}

fn assert_ac(r: &serde_json::Value) {
    assert_eq!(r["verdict"], "AC", "{r:#}");
    assert!(!verdicts(r).is_empty());
    assert!(verdicts(r).iter().all(|v| v == "AC"), "{r:#}");
}

const JAVA_IDE_NIM: &str = "package com.example.nim;

import java.io.*;
import java.util.*;

public class NimSolver {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StreamTokenizer t = new StreamTokenizer(in);
        t.resetSyntax();
        t.wordChars('0', '9');
        t.whitespaceChars(0, ' ');
        t.nextToken();
        int n = Integer.parseInt(t.sval);
        long x = 0;
        for (int i = 0; i < n; i++) { t.nextToken(); x ^= Long.parseLong(t.sval); }
        System.out.println(Answer.of(x));
    }
}

class Answer {
    static String of(long x) { return x != 0 ? \"Alice\" : \"Bob\"; }
}
";

#[test]
fn java_with_a_package_line_and_any_class_name_is_ac_on_nim() {
    let p = Project::empty();
    let file = p.write("subs/Solution_v2.java", JAVA_IDE_NIM);
    assert_ac(&judge_catalog("nim", &file));
}

#[test]
fn java_class_name_too_long_for_a_file_is_ce_with_the_reason() {
    let p = Project::toy("");
    let name = format!("C{}", "x".repeat(300));
    let src = format!(
        "public class {name} {{ public static void main(String[] a) {{ System.out.println(\"Bob\"); }} }}\n"
    );
    let r = p.judge_source("long.java", &src, &[]);
    assert_eq!(r["verdict"], "CE", "{r:#}");
    let log = r["compile"]["log"].as_str().unwrap_or("");
    assert!(log.contains("file name"), "{log}");
}

const CPP_MAIN: &str = "#include <cstdio>
#include \"xor.h\"
int main() {
    int n; unsigned long long a, x = 0;
    if (std::scanf(\"%d\", &n) != 1) return 1;
    for (int i = 0; i < n && std::scanf(\"%llu\", &a) == 1; i++) x = mix(x, a);
    std::puts(x ? \"Alice\" : \"Bob\");
}
";
const CPP_HEADER: &str =
    "#pragma once\nunsigned long long mix(unsigned long long a, unsigned long long b);\n";
const CPP_IMPL: &str = "#include \"xor.h\"\nunsigned long long mix(unsigned long long a, unsigned long long b) { return a ^ b; }\n";

#[test]
fn cpp_folder_with_a_header_and_two_files_is_ac() {
    let p = Project::empty();
    p.write("sub/main.cpp", CPP_MAIN);
    p.write("sub/xor.h", CPP_HEADER);
    p.write("sub/xor.cpp", CPP_IMPL);
    assert_ac(&judge_catalog("nim", &p.path("sub")));
}

#[test]
fn cpp_folder_missing_its_second_file_is_ce() {
    let p = Project::empty();
    p.write("sub/main.cpp", CPP_MAIN);
    p.write("sub/xor.h", CPP_HEADER);
    let r = judge_catalog("nim", &p.path("sub"));
    assert_eq!(r["verdict"], "CE", "{r:#}");
    assert!(
        r["compile"]["log"].as_str().unwrap_or("").contains("mix"),
        "{r:#}"
    );
}

#[test]
fn python_folder_with_a_module_is_ac() {
    let p = Project::empty();
    p.write(
        "py/solve.py",
        "import sys\nfrom nimsum import nim_sum\n\nif __name__ == \"__main__\":\n    d = sys.stdin.read().split()\n    print('Alice' if nim_sum(map(int, d[1:])) else 'Bob')\n",
    );
    p.write(
        "py/nimsum.py",
        "def nim_sum(xs):\n    s = 0\n    for x in xs:\n        s ^= x\n    return s\n",
    );
    assert_ac(&judge_catalog("nim", &p.path("py")));
}

#[test]
fn java_folder_with_classes_in_packages_is_ac() {
    let p = Project::empty();
    p.write(
        "jv/src/com/example/app/Run.java",
        "package com.example.app;\nimport com.example.util.Xor;\nimport java.util.*;\npublic class Run {\n  public static void main(String[] a) {\n    Scanner s = new Scanner(System.in); int n = s.nextInt(); long x = 0;\n    for (int i = 0; i < n; i++) x = Xor.mix(x, s.nextLong());\n    System.out.println(x != 0 ? \"Alice\" : \"Bob\");\n  }\n}\n",
    );
    p.write(
        "jv/src/com/example/util/Xor.java",
        "package com.example.util;\npublic class Xor { public static long mix(long a, long b) { return a ^ b; } }\n",
    );
    assert_ac(&judge_catalog("nim", &p.path("jv")));
}

#[test]
fn grade_judges_a_folder_named_after_the_problem() {
    let p = Project::toy("");
    p.write("class/alice/toy/main.cpp", CPP_MAIN);
    p.write("class/alice/toy/xor.h", CPP_HEADER);
    p.write("class/alice/toy/xor.cpp", CPP_IMPL);
    p.write("class/bob/toy.c", common::TOY_C);
    let class = p.path("class").to_string_lossy().into_owned();
    let out_dir = p.path("out").to_string_lossy().into_owned();
    let out = p.grundy(&["grade", &class, "--out", &out_dir]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(p.path("out/report.json")).expect("report.json"))
            .expect("json");
    let text = report.to_string();
    assert!(text.contains("alice/toy"), "{report:#}");
    let results = report["results"].as_array().cloned().unwrap_or_default();
    let alice = results
        .iter()
        .find(|r| r["student"] == "alice")
        .unwrap_or_else(|| panic!("no result for alice: {report:#}"));
    assert_eq!(alice["verdict"], "AC", "{alice:#}");
}
