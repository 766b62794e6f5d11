//! `grundy statement` on a 2025-09 package with `constants:` shows the
//! statement as the format defines it: `{{name}}` replaced in a Markdown
//! statement, `\constant{name}` in a LaTeX one; other braces as written.

mod common;

use common::{Project, stderr, stdout};

fn package(p: &Project, statement: (&str, &str)) -> std::path::PathBuf {
    p.write(
        "lim/problem.yaml",
        "problem_format_version: 2025-09\nname: Limits\ntype: pass-fail\nuuid: 1d\nlimits: {time_limit: 1}\n\
         constants:\n  MAXN: {value: 1000, WORDS: one thousand}\n",
    );
    p.write("lim/data/sample/1.in", "1\n");
    p.write("lim/data/sample/1.ans", "1\n");
    p.write("lim/data/secret/1.in", "2\n");
    p.write("lim/data/secret/1.ans", "2\n");
    p.write("lim/submissions/accepted/echo.py", "print(input())\n");
    p.write(&format!("lim/statement/{}", statement.0), statement.1);
    p.path("lim")
}

fn statement(p: &Project, pkg: &std::path::Path) -> String {
    let out = p.grundy(&["statement", &pkg.to_string_lossy()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}\n{}",
        stdout(&out),
        stderr(&out)
    );
    stdout(&out)
}

#[test]
fn a_markdown_statement_shows_the_constants_values() {
    let p = Project::empty();
    let pkg = package(
        &p,
        (
            "problem.en.md",
            "# Limits\n\nAt most {{MAXN}} ({{MAXN.WORDS}}) numbers; {{UNKNOWN}} stays.\n",
        ),
    );
    let page = statement(&p, &pkg);
    assert!(
        page.contains("At most 1000 (one thousand) numbers"),
        "{page}"
    );
    assert!(page.contains("{{UNKNOWN}}"), "{page}");
    assert!(!page.contains("{{MAXN"), "{page}");
}

#[test]
fn a_latex_statement_shows_the_constants_values_by_their_command() {
    let p = Project::empty();
    let pkg = package(
        &p,
        (
            "problem.en.tex",
            "\\problemname{Limits}\nAt most $\\constant{MAXN}$ numbers, \\constant{MAXN.WORDS}.\n",
        ),
    );
    let page = statement(&p, &pkg);
    assert!(
        page.contains("At most $1000$ numbers, one thousand."),
        "{page}"
    );
    assert!(!page.contains("\\constant"), "{page}");
}
