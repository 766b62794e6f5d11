//! `junit.xml`: a test suite per problem, a test case per submission (named
//! after the student), a failure carrying the verdict and the first failing
//! test's message, so CI dashboards and LMS plug-ins that read JUnit show
//! the class at a glance. Files that could not be judged form an `issues`
//! suite of errors. No timings: the file is the same on every run.

use super::model::{ClassReport, Graded, score_text};
use crate::verdict::Verdict;

use super::stable;

/// The JUnit XML text.
pub fn junit(class: &ClassReport) -> String {
    let mut suites = String::new();
    let (mut all_tests, mut all_failures, mut all_errors) = (0, 0, 0);
    for p in &class.problems {
        let graded: Vec<&Graded> = class
            .graded
            .iter()
            .filter(|g| g.result.problem == p.id)
            .collect();
        let failures = graded
            .iter()
            .filter(|g| !matches!(g.result.verdict, Verdict::AC | Verdict::IE))
            .count();
        let errors = graded
            .iter()
            .filter(|g| g.result.verdict == Verdict::IE)
            .count();
        all_tests += graded.len();
        all_failures += failures;
        all_errors += errors;
        suites.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"0\">\n",
            attr(p.id.as_str()),
            graded.len()
        ));
        for g in graded {
            suites.push_str(&case(g));
        }
        suites.push_str("  </testsuite>\n");
    }
    if !class.issues.is_empty() {
        let n = class.issues.len();
        all_tests += n;
        all_errors += n;
        suites.push_str(&format!(
            "  <testsuite name=\"issues\" tests=\"{n}\" failures=\"0\" errors=\"{n}\" skipped=\"0\">\n"
        ));
        for i in &class.issues {
            suites.push_str(&format!(
                "    <testcase classname=\"issues\" name=\"{}\">\n      <error type=\"{}\" message=\"{}\"/>\n    </testcase>\n",
                attr(&i.path),
                attr(i.kind.label()),
                attr(&i.message)
            ));
        }
        suites.push_str("  </testsuite>\n");
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"grundy grade\" tests=\"{all_tests}\" failures=\"{all_failures}\" errors=\"{all_errors}\">\n{suites}</testsuites>\n"
    )
}

fn case(g: &Graded) -> String {
    let r = &g.result;
    let open = format!(
        "    <testcase classname=\"{}\" name=\"{}\" file=\"{}\">\n",
        attr(r.problem.as_str()),
        attr(&g.student),
        attr(&r.submission)
    );
    let score = format!("{} {}/100", r.verdict.code(), score_text(r.score));
    let body = match r.verdict {
        Verdict::AC => String::new(),
        Verdict::CE => format!(
            "      <failure type=\"CE\" message=\"{}\">{}</failure>\n",
            attr(&format!("{score}: the program does not compile")),
            text(&r.compile.log)
        ),
        v => {
            let first = r.tests.iter().find(|t| t.verdict != Verdict::AC);
            let (message, details) = match first {
                Some(t) => {
                    let m = stable::message(t);
                    let mut d = format!("{} ({}): {m}\n", t.name, t.verdict.code());
                    if r.skipped > 0 {
                        d.push_str(&format!(
                            "{} skipped: their group had already failed\n",
                            crate::markup::count(r.skipped, "test", "tests")
                        ));
                    }
                    if let Some(diff) = &t.diff {
                        d.push_str(diff.text());
                        d.push('\n');
                    }
                    (format!("{score} at {}: {m}", t.name), d)
                }
                None => (score.clone(), r.internal_error.clone().unwrap_or_default()),
            };
            let tag = if v == Verdict::IE { "error" } else { "failure" };
            format!(
                "      <{tag} type=\"{}\" message=\"{}\">{}</{tag}>\n",
                v.code(),
                attr(&message),
                text(&details)
            )
        }
    };
    format!("{open}{body}    </testcase>\n")
}

/// Text content: escaped, and without the control characters XML 1.0 forbids.
fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// An attribute value: also quotes and line breaks escaped.
fn attr(s: &str) -> String {
    text(s)
        .replace('"', "&quot;")
        .replace('\n', "&#10;")
        .replace('\r', "&#13;")
        .replace('\t', "&#9;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_strips_control_characters() {
        assert_eq!(attr("a<b & \"c\"\n"), "a&lt;b &amp; &quot;c&quot;&#10;");
        assert_eq!(text("x\u{1}y"), "x\u{fffd}y");
    }
}
