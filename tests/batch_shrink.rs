//! `grade --feedback first-fail` shows a student, besides the first failing
//! test, a smaller input on which the program fails the same way.

mod common;

use std::path::Path;

/// Nim with the first pile left out of the nim-sum when it is even. The
/// samples' first piles are odd, so the samples pass: a failed sample is
/// shown as it is (it is already small), and the shrunk input is for a
/// hidden test.
const SKIP_FIRST: &str = r#"#include <stdio.h>
int main(void) {
    int n, a, x = 0;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n && scanf("%d", &a) == 1; i++) if (i > 0 || a % 2) x ^= a;
    puts(x ? "Alice" : "Bob");
    return 0;
}
"#;

fn grade(p: &common::Project, out: &str, feedback: &str) -> String {
    let problems = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/problems"));
    let run = common::grundy_in(
        problems,
        &[
            "grade",
            &p.path("class").to_string_lossy(),
            "--out",
            &p.path(out).to_string_lossy(),
            "--feedback",
            feedback,
        ],
    );
    assert_eq!(run.status.code(), Some(1), "{}", common::stderr(&run));
    std::fs::read_to_string(p.path(&format!("{out}/feedback/alice.txt"))).expect("feedback file")
}

#[test]
fn first_fail_feedback_shows_a_shrunk_input() {
    let p = common::Project::empty();
    p.write("class/alice/nim.c", SKIP_FIRST);
    let text = grade(&p, "out", "first-fail");
    let (_, after) = text
        .split_once("a smaller input on which it fails the same way:")
        .unwrap_or_else(|| panic!("no shrunk input in:\n{text}"));
    let numbers: Vec<&str> = after
        .lines()
        .skip(1) // the rest of the heading's line
        .take_while(|l| l.starts_with("      "))
        .flat_map(str::split_whitespace)
        .collect();
    // One pile is enough to show the bug: "1 / 1".
    assert!(
        !numbers.is_empty() && numbers.len() <= 2,
        "{numbers:?} in:\n{text}"
    );
    let html = std::fs::read_to_string(p.path("out/report.html")).expect("html");
    assert!(html.contains("A smaller input on which it fails the same way"));
    // The same class graded again finds the same input: reports stay reproducible.
    assert_eq!(grade(&p, "again", "first-fail"), text);
}

#[test]
fn other_feedback_levels_do_not_shrink() {
    let p = common::Project::empty();
    p.write("class/alice/nim.c", SKIP_FIRST);
    let text = grade(&p, "out", "groups");
    assert!(!text.contains("a smaller input"), "{text}");
}
