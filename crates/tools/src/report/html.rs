//! `report.html`: one self-contained page (inline CSS, no external asset) a
//! teacher can open from a file share or mail around. The only script is
//! the replay of a lost played game (`replay`), inline and on pages that
//! have one; everything else reads the same without it.
//!
//! At the top a students × problems table, each cell coloured by verdict
//! with the score and a link to the submission; then the class page (score
//! histograms and wrong ideas, `class_page`); below, per submission, its
//! tests, the first failing case with its diff, and the compile log.
//! Everything that comes from a submission or a file name is HTML-escaped.
//! No timings, so grading the same class twice gives the same page.

use std::fmt::Write as _;

use super::model::{ClassReport, Graded, score_text};
use crate::judge::{Diff, DiffSide};
use crate::markup::{count, escape};
use crate::verdict::Verdict;

use super::stable;
use super::verdict_css::{VERDICT_CSS, class_of};

const PAGE_CSS: &str = "
body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;margin:1.5em;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em}h3{font-size:1.05em}
table{border-collapse:collapse}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}
thead th{background:#eceff1}
td.cell{text-align:center;white-space:nowrap}
td.cell a{color:inherit;text-decoration:none;display:block}
td.total{font-weight:bold;text-align:right}
.badge{padding:.05em .4em;border-radius:.25em;font-weight:bold}
pre{background:#f7f7f7;border:1px solid #ddd;padding:.5em;overflow:auto;max-height:24em;white-space:pre-wrap}
pre .add{color:#1b5e20}pre .del{color:#b71c1c}
section.submission{border-top:1px solid #ccc;margin-top:1em}
.legend span{margin-right:.5em;padding:.05em .4em}
.issues li{margin:.2em 0}
.class-problem{margin:1em 0}
svg.histogram{display:block;margin:.5em 0}
table.wrong-ideas td.count,table.failures td.count{text-align:right;white-space:nowrap}
table.failures{margin-top:.6em}
";

/// The whole page.
pub fn report(class: &ClassReport) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Grades: {}, {}</title>\n<style>{VERDICT_CSS}{PAGE_CSS}{}</style>\n</head>\n<body>\n",
        count(class.students.len(), "student", "students"),
        count(class.problems.len(), "problem", "problems"),
        super::replay::CSS
    );
    let _ = writeln!(h, "<h1>Grades</h1>");
    let _ = writeln!(h, "<p class=\"summary\">{}</p>", escape(&summary(class)));
    legend(&mut h);
    grades_table(&mut h, class);
    super::class_page::class_section(&mut h, class);
    issues(&mut h, class);
    identical(&mut h, class);
    let _ = writeln!(h, "<h2>Submissions</h2>");
    let mut replays = 0;
    for (i, g) in class.graded.iter().enumerate() {
        replays += submission(&mut h, i, g);
    }
    if replays > 0 {
        h.push_str(super::replay::SCRIPT);
    }
    h.push_str("</body>\n</html>\n");
    h
}

/// The page of `judge --html`: a report on the submissions of one problem
/// judged at the command line, not a class: no grades, no class figures.
/// One submission's page is about that submission (its verdict in the
/// title); several get a table of their verdicts first. A player's lost
/// game can be replayed there without grading a class.
pub fn judge_report(
    problem: super::model::ProblemInfo,
    results: &[crate::judge::SubmissionResult],
) -> String {
    let graded: Vec<Graded> = results
        .iter()
        .map(|r| Graded {
            student: r.submission.clone(),
            result: r.clone(),
            first_fail_input: None,
            smallest_failing_input: None,
        })
        .collect();
    let id = escape(problem.id.as_str());
    let title = match results {
        [r] => format!(
            "{} on {id}: {} {}/100",
            escape(&r.submission),
            r.verdict.code(),
            score_text(r.score)
        ),
        _ => format!("{} submissions on {id}", results.len()),
    };
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{title}</title>\n<style>{VERDICT_CSS}{PAGE_CSS}{}</style>\n</head>\n<body>\n",
        super::replay::CSS
    );
    let _ = writeln!(h, "<h1>{title}</h1>");
    let _ = writeln!(
        h,
        "<p class=\"summary\">Problem <code>{id}</code> ({}), judged by <code>grundy judge</code>.</p>",
        escape(&problem.title)
    );
    if results.len() > 1 {
        h.push_str("<table id=\"submissions\">\n<thead><tr><th>file</th><th>verdict</th><th>score</th></tr></thead>\n<tbody>\n");
        for (i, r) in results.iter().enumerate() {
            let _ = writeln!(
                h,
                "<tr><th scope=\"row\"><a href=\"#sub-{i}\">{}</a></th><td class=\"cell {}\" data-verdict=\"{}\">{}</td><td class=\"total\">{}</td></tr>",
                escape(&r.submission),
                class_of(r.verdict),
                r.verdict.code(),
                r.verdict.code(),
                score_text(r.score)
            );
        }
        h.push_str("</tbody>\n</table>\n");
    }
    let mut replays = 0;
    for (i, g) in graded.iter().enumerate() {
        replays += submission(&mut h, i, g);
    }
    if replays > 0 {
        h.push_str(super::replay::SCRIPT);
    }
    h.push_str("</body>\n</html>\n");
    h
}

fn summary(class: &ClassReport) -> String {
    let mut counts = std::collections::BTreeMap::new();
    for g in &class.graded {
        *counts.entry(g.result.verdict).or_insert(0) += 1;
    }
    let verdicts: Vec<String> = counts
        .iter()
        .map(|(v, n)| format!("{} {n}", v.code()))
        .collect();
    format!(
        "{}, {}, {} judged ({}), {}.",
        count(class.students.len(), "student", "students"),
        count(class.problems.len(), "problem", "problems"),
        count(class.graded.len(), "submission", "submissions"),
        if verdicts.is_empty() {
            "none".into()
        } else {
            verdicts.join(", ")
        },
        count(class.issues.len(), "issue", "issues")
    )
}

fn legend(h: &mut String) {
    h.push_str("<p class=\"legend\">");
    for v in Verdict::ALL {
        let _ = write!(
            h,
            "<span class=\"{}\" title=\"{}\">{}</span>",
            class_of(v),
            v.meaning(),
            v.code()
        );
    }
    h.push_str("<span class=\"v-none\">no submission judged</span></p>\n");
}

fn grades_table(h: &mut String, class: &ClassReport) {
    h.push_str("<table id=\"grades\">\n<thead><tr><th>student</th>");
    for p in &class.problems {
        let _ = write!(
            h,
            "<th title=\"{}\">{}</th>",
            escape(&p.title),
            escape(p.id.as_str())
        );
    }
    h.push_str("<th>total</th></tr></thead>\n<tbody>\n");
    for student in &class.students {
        let _ = write!(
            h,
            "<tr data-student=\"{0}\"><th scope=\"row\">{0}</th>",
            escape(student)
        );
        for p in &class.problems {
            let found = class
                .graded
                .iter()
                .position(|g| &g.student == student && g.result.problem == p.id);
            match found {
                Some(i) => {
                    let r = &class.graded[i].result;
                    let _ = write!(
                        h,
                        "<td class=\"cell {}\" data-verdict=\"{}\" data-problem=\"{}\"><a href=\"#sub-{i}\">{} {}</a></td>",
                        class_of(r.verdict),
                        r.verdict.code(),
                        escape(p.id.as_str()),
                        r.verdict.code(),
                        score_text(r.score)
                    );
                }
                None => {
                    let _ = write!(
                        h,
                        "<td class=\"cell v-none\" data-verdict=\"\" data-problem=\"{}\">—</td>",
                        escape(p.id.as_str())
                    );
                }
            }
        }
        let _ = writeln!(
            h,
            "<td class=\"total\">{}</td></tr>",
            score_text(class.total(student))
        );
    }
    h.push_str("</tbody>\n</table>\n");
}

fn issues(h: &mut String, class: &ClassReport) {
    if class.issues.is_empty() {
        return;
    }
    let _ = writeln!(
        h,
        "<h2>Issues ({})</h2>\n<ul class=\"issues\">",
        class.issues.len()
    );
    for i in &class.issues {
        let _ = writeln!(
            h,
            "<li><code>{}</code>: <strong>{}</strong>: {}</li>",
            escape(&i.path),
            escape(i.kind.label()),
            escape(&i.message)
        );
    }
    h.push_str("</ul>\n");
}

/// Files with the same content, judged once.
fn identical(h: &mut String, class: &ClassReport) {
    if class.identical.is_empty() {
        return;
    }
    h.push_str("<h2>Identical files</h2>\n<p>Each group holds the same content: it was judged once and the result given to every file. <code>grundy similar</code> (or <code>grade --similarity</code>) also finds copies that were renamed or reformatted.</p>\n<ul class=\"identical\">\n");
    for same in &class.identical {
        let files: Vec<String> = same
            .files
            .iter()
            .map(|f| format!("<code>{}</code>", escape(f)))
            .collect();
        let _ = writeln!(
            h,
            "<li>{}: {}</li>",
            escape(same.problem.as_str()),
            files.join(", ")
        );
    }
    h.push_str("</ul>\n");
}

/// One submission's section; returns how many game replays it holds.
fn submission(h: &mut String, index: usize, g: &Graded) -> usize {
    let mut replays = 0;
    let r = &g.result;
    let _ = writeln!(
        h,
        "<section class=\"submission\" id=\"sub-{index}\">\n<h3>{} — {} <span class=\"badge {}\">{}</span> {}/100</h3>",
        escape(&g.student),
        escape(r.problem.as_str()),
        class_of(r.verdict),
        r.verdict.code(),
        score_text(r.score)
    );
    let _ = writeln!(
        h,
        "<p>File <code>{}</code>, language {}.</p>",
        escape(&r.submission),
        escape(&r.language)
    );
    if let Some(e) = &r.internal_error {
        let _ = writeln!(
            h,
            "<p><strong>Internal error</strong> (not the submission's fault): {}</p>",
            escape(e)
        );
    }
    if !r.compile.ok || !r.compile.log.trim().is_empty() {
        let title = if r.compile.ok {
            "Compiler warnings"
        } else {
            "Compile log"
        };
        let _ = writeln!(
            h,
            "<details{}><summary>{title}</summary>\n<pre class=\"compile-log\">{}</pre>\n</details>",
            if r.compile.ok { "" } else { " open" },
            escape(&r.compile.log)
        );
    }
    if let Some(t) = r.tests.iter().find(|t| t.verdict != Verdict::AC) {
        let _ = writeln!(
            h,
            "<div class=\"first-fail\"><h4>First failing test: {} <span class=\"badge {}\">{}</span></h4>\n<p>{}</p>",
            escape(&t.name),
            class_of(t.verdict),
            t.verdict.code(),
            escape(&stable::message(t))
        );
        if let Some(input) = &g.first_fail_input {
            let _ = writeln!(
                h,
                "<p>Input:</p>\n<pre class=\"input\">{}</pre>",
                escape(input)
            );
        }
        if let Some(small) = &g.smallest_failing_input {
            let _ = writeln!(
                h,
                "<p>A smaller input on which it fails the same way:</p>\n<pre class=\"input\">{}</pre>",
                escape(small)
            );
        }
        if let Some(diff) = &t.diff {
            // A played game's `diff` is the lost game's last moves.
            let title = if t.game.is_some() {
                "The game"
            } else {
                "Difference"
            };
            let _ = writeln!(
                h,
                "<p>{title}:</p>\n<pre class=\"diff\">{}</pre>",
                diff_html(diff, t.game.is_some())
            );
        }
        if let Some(game) = &t.game {
            let before = h.len();
            super::replay::replay(h, &format!("replay-{index}"), game);
            replays += usize::from(h.len() > before);
        }
        if !t.stderr.trim().is_empty() {
            let _ = writeln!(
                h,
                "<p>Standard error:</p>\n<pre class=\"stderr\">{}</pre>",
                escape(&t.stderr)
            );
        }
        h.push_str("</div>\n");
    }
    if !r.tests.is_empty() {
        let passed = r.tests.iter().filter(|t| t.verdict == Verdict::AC).count();
        let skipped = if r.skipped > 0 {
            format!(
                "; <span class=\"skipped\" data-skipped=\"{0}\">{0} not run</span> (their group had already failed)",
                r.skipped
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            h,
            "<details><summary>Tests: {passed} of {} passed{skipped}</summary>\n<table class=\"tests\"><thead><tr><th>test</th><th>group</th><th>verdict</th><th>message</th></tr></thead><tbody>",
            r.tests.len()
        );
        for t in &r.tests {
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{}</td><td class=\"{}\">{}</td><td>{}</td></tr>",
                escape(&t.name),
                escape(&t.group),
                class_of(t.verdict),
                t.verdict.code(),
                escape(&stable::message(t))
            );
        }
        h.push_str("</tbody></table>\n</details>\n");
    }
    h.push_str("</section>\n");
    replays
}

/// A diff with the output's and the expected answer's lines marked; a
/// game's moves (`game`) are no diff and none is marked, whether the
/// result was judged now or read back from a journal.
fn diff_html(diff: &Diff, game: bool) -> String {
    diff.lines()
        .map(|(side, l)| {
            let e = escape(l);
            match side {
                _ if game => e,
                DiffSide::Output => format!("<span class=\"add\">{e}</span>"),
                DiffSide::Expected => format!("<span class=\"del\">{e}</span>"),
                DiffSide::Neither => e,
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_lines_are_marked_by_side_and_game_moves_are_not() {
        let window = Diff::window("@@ -1 +1 @@\n-<2>\n+3\n x\n".to_string());
        assert_eq!(
            diff_html(&window, false),
            "@@ -1 +1 @@\n<span class=\"del\">-&lt;2&gt;</span>\n<span class=\"add\">+3</span>\n x"
        );
        let read_back: Diff =
            serde_json::from_str("\"game 1 of 1, start: 3\\n-1 taken\\n\"").expect("JSON string");
        assert_eq!(
            diff_html(&read_back, true),
            "game 1 of 1, start: 3\n-1 taken"
        );
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(
            escape("<script>\"x\" & 'y'</script>"),
            "&lt;script&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/script&gt;"
        );
    }
}
